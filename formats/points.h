/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Arrays of points in snarkjs's binary layout (zk/point_encoding.h,
 * POINT_FORMAT_SNARKJS), read from a section of an iden3 container.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "binfile.h"
#include "zk/g1.h"
#include "zk/g2.h"
#include "zk/point_encoding.h"

/*
 * Reads n points from the section (in parallel for large n), refusing
 * coordinates >= p and points off the curve, or outside the subgroup when
 * check_subgroup. what names them in messages ("IC", "A"...). On error
 * the message names the lowest bad index, whatever the thread timing.
 */
int bin_read_g1_points(struct bin_reader *r, const char *what, uint64_t n, bool check_subgroup,
                       g1_affine_t *out);
int bin_read_g2_points(struct bin_reader *r, const char *what, uint64_t n, bool check_subgroup,
                       g2_affine_t *out);
