/* SPDX-License-Identifier: Apache-2.0 */
/* The GPU G1 MSM: msm_steps.cuh's steps as kernels, CUB for sort and scan. */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <new>
#include <type_traits>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "cuda/context.cuh"
#include "cuda/msm_run.cuh"

using namespace cuzk;

/*
 * A profiled context (gpu_set_msm_profile; bench-cuda --profile): every step
 * of every MSM between two events, and after each MSM one line per step kind
 * on stderr (calls, total ms). For device runs that ask where the time goes;
 * the events add a little to each launch, and a profiled MSM waits for its
 * result.
 */
template <class T> static const char *step_name(void) {
        /* "... [with T = cuzk::msm_step_digits]" (GCC) or "... [T = ...]" */
        static char name[96];
        const char *f = __PRETTY_FUNCTION__, *at = strstr(f, "T = ");
        snprintf(name, sizeof(name), "%s", at ? at + 4 : f);
        name[strcspn(name, ";]")] = 0;
        return name;
}

struct msm_profile {
        static constexpr unsigned max_marks = 1024;
        cudaEvent_t begin[max_marks], end[max_marks];
        const char *name[max_marks];
        unsigned marks, created;

        /* Events around one step; false when full (the step still runs). */
        bool open(cudaStream_t stream, const char *what) {
                if (marks == max_marks)
                        return false;
                if (marks == created) {
                        if (cudaEventCreate(&begin[created]) != cudaSuccess)
                                return false;
                        if (cudaEventCreate(&end[created]) != cudaSuccess) {
                                cudaEventDestroy(begin[created]);
                                return false;
                        }
                        created++;
                }
                name[marks] = what;
                return cudaEventRecord(begin[marks], stream) == cudaSuccess;
        }
        void close(cudaStream_t stream) {
                (void)cudaEventRecord(end[marks++], stream);
        }
        /* After the stream's work: the table, then ready for the next MSM. */
        void report(size_t n, const msm_config &cfg) {
                const char *seen[64];
                float ms[64];
                unsigned calls[64], kinds = 0;
                float all = 0;

                for (unsigned i = 0; i < marks; i++) {
                        float t = 0;
                        (void)cudaEventElapsedTime(&t, begin[i], end[i]);
                        unsigned k = 0;
                        while (k < kinds && strcmp(seen[k], name[i]) != 0)
                                k++;
                        if (k == kinds && kinds < 64)
                                seen[kinds] = name[i], ms[kinds] = 0, calls[kinds] = 0, kinds++;
                        if (k < kinds)
                                ms[k] += t, calls[k]++;
                        all += t;
                }
                fprintf(stderr, "msm profile, %zu points: %.3f ms in %u steps", n, all, marks);
                if (cfg.compact)
                        fprintf(stderr, " (%" PRIu64 " scalars not 0 or 1, %" PRIu64 " of 1)",
                                cfg.n_big, cfg.n_one);
                fprintf(stderr, "; c = %u, %u windows (%u of %u bits), %u a group\n", cfg.c,
                        cfg.windows, cfg.narrow, cfg.c - 1, cfg.group);
                for (unsigned k = 0; k < kinds; k++)
                        fprintf(stderr, "  %-48s %5u calls %9.3f ms\n", seen[k], calls[k], ms[k]);
                marks = 0;
        }
        ~msm_profile() {
                for (unsigned i = 0; i < created; i++) {
                        cudaEventDestroy(begin[i]);
                        cudaEventDestroy(end[i]);
                }
        }
};

/*
 * The window bits, unless the context fixes them: about log2(n) - 4, at
 * most 16 (2^15 buckets a window keep the window reduction short), and 20
 * for G1 sums of 2^26 points or more, device-resident or host-to-host. On
 * the H200, device-resident 2^26 took 422.8 ms at c = 20 (13 windows of
 * 2^19 buckets, 1.3 GB) against 439.5 at c = 18 and 554 at c = 16, and
 * host-to-host 426.9 ms at c = 20 in batches of 2^24 against 447.6 at
 * c = 16 in batches of 2^23; 2^24 points stay faster at 16 (120.5 against
 * 140.4 ms). G2, whose window reduction costs three times as much an
 * addition, stays at 16: its 2^27 tail took 0.56 s at c = 18 against
 * 0.33 s.
 */
