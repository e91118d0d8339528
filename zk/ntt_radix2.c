/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Radix-2 DIF and DIT cores, laid out for the cache. Stage s (s = 0 first
 * in DIF) pairs elements n >> (s+1) apart. The stages whose pairs lie
 * within a block of 2^NTT_BLOCK_LOG elements run block by block, each block
 * staying in L2 for all of them. The wider stages run as sweeps of
 * NTT_SWEEP_STAGES stages at once: each sweep visits every element once, as
 * groups of 2^NTT_SWEEP_STAGES elements that those stages only mix among
 * themselves, so the array crosses memory once per sweep and not once per
 * stage.
 *
 * Twiddles: stage s multiplies the pair at offset j of its block by
 * omega^(j << s), j < n >> (s+1). The inverse reads omega^-e as
 * -omega^(n/2 - e), so one table serves both directions.
 */
#include <assert.h>

#include "ntt_internal.h"

#define NTT_BLOCK_LOG 12
#define NTT_SWEEP_STAGES 3

struct twiddles {
        const fr_t *table;
        size_t half; /* n/2 */
        bool inverse;
};

/* (x, y) <- (x + y, (x - y) * omega^+-e), 0 <= e < n/2. */
static inline void butterfly_dif(const struct twiddles *tw, fr_t *x, fr_t *y, size_t e) {
        fr_t sum, diff;

        ntt_add(&sum, x, y);
        if (e == 0) {
                ntt_sub(y, x, y);
        } else if (tw->inverse) {
                ntt_sub(&diff, y, x);
                ntt_mul(y, &diff, &tw->table[tw->half - e]);
        } else {
                ntt_sub(&diff, x, y);
                ntt_mul(y, &diff, &tw->table[e]);
        }
        *x = sum;
}

/* (x, y) <- (x + y * omega^+-e, x - y * omega^+-e), 0 <= e < n/2. */
static inline void butterfly_dit(const struct twiddles *tw, fr_t *x, fr_t *y, size_t e) {
        fr_t t, sum;

        if (e == 0) {
                ntt_add(&sum, x, y);
                ntt_sub(y, x, y);
                *x = sum;
                return;
        }
        if (tw->inverse) {
                /* y * omega^-e = -(y * table[n/2 - e]) */
                ntt_mul(&t, y, &tw->table[tw->half - e]);
                ntt_sub(&sum, x, &t);
                ntt_add(y, x, &t);
        } else {
                ntt_mul(&t, y, &tw->table[e]);
                ntt_add(&sum, x, &t);
                ntt_sub(y, x, &t);
        }
        *x = sum;
}

/* Stages log_size - log_block .. log_size - 1 on one block of 2^log_block. */
static void dif_block(const struct twiddles *tw, fr_t *block, unsigned log_size,
                      unsigned log_block) {
        const size_t len = (size_t)1 << log_block;

        for (unsigned s = log_size - log_block; s < log_size; s++) {
                const size_t h = (size_t)1 << (log_size - s - 1);
                for (size_t start = 0; start < len; start += 2 * h)
                        for (size_t j = 0; j < h; j++)
                                butterfly_dif(tw, &block[start + j], &block[start + j + h], j << s);
        }
}

static void dit_block(const struct twiddles *tw, fr_t *block, unsigned log_size,
                      unsigned log_block) {
        const size_t len = (size_t)1 << log_block;

        for (unsigned s = log_size; s-- > log_size - log_block;) {
                const size_t h = (size_t)1 << (log_size - s - 1);
                for (size_t start = 0; start < len; start += 2 * h)
                        for (size_t j = 0; j < h; j++)
                                butterfly_dit(tw, &block[start + j], &block[start + j + h], j << s);
        }
}

/*
 * One group of a sweep over stages s0 .. s0 + r - 1: the 2^r elements
 * base[m << log_stride], where base sits at offset j0 < stride of its
 * 2^(log_stride + r) block. In stage s0 + t the pair (m, m + 2^(r-1-t))
 * with m mod 2^(r-t) = mm sits at offset j0 + (mm << log_stride) of its
 * block.
 */
