/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The split GPU prover of one device:
 *
 *   gpu_prove_start   queues the GPU stage (H by NTTs, the H, A, B_G1 and
 *                     L MSMs) on a lane of its own and returns once a, b,
 *                     c and the witness have crossed to the device (a, b, c
 *                     may then be released); the B_G2 tail has started on
 *                     CPU threads of its own, or runs on the GPU after the
 *                     G1 MSMs when that finishes first;
 *   gpu_prove_finish  waits for the partition's GPU work, joins the tail
 *                     and assembles the proof with fresh r, s.
 *
 * Lanes: one CUDA context (stream and scratch) per partition in flight, so
 * that partition N + 1's copies and transforms overlap partition N's
 * MSMs. At most the tuning's lanes (gpu-tuning.h: 1..4, default 2); a lane
 * past the first is opened only while the card's free memory holds another
 * partition. A
 * start that finds every lane busy collects the oldest partition's GPU
 * work itself (its results wait in its partial), so a single thread may
 * start several partitions before it finishes them.
 *
 * Where the tail runs: on the CPU it overlaps the GPU stage (its cost is
 * max(gpu stage, cpu tail)); on the GPU it follows it (gpu stage + gpu
 * tail). GPU_G2_AUTO picks the smaller from the rates measured on this
 * prover's earlier partitions (trying each place once first). A key whose
 * bases are on the card has its tail there whatever the placement: its
 * points are there, and its 0s and 1s stay out of the digits as in the G1
 * MSMs.
 *
 * Threads: starts come from one thread at a time; finishes (and
 * gpu_prove_partial_free) may come from another, in any order.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "cuda/gpu-tuning.h"
#include "cuda/gpu.h"
#include "cuda/pce-eval.h"

typedef enum gpu_g2_placement {
        GPU_G2_AUTO,
        GPU_G2_CPU,
        GPU_G2_GPU,
} gpu_g2_placement_t;

typedef struct gpu_prover gpu_prover_t;
typedef struct gpu_prove_partial gpu_prove_partial_t;

typedef struct gpu_prove_timings {
        uint64_t gpu_stage_usec; /* H and the G1 MSMs */
        uint64_t g2_usec;        /* the B_G2 tail */
        bool g2_on_gpu;
        uint64_t overlap_usec;   /* tail time hidden behind the GPU stage */
        uint64_t upload_bytes;   /* host to device for the partition (the key's bases aside) */
        gpu_stage_split_t split; /* the GPU stage's parts */
} gpu_prove_timings_t;

/* "a, b, c X ms, H Y ms, MSMs: H Z ms, A ..., B_G1 ..., L ..." into buf. */
void gpu_stage_split_format(const gpu_stage_split_t *split, char *buf, size_t size);

/* Opens device `ordinal` with the operator's choices (tuning, checked
 * here: -EINVAL out of range; copied, fixed for the prover's life); the CPU
 * tail uses cpu_threads (0: all). The calling thread and its later
 * allocations move to the GPU's NUMA node where libnuma knows it. -ENODEV
 * without a usable GPU (say so and use the CPU prover). */
int gpu_prover_new_tuned(int ordinal, unsigned cpu_threads, gpu_g2_placement_t placement,
                         const struct gpu_tuning *tuning, gpu_prover_t **ret);
/* The same with gpu_tuning_defaults. */
int gpu_prover_new(int ordinal, unsigned cpu_threads, gpu_g2_placement_t placement,
                   gpu_prover_t **ret);
void gpu_prover_free(gpu_prover_t *prover);
const char *gpu_prover_device_name(const gpu_prover_t *prover);
/* The device's free and total memory now. */
int gpu_prover_memory(gpu_prover_t *prover, uint64_t *ret_free, uint64_t *ret_total);
/* The most scratch a lane's context has held after a partition, and the
 * device memory set aside for one of pk's partitions (which decides where
 * the SRS lives and how many lanes open): the first must stay below. */
uint64_t gpu_prover_scratch_peak(gpu_prover_t *prover);
uint64_t gpu_prover_partition_bytes(const struct groth16_pk *pk);
/* The NUMA node the prover runs on, -1 if unknown. */
int gpu_prover_numa_node(const gpu_prover_t *prover);

/* Each MSM of the lanes' partitions profiled (gpu_set_msm_profile: its steps'
 * times on stderr, each MSM waited for): for the benchmarks' and tests' --profile,
 * never the daemon's. Call it while no partition is in flight. */
void gpu_prover_set_msm_profile(gpu_prover_t *prover, bool on);

/* Partitions this prover keeps in flight at most (the tuning's lanes). */
unsigned gpu_prover_lanes(const gpu_prover_t *prover);

/* Pins pk's base arrays for the GPU (cudaHostRegister on memory the caller
 * allocated and faulted in) and copies its bases (G1 and B_G2) and densities
 * to the card as the tuning's SRS residence says (-ENOMEM with "device" when
 * they do not fit beside a partition); gpu_prover_unregister_pk undoes both,
 * once no partition of pk is in flight. Call them from the thread that
 * starts. */
