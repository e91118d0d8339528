/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Starting a worker or prover process directly inside its cgroup:
 * clone3(CLONE_INTO_CGROUP) on v2 (5.7+), otherwise fork and have the child
 * write itself into cgroup.procs before exec (older kernels, v1). The child
 * also gets its oom_score_adj, RLIMIT_DATA and parent-death signal before
 * exec; any failure there is reported to the caller, not lost.
 */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* oom_score_adj value meaning "inherit ours". */
#define CG_OOM_SCORE_ADJ_INHERIT INT_MIN

typedef struct cg_spawn_params {
        const char *path;           /* executable */
        char *const *argv;          /* NULL-terminated */
        char *const *envp;          /* NULL: our environment */
        int cgroup_dirfd;           /* cgroup to start in; negative: stay in ours */
        bool cgroup_is_v2;          /* the fd is a v2 cgroup, so clone3 can place the child */
        int oom_score_adj;          /* -1000..1000 or CG_OOM_SCORE_ADJ_INHERIT */
        uint64_t rlimit_data_bytes; /* RLIMIT_DATA (soft and hard); 0: unchanged */
        int parent_death_signal;    /* e.g. SIGKILL; 0: none */
} cg_spawn_params_t;

typedef struct cg_spawned {
        pid_t pid;
        int pidfd;       /* pollable for exit; -EBADF where the kernel has no pidfds */
        bool via_clone3; /* placed by clone3(CLONE_INTO_CGROUP) */
} cg_spawned_t;

/* Starts the process; returns once it has exec'd (or failed to: -errno, child reaped). */
int cg_spawn(const cg_spawn_params_t *params, cg_spawned_t *ret);
