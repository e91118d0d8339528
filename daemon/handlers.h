/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The supervisor's state, as the gRPC handlers (handlers.c), GetStatus
 * (status.c) and GetMetrics (metrics.c) see it; cuzkd.c builds it.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include <systemd/sd-event.h>

#include "daemon/api/api-handler.h"
#include "daemon/bpf-watch.h"
#include "daemon/budget.h"
#include "daemon/config.h"
#include "daemon/executor.h"
#include "daemon/job-table.h"
#include "daemon/metrics.h"
#include "daemon/pressure.h"
#include "daemon/scheduler.h"
#include "daemon/spool.h"

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
        struct job_table table;
        struct metrics metrics;
        uint64_t start_usec; /* CLOCK_MONOTONIC */
        uint64_t job_counter;
        bool stopping; /* SIGTERM: no new jobs */
        /* READY=1 waits for the Preload= circuits (cuzkd.c) */
        unsigned n_preloads;
        bool ready_sent;
        sd_event_source *preload_timer;
};

/* The handlers of cuzk.v1.ProvingEngine; userdata is the struct cuzkd. */
extern const struct api_handler cuzkd_api_handler;

/* The scheduler's job_ended: counts, spools the result and answers the waiters. */
void cuzkd_job_ended(void *userdata, struct job *job);
/* The job table's forget callback (ResultRetention=): the job leaves the spool. */
void cuzkd_job_forgotten(void *userdata, const struct job *job);
/* Queues a spooled job again at start-up (spool_load_all's callback); an ended one whose
 * ResultRetention= is over is dropped. */
int cuzkd_load_spooled(void *userdata, const char *job_id,
                       const Cuzk__V1__SubmitProofRequest *request, uint64_t submitted_usec,
                       const char *wtns_path, const Cuzk__V1__AwaitProofResponse *result);

/* GetStatus: fills response; free with status_response_done(). */
int status_fill(const struct cuzkd *d, Cuzk__V1__GetStatusResponse *response);
void status_response_done(Cuzk__V1__GetStatusResponse *response);
/* GetMetrics: the Prometheus text (malloc'd). */
int metrics_format(const struct cuzkd *d, char **ret);
