/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fixed-base multiplication: k_i * P for many scalars k_i and one point P,
 * the way a trusted setup turns its field elements into SRS points.
 *
 * A table holds, for each c-bit window w of a 256-bit scalar, the multiples
 * m * 2^(wc) * P for m = 1 .. 2^(c-1) in affine form. Scalars are recoded
 * into signed digits in [-2^(c-1), 2^(c-1)], so one scalar costs one table
 * lookup and one addition per window and no doubling. The additions of a
 * chunk of scalars are done together as batch affine additions sharing one
 * inversion, so the results come out affine with no normalisation pass.
 *
 * The window width is chosen from the number of scalars the table will
 * serve: wider windows mean fewer additions per scalar but a table of
 * ceil(256 / c) * 2^(c-1) points to build (c <= 16: at most 50 MiB in G1,
 * 100 MiB in G2), also by batched affine additions.
 *
 * Tables are read-only once built and may be shared by threads. Functions
 * return 0 or -ENOMEM; threads is a thread count, 0 for zk_thread_count().
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "fr.h"
#include "g1.h"
#include "g2.h"

#define FIXED_BASE_MAX_WINDOW_BITS 16

struct g1_fixed_base {
        unsigned window_bits;        /* c */
        unsigned windows;            /* ceil(256 / c) */
        size_t multiples_per_window; /* 2^(c-1) */
        g1_affine_t *table;          /* [w * multiples_per_window + m - 1] = m 2^(wc) P */
};

struct g2_fixed_base {
        unsigned window_bits;
        unsigned windows;
        size_t multiples_per_window;
        g2_affine_t *table;
};

/* The window width that minimises table building plus n_scalars lookups. */
unsigned fixed_base_window_bits(size_t n_scalars);

/* Builds the table of base for about n_scalars later multiplications. */
int g1_fixed_base_new(struct g1_fixed_base **ret, const g1_affine_t *base, size_t n_scalars,
                      unsigned threads);
void g1_fixed_base_free(struct g1_fixed_base *t);
static inline void g1_fixed_base_freep(struct g1_fixed_base **t) {
        g1_fixed_base_free(*t);
}
/* out[i] = scalars[i] * P in affine form (infinity for 0), i < n. */
int g1_fixed_base_mul(const struct g1_fixed_base *t, g1_affine_t *out, const fr_t *scalars,
                      size_t n, unsigned threads);

int g2_fixed_base_new(struct g2_fixed_base **ret, const g2_affine_t *base, size_t n_scalars,
                      unsigned threads);
void g2_fixed_base_free(struct g2_fixed_base *t);
static inline void g2_fixed_base_freep(struct g2_fixed_base **t) {
        g2_fixed_base_free(*t);
}
int g2_fixed_base_mul(const struct g2_fixed_base *t, g2_affine_t *out, const fr_t *scalars,
                      size_t n, unsigned threads);

/*
 * Points that are valid but unrelated to any secret, fast: out[i] =
 * (start + i * step) * P, one batched affine addition each. For SRS that
 * only time a prover (groth16_setup.h's timing-only keys).
 */
int g1_arithmetic_progression(g1_affine_t *out, size_t n, const g1_affine_t *base,
                              const fr_t *start, const fr_t *step, unsigned threads);
int g2_arithmetic_progression(g2_affine_t *out, size_t n, const g2_affine_t *base,
                              const fr_t *start, const fr_t *step, unsigned threads);
