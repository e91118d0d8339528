/* SPDX-License-Identifier: Apache-2.0 */
/*
 * memwatch: eBPF memory-pressure events of watched cgroups (direct reclaim, memcg
 * reclaim, memory.high throttling, OOM kills), for cuzkd's admission and metrics.
 *
 * The daemon calls it unconditionally:
 *
 *     r = memwatch_new(on_memory_event, manager, &m->memwatch);
 *     if (r == -EOPNOTSUPP)         // already logged once:
 *             m->memwatch = NULL;   // "BPF unavailable: <reason>; running on PSI alone"
 *     else if (r < 0)
 *             return r;
 *     else
 *             sd_event_add_io(event, NULL, memwatch_fd(m->memwatch), EPOLLIN,
 *                             on_memwatch_readable, m);   // -> memwatch_consume(m->memwatch)
 *     ...
 *     memwatch_watch(m->memwatch, synth_dirfd, &synth_id);   // covers synth/wN below it
 *     memwatch_watch(m->memwatch, prover_dirfd, &prover_id);
 *
 * and in the callback maps event->cgroup_id (the task's own memory cgroup, e.g. a worker's
 * synth/wN; memwatch_cgroup_id() gives a worker's id) to the worker, its job and
 * partition. Reclaim or throttling in our cgroups pauses admission; an OOM kill names the
 * victim's pid and cgroup (memwatch_event_describe() makes the log line).
 * memwatch_counters() gives per watched cgroup counts, memwatch_write_metrics() their
 * Prometheus text for GetMetrics (also with memwatch NULL: cuzk_bpf_available 0).
 * At shutdown: memwatch_free().
 *
 * Cgroup ids are the inode numbers of the cgroup directories: of the v2 hierarchy, or of
 * the v1 memory hierarchy on hybrid hosts (a task's memory cgroup is what both attribute
 * reclaim and OOM kills to).
 *
 * Without BPF (built with -Dbpf=disabled or without clang/bpftool/libbpf, no BTF in the
 * kernel, no CAP_BPF/CAP_PERFMON, no probe attachable) memwatch_new() returns -EOPNOTSUPP
 * and logs the reason once per process.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum memwatch_kind {
        MEMWATCH_DIRECT_RECLAIM = 1, /* a task of the cgroup reclaimed for a global shortage */
        MEMWATCH_MEMCG_RECLAIM = 2,  /* a task reclaimed because its memcg hit a limit */
        MEMWATCH_HIGH_THROTTLE = 3,  /* a task was throttled at memory.high (v2) */
        MEMWATCH_OOM_KILL = 4,       /* a task of the cgroup was chosen as OOM victim */
        _MEMWATCH_KIND_MAX,
} memwatch_kind_t;

typedef struct memwatch_event {
        memwatch_kind_t kind;
        uint64_t cgroup_id;    /* the task's own memory cgroup */
        uint64_t watched_id;   /* the watched cgroup it lies in: cgroup_id or an ancestor */
        uint32_t pid;          /* process (the victim for OOM kills) */
        uint32_t tid;          /* thread */
        char comm[16];         /* the task's name; empty when the kernel did not say */
        uint64_t duration_ns;  /* reclaim or throttling time; 0 for OOM kills */
        uint64_t pages;        /* reclaimed pages; pages over memory.high at entry;
                                  the OOM victim's total_vm */
        uint64_t timestamp_ns; /* CLOCK_MONOTONIC at the end of the interval */
} memwatch_event_t;

/* Totals per watched cgroup since it was watched, indexed by memwatch_kind_t; kept by the
 * kernel side, so they include events lost when the ring buffer was full (dropped). */
typedef struct memwatch_counters {
        uint64_t events[_MEMWATCH_KIND_MAX];
        uint64_t duration_ns[_MEMWATCH_KIND_MAX];
        uint64_t pages[_MEMWATCH_KIND_MAX];
        uint64_t dropped;
} memwatch_counters_t;

