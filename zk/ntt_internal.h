/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by zk/ntt*.c only. */
#pragma once

#include <stdint.h>

#include "mont.h"
#include "ntt.h"

/* Below this many elements a parallel region costs more than it saves. */
#define NTT_PARALLEL_MIN ((size_t)1 << 13)

/* add/sub inlined from mont.h: a call would cost as much as the operation.
 * mul goes through fr_mul so that a faster multiplier in fr.c serves us too. */
static inline void ntt_add(fr_t *r, const fr_t *a, const fr_t *b) {
        mont_add(r->l, a->l, b->l, BLS12_381_R, FR_LIMBS);
}

static inline void ntt_sub(fr_t *r, const fr_t *a, const fr_t *b) {
        mont_sub(r->l, a->l, b->l, BLS12_381_R, FR_LIMBS);
}

static inline void ntt_mul(fr_t *r, const fr_t *a, const fr_t *b) {
        fr_mul(r, a, b);
}

/* The k-bit reversal of i (k <= 64). */
static inline size_t ntt_bitrev_index(size_t i, unsigned k) {
        uint64_t x = __builtin_bswap64((uint64_t)i);

        if (k == 0)
                return 0;
        x = ((x >> 4) & 0x0f0f0f0f0f0f0f0fULL) | ((x & 0x0f0f0f0f0f0f0f0fULL) << 4);
        x = ((x >> 2) & 0x3333333333333333ULL) | ((x & 0x3333333333333333ULL) << 2);
        x = ((x >> 1) & 0x5555555555555555ULL) | ((x & 0x5555555555555555ULL) << 1);
        return (size_t)(x >> (64 - k));
}

/* Unscaled in-place transforms with omega (inverse: omega^-1).
 * dif: natural -> bit-reversed (Gentleman-Sande);
 * dit: bit-reversed -> natural (Cooley-Tukey). */
void ntt_dif(const ntt_domain_t *d, fr_t *a, bool inverse);
void ntt_dit(const ntt_domain_t *d, fr_t *a, bool inverse);

/* a[i] *= c for i < n. */
void ntt_scale(fr_t *a, size_t n, const fr_t *c);