template <class Curve> static bool msm_wide(size_t n) {
        return std::is_same<Curve, g1_curve>::value && n >= ((size_t)1 << 26);
}

/*
 * A compact MSM's windows take only its n_big scalars other than 0 and 1,
 * so its window bits follow that count (the ones go once into one bucket):
 * 20 for G1 from 2^24 of them (a synthetic 2^27 partition's A and L, 2^25
 * each), else about log2(n_big) - 4, at most 16. A 32 GiB PoRep
 * partition's A and L have about 2.6M (2%) over 130M points: at c = 20
 * each paid 13 windows of 2^19 buckets of reduction (16.8 ms at 2^26,
 * cuda/README) for 34M additions; at 16, 16 windows of 2^15 buckets.
 */
template <class Curve> static uint32_t msm_compact_window_bits(uint64_t n_big) {
        const bool wide = std::is_same<Curve, g1_curve>::value && n_big >= ((uint64_t)1 << 24);
        return msm_auto_window_bits(n_big, wide ? 20 : 16);
}

/* c by size, or the caller's `bits` where set; the context's fixed window
 * (ctx may be NULL: none) before either. */
template <class Curve>
static msm_config msm_choose_config(const gpu_context_t *ctx, size_t n, uint32_t batches,
                                    uint32_t bits = 0) {
        msm_config cfg = msm_make_config(n, batches, msm_wide<Curve>(n) ? 20 : 16);
        if (ctx && ctx->msm_window_bits)
                bits = ctx->msm_window_bits;
        if (bits)
                msm_config_set_window_bits(&cfg, bits);
        return cfg;
}

void gpu_set_msm_window_bits(gpu_context_t *ctx, unsigned bits) {
        assert(ctx);
        assert(bits == 0 || (bits >= GPU_MSM_WINDOW_BITS_MIN && bits <= GPU_MSM_WINDOW_BITS_MAX));
        ctx->msm_window_bits = bits;
}

void gpu_set_msm_profile(gpu_context_t *ctx, bool on) {
        assert(ctx);
        ctx->msm_profile = on;
}

/* The threads of level 0 that the card holds at once, so that its ranges
 * come in whole waves (on the H200, 2^26 took 449.4 ms host-to-host in
 * waves against 454.2 with total / M ranges); 0 when CUDA cannot say. */
template <class Curve> static uint64_t msm_level0_wave(const gpu_context_t *ctx) {
        using Step = msm_step_ranges<Curve>;
        int blocks = 0;
        if (cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, gpu_step_kernel<Step>,
                                                          Step::block_threads, 0) != cudaSuccess)
                return 0;
        return (uint64_t)blocks * Step::block_threads * ctx->info.multiprocessors;
}

struct device_msm_backend {
        gpu_context_t *ctx;
        void *temp;
        size_t temp_bytes;
        bool wait_for_copies; /* batch k's points arrive with ctx->input_ready[k] */
        msm_profile *prof;    /* NULL unless the context is profiled */

        bool mark(const char *what) {
                return prof && prof->open(ctx->stream, what);
        }
        void unmark(bool marked) {
                if (marked)
                        prof->close(ctx->stream);
        }

        int wait_input(uint32_t batch) {
                if (!wait_for_copies)
                        return 0;
                /* profiled: the time the kernels' stream idles for the copy */
                const bool m = mark("wait for copy");
                const cudaError_t e = cudaStreamWaitEvent(ctx->stream, ctx->input_ready[batch], 0);
                unmark(m);
                GPU_TRY(ctx, e);
                return 0;
        }

