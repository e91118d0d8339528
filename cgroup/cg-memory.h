/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cgroup v2 memory controller files of one cgroup (dirfd from cg-tree.h).
 * Limits take bytes; CG_LIMIT_MAX writes "max".
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "cgroup/cg-files.h"

int cg_memory_set_high(int cg_dirfd, uint64_t bytes);
int cg_memory_set_max(int cg_dirfd, uint64_t bytes);
int cg_memory_set_min(int cg_dirfd, uint64_t bytes);
int cg_memory_set_low(int cg_dirfd, uint64_t bytes);
int cg_memory_set_swap_max(int cg_dirfd, uint64_t bytes);
/* memory.oom.group: an OOM kill takes the whole cgroup, not one process of it. */
int cg_memory_set_oom_group(int cg_dirfd, bool whole_group);

int cg_memory_current(int cg_dirfd, uint64_t *ret_bytes);
/* memory.peak (5.19+); -ENOENT on older kernels, without logging. */
int cg_memory_peak(int cg_dirfd, uint64_t *ret_bytes);

/* memory.events counters; on v1 only max (memory.failcnt) and oom_kill are counted. */
typedef struct cg_memory_events {
        uint64_t low;
        uint64_t high;
        uint64_t max;
        uint64_t oom;
        uint64_t oom_kill;
        uint64_t oom_group_kill; /* 0 before 5.17, where the file lacks it */
} cg_memory_events_t;

/* memory.events (hierarchical) or memory.events.local (this cgroup only). */
int cg_memory_read_events(int cg_dirfd, bool local, cg_memory_events_t *ret);
/* The same through an fd already open on that file (the one an event loop polls). */
int cg_memory_read_events_fd(int fd, int cg_dirfd, bool local, cg_memory_events_t *ret);

/* The memory.stat keys we use; keys a kernel lacks read as 0. */
typedef struct cg_memory_stat {
        uint64_t anon;
        uint64_t file;
        uint64_t shmem;
        uint64_t unevictable; /* mlocked/pinned: the prover's SRS */
        uint64_t kernel;
        uint64_t workingset_refault_anon;
        uint64_t workingset_refault_file;
        uint64_t pgscan;
        uint64_t pgsteal;
        uint64_t pgscan_direct;
        uint64_t pgmajfault;
} cg_memory_stat_t;

int cg_memory_read_stat(int cg_dirfd, cg_memory_stat_t *ret);
