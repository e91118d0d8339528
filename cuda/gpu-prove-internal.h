/* SPDX-License-Identifier: Apache-2.0 */
/* What gpu-prove.c (lanes, partitions) and gpu-prove-srs.c (the keys'
 * bases, pinned or on the card) share of a GPU prover. */
#pragma once

#include <pthread.h>

#include "cuda/gpu-prove.h"
#include "cuda/pce-eval.h"

/* A key whose bases (and densities) were copied to the device when it was
 * registered. */
#define RESIDENT_KEYS_MAX 8
/* Its arrays: the G1 roles (gpu_key_role_t), then these. */
enum resident_role {
        RESIDENT_A_DENSITY = GPU_KEY_G1_ROLES,
        RESIDENT_B_DENSITY,
        RESIDENT_B2,
        RESIDENT_ROLES,
};
struct resident_key {
        const struct groth16_pk *pk;
        void *d_arrays[RESIDENT_ROLES]; /* per role, NULL where it shares an array */
        gpu_pk_points_t points;
        uint64_t lane_extra_bytes; /* what its MSM H's wider windows add to a lane */
};

/*
 * A lane: one context (stream, scratch) that one partition's GPU stage
 * holds from gpu_prove_start until it is collected, so that the next
 * partition's copies and transforms overlap its MSMs on another lane.
 */
struct lane {
        gpu_context_t *ctx;             /* NULL until first used */
        gpu_prove_partial_t *busy;      /* the partial whose GPU work it holds */
        gpu_pce_witness_t *pce_witness; /* compact witnesses: NULL until first used */
        unsigned log_domain;            /* the largest partition it has worked on */
        size_t n_vars;
        size_t scratch_bytes; /* its context's scratch after its last partition */
};

/* Pinned host memory for compact witnesses (gpu-prove-pinned.c): as many as
 * partitions may wait for lanes at once, beyond which they upload from their
 * own memory. */
#define PINNED_BUFFERS_MAX 4
struct pinned_buffer {
        void *p;
        size_t bytes;
        bool busy;
};

struct gpu_prover {
        gpu_context_t *ctx; /* pinning, resident copies, device queries */
        int ordinal;
        struct resident_key resident[RESIDENT_KEYS_MAX];
        unsigned cpu_threads;
        gpu_g2_placement_t placement;
        int numa_node;
        pthread_mutex_t lock;   /* lanes, partials' states, rates */
        pthread_cond_t changed; /* a lane or a partial's state changed */
        struct lane lanes[GPU_LANES_MAX];
        struct gpu_tuning tuning; /* checked, fixed when it opened */
        bool msm_profile;         /* gpu_prover_set_msm_profile */
        uint64_t started;         /* partials started, for picking the oldest */
        /* Measured rates, ns per point (0: not measured yet). */
        double gpu_stage_ns_per_point; /* per domain point */
        double cpu_g2_ns_per_point, gpu_g2_ns_per_point;
        struct pinned_buffer pinned[PINNED_BUFFERS_MAX]; /* under lock: busy */
};

/* Device memory one partition of pk's shape works in besides the bases. */
uint64_t partition_device_bytes(const struct groth16_pk *pk);
/* The same on one of the prover's lanes: with its MSM H's wider windows
 * where its key is resident with them (resident_key_widen). */
uint64_t lane_partition_bytes(const gpu_prover_t *prover, const struct groth16_pk *pk);
/* Gives k's MSM H GPU_MSM_H_WIDE_BITS where the card, with k's arrays on
 * it, still holds its circuit's PCE and every lane's partition with the
 * wider windows' scratch besides; else leaves it by size. */
void resident_key_widen(gpu_prover_t *prover, struct resident_key *k);
uint64_t partition_device_bytes_shape(unsigned log_domain_size, uint64_t n_vars);
/* Room a key's circuit keeps on the card besides (its PCE, uploaded later). */
uint64_t circuit_device_bytes_shape(unsigned log_domain_size);
/* A density's words and ranks on the device (0 for NULL): wire_density_bytes. */
size_t density_device_bytes(const struct wire_density *d);
/* Fills the roles after the G1 ones (the densities, B_G2) with pk's host arrays. */
void resident_extras(const struct groth16_pk *pk, const void *host[RESIDENT_ROLES],
                     size_t bytes[RESIDENT_ROLES]);
/* k holds pk's arrays now: its points from its device arrays, role i's in owner[i]'s. */
void resident_key_set(struct resident_key *k, const struct groth16_pk *pk,
                      const size_t owner[RESIDENT_ROLES]);
/* Copies each role's host array (bytes[i] of it; none where 0) into k's device memory, a
 * density as density_gather_step reads it; on failure frees what was copied. */
int copy_arrays(gpu_prover_t *prover, struct resident_key *k,
                const void *const host[RESIDENT_ROLES], const size_t bytes[RESIDENT_ROLES]);
/* A free slot for a resident key, or NULL. */
struct resident_key *resident_slot(gpu_prover_t *prover);
/* Whether bases of `need` bytes go to the card beside a partition of partition_bytes, as
 * the tuning's SrsResidence says: 1 yes, 0 no (host memory; said in the log), or a negative
 * errno where SrsResidence=device cannot be met. */
int resident_fits(gpu_prover_t *prover, uint64_t need, uint64_t partition_bytes);
/* pk's bases on the card, or NULL where they stay in host memory. */
const gpu_pk_points_t *resident_points(const gpu_prover_t *prover, const struct groth16_pk *pk);
/* Frees every resident key's device copies. */
void resident_keys_free(gpu_prover_t *prover);

/* A copy of w in a pinned buffer of the prover's (*ret points into it, until
 * pinned_put gives *ret_buffer back); -EBUSY when all are in use, or a
 * negative errno where pinned memory could not be had. */
int compact_witness_pin(gpu_prover_t *prover, const struct pce_compact_witness *w,
                        struct pce_compact_witness *ret, struct pinned_buffer **ret_buffer);
/* Gives a buffer back (NULL: nothing). Its copies must have left it. */
void pinned_put(gpu_prover_t *prover, struct pinned_buffer *b);
/* Frees the pinned buffers; none may be in use. */
void pinned_free_all(gpu_prover_t *prover);
