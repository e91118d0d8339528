/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The prover's proving engine, in the split shape every backend has:
 *
 *   prove_start    H from a, b, c (NTTs) and the G1 MSMs (H, A, B_G1, L);
 *                  once it returns, a, b and c are no longer read, so the
 *                  prover unmaps them at once (first release phase);
 *   prove_finish   the B_G2 MSM (the tail, run on its own thread so that
 *                  it overlaps the next partition's prove_start) and the
 *                  assembly with fresh r, s.
 *
 * A backend is a table of operations; the CPU one (prover-backend-cpu.c)
 * runs zk/groth16.h's stages, a CUDA one goes behind the same table. The
 * inputs say nothing about where the work runs, and what prove_finish says
 * of its times (struct prover_timings) nothing about how it measured them.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "circuits/pce-compact.h"
#include "formats/bellperson_params.h"
#include "zk/groth16.h"

struct prover_inputs {
        /* The proving key: its h_convention and log_domain_size decide the
         * H computation. Borrowed until prove_finish returns. */
        const struct groth16_pk *pk;
        /* pk->n_vars witness values; borrowed until prove_finish returns. */
        const fr_t *w;
        /* The evaluations, 2^log_domain_size each: only read during
         * prove_start, which may overwrite them (they are the caller's
         * private copy). */
        fr_t *a, *b, *c;
        unsigned log_domain_size; /* == pk->log_domain_size */
        /* Or, instead of w and a, b, c: the compact witness (circuits/pce-compact.h),
         * borrowed during prove_start only, and its circuit's PCE file, whose matrices a
         * CUDA backend keeps on the card to make a, b, c and w there. A backend without
         * that refuses it (-EOPNOTSUPP). */
        const struct pce_compact_witness *compact;
        const char *circuit_path;
};

struct prover_backend;
/* What prove_start leaves for prove_finish. */
struct prover_partial;

/*
 * A partition's work as its backend measured it, for the job's gpu_compute_ms (the
 * supervisor sums stage and tail over the partitions). The prover cannot time it from
 * outside: its clock around prove_start also runs while the start waits (the CUDA backend
 * for a free lane, collecting another partition's results on the way; a remote prover in
 * its queue), which is another proof's time. A time a backend did not measure stays
 * unmeasured, and the prover takes the wall time of the call in its place. A backend that
 * spreads a partition over several devices gives their busy times summed.
 */
struct prover_timings {
        bool stage_measured, tail_measured;
        uint64_t stage_usec; /* prove_start's work: H and the G1 MSMs, on the device */
        uint64_t tail_usec;  /* the B_G2 MSM, wherever it ran */
};

/* Where a backend runs, for the supervisor's status. */
struct prover_device_info {
        int ordinal; /* the GPU's, -1 on the CPU */
        char name[64];
        uint64_t memory_total_bytes, memory_free_bytes; /* the GPU's; 0 on the CPU */
};

struct prover_backend_ops {
        const char *name; /* "cpu", "cuda" */
        /* Fills what the backend knows; NULL for the CPU. */
        int (*device_info)(struct prover_backend *backend, struct prover_device_info *ret);
        int (*prove_start)(struct prover_backend *backend, const struct prover_inputs *inputs,
                           struct prover_partial **ret);
        /* Consumes partial, whatever the outcome. On success the backend fills
         * *ret_timings (may be NULL) whole, a time it did not measure marked so. */
        int (*prove_finish)(struct prover_backend *backend, struct prover_partial *partial,
                            struct groth16_proof *ret, struct prover_timings *ret_timings);
        /* A key was just loaded: the backend takes it in now rather than at its first
         * partition (the CUDA one pins it and copies its bases to the card where they
         * fit). Returns 1 when the backend holds every base (A, B_G1, L, H, B_G2) itself,
         * so that their host copy may be freed (prover_keys_release_bases); 0 when it
         * reads them from host memory. May be NULL (0). */
        int (*adopt_key)(struct prover_backend *backend, const struct groth16_pk *pk);
        /* A key is about to be loaded: fills *ret and returns 1 when the backend would take
         * a .params file's G1 bases as they are read (the CUDA one decodes them on its card
         * where they fit, so that host memory never holds them; adopt_key then makes them
         * the loaded key's, and returns 1), 0 when not. key_sink_done follows the load
         * whatever its outcome, and drops bases no key adopted. Both may be NULL. */
        int (*key_sink)(struct prover_backend *backend, struct bellperson_g1_sink *ret);
        void (*key_sink_done)(struct prover_backend *backend);
        /* The key is about to be freed (an evicted circuit): let go of it. May be NULL. */
        void (*forget_key)(struct prover_backend *backend, const struct groth16_pk *pk);
        /* Drops a partial that will not be finished (a canceled task). */
        void (*partial_free)(struct prover_partial *partial);
        void (*free)(struct prover_backend *backend);
};

struct prover_backend {
        const struct prover_backend_ops *ops;
};

/* The CPU backend; threads per stage, 0 for all. Returns 0 or -ENOMEM. */
int prover_backend_cpu_new(unsigned threads, struct prover_backend **ret);

struct gpu_tuning; /* cuda/gpu-tuning.h: [GPU] of cuzkd.conf(5) */

/* The CUDA backend on device `ordinal` (built with the cuda feature only), opened
 * with tuning (NULL: the defaults). -ENODEV without a usable device, -EINVAL for a
 * tuning out of range. */
int prover_backend_cuda_new(int ordinal, unsigned threads, const struct gpu_tuning *tuning,
                            struct prover_backend **ret);

/* A prover's device: a GPU ordinal (>= 0), or one of these. */
#define PROVER_DEVICE_CPU (-1)  /* the CPU backend, as configured */
#define PROVER_DEVICE_AUTO (-2) /* GPU 0 where built and usable, else the CPU (said once) */

/* The backend for a prover's device; a GPU opens with tuning (NULL: the defaults),
 * the CPU ignores it. A GPU ordinal that cannot be opened is an error (-ENODEV,
 * -EINVAL past the device count, -EOPNOTSUPP without CUDA in this build): that GPU
 * is out of service, and falling back to the CPU would hide it. */
int prover_backend_new(int device, unsigned threads, const struct gpu_tuning *tuning,
                       struct prover_backend **ret);
/* What the backend says of its device (the CPU's when it has no device_info). */
void prover_backend_device_info(struct prover_backend *backend, struct prover_device_info *ret);

static inline void prover_backend_freep(struct prover_backend **backend) {
        if (*backend)
                (*backend)->ops->free(*backend);
}
