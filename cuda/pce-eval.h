/* SPDX-License-Identifier: Apache-2.0 */
/*
 * a = A w, b = B w, c = C w on the GPU from a PCE (circuits/pce.h) and a
 * compact witness (circuits/pce-compact.h): the same values as
 * pce_evaluate_compact(), bit for bit, in device buffers in the form the
 * NTTs take (Montgomery fr_t, gpu.h), without a full witness or a, b, c in
 * host memory.
 *
 * A gpu_pce is a PCE's matrices on one device, copied once: 32-bit row
 * offsets, 32-bit columns, the coefficient ids at the PCE's width (1, 2 or
 * 4 bytes) and the coefficient tables, plus each matrix's list of long
 * rows (a warp each). A gpu_pce_witness holds one partition's witness on
 * the device (the two bitmaps and the rank packed per 64 wires, the
 * non-bit values, the inputs): one per context (lane), grown on demand and
 * reused from partition to partition. Errors as gpu.h's.
 */
#pragma once

#include <stdint.h>

#include "cuda/gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

#include "circuits/pce-compact.h"

typedef struct gpu_pce gpu_pce_t;
typedef struct gpu_pce_witness gpu_pce_witness_t;

/*
 * Copies pce's matrices to ctx's device and returns when they are there;
 * pce may be freed afterwards. Contexts of the same device may evaluate
 * with it; ctx stays borrowed for the handle's life (its device, its
 * error path). -E2BIG for a matrix of 2^32 terms or more, -ENOMEM when the
 * device memory does not hold them.
 */
int gpu_pce_upload(gpu_context_t *ctx, const struct pce *pce, gpu_pce_t **ret);
/* Waits for ctx's queued work and frees the device copy. Accepts NULL. */
void gpu_pce_free(gpu_pce_t *p);
static inline void gpu_pce_freep(gpu_pce_t **p) {
        gpu_pce_free(*p);
}

/* Bytes copied host to device by gpu_pce_upload, and kept on the device. */
uint64_t gpu_pce_upload_bytes(const gpu_pce_t *p);
uint64_t gpu_pce_device_bytes(const gpu_pce_t *p);
/* Rows of matrix `which` that a warp each evaluates (more than
 * PCE_LONG_TERMS terms). */
uint64_t gpu_pce_long_rows(const gpu_pce_t *p, enum pce_matrix_id which);

/* A witness slot on ctx's stream (no device memory yet). */
int gpu_pce_witness_new(gpu_context_t *ctx, gpu_pce_witness_t **ret);
/* Waits for ctx's queued work and frees the slot. Accepts NULL. */
void gpu_pce_witness_free(gpu_pce_witness_t *dw);
static inline void gpu_pce_witness_freep(gpu_pce_witness_t **dw) {
        gpu_pce_witness_free(*dw);
}

/*
 * Queues the copy of w (its inputs, bitmaps, rank and non-bit values;
 * w->rank as pce_compact_rank() computes it) into dw on its context's
 * stream, after the work queued there before; returns once w's memory
 * may be reused. *ret_bytes (may be NULL): the bytes crossing to the
 * device.
 */
int gpu_pce_witness_upload(gpu_pce_witness_t *dw, const struct pce_compact_witness *w,
                           uint64_t *ret_bytes);

/*
 * Queues a, b, c of dw's witness on dw's context's stream into d_a, d_b,
 * d_c (device memory of 2^log_domain fr_t each), zero past the PCE's rows.
 * -EINVAL when the domain is smaller than the rows, the witness has
 * another shape than the PCE, or the two live on different devices.
 */
int gpu_pce_evaluate(gpu_pce_witness_t *dw, const gpu_pce_t *pce, unsigned log_domain, fr_t *d_a,
                     fr_t *d_b, fr_t *d_c);

/*
 * Queues the full witness of dw (1 + n_inputs + n_aux values, as
 * pce_compact_expand() writes it on the host) into d_w on dw's context's
 * stream, for the MSMs. -EINVAL before an upload.
 */
int gpu_pce_witness_expand(gpu_pce_witness_t *dw, fr_t *d_w);

/* Waits for dw's context and gives the device time of its last upload
 * and of its last evaluation, in ms (either pointer may be NULL). */
int gpu_pce_witness_times(gpu_pce_witness_t *dw, double *ret_upload_ms, double *ret_evaluate_ms);

/*
 * The GPU stage of a Groth16 partition (gpu.h's gpu_groth16_h and
 * gpu_groth16_msm_g1_queue) from its compact witness w, on ctx (dw's
 * context): gpu_groth16_h_compact uploads w into dw (*ret_upload_bytes, may
 * be NULL: the bytes that crossed) and evaluates a, b, c there from pce
 * instead of copying them; gpu_groth16_msm_g1_queue_compact expands the
 * full witness there for the MSMs, counting its 0s and 1s from w (host;
 * borrowed during the call only). Collected with gpu_groth16_collect; the
 * B_G2 MSM then runs on the device (gpu_groth16_b_g2): no full witness is
 * in host memory for a CPU tail.
 */
int gpu_groth16_h_compact(gpu_context_t *ctx, gpu_pce_witness_t *dw, const gpu_pce_t *pce,
                          const struct pce_compact_witness *w, enum groth16_h_convention conv,
                          unsigned log_n, fr_t **ret_d_h, uint64_t *ret_upload_bytes);
int gpu_groth16_msm_g1_queue_compact(gpu_context_t *ctx, gpu_pce_witness_t *dw,
                                     const struct groth16_pk *pk, const gpu_pk_points_t *dev,
                                     const struct pce_compact_witness *w, const fr_t *d_h,
                                     struct groth16_msm_results *res);

#ifdef __cplusplus
}
#endif
