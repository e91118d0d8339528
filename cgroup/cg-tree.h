/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A cgroup is handled as an O_PATH directory fd; children are created,
 * opened and removed relative to their parent's fd. These calls work on
 * v2 and, where the file exists there too (cgroup.procs), on v1.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

typedef enum cg_controller {
        CG_CONTROLLER_MEMORY = 1u << 0,
        CG_CONTROLLER_PIDS = 1u << 1,
        CG_CONTROLLER_CPU = 1u << 2,
} cg_controller_t;

/* Opens a cgroup directory by absolute path (start-up only). */
int cg_open_path(const char *path, int *ret_dirfd);

/* Creates child name below parent (an existing one is reused: worker cgroups are kept
 * across jobs) and opens it. */
int cg_child_create(int parent_dirfd, const char *name, int *ret_dirfd);
int cg_child_open(int parent_dirfd, const char *name, int *ret_dirfd);
/* Removes an empty child; -EBUSY while it still has processes. */
int cg_child_remove(int parent_dirfd, const char *name);
/* SIGKILLs whatever is still in the cgroup (descendants the caller did not start
 * itself, such as a sanitizer's leak-check tracer) and waits up to timeout_ms until it is
 * empty: -ETIMEDOUT if it is not. */
int cg_kill_all(int cg_dirfd, unsigned timeout_ms);
/* Removes child and its descendants, deepest first (all must be free of processes). */
int cg_child_remove_tree(int parent_dirfd, const char *name);

/* Enables the wanted controllers (CG_CONTROLLER_* mask) for the children of cg_dirfd, as
 * far as cgroup.controllers offers them; writes only this cgroup's cgroup.subtree_control,
 * never an ancestor's, so call it only on cgroups we own. Returns the mask now enabled. */
int cg_enable_controllers(int cg_dirfd, unsigned wanted);

/* Moves a process (its whole thread group) into the cgroup. */
int cg_move_pid(int cg_dirfd, pid_t pid);
/* Creates child name below our own cgroup and moves this process into it (the v2
 * no-internal-process rule: the daemon lives in supervisor/ before it enables controllers
 * or starts anything). */
int cg_move_self_into(int own_dirfd, const char *name, int *ret_dirfd);

/* Kills every process in the cgroup and its descendants: cgroup.kill (5.14+), otherwise
 * SIGKILL to each pid of cgroup.procs until the list is empty (waiting up to 5 s for the
 * killed processes to exit; -EBUSY if some survive). */
int cg_kill(int cg_dirfd);

/* 1 when processes live in the cgroup or below (cgroup.events "populated"; v1: a pid in
 * cgroup.procs), 0 when not. */
int cg_is_populated(int cg_dirfd);
/* cgroup.stat nr_dying_descendants: removed cgroups still pinned by charged pages. */
int cg_nr_dying_descendants(int cg_dirfd, uint64_t *ret);
