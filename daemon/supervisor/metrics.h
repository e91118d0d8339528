/* SPDX-License-Identifier: Apache-2.0 */
/* Counters the daemon keeps for GetMetrics (the text is written by metrics_format()). */
#pragma once

#include <stdint.h>

#include "daemon/supervisor/job.h"

/* Upper bounds (seconds) of the job time histogram buckets; +Inf follows. */
#define METRICS_JOB_SECONDS_BUCKETS \
        { 0.5, 1, 2, 5, 10, 30, 60, 120, 300, 600, 1800 }
#define METRICS_N_JOB_SECONDS_BUCKETS 11

struct metrics {
        uint64_t jobs_ended[_JOB_STATE_MAX]; /* by final state, this run */
        uint64_t jobs_submitted;
        /* Completed jobs: submission to end, in buckets (cumulative on output). */
        uint64_t job_seconds_bucket[METRICS_N_JOB_SECONDS_BUCKETS + 1];
        uint64_t job_seconds_count;
        double job_seconds_sum;
        double queue_seconds_sum, synthesis_seconds_sum, gpu_seconds_sum;
};

/* Counts a job that ended in this run. */
void metrics_job_ended(struct metrics *metrics, const struct job *job);

struct cuzkd;
/* GetMetrics: the Prometheus text of the supervisor's state (malloc'd). */
int metrics_format(const struct cuzkd *d, char **ret);
