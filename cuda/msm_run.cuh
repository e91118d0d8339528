/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The order of msm_steps.cuh's steps, over any backend that launches a step
 * for a count of indices and sorts and scans: the device's (msm.cu, CUB)
 * and the emulation's (emu-test.cu, loops on the host).
 */
#pragma once

#include <stdint.h>

#include <utility>

#include "msm_steps.cuh"

extern "C" {
#include "zk/g1.h"
#include "zk/g2.h"
}

namespace cuzk {

/* Buffers the backend provides, sized by msm_make_sizes. */
template <class Curve> struct msm_buffers {
        using xyzz_dev = typename Curve::xyzz;
        fr_dev *canonical;
        uint32_t *keys, *keys_alt, *vals, *vals_alt;
        uint32_t *start, *end, *seg_count, *seg_first;
        xyzz_dev *partials, *partials_alt;
        xyzz_dev *buckets, *sums, *weighted, *window_sums;
        xyzz_dev *span_sums, *span_weighted;
        uint32_t *big_index, *one_index; /* n each, with compact only */
};

#define MSM_TRY(expr)              \
        do {                       \
                int r_ = (expr);   \
                if (r_ < 0)        \
                        return r_; \
        } while (0)

/*
 * A group's bucket sums from its sorted items (total, nb buckets), added to
 * the group's buckets from window w0 on: level 0 by ranges, then the later
 * levels, each of which adds a bucket's sum in where one segment is left
 * of it and launches no more threads than the bound needs.
 */
template <class Curve, class Backend>
int msm_run_levels(Backend &be, const msm_config &cfg, msm_buffers<Curve> &buf,
                   const typename Curve::affine *points, uint64_t total, uint32_t nb, uint32_t w0) {
        using xyzz_dev = typename Curve::xyzz;

        /* Level state: bucket b's items are [first[b], first[b] + count[b]). */
        uint32_t *first = buf.start, *count = buf.end;
        uint32_t *seg_first = buf.seg_first, *seg_count = buf.seg_count;
        xyzz_dev *in, *out = buf.partials;

        /* Level 0: ranges of the sorted items whatever their buckets. */
        const uint64_t threads = msm_range_threads(total, cfg.seg_first, cfg.wave);
        const msm_ranges<Curve> r = {buf.keys, buf.vals, total, threads, nb, points, out};
        MSM_TRY(be.launch(msm_step_ranges<Curve>{r}, threads));
        MSM_TRY(be.launch(msm_step_range_items{first, count, total, threads, seg_first, seg_count},
                          nb));
        std::swap(first, seg_first);
        std::swap(count, seg_count);
        in = out;
        out = buf.partials_alt;
        uint64_t items = threads + nb;
        for (uint32_t level = 1; level < cfg.levels; level++) {
                const uint32_t seg = cfg.seg_next;
                const uint64_t segments = msm_segments_bound(items, seg, nb);

                MSM_TRY(be.launch(msm_step_segment_counts{count, seg, level >= 2, seg_count}, nb));
                MSM_TRY(be.exclusive_scan(seg_count, seg_first, nb));
                const msm_level<Curve> lv = {
                        first,     count, seg_first,
                        seg_count, nb,    seg,
                        in,        out,   buf.buckets + (uint64_t)w0 * cfg.buckets};
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
        return 0;
}

/* The bucket sums of one batch of n points, added to buf.buckets. */
template <class Curve, class Backend>
int msm_run_batch(Backend &be, const msm_config &cfg, msm_buffers<Curve> &buf,
                  const fr_dev *scalars, const typename Curve::affine *points, uint64_t n) {
        const unsigned sort_bits = msm_sort_bits(cfg);

        const bool compact = cfg.compact && cfg.batches == 1;
        /* without compact every scalar is recoded once a group: limb planes */
        uint32_t *planes = compact ? nullptr : reinterpret_cast<uint32_t *>(buf.canonical);
        if (planes)
                MSM_TRY(be.launch(msm_step_canonical_planes{scalars, n, planes}, n));
        else
                MSM_TRY(be.launch(msm_step_canonical{scalars, buf.canonical}, n));
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

                MSM_TRY(be.launch(
                        msm_step_digits{buf.canonical, compact ? buf.big_index : nullptr, recoded,
                                        cfg.c, cfg.narrow, w0, g, cfg.buckets, buf.keys, buf.vals,
                                        msm_make_low_windows(cfg.c, cfg.narrow, w0), planes},
                        recoded));
                MSM_TRY(be.launch(
                        msm_step_ones{buf.one_index, (uint64_t)g * recoded, buf.keys, buf.vals},
                        ones));
                MSM_TRY(be.sort(buf.keys, buf.keys_alt, buf.vals, buf.vals_alt, total, sort_bits));
                MSM_TRY(be.zero(buf.start, nb * sizeof(uint32_t)));
                MSM_TRY(be.zero(buf.end, nb * sizeof(uint32_t)));
                MSM_TRY(be.launch(msm_step_bounds{buf.keys, total, nb, buf.start, buf.end}, total));
                MSM_TRY(be.launch(msm_step_counts{buf.start, buf.end}, nb));

                MSM_TRY(msm_run_levels(be, cfg, buf, points, total, nb, w0));
        }
        return 0;
}

/*
 * The window reduction: sum_b (b + 1) S_b of each window's buckets into
 * window_sums, by chunks, then levels of lanes (the two pairs of buffers
 * in turn) down to one segment a window.
 */
template <class Curve, class Backend>
int msm_run_reduction(Backend &be, const msm_config &cfg, msm_buffers<Curve> &buf) {
        using xyzz_dev = typename Curve::xyzz;
        uint64_t segments = (uint64_t)cfg.windows * (cfg.buckets >> cfg.log_chunk);
        MSM_TRY(be.launch(msm_step_chunks<Curve>{buf.buckets, cfg.buckets, cfg.log_chunk, buf.sums,
                                                 buf.weighted},
                          segments));
        xyzz_dev *in_sums = buf.sums, *in_weighted = buf.weighted;
        xyzz_dev *out_sums = buf.span_sums, *out_weighted = buf.span_weighted;
        uint32_t log_len = cfg.log_chunk;
        const uint32_t levels = msm_combine_levels(cfg);
        for (uint32_t level = 0; level < levels; level++) {
                const uint32_t bits = msm_combine_bits(cfg, level);
                xyzz_dev *weighted = level + 1 == levels ? buf.window_sums : out_weighted;
                MSM_TRY(be.launch_lanes(msm_step_combine<Curve>{in_sums, in_weighted, bits, log_len,
                                                                out_sums, weighted},
                                        segments, 1u << bits));
                segments >>= bits;
                log_len += bits;
                std::swap(in_sums, out_sums);
                std::swap(in_weighted, out_weighted);
        }
        return 0;
}

/*
 * Runs the steps, batch after batch of cfg.n points (the last may have
 * fewer); window_sums (cfg.windows XYZZ points, in the backend's memory)
 * hold the result for msm_combine_windows. Backend provides
 *   int wait_input(uint32_t batch);                  before a batch's steps
 *   int launch(const Step &, uint64_t count);        for any step
 *   int launch_lanes(const Step &, uint64_t count, uint32_t width);
 *            for a step of lanes: groups of width (a power of 2, at most
 *            32) adjacent items; count a multiple of width
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

        return msm_run_reduction(be, cfg, buf);
}

/* r = sum_w 2^(o_w) window_sums[w] (host memory), by Horner's rule on the
 * CPU: window w's width doublings before it is added, past the top one. */
#define MSM_COMBINE_WINDOWS(G)                                                         \
        inline void msm_combine_windows(G##_jac_t *r, const msm_config &cfg,           \
                                        const G##_xyzz_t *window_sums) {               \
                G##_jac_set_infinity(r);                                               \
                for (uint32_t w = cfg.windows; w-- > 0;) {                             \
                        G##_jac_t term;                                                \
                        const uint32_t width = msm_window_width(cfg.c, cfg.narrow, w); \
                        for (uint32_t i = 0; i < width && w + 1 < cfg.windows; i++)    \
                                G##_jac_dbl(r, r);                                     \
                        G##_xyzz_to_jac(&term, &window_sums[w]);                       \
                        G##_jac_add(r, r, &term);                                      \
                }                                                                      \
        }
MSM_COMBINE_WINDOWS(g1)
MSM_COMBINE_WINDOWS(g2)
#undef MSM_COMBINE_WINDOWS

} // namespace cuzk
