/* SPDX-License-Identifier: Apache-2.0 */
/* The GPU NTT: kernels around ntt_pass.cuh and the passes of ntt_run.cuh. */
#include <assert.h>
#include <errno.h>

#include "cuda/context.cuh"
#include "cuda/ntt_run.cuh"

using namespace cuzk;

struct barrier {
        __device__ void operator()() const {
                __syncthreads();
        }
};

__global__ void __launch_bounds__(NTT_BLOCK_THREADS_MAX)
        ntt_pass_kernel(const ntt_pass_params p, fr_dev *data, uint64_t block0) {
        extern __shared__ uint4 shared_words[];
        fr_dev *sh = reinterpret_cast<fr_dev *>(shared_words);
        fr_dev *sh_tw = sh + ((1u << p.k) << p.log_cols);
        ntt_pass_block(p, data, block0 + blockIdx.x, threadIdx.x, blockDim.x, sh, sh_tw, barrier());
}

#define BITREV_THREADS 256

__global__ void __launch_bounds__(BITREV_THREADS) ntt_bitrev_kernel(fr_dev *data, unsigned log_n) {
        __shared__ fr_dev sh[2u << (2 * NTT_BITREV_TILE)];
        ntt_bitrev_block(data, log_n, blockIdx.x, threadIdx.x, blockDim.x, sh, barrier());
}

struct bitrev_swap_step {
        static constexpr unsigned block_threads = 256;
        fr_dev *data;
        unsigned log_n;

        __device__ void operator()(uint64_t i) const {
                ntt_bitrev_swap(data, log_n, (uint32_t)i);
        }
};

struct pow_table_step {
        static constexpr unsigned block_threads = 256;
        fr_dev c, g, g_step;
        uint32_t lo_count;
        fr_dev *out;

        __device__ void operator()(uint64_t i) const {
                out[i] = pow_table_entry(c, g, g_step, lo_count, (uint32_t)i);
        }
};

/* Fills a pow_table's array (spec.entries() elements at out). */
static int build_pow_table(gpu_context_t *ctx, const pow_spec &spec, fr_dev *out,
                           pow_table *table) {
        const pow_table_step step = {as_dev<fr_dev>(spec.c), as_dev<fr_dev>(spec.g),
                                     as_dev<fr_dev>(spec.g_step), spec.lo_count, out};
        GPU_TRY_R(gpu_launch_step(ctx, step, spec.entries()));
        table->lo = out;
        table->hi = out + spec.lo_count;
        table->lo_bits = spec.lo_bits;
        return 0;
}

/* A table kept in the context (slot) for later transforms: built on first
 * use; the stream orders the build before every transform. */
static int cached_table(gpu_context_t *ctx, const pow_spec &spec, fr_dev **slot, pow_table *table) {
        if (!*slot) {
                GPU_TRY(ctx, cudaMalloc(slot, spec.entries() * sizeof(fr_dev)));
                int r = build_pow_table(ctx, spec, *slot, table);
                if (r < 0) {
                        (void)cudaFree(*slot);
                        *slot = nullptr;
                }
                return r;
        }
        table->lo = *slot;
        table->hi = *slot + spec.lo_count;
        table->lo_bits = spec.lo_bits;
        return 0;
}

static_assert(NTT_HOST_CHUNKS <= GPU_MSM_MAX_BATCHES, "one input event per chunk");

/*
 * Launches on the context's stream. For a host-to-host transform (host
 * set) the regions are copied on the copy stream: in before the launches
 * that read them, out after those that wrote them (events per chunk).
 */
struct device_ntt_backend {
        gpu_context_t *ctx;
        fr_dev *data;
        int error;
        fr_dev *host;         /* NULL: device-resident */
        cudaEvent_t *written; /* [NTT_HOST_CHUNKS]: output chunk j is final */

        void fail(cudaError_t e, const char *call, int line) {
                if (e != cudaSuccess && error >= 0)
                        error = gpu_fail(ctx, e, call, __FILE__, line);
        }

