/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Signed-digit Pippenger, one MSM spread over all threads.
 *
 * Each scalar k < 2^255 is cut into W windows of c bits, and every window is
 * recoded (Booth) into a digit d in [-2^(c-1), 2^(c-1)] with
 * k = sum over w of d_w 2^(wc). Adding -P costs the same as adding P, so a
 * window needs buckets for the magnitudes 1..2^(c-1) only: half of the
 * unsigned method's buckets.
 *
 * The work is cut into tiles, one per (window, range of magnitudes). A tile
 * scans its window's digits of all points and adds the points whose digit
 * falls in its range into buckets that only it owns, so tiles need no locks
 * and any thread can run any tile. Once every point is in, each tile reduces
 * its buckets to sum d * B_d over its range, and the windows are combined by
 * Horner's rule (~256 doublings, serial).
 *
 * Buckets are affine when there are enough points: a thread collects a
 * tile's bucket additions, sorts them by bucket and applies them as batch
 * affine additions sharing one inversion (about 0.7 of the cost of an XYZZ
 * mixed addition here). Small MSMs keep XYZZ buckets and mixed additions.
 *
 * Digits are computed once per point, in parallel, before the tiles scan
 * them. To bound that memory for any n, the windowed points are handled in
 * chunks of at most MSM_CHUNK_POINTS.
 *
 * Scalars 0 (and points at infinity) are skipped; scalars 1 are summed apart
 * with batch affine additions (one inversion per MSM_ONES_BATCH additions),
 * which are cheaper than bucket additions and need no window at all.
 */
#include "msm.h"

#include <assert.h>
#include <errno.h>
#include <omp.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "zk/big_alloc.h"

#include "common/cleanup.h"
#include "parallel.h"

#define MSM_SCALAR_LIMBS 4
#define MSM_SCALAR_BITS 256
/* Digits of up to 16 bits: beyond, the buckets outgrow any cache and memory
 * (W * 2^(c-1) bucket points) grows faster than the savings. */
#define MSM_MAX_WINDOW_BITS 16
/* Points per classification block: the unit of parallel work for the
 * scalar scans and of chunk boundaries. */
#define MSM_BLOCK_POINTS ((size_t)4096)
/* Windowed points whose digits are held at once (4 bytes per window each). */
#define MSM_CHUNK_POINTS ((size_t)1 << 20)
/* Tiles per thread: enough that the dynamic schedule evens out tiles of
 * unequal weight (the top window has few non-zero digits). */
#ifndef MSM_TILES_PER_THREAD
#define MSM_TILES_PER_THREAD 6
#endif
/* Batch size of the affine additions that sum the points with scalar 1. */
#define MSM_ONES_BATCH ((size_t)1024)
/* Bucket additions a thread collects before applying them as batches. */
#ifndef MSM_SORTER_OPS
#define MSM_SORTER_OPS ((size_t)4096)
#endif
/* Below this many windowed points, too few bucket additions share each
 * inversion for affine buckets to beat XYZZ ones. (These tuning constants
 * can be set on the compiler's command line, for comparisons.) */
#ifndef MSM_AFFINE_MIN_POINTS
#define MSM_AFFINE_MIN_POINTS ((size_t)2048)
#endif

/* Fewer threads for small MSMs: each thread gets at least this many bucket
 * additions (or points with scalar 1), so that tiny MSMs do not spend their
 * time in barriers. */
#define MSM_MIN_ADDS_PER_THREAD ((size_t)2048)

/* Relative costs, in mixed (XYZZ + affine) additions, for choosing c. */
#define MSM_COST_BATCH_ADD 0.7   /* affine + affine in a batch (inversion shared) */
#define MSM_COST_FULL_ADD 1.4    /* XYZZ + XYZZ */
#define MSM_COST_DIGIT_SCAN 0.01 /* one digit looked at by one tile */

enum msm_scalar_class {
        MSM_SKIP,     /* scalar 0, or the point at infinity */
        MSM_ONE,      /* scalar 1: summed directly */
        MSM_WINDOWED, /* everything else: through the windows */
};

