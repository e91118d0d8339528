/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A partition's GPU stage from its compact witness (pce-eval.h): the
 * witness crosses once, compact; a, b, c are evaluated on the device from
 * the resident PCE into the stage's a, b, c scratch, and the full witness
 * the MSMs read is expanded there too. Nothing of a, b, c or the full
 * witness crosses PCIe or lives in host memory.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>

#include "cuda/context.cuh"
#include "cuda/groth16_stage.cuh"
#include "cuda/pce-eval.h"

extern "C" {
#include "common/log.h"
}

using namespace cuzk;

int gpu_groth16_h_compact(gpu_context_t *ctx, gpu_pce_witness_t *dw, const gpu_pce_t *pce,
                          const struct pce_compact_witness *w, enum groth16_h_convention conv,
                          unsigned log_n, fr_t **ret_d_h, uint64_t *ret_upload_bytes) {
        const size_t n = (size_t)1 << log_n;
        fr_t *d_abc = nullptr;

        assert(ctx && dw && pce && w);
        assert(ret_d_h);

        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY_R(groth16_abc_slot(ctx, log_n, &d_abc));
        GPU_TRY(ctx, cudaEventRecord(ctx->stage_begin, ctx->stream));
        ctx->stage_open = true;
        /* All on the kernels' stream: the upload waits for the previous
         * partition's kernels on this context, which may still read dw. */
        GPU_TRY_R(gpu_pce_witness_upload(dw, w, ret_upload_bytes));
        GPU_TRY_R(gpu_pce_evaluate(dw, pce, log_n, d_abc, d_abc + n, d_abc + 2 * n));
        GPU_TRY_R(groth16_stage_mark(ctx, GPU_MARK_ABC));
        return groth16_h_from_device(ctx, conv, log_n, d_abc, ret_d_h);
}

/* witness_split_count's counts from the compact form: its aux by their bitmaps
 * (pce_compact_count_aux; L's wires are exactly the aux), its inputs and ONE one
 * by one. On one core: 70 ms for 2^27 aux with 1 in 50 not a bit, where the
 * count wire by wire took 2.4 s (1.1 s on two). That count, on OpenMP threads
 * while the synthesis workers held every core of the H100 host, delayed MSM H's
 * launch behind it by ~1 s (a 32 GiB partition's MSM H 1,698 ms, not 725). */
static void compact_split_count(const struct groth16_pk *pk, const struct pce_compact_witness *w,
                                witness_split *ret) {
        const struct wire_density *d[] = {pk->a_density, pk->b_density, nullptr};
        uint64_t one[3], big[3];
        witness_split s;

        pce_compact_count_aux(w, d, 3, one, big);
        s = {{big[0], one[0]}, {big[1], one[1]}, {big[2], one[2]}};
        for (size_t j = 0; j <= w->n_inputs; j++) {
                const bool one = fr_is_one(&w->inputs[j]);
                const bool big = !one && !fr_is_zero(&w->inputs[j]);
                if (!pk->a_density || wire_density_has(pk->a_density, j))
                        s.a.big += big, s.a.one += one;
                if (!pk->b_density || wire_density_has(pk->b_density, j))
                        s.b.big += big, s.b.one += one;
        }
        *ret = s;
}

int gpu_groth16_msm_g1_queue_compact(gpu_context_t *ctx, gpu_pce_witness_t *dw,
                                     const struct groth16_pk *pk, const gpu_pk_points_t *dev,
                                     const struct pce_compact_witness *w, const fr_t *d_h,
                                     struct groth16_msm_results *res) {
        fr_t *d_w = nullptr;
        witness_split split;

        assert(ctx && dw && pk && w && d_h && res);
        assert(pk->n_vars > pk->n_public);

        if (pk->n_vars != 1 + (uint64_t)w->n_inputs + w->n_aux || pk->n_public != w->n_inputs)
                return log_error_errno(EINVAL,
                                       "cuda: a witness of %u inputs and %" PRIu64
                                       " aux for a key of %zu wires, %zu public: expected the "
                                       "key's shape",
                                       w->n_inputs, w->n_aux, pk->n_vars, pk->n_public);
        GPU_TRY_R(groth16_pk_check_density(pk));
        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY_R(groth16_stage_begin(ctx));
        GPU_TRY_R(groth16_witness_slot(ctx, pk->n_vars, &d_w));
        GPU_TRY_R(gpu_pce_witness_expand(dw, d_w));
        compact_split_count(pk, w, &split);
        return groth16_msm_g1_queue_device(ctx, pk, dev, d_w, &split, d_h, res);
}
