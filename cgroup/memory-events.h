/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Watching a cgroup's memory events from an event loop: the watch keeps
 * the last counts and returns what increased since (an oom_kill delta
 * fails that worker's attempt). Poll the fd for the events of
 * cg_events_watch_poll_events(); each wakeup calls cg_events_watch_update.
 *  - v2: memory.events(.local) itself, which raises POLLPRI on change;
 *  - v1: an eventfd registered on memory.oom_control (wakes on OOM only;
 *    failcnt, the "max" count, is read at each update).
 */
#pragma once

#include <stdbool.h>

#include "cgroup/cg-memory.h"

typedef enum cg_events_source {
        CG_EVENTS_V2,       /* memory.events: this cgroup and its descendants */
        CG_EVENTS_V2_LOCAL, /* memory.events.local: this cgroup only */
        CG_EVENTS_V1,       /* memory.failcnt + memory.oom_control */
} cg_events_source_t;

typedef struct cg_events_watch {
        int cg_dirfd; /* borrowed: must outlive the watch */
        int fd;       /* owned */
        cg_events_source_t source;
        cg_memory_events_t last;
} cg_events_watch_t;

/* Opens the watch and takes the current counts as the baseline. */
int cg_events_watch_open(int cg_dirfd, cg_events_source_t source, cg_events_watch_t *ret);
void cg_events_watch_close(cg_events_watch_t *watch);

/* What to poll the fd for: POLLPRI (v2) or POLLIN (v1 eventfd). */
short cg_events_watch_poll_events(const cg_events_watch_t *watch);

/* Re-reads the counts, stores them, and returns the increases in *ret_delta; returns 1 when
 * something increased, 0 when not. A counter that went down means the cgroup was
 * recreated: its whole new value counts as the increase. -ENODEV when the cgroup is gone. */
int cg_events_watch_update(cg_events_watch_t *watch, cg_memory_events_t *ret_delta);

/* The increase from old to now, per counter (as cg_events_watch_update computes it). */
void cg_memory_events_delta(const cg_memory_events_t *old, const cg_memory_events_t *now,
                            cg_memory_events_t *ret_delta);