int gpu_prover_register_pk(gpu_prover_t *prover, const struct groth16_pk *pk);
void gpu_prover_unregister_pk(gpu_prover_t *prover, const struct groth16_pk *pk);
/* Whether pk's bases (A, B_G1, L, H and B_G2) are on the card since
 * gpu_prover_register_pk: the MSMs then read them there alone (the B_G2 tail always runs
 * on the card), and the caller may free their host arrays (and set those pointers to
 * NULL) until gpu_prover_unregister_pk. */
bool gpu_prover_pk_resident(const gpu_prover_t *prover, const struct groth16_pk *pk);

/*
 * A key's G1 bases straight from its .params file to the card, decoded there
 * (gpu_g1_decode_from_host), so that host memory never holds them: a 32 GiB
 * sector's 38 GiB. gpu_prover_stream_begin says whether they go there (the
 * tuning's SrsResidence, as gpu_prover_register_pk decides it, from the
 * counts alone); gpu_key_stream_put takes each section in pieces as it is
 * read; gpu_prover_stream_adopt makes them the bases of the key then built
 * (its G1 arrays NULL) and copies its B_G2 bases (decoded on the host) and densities
 * beside them: room for those is counted from the start.
 */
typedef struct gpu_key_stream gpu_key_stream_t;
typedef enum gpu_key_role {
        GPU_KEY_A,
        GPU_KEY_B1,
        GPU_KEY_L,
        GPU_KEY_H,
        GPU_KEY_G1_ROLES,
} gpu_key_role_t;
struct gpu_key_shape {
        uint64_t points[GPU_KEY_G1_ROLES];
        uint64_t n_vars;
        unsigned log_domain_size;
};
/* 1 and *ret when the bases go to the card, 0 when they stay in host memory, or a
 * negative errno (-ENOMEM where SrsResidence=device cannot be met). */
int gpu_prover_stream_begin(gpu_prover_t *prover, const struct gpu_key_shape *shape,
                            gpu_key_stream_t **ret);
/* n points of role from index first, 96 bytes each in the file's encoding (pageable
 * memory, read during the call only): 0; 1 with *ret_bad the role's index of the first
 * point the decoder refuses; or a negative errno. */
int gpu_key_stream_put(gpu_key_stream_t *s, gpu_key_role_t role, uint64_t first,
                       const void *encoded, uint64_t n, uint64_t *ret_bad);
/* The streamed bases become pk's (its shape the stream's, its B_G2 bases and densities
 * copied now).
 * Consumes s whatever the outcome; -EINVAL for a stream that lacks points or a pk of
 * another shape. */
int gpu_prover_stream_adopt(gpu_prover_t *prover, gpu_key_stream_t *s, const struct groth16_pk *pk);
/* Drops a stream that will not be adopted (its device memory too). Accepts NULL. */
void gpu_key_stream_free(gpu_key_stream_t *s);

/* pk and w stay borrowed until gpu_prove_finish; a, b, c (2^log each) only
 * during this call. */
int gpu_prove_start(gpu_prover_t *prover, const struct groth16_pk *pk, const fr_t *w, const fr_t *a,
                    const fr_t *b, const fr_t *c, gpu_prove_partial_t **ret);
/*
 * gpu_prove_start from the partition's compact witness w (pce-eval.h; w
 * borrowed during this call only) and its circuit's PCE on this prover's
 * device (gpu_prover_upload_pce): a, b, c and the full witness are made on
 * the device, so the B_G2 tail runs there too (no host witness for the
 * CPU's).
 */
int gpu_prove_start_compact(gpu_prover_t *prover, const struct groth16_pk *pk, const gpu_pce_t *pce,
                            const struct pce_compact_witness *w, gpu_prove_partial_t **ret);
/* pce's matrices on the prover's device, for gpu_prove_start_compact
 * (gpu_pce_upload; free with gpu_pce_free once no partition uses it). */
int gpu_prover_upload_pce(gpu_prover_t *prover, const struct pce *pce, gpu_pce_t **ret);

/* Consumes partial; timings may be NULL. */
int gpu_prove_finish(gpu_prover_t *prover, gpu_prove_partial_t *partial,
                     struct groth16_proof *proof, gpu_prove_timings_t *timings);
/* The same, giving the MSMs' results instead of the proof (no r, s: two
 * paths to the same partition compare bit for bit). */
int gpu_prove_finish_msm(gpu_prover_t *prover, gpu_prove_partial_t *partial,
                         struct groth16_msm_results *ret, gpu_prove_timings_t *timings);
/* Joins and drops a partial that will not be finished. */
void gpu_prove_partial_free(gpu_prove_partial_t *partial);

/* The placement rule, exposed for tests: given the rates measured so far
 * (0: not yet measured), true when the tail should run on the GPU. */
bool gpu_g2_choose_gpu(gpu_g2_placement_t placement, double gpu_stage_ns_per_point,
                       double cpu_g2_ns_per_point, double gpu_g2_ns_per_point,
                       uint64_t domain_points, uint64_t g2_points);
