/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzkd's use of the eBPF probes (bpf/memwatch.h), [Memory] BPF=: the probes watch the
 * workers' cgroups (synth/, with every synth/wN below it) and the prover's. Reclaim or
 * memory.high throttling there pauses admission at once (pressure_report(), the second
 * source beside PSI); an OOM kill in a worker's cgroup is logged with the job and
 * partition the worker ran. Without the probes (BPF=no, no worker cgroups, no privileges
 * or BTF) cuzkd runs on PSI alone and says so once.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <systemd/sd-event.h>

#include "bpf/memwatch.h"
#include "daemon/executor/executor.h"

struct cuzkd;

struct bpf_watch {
        memwatch_t *memwatch; /* NULL: PSI alone */
        sd_event_source *source;
        uint64_t synth_id;                         /* the watched cgroups (0: not watched) */
        uint64_t prover_ids[EXECUTOR_MAX_PROVERS]; /* prover-N's */
        unsigned n_provers;
        unsigned n_workers;
        uint64_t *worker_ids;       /* the memory cgroup id of synth/wN, by slot */
        uint64_t *worker_oom_kills; /* OOM kills the probes saw in synth/wN, by slot */
        char summary[160];          /* for the start-up line and GetStatus */
};

/* Loads the probes as d->config.bpf says and watches the executor's cgroups (so after
 * executor_new()). BPF=auto without them: 0, PSI alone (logged once); BPF=yes without
 * them: -EOPNOTSUPP (logged). */
int bpf_watch_setup(struct cuzkd *d);
void bpf_watch_done(struct bpf_watch *watch);

bool bpf_watch_active(const struct bpf_watch *watch);
/* GetMetrics: cuzk_bpf_* (memwatch_write_metrics for synth and prover-0), the OOM kills per
 * worker cgroup and the probes' own run time where the kernel counts it. */
void bpf_watch_write_metrics(const struct bpf_watch *watch, FILE *f);
