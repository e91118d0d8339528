/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A hash table from a string key to a job: the job table's lookups by job id and by
 * request id in O(1). Keys are borrowed from the jobs (job->id, job->request_id) and must
 * live, unchanged, while the entry does. Open addressing with linear probing; removal
 * shifts the entries after it back, so there are no tombstones.
 */
#pragma once

#include <stddef.h>

struct job;

struct job_index_entry {
        const char *key; /* NULL: empty */
        struct job *job;
};

struct job_index {
        struct job_index_entry *entries;
        size_t n, capacity; /* capacity: 0 or a power of two */
};

/* Frees the entries (not the jobs). */
void job_index_done(struct job_index *index);
/* Adds key -> job: -EEXIST when the key is there already (it keeps its job), -ENOMEM. */
int job_index_put(struct job_index *index, const char *key, struct job *job);
/* The job of key, NULL if none. */
struct job *job_index_get(const struct job_index *index, const char *key);
/* Removes key if it maps to job: -ENOENT otherwise. */
int job_index_remove(struct job_index *index, const char *key, const struct job *job);