/* The scalars of one MSM, in one of the two accepted forms. */
struct msm_scalars {
        const fr_t *fr;            /* Montgomery form, or NULL */
        const uint64_t *canonical; /* MSM_SCALAR_LIMBS limbs per scalar, or NULL */
};

static inline enum msm_scalar_class msm_scalar_classify(const struct msm_scalars *s, size_t i) {
        const uint64_t *k;

        if (s->fr) {
                if (fr_is_zero(&s->fr[i]))
                        return MSM_SKIP;
                return fr_is_one(&s->fr[i]) ? MSM_ONE : MSM_WINDOWED;
        }
        k = s->canonical + i * MSM_SCALAR_LIMBS;
        if (k[1] | k[2] | k[3])
                return MSM_WINDOWED;
        if (k[0] <= 1)
                return k[0] == 0 ? MSM_SKIP : MSM_ONE;
        return MSM_WINDOWED;
}

static inline void msm_scalar_limbs(uint64_t k[MSM_SCALAR_LIMBS], const struct msm_scalars *s,
                                    size_t i) {
        if (s->fr)
                fr_to_canonical(k, &s->fr[i]);
        else
                memcpy(k, s->canonical + i * MSM_SCALAR_LIMBS, MSM_SCALAR_LIMBS * sizeof(*k));
        /* The top window's digit has no window above to carry into. */
        assert(!(k[MSM_SCALAR_LIMBS - 1] >> 63) && "canonical MSM scalars must be below 2^255");
}

/* Bits [pos, pos + width) of k, zero beyond its top; width <= 32. */
static inline uint64_t msm_scalar_bits(const uint64_t k[MSM_SCALAR_LIMBS], unsigned pos,
                                       unsigned width) {
        unsigned limb = pos / 64, shift = pos % 64;
        uint64_t v;

        if (limb >= MSM_SCALAR_LIMBS)
                return 0;
        v = k[limb] >> shift;
        if (shift + width > 64 && limb + 1 < MSM_SCALAR_LIMBS)
                v |= k[limb + 1] << (64 - shift);
        return v & ((UINT64_C(1) << width) - 1);
}

/*
 * Booth digit of window w: d_w = b_w + k[wc - 1] - 2^c k[wc + c - 1], with
 * b_w the window's c bits. The borrowed bit below cancels the 2^c taken off
 * the window below, so the digits sum back to k, and each depends only on
 * the c + 1 bits [wc - 1, wc + c): no carry chain between windows.
 */
static inline int32_t msm_booth_digit(const uint64_t k[MSM_SCALAR_LIMBS], unsigned w, unsigned c) {
        uint64_t v = w == 0 ? msm_scalar_bits(k, 0, c) << 1 : msm_scalar_bits(k, w * c - 1, c + 1);

        return (int32_t)((v + 1) >> 1) - (int32_t)((v >> c) << c);
}

struct msm_plan {
        unsigned window_bits;        /* c */
        unsigned windows;            /* W = ceil(256 / c) */
        uint32_t buckets_per_window; /* 2^(c-1): magnitudes 1..2^(c-1) */
        uint32_t top_magnitudes;     /* the top window's digits stay below this + 1 */
        unsigned splits;             /* magnitude ranges (tiles) per window */
        unsigned tiles;              /* windows * splits */
        bool affine_buckets;         /* affine buckets filled by batches, or XYZZ */
};

struct msm_tile {
        unsigned window;
        uint32_t first_magnitude; /* its buckets hold magnitudes first.. */
        uint32_t bucket_count;    /* ..first + bucket_count - 1 */
        size_t bucket_offset;     /* index of its first bucket in the bucket array */
};

/* Magnitudes the top window's digit can reach: k < 2^255 leaves it the bits
 * (W-1)c..254 plus the bit borrowed from below, so at most 2^(255 - (W-1)c). */
static uint32_t msm_top_magnitudes(unsigned c, unsigned windows, uint32_t buckets_per_window) {
        unsigned top_bits = 255 - (windows - 1) * c;

        return top_bits < c - 1 ? UINT32_C(1) << top_bits : buckets_per_window;
}

/* Splits per window: MSM_TILES_PER_THREAD tiles per thread, and at least two
 * when threads share the work, so the schedule ends on small tiles. */