        void pass(const ntt_pass_params &p, uint64_t block0, uint64_t blocks, uint32_t threads) {
                const size_t shared =
                        (((size_t)1 << p.k << p.log_cols) + ((size_t)1 << (p.k - 1))) *
                        sizeof(fr_dev);
                if (error < 0)
                        return;
                if (blocks > 0x7fffffffu) {
                        error = -EINVAL;
                        return;
                }
                ntt_pass_kernel<<<(unsigned)blocks, threads, shared, ctx->stream>>>(p, data,
                                                                                    block0);
                fail(cudaGetLastError(), "ntt_pass_kernel", __LINE__);
        }

        void bit_reverse(unsigned log_n) {
                if (error < 0)
                        return;
                if (log_n < 2 * NTT_BITREV_TILE) {
                        error = gpu_launch_step(ctx, bitrev_swap_step{data, log_n},
                                                (uint64_t)1 << log_n);
                        return;
                }
                ntt_bitrev_kernel<<<1u << (log_n - 2 * NTT_BITREV_TILE), BITREV_THREADS, 0,
                                    ctx->stream>>>(data, log_n);
                fail(cudaGetLastError(), "ntt_bitrev_kernel", __LINE__);
        }

        /* One region between host and device, rows pitch apart in both. */
        cudaError_t copy(const ntt_region &r, cudaMemcpyKind kind) {
                const size_t el = sizeof(fr_dev), pitch = (r.rows > 1 ? r.pitch : r.width) * el;
                fr_dev *dev = data + r.offset, *h = host + r.offset;
                const bool in = kind == cudaMemcpyHostToDevice;
                return cudaMemcpy2DAsync(in ? dev : h, pitch, in ? h : dev, pitch, r.width * el,
                                         r.rows, kind, ctx->copy_stream);
        }

        void input(const ntt_region &r, uint32_t chunk) {
                if (!host || error < 0)
                        return;
                fail(copy(r, cudaMemcpyHostToDevice), "cudaMemcpy2DAsync", __LINE__);
                fail(cudaEventRecord(ctx->input_ready[chunk], ctx->copy_stream), "cudaEventRecord",
                     __LINE__);
                fail(cudaStreamWaitEvent(ctx->stream, ctx->input_ready[chunk], 0),
                     "cudaStreamWaitEvent", __LINE__);
        }

        void output(const ntt_region &r, uint32_t chunk) {
                if (!host || error < 0)
                        return;
                fail(cudaEventRecord(written[chunk], ctx->stream), "cudaEventRecord", __LINE__);
                fail(cudaStreamWaitEvent(ctx->copy_stream, written[chunk], 0),
                     "cudaStreamWaitEvent", __LINE__);
                fail(copy(r, cudaMemcpyDeviceToHost), "cudaMemcpy2DAsync", __LINE__);
        }
};

static bool valid_args(unsigned log_size, ntt_roots_t roots, gpu_ntt_kind_t kind, ntt_order_t order,
                       const fr_t *shift) {
        if (log_size > NTT_MAX_LOG_SIZE)
                return false;
        if (roots != NTT_ROOTS_SNARKJS && roots != NTT_ROOTS_BELLPERSON)
                return false;
        if (order != NTT_ORDER_NN && order != NTT_ORDER_NR && order != NTT_ORDER_RN)
                return false;
        switch (kind) {
        case GPU_NTT_FORWARD:
        case GPU_NTT_INVERSE:
                return true;
        case GPU_NTT_COSET_FORWARD:
        case GPU_NTT_COSET_INVERSE:
                return shift && !fr_is_zero(shift);
        }
        return false;
}

/* The transform on the device, copied from and back to host when
 * be->host is set. */
