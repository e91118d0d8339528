/* SPDX-License-Identifier: Apache-2.0 */
/* Devices, contexts, memory and the error path of the CUDA backend. */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <initializer_list>

#include "cuda/context.cuh"
#include "cuda/memory.cuh"

extern "C" {
#include "common/log.h"
}

static int errno_of(cudaError_t e) {
        switch (e) {
        case cudaErrorMemoryAllocation:
                return ENOMEM;
        case cudaErrorNoDevice:
        case cudaErrorInsufficientDriver:
        case cudaErrorInvalidDevice:
        case cudaErrorDevicesUnavailable:
        case cudaErrorNotSupported:
        case cudaErrorSystemDriverMismatch:
        case cudaErrorCompatNotSupportedOnDevice:
                return ENODEV;
        default:
                return EIO;
        }
}

int gpu_fail(gpu_context_t *ctx, cudaError_t e, const char *call, const char *file, int line) {
        char message[512];

        snprintf(message, sizeof(message), "%s failed at %s:%d: %s (%s)", call, file, line,
                 cudaGetErrorString(e), cudaGetErrorName(e));
        if (ctx)
                snprintf(ctx->last_error, sizeof(ctx->last_error), "%s", message);
        return log_error_errno(errno_of(e), "cuda: %s", message);
}

int gpu_device_count(void) {
        int count = 0;
        cudaError_t e = cudaGetDeviceCount(&count);

        if (e != cudaSuccess || count <= 0)
                return -ENODEV;
        return count;
}

int gpu_enter(gpu_context_t *ctx) {
        assert(ctx);
        GPU_TRY(ctx, cudaSetDevice(ctx->device));
        return 0;
}

