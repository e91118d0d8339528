/* SPDX-License-Identifier: Apache-2.0 */
/* The element-wise passes around the transforms: bit reversal and scaling
 * by a constant or by powers of a coset shift. */
#include <assert.h>

#include "ntt_internal.h"

/* Elements handled by one parallel work item of the scaling passes. */
#define NTT_CHUNK ((size_t)1 << 12)
/* Bit reversal moves tiles of 2^TILE_LOG x 2^TILE_LOG elements. */
#define TILE_LOG 4

static inline void swap_elements(fr_t *x, fr_t *y) {
        fr_t t = *x;
        *x = *y;
        *y = t;
}

/*
 * Writing i = (hi, mid, lo) with TILE_LOG-bit hi and lo, rev(i) is
 * (rev(lo), rev(mid), rev(hi)): the tile of all (hi, lo) for one mid maps
 * onto the tile for rev(mid). Each tile reads 2^TILE_LOG runs of
 * 2^TILE_LOG consecutive elements, so a pair of tiles fits in L1 however
 * far apart the runs are; a plain swap loop would miss the cache on almost
 * every element of a large array.
 */
static void bit_reverse_tiled(fr_t *a, unsigned log_size) {
        const unsigned log_mid = log_size - 2 * TILE_LOG;
        const size_t mids = (size_t)1 << log_mid;
        const size_t side = (size_t)1 << TILE_LOG;

#pragma omp parallel for schedule(dynamic, 64) if (mids >= 64)
        for (size_t mid = 0; mid < mids; mid++) {
                const size_t mid_rev = ntt_bitrev_index(mid, log_mid);
                if (mid > mid_rev)
                        continue;
                for (size_t hi = 0; hi < side; hi++)
                        for (size_t lo = 0; lo < side; lo++) {
                                size_t i = (hi << (log_size - TILE_LOG)) | (mid << TILE_LOG) | lo;
                                size_t j =
                                        (ntt_bitrev_index(lo, TILE_LOG) << (log_size - TILE_LOG)) |
                                        (mid_rev << TILE_LOG) | ntt_bitrev_index(hi, TILE_LOG);
                                /* Within one tile each pair is met twice. */
                                if (mid != mid_rev || i < j)
                                        swap_elements(&a[i], &a[j]);
                        }
        }
}

void ntt_bit_reverse(fr_t *a, unsigned log_size) {
        const size_t n = (size_t)1 << log_size;

        assert(a);
        assert(log_size <= NTT_MAX_LOG_SIZE);
        if (log_size >= 2 * TILE_LOG + 6) {
                bit_reverse_tiled(a, log_size);
                return;
        }
        for (size_t i = 0; i < n; i++) {
                size_t j = ntt_bitrev_index(i, log_size);
                if (i < j)
                        swap_elements(&a[i], &a[j]);
        }
}

void ntt_scale(fr_t *a, size_t n, const fr_t *c) {
        const fr_t factor = *c;

        assert(a || n == 0);
#pragma omp parallel for schedule(static) if (n >= NTT_PARALLEL_MIN)
        for (size_t i = 0; i < n; i++)
                ntt_mul(&a[i], &a[i], &factor);
}

/*
 * In bit-reversed order the exponent rev(i) of the next element differs by a
 * step that depends only on t, the number of trailing ones of i: stepping i
 * clears bits 0..t-1 and sets bit t, so rev(i) loses
 * 2^(k-1) + ... + 2^(k-t) and gains 2^(k-1-t). step[t] = g^that difference.
 */
static void bit_reversed_steps(fr_t step[NTT_MAX_LOG_SIZE], const fr_t *g, unsigned log_size) {
        fr_t g_inv, g_pow[NTT_MAX_LOG_SIZE], g_inv_pow[NTT_MAX_LOG_SIZE], lost;

        fr_inv(&g_inv, g);
        for (unsigned u = 0; u < log_size; u++) {
                if (u == 0) {
                        g_pow[0] = *g;
                        g_inv_pow[0] = g_inv;
                } else {
                        fr_sqr(&g_pow[u], &g_pow[u - 1]);
                        fr_sqr(&g_inv_pow[u], &g_inv_pow[u - 1]);
                }
        }
        fr_set_one(&lost);
        for (unsigned t = 0; t < log_size; t++) {
                fr_mul(&step[t], &g_pow[log_size - 1 - t], &lost);
                fr_mul(&lost, &lost, &g_inv_pow[log_size - 1 - t]);
        }
}

void ntt_mul_by_powers(fr_t *a, unsigned log_size, const fr_t *c, const fr_t *g,
                       bool bit_reversed) {
        const size_t n = (size_t)1 << log_size;
        const size_t chunks = (n + NTT_CHUNK - 1) / NTT_CHUNK;
        fr_t step[NTT_MAX_LOG_SIZE];
        const fr_t factor = *c, ratio = *g;

        assert(a);
        assert(c);
        assert(g);
        assert(log_size <= NTT_MAX_LOG_SIZE);
        assert(!fr_is_zero(g));

        if (bit_reversed)
                bit_reversed_steps(step, g, log_size);

#pragma omp parallel for schedule(static) if (n >= NTT_PARALLEL_MIN)
        for (size_t chunk = 0; chunk < chunks; chunk++) {
                const size_t begin = chunk * NTT_CHUNK;
                const size_t end = begin + NTT_CHUNK < n ? begin + NTT_CHUNK : n;
                uint64_t e = bit_reversed ? ntt_bitrev_index(begin, log_size) : begin;
                fr_t power;

                fr_pow(&power, &ratio, &e, 1);
                fr_mul(&power, &power, &factor);
                for (size_t i = begin; i < end; i++) {
                        ntt_mul(&a[i], &a[i], &power);
                        if (i + 1 == end)
                                break;
                        if (bit_reversed)
                                ntt_mul(&power, &power, &step[__builtin_ctzll(~(uint64_t)i)]);
                        else
                                ntt_mul(&power, &power, &ratio);
                }
        }
}
