/* SPDX-License-Identifier: Apache-2.0 */
/* The context behind gpu.h's handle, shared by the .cu files of cuda/. */
#pragma once

#include <cuda_runtime.h>
#include <stddef.h>
#include <string.h>

#include "cuda/field.cuh"
#include "cuda/gpu.h"

/* Scratch buffers a context keeps between calls, grown on demand. */
enum gpu_slot {
        GPU_SLOT_NTT_DATA,  /* host-to-host NTT */
        GPU_SLOT_NTT_SCALE, /* pre and post scaling tables of one transform */
        GPU_SLOT_TEST,      /* self-test hooks */
        GPU_SLOT_MSM_POINTS,
        GPU_SLOT_MSM_SCALARS,
        GPU_SLOT_MSM_CANONICAL,
        GPU_SLOT_MSM_KEYS,
        GPU_SLOT_MSM_KEYS_ALT,
        GPU_SLOT_MSM_VALS,
        GPU_SLOT_MSM_VALS_ALT,
        GPU_SLOT_MSM_START,
        GPU_SLOT_MSM_END,
        GPU_SLOT_MSM_SEG_COUNT,
        GPU_SLOT_MSM_SEG_FIRST,
        GPU_SLOT_MSM_PARTIALS,
        GPU_SLOT_MSM_PARTIALS_ALT,
        GPU_SLOT_MSM_BUCKETS,
        GPU_SLOT_MSM_SUMS,
        GPU_SLOT_MSM_WEIGHTED,
        GPU_SLOT_MSM_WINDOWS,
        GPU_SLOT_MSM_SPAN_SUMS,
        GPU_SLOT_MSM_SPAN_WEIGHTED,
        GPU_SLOT_MSM_BIG_INDEX, /* scalars > 1, when 0 and 1 go apart */
        GPU_SLOT_MSM_ONE_INDEX, /* scalars 1 */
        GPU_SLOT_CUB_TEMP,
        GPU_SLOT_H_ABC,   /* a, b, c of the H computation; H's scalars end in a */
        GPU_SLOT_WITNESS, /* the witness, the G1 MSMs' scalars */
        GPU_SLOT_DENSITY, /* a density's words and ranks (zk/density.h) */
        GPU_SLOT_DENSE_A, /* the witness values of A's wires, with a density */
        GPU_SLOT_DENSE_B, /* and of B's */
        GPU_SLOT_MAX_,
};

/* Point batches of a host-to-host MSM whose copies overlap the work. */
#define GPU_MSM_MAX_BATCHES 16

/* Pinned buffers that pageable host memory passes through (gpu_copy_staged). */
#define GPU_STAGES 4
#define GPU_STAGE_BYTES ((size_t)32 << 20)

/* G1 MSMs queued without waiting (gpu_groth16_msm_g1_queue): each one's
 * window sums come back into pinned memory, and gpu_groth16_collect
 * combines them once the stream is done. */
#define GPU_PENDING_MAX 4
/* The ends of gpu_stage_split_t's parts but the last (the stage's end). */
enum gpu_stage_mark { GPU_MARK_ABC, GPU_MARK_H, GPU_MARK_MSM_H, GPU_MARK_MSM_A, GPU_MARK_MSM_B1 };
#define GPU_STAGE_MARKS 5
#define GPU_WINDOWS_MAX (255 / 4 + 1) /* windows of the narrowest (c = 4) MSM */
struct gpu_pending_msm {
        g1_jac_t *r;
        uint32_t windows, c, narrow; /* msm_config's */
};

/* How many of an MSM's scalars are above 1 and how many are 1, when the
 * caller knows (msm_config.compact). */
struct gpu_msm_split {
        uint64_t big, one;
};