        template <class Step> int launch(const Step &step, uint64_t count) {
                const bool m = mark(step_name<Step>());
                const int r = gpu_launch_step(ctx, step, count);
                unmark(m);
                return r;
        }

        template <class Step> int launch_lanes(const Step &step, uint64_t count, uint32_t width) {
                const bool m = mark(step_name<Step>());
                const int r = gpu_launch_lanes(ctx, step, count, width);
                unmark(m);
                return r;
        }

        int zero(void *p, size_t bytes) {
                const bool m = mark("memset");
                const cudaError_t e = cudaMemsetAsync(p, 0, bytes, ctx->stream);
                unmark(m);
                GPU_TRY(ctx, e);
                return 0;
        }

        int sort(uint32_t *&keys, uint32_t *&keys_alt, uint32_t *&vals, uint32_t *&vals_alt,
                 uint64_t count, unsigned bits) {
                cub::DoubleBuffer<uint32_t> k(keys, keys_alt), v(vals, vals_alt);
                size_t bytes = temp_bytes;
                const bool m = mark("cub radix sort");
                const cudaError_t e = cub::DeviceRadixSort::SortPairs(temp, bytes, k, v, (int)count,
                                                                      0, (int)bits, ctx->stream);
                unmark(m);
                GPU_TRY(ctx, e);
                keys = k.Current();
                keys_alt = k.Alternate();
                vals = v.Current();
                vals_alt = v.Alternate();
                return 0;
        }

        int exclusive_scan(const uint32_t *in, uint32_t *out, uint64_t count) {
                size_t bytes = temp_bytes;
                const bool m = mark("cub exclusive scan");
                const cudaError_t e = cub::DeviceScan::ExclusiveSum(temp, bytes, in, out,
                                                                    (int)count, ctx->stream);
                unmark(m);
                GPU_TRY(ctx, e);
                return 0;
        }
};

/* CUB's temporary storage for the largest sort and scan of this MSM (the
 * scans of 0/1 flags run over the n scalars). */
static int cub_temp_bytes(gpu_context_t *ctx, const msm_config &cfg, const msm_sizes &z,
                          size_t *ret) {
        const uint64_t scanned = cfg.compact && cfg.n > z.per_bucket ? cfg.n : z.per_bucket;
        cub::DoubleBuffer<uint32_t> k(nullptr, nullptr), v(nullptr, nullptr);
        size_t sort_bytes = 0, scan_bytes = 0;

        GPU_TRY(ctx, cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, k, v, (int)z.keys, 0, 32,
                                                     ctx->stream));
        GPU_TRY(ctx, cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, (const uint32_t *)nullptr,
                                                   (uint32_t *)nullptr, (int)scanned, ctx->stream));
        *ret = sort_bytes > scan_bytes ? sort_bytes : scan_bytes;
        return 0;
}

template <class T>
static int scratch(gpu_context_t *ctx, enum gpu_slot slot, uint64_t count, T **ret) {
        void *p = nullptr;
        GPU_TRY_R(gpu_scratch(ctx, slot, count * sizeof(T), &p));
        *ret = (T *)p;
        return 0;
}

/* Each of an MSM's buffers as visit(slot, count, &pointer) takes it: the
 * one list that both the scratch (msm_buffers_get) and its size
 * (gpu_g1_msm_device_bytes) follow. */