static void dif_group(const struct twiddles *tw, fr_t *base, size_t j0, unsigned s0, unsigned r,
                      unsigned log_stride) {
        for (unsigned t = 0; t < r; t++) {
                const size_t half = (size_t)1 << (r - 1 - t);
                for (size_t m0 = 0; m0 < ((size_t)1 << r); m0 += 2 * half)
                        for (size_t mm = 0; mm < half; mm++)
                                butterfly_dif(tw, &base[(m0 + mm) << log_stride],
                                              &base[(m0 + mm + half) << log_stride],
                                              (j0 + (mm << log_stride)) << (s0 + t));
        }
}

static void dit_group(const struct twiddles *tw, fr_t *base, size_t j0, unsigned s0, unsigned r,
                      unsigned log_stride) {
        for (unsigned t = r; t-- > 0;) {
                const size_t half = (size_t)1 << (r - 1 - t);
                for (size_t m0 = 0; m0 < ((size_t)1 << r); m0 += 2 * half)
                        for (size_t mm = 0; mm < half; mm++)
                                butterfly_dit(tw, &base[(m0 + mm) << log_stride],
                                              &base[(m0 + mm + half) << log_stride],
                                              (j0 + (mm << log_stride)) << (s0 + t));
        }
}

static void sweep(const struct twiddles *tw, fr_t *a, unsigned log_size, unsigned s0, unsigned r,
                  bool dif) {
        const unsigned log_stride = log_size - s0 - r;
        const size_t stride = (size_t)1 << log_stride;
        const size_t groups = (size_t)1 << (log_size - r);
        const size_t n = (size_t)1 << log_size;

        /* Consecutive groups are neighbours in memory: a static schedule
         * hands each thread long contiguous runs. */
#pragma omp parallel for schedule(static) if (n >= NTT_PARALLEL_MIN)
        for (size_t g = 0; g < groups; g++) {
                const size_t j0 = g & (stride - 1);
                fr_t *base = a + ((g >> log_stride) << (log_stride + r)) + j0;
                if (dif)
                        dif_group(tw, base, j0, s0, r, log_stride);
                else
                        dit_group(tw, base, j0, s0, r, log_stride);
        }
}

static void blocks(const struct twiddles *tw, fr_t *a, unsigned log_size, unsigned log_block,
                   bool dif) {
        const size_t count = (size_t)1 << (log_size - log_block);

#pragma omp parallel for schedule(static) if (count > 1)
        for (size_t i = 0; i < count; i++) {
                fr_t *block = a + (i << log_block);
                if (dif)
                        dif_block(tw, block, log_size, log_block);
                else
                        dit_block(tw, block, log_size, log_block);
        }
}

static unsigned sweep_stages(unsigned s0, unsigned wide_stages) {
        return wide_stages - s0 < NTT_SWEEP_STAGES ? wide_stages - s0 : NTT_SWEEP_STAGES;
}

void ntt_dif(const ntt_domain_t *d, fr_t *a, bool inverse) {
        const struct twiddles tw = {d->twiddles, d->size / 2, inverse};
        const unsigned k = d->log_size;
        const unsigned log_block = k < NTT_BLOCK_LOG ? k : NTT_BLOCK_LOG;
        const unsigned wide_stages = k - log_block;

        assert(a);
        for (unsigned s0 = 0; s0 < wide_stages; s0 += sweep_stages(s0, wide_stages))
                sweep(&tw, a, k, s0, sweep_stages(s0, wide_stages), true);
        blocks(&tw, a, k, log_block, true);
}

void ntt_dit(const ntt_domain_t *d, fr_t *a, bool inverse) {
        const struct twiddles tw = {d->twiddles, d->size / 2, inverse};
        const unsigned k = d->log_size;
        const unsigned log_block = k < NTT_BLOCK_LOG ? k : NTT_BLOCK_LOG;
        const unsigned wide_stages = k - log_block;
        unsigned starts[NTT_MAX_LOG_SIZE], count = 0;

        assert(a);
        blocks(&tw, a, k, log_block, false);
        /* The DIF sweeps, undone last to first. */
        for (unsigned s0 = 0; s0 < wide_stages; s0 += sweep_stages(s0, wide_stages))
                starts[count++] = s0;
        while (count-- > 0)
                sweep(&tw, a, k, starts[count], sweep_stages(starts[count], wide_stages), false);
}
