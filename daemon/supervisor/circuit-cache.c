/* SPDX-License-Identifier: Apache-2.0 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "daemon/executor/ipc.h"
#include "daemon/supervisor/circuit-cache.h"

/* What one prover reported it keeps of a circuit since its process started. */
struct circuit_prover {
        bool key_known, pce_known;
        uint64_t key_host_bytes, pce_host_bytes;
};

struct circuit {
        struct circuit *next;
        char id[sizeof(((struct job_shape *)NULL)->circuit_id)];
        struct reservation reservation; /* permanent: circuit_held_bytes() */
        uint64_t pce_bytes, key_bytes;  /* the files' sizes: what a first load holds */
        unsigned refs;                  /* running partitions, plus one while preloaded */
        unsigned full_refs;             /* running partitions in the full form */
        bool preloaded;
        bool evict_when_idle; /* EvictSRS came while partitions ran */
        uint64_t last_used;   /* cache->clock when its last partition ended */
        struct circuit_prover provers[EXECUTOR_MAX_PROVERS];
};

void circuit_cache_init(struct circuit_cache *cache, struct budget *budget) {
        assert(cache);
        assert(budget);
        *cache = (struct circuit_cache){.budget = budget, .n_provers = 1};
}

void circuit_cache_done(struct circuit_cache *cache) {
        assert(cache);
        while (cache->circuits) {
                struct circuit *c = cache->circuits;

                cache->circuits = c->next;
                free(c);
        }
}

static struct circuit **circuit_link(struct circuit_cache *cache, const char *id) {
        struct circuit **p;

        for (p = &cache->circuits; *p && strcmp((*p)->id, id); p = &(*p)->next)
                ;
        return p;
}

static struct circuit *circuit_find(const struct circuit_cache *cache, const char *id) {
        for (struct circuit *c = cache->circuits; c; c = c->next)
                if (!strcmp(c->id, id))
                        return c;
        return NULL;
}

uint64_t circuit_cache_bytes(const struct circuit_cache *cache, const struct job_shape *shape) {
        assert(cache);
        assert(shape);
        assert(shape->shared_bytes >= shape->key_bytes);
        /* Any prover may get one of its partitions, and keeps the key once loaded. */
        return shape->shared_bytes + shape->key_bytes * (cache->n_provers - 1);
}

/* What c's processes hold, or may hold at a load, with full_refs full-form partitions. */
static uint64_t circuit_held_bytes(const struct circuit_cache *cache, const struct circuit *c,
                                   unsigned full_refs) {
        uint64_t keys = 0, pce = 0;
        bool pce_settled = full_refs == 0; /* no worker maps it */

        for (unsigned i = 0; i < cache->n_provers; i++) {
                const struct circuit_prover *p = &c->provers[i];

                keys += p->key_known ? p->key_host_bytes : c->key_bytes;
                if (!p->pce_known)
                        pce_settled = false; /* it may load the PCE yet */
                else if (p->pce_host_bytes > pce)
                        pce = p->pce_host_bytes; /* a mapping of the file: shared pages */
        }
        if (!pce_settled || pce > c->pce_bytes)
                pce = c->pce_bytes;
        return keys + pce;
}

/* Moves c's reservation to what its processes hold now, after a report or a change of its
 * partitions; returns the bytes that went back to the budget. */
static uint64_t circuit_update(struct circuit_cache *cache, struct circuit *c) {
        const uint64_t was = reservation_bytes(&c->reservation);
        const uint64_t now = circuit_held_bytes(cache, c, c->full_refs);

        if (now == was)
                return 0;
        reservation_resize(&c->reservation, now);
        cache->reserved_bytes = cache->reserved_bytes - was + now;
        log_info("circuit %s: %" PRIu64 " bytes reserved for what its provers and workers hold "
                 "(was %" PRIu64 ")",
                 c->id, now, was);
        return now < was ? was - now : 0;
}