template <class Curve, class Visit>
static int msm_buffers_each(const msm_config &cfg, const msm_sizes &z, msm_buffers<Curve> *b,
                            Visit &&visit) {
        GPU_TRY_R(visit(GPU_SLOT_MSM_CANONICAL, cfg.n, &b->canonical));
        GPU_TRY_R(visit(GPU_SLOT_MSM_KEYS, z.keys, &b->keys));
        GPU_TRY_R(visit(GPU_SLOT_MSM_KEYS_ALT, z.keys, &b->keys_alt));
        GPU_TRY_R(visit(GPU_SLOT_MSM_VALS, z.keys, &b->vals));
        GPU_TRY_R(visit(GPU_SLOT_MSM_VALS_ALT, z.keys, &b->vals_alt));
        GPU_TRY_R(visit(GPU_SLOT_MSM_START, z.per_bucket, &b->start));
        GPU_TRY_R(visit(GPU_SLOT_MSM_END, z.per_bucket, &b->end));
        GPU_TRY_R(visit(GPU_SLOT_MSM_SEG_COUNT, z.per_bucket, &b->seg_count));
        GPU_TRY_R(visit(GPU_SLOT_MSM_SEG_FIRST, z.per_bucket, &b->seg_first));
        GPU_TRY_R(visit(GPU_SLOT_MSM_PARTIALS, z.partials, &b->partials));
        GPU_TRY_R(visit(GPU_SLOT_MSM_PARTIALS_ALT, z.partials, &b->partials_alt));
        GPU_TRY_R(visit(GPU_SLOT_MSM_BUCKETS, z.buckets, &b->buckets));
        GPU_TRY_R(visit(GPU_SLOT_MSM_SUMS, z.chunks, &b->sums));
        GPU_TRY_R(visit(GPU_SLOT_MSM_WEIGHTED, z.chunks, &b->weighted));
        GPU_TRY_R(visit(GPU_SLOT_MSM_WINDOWS, cfg.windows, &b->window_sums));
        GPU_TRY_R(visit(GPU_SLOT_MSM_SPAN_SUMS, z.spans, &b->span_sums));
        GPU_TRY_R(visit(GPU_SLOT_MSM_SPAN_WEIGHTED, z.spans, &b->span_weighted));
        b->big_index = b->one_index = nullptr;
        if (cfg.compact) {
                GPU_TRY_R(visit(GPU_SLOT_MSM_BIG_INDEX, cfg.n, &b->big_index));
                GPU_TRY_R(visit(GPU_SLOT_MSM_ONE_INDEX, cfg.n, &b->one_index));
        }
        return 0;
}

template <class Curve>
static int msm_buffers_get(gpu_context_t *ctx, const msm_config &cfg, const msm_sizes &z,
                           msm_buffers<Curve> *b) {
        return msm_buffers_each(cfg, z, b, [ctx](enum gpu_slot slot, uint64_t count, auto **p) {
                return scratch(ctx, slot, count, p);
        });
}

/* The scratch a device-resident G1 MSM of n points and scalars not kept
 * apart (MSM H) works in at `bits` (0: by size), CUB's temp storage
 * aside: what its wider windows cost a lane. */
uint64_t gpu_g1_msm_device_bytes(size_t n, unsigned bits) {
        const msm_config cfg = msm_choose_config<g1_curve>(nullptr, n, 1, bits);
        msm_buffers<g1_curve> b;
        uint64_t bytes = 0;
        (void)msm_buffers_each(cfg, msm_make_sizes(cfg), &b,
                               [&bytes](enum gpu_slot, uint64_t count, auto **p) {
                                       bytes += count * sizeof(**p);
                                       return 0;
                               });
        return bytes;
}

/* Batches for a host-to-host MSM: 2^23 points (768 MiB of points and
 * scalars) or more each by default, 2^24 with wide windows (msm_wide), so
 * that copying batch k+1 overlaps the work on batch k (at 2^26 and c = 16,
 * batches of 2^24 were no faster than 2^23; at c = 20, 2^24 and 2^25 the
 * same). Two events are left for msm_ramp's extra batches. */
static uint32_t host_batches(const gpu_context_t *ctx, size_t n, bool wide) {
        const size_t per_batch =
                ctx->msm_batch_points ? ctx->msm_batch_points : (size_t)1 << (wide ? 24 : 23);
        const size_t batches = (n + per_batch - 1) / per_batch, most = GPU_MSM_MAX_BATCHES - 2;
        return batches < most ? (uint32_t)batches : (uint32_t)most;
}

void gpu_set_msm_batch_points(gpu_context_t *ctx, size_t points) {
        assert(ctx);
        ctx->msm_batch_points = points;
}

