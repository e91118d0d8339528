/* SPDX-License-Identifier: Apache-2.0 */
#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/supervisor/job-index.h"

#define JOB_INDEX_MIN_CAPACITY 64

/* FNV-1a over the scope's bytes and the string: keys are short ids; collisions only cost a
 * probe. */
static uint64_t key_hash(uint64_t scope, const char *key) {
        uint64_t h = UINT64_C(14695981039346656037);

        for (unsigned i = 0; i < 8; i++)
                h = (h ^ ((scope >> (8 * i)) & 0xff)) * UINT64_C(1099511628211);
        for (const unsigned char *p = (const unsigned char *)key; *p; p++)
                h = (h ^ *p) * UINT64_C(1099511628211);
        return h;
}

static bool entry_is(const struct job_index_entry *e, uint64_t scope, const char *key) {
        return e->scope == scope && !strcmp(e->key, key);
}

/* The slot holding (scope, key), or the empty slot where it would go. */
static size_t find_slot(const struct job_index *index, uint64_t scope, const char *key) {
        size_t mask = index->capacity - 1, i = (size_t)key_hash(scope, key) & mask;

        while (index->entries[i].key && !entry_is(&index->entries[i], scope, key))
                i = (i + 1) & mask;
        return i;
}

/* Doubles the table (or makes the first one), placing every entry again. */
static int grow(struct job_index *index) {
        struct job_index old = *index;
        size_t capacity = old.capacity ? 2 * old.capacity : JOB_INDEX_MIN_CAPACITY;

        index->entries = calloc(capacity, sizeof(*index->entries));
        if (!index->entries) {
                *index = old;
                return -ENOMEM;
        }
        index->capacity = capacity;
        for (size_t i = 0; i < old.capacity; i++)
                if (old.entries[i].key)
                        index->entries[find_slot(index, old.entries[i].scope, old.entries[i].key)] =
                                old.entries[i];
        free(old.entries);
        return 0;
}

void job_index_done(struct job_index *index) {
        assert(index);
        free(index->entries);
        *index = (struct job_index){0};
}

int job_index_put(struct job_index *index, uint64_t scope, const char *key, struct job *job) {
        size_t i;
        int r;

        assert(index);
        assert(key);
        assert(job);
        /* At most three quarters full, so that probes stay short and always end. */
        if (4 * (index->n + 1) > 3 * index->capacity) {
                r = grow(index);
                if (r < 0)
                        return r;
        }
        i = find_slot(index, scope, key);
        if (index->entries[i].key)
                return -EEXIST;
        index->entries[i] = (struct job_index_entry){.key = key, .scope = scope, .job = job};
        index->n++;
        return 0;
}

struct job *job_index_get(const struct job_index *index, uint64_t scope, const char *key) {
        size_t i;

        assert(index);
        assert(key);
        if (index->n == 0)
                return NULL;
        i = find_slot(index, scope, key);
        return index->entries[i].key ? index->entries[i].job : NULL;
}

int job_index_remove(struct job_index *index, uint64_t scope, const char *key,
                     const struct job *job) {
        size_t mask, i, j;

        assert(index);
        assert(key);
        if (index->n == 0)
                return -ENOENT;
        mask = index->capacity - 1;
        i = find_slot(index, scope, key);
        if (!index->entries[i].key || index->entries[i].job != job)
                return -ENOENT;
        /* Backward shift: an entry after the hole moves into it unless its home slot lies
         * cyclically in (i, j], where a lookup would still find it without passing i. */
        for (j = (i + 1) & mask; index->entries[j].key; j = (j + 1) & mask) {
                size_t home =
                        (size_t)key_hash(index->entries[j].scope, index->entries[j].key) & mask;

                if (i <= j ? (i < home && home <= j) : (i < home || home <= j))
                        continue;
                index->entries[i] = index->entries[j];
                i = j;
        }
        index->entries[i] = (struct job_index_entry){0};
        index->n--;
        return 0;
}