uint64_t circuit_cache_need(const struct circuit_cache *cache, const struct job_shape *shape,
                            uint32_t witness_form) {
        const struct circuit *c;

        assert(cache);
        assert(shape);
        c = circuit_find(cache, shape->circuit_id);
        if (!c)
                return circuit_cache_bytes(cache, shape);
        if (witness_form != IPC_WITNESS_FULL)
                return 0;
        /* Its workers map the PCE: reserved again if the provers' reports let it go. */
        return circuit_held_bytes(cache, c, c->full_refs + 1) - reservation_bytes(&c->reservation);
}

/* Adds a circuit with one reference, its bytes moved out of `from`. */
static int circuit_new(struct circuit_cache *cache, const char *id, uint64_t pce_bytes,
                       uint64_t key_bytes, struct reservation *from, bool preloaded,
                       unsigned full_refs) {
        struct circuit *c;
        uint64_t bytes;

        c = calloc(1, sizeof(*c));
        if (!c)
                return -ENOMEM;
        snprintf(c->id, sizeof(c->id), "%s", id);
        c->pce_bytes = pce_bytes;
        c->key_bytes = key_bytes;
        c->full_refs = full_refs;
        bytes = circuit_held_bytes(cache, c, full_refs);
        reservation_into_permanent(from, bytes, &c->reservation);
        c->refs = 1;
        c->preloaded = preloaded;
        c->next = cache->circuits;
        cache->circuits = c;
        cache->reserved_bytes += bytes;
        return 0;
}

int circuit_cache_ref(struct circuit_cache *cache, const struct job_shape *shape,
                      uint32_t witness_form, struct reservation *from) {
        const bool full = witness_form == IPC_WITNESS_FULL;
        struct circuit *c;
        uint64_t grow;

        assert(cache);
        assert(shape);
        assert(from);
        c = circuit_find(cache, shape->circuit_id);
        if (!c)
                return circuit_new(cache, shape->circuit_id, shape->shared_bytes - shape->key_bytes,
                                   shape->key_bytes, from, false, full);
        grow = circuit_cache_need(cache, shape, witness_form);
        reservation_into_permanent(from, grow, &c->reservation);
        cache->reserved_bytes += grow;
        c->refs++;
        c->full_refs += full;
        return 0;
}

/* Gives a circuit's bytes back and has the provers drop its key; returns the bytes. */
static uint64_t circuit_drop(struct circuit_cache *cache, struct circuit **link) {
        struct circuit *c = *link;
        char key[sizeof(c->id)];
        enum job_kind kind;
        uint64_t bytes;

        *link = c->next;
        bytes = reservation_release(&c->reservation);
        cache->reserved_bytes -= bytes;
        if (cache->executor && job_circuit_key(c->id, &kind, key, sizeof(key)) >= 0)
                executor_evict_key(cache->executor, kind, key);
        log_info("circuit %s evicted: %" PRIu64 " bytes back to the budget", c->id, bytes);
        free(c);
        return bytes;
}

uint64_t circuit_cache_unref(struct circuit_cache *cache, const char *id, uint32_t witness_form) {
        struct circuit **p, *c;

        assert(cache);
        assert(id);
        p = circuit_link(cache, id);
        c = *p;
        assert(c && c->refs > 0);
        if (witness_form == IPC_WITNESS_FULL) {
                assert(c->full_refs > 0);
                c->full_refs--;
        }
        if (--c->refs > 0)
                return circuit_update(cache, c);
        c->last_used = ++cache->clock;
        return c->evict_when_idle ? circuit_drop(cache, p) : circuit_update(cache, c);
}

bool circuit_cache_evict_for(struct circuit_cache *cache, uint64_t need, const char *keep) {
        assert(cache);
        assert(keep);
        while (!budget_fits(cache->budget, need)) {
                struct circuit **lru = NULL;

                for (struct circuit **p = &cache->circuits; *p; p = &(*p)->next)
                        if ((*p)->refs == 0 && strcmp((*p)->id, keep) != 0 &&
                            (!lru || (*p)->last_used < (*lru)->last_used))
                                lru = p;
                if (!lru)
                        return false;
                (void)circuit_drop(cache, lru);
        }
        return true;
}

