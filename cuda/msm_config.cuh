/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The shape of one G1 or G2 MSM (msm_steps.cuh's algorithm): window bits,
 * groups of windows sorted together, batches of points, level 0's ranges
 * and the later levels' segments, and the scratch buffers they need. Plain
 * arithmetic on the host, shared by the device (msm.cu) and the emulation
 * (emu-test.cu), so that both run the very same shape.
 */
#pragma once

#include <stdint.h>

#include "field_params.cuh"
#include "hd.cuh"

namespace cuzk {

/* Point indices carry the digit's sign in their top bit. */
#define MSM_NEGATE_BIT 0x80000000u
#define MSM_MAX_POINTS ((size_t)MSM_NEGATE_BIT - 1)

struct msm_config {
        uint64_t total;     /* points */
        uint32_t batches;   /* point ranges processed in turn, their buckets added up */
        uint64_t n;         /* points per batch (the last may have fewer) */
        uint32_t c;         /* window bits */
        uint32_t windows;   /* W */
        uint32_t narrow;    /* the lowest windows, of c - 1 bits (msm_fit_windows) */
        uint32_t buckets;   /* B = 2^(c-1) per window (a narrow one fills half) */
        uint32_t group;     /* windows sorted and reduced together */
        uint32_t seg_first; /* M at level 0 (sorted items per range) */
        uint32_t seg_next;  /* M at the later levels (partial sums per segment) */
        uint32_t levels;    /* level 0 plus the later ones */
        uint32_t log_chunk; /* buckets per chunk of the window reduction: 2^log_chunk */
        /* Threads level 0 holds resident at once (0: unknown). Ranges then
         * come in whole waves of them (msm_range_threads). */
        uint64_t wave;
        /* Batches grow n/4, n/2, then n (msm_ramp): host-to-host, the
         * kernels wait only for the first, small batch's copy, and each
         * later copy still ends before the kernels of the batch ahead. */
        bool ramp;
        /* One batch only: scalars 0 and 1 stay out of the digits (a witness
         * is mostly 0 and 1). The n_big others are recoded in every window;
         * the n_one points of scalar 1 go once, into window 0's bucket 1,
         * summed there by the levels' batched additions; 0s are dropped.
         * The counts come from the caller (the prover scans the witness on
         * the CPU), since the sorts' sizes are set on the host. */
        bool compact;
        uint64_t n_big, n_one;
};

/* Window w's first bit and its width: the `narrow` lowest windows take
 * c - 1 bits, the others c. */
CUZK_HD uint32_t msm_window_offset(uint32_t c, uint32_t narrow, uint32_t w) {
        return w * c - (w < narrow ? w : narrow);
}
CUZK_HD uint32_t msm_window_width(uint32_t c, uint32_t narrow, uint32_t w) {
        return w < narrow ? c - 1 : c;
}

/*
 * Whether `windows` windows of c bits, the lowest `narrow` of them c - 1,
 * hold every scalar below r in signed digits: the top window's digit, at
 * most (r - 1) >> its offset plus the carry into it, must not pass half
 * its range (a larger one would borrow from a window past the top). r's
 * top bit is bit 254, and r - 1 has r's bits above bit 0.
 */
inline bool msm_windows_hold(uint32_t c, uint32_t windows, uint32_t narrow) {
        if (windows == 0 || narrow >= windows)
                return false;
        const uint32_t top = windows - 1, at = msm_window_offset(c, narrow, top);
        if (at < 192)
                return false; /* r >> at passes 2^62 there: wider than any window */
        const uint64_t r_top = (uint64_t)fr_params::modulus(7) << 32 | fr_params::modulus(6);
        const uint64_t digit = at - 192 < 64 ? r_top >> (at - 192) : 0;
        return digit + 1 <= (uint64_t)1 << (msm_window_width(c, narrow, top) - 1);
}

/*
 * The fewest windows of c bits that hold a scalar, and then as many of the
 * lowest as still fit one bit narrower: their digits fill half of their
 * buckets, which the window reduction and the later levels then pass
 * through as empty. At c = 22, 12 windows (where c = 20 needs 13) of
 * which 8 narrow: 2^27 points add once a window, so MSM H's level 0 does
 * 12/13 of its additions, over 16.8M buckets where 12 full windows would
 * have 25.2M; at c = 20, 4 of 13 narrow; at c = 16, none.
 */
inline void msm_fit_windows(msm_config *cfg) {
        uint32_t windows = 1, narrow = 0;
        while (!msm_windows_hold(cfg->c, windows, 0))
                windows++;
        while (msm_windows_hold(cfg->c, windows, narrow + 1))
                narrow++;
        cfg->windows = windows;
        cfg->narrow = narrow;
}

inline unsigned msm_log2_ceil(uint64_t x) {
        unsigned r = 0;
        while ((1ull << r) < x)
                r++;
        return r;
}

/* Levels until every bucket (at most n points) is down to one item. */
inline uint32_t msm_levels_needed(uint64_t n, uint32_t seg_first, uint32_t seg_next) {
        uint64_t items = (n + seg_first - 1) / seg_first;
        uint32_t levels = 1;
        while (items > 1) {
                items = (items + seg_next - 1) / seg_next;
                levels++;
        }
        return levels;
}

/*
 * The window reduction: first a thread for each chunk of 2^log_chunk
 * buckets (running sums; a thread for every chunk of every window, so the
 * additions go at the card's rate), then levels in which the lanes of a
 * warp combine 2^bits adjacent segments, a lane each, in about 3 bits
 * additions one after another (msm_step_combine). The chunks keep a third
 * of the c - 1 bucket bits or more: at c = 16, 32 buckets a chunk, 1024
 * chunks a window, two levels of 32 lanes; at c = 20, 128 buckets a chunk
 * and three levels of 16. One thread a window that added its 32 spans in
 * turn took 1.74 ms of a compact G1 MSM's 3.9 ms of reduction (H100).
 */
#define MSM_COMBINE_MAX_BITS 5 /* 32 lanes: one warp */

inline void msm_split_reduction(msm_config *cfg) {
        cfg->log_chunk = cfg->c - 1 - 2 * ((cfg->c - 1) / 3);
}

/* The levels of lanes after the chunks: at least one, which leaves the
 * window's sum where it writes. */
inline uint32_t msm_combine_levels(const msm_config &cfg) {
        const uint32_t bits = cfg.c - 1 - cfg.log_chunk;
        const uint32_t levels = (bits + MSM_COMBINE_MAX_BITS - 1) / MSM_COMBINE_MAX_BITS;
        return levels < 1 ? 1 : levels;
}

/* Segments combined by one group of lanes at a level: 2^bits, the levels'
 * bits as even as they come. */
inline uint32_t msm_combine_bits(const msm_config &cfg, uint32_t level) {
        const uint32_t bits = cfg.c - 1 - cfg.log_chunk, levels = msm_combine_levels(cfg);
        return bits / levels + (level < bits % levels ? 1 : 0);
}

/* M at level 0: all threads add about M points, so M only trades the
 * partial sums left for level 1 (one per range and bucket met) against
 * the threads there are: items / 2^20 (2^20 threads, some twenty waves
 * of the card's resident threads), from 8 to 128. On the H200, 32 and 128
 * were no faster than 64 at 2^24 and 2^26 points. At 2^27 (MSM H of a
 * 32 GiB partition, 256 points a bucket) 128 against 64 (H100): the later
 * levels 19.1 against 28.0 ms, level 0 610.5 against 605.4, MSM H 703.2
 * against 706.7; the compact MSMs, whose M follows their batch of
 * 2^27 points and more, 0.6-1 ms less each. */
inline uint32_t msm_level0_range(uint64_t items) {
        const uint64_t m = items >> 20;
        return m < 8 ? 8 : m > 128 ? 128 : (uint32_t)m;
}

/* M at level 0 for the config's sorts (a group of windows of a batch). */
inline uint32_t msm_first_segment(const msm_config &cfg) {
        return msm_level0_range((uint64_t)cfg.group * cfg.n);
}

/* Level 0 (at least one item a range, msm_range_threads) leaves a bucket
 * of k points at most k + 1 partial sums; then levels until every bucket
 * is down to one item, and at least one after level 0 (the later levels
 * add into the bucket sums). They are cheap where buckets are small:
 * threads past the last segment leave at once. */
inline uint32_t msm_levels(const msm_config &cfg) {
        const uint32_t levels = 1 + msm_levels_needed(cfg.n + 1, cfg.seg_next, cfg.seg_next);
        return levels < 2 ? 2 : levels;
}

/*
 * Level 0's threads for `total` items: about total / M, rounded to whole
 * waves of resident threads (at least one, at most total), so that no
 * last wave runs part-full while the SMs idle. A range then holds q or
 * q + 1 items (q = total / threads); the first total % threads ranges the
 * longer ones, so that each warp's lanes have one length.
 */
inline uint64_t msm_range_threads(uint64_t total, uint32_t m, uint64_t wave) {
        const uint64_t base = (total + m - 1) / m;
        if (!wave)
                return base;
        uint64_t waves = (base + wave / 2) / wave;
        if (waves < 1)
                waves = 1;
        return waves * wave < total ? waves * wave : total;
}

/* The range of items [begin, end) of thread t of `threads` over total. */
struct msm_range_split {
        uint64_t q, r; /* items per range, ranges with one more */

        CUZK_HD msm_range_split(uint64_t total, uint64_t threads)
            : q(total / threads), r(total % threads) {
        }
        CUZK_HD uint64_t begin(uint64_t t) const {
                return t * q + (t < r ? t : r);
        }
        /* The range that holds item i. */
        CUZK_HD uint64_t range_of(uint64_t i) const {
                const uint64_t long_items = r * (q + 1);
                return i < long_items ? i / (q + 1) : r + (i - long_items) / q;
        }
};

/* About log2(n) - 4 for n scalars in every window, at most max_c. */
inline uint32_t msm_auto_window_bits(uint64_t n, uint32_t max_c) {
        const unsigned log_n = msm_log2_ceil(n < 2 ? 2 : n);
        return log_n < 9 ? 5 : log_n - 4 > max_c ? max_c : log_n - 4;
}

/*
 * For batches of n points (total / batches, rounded up).
 * c: msm_auto_window_bits, at most max_c (16 unless the caller measured
 * better: 2^15 buckets per window keep the window reduction short).
 * Groups: at most 2^26 keys sorted at once (1 GiB of keys and values,
 * double-buffered). M at level 0: msm_level0_range.
 */
inline msm_config msm_make_config(uint64_t total, uint32_t batches, uint32_t max_c = 16) {
        msm_config cfg = {};

        cfg.total = total;
        cfg.batches = batches < 1 ? 1 : batches;
        if (total && cfg.batches > total)
                cfg.batches = (uint32_t)total;
        const uint64_t n = (total + cfg.batches - 1) / cfg.batches;
        cfg.n = n;
        cfg.c = msm_auto_window_bits(n, max_c);
        msm_fit_windows(&cfg);
        cfg.buckets = 1u << (cfg.c - 1);
        cfg.group = (uint32_t)((1ull << 26) / (n ? n : 1));
        if (cfg.group < 1)
                cfg.group = 1;
        if (cfg.group > cfg.windows)
                cfg.group = cfg.windows;
        cfg.seg_first = msm_first_segment(cfg);
        cfg.seg_next = 16;
        cfg.levels = msm_levels(cfg);
        msm_split_reduction(&cfg);
        return cfg;
}

/*
 * 0s and 1s apart (one batch, msm_config.compact): n_big scalars recoded in
 * each window, n_one points of scalar 1 once, in window 0. A group then
 * sorts g n_big keys (n_one more in the first), so it takes as many
 * windows as fit in the keys a group of the batch's n points had (group
 * n, at least n for the flags the split keeps in them): for a witness, all
 * its windows at once. One window a group made each compact MSM of a 32 GiB
 * PoRep partition run its later levels 16 times over (A: 112 launches,
 * 7.9 ms; the B_G2 tail's 56 G2 launches, 11.6 ms, of its 78.6 on an
 * H100) for 2 in 100 scalars other than 0 and 1. Call it once c is set.
 */
inline void msm_config_compact(msm_config *cfg, uint64_t n_big, uint64_t n_one) {
        const uint64_t room = (uint64_t)cfg->group * cfg->n;
        uint64_t g = n_big ? (room > n_one ? room - n_one : 0) / n_big : cfg->windows;

        cfg->compact = true;
        cfg->n_big = n_big;
        cfg->n_one = n_one;
        cfg->group = g < 1 ? 1 : g > cfg->windows ? cfg->windows : (uint32_t)g;
        /* M stays the batch's: from the 35M items of one group the B_G2 tail's
         * level 0 took M = 33 (63 before), left twice the partial sums, and its
         * later levels took 17.3 ms instead of 11.6 (H100) */
        cfg->seg_first = msm_level0_range(room);
        cfg->levels = msm_levels(*cfg);
}

/* The first point of batch k (total when past the end). */
inline uint64_t msm_batch_start(const msm_config &cfg, uint32_t k) {
        uint64_t at = k * cfg.n;
        if (cfg.ramp)
                at = k == 0 ? 0 : k == 1 ? cfg.n / 4 : cfg.n / 4 + cfg.n / 2 + (k - 2) * cfg.n;
        return at < cfg.total ? at : cfg.total;
}

/*
 * Batches of n/4, n/2, then n points, for copies that the kernels wait
 * on: only the first one's copy is waited for in full. A batch's points
 * take ~2.6 ns to cross PCIe and ~7 ns in the kernels (16 windows), so a
 * copy of up to twice the batch ahead still ends before its kernels.
 * The batch count grows by up to two; n (and so c and the buffers) stays.
 */
inline void msm_ramp(msm_config *cfg) {
        if (cfg->n < 4)
                return;
        cfg->ramp = true;
        uint32_t k = 1;
        while (msm_batch_start(*cfg, k) < cfg->total)
                k++;
        cfg->batches = k;
}

/* Re-derives the dependent fields after a caller fixes c, M or the group. */
inline void msm_config_refresh(msm_config *cfg) {
        msm_fit_windows(cfg);
        cfg->buckets = 1u << (cfg->c - 1);
        if (cfg->group > cfg->windows)
                cfg->group = cfg->windows;
        cfg->levels = msm_levels(*cfg);
        msm_split_reduction(cfg);
}

/* Fixes the window bits (gpu-tuning.h's bounds) and the M that goes
 * with them; the groups keep their windows. */
inline void msm_config_set_window_bits(msm_config *cfg, uint32_t c) {
        cfg->c = c;
        msm_config_refresh(cfg);
        cfg->seg_first = msm_first_segment(*cfg);
        msm_config_refresh(cfg);
}

/* Keys of one group sort on this many bits (the sentinel included). */
inline unsigned msm_sort_bits(const msm_config &cfg) {
        return msm_log2_ceil((uint64_t)cfg.group * cfg.buckets + 1);
}

/* Upper bound of the segments (threads) of a level whose buckets hold
 * `items` items in all. */
inline uint64_t msm_segments_bound(uint64_t items, uint32_t seg, uint64_t buckets) {
        return (items + seg - 1) / seg + buckets;
}

/* The scratch buffers of one MSM (element counts). */
struct msm_sizes {
        uint64_t keys;       /* group * n, each of keys, keys_alt, vals, vals_alt */
        uint64_t per_bucket; /* group * buckets, each of start, end, seg_count, seg_first */
        uint64_t partials;   /* each of the two partial-sum buffers */
        uint64_t buckets;    /* windows * buckets */
        uint64_t chunks;     /* windows * chunks, each of sums and weighted */
        uint64_t spans;      /* the first level's segments, each of span_sums, span_weighted */
};

inline msm_sizes msm_make_sizes(const msm_config &cfg) {
        msm_sizes z;
        const uint64_t nb = (uint64_t)cfg.group * cfg.buckets;
        /* compact: the first group's items, and the split's n flags */
        const uint64_t compact_keys = (uint64_t)cfg.group * cfg.n_big + cfg.n_one;
        z.keys = !cfg.compact           ? (uint64_t)cfg.group * cfg.n
                 : compact_keys > cfg.n ? compact_keys
                                        : cfg.n;
        z.per_bucket = nb;
        /* level 0's ranges: up to half a wave more than total / M, or one wave */
        z.partials = msm_segments_bound(z.keys, cfg.seg_first, nb) + cfg.wave;
        uint64_t items = z.partials;
        for (uint32_t l = 1; l < cfg.levels; l++) {
                items = msm_segments_bound(items, cfg.seg_next, nb);
                if (items > z.partials)
                        z.partials = items;
        }
        z.buckets = (uint64_t)cfg.windows * cfg.buckets;
        z.chunks = (uint64_t)cfg.windows * (cfg.buckets >> cfg.log_chunk);
        z.spans = z.chunks >> msm_combine_bits(cfg, 0);
        return z;
}

} // namespace cuzk