/* The host-side types of each group. */
template <class Curve> struct curve_host;
template <> struct curve_host<g1_curve> {
        using affine = g1_affine_t;
        using jac = g1_jac_t;
        using xyzz = g1_xyzz_t;
};
template <> struct curve_host<g2_curve> {
        using affine = g2_affine_t;
        using jac = g2_jac_t;
        using xyzz = g2_xyzz_t;
};

/* The window sums into pinned memory on the stream, for gpu_msm_collect
 * (G1 only: a partition's G2 MSM is waited for). */
static int msm_defer(gpu_context_t *ctx, g1_jac_t *r, const msm_config &cfg,
                     const g1_curve::xyzz *d_sums) {
        if (ctx->n_pending == GPU_PENDING_MAX || cfg.windows > GPU_WINDOWS_MAX)
                return -EINVAL;
        if (!ctx->pending_sums)
                GPU_TRY(ctx, cudaHostAlloc((void **)&ctx->pending_sums,
                                           GPU_PENDING_MAX * GPU_WINDOWS_MAX * sizeof(g1_xyzz_t),
                                           cudaHostAllocDefault));
        g1_xyzz_t *sums = ctx->pending_sums + (size_t)ctx->n_pending * GPU_WINDOWS_MAX;
        GPU_TRY(ctx, cudaMemcpyAsync(sums, d_sums, cfg.windows * sizeof(g1_xyzz_t),
                                     cudaMemcpyDeviceToHost, ctx->stream));
        ctx->pending[ctx->n_pending++] = {r, cfg.windows, cfg.c, cfg.narrow};
        return 0;
}

static int msm_defer(gpu_context_t *, g2_jac_t *, const msm_config &, const g2_curve::xyzz *) {
        return -EINVAL;
}

int gpu_msm_collect(gpu_context_t *ctx) {
        const unsigned n = ctx->n_pending;

        GPU_TRY_R(gpu_enter(ctx));
        ctx->n_pending = 0;
        GPU_TRY(ctx, cudaStreamSynchronize(ctx->stream));
        for (unsigned i = 0; i < n; i++) {
                msm_config cfg = {};
                cfg.windows = ctx->pending[i].windows;
                cfg.c = ctx->pending[i].c;
                cfg.narrow = ctx->pending[i].narrow;
                msm_combine_windows(ctx->pending[i].r, cfg,
                                    ctx->pending_sums + (size_t)i * GPU_WINDOWS_MAX);
        }
        return 0;
}

/*
 * The MSM over device memory. With host_points/host_scalars set, the batches
 * are first queued as copies from there on the copy stream, each signalling
 * its event, and the kernels of batch k wait for copy k only. host_scalars
 * may be NULL with host_points set: the scalars are already on the device.
 */