int circuit_cache_preload(struct circuit_cache *cache, const char *id, uint64_t shared_bytes,
                          uint64_t key_bytes, bool *ret_already) {
        struct reservation reservation = {0};
        struct circuit *c;
        uint64_t bytes;
        int r;

        assert(cache);
        assert(id);
        assert(ret_already);
        c = circuit_find(cache, id);
        *ret_already = c != NULL;
        if (c) {
                if (!c->preloaded) {
                        c->preloaded = true;
                        c->refs++;
                }
                c->evict_when_idle = false;
                return 0;
        }
        assert(shared_bytes >= key_bytes);
        bytes = circuit_cache_bytes(
                cache, &(struct job_shape){.shared_bytes = shared_bytes, .key_bytes = key_bytes});
        /* Room made as admission makes it: idle circuits go, least recently used first. */
        (void)circuit_cache_evict_for(cache, bytes, id);
        if (reservation_reserve(&reservation, cache->budget, 0, bytes) < 0)
                return -ENOSPC;
        r = circuit_new(cache, id, shared_bytes - key_bytes, key_bytes, &reservation, true, 0);
        (void)reservation_release(&reservation); /* all of it on -ENOMEM, else nothing */
        return r;
}

int circuit_cache_evict(struct circuit_cache *cache, const char *id, uint64_t *ret_freed_bytes) {
        struct circuit *c;

        assert(cache);
        assert(id);
        assert(ret_freed_bytes);
        c = circuit_find(cache, id);
        if (!c)
                return -ENOENT;
        *ret_freed_bytes = 0;
        if (c->preloaded) {
                c->preloaded = false;
                c->refs--;
        }
        if (c->refs == 0)
                *ret_freed_bytes = circuit_drop(cache, circuit_link(cache, id));
        else
                c->evict_when_idle = true; /* its last partition's end frees it */
        return 0;
}

void circuit_cache_key_held(struct circuit_cache *cache, enum job_kind kind, const char *key_path,
                            unsigned prover, uint64_t key_host_bytes) {
        assert(cache);
        assert(key_path);
        if (prover >= cache->n_provers)
                return;
        for (struct circuit *c = cache->circuits; c; c = c->next) {
                char key[sizeof(c->id)];
                enum job_kind circuit_kind;

                if (job_circuit_key(c->id, &circuit_kind, key, sizeof(key)) < 0 ||
                    circuit_kind != job_kind_key(kind) || strcmp(key, key_path) != 0)
                        continue;
                c->provers[prover].key_known = true;
                c->provers[prover].key_host_bytes = key_host_bytes;
                (void)circuit_update(cache, c);
        }
}

void circuit_cache_pce_held(struct circuit_cache *cache, const char *id, unsigned prover,
                            uint64_t pce_host_bytes) {
        struct circuit *c;

        assert(cache);
        assert(id);
        c = circuit_find(cache, id);
        if (!c || prover >= cache->n_provers)
                return;
        c->provers[prover].pce_known = true;
        c->provers[prover].pce_host_bytes = pce_host_bytes;
        (void)circuit_update(cache, c);
}

void circuit_cache_prover_lost(struct circuit_cache *cache, unsigned prover) {
        assert(cache);
        if (prover >= cache->n_provers)
                return;
        for (struct circuit *c = cache->circuits; c; c = c->next) {
                c->provers[prover] = (struct circuit_prover){0};
                (void)circuit_update(cache, c);
        }
}

void circuit_cache_foreach(const struct circuit_cache *cache, circuit_cache_fn fn, void *userdata) {
        assert(cache);
        assert(fn);
        for (const struct circuit *c = cache->circuits; c; c = c->next)
                fn(userdata, c->id, reservation_bytes(&c->reservation), c->refs, c->preloaded);
}
