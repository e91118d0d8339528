/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What groth16.cu (a, b, c and the witness from host memory) and
 * groth16-compact.cu (both made on the device from a compact witness)
 * share of a partition's GPU stage: its scratch, H from a, b, c already on
 * the device, the G1 MSMs over a witness already there, and the count of
 * the witness's 0s and 1s among each MSM's scalars.
 */
#pragma once

#include "cuda/context.cuh"

extern "C" {
#include "zk/density.h"
#include "zk/groth16.h"
}

namespace cuzk {

/* The witness's 0s and 1s among each MSM's scalars (A's wires, B's, L's
 * private ones): the MSMs keep them out of their digits and sorts. */
struct witness_split {
        gpu_msm_split a, b, l;
};

/* Counts them, value(j) giving wire j's value (host memory); on the host
 * threads, while the device computes H. */
template <class Value>
void witness_split_count(const struct groth16_pk *pk, const Value &value, witness_split *ret) {
        uint64_t a_big = 0, a_one = 0, b_big = 0, b_one = 0, l_big = 0, l_one = 0;
        const size_t n = pk->n_vars, l_first = pk->n_public + 1;

#pragma omp parallel for schedule(static) reduction(+ : a_big, a_one, b_big, b_one, l_big, l_one)
        for (size_t j = 0; j < n; j++) {
                const fr_t *x = value(j);
                const bool one = fr_is_one(x), big = !one && !fr_is_zero(x);
                if (!pk->a_density || wire_density_has(pk->a_density, j))
                        a_big += big, a_one += one;
                if (!pk->b_density || wire_density_has(pk->b_density, j))
                        b_big += big, b_one += one;
                if (j >= l_first)
                        l_big += big, l_one += one;
        }
        *ret = {{a_big, a_one}, {b_big, b_one}, {l_big, l_one}};
}

/* Marks the stage's start on ctx's stream unless a part of it did (then
 * with a, b, c and H done: the caller made them). */
int groth16_stage_begin(gpu_context_t *ctx);
/* Marks the end of one of its parts on ctx's stream. */
int groth16_stage_mark(gpu_context_t *ctx, enum gpu_stage_mark mark);
/* ctx's a, b, c for a 2^log_n partition: 3 * 2^log_n values (H's end in a). */
int groth16_abc_slot(gpu_context_t *ctx, unsigned log_n, fr_t **ret);
/* ctx's witness for n_vars values. */
int groth16_witness_slot(gpu_context_t *ctx, size_t n_vars, fr_t **ret);
/* H's scalars from a, b, c in d_abc (ctx's slot), all queued on ctx's
 * stream: a and b to the coset, c there too (snarkjs) or to its
 * coefficients (bellperson), combined, and for bellperson back. */
int groth16_h_from_device(gpu_context_t *ctx, enum groth16_h_convention conv, unsigned log_n,
                          fr_t *d_abc, fr_t **ret_d_h);
/* The H, A, B_G1 and L MSMs over the witness d_w on the device, queued on
 * ctx's stream after what is queued there; split counts d_w's 0s and 1s. */
int groth16_msm_g1_queue_device(gpu_context_t *ctx, const struct groth16_pk *pk,
                                const gpu_pk_points_t *dev, const fr_t *d_w,
                                const witness_split *split, const fr_t *d_h,
                                struct groth16_msm_results *res);

} // namespace cuzk
