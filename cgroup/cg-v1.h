/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cgroup v1 memory controller files, for hybrid and legacy hosts: the
 * worker limits of cg-memory.h mapped onto memory.limit_in_bytes (max),
 * memory.soft_limit_in_bytes (the nearest thing to high: reclaim target
 * under global pressure, no throttling), usage, failcnt and oom_control.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "cgroup/cg-memory.h"

/* CG_LIMIT_MAX removes the limit ("-1"). */
int cg_v1_memory_set_limit(int cg_dirfd, uint64_t bytes);
int cg_v1_memory_set_soft_limit(int cg_dirfd, uint64_t bytes);
/* memory.limit_in_bytes; the v1 "unlimited" value reads as CG_LIMIT_MAX. */
int cg_v1_memory_limit(int cg_dirfd, uint64_t *ret_bytes);

int cg_v1_memory_usage(int cg_dirfd, uint64_t *ret_bytes);
int cg_v1_memory_max_usage(int cg_dirfd, uint64_t *ret_bytes);
/* How often usage hit the limit. */
int cg_v1_memory_failcnt(int cg_dirfd, uint64_t *ret);

typedef struct cg_v1_oom_control {
        bool oom_kill_disable;
        bool under_oom;
        bool has_oom_kill; /* the oom_kill counter exists on 4.13+ */
        uint64_t oom_kill;
} cg_v1_oom_control_t;

int cg_v1_memory_read_oom_control(int cg_dirfd, cg_v1_oom_control_t *ret);

/* memory.events as far as v1 counts them: max = memory.failcnt + memory.memsw.failcnt,
 * oom_kill from oom_control. */
int cg_v1_memory_read_events(int cg_dirfd, cg_memory_events_t *ret);

/* An eventfd that counts OOM situations of the cgroup (cgroup.event_control on
 * memory.oom_control), for an event loop. */
int cg_v1_memory_oom_eventfd(int cg_dirfd, int *ret_eventfd);
