/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The G1 MSM as a sequence of data-parallel steps, written once for the
 * device (msm.cu launches each step as a kernel, CUB sorts and scans) and
 * the host emulation (emu-test.cu loops over the same step functions).
 *
 * Pippenger with signed c-bit digits: scalar k = sum_w d_w 2^(o_w) with
 * d_w in [-2^(c-1), 2^(c-1)], so each window has B = 2^(c-1) buckets and a
 * point goes, per window, into bucket |d_w| - 1, negated when d_w < 0.
 * The fewest windows that cover every k < r without a carry out of the
 * top one, the lowest of them one bit narrower where that still holds
 * (msm_fit_windows: o_w = msm_window_offset). Per group of windows:
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
 * Then for all windows at once: sum_b (b + 1) S_b per window, by running
 * sums over chunks of buckets, then levels of warp lanes that combine
 * adjacent chunks, and the windows combined by Horner's rule on the host.
 */
#pragma once

#include <stdint.h>

#include "curve.cuh"
#include "memory.cuh"
#include "msm_config.cuh"

namespace cuzk {

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
 * Montgomery -> canonical as limb planes: word j of scalar i at
 * planes[j n + i], in the same bytes as n canonical scalars. A batch
 * without compact recodes every scalar once a window group (13 passes
 * over 2^27 scalars for MSM H): from planes a pass reads the two or three
 * words its bits and its carry need, where a whole scalar is 32 bytes.
 */
struct msm_step_canonical_planes {
        static constexpr unsigned block_threads = 256;
        const fr_dev *in;
        uint64_t n;
        uint32_t *planes;