typedef void (*memwatch_event_fn)(const memwatch_event_t *event, void *userdata);

typedef struct memwatch memwatch_t;

/* Loads and attaches the probes (each one the kernel supports; fentry/fexit where
 * allowed, else kprobes, for memory.high throttling). Returns -EOPNOTSUPP, logged once,
 * when BPF cannot be used; other negative errno on unexpected failures. */
int memwatch_new(memwatch_event_fn fn, void *userdata, memwatch_t **ret);
/* Detaches everything; returns NULL. Accepts NULL. */
memwatch_t *memwatch_free(memwatch_t *mw);

/* The kinds whose probes are attached, as bits 1 << kind. */
unsigned memwatch_probes(const memwatch_t *mw);

/* The id of a cgroup directory (any fd, O_PATH included) that has a memory controller:
 * -ENOTDIR when it is no cgroup, -EMEDIUMTYPE when it has no memory controller (v2:
 * memory not enabled by its parent; v1: another hierarchy). Works without BPF. */
int memwatch_cgroup_id(int cg_dirfd, uint64_t *ret_id);

/* Starts counting and reporting the cgroup and its descendants (up to 8 levels below);
 * watching one again keeps its counters. ret_id may be NULL. */
int memwatch_watch(memwatch_t *mw, int cg_dirfd, uint64_t *ret_id);
int memwatch_watch_path(memwatch_t *mw, const char *path, uint64_t *ret_id);
/* -ENOENT when it was not watched. Its counters are gone. */
int memwatch_unwatch(memwatch_t *mw, uint64_t id);

/* An fd that becomes readable (EPOLLIN) when events are waiting. */
int memwatch_fd(const memwatch_t *mw);
/* Calls fn for every waiting event; returns how many, or negative errno. */
int memwatch_consume(memwatch_t *mw);

/* -ENOENT when the cgroup is not watched. */
int memwatch_counters(const memwatch_t *mw, uint64_t id, memwatch_counters_t *ret);

/* How often the loaded probes ran and their total run time, summed over the programs, as
 * the kernel counts them while BPF run-time statistics are enabled (sysctl
 * kernel.bpf_stats_enabled, or an fd from libbpf's bpf_enable_stats()); zeros otherwise.
 * For measuring the probes' own cost. */
int memwatch_probe_runtime(const memwatch_t *mw, uint64_t *ret_runs, uint64_t *ret_ns);

/* A watched cgroup as GetMetrics names it. */
typedef struct memwatch_metrics_cgroup {
        uint64_t id;       /* from memwatch_watch() */
        const char *label; /* e.g. "synth", "prover-0"; written as cgroup="label" */
} memwatch_metrics_cgroup_t;

/* Writes the Prometheus text (exposition format 0.0.4) of the probes and the given watched
 * cgroups' counters: cuzk_bpf_available, cuzk_bpf_events_total{cgroup,kind},
 * cuzk_bpf_seconds_total{cgroup,kind}, cuzk_bpf_pages_total{cgroup,kind},
 * cuzk_bpf_dropped_events_total{cgroup}. mw may be NULL (BPF unavailable): then only
 * cuzk_bpf_available 0. A cgroup no longer watched is left out. */
int memwatch_write_metrics(const memwatch_t *mw, const memwatch_metrics_cgroup_t *cgroups,
                           size_t n_cgroups, FILE *f);

/* One line for logs and the journal, e.g. "memcg_reclaim in cgroup 22508 (watched 22475):
 * pid 4242 (cuzk-synth) 256 pages in 93 us". Returns buf. */
char *memwatch_event_describe(const memwatch_event_t *event, char *buf, size_t size);

/* "direct_reclaim", "memcg_reclaim", "high_throttle", "oom_kill" (metric labels). */
const char *memwatch_kind_name(memwatch_kind_t kind);

static inline void memwatch_freep(memwatch_t **mw) {
        if (*mw)
                memwatch_free(*mw);
}
#define _cleanup_memwatch_ __attribute__((cleanup(memwatch_freep)))
