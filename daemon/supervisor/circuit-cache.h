/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The circuits whose shared bytes (SRS, PCE) are reserved, each in a
 * permanent reservation (reservation.h). A circuit's reservation outlives
 * its last partition, because the provers keep the key they loaded: it goes
 * back to the budget when the circuit is evicted (EvictSRS, or to admit a
 * partition that needs the room, least recently used first), which also has
 * the provers drop the key.
 *
 * What a circuit reserves is what its processes hold in host memory:
 *   key   each of n_provers may load its own copy: key_bytes (as read) for a
 *         prover until it reports what it keeps of the key once loaded (the
 *         CUDA one moves the G1 bases to its card and frees their host copy,
 *         keeping B_G2), again from its restart on;
 *   PCE   its file's bytes while a worker may map it (a partition in the full
 *         form runs) or a prover may load it (one that has not yet proved a
 *         partition of it in the compact form since it started: the CUDA
 *         prover uploads the PCE then and drops its host copy); then what the
 *         provers report they keep of it.
 * A fresh circuit reserves shared_bytes + key_bytes * (n_provers - 1), all of
 * it pessimistic; reports shrink it, a prover's restart grows it back.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "daemon/executor/executor.h"
#include "daemon/supervisor/budget.h"
#include "daemon/supervisor/job.h"
#include "daemon/supervisor/reservation.h"

struct circuit;

struct circuit_cache {
        struct budget *budget;
        struct executor *executor; /* has the provers drop evicted keys; NULL until set */
        unsigned n_provers;        /* at most EXECUTOR_MAX_PROVERS */
        struct circuit *circuits;
        uint64_t clock;          /* ticks when a circuit's last partition ends (LRU) */
        uint64_t reserved_bytes; /* the circuits' reservations together */
};

void circuit_cache_init(struct circuit_cache *cache, struct budget *budget);
/* Frees the entries; their bytes stay with the budget, which goes with them. */
void circuit_cache_done(struct circuit_cache *cache);

/* The shared bytes a partition of shape needs now in witness_form (enum ipc_witness_form):
 * its circuit's, unless reserved; the PCE's when a full-form partition's workers would map
 * a PCE that is reserved no more. */
uint64_t circuit_cache_need(const struct circuit_cache *cache, const struct job_shape *shape,
                            uint32_t witness_form);
/* A fresh circuit's bytes: its PCE and a copy of its key for every prover. */
uint64_t circuit_cache_bytes(const struct circuit_cache *cache, const struct job_shape *shape);
/* One more running partition of shape's circuit, in witness_form. The circuit_cache_need()
 * bytes move out of the partition's reservation `from` (which must hold them in its rest
 * phase) into the circuit's permanent one. -ENOMEM: nothing changed. */
int circuit_cache_ref(struct circuit_cache *cache, const struct job_shape *shape,
                      uint32_t witness_form, struct reservation *from);
/* A partition of circuit id, admitted in witness_form, ended. The last one keeps the
 * reservation unless an eviction waits for it; returns the bytes that went back to the
 * budget. */
uint64_t circuit_cache_unref(struct circuit_cache *cache, const char *id, uint32_t witness_form);
/* Evicts idle circuits (no partition, no preload; not `keep`), least recently used
 * first, until need fits. Returns whether it does. */
bool circuit_cache_evict_for(struct circuit_cache *cache, uint64_t need, const char *keep);
/* PreloadSRS, Preload=: see scheduler_preload. */
int circuit_cache_preload(struct circuit_cache *cache, const char *id, uint64_t shared_bytes,
                          uint64_t key_bytes, bool *ret_already);
/* EvictSRS: see scheduler_evict. */
int circuit_cache_evict(struct circuit_cache *cache, const char *id, uint64_t *ret_freed_bytes);

/* Prover `prover` keeps key_host_bytes of the key at key_path (of kind, as job_kind_key
 * names it) in host memory: its answer to a preload or a proof. Every circuit of that key
 * reserves that for the prover from now on, until circuit_cache_prover_lost. */
void circuit_cache_key_held(struct circuit_cache *cache, enum job_kind kind, const char *key_path,
                            unsigned prover, uint64_t key_host_bytes);
/* Prover `prover` proved a compact-form partition of circuit id: it has the circuit's PCE
 * on its device and keeps pce_host_bytes of it in host memory. */
void circuit_cache_pce_held(struct circuit_cache *cache, const char *id, unsigned prover,
                            uint64_t pce_host_bytes);
/* Prover `prover`'s process ended: its successor loads every key and PCE as for the first
 * time, so each circuit reserves them for it in full again (whether they fit or not:
 * admission waits until they do). */
void circuit_cache_prover_lost(struct circuit_cache *cache, unsigned prover);

typedef void (*circuit_cache_fn)(void *userdata, const char *circuit_id, uint64_t bytes,
                                 unsigned refs, bool preloaded);
void circuit_cache_foreach(const struct circuit_cache *cache, circuit_cache_fn fn, void *userdata);