template <class Curve>
static int msm_device(gpu_context_t *ctx, typename curve_host<Curve>::jac *r,
                      typename curve_host<Curve>::affine *d_points, fr_t *d_scalars, size_t n,
                      uint32_t batches, const typename curve_host<Curve>::affine *host_points,
                      const fr_t *host_scalars, bool defer, const gpu_msm_split *split,
                      uint32_t window_bits = 0) {
        using host_affine = typename curve_host<Curve>::affine;
        using host_xyzz = typename curve_host<Curve>::xyzz;
        static_assert(sizeof(host_affine) == sizeof(typename Curve::affine), "layouts differ");
        static_assert(sizeof(host_xyzz) == sizeof(typename Curve::xyzz), "layouts differ");
        msm_buffers<Curve> buf;
        void *temp = nullptr;
        size_t temp_bytes = 0;

        msm_config cfg = msm_choose_config<Curve>(ctx, n, batches, window_bits);
        cfg.wave = msm_level0_wave<Curve>(ctx);
        if (split && cfg.batches == 1) {
                if (split->big + split->one > n)
                        return -EINVAL;
                const uint32_t c = msm_compact_window_bits<Curve>(split->big);
                if (!ctx->msm_window_bits && c != cfg.c)
                        msm_config_set_window_bits(&cfg, c);
                msm_config_compact(&cfg, split->big, split->one);
        }
        if (host_points && !cfg.compact)
                msm_ramp(&cfg);
        const msm_sizes z = msm_make_sizes(cfg);
        GPU_TRY_R(msm_buffers_get(ctx, cfg, z, &buf));
        GPU_TRY_R(cub_temp_bytes(ctx, cfg, z, &temp_bytes));
        GPU_TRY_R(gpu_scratch(ctx, GPU_SLOT_CUB_TEMP, temp_bytes, &temp));

        const bool copies = host_points != nullptr;
        if (copies) {
                GPU_TRY_R(gpu_copies_after_kernels(ctx));
                for (uint32_t k = 0; k < cfg.batches; k++) {
                        const size_t b0 = msm_batch_start(cfg, k);
                        const size_t count = msm_batch_start(cfg, k + 1) - b0;
                        if (count == 0)
                                break;
                        if (host_scalars)
                                GPU_TRY_R(gpu_copy_staged(ctx, d_scalars + b0, host_scalars + b0,
                                                          count * sizeof(fr_t), ctx->copy_stream));
                        GPU_TRY(ctx, cudaMemcpyAsync(d_points + b0, host_points + b0,
                                                     count * sizeof(host_affine),
                                                     cudaMemcpyHostToDevice, ctx->copy_stream));
                        GPU_TRY(ctx, cudaEventRecord(ctx->input_ready[k], ctx->copy_stream));
                }
        }

        static thread_local msm_profile *prof;
        if (!prof && ctx->msm_profile)
                prof = new (std::nothrow) msm_profile();
        device_msm_backend be = {ctx, temp, temp_bytes, copies, ctx->msm_profile ? prof : nullptr};
        GPU_TRY_R(msm_run<Curve>(be, cfg, buf, reinterpret_cast<const fr_dev *>(d_scalars),
                                 reinterpret_cast<const typename Curve::affine *>(d_points)));
        if (defer && !be.prof)
                return msm_defer(ctx, r, cfg, buf.window_sums);

        host_xyzz window_sums[GPU_WINDOWS_MAX];
        if (cfg.windows > sizeof(window_sums) / sizeof(window_sums[0]))
                return -EINVAL;
        GPU_TRY(ctx, cudaMemcpyAsync(window_sums, buf.window_sums, cfg.windows * sizeof(host_xyzz),
                                     cudaMemcpyDeviceToHost, ctx->stream));
        GPU_TRY(ctx, cudaStreamSynchronize(ctx->stream));
        if (be.prof)
                be.prof->report(n, cfg);
        msm_combine_windows(r, cfg, window_sums);
        return 0;
}

/* The checks every entry point makes: too many points, or none (infinity). */
#define MSM_ENTRY_CHECKS(G, r, n)                \
        do {                                     \
                if ((n) > MSM_MAX_POINTS)        \
                        return -EINVAL;          \
                if ((n) == 0) {                  \
                        G##_jac_set_infinity(r); \
                        return 0;                \
                }                                \
        } while (0)

int gpu_g1_msm_fr_device(gpu_context_t *ctx, g1_jac_t *r, const g1_affine_t *d_points,
                         const fr_t *d_scalars, size_t n) {
        assert(ctx && r);
        assert(n == 0 || (d_points && d_scalars));
        MSM_ENTRY_CHECKS(g1, r, n);
        GPU_TRY_R(gpu_enter(ctx));
        return msm_device<g1_curve>(ctx, r, const_cast<g1_affine_t *>(d_points),
                                    const_cast<fr_t *>(d_scalars), n, 1, nullptr, nullptr, false,
                                    nullptr);
}

/* Points streamed from the host; scalars from the host (d_scalars NULL) or
 * already on the device. */
