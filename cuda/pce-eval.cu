/* SPDX-License-Identifier: Apache-2.0 */
/*
 * a, b, c on the device from a resident PCE and a compact witness
 * (pce-eval.h): the upload of both, and per matrix a thread-per-row kernel
 * for the short rows and a warp-per-row kernel for the long ones
 * (pce_eval_steps.cuh).
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/context.cuh"
#include "cuda/pce-eval.h"
#include "cuda/pce_eval_steps.cuh"

extern "C" {
#include "common/log.h"
}

using namespace cuzk;

struct gpu_pce_matrix {
        uint32_t id_bytes;
        uint32_t *row_start, *col;
        void *ids;
        fr_dev *values;
        uint32_t *long_rows; /* rows of more than PCE_LONG_TERMS terms, a warp each */
        uint32_t n_long;
};

struct gpu_pce {
        gpu_context_t *ctx;
        uint32_t n_rows, n_cols, n_public;
        gpu_pce_matrix m[PCE_N_MATRICES];
        uint64_t upload_bytes, device_bytes;
        /* only while uploading: the 64-bit row offsets, a counter */
        uint64_t *wide;
        uint32_t *count;
};

struct gpu_pce_witness {
        gpu_context_t *ctx;
        void *buf; /* words | inputs | nums | the bitmaps and rank as copied */
        size_t buf_bytes;
        bool uploaded;
        uint32_t n_inputs;
        uint64_t n_aux;
        const pce_witness_word *words;
        const fr_dev *inputs, *nums;
        cudaEvent_t upload_begin, upload_end, evaluate_begin, evaluate_end;
        bool evaluated;
};

/* cudaMalloc, at least 16 bytes (an empty array still gets a pointer). */
static int device_alloc(gpu_context_t *ctx, void **ret, size_t bytes) {
        GPU_TRY(ctx, cudaMalloc(ret, bytes ? bytes : 16));
        return 0;
}

/* Host to device on ctx's stream (gpu_copy_staged); nothing for an empty
 * array, whose host pointer may be null. */
static int copy_in(gpu_context_t *ctx, void *d, const void *h, size_t bytes) {
        return bytes ? gpu_copy_staged(ctx, d, h, bytes, ctx->stream) : 0;
}

template <class T> static int pce_alloc(gpu_pce_t *p, T **ret, size_t count) {
        void *d = nullptr;
        GPU_TRY_R(device_alloc(p->ctx, &d, count * sizeof(T)));
        *ret = (T *)d;
        p->device_bytes += count * sizeof(T);
        return 0;
}

/* The rows of more than PCE_LONG_TERMS terms, listed on the device: counted
 * first (the count comes back to size the list), then listed. */
static int list_long_rows(gpu_pce_t *p, gpu_pce_matrix *dm) {
        gpu_context_t *ctx = p->ctx;
        uint32_t n_long = 0;

        GPU_TRY(ctx, cudaMemsetAsync(p->count, 0, sizeof(uint32_t), ctx->stream));
        GPU_TRY_R(gpu_launch_step(
                ctx, pce_long_rows_step{dm->row_start, PCE_LONG_TERMS, p->count, nullptr},
                p->n_rows));
        GPU_TRY(ctx, cudaMemcpyAsync(&n_long, p->count, sizeof(n_long), cudaMemcpyDeviceToHost,
                                     ctx->stream));
        GPU_TRY(ctx, cudaStreamSynchronize(ctx->stream));
        dm->n_long = n_long;
        GPU_TRY_R(pce_alloc(p, &dm->long_rows, n_long));
        if (n_long == 0)
                return 0;
        GPU_TRY(ctx, cudaMemsetAsync(p->count, 0, sizeof(uint32_t), ctx->stream));
        return gpu_launch_step(
                ctx, pce_long_rows_step{dm->row_start, PCE_LONG_TERMS, p->count, dm->long_rows},
                p->n_rows);
}

