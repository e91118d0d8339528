/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The GPU stage of a Groth16 partition: H's scalars by NTTs on the device
 * (zk/groth16_prove.c's groth16_compute_h, step for step), then the G1
 * MSMs for H, A, B_G1 and L with the bases resident or streamed from host
 * memory and the scalars (H's, the witness) on the device; queued, and
 * collected when the caller wants the results.
 */
#include <assert.h>
#include <errno.h>

#include "cuda/context.cuh"
#include "cuda/groth16_stage.cuh"
#include "cuda/groth16_steps.cuh"

extern "C" {
#include "common/log.h"
}

using namespace cuzk;

/* What H's transforms and steps take, made once an H: the convention's
 * roots, its coset and 1/Z there (groth16_h_coset), n and 1/n. */
struct h_plan {
        enum groth16_h_convention conv;
        unsigned log_n;
        ntt_roots_t roots;
        fr_t shift, z_inv, n, n_inv;
};

static int h_plan_make(enum groth16_h_convention conv, unsigned log_n, h_plan *h) {
        h->conv = conv;
        h->log_n = log_n;
        h->roots = conv == GROTH16_H_SNARKJS ? NTT_ROOTS_SNARKJS : NTT_ROOTS_BELLPERSON;
        /* first: it refuses sizes past the transforms', for which 2^log_n overflows */
        GPU_TRY_R(groth16_h_coset(conv, log_n, &h->shift, &h->z_inv));
        fr_from_u64(&h->n, 1ull << log_n);
        fr_inv(&h->n_inv, &h->n);
        return 0;
}

/* Evaluations on <omega> -> evaluations on shift<omega>, natural order both
 * ways (the inverse leaves bit-reversed coefficients for the coset NTT).
 * The inverse's 1/n goes into the coset's powers of the shift: one product
 * an element fewer. */
static int to_coset(gpu_context_t *ctx, const h_plan &h, fr_t *d_x) {
        /* one point (n = 1): no pass to fold into, and nothing to fold */
        const bool fold = h.log_n > 0;
        GPU_TRY_R(ntt_device_scaled(ctx, d_x, h.log_n, h.roots, GPU_NTT_INVERSE, NTT_ORDER_NR,
                                    nullptr, fold ? &h.n : nullptr));
        return ntt_device_scaled(ctx, d_x, h.log_n, h.roots, GPU_NTT_COSET_FORWARD, NTT_ORDER_RN,
                                 &h.shift, fold ? &h.n_inv : nullptr);
}

/* c as h_combine takes it: on the coset for snarkjs; for bellperson its
 * coefficients alone, bit-reversed and n times (zk/groth16_prove.c: the
 * way back from the coset gives C's coefficients, so c need not go there). */
static int c_for_h(gpu_context_t *ctx, const h_plan &h, fr_t *d_c) {
        if (h.conv == GROTH16_H_SNARKJS)
                return to_coset(ctx, h, d_c);
        return ntt_device_scaled(ctx, d_c, h.log_n, h.roots, GPU_NTT_INVERSE, NTT_ORDER_NR, nullptr,
                                 h.log_n ? &h.n : nullptr);
}

/* H's scalars in d_a from a and b on the coset and c from c_for_h. snarkjs:
 * a b - c there (its 1/Z is one, in its H bases). Bellperson: a b back from
 * the coset, its transform taking 1/Z into its scaling, minus C / Z. */
static int h_combine(gpu_context_t *ctx, const h_plan &h, fr_t *d_a, const fr_t *d_b,
                     const fr_t *d_c) {
        const size_t n = (size_t)1 << h.log_n;
        const fr_dev z = as_dev<fr_dev>(h.z_inv);
        if (h.conv == GROTH16_H_SNARKJS)
                return gpu_launch_step(ctx,
                                       h_combine_step{(fr_dev *)d_a, (const fr_dev *)d_b,
                                                      (const fr_dev *)d_c, z, false},
                                       n);

        /* one point (n = 1): no pass to fold 1/Z into */
        const bool fold = h.log_n > 0;
        GPU_TRY_R(gpu_launch_step(
                ctx, h_combine_step{(fr_dev *)d_a, (const fr_dev *)d_b, nullptr, z, !fold}, n));
        GPU_TRY_R(ntt_device_scaled(ctx, d_a, h.log_n, h.roots, GPU_NTT_COSET_INVERSE, NTT_ORDER_NN,
                                    &h.shift, fold ? &h.z_inv : nullptr));
        fr_t c_scale;
        fr_mul(&c_scale, &h.n_inv, &h.z_inv);
        return gpu_launch_step(ctx,
                               h_subtract_step{(fr_dev *)d_a, (const fr_dev *)d_c,
                                               as_dev<fr_dev>(c_scale), h.log_n},
                               n);
}

int cuzk::groth16_stage_mark(gpu_context_t *ctx, enum gpu_stage_mark mark) {
        GPU_TRY(ctx, cudaEventRecord(ctx->stage_marks[mark], ctx->stream));
        return 0;
}

int cuzk::groth16_stage_begin(gpu_context_t *ctx) {
        if (!ctx->stage_open) {
                GPU_TRY(ctx, cudaEventRecord(ctx->stage_begin, ctx->stream));
                GPU_TRY_R(groth16_stage_mark(ctx, GPU_MARK_ABC));
                GPU_TRY_R(groth16_stage_mark(ctx, GPU_MARK_H));
                ctx->stage_open = true;
        }
        return 0;
}

int cuzk::groth16_abc_slot(gpu_context_t *ctx, unsigned log_n, fr_t **ret) {
        void *abc = nullptr;
        GPU_TRY_R(gpu_scratch(ctx, GPU_SLOT_H_ABC, 3 * ((size_t)1 << log_n) * sizeof(fr_t), &abc));
        *ret = (fr_t *)abc;
        return 0;
}

int cuzk::groth16_witness_slot(gpu_context_t *ctx, size_t n_vars, fr_t **ret) {
        void *d_w = nullptr;
        GPU_TRY_R(gpu_scratch(ctx, GPU_SLOT_WITNESS, n_vars * sizeof(fr_t), &d_w));
        *ret = (fr_t *)d_w;
        return 0;
}

int cuzk::groth16_h_from_device(gpu_context_t *ctx, enum groth16_h_convention conv, unsigned log_n,
                                fr_t *d_abc, fr_t **ret_d_h) {
        const size_t n = (size_t)1 << log_n;
        h_plan h;

        GPU_TRY_R(h_plan_make(conv, log_n, &h));
        for (size_t k = 0; k < 2; k++)
                GPU_TRY_R(to_coset(ctx, h, d_abc + k * n));
        GPU_TRY_R(c_for_h(ctx, h, d_abc + 2 * n));
        GPU_TRY_R(h_combine(ctx, h, d_abc, d_abc + n, d_abc + 2 * n));
        GPU_TRY_R(groth16_stage_mark(ctx, GPU_MARK_H));
        *ret_d_h = d_abc;
        return 0;
}

int gpu_groth16_h(gpu_context_t *ctx, enum groth16_h_convention conv, unsigned log_n, const fr_t *a,
                  const fr_t *b, const fr_t *c, fr_t **ret_d_h) {
        const size_t n = (size_t)1 << log_n;
        h_plan h;
        fr_t *d_a = nullptr;

        assert(ctx);
        assert(a && b && c);
        assert(ret_d_h);

        GPU_TRY_R(h_plan_make(conv, log_n, &h));
        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY_R(groth16_abc_slot(ctx, log_n, &d_a));
        fr_t *d_b = d_a + n, *d_c = d_b + n;
        GPU_TRY(ctx, cudaEventRecord(ctx->stage_begin, ctx->stream));
        GPU_TRY_R(groth16_stage_mark(ctx, GPU_MARK_ABC)); /* made on the host */
        ctx->stage_open = true;

        /* a on the kernels' stream; b and c on the copy stream, so that they
         * cross PCIe while a's (then b's) transforms run: each transform
         * waits for its own copy only. The copies wait for the kernels
         * queued before (the previous partition may still read d_a..d_c). */
        GPU_TRY_R(gpu_copy_staged(ctx, d_a, a, n * sizeof(fr_t), ctx->stream));
        GPU_TRY_R(gpu_copies_after_kernels(ctx));
        /* queued before b crosses: with pageable a, b, c this thread fills
         * the stages while a's transforms run */
        GPU_TRY_R(to_coset(ctx, h, d_a));
        GPU_TRY_R(gpu_copy_staged(ctx, d_b, b, n * sizeof(fr_t), ctx->copy_stream));
        GPU_TRY(ctx, cudaEventRecord(ctx->input_ready[0], ctx->copy_stream));
        GPU_TRY_R(gpu_copy_staged(ctx, d_c, c, n * sizeof(fr_t), ctx->copy_stream));
        GPU_TRY(ctx, cudaEventRecord(ctx->input_ready[1], ctx->copy_stream));
        GPU_TRY(ctx, cudaStreamWaitEvent(ctx->stream, ctx->input_ready[0], 0));
        GPU_TRY_R(to_coset(ctx, h, d_b));
        GPU_TRY(ctx, cudaStreamWaitEvent(ctx->stream, ctx->input_ready[1], 0));
        GPU_TRY_R(c_for_h(ctx, h, d_c));
        GPU_TRY_R(h_combine(ctx, h, d_a, d_b, d_c));
        GPU_TRY_R(groth16_stage_mark(ctx, GPU_MARK_H));
        *ret_d_h = d_a;
        return 0;
}

/*
 * Part k (1: b, 2: c) of the a, b, c slot for count gathered scalars, when
 * d_h is that slot's a part and they fit; else NULL. b and c are spent once
 * H is made (its scalars end in a), and nothing writes them again before
 * this partition's B_G2 tail has read B's scalars: a lane takes its next
 * partition only once this one is collected, its tail included. So a
 * partition needs no room of its own for A's and B's scalars (2 n_vars
 * values: 7.8 GiB of a 32 GiB PoRep partition's ~31).
 */
static fr_t *spent_abc_part(gpu_context_t *ctx, const fr_t *d_h, unsigned log_n, unsigned k,
                            size_t count) {
        const size_t n = (size_t)1 << log_n;
        const auto &slot = ctx->slots[GPU_SLOT_H_ABC];
        if (d_h != slot.p || slot.bytes < 3 * n * sizeof(fr_t) || count > n)
                return nullptr;
        return (fr_t *)d_h + k * n;
}

/* The scalars that meet points with density d (NULL: the witness itself),
 * gathered on the device from the witness d_w into `into`, or `slot` when
 * that is NULL. The density's words and ranks are read from d_words (the
 * key's resident copy: bits, then ranks) or copied there from host memory. */
static int density_scalars(gpu_context_t *ctx, const struct wire_density *d,
                           const uint64_t *d_words, fr_t *into, enum gpu_slot slot, const fr_t *d_w,
                           const fr_t **ret) {
        void *d_bits = nullptr, *d_out = into;

        if (!d) {
                *ret = d_w;
                return 0;
        }
        const size_t words = (d->n_wires + 63) / 64;
        if (!d_out)
                GPU_TRY_R(gpu_scratch(ctx, slot, (d->count ? d->count : 1) * sizeof(fr_t), &d_out));
        if (!d_words) {
                GPU_TRY_R(
                        gpu_scratch(ctx, GPU_SLOT_DENSITY, 2 * words * sizeof(uint64_t), &d_bits));
                uint64_t *bits = (uint64_t *)d_bits;
                /* On the kernels' stream: an earlier gather may still be read. */
                GPU_TRY(ctx, cudaMemcpyAsync(bits, d->bits, words * sizeof(uint64_t),
                                             cudaMemcpyHostToDevice, ctx->stream));
                GPU_TRY(ctx, cudaMemcpyAsync(bits + words, d->rank, words * sizeof(uint64_t),
                                             cudaMemcpyHostToDevice, ctx->stream));
                d_words = bits;
        }
        GPU_TRY_R(gpu_launch_step(
                ctx,
                density_gather_step{d_words, d_words + words, (const fr_dev *)d_w, (fr_dev *)d_out},
                d->n_wires));
        *ret = (const fr_t *)d_out;
        return 0;
}

int cuzk::groth16_msm_g1_queue_device(gpu_context_t *ctx, const struct groth16_pk *pk,
                                      const gpu_pk_points_t *dev, const fr_t *dw,
                                      const witness_split *split, const fr_t *d_h,
                                      struct groth16_msm_results *res) {
        const gpu_pk_points_t host_only = {};
        const fr_t *d_a = nullptr, *d_b = nullptr;
        const size_t n_private = pk->n_vars - pk->n_public - 1;

        if (!dev)
                dev = &host_only;
        GPU_TRY_R(gpu_g1_msm_queue(ctx, &res->h, pk->h, dev->h, d_h,
                                   groth16_h_bases(pk->h_convention, pk->log_domain_size), nullptr,
                                   dev->h ? dev->h_window_bits : 0));
        GPU_TRY_R(groth16_stage_mark(ctx, GPU_MARK_MSM_H));
        const unsigned log_n = pk->log_domain_size;
        const wire_density *ad = pk->a_density, *bd = pk->b_density;
        GPU_TRY_R(density_scalars(ctx, ad, dev->a_density,
                                  ad ? spent_abc_part(ctx, d_h, log_n, 1, ad->count) : nullptr,
                                  GPU_SLOT_DENSE_A, dw, &d_a));
        GPU_TRY_R(gpu_g1_msm_queue(ctx, &res->a, pk->a, dev->a, d_a, groth16_pk_a_points(pk),
                                   &split->a, 0));
        GPU_TRY_R(groth16_stage_mark(ctx, GPU_MARK_MSM_A));
        GPU_TRY_R(density_scalars(ctx, bd, dev->b_density,
                                  bd ? spent_abc_part(ctx, d_h, log_n, 2, bd->count) : nullptr,
                                  GPU_SLOT_DENSE_B, dw, &d_b));
        GPU_TRY_R(gpu_g1_msm_queue(ctx, &res->b1, pk->b1, dev->b1, d_b, groth16_pk_b_points(pk),
                                   &split->b, 0));
        GPU_TRY_R(groth16_stage_mark(ctx, GPU_MARK_MSM_B1));
        ctx->b_scalars = d_b;
        ctx->b_split = split->b;
        GPU_TRY_R(gpu_g1_msm_queue(ctx, &res->l, pk->l, dev->l, dw + pk->n_public + 1, n_private,
                                   &split->l, 0));
        GPU_TRY(ctx, cudaEventRecord(ctx->stage_end, ctx->stream));
        return 0;
}

int gpu_groth16_msm_g1_queue(gpu_context_t *ctx, const struct groth16_pk *pk,
                             const gpu_pk_points_t *dev, const fr_t *w, const fr_t *d_h,
                             struct groth16_msm_results *res) {
        fr_t *d_w = nullptr;
        witness_split split;

        assert(ctx);
        assert(pk && w && d_h && res);
        assert(pk->n_vars > pk->n_public);

        GPU_TRY_R(groth16_pk_check_density(pk));
        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY_R(groth16_stage_begin(ctx));
        GPU_TRY_R(groth16_witness_slot(ctx, pk->n_vars, &d_w));
        /* On the copy stream, behind gpu_groth16_h's b and c: the stages it
         * goes through then wait for copies only, never for the
         * transforms, so this returns once the witness has left w. */
        GPU_TRY_R(gpu_copy_staged(ctx, d_w, w, pk->n_vars * sizeof(fr_t), ctx->copy_stream));
        GPU_TRY_R(gpu_kernels_after_copies(ctx));
        witness_split_count(
                pk, [w](size_t j) { return &w[j]; }, &split);
        return groth16_msm_g1_queue_device(ctx, pk, dev, d_w, &split, d_h, res);
}

int gpu_groth16_b_g2(gpu_context_t *ctx, const struct groth16_pk *pk, const gpu_pk_points_t *dev,
                     g2_jac_t *ret) {
        const size_t n = groth16_pk_b_points(pk);

        assert(ctx && pk && ret);
        if (!ctx->b_scalars)
                return log_error_errno(EINVAL, "cuda: no B scalars queued for the B_G2 MSM");
        if (dev && dev->b2)
                return gpu_g2_msm_device(ctx, ret, dev->b2, ctx->b_scalars, n, &ctx->b_split);
        return gpu_g2_msm_fr_host_points(ctx, ret, pk->b2, ctx->b_scalars, n);
}

/* The stage's parts from its marks (the stream has passed them all). */
static int stage_split(gpu_context_t *ctx, gpu_stage_split_t *ret) {
        cudaEvent_t ends[GPU_STAGE_MARKS + 1];
        float *parts[] = {&ret->abc_ms,   &ret->ntt_ms,    &ret->msm_h_ms,
                          &ret->msm_a_ms, &ret->msm_b1_ms, &ret->msm_l_ms};
        cudaEvent_t from = ctx->stage_begin;

        static_assert(sizeof(parts) / sizeof(parts[0]) == GPU_STAGE_MARKS + 1, "a part a mark");
        for (size_t k = 0; k < GPU_STAGE_MARKS; k++)
                ends[k] = ctx->stage_marks[k];
        ends[GPU_STAGE_MARKS] = ctx->stage_end;
        for (size_t k = 0; k <= GPU_STAGE_MARKS; k++) {
                GPU_TRY(ctx, cudaEventElapsedTime(parts[k], from, ends[k]));
                from = ends[k];
        }
        return 0;
}

int gpu_groth16_collect(gpu_context_t *ctx, double *ret_stage_ms, gpu_stage_split_t *ret_split) {
        float ms = 0;

        assert(ctx);
        GPU_TRY_R(gpu_msm_collect(ctx));
        if (ret_split)
                *ret_split = gpu_stage_split_t{};
        if (ctx->stage_open) {
                GPU_TRY(ctx, cudaEventElapsedTime(&ms, ctx->stage_begin, ctx->stage_end));
                if (ret_split)
                        GPU_TRY_R(stage_split(ctx, ret_split));
                if (ret_split && ctx->partition_done_set)
                        GPU_TRY(ctx, cudaEventElapsedTime(&ret_split->idle_ms, ctx->partition_done,
                                                          ctx->stage_begin));
        }
        ctx->stage_open = false;
        if (ret_stage_ms)
                *ret_stage_ms = ms;
        return 0;
}

int gpu_groth16_partition_done(gpu_context_t *ctx) {
        assert(ctx);
        GPU_TRY_R(gpu_enter(ctx));
        GPU_TRY(ctx, cudaEventRecord(ctx->partition_done, ctx->stream));
        ctx->partition_done_set = true;
        return 0;
}