template <class Curve>
static int msm_host_points(gpu_context_t *ctx, typename curve_host<Curve>::jac *r,
                           const typename curve_host<Curve>::affine *points, const fr_t *scalars,
                           const fr_t *d_scalars, size_t n, bool defer,
                           const gpu_msm_split *split) {
        typename curve_host<Curve>::affine *d_points = nullptr;
        fr_t *d_copy = nullptr;

        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_POINTS, n, &d_points));
        if (!d_scalars)
                GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_SCALARS, n, &d_copy));
        return msm_device<Curve>(ctx, r, d_points,
                                 d_scalars ? const_cast<fr_t *>(d_scalars) : d_copy, n,
                                 host_batches(ctx, n, msm_wide<Curve>(n)), points,
                                 d_scalars ? nullptr : scalars, defer, split);
}

int gpu_g1_msm_fr(gpu_context_t *ctx, g1_jac_t *r, const g1_affine_t *points, const fr_t *scalars,
                  size_t n) {
        assert(ctx && r);
        assert(n == 0 || (points && scalars));
        MSM_ENTRY_CHECKS(g1, r, n);
        return msm_host_points<g1_curve>(ctx, r, points, scalars, nullptr, n, false, nullptr);
}

int gpu_g1_msm_fr_host_points(gpu_context_t *ctx, g1_jac_t *r, const g1_affine_t *points,
                              const fr_t *d_scalars, size_t n) {
        assert(ctx && r);
        assert(n == 0 || (points && d_scalars));
        MSM_ENTRY_CHECKS(g1, r, n);
        return msm_host_points<g1_curve>(ctx, r, points, nullptr, d_scalars, n, false, nullptr);
}

int gpu_g2_msm_fr_host_points(gpu_context_t *ctx, g2_jac_t *r, const g2_affine_t *points,
                              const fr_t *d_scalars, size_t n) {
        assert(ctx && r);
        assert(n == 0 || (points && d_scalars));
        MSM_ENTRY_CHECKS(g2, r, n);
        return msm_host_points<g2_curve>(ctx, r, points, nullptr, d_scalars, n, false, nullptr);
}

int gpu_g2_msm_device(gpu_context_t *ctx, g2_jac_t *r, const g2_affine_t *d_points,
                      const fr_t *d_scalars, size_t n, const struct gpu_msm_split *split) {
        assert(ctx && r);
        assert(n == 0 || (d_points && d_scalars));
        MSM_ENTRY_CHECKS(g2, r, n);
        GPU_TRY_R(gpu_enter(ctx));
        return msm_device<g2_curve>(ctx, r, const_cast<g2_affine_t *>(d_points),
                                    const_cast<fr_t *>(d_scalars), n, 1, nullptr, nullptr, false,
                                    split);
}

int gpu_g2_msm_fr(gpu_context_t *ctx, g2_jac_t *r, const g2_affine_t *points, const fr_t *scalars,
                  size_t n) {
        assert(ctx && r);
        assert(n == 0 || (points && scalars));
        MSM_ENTRY_CHECKS(g2, r, n);
        return msm_host_points<g2_curve>(ctx, r, points, scalars, nullptr, n, false, nullptr);
}

int gpu_g1_msm_queue(gpu_context_t *ctx, g1_jac_t *r, const g1_affine_t *points,
                     const g1_affine_t *d_points, const fr_t *d_scalars, size_t n,
                     const struct gpu_msm_split *split, unsigned window_bits) {
        assert(ctx && r);
        assert(n == 0 || ((points || d_points) && d_scalars));
        MSM_ENTRY_CHECKS(g1, r, n);
        if (!d_points)
                return msm_host_points<g1_curve>(ctx, r, points, nullptr, d_scalars, n, true,
                                                 split);
        GPU_TRY_R(gpu_enter(ctx));
        return msm_device<g1_curve>(ctx, r, const_cast<g1_affine_t *>(d_points),
                                    const_cast<fr_t *>(d_scalars), n, 1, nullptr, nullptr, true,
                                    split, window_bits);
}
