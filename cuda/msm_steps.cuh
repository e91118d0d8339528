/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The G1 MSM as a sequence of data-parallel steps, written once for the
 * device (msm.cu launches each step as a kernel, CUB sorts and scans) and
 * the host emulation (emu-test.cu loops over the same step functions).
 *
 * Pippenger with signed c-bit digits: scalar k = sum_w d_w 2^(cw) with
 * d_w in [-2^(c-1), 2^(c-1)], so each window has B = 2^(c-1) buckets and a
 * point goes, per window, into bucket |d_w| - 1, negated when d_w < 0.
 * W = floor(255/c) + 1 windows cover every k < 2^255 without a carry out
 * of the top one. Per group of windows:
 *   digits   one (key, value) per point and window: key = window-in-group
 *            * B + bucket, or a sentinel for digit 0; value = point index
 *            with the sign in bit 31;
 *   sort     by key (CUB radix sort on the device), so each bucket's points
 *            are one run; bounds finds each run's start and end;
 *   levels   bucket sums by segmented reduction. Level 0 cuts the sorted
 *            items into ranges of about M, one thread each, whatever
 *            their buckets: every thread adds as many points, and leaves
 *            one partial sum for each bucket its range meets. The later
 *            levels cut each bucket's partial sums into segments of M',
 *            one thread each, and a bucket's last segment adds into the
 *            bucket sums. Skewed scalars (a Groth16 witness is mostly 0
 *            and 1) thus never leave one thread a huge bucket.
 * With compact (one batch, counts from the caller) the scalars 0 and 1
 * are first set apart (classify, two scans, compact): the digits cover
 * the others only, and the points of scalar 1 join window 0's bucket of
 * digit 1 once, so a witness (three quarters 0 or 1) sorts a quarter of
 * its keys.
 * Then for all windows at once: sum_b (b + 1) S_b per window in three
 * stages of running sums (chunks of buckets, spans of chunks, the window),
 * and the windows combined by Horner's rule on the host.
 */
#pragma once

#include <stdint.h>

#include <utility>

#include "curve.cuh"
#include "memory.cuh"

extern "C" {
#include "zk/g1.h"
#include "zk/g2.h"
}

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
        uint32_t buckets;   /* B = 2^(c-1) per window */
        uint32_t group;     /* windows sorted and reduced together */
        uint32_t seg_first; /* M at level 0 (affine points per segment) */
        uint32_t seg_next;  /* M at the later levels (partial sums per segment) */
        uint32_t levels;    /* level 0 plus the later ones */
        uint32_t log_chunk; /* buckets per chunk of the window reduction: 2^log_chunk */
        uint32_t log_span;  /* chunks per span (its second stage): 2^log_span */
        bool called_mul;    /* level 0 multiplies through mul_called */
        /* level 0's blocks an SM (1, 3 or 4; 0: Curve::level0_min_blocks),
         * for comparisons of its register budget */
        uint32_t level0_blocks;
        /* Level 0 by ranges of seg_first items whatever their buckets
         * (msm_step_ranges); off, by equal shares of each bucket
         * (msm_step_accumulate), for comparisons. */
        bool ranges;
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

/* The window reduction's three stages share the c - 1 bits of a bucket
 * index about equally, so that no thread's chain of additions is long (at
 * c = 16: 32 buckets per chunk, 32 chunks per span, 32 spans per window). */
inline void msm_split_reduction(msm_config *cfg) {
        cfg->log_chunk = (cfg->c - 1) / 3;
        cfg->log_span = (cfg->c - 1) / 3;
}

/* M at level 0 by shares. A bucket holds about n / B points (random
 * scalars); cut into equal segments of at most an eighth of that, a warp's
 * threads run loops of nearly one length, for 1/M more additions at
 * level 1. */
inline uint32_t msm_level0_segment(uint64_t n, uint32_t c) {
        const uint64_t m = (n >> (c - 1)) / 8;
        return m < 8 ? 8 : m > 256 ? 256 : (uint32_t)m;
}

/* M at level 0 by ranges: all threads add about M points, so M only
 * trades the partial sums left for level 1 (one per range and bucket met)
 * against the threads there are: 64 once a sort holds 2^26 items (2^20
 * threads, some twenty waves of the H200's resident threads), fewer for
 * smaller sorts, at least 8. On the H200, 32 and 128 were no faster at
 * 2^24 and 2^26 (runs 26 and 28). */
inline uint32_t msm_level0_range(uint64_t items) {
        const uint64_t m = items >> 20;
        return m < 8 ? 8 : m > 64 ? 64 : (uint32_t)m;
}

