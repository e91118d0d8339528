/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every job the daemon knows (queued, running and ended; ended ones stay for
 * AwaitProof), found by job id or request id, and the AwaitProof/Prove
 * calls waiting for them: answered when the job ends, at their timeout, or
 * forgotten when the client goes away.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <systemd/sd-event.h>

#include "daemon/api/api-handler.h"
#include "daemon/job.h"

struct job_waiter;

struct job_table {
        sd_event *event; /* borrowed */
        struct job **jobs;
        size_t n_jobs, allocated;
        struct job_waiter *waiters;
};

void job_table_init(struct job_table *table, sd_event *event);
/* Frees the jobs; waiters must be gone (job_table_drop_waiters). */
void job_table_done(struct job_table *table);

/* Takes the job. */
int job_table_add(struct job_table *table, struct job *job);
struct job *job_table_find(const struct job_table *table, const char *job_id);
/* The job submitted with this request id (non-empty), NULL if none. */
struct job *job_table_find_request(const struct job_table *table, const char *request_id);

/* Answers an AwaitProof (prove false) or Prove call with the job's result now. */
int job_table_reply(struct api_call *call, const struct job *job, bool prove);
/* Keeps the call open until the job ends, or timeout_ms (0: no limit) when the answer is
 * status TIMEOUT. */
int job_table_wait(struct job_table *table, struct job *job, struct api_call *call,
                   uint64_t timeout_ms, bool prove);
/* The job ended: answers its waiters. */
void job_table_notify(struct job_table *table, const struct job *job);
/* The client of call went away. */
void job_table_abandon(struct job_table *table, struct api_call *call);
/* Forgets every waiter without answering (the server is gone). */
void job_table_drop_waiters(struct job_table *table);
/* Waiters now (for metrics). */
unsigned job_table_waiter_count(const struct job_table *table);