static unsigned msm_plan_splits(unsigned windows, uint32_t buckets_per_window, unsigned threads) {
        unsigned want = (MSM_TILES_PER_THREAD * threads + windows - 1) / windows;

        if (threads > 1 && want < 2)
                want = 2;
        return want < buckets_per_window ? want : buckets_per_window;
}

/*
 * Picks c to minimise the estimated work: W * n bucket additions, plus the
 * bucket reductions (two additions per bucket), plus per tile one small
 * multiplication and a scan of its window's digits.
 */
static void msm_plan_choose(struct msm_plan *plan, size_t windowed_points, unsigned threads) {
        bool affine = windowed_points >= MSM_AFFINE_MIN_POINTS;
        double add_cost = affine ? MSM_COST_BATCH_ADD : 1;
        /* running += bucket is a mixed addition when buckets are affine */
        double reduce_cost = MSM_COST_FULL_ADD + (affine ? 1 : MSM_COST_FULL_ADD);
        double best = -1;

        assert(plan);
        assert(threads > 0);
        for (unsigned c = 1; c <= MSM_MAX_WINDOW_BITS; c++) {
                unsigned windows = (MSM_SCALAR_BITS + c - 1) / c;
                uint32_t buckets = UINT32_C(1) << (c - 1);
                uint32_t top = msm_top_magnitudes(c, windows, buckets);
                unsigned splits = msm_plan_splits(windows, buckets, threads);
                double tiles = (double)windows * splits;
                double cost = (double)windows * (double)windowed_points * add_cost +
                              ((double)(windows - 1) * buckets + top) * reduce_cost +
                              tiles * 2 * c + tiles * (double)windowed_points * MSM_COST_DIGIT_SCAN;

                if (best < 0 || cost < best) {
                        best = cost;
                        *plan = (struct msm_plan){
                                .window_bits = c,
                                .windows = windows,
                                .buckets_per_window = buckets,
                                .top_magnitudes = top,
                                .splits = splits,
                                .tiles = windows * splits,
                                .affine_buckets = affine,
                        };
                }
        }
}

/*
 * Where split s of a window's `range` magnitudes starts: the splits shrink
 * (sizes in proportion to 2(S - s) - 1), so that the schedule, which runs
 * every window's first split first, ends with small tiles and the threads
 * finish together.
 */
static uint32_t msm_split_start(uint32_t range, unsigned split, unsigned splits) {
        uint64_t left = splits - split;

        return range - (uint32_t)(left * left * range / ((uint64_t)splits * splits));
}

/* Tile t is split t / W of window t % W. Tiles may be empty (the top
 * window's range can be smaller than its split count). */
static struct msm_tile msm_plan_tile(const struct msm_plan *plan, unsigned tile) {
        unsigned window = tile % plan->windows, split = tile / plan->windows;
        uint32_t range =
                window + 1 == plan->windows ? plan->top_magnitudes : plan->buckets_per_window;
        uint32_t first = msm_split_start(range, split, plan->splits);
        uint32_t end = msm_split_start(range, split + 1, plan->splits);

        return (struct msm_tile){
                .window = window,
                .first_magnitude = first + 1,
                .bucket_count = end - first,
                .bucket_offset = (size_t)window * plan->buckets_per_window + first,
        };
}

/* The most buckets of one tile. */
static uint32_t msm_plan_max_tile_buckets(const struct msm_plan *plan) {
        uint32_t most = 0;

        for (unsigned s = 0; s < plan->splits; s++) {
                uint32_t count = msm_split_start(plan->buckets_per_window, s + 1, plan->splits) -
                                 msm_split_start(plan->buckets_per_window, s, plan->splits);

                if (count > most)
                        most = count;
        }
        return most;
}

/* Consecutive blocks whose windowed points are handled together. */
struct msm_chunks {
        size_t count;
        size_t capacity;     /* the most windowed points in one chunk */
        size_t *first_block; /* count + 1 entries */
        size_t *points;      /* windowed points of each chunk */
};

static void msm_chunks_free(struct msm_chunks *chunks) {
        free(chunks->first_block);
        free(chunks->points);
        *chunks = (struct msm_chunks){0};
}

