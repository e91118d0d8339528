/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Multi-scalar multiplication on the CPU: r = sum over i < n of k_i * P_i,
 * for G1 and G2 of BLS12-381.
 *
 * Points are affine (the SRS layout); the point at infinity is allowed and
 * contributes nothing. Scalars come in one of two forms:
 *   _fr         fr_t, Montgomery form (what the field code produces);
 *   _canonical  n x 4 little-endian 64-bit limbs per scalar, each value
 *               below 2^255 (every value below r qualifies; values from r
 *               up act as themselves, i.e. as k mod r on the subgroup).
 * Scalars 0 are skipped and scalars 1 are summed directly, without window
 * processing, since a Groth16 witness is mostly zeros and ones. The rest go
 * through one signed-digit Pippenger spread over all threads.
 *
 * threads: the number of threads to use, 0 for zk_thread_count(). The result
 * is the same point for every thread count (its Jacobian coordinates may
 * differ). n = 0 gives the point at infinity.
 *
 * Working memory, freed before returning: the buckets (up to 2^19 points,
 * for the largest windows), the digits of up to 2^20 points at a time
 * (4 bytes per window each: under 80 MiB) and a few MiB per thread.
 * Returns 0, or -ENOMEM (r untouched) when that cannot be allocated.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "fr.h"
#include "g1.h"
#include "g2.h"

int g1_msm_fr(g1_jac_t *r, const g1_affine_t *points, const fr_t *scalars, size_t n,
              unsigned threads);
int g1_msm_canonical(g1_jac_t *r, const g1_affine_t *points, const uint64_t *scalars, size_t n,
                     unsigned threads);

int g2_msm_fr(g2_jac_t *r, const g2_affine_t *points, const fr_t *scalars, size_t n,
              unsigned threads);
int g2_msm_canonical(g2_jac_t *r, const g2_affine_t *points, const uint64_t *scalars, size_t n,
                     unsigned threads);
