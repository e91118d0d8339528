/* SPDX-License-Identifier: Apache-2.0 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "daemon/supervisor/circuit-cache.h"

struct circuit {
        struct circuit *next;
        char id[sizeof(((struct job_shape *)NULL)->circuit_id)];
        struct reservation reservation; /* permanent */
        unsigned refs;                  /* running partitions, plus one while preloaded */
        bool preloaded;
        bool evict_when_idle; /* EvictSRS came while partitions ran */
        uint64_t last_used;   /* cache->clock when its last partition ended */
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
        /* Any prover may get one of its partitions, and keeps the key once loaded. */
        return shape->shared_bytes + shape->key_bytes * (cache->n_provers - 1);
}

uint64_t circuit_cache_need(const struct circuit_cache *cache, const struct job_shape *shape) {
        assert(cache);
        assert(shape);
        return circuit_find(cache, shape->circuit_id) ? 0 : circuit_cache_bytes(cache, shape);
}

/* Adds a circuit with one reference, its bytes moved out of `from`. */
static int circuit_new(struct circuit_cache *cache, const char *id, struct reservation *from,
                       uint64_t bytes, bool preloaded) {
        struct circuit *c;

        c = calloc(1, sizeof(*c));
        if (!c)
                return -ENOMEM;
        snprintf(c->id, sizeof(c->id), "%s", id);
        reservation_into_permanent(from, bytes, &c->reservation);
        c->refs = 1;
        c->preloaded = preloaded;
        c->next = cache->circuits;
        cache->circuits = c;
        cache->reserved_bytes += bytes;
        return 0;
}

int circuit_cache_ref(struct circuit_cache *cache, const struct job_shape *shape,
                      struct reservation *from) {
        struct circuit *c;

        assert(cache);
        assert(shape);
        assert(from);
        c = circuit_find(cache, shape->circuit_id);
        if (!c)
                return circuit_new(cache, shape->circuit_id, from,
                                   circuit_cache_bytes(cache, shape), false);
        c->refs++;
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

uint64_t circuit_cache_unref(struct circuit_cache *cache, const char *id) {
        struct circuit **p, *c;

        assert(cache);
        assert(id);
        p = circuit_link(cache, id);
        c = *p;
        assert(c && c->refs > 0);
        if (--c->refs > 0)
                return 0;
        c->last_used = ++cache->clock;
        return c->evict_when_idle ? circuit_drop(cache, p) : 0;
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
        bytes = circuit_cache_bytes(
                cache, &(struct job_shape){.shared_bytes = shared_bytes, .key_bytes = key_bytes});
        /* Room made as admission makes it: idle circuits go, least recently used first. */
        (void)circuit_cache_evict_for(cache, bytes, id);
        if (reservation_reserve(&reservation, cache->budget, 0, bytes) < 0)
                return -ENOSPC;
        r = circuit_new(cache, id, &reservation, bytes, true);
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

void circuit_cache_foreach(const struct circuit_cache *cache, circuit_cache_fn fn, void *userdata) {
        assert(cache);
        assert(fn);
        for (const struct circuit *c = cache->circuits; c; c = c->next)
                fn(userdata, c->id, reservation_bytes(&c->reservation), c->refs, c->preloaded);
}