/*
 * Groups the blocks into chunks of at most MSM_CHUNK_POINTS windowed points
 * and turns block_windowed (the count of each block) into each block's first
 * slot in its chunk's digit rows.
 */
static int msm_chunks_build(struct msm_chunks *chunks, size_t *block_windowed, size_t nblocks) {
        size_t in_chunk = 0;

        assert(chunks);
        assert(block_windowed);
        assert(nblocks > 0);
        *chunks = (struct msm_chunks){0};
        chunks->first_block = malloc((nblocks + 1) * sizeof(size_t));
        chunks->points = malloc(nblocks * sizeof(size_t));
        if (!chunks->first_block || !chunks->points) {
                msm_chunks_free(chunks);
                return -ENOMEM;
        }
        chunks->first_block[0] = 0;
        for (size_t b = 0; b < nblocks; b++) {
                size_t count = block_windowed[b];

                /* A block holds at most MSM_BLOCK_POINTS <= MSM_CHUNK_POINTS. */
                if (in_chunk + count > MSM_CHUNK_POINTS) {
                        chunks->points[chunks->count++] = in_chunk;
                        chunks->first_block[chunks->count] = b;
                        in_chunk = 0;
                }
                block_windowed[b] = in_chunk;
                in_chunk += count;
        }
        chunks->points[chunks->count++] = in_chunk;
        chunks->first_block[chunks->count] = nblocks;
        for (size_t i = 0; i < chunks->count; i++)
                if (chunks->points[i] > chunks->capacity)
                        chunks->capacity = chunks->points[i];
        return 0;
}

/* At most `threads` threads, and only as many as `units` of work keep busy
 * at `per_thread` units each. */
static unsigned msm_threads_for(unsigned threads, size_t units, size_t per_thread) {
        size_t useful = (units + per_thread - 1) / per_thread;

        if (useful == 0)
                return 1;
        return useful < threads ? (unsigned)useful : threads;
}

static size_t msm_block_count(size_t n) {
        return (n + MSM_BLOCK_POINTS - 1) / MSM_BLOCK_POINTS;
}

static size_t msm_block_end(size_t block, size_t n) {
        size_t end = (block + 1) * MSM_BLOCK_POINTS;
        return end < n ? end : n;
}

#define MSM_G(name) g1_##name
#define MSM_AFFINE_T g1_affine_t
#define MSM_JAC_T g1_jac_t
#define MSM_XYZZ_T g1_xyzz_t
#define MSM_FIELD_T fp_t
#include "msm_impl.h"

#define MSM_G(name) g2_##name
#define MSM_AFFINE_T g2_affine_t
#define MSM_JAC_T g2_jac_t
#define MSM_XYZZ_T g2_xyzz_t
#define MSM_FIELD_T fp2_t
#include "msm_impl.h"

int g1_msm_fr(g1_jac_t *r, const g1_affine_t *points, const fr_t *scalars, size_t n,
              unsigned threads) {
        assert(r);
        assert(n == 0 || (points && scalars));
        return g1_msm_run(r, points, &(struct msm_scalars){.fr = scalars}, n, threads);
}

int g1_msm_canonical(g1_jac_t *r, const g1_affine_t *points, const uint64_t *scalars, size_t n,
                     unsigned threads) {
        assert(r);
        assert(n == 0 || (points && scalars));
        return g1_msm_run(r, points, &(struct msm_scalars){.canonical = scalars}, n, threads);
}

int g2_msm_fr(g2_jac_t *r, const g2_affine_t *points, const fr_t *scalars, size_t n,
              unsigned threads) {
        assert(r);
        assert(n == 0 || (points && scalars));
        return g2_msm_run(r, points, &(struct msm_scalars){.fr = scalars}, n, threads);
}

int g2_msm_canonical(g2_jac_t *r, const g2_affine_t *points, const uint64_t *scalars, size_t n,
                     unsigned threads) {
        assert(r);
        assert(n == 0 || (points && scalars));
        return g2_msm_run(r, points, &(struct msm_scalars){.canonical = scalars}, n, threads);
}
