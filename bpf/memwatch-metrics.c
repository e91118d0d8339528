/* SPDX-License-Identifier: Apache-2.0 */
/* memwatch's counters as Prometheus text, for cuzkd's GetMetrics. */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>

#include "bpf/memwatch.h"
#include "common/log.h"

/* Enough for the prover and the workers' parent, or a cgroup per worker. */
#define METRICS_MAX_CGROUPS 256

static void header(FILE *f, const char *name, const char *type, const char *help) {
        fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

typedef enum counter_field {
        FIELD_EVENTS,
        FIELD_SECONDS,
        FIELD_PAGES,
} counter_field_t;

/* One family: a line per watched cgroup and kind. */
static void family(FILE *f, const char *name, const char *help, counter_field_t field,
                   const memwatch_counters_t *counters, const memwatch_metrics_cgroup_t *cgroups,
                   const bool *watched, size_t n_cgroups) {
        header(f, name, "counter", help);
        for (size_t i = 0; i < n_cgroups; i++) {
                if (!watched[i])
                        continue;
                for (int k = MEMWATCH_DIRECT_RECLAIM; k < _MEMWATCH_KIND_MAX; k++) {
                        fprintf(f, "%s{cgroup=\"%s\",kind=\"%s\"} ", name, cgroups[i].label,
                                memwatch_kind_name(k));
                        if (field == FIELD_EVENTS)
                                fprintf(f, "%" PRIu64 "\n", counters[i].events[k]);
                        else if (field == FIELD_PAGES)
                                fprintf(f, "%" PRIu64 "\n", counters[i].pages[k]);
                        else
                                fprintf(f, "%.9f\n", (double)counters[i].duration_ns[k] / 1e9);
                }
        }
}

int memwatch_write_metrics(const memwatch_t *mw, const memwatch_metrics_cgroup_t *cgroups,
                           size_t n_cgroups, FILE *f) {
        memwatch_counters_t counters[METRICS_MAX_CGROUPS];
        bool watched[METRICS_MAX_CGROUPS] = {false};
        int r;

        assert(cgroups || n_cgroups == 0);
        assert(f);

        if (n_cgroups > METRICS_MAX_CGROUPS)
                return log_error_errno(E2BIG, "memwatch: metrics of %zu cgroups asked, at most %d",
                                       n_cgroups, METRICS_MAX_CGROUPS);
        header(f, "cuzk_bpf_available", "gauge",
               "1 when the eBPF memory-pressure probes are attached, 0 on PSI alone.");
        fprintf(f, "cuzk_bpf_available %d\n", mw ? 1 : 0);
        if (!mw)
                return 0;

        for (size_t i = 0; i < n_cgroups; i++) {
                assert(cgroups[i].label);
                r = memwatch_counters(mw, cgroups[i].id, &counters[i]);
                if (r < 0 && r != -ENOENT)
                        return r;
                watched[i] = r >= 0;
        }
        family(f, "cuzk_bpf_events_total", "Reclaim, throttling and OOM kill events per cgroup.",
               FIELD_EVENTS, counters, cgroups, watched, n_cgroups);
        family(f, "cuzk_bpf_seconds_total",
               "Time tasks of the cgroup spent reclaiming or "
               "throttled.",
               FIELD_SECONDS, counters, cgroups, watched, n_cgroups);
        family(f, "cuzk_bpf_pages_total",
               "Pages reclaimed, over memory.high at throttling, "
               "or the OOM victims' total_vm.",
               FIELD_PAGES, counters, cgroups, watched, n_cgroups);
        header(f, "cuzk_bpf_dropped_events_total", "counter",
               "Events counted but not delivered: the ring buffer was full.");
        for (size_t i = 0; i < n_cgroups; i++)
                if (watched[i])
                        fprintf(f, "cuzk_bpf_dropped_events_total{cgroup=\"%s\"} %" PRIu64 "\n",
                                cgroups[i].label, counters[i].dropped);
        return 0;
}
