/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CUDA backend's C interface: NTT and G1 MSM on an NVIDIA GPU, with the
 * same in-memory forms as zk/ (fr_t, g1_affine_t and g1_jac_t move between
 * CPU and GPU without conversion) and bit-identical results.
 *
 * A context is one device and one CUDA stream, with the tables and scratch
 * buffers it builds on first use. Use a context from one thread at a time;
 * work that should overlap on one GPU (several partitions in flight) uses
 * one context per stream. Every function returns 0 or a negative errno:
 *   -ENODEV  no usable CUDA device or driver (the caller falls back to the
 *            CPU); gpu_context_new logs why;
 *   -ENOMEM  device or pinned memory exhausted;
 *   -EINVAL  arguments out of range (sizes, roots, orders);
 *   -EIO     any other CUDA failure; the context's last error names the
 *            call, the file and line, and CUDA's message. A failed kernel
 *            leaves the device unusable: free the context.
 * The *_device functions work on device memory from gpu_alloc, are queued on
 * the context's stream and return before the GPU is done (gpu_synchronize
 * waits); the others take host memory and return when the result is there.
 * Host buffers from gpu_host_alloc (pinned) transfer about twice as fast.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* zk/'s headers carry no C++ guards of their own. */
#ifdef __cplusplus
extern "C" {
#endif

#include "cuda/gpu-tuning.h"
#include "zk/fp.h"
#include "zk/fr.h"
#include "zk/g1.h"
#include "zk/g2.h"
#include "zk/groth16.h"
#include "zk/ntt.h"

typedef struct gpu_context gpu_context_t;

typedef struct gpu_device_info {
        char name[256];
        int compute_major, compute_minor;
        int multiprocessors;
        size_t memory_bytes;
        char pci_bus_id[16]; /* "0000:3b:00.0", as sysfs names it */
} gpu_device_info_t;

/* CUDA devices present (>= 1), or -ENODEV without a driver or device. */
int gpu_device_count(void);

/* Opens device `ordinal` (0 for the first). -ENODEV, -EINVAL for an
 * ordinal past the device count, -ENOMEM. */
int gpu_context_new(gpu_context_t **ret, int ordinal);
/* Waits for queued work and releases everything. Accepts NULL. */
void gpu_context_free(gpu_context_t *ctx);
static inline void gpu_context_freep(gpu_context_t **ctx) {
        gpu_context_free(*ctx);
}
#define _cleanup_gpu_context_ __attribute__((cleanup(gpu_context_freep)))

void gpu_context_info(const gpu_context_t *ctx, gpu_device_info_t *ret);
/* The device's free and total memory now (cudaMemGetInfo). */
int gpu_memory_info(gpu_context_t *ctx, size_t *ret_free, size_t *ret_total);
/* Device memory the context's scratch buffers hold now (each grown to the
 * most any call asked of it). */
size_t gpu_scratch_bytes(const gpu_context_t *ctx);
/* The last failure's description ("" if none). */
const char *gpu_context_last_error(const gpu_context_t *ctx);
/* Waits until the context's queued work is done. */
int gpu_synchronize(gpu_context_t *ctx);

/* Pinned host memory. */
int gpu_host_alloc(gpu_context_t *ctx, void **ret, size_t bytes);
void gpu_host_free(gpu_context_t *ctx, void *p);
/* Pins existing host memory in place (the SRS, mapped from a file). */
int gpu_host_register(gpu_context_t *ctx, void *p, size_t bytes);
int gpu_host_unregister(gpu_context_t *ctx, void *p);

/* Device memory and copies on the context's stream (synchronous with
 * respect to the host for the host-side buffer: they return when done). */
int gpu_alloc(gpu_context_t *ctx, void **ret, size_t bytes);
void gpu_free(gpu_context_t *ctx, void *d);
int gpu_copy_to_device(gpu_context_t *ctx, void *d, const void *h, size_t bytes);
int gpu_copy_to_host(gpu_context_t *ctx, void *h, const void *d, size_t bytes);

typedef enum gpu_ntt_kind {
        GPU_NTT_FORWARD,       /* ntt_forward */
        GPU_NTT_INVERSE,       /* ntt_inverse */
        GPU_NTT_COSET_FORWARD, /* ntt_coset_forward */
        GPU_NTT_COSET_INVERSE, /* ntt_coset_inverse */
} gpu_ntt_kind_t;

/*
 * In-place NTT of 2^log_size elements with zk/ntt.h's meaning for roots,
 * order and shift (shift is read for the coset kinds only, may be NULL
 * otherwise, and must not be zero). log_size <= NTT_MAX_LOG_SIZE.
 */
int gpu_ntt_device(gpu_context_t *ctx, fr_t *d_a, unsigned log_size, ntt_roots_t roots,
                   gpu_ntt_kind_t kind, ntt_order_t order, const fr_t *shift);
int gpu_ntt(gpu_context_t *ctx, fr_t *a, unsigned log_size, ntt_roots_t roots, gpu_ntt_kind_t kind,
            ntt_order_t order, const fr_t *shift);

/*
 * r = sum k_i P_i over G1, as zk/msm.h's g1_msm_fr: affine points
 * (infinity allowed), Montgomery scalars, the same point as the CPU MSM
 * (its Jacobian coordinates may differ). n <= 2^31 - 1; n = 0 gives
 * infinity. The _device form waits for the GPU too (the result comes back
 * to the host).
 */
int gpu_g1_msm_fr(gpu_context_t *ctx, g1_jac_t *r, const g1_affine_t *points, const fr_t *scalars,
                  size_t n);
int gpu_g1_msm_fr_device(gpu_context_t *ctx, g1_jac_t *r, const g1_affine_t *d_points,
                         const fr_t *d_scalars, size_t n);

/*
 * n points of a .params G1 section (the zcash uncompressed encoding, 96
 * bytes each; host memory, pageable) decoded on the device into d_out
 * (zk/'s form), through d_staging (n * 96 bytes of device memory) and the
 * device word d_word. Waits for the GPU. *ret_bad is UINT64_MAX when every
 * point decodes, else the index of the first that zk/'s g1_decode (subgroup
 * unchecked) would refuse, whose reason the host decoder gives.
 */
int gpu_g1_decode_from_host(gpu_context_t *ctx, g1_affine_t *d_out, const void *encoded, uint64_t n,
                            void *d_staging, uint64_t *d_word, uint64_t *ret_bad);

/* Points from host memory (pinned: the SRS), scalars already on the device
 * (H's, computed there). */
int gpu_g1_msm_fr_host_points(gpu_context_t *ctx, g1_jac_t *r, const g1_affine_t *points,
                              const fr_t *d_scalars, size_t n);

/* The same over G2 (the b_g2 MSM when the GPU is where it finishes first),
 * host to host, or with the scalars on the device. */
int gpu_g2_msm_fr(gpu_context_t *ctx, g2_jac_t *r, const g2_affine_t *points, const fr_t *scalars,
                  size_t n);
int gpu_g2_msm_fr_host_points(gpu_context_t *ctx, g2_jac_t *r, const g2_affine_t *points,
                              const fr_t *d_scalars, size_t n);

/* Host-to-host MSMs copy their input in batches of this many points (0:
 * the default, 2^23) and work on each batch as soon as it has arrived. At
 * most 8 batches; larger inputs get larger ones. */
void gpu_set_msm_batch_points(gpu_context_t *ctx, size_t points);

/* Fixes the window bits of this context's MSMs, GPU_MSM_WINDOW_BITS_MIN
 * to _MAX (gpu-tuning.h); 0, the default, chooses them from the number of
 * points (cuda/README.md). Any c gives the same sum; it only moves time
 * between the bucket sums and the windows'. */
void gpu_set_msm_window_bits(gpu_context_t *ctx, unsigned bits);

/*
 * MSM H's window bits where the card has room for their buckets: at
 * c = 22, 12 windows instead of 13 (c = 20), 12/13 of the mixed additions
 * of level 0 (msm_fit_windows, cuda/README.md), for 16.8M buckets instead
 * of 5.8M, for the H of a 2^27 domain or larger (more than 2^26 bases:
 * bellperson's H has 2^27 - 1, snarkjs's 2^27). gpu_g1_msm_device_bytes(n,
 * bits) is the scratch such an MSM of n resident points works in (0 bits:
 * the size's default).
 */
#define GPU_MSM_H_WIDE_BITS 22
#define GPU_MSM_H_WIDE_MIN_POINTS (((size_t)1 << 26) + 1)
uint64_t gpu_g1_msm_device_bytes(size_t n, unsigned bits);

/* For benchmarks: after each MSM of this context, its steps' times on
 * stderr (the MSM then waits for its result). */
void gpu_set_msm_profile(gpu_context_t *ctx, bool on);

/*
 * The GPU stage of a Groth16 partition (zk/groth16.h's stages on the
 * device), queued on the context's stream. gpu_groth16_h computes H's
 * scalars from the evaluations a, b, c (host, 2^log_n each; only read,
 * and copied out when it returns) and leaves them in device memory that
 * the context owns (*ret_d_h, valid until the context's next H).
 * gpu_groth16_msm_g1_queue then queues the H, A, B_G1 and L MSMs and
 * returns once the witness w has been copied out; res stays borrowed.
 * gpu_groth16_collect waits for them, writes res, and gives the stage's
 * time on the stream, from gpu_groth16_h's first copy to the last MSM
 * (ret_stage_ms may be NULL); it must come before the context's next
 * gpu_groth16_h or MSM. Several partitions overlap on one GPU through one
 * context each. The b_g2 MSM is the caller's: on CPU threads (g2_msm_fr)
 * or here (gpu_g2_msm_fr).
 */
int gpu_groth16_h(gpu_context_t *ctx, enum groth16_h_convention conv, unsigned log_n, const fr_t *a,
                  const fr_t *b, const fr_t *c, fr_t **ret_d_h);

/* Device copies of a key's G1 bases and B_G2's (gpu_alloc'ed, pk's
 * counts), NULL for a role whose bases stay in host memory (best pinned:
 * gpu_host_register); and of its densities' words then ranks (2 *
 * ceil(n_wires / 64) words), NULL where they are copied per partition. */
typedef struct gpu_pk_points {
        const g1_affine_t *a, *b1, *l, *h;
        const uint64_t *a_density, *b_density;
        const g2_affine_t *b2;
        unsigned h_window_bits; /* MSM H's c where set (GPU_MSM_H_WIDE_BITS), else 0 */
} gpu_pk_points_t;

/* Where a partition's GPU stage spent its time, on the stream (CUDA events):
 * a, b, c made on the device (the compact witness's upload included; 0 when
 * they came from the host), H's transforms and pointwise step, then each G1
 * MSM with its density gather. Measured alone, they add up to the stage;
 * with partitions overlapping on other lanes each includes their share.
 * idle_ms: the stream's wait before the stage, from the context's previous
 * partition's end (gpu_groth16_partition_done) to this stage's first work,
 * the host's hand-over from one partition to the next (0 for a context's
 * first partition). */
typedef struct gpu_stage_split {
        float abc_ms, ntt_ms, msm_h_ms, msm_a_ms, msm_b1_ms, msm_l_ms;
        float idle_ms;
} gpu_stage_split_t;

/* dev: what of the key is on the device (NULL: nothing), which spares the
 * MSMs their copies over PCIe. */
int gpu_groth16_msm_g1_queue(gpu_context_t *ctx, const struct groth16_pk *pk,
                             const gpu_pk_points_t *dev, const fr_t *w, const fr_t *d_h,
                             struct groth16_msm_results *res);
/* ret_split may be NULL. */
int gpu_groth16_collect(gpu_context_t *ctx, double *ret_stage_ms, gpu_stage_split_t *ret_split);
/* After the collect and before the context's next gpu_groth16_h (B's
 * scalars lie in the part of its a, b, c that the next H overwrites), the
 * b_g2 MSM on the device over B's scalars as the queue gathered them there
 * (no host gather, no copy); points from dev->b2
 * where the key's are on the card (the scalars' 0s and 1s then kept apart, as
 * in the G1 MSMs), else from host memory (best pinned). */
int gpu_groth16_b_g2(gpu_context_t *ctx, const struct groth16_pk *pk, const gpu_pk_points_t *dev,
                     g2_jac_t *ret);

/* Marks the end of a partition's work on the context's stream (after its
 * B_G2 tail, where that runs here): the next stage's idle_ms counts from
 * there. */
int gpu_groth16_partition_done(gpu_context_t *ctx);

/* Self-test hooks: r[i] = a[i] * b[i] on the GPU, host arrays. */
int gpu_test_fr_mul(gpu_context_t *ctx, fr_t *r, const fr_t *a, const fr_t *b, size_t n);
int gpu_test_fp_mul(gpu_context_t *ctx, fp_t *r, const fp_t *a, const fp_t *b, size_t n);

#ifdef __cplusplus
}
#endif