static int upload_matrix(gpu_pce_t *p, const struct pce_matrix *m, gpu_pce_matrix *dm) {
        gpu_context_t *ctx = p->ctx;
        const size_t rows = (size_t)p->n_rows + 1, terms = (size_t)m->n_terms;

        if (m->n_terms > UINT32_MAX)
                return log_error_errno(E2BIG,
                                       "cuda: a PCE matrix of %" PRIu64
                                       " terms, the GPU evaluator takes at most 2^32 - 1",
                                       m->n_terms);
        dm->id_bytes = m->id_bytes;
        GPU_TRY_R(pce_alloc(p, &dm->row_start, rows));
        GPU_TRY_R(pce_alloc(p, &dm->col, terms));
        uint8_t *ids = nullptr;
        GPU_TRY_R(pce_alloc(p, &ids, terms * m->id_bytes));
        dm->ids = ids;
        GPU_TRY_R(pce_alloc(p, &dm->values, m->n_values));

        GPU_TRY_R(copy_in(ctx, p->wide, m->row_start, rows * sizeof(uint64_t)));
        GPU_TRY_R(gpu_launch_step(ctx, pce_narrow_step{p->wide, dm->row_start}, rows));
        GPU_TRY_R(copy_in(ctx, dm->col, m->col, terms * sizeof(uint32_t)));
        GPU_TRY_R(copy_in(ctx, dm->ids, m->coeff_id, terms * m->id_bytes));
        GPU_TRY_R(copy_in(ctx, dm->values, m->values, m->n_values * sizeof(fr_t)));
        p->upload_bytes += rows * sizeof(uint64_t) + terms * (sizeof(uint32_t) + m->id_bytes) +
                           m->n_values * sizeof(fr_t);
        return list_long_rows(p, dm);
}

static int upload_all(gpu_pce_t *p, const struct pce *pce) {
        gpu_context_t *ctx = p->ctx;
        void *wide = nullptr, *count = nullptr;

        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY_R(device_alloc(ctx, &wide, ((size_t)pce->n_rows + 1) * sizeof(uint64_t)));
        p->wide = (uint64_t *)wide;
        GPU_TRY_R(device_alloc(ctx, &count, sizeof(uint32_t)));
        p->count = (uint32_t *)count;
        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                GPU_TRY_R(upload_matrix(p, &pce->m[k], &p->m[k]));
        GPU_TRY(ctx, cudaStreamSynchronize(ctx->stream));
        GPU_TRY(ctx, cudaFree(p->wide));
        p->wide = nullptr;
        GPU_TRY(ctx, cudaFree(p->count));
        p->count = nullptr;
        return 0;
}

int gpu_pce_upload(gpu_context_t *ctx, const struct pce *pce, gpu_pce_t **ret) {
        assert(ctx && pce);
        assert(ret);

        gpu_pce_t *p = (gpu_pce_t *)calloc(1, sizeof(*p));
        if (!p)
                return -ENOMEM;
        p->ctx = ctx;
        p->n_rows = pce->n_rows;
        p->n_cols = pce->n_cols;
        p->n_public = pce->n_public;
        const int r = upload_all(p, pce);
        if (r < 0) {
                gpu_pce_free(p);
                return r;
        }
        *ret = p;
        return 0;
}

void gpu_pce_free(gpu_pce_t *p) {
        if (!p)
                return;
        /* Past reporting: release what there is (cudaFree(NULL) is a no-op). */
        (void)cudaSetDevice(p->ctx->device);
        (void)cudaStreamSynchronize(p->ctx->stream);
        for (gpu_pce_matrix &m : p->m)
                for (void *d : {(void *)m.row_start, (void *)m.col, m.ids, (void *)m.values,
                                (void *)m.long_rows})
                        (void)cudaFree(d);
        (void)cudaFree(p->wide);
        (void)cudaFree(p->count);
        free(p);
}

uint64_t gpu_pce_upload_bytes(const gpu_pce_t *p) {
        assert(p);
        return p->upload_bytes;
}

uint64_t gpu_pce_device_bytes(const gpu_pce_t *p) {
        assert(p);
        return p->device_bytes;
}

uint64_t gpu_pce_long_rows(const gpu_pce_t *p, enum pce_matrix_id which) {
        assert(p);
        assert(which < PCE_N_MATRICES);
        return p->m[which].n_long;
}

/* ---- the witness ---- */

int gpu_pce_witness_new(gpu_context_t *ctx, gpu_pce_witness_t **ret) {
        assert(ctx);
        assert(ret);

        gpu_pce_witness_t *dw = (gpu_pce_witness_t *)calloc(1, sizeof(*dw));
        if (!dw)
                return -ENOMEM;
        dw->ctx = ctx;
        int r = gpu_enter(ctx);
        for (cudaEvent_t *e :
             {&dw->upload_begin, &dw->upload_end, &dw->evaluate_begin, &dw->evaluate_end}) {
                if (r < 0)
                        break;
                const cudaError_t err = cudaEventCreate(e);
                if (err != cudaSuccess)
                        r = gpu_fail(ctx, err, "cudaEventCreate", __FILE__, __LINE__);
        }
        if (r < 0) {
                gpu_pce_witness_free(dw);
                return r;
        }
        *ret = dw;
        return 0;
}

