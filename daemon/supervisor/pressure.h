/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory pressure gating of admission: PSI triggers (cgroup/psi.h) on
 * /proc/pressure/memory and, under cgroup v2, on our delegated cgroup's
 * memory.pressure. A trigger firing pauses admission; it resumes once
 * resume_usec have passed without another event (hysteresis: a trigger
 * fires at most once per window while the stall keeps growing).
 *
 * A second source pauses admission the same way: events that cuzkd's eBPF probes
 * (bpf/memwatch.h) see in our cgroups, reclaim or memory.high throttling, reported with
 * pressure_report(); they pause at once, before a PSI window closes.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include <systemd/sd-event.h>

#include "cgroup/psi.h"

struct pressure_options {
        uint64_t stall_usec;     /* PressureStall= */
        uint64_t window_usec;    /* PressureWindow= */
        uint64_t resume_usec;    /* PressureResume= */
        const char *cgroup_dir;  /* our v2 cgroup (memory.pressure there), NULL: none */
        const char *system_file; /* NULL: /proc/pressure/memory (tests pass another) */
};

enum pressure_source_kind {
        PRESSURE_SOURCE_PSI,
        PRESSURE_SOURCE_BPF,
        _PRESSURE_SOURCE_MAX,
};

/* Called when admission pauses (paused true) or resumes. */
typedef void (*pressure_changed_fn)(void *userdata, bool paused);

struct pressure;

/* Arms the triggers it can; one that cannot be armed is logged and skipped (no PSI in the
 * kernel: admission is then governed by the budget alone). */
int pressure_new(sd_event *event, const struct pressure_options *options,
                 pressure_changed_fn changed, void *userdata, struct pressure **ret);
struct pressure *pressure_free(struct pressure *pressure);

/* A pressure event from a source other than PSI: pauses admission now if it is not paused
 * (logged with `what`, e.g. "reclaim in synth/w2 (BPF)"), and restarts the quiet time
 * after which it resumes. */
int pressure_report(struct pressure *pressure, enum pressure_source_kind kind, const char *what);

bool pressure_paused(const struct pressure *pressure);
/* How many trigger events and pauses there were since the start. */
uint64_t pressure_event_count(const struct pressure *pressure);
uint64_t pressure_pause_count(const struct pressure *pressure);
/* ... of them, the events and pauses that came from one kind of source. */
uint64_t pressure_source_event_count(const struct pressure *pressure,
                                     enum pressure_source_kind kind);
uint64_t pressure_source_pause_count(const struct pressure *pressure,
                                     enum pressure_source_kind kind);
/* "psi", "bpf" (metric labels). */
const char *pressure_source_kind_name(enum pressure_source_kind kind);
/* Triggers armed (0: PSI unavailable). */
unsigned pressure_trigger_count(const struct pressure *pressure);
/* The some/full averages of /proc/pressure/memory (-errno where unreadable). */
int pressure_read_system(const struct pressure *pressure, psi_stats_t *ret);