        CUZK_HD void operator()(uint64_t i) const {
                const fr_dev k = load_wide(&in[i]) * fr_dev::raw_one();
                CUZK_UNROLL
                for (int j = 0; j < fr_dev::N; j++)
                        planes[(uint64_t)j * n + i] = k.v[j];
        }
};

/*
 * The carry into window w0 of the signed-digit recoding, without the
 * windows below: their digits (each at most half its window's range)
 * stand for k mod 2^(o) - carry 2^(o), o = w0's offset, whose largest
 * value is top = sum_{i<w0} 2^(o_i + width_i - 1), the top bit of each
 * window. As every value in range has one recoding, carry = (k mod 2^(o)
 * > top). mask keeps the bits below o; top_word is the highest word it
 * touches.
 */
struct msm_low_windows {
        fr_dev mask, top;
        uint32_t top_word;
};

inline msm_low_windows msm_make_low_windows(uint32_t c, uint32_t narrow, uint32_t w0) {
        msm_low_windows lw = {fr_dev::zero(), fr_dev::zero(), 0};
        const uint32_t end = msm_window_offset(c, narrow, w0);
        for (uint32_t bit = 0; bit < end && bit < 32 * fr_dev::N; bit++) {
                lw.mask.v[bit / 32] |= 1u << (bit % 32);
                lw.top_word = bit / 32;
        }
        for (uint32_t w = 0; w < w0; w++) {
                const uint32_t bit =
                        msm_window_offset(c, narrow, w) + msm_window_width(c, narrow, w) - 1;
                if (bit < 32 * fr_dev::N)
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

/* A scalar's canonical value as msm_step_digits reads it: whole (an
 * fr_dev in registers) or from limb planes (msm_step_canonical_planes). */
struct msm_scalar_whole {
        fr_dev k;

        CUZK_HD uint32_t bits(unsigned pos, unsigned width) const {
                return k.bits(pos, width);
        }
        CUZK_HD uint32_t carry_into(const msm_low_windows &lw) const {
                return msm_carry_into(k, lw);
        }
};

struct msm_scalar_planes {
        const uint32_t *planes;
        uint64_t n, i;

        CUZK_HD uint32_t word(unsigned j) const {
                return j < (unsigned)fr_dev::N ? planes[(uint64_t)j * n + i] : 0;
        }
        CUZK_HD uint32_t bits(unsigned pos, unsigned width) const {
                const unsigned limb = pos / 32, shift = pos % 32;
                uint64_t w = word(limb);
                if (shift + width > 32)
                        w |= (uint64_t)word(limb + 1) << 32;
                return (uint32_t)(w >> shift) & (uint32_t)((1ull << width) - 1);
        }
        /* msm_carry_into from the mask's top word down: a word other than
         * top's decides, and words equal to it are rare past the first, so
         * a pass reads one word for the carry. */
        CUZK_HD uint32_t carry_into(const msm_low_windows &lw) const {
                for (int j = (int)lw.top_word; j >= 0; j--) {
                        const uint32_t a = word((unsigned)j) & lw.mask.v[j], b = lw.top.v[j];
                        if (a != b)
                                return a > b ? 1u : 0u;
                }
                return 0;
        }
};

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
 * without an index), n items; the scalars canonical, or as limb planes of
 * n scalars where planes is set (no index then). */
struct msm_step_digits {
        static constexpr unsigned block_threads = 256;
        const fr_dev *canonical;
        const uint32_t *index;
        uint64_t n;
        uint32_t c, narrow, w0, g, buckets;
        uint32_t *keys, *vals;
        msm_low_windows low; /* msm_make_low_windows(c, narrow, w0) */
        const uint32_t *planes;

        CUZK_HD void operator()(uint64_t i) const {
                if (planes) {
                        recode(i, (uint32_t)i, msm_scalar_planes{planes, n, i});
                } else {
                        const uint32_t point = index ? index[i] : (uint32_t)i;
                        recode(i, point, msm_scalar_whole{load_wide(&canonical[point])});
                }
        }

        template <class Scalar>
        CUZK_HD void recode(uint64_t i, uint32_t point, const Scalar &k) const {
                const uint32_t sentinel = g * buckets;
                uint32_t carry = w0 ? k.carry_into(low) : 0;

                for (uint32_t w = w0; w < w0 + g; w++) {
                        const uint32_t width = msm_window_width(c, narrow, w);
                        const uint32_t raw = k.bits(msm_window_offset(c, narrow, w), width) + carry;
                        /* raw in [0, 2^width]: above half, borrow from the next window */
                        const bool negative = raw > 1u << (width - 1);
                        const uint32_t magnitude = negative ? (1u << width) - raw : raw;
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

/* What a later level's segments read and write. */
template <class Curve> struct msm_level {
        using xyzz_dev = typename Curve::xyzz;
        const uint32_t *first, *count, *seg_first, *seg_count;
        uint32_t nb, seg;
        const xyzz_dev *partials_in;
        xyzz_dev *partials_out;
        /* a bucket's only segment adds its sum here (the group's bucket
         * sums) instead of leaving it to a next level */
        xyzz_dev *buckets;
};

/* One segment of a later level: the sum of at most seg consecutive partial
 * sums of one bucket; a bucket's only segment adds into the bucket sums. */
template <class Curve> struct msm_step_accumulate : msm_level<Curve> {
        using xyzz_dev = typename Curve::xyzz;
        static constexpr unsigned block_threads = Curve::curve_block_threads;
        static constexpr unsigned min_blocks = Curve::level0_min_blocks;

        CUZK_HD void operator()(uint64_t s) const {
                const msm_level<Curve> &l = *this;
                /* launched for the bound: most threads are past the last
                 * segment and leave without a search */
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
                for (uint64_t i = begin; i < end; i++)
                        xyzz_add(acc, load_wide(&l.partials_in[i]));
                if (shares == 1) {
                        xyzz_dev sum = load_wide(&l.buckets[b]);
                        xyzz_add(sum, acc);
                        store_wide(&l.buckets[b], sum);
                        return;
                }
                store_wide(&l.partials_out[s], acc);
        }
};

/* What level 0 reads and writes. */
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
 * lanes idle at 2^7 points a bucket: on the H200 2^26 device-resident
 * took 422.5 ms by shares against 390.6 by ranges, 0.36 ns an addition,
 * the bare loop's rate). The products are called (curve.cuh's mul_called
 * says why), on G1 in Fp's lazy form (Curve::level0_mul: field_lazy.cuh),
 * and an SM holds Curve::level0_min_blocks blocks (12 warps of
 * G1; 16 were 2-3 % slower). One loop over the range, the flush
 * at a bucket's end inside it, keeps the lanes in step: nested loops per
 * bucket would run a warp's first buckets to the longest one's end before
 * any lane starts its second.
 * The slots t + b are distinct (a later range only meets buckets from
 * its predecessor's last on), and bucket b's are consecutive: from the
 * range of its first item to that of its last, plus b
 * (msm_step_range_items).
 */
template <class Curve> struct msm_step_ranges : msm_ranges<Curve> {
        using xyzz_dev = typename Curve::xyzz;
        static constexpr unsigned block_threads = Curve::curve_block_threads;
        static constexpr unsigned min_blocks = Curve::level0_min_blocks;

        CUZK_HD void operator()(uint64_t t) const {
                const msm_ranges<Curve> &l = *this;
                const msm_range_split split(l.total, l.threads);
                const uint64_t begin = split.begin(t), end = split.begin(t + 1);
                uint32_t bucket = l.keys[begin];
                if (bucket == l.sentinel)
                        return;
                const typename Curve::level0_mul mul;
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
                                store_wide(&l.partials_out[t + bucket], acc.canonical(mul));
                                if (key == l.sentinel)
                                        return; /* digits 0 sort last */
                                acc = xyzz_dev::infinity();
                                bucket = key;
                        }
                        acc.add_affine(load_wide(&l.points[ref & ~MSM_NEGATE_BIT]),
                                       (ref & MSM_NEGATE_BIT) != 0, mul);
                }
                store_wide(&l.partials_out[t + bucket], acc.canonical(mul));
        }
};

/* Bucket b's partial sums after level 0: first'[b], count'[b]
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
 * Window reduction, the chunks. Chunk j of a window covers buckets
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
 * Window reduction, the later levels: 2^bits adjacent segments of L =
 * 2^log_len buckets (each with its plain sum A_i and V_i = sum (b + 1) S_b,
 * b counted from its first bucket) become one segment of L 2^bits buckets,
 *   A = sum_i A_i,  V = sum_i V_i + L sum_i i A_i,
 * on a group of lanes, a segment each. A suffix scan leaves lane i with
 * P_i = sum_{j >= i} A_j (P_0 = A), and sum_{i >= 1} P_i = sum_i i A_i;
 * tree sums of those P_i and of the V_i end in lane 0, which doubles the
 * first log_len times and writes segment i >> bits. Once a window has one
 * segment left, its V is the window's sum. Lanes is the launch's
 * (gpu_launch_lanes; the emulation's): lane, and down(x, d), lane + d's x
 * (x itself past the group), which every lane of a group calls alike.
 */
template <class Curve> struct msm_step_combine {
        using xyzz_dev = typename Curve::xyzz;
        static constexpr unsigned block_threads = Curve::curve_block_threads;
        const xyzz_dev *sums, *weighted;
        uint32_t bits, log_len;
        xyzz_dev *out_sums, *out_weighted;

        template <class Lanes> CUZK_HD void operator()(uint64_t i, const Lanes &lanes) const {
                const uint32_t width = 1u << bits, lane = lanes.lane;
                xyzz_dev p = load_wide(&sums[i]), v = load_wide(&weighted[i]);
                for (uint32_t d = 1; d < width; d <<= 1) {
                        const xyzz_dev t = lanes.down(p, d);
                        if (lane + d < width)
                                xyzz_add(p, t);
                }
                xyzz_dev q = lane ? p : xyzz_dev::infinity();
                for (uint32_t d = width >> 1; d; d >>= 1) {
                        const xyzz_dev tq = lanes.down(q, d), tv = lanes.down(v, d);
                        if (lane < d) {
                                xyzz_add(q, tq);
                                xyzz_add(v, tv);
                        }
                }
                if (lane)
                        return;
                for (uint32_t k = 0; k < log_len; k++)
                        xyzz_dbl(q);
                xyzz_add(v, q);
                store_wide(&out_sums[i >> bits], p);
                store_wide(&out_weighted[i >> bits], v);
        }
};

} // namespace cuzk