/* Events only order work (no timing), except the stage's and its marks. */
static int create_streams(gpu_context_t *ctx) {
        GPU_TRY(ctx, cudaStreamCreateWithFlags(&ctx->stream, cudaStreamNonBlocking));
        GPU_TRY(ctx, cudaStreamCreateWithFlags(&ctx->copy_stream, cudaStreamNonBlocking));
        for (cudaEvent_t &e : ctx->input_ready)
                GPU_TRY(ctx, cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
        GPU_TRY(ctx, cudaEventCreateWithFlags(&ctx->stream_done, cudaEventDisableTiming));
        GPU_TRY(ctx, cudaEventCreateWithFlags(&ctx->copies_done, cudaEventDisableTiming));
        GPU_TRY(ctx, cudaEventCreate(&ctx->stage_begin));
        GPU_TRY(ctx, cudaEventCreate(&ctx->stage_end));
        GPU_TRY(ctx, cudaEventCreate(&ctx->partition_done));
        for (cudaEvent_t &e : ctx->stage_marks)
                GPU_TRY(ctx, cudaEventCreate(&e));
        return 0;
}

int gpu_context_new(gpu_context_t **ret, int ordinal) {
        cudaDeviceProp prop;
        int count = 0;
        cudaError_t e;

        assert(ret);

        e = cudaGetDeviceCount(&count);
        if (e != cudaSuccess)
                return log_error_errno(ENODEV, "cuda: no usable CUDA driver or device: %s",
                                       cudaGetErrorString(e));
        if (count <= 0)
                return log_error_errno(ENODEV, "cuda: no CUDA device");
        if (ordinal < 0 || ordinal >= count)
                return log_error_errno(EINVAL, "cuda: device %d requested, %d present", ordinal,
                                       count);

        gpu_context_t *ctx = (gpu_context_t *)calloc(1, sizeof(*ctx));
        if (!ctx)
                return -ENOMEM;
        ctx->device = ordinal;
        int r = gpu_enter(ctx);
        if (r >= 0) {
                e = cudaGetDeviceProperties(&prop, ordinal);
                r = e == cudaSuccess
                            ? 0
                            : gpu_fail(ctx, e, "cudaGetDeviceProperties", __FILE__, __LINE__);
        }
        if (r >= 0)
                r = create_streams(ctx);
        if (r < 0) {
                gpu_context_free(ctx);
                return r;
        }
        snprintf(ctx->info.name, sizeof(ctx->info.name), "%s", prop.name);
        ctx->info.compute_major = prop.major;
        ctx->info.compute_minor = prop.minor;
        ctx->info.multiprocessors = prop.multiProcessorCount;
        ctx->info.memory_bytes = prop.totalGlobalMem;
        snprintf(ctx->info.pci_bus_id, sizeof(ctx->info.pci_bus_id), "%04x:%02x:%02x.0",
                 prop.pciDomainID, prop.pciBusID, prop.pciDeviceID);
        *ret = ctx;
        return 0;
}

void gpu_context_free(gpu_context_t *ctx) {
        if (!ctx)
                return;
        /* Errors are past reporting here: release what can be released
         * (handles never created are null, which CUDA refuses harmlessly). */
        (void)cudaSetDevice(ctx->device);
        if (ctx->stream)
                (void)cudaStreamSynchronize(ctx->stream);
        if (ctx->copy_stream)
                (void)cudaStreamSynchronize(ctx->copy_stream);
        for (auto &per_log : ctx->omega_tables)
                for (auto &per_roots : per_log)
                        for (cuzk::fr_dev *table : per_roots)
                                (void)cudaFree(table);
        for (auto &per_roots : ctx->direct_tables)
                for (cuzk::fr_dev *table : per_roots)
                        (void)cudaFree(table);
        for (auto &slot : ctx->slots)
                (void)cudaFree(slot.p);
        for (cudaEvent_t e : ctx->input_ready)
                if (e)
                        (void)cudaEventDestroy(e);
        for (size_t k = 0; k < GPU_STAGES; k++) {
                if (ctx->stage_free[k])
                        (void)cudaEventDestroy(ctx->stage_free[k]);
                if (ctx->stage[k])
                        (void)cudaFreeHost(ctx->stage[k]);
        }
        if (ctx->stream_done)
                (void)cudaEventDestroy(ctx->stream_done);
        for (cudaEvent_t e :
             {ctx->copies_done, ctx->stage_begin, ctx->stage_end, ctx->partition_done})
                if (e)
                        (void)cudaEventDestroy(e);
        for (cudaEvent_t e : ctx->stage_marks)
                if (e)
                        (void)cudaEventDestroy(e);
        if (ctx->pending_sums)
                (void)cudaFreeHost(ctx->pending_sums);
        if (ctx->copy_stream)
                (void)cudaStreamDestroy(ctx->copy_stream);
        if (ctx->stream)
                (void)cudaStreamDestroy(ctx->stream);
        free(ctx);
}

void gpu_context_info(const gpu_context_t *ctx, gpu_device_info_t *ret) {
        assert(ctx);
        assert(ret);
        *ret = ctx->info;
}

int gpu_memory_info(gpu_context_t *ctx, size_t *ret_free, size_t *ret_total) {
        size_t free_bytes = 0, total_bytes = 0;

        assert(ret_free);
        assert(ret_total);
        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY(ctx, cudaMemGetInfo(&free_bytes, &total_bytes));
        *ret_free = free_bytes;
        *ret_total = total_bytes;
        return 0;
}

const char *gpu_context_last_error(const gpu_context_t *ctx) {
        assert(ctx);
        return ctx->last_error;
}

int gpu_synchronize(gpu_context_t *ctx) {
        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY(ctx, cudaStreamSynchronize(ctx->stream));
        return 0;
}

int gpu_copies_after_kernels(gpu_context_t *ctx) {
        GPU_TRY(ctx, cudaEventRecord(ctx->stream_done, ctx->stream));
        GPU_TRY(ctx, cudaStreamWaitEvent(ctx->copy_stream, ctx->stream_done, 0));
        return 0;
}

int gpu_kernels_after_copies(gpu_context_t *ctx) {
        GPU_TRY(ctx, cudaEventRecord(ctx->copies_done, ctx->copy_stream));
        GPU_TRY(ctx, cudaStreamWaitEvent(ctx->stream, ctx->copies_done, 0));
        return 0;
}

int gpu_scratch(gpu_context_t *ctx, enum gpu_slot slot, size_t bytes, void **ret) {
        assert(ctx);
        assert(slot < GPU_SLOT_MAX_);
        assert(ret);

        if (ctx->slots[slot].bytes < bytes) {
                /* Queued work and copies may still use the old buffer. */
                GPU_TRY(ctx, cudaStreamSynchronize(ctx->stream));
                GPU_TRY(ctx, cudaStreamSynchronize(ctx->copy_stream));
                GPU_TRY(ctx, cudaFree(ctx->slots[slot].p));
                ctx->slots[slot].p = NULL;
                ctx->slots[slot].bytes = 0;
                GPU_TRY(ctx, cudaMalloc(&ctx->slots[slot].p, bytes));
                ctx->slots[slot].bytes = bytes;
        }
        *ret = ctx->slots[slot].p;
        return 0;
}

size_t gpu_scratch_bytes(const gpu_context_t *ctx) {
        size_t sum = 0;
        assert(ctx);
        for (unsigned i = 0; i < GPU_SLOT_MAX_; i++)
                sum += ctx->slots[i].bytes;
        return sum;
}

int gpu_host_alloc(gpu_context_t *ctx, void **ret, size_t bytes) {
        assert(ret);
        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY(ctx, cudaHostAlloc(ret, bytes, cudaHostAllocPortable));
        return 0;
}

void gpu_host_free(gpu_context_t *ctx, void *p) {
        assert(ctx);
        if (p)
                (void)cudaFreeHost(p);
}

int gpu_host_register(gpu_context_t *ctx, void *p, size_t bytes) {
        assert(p);
        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY(ctx, cudaHostRegister(p, bytes, cudaHostRegisterPortable));
        return 0;
}

int gpu_host_unregister(gpu_context_t *ctx, void *p) {
        assert(p);
        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY(ctx, cudaHostUnregister(p));
        return 0;
}

int gpu_alloc(gpu_context_t *ctx, void **ret, size_t bytes) {
        assert(ret);
        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY(ctx, cudaMalloc(ret, bytes));
        return 0;
}

void gpu_free(gpu_context_t *ctx, void *d) {
        assert(ctx);
        if (!d)
                return;
        (void)cudaSetDevice(ctx->device);
        (void)cudaStreamSynchronize(ctx->stream);
        (void)cudaStreamSynchronize(ctx->copy_stream);
        (void)cudaFree(d);
}

/* ---- staged copies ---- */

static int stage_buffers(gpu_context_t *ctx) {
        for (size_t k = 0; k < GPU_STAGES; k++) {
                if (ctx->stage[k])
                        continue;
                GPU_TRY(ctx, cudaEventCreateWithFlags(&ctx->stage_free[k], cudaEventDisableTiming));
                GPU_TRY(ctx, cudaHostAlloc(&ctx->stage[k], GPU_STAGE_BYTES, cudaHostAllocDefault));
        }
        return 0;
}

static bool host_pinned(const void *p) {
        cudaPointerAttributes a;
        if (cudaPointerGetAttributes(&a, p) != cudaSuccess) {
                (void)cudaGetLastError(); /* not a CUDA error to keep */
                return false;
        }
        return a.type == cudaMemoryTypeHost;
}

/* memcpy on every thread, by 1 MiB pieces. */
static void parallel_memcpy(void *dst, const void *src, size_t bytes) {
        const size_t piece = (size_t)1 << 20, pieces = (bytes + piece - 1) / piece;
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < pieces; i++) {
                const size_t off = i * piece, len = bytes - off < piece ? bytes - off : piece;
                memcpy((char *)dst + off, (const char *)src + off, len);
        }
}

