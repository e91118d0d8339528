/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which kernel mechanism enforces a worker's memory limits, chosen once at
 * start-up: cgroup v2 (memory.high/max), cgroup v1 memory below our own v1
 * memory cgroup (soft_limit/limit_in_bytes), or RLIMIT_DATA on each worker
 * when no writable memory cgroup exists. The same worker operations work
 * on all three.
 */
#pragma once

#include <limits.h>
#include <stdint.h>

#include "cgroup/cg-memory.h"
#include "cgroup/cg-spawn.h"
#include "cgroup/hierarchy.h"
#include "cgroup/memory-events.h"

typedef enum cg_enforcement {
        CG_ENFORCEMENT_V2,
        CG_ENFORCEMENT_V1_MEMORY,
        CG_ENFORCEMENT_RLIMIT_DATA,
} cg_enforcement_t;

typedef struct cg_domain {
        cg_enforcement_t enforcement;
        int own_dirfd; /* our cgroup in the enforcing hierarchy; -EBADF for RLIMIT_DATA */
        char own_path[PATH_MAX];
} cg_domain_t;

/* Chooses the enforcement for the detected hierarchy (a cgroup counts only when we may
 * create children and write its files) and logs the choice once. */
int cg_domain_open(const cg_hierarchy_t *hierarchy, cg_domain_t *ret);
void cg_domain_close(cg_domain_t *domain);

/* "cgroup v2", "cgroup v1 memory" or "RLIMIT_DATA", for the start-up log and status. */
const char *cg_domain_enforcement_name(const cg_domain_t *domain);
const char *cg_enforcement_name(cg_enforcement_t enforcement);

typedef struct cg_worker_limits {
        uint64_t high_bytes; /* throttling point (v1: soft limit); CG_LIMIT_MAX for none */
        uint64_t max_bytes;  /* OOM kill beyond it (RLIMIT_DATA: allocations fail) */
} cg_worker_limits_t;

/* Writes the limits of a worker cgroup created below own_dirfd. v2 also sets
 * memory.oom.group so an OOM kill takes the worker whole. RLIMIT_DATA has no cgroup
 * (worker_dirfd negative): the limit is applied at spawn, see cg_domain_spawn_params(). */
int cg_domain_set_limits(const cg_domain_t *domain, int worker_dirfd,
                         const cg_worker_limits_t *limits);

typedef struct cg_worker_usage {
        uint64_t current_bytes;
        uint64_t peak_bytes; /* 0 where the kernel keeps no peak (v2 before 5.19) */
        cg_memory_events_t events;
} cg_worker_usage_t;

/* Reads a worker cgroup's usage; -EOPNOTSUPP under RLIMIT_DATA. */
int cg_domain_read_usage(const cg_domain_t *domain, int worker_dirfd, cg_worker_usage_t *ret);

/* Where memory events of this domain's workers come from (cg_events_watch_open). */
cg_events_source_t cg_domain_events_source(const cg_domain_t *domain);

/* Fills the cgroup and rlimit fields of spawn parameters for a worker. */
void cg_domain_spawn_params(const cg_domain_t *domain, int worker_dirfd,
                            const cg_worker_limits_t *limits, cg_spawn_params_t *params);