void gpu_pce_witness_free(gpu_pce_witness_t *dw) {
        if (!dw)
                return;
        (void)cudaSetDevice(dw->ctx->device);
        (void)cudaStreamSynchronize(dw->ctx->stream);
        (void)cudaFree(dw->buf);
        for (cudaEvent_t e :
             {dw->upload_begin, dw->upload_end, dw->evaluate_begin, dw->evaluate_end})
                if (e)
                        (void)cudaEventDestroy(e);
        free(dw);
}

/* dw's buffer of at least `bytes`, its contents not kept. */
static int witness_buffer(gpu_pce_witness_t *dw, size_t bytes) {
        gpu_context_t *ctx = dw->ctx;

        if (dw->buf_bytes >= bytes)
                return 0;
        /* queued kernels may still read the old one */
        GPU_TRY(ctx, cudaStreamSynchronize(ctx->stream));
        GPU_TRY(ctx, cudaFree(dw->buf));
        dw->buf = nullptr;
        dw->buf_bytes = 0;
        GPU_TRY_R(device_alloc(ctx, &dw->buf, bytes));
        dw->buf_bytes = bytes;
        return 0;
}

int gpu_pce_witness_upload(gpu_pce_witness_t *dw, const struct pce_compact_witness *w,
                           uint64_t *ret_bytes) {
        assert(dw && w);
        assert(w->inputs);
        assert(w->n_aux == 0 || (w->is_bit && w->bit_value && w->rank));

        gpu_context_t *ctx = dw->ctx;
        const size_t words = pce_bitmap_words(w->n_aux), n_in = (size_t)w->n_inputs + 1;
        const size_t n_nums = (size_t)pce_compact_nums(w);
        /* 32-byte pieces first, so that every part stays aligned */
        const size_t words_bytes = (words ? words : 1) * sizeof(pce_witness_word);
        const size_t inputs_bytes = n_in * sizeof(fr_t), nums_bytes = n_nums * sizeof(fr_t);
        const size_t bitmap_bytes = words * sizeof(uint64_t);

        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY_R(witness_buffer(dw, words_bytes + inputs_bytes + nums_bytes + 3 * bitmap_bytes));
        char *at = (char *)dw->buf;
        pce_witness_word *d_words = (pce_witness_word *)at;
        fr_dev *d_inputs = (fr_dev *)(at + words_bytes);
        fr_dev *d_nums = (fr_dev *)(at + words_bytes + inputs_bytes);
        uint64_t *d_is_bit = (uint64_t *)(at + words_bytes + inputs_bytes + nums_bytes);
        uint64_t *d_bit_value = d_is_bit + words, *d_rank = d_bit_value + words;

        GPU_TRY(ctx, cudaEventRecord(dw->upload_begin, ctx->stream));
        GPU_TRY_R(copy_in(ctx, d_inputs, w->inputs, inputs_bytes));
        GPU_TRY_R(copy_in(ctx, d_nums, w->nums, nums_bytes));
        GPU_TRY_R(copy_in(ctx, d_is_bit, w->is_bit, bitmap_bytes));
        GPU_TRY_R(copy_in(ctx, d_bit_value, w->bit_value, bitmap_bytes));
        GPU_TRY_R(copy_in(ctx, d_rank, w->rank, bitmap_bytes));
        GPU_TRY_R(gpu_launch_step(ctx, pce_pack_words_step{d_is_bit, d_bit_value, d_rank, d_words},
                                  words));
        GPU_TRY(ctx, cudaEventRecord(dw->upload_end, ctx->stream));

        dw->uploaded = true;
        dw->n_inputs = w->n_inputs;
        dw->n_aux = w->n_aux;
        dw->words = d_words;
        dw->inputs = d_inputs;
        dw->nums = d_nums;
        if (ret_bytes)
                *ret_bytes = inputs_bytes + nums_bytes + 3 * bitmap_bytes;
        return 0;
}

int gpu_pce_witness_expand(gpu_pce_witness_t *dw, fr_t *d_w) {
        assert(dw && d_w);

        if (!dw->uploaded)
                return -EINVAL;
        GPU_TRY_R(gpu_enter(dw->ctx));
        return gpu_launch_step(
                dw->ctx,
                pce_expand_step{dw->inputs, dw->words, dw->nums, dw->n_inputs + 1, (fr_dev *)d_w},
                1 + (uint64_t)dw->n_inputs + dw->n_aux);
}

/* ---- the evaluation ---- */

