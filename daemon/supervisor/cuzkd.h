/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The supervisor's root state: one struct cuzkd per daemon, built by the main
 * loop (cuzkd.c) and seen by the gRPC handlers (handlers.c), GetStatus
 * (status.c) and GetMetrics (metrics.c). It owns every part of the
 * supervisor box of the process diagram: configuration, budget, scheduler,
 * pressure sources, executor, spool and job table.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include <systemd/sd-event.h>

#include "daemon/supervisor/bpf-watch.h"
#include "daemon/supervisor/budget.h"
#include "daemon/supervisor/config.h"
#include "daemon/executor/executor.h"
#include "daemon/supervisor/job-table.h"
#include "daemon/supervisor/metrics.h"
#include "daemon/supervisor/pressure.h"
#include "daemon/supervisor/scheduler.h"
#include "daemon/supervisor/spool.h"
#include "daemon/supervisor/spool-writer.h"

struct cuzkd {
        sd_event *event;
        struct config config;
        struct budget budget;
        char enforcement[128]; /* cg_domain_enforcement_name() */
        /* Our cgroup in the enforcing hierarchy ("" under RLIMIT_DATA): the peak memory of
         * all the daemon's processes is read there. */
        char cgroup_dir[4096];
        bool cgroup_v2;
        struct scheduler *scheduler;
        struct pressure *pressure; /* NULL when PSI is off */
        struct bpf_watch bpf;      /* the eBPF probes, a second pressure source */
        /* GetStatus's memory_enforcement: the enforcement and the pressure sources. */
        char status_enforcement[320];
        struct executor *executor;
        struct spool *spool;
        /* Results and removals written to the spool off the loop (spool-writer.h). */
        struct spool_writer *spool_writer;
        struct job_table table;
        struct metrics metrics;
        uint64_t start_usec; /* CLOCK_MONOTONIC */
        uint64_t job_counter;
        bool stopping; /* SIGTERM: no new jobs */
        /* Submissions being checked and spooled off the loop (intake.h). */
        struct intake *intake;
        /* READY=1 waits for the Preload= circuits (cuzkd.c) */
        unsigned n_preloads;
        bool ready_sent;
        sd_event_source *preload_timer;
        /* PreloadSRS calls waiting for the provers' load (preload.h). */
        struct preload_waiter *preload_waiters;
};
