/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Deterministic inputs for the GPU self-test and benchmark: value i of a
 * stream depends only on (seed, i), so the arrays are the same for every
 * thread count and can be filled in parallel.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "zk/fr.h"
#include "zk/g1.h"
#include "zk/g2.h"

/* splitmix64 of (seed, index). */
uint64_t testdata_u64(uint64_t seed, uint64_t index);
/* A uniformly random Fr element (Montgomery form) for (seed, index). */
void testdata_fr(fr_t *r, uint64_t seed, uint64_t index);
void testdata_fr_array(fr_t *r, size_t n, uint64_t seed);

typedef enum testdata_scalars {
        TESTDATA_RANDOM,   /* full width */
        TESTDATA_ZERO_ONE, /* 3 of 4 are 0 or 1 (a Groth16 witness) */
        TESTDATA_SMALL,    /* -3 .. 3 */
        TESTDATA_EQUAL,    /* one value everywhere */
} testdata_scalars_t;

void testdata_scalar_array(fr_t *r, size_t n, uint64_t seed, testdata_scalars_t shape);

/* Distinct random G1 points (in the subgroup): walks P_{i+1} = P_i + S_j
 * from a random start per chunk of 2^14, one addition per point and one
 * inversion per chunk. Returns 0 or -ENOMEM. */
int testdata_g1_points(g1_affine_t *points, size_t n, uint64_t seed);
int testdata_g2_points(g2_affine_t *points, size_t n, uint64_t seed);