struct gpu_context {
        int device;
        cudaStream_t stream;      /* all kernels, in order */
        cudaStream_t copy_stream; /* host-to-device copies that overlap them */
        cudaEvent_t input_ready[GPU_MSM_MAX_BATCHES];
        cudaEvent_t stream_done;  /* lets the copy stream wait for earlier kernels */
        cudaEvent_t copies_done;  /* lets the kernels wait for earlier copies */
        size_t msm_batch_points;  /* 0: the default */
        unsigned msm_window_bits; /* 0: chosen per MSM (gpu_set_msm_window_bits) */
        bool msm_profile;         /* gpu_set_msm_profile */
        gpu_device_info_t info;
        char last_error[512];
        /* Powers of omega (or omega^-1) per size and root convention, built
         * on first use: [log_size][roots][inverse]. */
        cuzk::fr_dev *omega_tables[NTT_MAX_LOG_SIZE + 1][2][2];
        /* The direct twiddle table (NTT_DIRECT_LOG) per root convention and
         * direction, [roots][inverse], built on first use. */
        cuzk::fr_dev *direct_tables[2][2];
        struct {
                void *p;
                size_t bytes;
        } slots[GPU_SLOT_MAX_];
        void *stage[GPU_STAGES];            /* pinned, allocated on first use */
        cudaEvent_t stage_free[GPU_STAGES]; /* the last copy out of stage[k] is done */
        struct gpu_pending_msm pending[GPU_PENDING_MAX];
        unsigned n_pending;
        g1_xyzz_t *pending_sums; /* pinned, GPU_PENDING_MAX * GPU_WINDOWS_MAX */
        /* The GPU stage of a partition, timed on the stream: from the first
         * copy of gpu_groth16_h to the last queued MSM. */
        cudaEvent_t stage_begin, stage_end;
        /* Its parts' ends (gpu_stage_split_t): a, b, c; H; the H, A and B_G1 MSMs. */
        cudaEvent_t stage_marks[GPU_STAGE_MARKS];
        bool stage_open;
        /* The stream's end of the last partition's work, its B_G2 tail
         * included (gpu_groth16_partition_done): the next stage's idle
         * time counts from there. */
        cudaEvent_t partition_done;
        bool partition_done_set;
        const fr_t *b_scalars;        /* on the device: the last queued stage's B_G1 scalars */
        struct gpu_msm_split b_split; /* their 0s and 1s */
};

/* Records and logs a failed CUDA call; returns the negative errno for it. */
int gpu_fail(gpu_context_t *ctx, cudaError_t e, const char *call, const char *file, int line);

