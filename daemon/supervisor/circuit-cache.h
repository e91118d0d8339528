/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The circuits whose shared bytes (SRS, PCE) are reserved, each in a
 * permanent reservation (reservation.h). A circuit's reservation outlives
 * its last partition, because the provers keep the key they loaded: it goes
 * back to the budget when the circuit is evicted (EvictSRS, or to admit a
 * partition that needs the room, least recently used first), which also has
 * the provers drop the key. Each of n_provers holds its own copy of a
 * circuit's key, so a circuit reserves shared_bytes + key_bytes * (n_provers - 1).
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
        unsigned n_provers;
        struct circuit *circuits;
        uint64_t clock;          /* ticks when a circuit's last partition ends (LRU) */
        uint64_t reserved_bytes; /* the circuits' reservations together */
};

void circuit_cache_init(struct circuit_cache *cache, struct budget *budget);
/* Frees the entries; their bytes stay with the budget, which goes with them. */
void circuit_cache_done(struct circuit_cache *cache);

/* The shared bytes a partition of shape needs now: its circuit's, unless reserved. */
uint64_t circuit_cache_need(const struct circuit_cache *cache, const struct job_shape *shape);
/* A circuit's bytes with a copy of its key for every prover. */
uint64_t circuit_cache_bytes(const struct circuit_cache *cache, const struct job_shape *shape);
/* One more running partition of shape's circuit. A circuit not reserved yet takes its
 * circuit_cache_need() bytes out of the partition's reservation `from` (which must hold
 * them in its rest phase) into its own permanent one. -ENOMEM: nothing changed. */
int circuit_cache_ref(struct circuit_cache *cache, const struct job_shape *shape,
                      struct reservation *from);
/* A partition of circuit id ended. The last one keeps the reservation unless an eviction
 * waits for it; returns the bytes that went back to the budget. */
uint64_t circuit_cache_unref(struct circuit_cache *cache, const char *id);
/* Evicts idle circuits (no partition, no preload; not `keep`), least recently used
 * first, until need fits. Returns whether it does. */
bool circuit_cache_evict_for(struct circuit_cache *cache, uint64_t need, const char *keep);
/* PreloadSRS, Preload=: see scheduler_preload. */
int circuit_cache_preload(struct circuit_cache *cache, const char *id, uint64_t shared_bytes,
                          uint64_t key_bytes, bool *ret_already);
/* EvictSRS: see scheduler_evict. */
int circuit_cache_evict(struct circuit_cache *cache, const char *id, uint64_t *ret_freed_bytes);

typedef void (*circuit_cache_fn)(void *userdata, const char *circuit_id, uint64_t bytes,
                                 unsigned refs, bool preloaded);
void circuit_cache_foreach(const struct circuit_cache *cache, circuit_cache_fn fn, void *userdata);