/* M at level 0 for the config's mode. */
inline uint32_t msm_first_segment(const msm_config &cfg) {
        return cfg.ranges ? msm_level0_range((uint64_t)cfg.group * cfg.n)
                          : msm_level0_segment(cfg.n, cfg.c);
}

/* Levels until every bucket (at most n points) is down to one item, and
 * at least one after level 0 (the later levels add into the bucket sums).
 * By ranges (at least one item each, msm_range_threads), level 0 leaves a
 * bucket of k points at most k + 1 partial sums: the later levels for
 * that are cheap where buckets are small (threads past the last segment
 * leave at once). */
inline uint32_t msm_levels(const msm_config &cfg) {
        const uint32_t levels =
                cfg.ranges ? 1 + msm_levels_needed(cfg.n + 1, cfg.seg_next, cfg.seg_next)
                           : msm_levels_needed(cfg.n, cfg.seg_first, cfg.seg_next);
        return levels < 2 ? 2 : levels;
}

/*
 * Level 0's threads by ranges for `total` items: about total / M, rounded
 * to whole waves of resident threads (at least one, at most total), so
 * that no last wave runs part-full while the SMs idle. A range then holds
 * q or q + 1 items (q = total / threads); the first total % threads
 * ranges the longer ones, so that each warp's lanes have one length.
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

/*
 * For batches of n points (total / batches, rounded up).
 * c: about log2(n) - 4, at most max_c (16 unless the caller measured
 * better: 2^15 buckets per window keep the window reduction short).
 * Groups: at most 2^26 keys sorted at once (1 GiB of keys and values,
 * double-buffered). Level 0 by ranges (msm_level0_range).
 */
