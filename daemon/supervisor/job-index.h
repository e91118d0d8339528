/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A hash table from a key to a job: the job table's lookups by job id and by request id in
 * O(1). A key is a scope (a number: the owner's, for request ids, so that two users' equal
 * request ids are two keys; 0 where there is one scope) and a string. The strings are
 * borrowed from the jobs (job->id, job->request_id) and must live, unchanged, while the
 * entry does. Open addressing with linear probing; removal
 * shifts the entries after it back, so there are no tombstones.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

struct job;

struct job_index_entry {
        const char *key; /* NULL: empty */
        uint64_t scope;
        struct job *job;
};

struct job_index {
        struct job_index_entry *entries;
        size_t n, capacity; /* capacity: 0 or a power of two */
};

/* Frees the entries (not the jobs). */
void job_index_done(struct job_index *index);
/* Adds (scope, key) -> job: -EEXIST when the key is there already (it keeps its job),
 * -ENOMEM. */
int job_index_put(struct job_index *index, uint64_t scope, const char *key, struct job *job);
/* The job of (scope, key), NULL if none. */
struct job *job_index_get(const struct job_index *index, uint64_t scope, const char *key);
/* Removes (scope, key) if it maps to job: -ENOENT otherwise. */
int job_index_remove(struct job_index *index, uint64_t scope, const char *key,
                     const struct job *job);