static int ntt_transform(gpu_context_t *ctx, device_ntt_backend *be, unsigned log_size,
                         ntt_roots_t roots, gpu_ntt_kind_t kind, ntt_order_t order,
                         const fr_t *shift, uint32_t chunks, const fr_t *factor = nullptr) {
        const ntt_kind k = (ntt_kind)kind;
        const ntt_dev_order o = order == NTT_ORDER_NN   ? NTT_DEV_NN
                                : order == NTT_ORDER_NR ? NTT_DEV_NR
                                                        : NTT_DEV_RN;
        const bool inverse = ntt_kind_is_inverse(k);
        const ntt_specs specs =
                ntt_make_specs(log_size, roots, k, o, shift, NTT_DIRECT_LOG, factor);
        ntt_tables tables;

        GPU_TRY_R(cached_table(ctx, specs.omega, &ctx->omega_tables[log_size][roots][inverse],
                               &tables.omega));
        GPU_TRY_R(cached_table(ctx, specs.direct, &ctx->direct_tables[roots][inverse],
                               &tables.direct));
        tables.direct_log = NTT_DIRECT_LOG;

        void *scale = nullptr;
        GPU_TRY_R(gpu_scratch(ctx, GPU_SLOT_NTT_SCALE,
                              (specs.pre.entries() + specs.post.entries()) * sizeof(fr_dev),
                              &scale));
        fr_dev *pre = (fr_dev *)scale, *post = pre + specs.pre.entries();
        tables.pre.mode = specs.pre_mode;
        tables.post.mode = specs.post_mode;
        GPU_TRY_R(build_pow_table(ctx, specs.pre, pre, &tables.pre.table));
        GPU_TRY_R(build_pow_table(ctx, specs.post, post, &tables.post.table));

        ntt_run(*be, log_size, o, tables, NTT_PASS_MAX_K, chunks);
        return be->error;
}

int cuzk::ntt_device_scaled(gpu_context_t *ctx, fr_t *d_a, unsigned log_size, ntt_roots_t roots,
                            gpu_ntt_kind_t kind, ntt_order_t order, const fr_t *shift,
                            const fr_t *factor) {
        assert(ctx);
        assert(d_a);

        /* A transform of one point runs no pass to fold a factor into. */
        if (!valid_args(log_size, roots, kind, order, shift) || (factor && log_size == 0))
                return -EINVAL;
        GPU_TRY_R(gpu_enter(ctx));
        device_ntt_backend be = {ctx, reinterpret_cast<fr_dev *>(d_a), 0, nullptr, nullptr};
        return ntt_transform(ctx, &be, log_size, roots, kind, order, shift, 1, factor);
}

int gpu_ntt_device(gpu_context_t *ctx, fr_t *d_a, unsigned log_size, ntt_roots_t roots,
                   gpu_ntt_kind_t kind, ntt_order_t order, const fr_t *shift) {
        return ntt_device_scaled(ctx, d_a, log_size, roots, kind, order, shift, nullptr);
}

/* The per-chunk events of one host-to-host transform. */
struct ntt_chunk_events {
        cudaEvent_t e[NTT_HOST_CHUNKS] = {};

        ~ntt_chunk_events() {
                for (cudaEvent_t ev : e)
                        if (ev)
                                (void)cudaEventDestroy(ev);
        }
};

int gpu_ntt(gpu_context_t *ctx, fr_t *a, unsigned log_size, ntt_roots_t roots, gpu_ntt_kind_t kind,
            ntt_order_t order, const fr_t *shift) {
        ntt_chunk_events written;
        void *d = nullptr;

        assert(ctx);
        assert(a);

        if (!valid_args(log_size, roots, kind, order, shift))
                return -EINVAL;
        const size_t bytes = ((size_t)1 << log_size) * sizeof(fr_t);
        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY_R(gpu_scratch(ctx, GPU_SLOT_NTT_DATA, bytes, &d));
        for (cudaEvent_t &e : written.e)
                GPU_TRY(ctx, cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
        device_ntt_backend be = {ctx, (fr_dev *)d, 0, (fr_dev *)a, written.e};
        GPU_TRY_R(gpu_copies_after_kernels(ctx));
        GPU_TRY_R(ntt_transform(ctx, &be, log_size, roots, kind, order, shift, NTT_HOST_CHUNKS));
        GPU_TRY(ctx, cudaStreamSynchronize(ctx->stream));
        GPU_TRY(ctx, cudaStreamSynchronize(ctx->copy_stream));
        return 0;
}