int gpu_copy_staged(gpu_context_t *ctx, void *d, const void *h, size_t bytes, cudaStream_t stream) {
        if (bytes < GPU_STAGE_BYTES || host_pinned(h)) {
                GPU_TRY(ctx, cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, stream));
                return 0;
        }
        GPU_TRY_R(stage_buffers(ctx));
        for (size_t off = 0, i = 0; off < bytes; off += GPU_STAGE_BYTES, i++) {
                const size_t k = i % GPU_STAGES;
                const size_t len = bytes - off < GPU_STAGE_BYTES ? bytes - off : GPU_STAGE_BYTES;
                /* stage k is free once its last copy (on any stream) is done */
                GPU_TRY(ctx, cudaEventSynchronize(ctx->stage_free[k]));
                parallel_memcpy(ctx->stage[k], (const char *)h + off, len);
                GPU_TRY(ctx, cudaMemcpyAsync((char *)d + off, ctx->stage[k], len,
                                             cudaMemcpyHostToDevice, stream));
                GPU_TRY(ctx, cudaEventRecord(ctx->stage_free[k], stream));
        }
        return 0;
}

int gpu_copy_to_device(gpu_context_t *ctx, void *d, const void *h, size_t bytes) {
        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY(ctx, cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, ctx->stream));
        GPU_TRY(ctx, cudaStreamSynchronize(ctx->stream));
        return 0;
}

int gpu_copy_to_host(gpu_context_t *ctx, void *h, const void *d, size_t bytes) {
        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY(ctx, cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, ctx->stream));
        GPU_TRY(ctx, cudaStreamSynchronize(ctx->stream));
        return 0;
}

/* ---- self-test hooks ---- */

template <class F> struct mul_step {
        static constexpr unsigned block_threads = 256;
        const F *a, *b;
        F *r;

        __device__ void operator()(uint64_t i) const {
                cuzk::store_wide(&r[i], cuzk::load_wide(&a[i]) * cuzk::load_wide(&b[i]));
        }
};

template <class F, class H>
static int test_mul(gpu_context_t *ctx, H *r, const H *a, const H *b, size_t n) {
        static_assert(sizeof(F) == sizeof(H), "device and host layouts differ");
        void *buf = NULL;

        assert(r && a && b);
        if (n == 0)
                return 0;
        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY_R(gpu_scratch(ctx, GPU_SLOT_TEST, 3 * n * sizeof(F), &buf));
        F *da = (F *)buf, *db = da + n, *dr = db + n;
        GPU_TRY(ctx, cudaMemcpyAsync(da, a, n * sizeof(F), cudaMemcpyHostToDevice, ctx->stream));
        GPU_TRY(ctx, cudaMemcpyAsync(db, b, n * sizeof(F), cudaMemcpyHostToDevice, ctx->stream));
        GPU_TRY_R(gpu_launch_step(ctx, mul_step<F>{da, db, dr}, n));
        GPU_TRY(ctx, cudaMemcpyAsync(r, dr, n * sizeof(F), cudaMemcpyDeviceToHost, ctx->stream));
        GPU_TRY(ctx, cudaStreamSynchronize(ctx->stream));
        return 0;
}

int gpu_test_fr_mul(gpu_context_t *ctx, fr_t *r, const fr_t *a, const fr_t *b, size_t n) {
        return test_mul<cuzk::fr_dev>(ctx, r, a, b, n);
}

int gpu_test_fp_mul(gpu_context_t *ctx, fp_t *r, const fp_t *a, const fp_t *b, size_t n) {
        return test_mul<cuzk::fp_dev>(ctx, r, a, b, n);
}