#define GPU_TRY(ctx, call)                                                     \
        do {                                                                   \
                cudaError_t e_ = (call);                                       \
                if (e_ != cudaSuccess)                                         \
                        return gpu_fail((ctx), e_, #call, __FILE__, __LINE__); \
        } while (0)

#define GPU_TRY_R(expr)            \
        do {                       \
                int r_ = (expr);   \
                if (r_ < 0)        \
                        return r_; \
        } while (0)

/* Makes the context's device current for the calling thread. */
int gpu_enter(gpu_context_t *ctx);
/* Orders the copy stream after the kernels queued so far, which may still
 * read buffers its next copies overwrite. */
int gpu_copies_after_kernels(gpu_context_t *ctx);
/* Orders the kernels' stream after the copies queued so far. */
int gpu_kernels_after_copies(gpu_context_t *ctx);
/*
 * Host to device on `stream`, from memory that may be pageable (the
 * daemon's a, b, c and witness, the prover's gathered scalars). CUDA copies
 * pageable memory through a staging buffer of its own, filled by one
 * thread, at a fraction of the link's rate; here host threads fill pinned
 * stages in parallel while the previous stage crosses the link. Pinned
 * memory goes straight. Returns when the last stage is queued: the source
 * may then be reused.
 */
int gpu_copy_staged(gpu_context_t *ctx, void *d, const void *h, size_t bytes, cudaStream_t stream);

/*
 * r = sum k_i P_i over G1 (scalars on the device; points there, or d_points
 * NULL and streamed from host `points`), queued on the stream: r is written
 * by gpu_msm_collect. At most GPU_PENDING_MAX before a collect. On a
 * profiled context it waits, as every profiled MSM does. split (may be
 * NULL) must count the scalars right: the 0s and 1s then stay out of the
 * digits and sorts (one batch only: resident points). window_bits (0: by
 * size) sets c for resident points, unless the context fixes it
 * (gpu_set_msm_window_bits) or a split's count sets it.
 */
int gpu_g1_msm_queue(gpu_context_t *ctx, g1_jac_t *r, const g1_affine_t *points,
                     const g1_affine_t *d_points, const fr_t *d_scalars, size_t n,
                     const struct gpu_msm_split *split, unsigned window_bits);
/* Waits for the stream and writes every queued MSM's result. */
int gpu_msm_collect(gpu_context_t *ctx);
/* r = sum k_i P_i over G2, points and scalars on the device, one batch;
 * split as gpu_g1_msm_queue's. Waits for the result. */
int gpu_g2_msm_device(gpu_context_t *ctx, g2_jac_t *r, const g2_affine_t *d_points,
                      const fr_t *d_scalars, size_t n, const struct gpu_msm_split *split);

namespace cuzk {
/* gpu_ntt_device's transform with its result multiplied by factor (NULL:
 * 1; log_size >= 1), folded into the scaling it has anyway: an inverse
 * with factor 2^log_size does no scaling, a coset forward takes its
 * factor into the powers of the shift (ntt_make_specs). */
int ntt_device_scaled(gpu_context_t *ctx, fr_t *d_a, unsigned log_size, ntt_roots_t roots,
                      gpu_ntt_kind_t kind, ntt_order_t order, const fr_t *shift,
                      const fr_t *factor);
} // namespace cuzk

/* A scratch buffer of at least `bytes` for `slot` (contents undefined). */
int gpu_scratch(gpu_context_t *ctx, enum gpu_slot slot, size_t bytes, void **ret);

/* Step::min_blocks where a step has it, else 1: the blocks per SM its
 * registers must leave room for. */
template <class Step> constexpr unsigned step_min_blocks(decltype(Step::min_blocks) *) {
        return Step::min_blocks;
}
template <class Step> constexpr unsigned step_min_blocks(...) {
        return 1;
}

/* Runs step(i) for i < count, one thread each, on the context's stream.
 * Step::block_threads sets the block size (a register budget), and
 * Step::min_blocks, if set, how many such blocks an SM must hold. */
template <class Step>
__global__ void __launch_bounds__(Step::block_threads, step_min_blocks<Step>(nullptr))
        gpu_step_kernel(Step step, uint64_t count) {
        const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
        if (i < count)
                step(i);
}

/* The lanes of gpu_launch_lanes: lane within a group of `width` lanes of
 * one warp; down(x, d) is lane + d's x (x itself past the group), in
 * 4-byte shuffles over the warp's launched lanes (`mask`), which call it
 * alike. */
struct gpu_warp_lanes {
        uint32_t lane, width, mask;

        template <class T> __device__ __forceinline__ T down(const T &x, uint32_t d) const {
                static_assert(sizeof(T) % 4 == 0, "whole words");
                uint32_t w[sizeof(T) / 4];
                memcpy(w, &x, sizeof(T));
#pragma unroll
                for (unsigned k = 0; k < sizeof(T) / 4; k++)
                        w[k] = __shfl_down_sync(mask, w[k], d, width);
                T r;
                memcpy(&r, w, sizeof(T));
                return r;
        }
};

/* Runs step(i, lanes) for i < count in groups of width lanes (count a
 * multiple of width, a power of 2 at most 32; the blocks whole warps). */
template <class Step>
__global__ void __launch_bounds__(Step::block_threads)
        gpu_lanes_kernel(Step step, uint64_t count, uint32_t width) {
        const uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x;
        if (i >= count)
                return;
        const uint64_t left = count - (i & ~(uint64_t)31); /* the warp's lanes from its first */
        const uint32_t mask = left >= 32 ? 0xffffffffu : (1u << left) - 1;
        step(i, gpu_warp_lanes{(uint32_t)(i & (width - 1)), width, mask});
}

template <class Step>
int gpu_launch_lanes(gpu_context_t *ctx, const Step &step, uint64_t count, uint32_t width) {
        static_assert(Step::block_threads % 32 == 0, "whole warps");
        if (width == 0 || width > 32 || (width & (width - 1)) || count % width)
                return -EINVAL;
        if (count == 0)
                return 0;
        const uint64_t blocks = (count + Step::block_threads - 1) / Step::block_threads;
        if (blocks > 0x7fffffffu)
                return -EINVAL;
        gpu_lanes_kernel<<<(unsigned)blocks, Step::block_threads, 0, ctx->stream>>>(step, count,
                                                                                    width);
        GPU_TRY(ctx, cudaGetLastError());
        return 0;
}

template <class Step> int gpu_launch_step(gpu_context_t *ctx, const Step &step, uint64_t count) {
        if (count == 0)
                return 0;
        const uint64_t blocks = (count + Step::block_threads - 1) / Step::block_threads;
        if (blocks > 0x7fffffffu)
                return -EINVAL;
        gpu_step_kernel<<<(unsigned)blocks, Step::block_threads, 0, ctx->stream>>>(step, count);
        GPU_TRY(ctx, cudaGetLastError());
        return 0;
}