inline msm_config msm_make_config(uint64_t total, uint32_t batches, uint32_t max_c = 16) {
        msm_config cfg = {};

        cfg.total = total;
        cfg.batches = batches < 1 ? 1 : batches;
        if (total && cfg.batches > total)
                cfg.batches = (uint32_t)total;
        const uint64_t n = (total + cfg.batches - 1) / cfg.batches;
        const unsigned log_n = msm_log2_ceil(n < 2 ? 2 : n);
        cfg.n = n;
        cfg.c = log_n < 9 ? 5 : log_n - 4 > max_c ? max_c : log_n - 4;
        cfg.windows = 255 / cfg.c + 1;
        cfg.buckets = 1u << (cfg.c - 1);
        cfg.group = (uint32_t)((1ull << 26) / (n ? n : 1));
        if (cfg.group < 1)
                cfg.group = 1;
        if (cfg.group > cfg.windows)
                cfg.group = cfg.windows;
        cfg.ranges = true;
        cfg.seg_first = msm_first_segment(cfg);
        cfg.seg_next = 16;
        cfg.levels = msm_levels(cfg);
        msm_split_reduction(&cfg);
        return cfg;
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

/* Re-derives the dependent fields after a test overrides c or M. */
inline void msm_config_refresh(msm_config *cfg) {
        cfg->windows = 255 / cfg->c + 1;
        cfg->buckets = 1u << (cfg->c - 1);
        if (cfg->group > cfg->windows)
                cfg->group = cfg->windows;
        cfg->levels = msm_levels(*cfg);
        msm_split_reduction(cfg);
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

/* Montgomery -> canonical, once per scalar. */
struct msm_step_canonical {
        static constexpr unsigned block_threads = 256;
        const fr_dev *in;
        fr_dev *out;

        CUZK_HD void operator()(uint64_t i) const {
                store_wide(&out[i], load_wide(&in[i]) * fr_dev::raw_one());
        }
};

/*
 * The carry into window w0 of the signed-digit recoding, without the
 * windows below: their digits (each at most 2^(c-1)) stand for
 * k mod 2^(c w0) - carry 2^(c w0), whose largest value is
 * top = sum_{i<w0} 2^(c-1) 2^(ci), the bit c-1 of each window. As every
 * value in range has one recoding, carry = (k mod 2^(c w0) > top).
 * mask keeps the bits below c w0.
 */
struct msm_low_windows {
        fr_dev mask, top;
};

inline msm_low_windows msm_make_low_windows(uint32_t c, uint32_t w0) {
        msm_low_windows lw = {fr_dev::zero(), fr_dev::zero()};
        for (uint32_t bit = 0; bit < c * w0 && bit < 32 * fr_dev::N; bit++) {
                lw.mask.v[bit / 32] |= 1u << (bit % 32);
                if (bit % c == c - 1)
                        lw.top.v[bit / 32] |= 1u << (bit % 32);
        }
        return lw;
}

CUZK_HD uint32_t msm_carry_into(const fr_dev &k, const msm_low_windows &lw) {
        uint32_t greater = 0, decided = 0;
        CUZK_UNROLL
        for (int j = fr_dev::N - 1; j >= 0; j--) {
                const uint32_t a = k.v[j] & lw.mask.v[j], b = lw.top.v[j];
                greater |= ~decided & (a > b ? 1u : 0u);
                decided |= a != b ? 1u : 0u;
        }
        return greater;
}

/* With compact: big[i] = (scalar i > 1), one[i] = (scalar i == 1). */
struct msm_step_classify {
        static constexpr unsigned block_threads = 256;
        const fr_dev *canonical;
        uint32_t *big, *one;

        CUZK_HD void operator()(uint64_t i) const {
                const fr_dev k = load_wide(&canonical[i]);
                uint32_t high = 0;
                CUZK_UNROLL
                for (int j = 1; j < fr_dev::N; j++)
                        high |= k.v[j];
                const bool small = high == 0 && k.v[0] <= 1;
                big[i] = small ? 0 : 1;
                one[i] = small && k.v[0] == 1 ? 1 : 0;
        }
};

/* The indices of each class, in order, from the flags' exclusive sums. */
struct msm_step_compact {
        static constexpr unsigned block_threads = 256;
        const uint32_t *big, *one, *big_at, *one_at;
        uint32_t *big_index, *one_index;

        CUZK_HD void operator()(uint64_t i) const {
                if (big[i])
                        big_index[big_at[i]] = (uint32_t)i;
                else if (one[i])
                        one_index[one_at[i]] = (uint32_t)i;
        }
};

/* The points of scalar 1 into window 0's bucket of digit 1 (key 0), after
 * the group's digits at `at`. */
struct msm_step_ones {
        static constexpr unsigned block_threads = 256;
        const uint32_t *one_index;
        uint64_t at;
        uint32_t *keys, *vals;

        CUZK_HD void operator()(uint64_t j) const {
                keys[at + j] = 0;
                vals[at + j] = one_index[j];
        }
};

/* Signed digits of windows [w0, w0 + g) of item i: scalar index[i] (i
 * without an index), n items. */
struct msm_step_digits {
        static constexpr unsigned block_threads = 256;
        const fr_dev *canonical;
        const uint32_t *index;
        uint64_t n;
        uint32_t c, w0, g, buckets;
        uint32_t *keys, *vals;
        msm_low_windows low; /* msm_make_low_windows(c, w0) */

        CUZK_HD void operator()(uint64_t i) const {
                const uint32_t point = index ? index[i] : (uint32_t)i;
                const fr_dev k = load_wide(&canonical[point]);
                const uint32_t half = 1u << (c - 1), sentinel = g * buckets;
                uint32_t carry = w0 ? msm_carry_into(k, low) : 0;

                for (uint32_t w = w0; w < w0 + g; w++) {
                        const uint32_t raw = k.bits(w * c, c) + carry;
                        /* raw in [0, 2^c]: above half, borrow from the next window */
                        const bool negative = raw > half;
                        const uint32_t magnitude = negative ? (1u << c) - raw : raw;
                        carry = negative ? 1 : 0;
                        const uint64_t at = (uint64_t)(w - w0) * n + i;
                        keys[at] = magnitude ? (w - w0) * buckets + magnitude - 1 : sentinel;
                        vals[at] = point | (negative ? MSM_NEGATE_BIT : 0);
                }
        }
};

/* Each run of equal keys in the sorted array: start[key] and end[key]. */
struct msm_step_bounds {
        static constexpr unsigned block_threads = 256;
        const uint32_t *keys;
        uint64_t total;
        uint32_t sentinel;
        uint32_t *start, *end;

        CUZK_HD void operator()(uint64_t i) const {
                const uint32_t k = keys[i];
                if (k == sentinel)
                        return;
                if (i == 0 || keys[i - 1] != k)
                        start[k] = (uint32_t)i;
                if (i + 1 == total || keys[i + 1] != k)
                        end[k] = (uint32_t)(i + 1);
        }
};

/* end[] becomes the count (end - start; both 0 for an empty bucket). */
struct msm_step_counts {
        static constexpr unsigned block_threads = 256;
        const uint32_t *start;
        uint32_t *end_to_count;

        CUZK_HD void operator()(uint64_t b) const {
                end_to_count[b] -= start[b];
        }
};

/* A level's segments per bucket. From the second later level on, a count
 * of 1 is a bucket that the level before finished (its one segment went
 * into the bucket sums), so it has no segment left. */
struct msm_step_segment_counts {
        static constexpr unsigned block_threads = 256;
        const uint32_t *count;
        uint32_t seg;
        bool ones_finished;
        uint32_t *seg_count;

        CUZK_HD void operator()(uint64_t b) const {
                const uint32_t k = count[b];
                seg_count[b] = ones_finished && k <= 1 ? 0 : (k + seg - 1) / seg;
        }
};

/* The bucket of segment s: the first b with seg_first[b] + seg_count[b] > s,
 * or nb when s is past the last segment. */
CUZK_HD uint32_t msm_segment_bucket(const uint32_t *seg_first, const uint32_t *seg_count,
                                    uint32_t nb, uint64_t s) {
        uint32_t lo = 0, hi = nb;
        while (lo < hi) {
                const uint32_t mid = lo + (hi - lo) / 2;
                if ((uint64_t)seg_first[mid] + seg_count[mid] > s)
                        hi = mid;
                else
                        lo = mid + 1;
        }
        return lo;
}

/* What a level's segments read and write. */
template <class Curve> struct msm_level {
        using affine_dev = typename Curve::affine;
        using xyzz_dev = typename Curve::xyzz;
        const uint32_t *first, *count, *seg_first, *seg_count;
        uint32_t nb, seg;
        const uint32_t *point_refs;  /* level 0 */
        const affine_dev *points;    /* level 0 */
        const xyzz_dev *partials_in; /* later levels */
        xyzz_dev *partials_out;
        /* later levels: a bucket's only segment adds its sum here (the
         * group's bucket sums) instead of leaving it to a next level */
        xyzz_dev *buckets;
};

/* One segment of a level: the sum of at most seg consecutive items of one
 * bucket. Level 0 items (by shares, CUZK_MSM_RANGES=0 only) are signed
 * point indices, multiplied through mul_called; later ones partial sums.
 * The comparison forms of level 0 (inlined products, other register
 * budgets) are msm_step_ranges's. */
template <class Curve> struct msm_step_accumulate : msm_level<Curve> {
        using xyzz_dev = typename Curve::xyzz;
        static constexpr unsigned block_threads = Curve::curve_block_threads;
        static constexpr unsigned min_blocks = Curve::level0_min_blocks;

        CUZK_HD void operator()(uint64_t s) const {
                const msm_level<Curve> &l = *this;
                /* launched for the bound: most threads of the later levels
                 * are past the last segment and leave without a search */
                if (s >= (uint64_t)l.seg_first[l.nb - 1] + l.seg_count[l.nb - 1])
                        return;
                const uint32_t b = msm_segment_bucket(l.seg_first, l.seg_count, l.nb, s);
                /* The bucket's count items in seg_count[b] equal shares (at
                 * most seg each): a warp's threads then run loops of nearly
                 * one length, where full segments and one short remainder
                 * per bucket left most of the warp waiting at the ends. */
                const uint64_t j = s - l.seg_first[b], count = l.count[b], shares = l.seg_count[b];
                const uint64_t begin = l.first[b] + j * count / shares;
                const uint64_t end = l.first[b] + (j + 1) * count / shares;
                xyzz_dev acc = xyzz_dev::infinity();
                if (l.point_refs) {
                        /* the hot loop: mixed additions, acc in registers; the
                         * next item's index is read and its point requested
                         * before this addition, which then hides the latency */
                        uint32_t next = begin < end ? l.point_refs[begin] : 0;
                        for (uint64_t i = begin; i < end; i++) {
                                const uint32_t ref = next;
                                if (i + 1 < end) {
                                        next = l.point_refs[i + 1];
                                        prefetch_l1(&l.points[next & ~MSM_NEGATE_BIT]);
                                }
                                acc.add_affine(load_wide(&l.points[ref & ~MSM_NEGATE_BIT]),
                                               (ref & MSM_NEGATE_BIT) != 0, mul_called());
                        }
                } else {
                        for (uint64_t i = begin; i < end; i++)
                                xyzz_add(acc, load_wide(&l.partials_in[i]));
                        if (shares == 1) {
                                xyzz_dev sum = load_wide(&l.buckets[b]);
                                xyzz_add(sum, acc);
                                store_wide(&l.buckets[b], sum);
                                return;
                        }
                }
                store_wide(&l.partials_out[s], acc);
        }
};

/* What level 0 by ranges reads and writes. */
template <class Curve> struct msm_ranges {
        using affine_dev = typename Curve::affine;
        using xyzz_dev = typename Curve::xyzz;
        const uint32_t *keys, *vals; /* sorted */
        uint64_t total;              /* items, sentinels included */
        uint64_t threads;            /* ranges (msm_range_threads) */
        uint32_t sentinel;
        const affine_dev *points;
        xyzz_dev *partials_out; /* range t's sum of bucket b at t + b */
};

/*
 * Level 0 by ranges: thread t adds the items of its range (msm_range_split:
 * about M) whatever their buckets, so every thread of a warp runs the same
 * number of additions (equal shares of each bucket left up to ~20 % of the
 * lanes idle at 2^7 points a bucket). One loop over the range, the flush
 * at a bucket's end inside it, keeps the lanes in step: nested loops per
 * bucket would run a warp's first buckets to the longest one's end before
 * any lane starts its second.
 * The slots t + b are distinct (a later range only meets buckets from
 * its predecessor's last on), and bucket b's are consecutive: from the
 * range of its first item to that of its last, plus b
 * (msm_step_range_items).
 */
template <class Curve, class Mul = mul_called, unsigned MinBlocks = Curve::level0_min_blocks>
struct msm_step_ranges : msm_ranges<Curve> {
        using xyzz_dev = typename Curve::xyzz;
        static constexpr unsigned block_threads = Curve::curve_block_threads;
        static constexpr unsigned min_blocks = MinBlocks;

        CUZK_HD void operator()(uint64_t t) const {
                const msm_ranges<Curve> &l = *this;
                const msm_range_split split(l.total, l.threads);
                const uint64_t begin = split.begin(t), end = split.begin(t + 1);
                uint32_t bucket = l.keys[begin];
                if (bucket == l.sentinel)
                        return;
                xyzz_dev acc = xyzz_dev::infinity();
                uint32_t next_key = bucket, next_ref = l.vals[begin];
                for (uint64_t i = begin; i < end; i++) {
                        const uint32_t key = next_key, ref = next_ref;
                        if (i + 1 < end) {
                                next_key = l.keys[i + 1];
                                next_ref = l.vals[i + 1];
                                prefetch_l1(&l.points[next_ref & ~MSM_NEGATE_BIT]);
                        }
                        if (key != bucket) {
                                store_wide(&l.partials_out[t + bucket], acc);
                                if (key == l.sentinel)
                                        return; /* digits 0 sort last */
                                acc = xyzz_dev::infinity();
                                bucket = key;
                        }
                        acc.add_affine(load_wide(&l.points[ref & ~MSM_NEGATE_BIT]),
                                       (ref & MSM_NEGATE_BIT) != 0, Mul());
                }
                store_wide(&l.partials_out[t + bucket], acc);
        }
};

/* Bucket b's partial sums after level 0 by ranges: first'[b], count'[b]
 * (both 0 for an empty bucket). */
struct msm_step_range_items {
        static constexpr unsigned block_threads = 256;
        const uint32_t *first, *count;
        uint64_t total, threads;
        uint32_t *items_first, *items_count;

        CUZK_HD void operator()(uint64_t b) const {
                const uint32_t k = count[b];
                if (!k) { /* no items at all when threads is 0 */
                        items_first[b] = items_count[b] = 0;
                        return;
                }
                const msm_range_split split(total, threads);
                const uint64_t lo = split.range_of(first[b]);
                items_first[b] = (uint32_t)(lo + b);
                items_count[b] = (uint32_t)(split.range_of(first[b] + k - 1) - lo + 1);
        }
};

/*
 * Window reduction, stage 1. Chunk j of a window covers buckets
 * [jC, (j+1)C); running sums from the top give its plain sum A_j and
 * V_j = sum (b - jC + 1) S_b. Item i is chunk i % P of window i / P.
 */
template <class Curve> struct msm_step_chunks {
        using xyzz_dev = typename Curve::xyzz;
        static constexpr unsigned block_threads = Curve::curve_block_threads;
        const xyzz_dev *buckets;
        uint32_t buckets_per_window, log_chunk;
        xyzz_dev *sums, *weighted;

        CUZK_HD void operator()(uint64_t i) const {
                const uint32_t chunks = buckets_per_window >> log_chunk;
                const uint64_t w = i / chunks, j = i % chunks;
                const xyzz_dev *base = buckets + w * buckets_per_window + (j << log_chunk);
                xyzz_dev running = xyzz_dev::infinity(), total = xyzz_dev::infinity();
                for (uint32_t b = 1u << log_chunk; b-- > 0;) {
                        xyzz_add(running, load_wide(&base[b]));
                        xyzz_add(total, running);
                }
                store_wide(&sums[i], running);
                store_wide(&weighted[i], total);
        }
};

/*
 * Stage 2, one thread per span of G = 2^log_span chunks: span k of a window
 * covers chunks [kG, (k+1)G) and gives
 *   A'_k = sum_i A_{kG+i},  V'_k = sum_i i A_{kG+i},  R_k = sum_i V_{kG+i}
 * (i < G; V'_k by running sums from the top). Item i is span i % Q of
 * window i / Q, Q spans per window.
 */
template <class Curve> struct msm_step_spans {
        using xyzz_dev = typename Curve::xyzz;
        static constexpr unsigned block_threads = Curve::curve_block_threads;
        const xyzz_dev *sums, *weighted;
        uint32_t chunks_per_window, log_span;
        xyzz_dev *span_sums, *span_weighted, *span_v;

        CUZK_HD void operator()(uint64_t i) const {
                const uint32_t spans = chunks_per_window >> log_span;
                const uint64_t w = i / spans, k = i % spans;
                const uint64_t first = w * chunks_per_window + (k << log_span);
                const xyzz_dev *a = sums + first, *v = weighted + first;
                xyzz_dev running = xyzz_dev::infinity(), total = xyzz_dev::infinity();
                xyzz_dev r = xyzz_dev::infinity();
                for (uint32_t j = 1u << log_span; j-- > 1;) {
                        xyzz_add(running, load_wide(&a[j]));
                        xyzz_add(total, running);
                        xyzz_add(r, load_wide(&v[j]));
                }
                xyzz_add(running, load_wide(&a[0]));
                xyzz_add(r, load_wide(&v[0]));
                store_wide(&span_sums[i], running);
                store_wide(&span_weighted[i], total);
                store_wide(&span_v[i], r);
        }
};

/*
 * Stage 3, one thread per window: with C buckets per chunk, G chunks per
 * span and Q spans,
 *   sum_b (b + 1) S_b = sum_j V_j + C sum_j j A_j
 *                     = sum_k R_k + C (G sum_k k A'_k + sum_k V'_k),
 * sum_k k A'_k again by running sums, the factors by doublings.
 */
template <class Curve> struct msm_step_window {
        using xyzz_dev = typename Curve::xyzz;
        static constexpr unsigned block_threads = Curve::curve_block_threads;
        const xyzz_dev *span_sums, *span_weighted, *span_v;
        uint32_t spans, log_span, log_chunk;
        xyzz_dev *window_sums;

        CUZK_HD void operator()(uint64_t w) const {
                const xyzz_dev *a = span_sums + w * spans, *vp = span_weighted + w * spans,
                               *r = span_v + w * spans;
                xyzz_dev running = xyzz_dev::infinity(), total = xyzz_dev::infinity();
                for (uint32_t k = spans; k-- > 1;) {
                        xyzz_add(running, load_wide(&a[k]));
                        xyzz_add(total, running);
                }
                for (uint32_t d = 0; d < log_span; d++)
                        xyzz_dbl(total);
                for (uint32_t k = 0; k < spans; k++)
                        xyzz_add(total, load_wide(&vp[k]));
                for (uint32_t d = 0; d < log_chunk; d++)
                        xyzz_dbl(total);
                for (uint32_t k = 0; k < spans; k++)
                        xyzz_add(total, load_wide(&r[k]));
                store_wide(&window_sums[w], total);
        }
};

/* The scratch buffers of one MSM (element counts). */
struct msm_sizes {
        uint64_t keys;       /* group * n, each of keys, keys_alt, vals, vals_alt */
        uint64_t per_bucket; /* group * buckets, each of start, end, seg_count, seg_first */
        uint64_t partials;   /* each of the two partial-sum buffers */
        uint64_t buckets;    /* windows * buckets */
        uint64_t chunks;     /* windows * chunks, each of sums and weighted */
        uint64_t spans;      /* windows * spans, each of span_sums, span_weighted, span_v */
};

inline msm_sizes msm_make_sizes(const msm_config &cfg) {
        msm_sizes z;
        const uint64_t nb = (uint64_t)cfg.group * cfg.buckets;
        z.keys = (uint64_t)cfg.group * cfg.n;
        z.per_bucket = nb;
        z.partials = msm_segments_bound(z.keys, cfg.seg_first, nb);
        if (cfg.ranges) /* up to half a wave more ranges, or one wave */
                z.partials += cfg.wave;
        uint64_t items = z.partials;
        for (uint32_t l = 1; l < cfg.levels; l++) {
                items = msm_segments_bound(items, cfg.seg_next, nb);
                if (items > z.partials)
                        z.partials = items;
        }
        z.buckets = (uint64_t)cfg.windows * cfg.buckets;
        z.chunks = (uint64_t)cfg.windows * (cfg.buckets >> cfg.log_chunk);
        z.spans = z.chunks >> cfg.log_span;
        return z;
}

/* Buffers the backend provides, sized by msm_make_sizes. */
template <class Curve> struct msm_buffers {
        using xyzz_dev = typename Curve::xyzz;
        fr_dev *canonical;
        uint32_t *keys, *keys_alt, *vals, *vals_alt;
        uint32_t *start, *end, *seg_count, *seg_first;
        xyzz_dev *partials, *partials_alt;
        xyzz_dev *buckets, *sums, *weighted, *window_sums;
        xyzz_dev *span_sums, *span_weighted, *span_v;
        uint32_t *big_index, *one_index; /* n each, with compact only */
};

#define MSM_TRY(expr)              \
        do {                       \
                int r_ = (expr);   \
                if (r_ < 0)        \
                        return r_; \
        } while (0)

/* Level 0 by ranges in the form the config asks for: inlined or called
 * products, and its blocks an SM (comparisons of the register budget). */
template <template <class, class, unsigned> class Step, class Curve, class Backend, class Args>
int msm_launch_level0(Backend &be, const msm_config &cfg, const Args &args, uint64_t count) {
        constexpr unsigned blocks = Curve::level0_min_blocks;
        if (!cfg.called_mul)
                return be.launch(Step<Curve, mul_inlined, blocks>{args}, count);
        if (cfg.level0_blocks == 1)
                return be.launch(Step<Curve, mul_called, 1>{args}, count);
        if (cfg.level0_blocks == 4)
                return be.launch(Step<Curve, mul_called, 4>{args}, count);
        return be.launch(Step<Curve, mul_called, blocks>{args}, count);
}

/*
 * The bucket sums of one batch of n points, added to buf.buckets: the
 * later levels add each bucket's sum in at the level where one segment
 * is left of it, and launch no more threads than the bound needs.
 */
template <class Curve, class Backend>
int msm_run_batch(Backend &be, const msm_config &cfg, msm_buffers<Curve> &buf,
                  const fr_dev *scalars, const typename Curve::affine *points, uint64_t n) {
        using xyzz_dev = typename Curve::xyzz;
        const unsigned sort_bits = msm_sort_bits(cfg);

        MSM_TRY(be.launch(msm_step_canonical{scalars, buf.canonical}, n));
        const bool compact = cfg.compact && cfg.batches == 1;
        const uint64_t recoded = compact ? cfg.n_big : n; /* scalars through the digits */
        if (compact) {
                /* flags in keys and vals, their sums in the alternates
                 * (all free until the first group's digits) */
                MSM_TRY(be.launch(msm_step_classify{buf.canonical, buf.keys, buf.vals}, n));
                MSM_TRY(be.exclusive_scan(buf.keys, buf.keys_alt, n));
                MSM_TRY(be.exclusive_scan(buf.vals, buf.vals_alt, n));
                MSM_TRY(be.launch(msm_step_compact{buf.keys, buf.vals, buf.keys_alt, buf.vals_alt,
                                                   buf.big_index, buf.one_index},
                                  n));
        }
        for (uint32_t w0 = 0; w0 < cfg.windows; w0 += cfg.group) {
                const uint32_t g = cfg.windows - w0 < cfg.group ? cfg.windows - w0 : cfg.group;
                const uint32_t nb = g * cfg.buckets;
                const uint64_t ones = compact && w0 == 0 ? cfg.n_one : 0;
                const uint64_t total = (uint64_t)g * recoded + ones;

                MSM_TRY(be.launch(msm_step_digits{buf.canonical, compact ? buf.big_index : nullptr,
                                                  recoded, cfg.c, w0, g, cfg.buckets, buf.keys,
                                                  buf.vals, msm_make_low_windows(cfg.c, w0)},
                                  recoded));
                MSM_TRY(be.launch(
                        msm_step_ones{buf.one_index, (uint64_t)g * recoded, buf.keys, buf.vals},
                        ones));
                MSM_TRY(be.sort(buf.keys, buf.keys_alt, buf.vals, buf.vals_alt, total, sort_bits));
                MSM_TRY(be.zero(buf.start, nb * sizeof(uint32_t)));
                MSM_TRY(be.zero(buf.end, nb * sizeof(uint32_t)));
                MSM_TRY(be.launch(msm_step_bounds{buf.keys, total, nb, buf.start, buf.end}, total));
                MSM_TRY(be.launch(msm_step_counts{buf.start, buf.end}, nb));

                /* Level state: bucket b's items are [first[b], first[b] + count[b]). */
                uint32_t *first = buf.start, *count = buf.end;
                uint32_t *seg_first = buf.seg_first, *seg_count = buf.seg_count;
                xyzz_dev *in = nullptr, *out = buf.partials;
                uint64_t items = total;
                uint32_t level = 0;
                if (cfg.ranges) {
                        const uint64_t threads = msm_range_threads(total, cfg.seg_first, cfg.wave);
                        const msm_ranges<Curve> r = {buf.keys, buf.vals, total, threads,
                                                     nb,       points,   out};
                        MSM_TRY((msm_launch_level0<msm_step_ranges, Curve>(be, cfg, r, threads)));
                        MSM_TRY(be.launch(msm_step_range_items{first, count, total, threads,
                                                               seg_first, seg_count},
                                          nb));
                        std::swap(first, seg_first);
                        std::swap(count, seg_count);
                        in = out;
                        out = buf.partials_alt;
                        items = threads + nb;
                        level = 1;
                }
                for (; level < cfg.levels; level++) {
                        const uint32_t seg = level ? cfg.seg_next : cfg.seg_first;
                        const uint64_t segments = msm_segments_bound(items, seg, nb);

                        MSM_TRY(be.launch(
                                msm_step_segment_counts{count, seg, level >= 2, seg_count}, nb));
                        MSM_TRY(be.exclusive_scan(seg_count, seg_first, nb));
                        const msm_level<Curve> lv = {
                                first,
                                count,
                                seg_first,
                                seg_count,
                                nb,
                                seg,
                                level ? nullptr : buf.vals,
                                points,
                                in,
                                out,
                                level ? buf.buckets + (uint64_t)w0 * cfg.buckets : nullptr};
                        MSM_TRY(be.launch(msm_step_accumulate<Curve>{lv}, segments));

                        /* The segments are the next level's items. */
                        uint32_t *old_first = first, *old_count = count;
                        first = seg_first;
                        count = seg_count;
                        seg_first = old_first;
                        seg_count = old_count;
                        in = out;
                        out = out == buf.partials ? buf.partials_alt : buf.partials;
                        items = segments;
                }
        }
        return 0;
}

/*
 * Runs the steps, batch after batch of cfg.n points (the last may have
 * fewer); window_sums (cfg.windows XYZZ points, in the backend's memory)
 * hold the result for msm_combine_windows. Backend provides
 *   int wait_input(uint32_t batch);                  before a batch's steps
 *   int launch(const Step &, uint64_t count);        for any step
 *   int zero(void *, size_t bytes);
 *   int sort(uint32_t *&keys, uint32_t *&keys_alt, uint32_t *&vals,
 *            uint32_t *&vals_alt, uint64_t count, unsigned bits);
 *            sorted pairs end up in keys/vals (pointers may swap)
 *   int exclusive_scan(const uint32_t *in, uint32_t *out, uint64_t count);
 * scalars (Montgomery) and points are in the backend's memory.
 */
template <class Curve, class Backend>
int msm_run(Backend &be, const msm_config &cfg, msm_buffers<Curve> buf, const fr_dev *scalars,
            const typename Curve::affine *points) {
        /* all-zero bytes are infinity (zz = 0): each batch's buckets add in */
        MSM_TRY(be.zero(buf.buckets,
                        (uint64_t)cfg.windows * cfg.buckets * sizeof(typename Curve::xyzz)));
        for (uint32_t batch = 0; batch < cfg.batches; batch++) {
                const uint64_t b0 = msm_batch_start(cfg, batch);
                const uint64_t n = msm_batch_start(cfg, batch + 1) - b0;
                if (n == 0)
                        break;
                MSM_TRY(be.wait_input(batch));
                MSM_TRY(msm_run_batch(be, cfg, buf, scalars + b0, points + b0, n));
        }

        const uint32_t chunks = cfg.buckets >> cfg.log_chunk;
        MSM_TRY(be.launch(msm_step_chunks<Curve>{buf.buckets, cfg.buckets, cfg.log_chunk, buf.sums,
                                                 buf.weighted},
                          (uint64_t)cfg.windows * chunks));
        const uint32_t spans = chunks >> cfg.log_span;
        MSM_TRY(be.launch(msm_step_spans<Curve>{buf.sums, buf.weighted, chunks, cfg.log_span,
                                                buf.span_sums, buf.span_weighted, buf.span_v},
                          (uint64_t)cfg.windows * spans));
        MSM_TRY(be.launch(msm_step_window<Curve>{buf.span_sums, buf.span_weighted, buf.span_v,
                                                 spans, cfg.log_span, cfg.log_chunk,
                                                 buf.window_sums},
                          cfg.windows));
        return 0;
}

/* r = sum_w 2^(cw) window_sums[w] (host memory), by Horner's rule on the CPU. */
#define MSM_COMBINE_WINDOWS(G)                                                      \
        inline void msm_combine_windows(G##_jac_t *r, const msm_config &cfg,        \
                                        const G##_xyzz_t *window_sums) {            \
                G##_jac_set_infinity(r);                                            \
                for (uint32_t w = cfg.windows; w-- > 0;) {                          \
                        G##_jac_t term;                                             \
                        for (uint32_t i = 0; i < cfg.c && w + 1 < cfg.windows; i++) \
                                G##_jac_dbl(r, r);                                  \
                        G##_xyzz_to_jac(&term, &window_sums[w]);                    \
                        G##_jac_add(r, r, &term);                                   \
                }                                                                   \
        }
MSM_COMBINE_WINDOWS(g1)
MSM_COMBINE_WINDOWS(g2)
#undef MSM_COMBINE_WINDOWS

} // namespace cuzk