/* A warp per long row: its lanes' partial sums, added down the warp. */
template <class Id>
__global__ void __launch_bounds__(256)
        pce_long_rows_kernel(pce_row_step<Id> step, const uint32_t *rows, uint32_t n_rows) {
        const uint64_t warp = ((uint64_t)blockIdx.x * blockDim.x + threadIdx.x) / PCE_WARP_LANES;
        const uint32_t lane = threadIdx.x % PCE_WARP_LANES;
        if (warp >= n_rows) /* the whole warp: blocks are whole warps */
                return;
        const uint32_t row = rows[warp];
        fr_dev acc = step.partial(row, lane, PCE_WARP_LANES);
#pragma unroll
        for (unsigned offset = PCE_WARP_LANES / 2; offset > 0; offset /= 2) {
                fr_dev other;
#pragma unroll
                for (int i = 0; i < fr_dev::N; i++)
                        other.v[i] = __shfl_down_sync(0xffffffffu, acc.v[i], offset);
                acc = acc + other;
        }
        if (lane == 0)
                store_wide(&step.out[row], acc);
}

template <class Id>
static int evaluate_matrix(const gpu_pce_witness_t *dw, const gpu_pce_t *p, const gpu_pce_matrix &m,
                           fr_dev *out) {
        gpu_context_t *ctx = dw->ctx;
        const pce_row_step<Id> step{m.row_start,    m.col,     (const Id *)m.ids, m.values,
                                    dw->inputs,     dw->words, dw->nums,          dw->n_inputs + 1,
                                    PCE_LONG_TERMS, out};

        GPU_TRY_R(gpu_launch_step(ctx, step, p->n_rows));
        if (m.n_long == 0)
                return 0;
        const uint64_t threads = (uint64_t)m.n_long * PCE_WARP_LANES;
        pce_long_rows_kernel<Id><<<(unsigned)((threads + 255) / 256), 256, 0, ctx->stream>>>(
                step, m.long_rows, m.n_long);
        GPU_TRY(ctx, cudaGetLastError());
        return 0;
}

int gpu_pce_evaluate(gpu_pce_witness_t *dw, const gpu_pce_t *pce, unsigned log_domain, fr_t *d_a,
                     fr_t *d_b, fr_t *d_c) {
        fr_t *const out[PCE_N_MATRICES] = {d_a, d_b, d_c};

        assert(dw && pce);
        assert(d_a && d_b && d_c);

        gpu_context_t *ctx = dw->ctx;
        if (log_domain >= 64 || ((uint64_t)1 << log_domain) < pce->n_rows || !dw->uploaded ||
            dw->n_inputs != pce->n_public ||
            1 + (uint64_t)dw->n_inputs + dw->n_aux != pce->n_cols ||
            ctx->device != pce->ctx->device)
                return -EINVAL;
        const size_t domain = (size_t)1 << log_domain;
        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY(ctx, cudaEventRecord(dw->evaluate_begin, ctx->stream));
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                const gpu_pce_matrix &m = pce->m[k];
                fr_dev *o = (fr_dev *)out[k];
                if (m.id_bytes == 1)
                        GPU_TRY_R(evaluate_matrix<uint8_t>(dw, pce, m, o));
                else if (m.id_bytes == 2)
                        GPU_TRY_R(evaluate_matrix<uint16_t>(dw, pce, m, o));
                else
                        GPU_TRY_R(evaluate_matrix<uint32_t>(dw, pce, m, o));
                GPU_TRY(ctx, cudaMemsetAsync(o + pce->n_rows, 0,
                                             (domain - pce->n_rows) * sizeof(fr_t), ctx->stream));
        }
        GPU_TRY(ctx, cudaEventRecord(dw->evaluate_end, ctx->stream));
        dw->evaluated = true;
        return 0;
}

static int elapsed_ms(gpu_context_t *ctx, cudaEvent_t begin, cudaEvent_t end, double *ret) {
        float ms = 0;

        GPU_TRY(ctx, cudaEventSynchronize(end));
        GPU_TRY(ctx, cudaEventElapsedTime(&ms, begin, end));
        *ret = ms;
        return 0;
}

int gpu_pce_witness_times(gpu_pce_witness_t *dw, double *ret_upload_ms, double *ret_evaluate_ms) {
        assert(dw);

        GPU_TRY_R(gpu_enter(dw->ctx));
        if (ret_upload_ms) {
                if (!dw->uploaded)
                        return -EINVAL;
                GPU_TRY_R(elapsed_ms(dw->ctx, dw->upload_begin, dw->upload_end, ret_upload_ms));
        }
        if (ret_evaluate_ms) {
                if (!dw->evaluated)
                        return -EINVAL;
                GPU_TRY_R(
                        elapsed_ms(dw->ctx, dw->evaluate_begin, dw->evaluate_end, ret_evaluate_ms));
        }
        return 0;
}
