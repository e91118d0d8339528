/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Every job the daemon knows (queued, running, and ended ones for ResultRetention=),
 * found by job id or request id in O(1) (job-index.h), and the AwaitProof/Prove calls
 * waiting for them: answered when the job ends, at their timeout, or forgotten when the
 * client goes away.
 *
 * Retention: an ended job is forgotten (taken out of the table, the owner's forget
 * callback called, then freed) once retention has passed since it ended, or, with a
 * retention of 0, once its result has been delivered to an AwaitProof or Prove call.
 * Never while a call waits for it or a partition of it still runs at the executor. A
 * timer on the event loop does it.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <systemd/sd-event.h>

#include "api/api-handler.h"
#include "daemon/supervisor/job-index.h"
#include "daemon/supervisor/job.h"

struct job_waiter;

/* Called for a job about to be forgotten (it is freed right after): the spool's copy goes. */
typedef void (*job_table_forget_fn)(void *userdata, const struct job *job);

struct job_table {
        sd_event *event;   /* borrowed */
        struct job **jobs; /* in arrival order */
        size_t n_jobs, allocated;
        struct job_index by_id, by_request;
        struct job_waiter *waiters;
        /* Retention (job_table_set_retention); off until set. */
        bool retention_set;
        uint64_t retention_usec;
        job_table_forget_fn forget;
        void *forget_userdata;
        sd_event_source *expiry_timer; /* CLOCK_REALTIME */
        uint64_t jobs_forgotten;
};

void job_table_init(struct job_table *table, sd_event *event);
/* Frees the jobs; waiters must be gone (job_table_drop_waiters). */
void job_table_done(struct job_table *table);

/* Takes the job (-EEXIST: its id is taken; the job stays the caller's). */
int job_table_add(struct job_table *table, struct job *job);
struct job *job_table_find(const struct job_table *table, const char *job_id);
/* The job that owner submitted with this request id (non-empty), NULL if none. Request ids
 * are the client's idempotency keys, so they are per owner (job_table_owner_scope): another
 * user's equal request id is another job. */
struct job *job_table_find_request(const struct job_table *table, const struct api_peer *owner,
                                   const char *request_id);
/* The scope of an owner's request ids and queue limits: its uid, or one scope shared by
 * every anonymous (TCP) peer. */
uint64_t job_table_owner_scope(const struct api_peer *owner);
/* Jobs not ended yet: in all, and of owner's scope (NULL: only the total). */
void job_table_count_unfinished(const struct job_table *table, const struct api_peer *owner,
                                size_t *ret_total, size_t *ret_owner);

/* Ended jobs are forgotten retention_usec after they ended (0: once delivered); forget
 * (may be NULL) hears of each. */
int job_table_set_retention(struct job_table *table, uint64_t retention_usec,
                            job_table_forget_fn forget, void *userdata);
/* Whether the retention of an ended job is over at now_usec (CLOCK_REALTIME), waiters and
 * running partitions aside: at start-up, spooled results for which it is are dropped. */
/* A new ResultRetention= (a reloaded configuration), applied to every ended job. */
void job_table_change_retention(struct job_table *table, uint64_t retention_usec);
bool job_table_retention_over(const struct job_table *table, const struct job *job,
                              uint64_t now_usec);
/* Forgets the jobs whose retention is over at now_usec and which nothing holds; returns
 * how many. The timer calls it; tests may too. */
size_t job_table_expire(struct job_table *table, uint64_t now_usec);

/* Answers an AwaitProof (prove false) or Prove call with the job's result now; while
 * the job's result is being spooled (job.h: result_spooling), once it is. */
int job_table_reply(struct job_table *table, struct api_call *call, struct job *job, bool prove);
/* Keeps the call open until the job ends, or timeout_ms (0: no limit) when the answer is
 * status TIMEOUT. */
int job_table_wait(struct job_table *table, struct job *job, struct api_call *call,
                   uint64_t timeout_ms, bool prove);
/* The job ended (and its result is spooled): answers its waiters. */
void job_table_notify(struct job_table *table, struct job *job);
/* The client of call went away. */
void job_table_abandon(struct job_table *table, struct api_call *call);
/* Forgets every waiter without answering (the server is gone). */
void job_table_drop_waiters(struct job_table *table);
/* Waiters now (for metrics). */
unsigned job_table_waiter_count(const struct job_table *table);
