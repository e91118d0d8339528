/* SPDX-License-Identifier: Apache-2.0 */
/* The GPU G1 MSM: msm_steps.cuh's steps as kernels, CUB for sort and scan. */
#include <assert.h>
#include <errno.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>

#include "cuda/context.cuh"
#include "cuda/msm_steps.cuh"

using namespace cuzk;

struct device_msm_backend {
        gpu_context_t *ctx;
        void *temp;
        size_t temp_bytes;

        template <class Step> int launch(const Step &step, uint64_t count) {
                return gpu_launch_step(ctx, step, count);
        }

        int zero(void *p, size_t bytes) {
                GPU_TRY(ctx, cudaMemsetAsync(p, 0, bytes, ctx->stream));
                return 0;
        }

        int sort(uint32_t *&keys, uint32_t *&keys_alt, uint32_t *&vals, uint32_t *&vals_alt,
                 uint64_t count, unsigned bits) {
                cub::DoubleBuffer<uint32_t> k(keys, keys_alt), v(vals, vals_alt);
                size_t bytes = temp_bytes;
                GPU_TRY(ctx, cub::DeviceRadixSort::SortPairs(temp, bytes, k, v, (int)count, 0,
                                                             (int)bits, ctx->stream));
                keys = k.Current();
                keys_alt = k.Alternate();
                vals = v.Current();
                vals_alt = v.Alternate();
                return 0;
        }

        int exclusive_scan(const uint32_t *in, uint32_t *out, uint64_t count) {
                size_t bytes = temp_bytes;
                GPU_TRY(ctx, cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, (int)count,
                                                           ctx->stream));
                return 0;
        }
};

/* CUB's temporary storage for the largest sort and scan of this MSM. */
static int cub_temp_bytes(gpu_context_t *ctx, const msm_sizes &z, size_t *ret) {
        cub::DoubleBuffer<uint32_t> k(nullptr, nullptr), v(nullptr, nullptr);
        size_t sort_bytes = 0, scan_bytes = 0;

        GPU_TRY(ctx, cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, k, v, (int)z.keys, 0, 32,
                                                     ctx->stream));
        GPU_TRY(ctx,
                cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, (const uint32_t *)nullptr,
                                              (uint32_t *)nullptr, (int)z.per_bucket, ctx->stream));
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

static int msm_buffers_get(gpu_context_t *ctx, const msm_config &cfg, const msm_sizes &z,
                           msm_buffers *b) {
        GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_CANONICAL, cfg.n, &b->canonical));
        GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_KEYS, z.keys, &b->keys));
        GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_KEYS_ALT, z.keys, &b->keys_alt));
        GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_VALS, z.keys, &b->vals));
        GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_VALS_ALT, z.keys, &b->vals_alt));
        GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_START, z.per_bucket, &b->start));
        GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_END, z.per_bucket, &b->end));
        GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_SEG_COUNT, z.per_bucket, &b->seg_count));
        GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_SEG_FIRST, z.per_bucket, &b->seg_first));
        GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_PARTIALS, z.partials, &b->partials));
        GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_PARTIALS_ALT, z.partials, &b->partials_alt));
        GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_BUCKETS, z.buckets, &b->buckets));
        GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_SUMS, z.chunks, &b->sums));
        GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_WEIGHTED, z.chunks, &b->weighted));
        GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_WINDOWS, cfg.windows, &b->window_sums));
        return 0;
}

int gpu_g1_msm_fr_device(gpu_context_t *ctx, g1_jac_t *r, const g1_affine_t *d_points,
                         const fr_t *d_scalars, size_t n) {
        msm_buffers buf;
        void *temp = nullptr;
        size_t temp_bytes = 0;

        assert(ctx);
        assert(r);
        assert(n == 0 || (d_points && d_scalars));

        if (n > MSM_MAX_POINTS)
                return -EINVAL;
        if (n == 0) {
                g1_jac_set_infinity(r);
                return 0;
        }
        GPU_TRY_R(gpu_enter(ctx));

        const msm_config cfg = msm_make_config(n);
        const msm_sizes z = msm_make_sizes(cfg);
        GPU_TRY_R(msm_buffers_get(ctx, cfg, z, &buf));
        GPU_TRY_R(cub_temp_bytes(ctx, z, &temp_bytes));
        GPU_TRY_R(gpu_scratch(ctx, GPU_SLOT_CUB_TEMP, temp_bytes, &temp));

        device_msm_backend be = {ctx, temp, temp_bytes};
        GPU_TRY_R(msm_run(be, cfg, buf, reinterpret_cast<const fr_dev *>(d_scalars),
                          reinterpret_cast<const g1_affine_dev *>(d_points)));

        g1_xyzz_t window_sums[256 / 4 + 1];
        static_assert(sizeof(g1_xyzz_t) == sizeof(g1_xyzz_dev), "layouts differ");
        if (cfg.windows > sizeof(window_sums) / sizeof(window_sums[0]))
                return -EINVAL;
        GPU_TRY(ctx, cudaMemcpyAsync(window_sums, buf.window_sums, cfg.windows * sizeof(g1_xyzz_t),
                                     cudaMemcpyDeviceToHost, ctx->stream));
        GPU_TRY(ctx, cudaStreamSynchronize(ctx->stream));
        msm_combine_windows(r, cfg, window_sums);
        return 0;
}

int gpu_g1_msm_fr(gpu_context_t *ctx, g1_jac_t *r, const g1_affine_t *points, const fr_t *scalars,
                  size_t n) {
        g1_affine_t *d_points = nullptr;
        fr_t *d_scalars = nullptr;

        assert(ctx);
        assert(r);
        assert(n == 0 || (points && scalars));

        if (n > MSM_MAX_POINTS)
                return -EINVAL;
        if (n == 0) {
                g1_jac_set_infinity(r);
                return 0;
        }
        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_POINTS, n, &d_points));
        GPU_TRY_R(scratch(ctx, GPU_SLOT_MSM_SCALARS, n, &d_scalars));
        GPU_TRY(ctx, cudaMemcpyAsync(d_scalars, scalars, n * sizeof(fr_t), cudaMemcpyHostToDevice,
                                     ctx->stream));
        GPU_TRY(ctx, cudaMemcpyAsync(d_points, points, n * sizeof(g1_affine_t),
                                     cudaMemcpyHostToDevice, ctx->stream));
        return gpu_g1_msm_fr_device(ctx, r, d_points, d_scalars, n);
}
