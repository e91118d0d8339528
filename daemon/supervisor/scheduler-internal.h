/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the scheduler's two halves share: scheduler.c (the queue and admission) and
 * scheduler-results.c (what the executor answers about a partition, and the one path by
 * which a job ends).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "daemon/supervisor/circuit-cache.h"
#include "daemon/supervisor/scheduler.h"

struct scheduler {
        sd_event *event;
        sd_event_source *kick;
        struct budget *budget;
        struct executor *executor;
        unsigned max_attempts;
        struct scheduler_callbacks callbacks;
        void *userdata;

        /* Jobs not ended or with partitions still running, in admission order. */
        struct job **jobs;
        size_t n_jobs, jobs_allocated;
        struct circuit_cache circuits;
        uint64_t next_task_id, next_sequence;
        bool paused, stopped;
        struct scheduler_stats stats;
};

/* Runs admission from the event loop, once, after what is running now. */
static inline void scheduler_kick(struct scheduler *s) {
        if (s->kick)
                (void)sd_event_source_set_enabled(s->kick, SD_EVENT_ONESHOT);
}

/* How one attempt of a partition ended without a proof. */
struct attempt_failure {
        bool retry;      /* a worker or prover death, or a start that failed: try again */
        bool started;    /* false: the worker could not even be started */
        const char *why; /* the executor's message, or the start's error */
};

/* Ends a job that has not ended: its waiters hear of it now, running partitions are
 * cancelled and give their bytes back when the executor says they are over. */
void scheduler_end_job(struct scheduler *s, struct job *job, enum job_state state,
                       const char *message);

/* The one retry path of a partition attempt that failed, whichever way: queued again
 * while attempts remain (and the job lives), else the job fails with the reason. */
void scheduler_attempt_failed(struct scheduler *s, struct job *job, unsigned i,
                              const struct attempt_failure *f);
