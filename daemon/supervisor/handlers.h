/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The gRPC handlers of cuzkd (cuzk.v1.ProvingEngine) and the callbacks that
 * the scheduler, the job table and the spool call into the supervisor with.
 */
#pragma once

#include "api/api-handler.h"
#include "daemon/supervisor/cuzkd.h"

/* The handlers of cuzk.v1.ProvingEngine; userdata is the struct cuzkd. */
extern const struct api_handler cuzkd_api_handler;

/* The scheduler's job_ended: counts and has the spool writer write the result. */
void cuzkd_job_ended(void *userdata, struct job *job);
/* Tells the executor whether some job in the table is unfinished (executor_set_work_pending:
 * the provers' idle time counts only then); called when a job comes in or ends. */
void cuzkd_work_pending_changed(struct cuzkd *d);
/* The spool writer's done callback (spool-writer.h): the job's result is durable (or
 * could not be written, r < 0), its waiters are answered. */
void cuzkd_result_spooled(void *userdata, const char *job_id, int r);
/* The job table's forget callback (ResultRetention=): the job leaves the spool. */
void cuzkd_job_forgotten(void *userdata, const struct job *job);
/* What jobs take from the configuration now (job_new's settings). */
struct job_settings cuzkd_job_settings(const struct cuzkd *d);

struct intake_item;
/* SubmitProof (prove false) and Prove (submit.c): the job its request id names already, or
 * a new one through the intake; the call is answered now or when the check is over.
 * Returns as a handler does (api-handler.h). */
int cuzkd_submit(struct cuzkd *d, struct api_call *call,
                 const Cuzk__V1__SubmitProofRequest *request, bool prove);
/* The intake's done callback (intake.h): the checked job into the table and the
 * scheduler, its calls answered. */
void cuzkd_intake_done(void *userdata, struct intake_item *item);
/* A spooled job at start-up (spool_load_all's callback): an ended one into the table (or
 * dropped when its ResultRetention= is over); an unfinished one into the table, queued,
 * and to the intake, which checks its inputs again with its owner's rights once the
 * socket is served. */
int cuzkd_load_spooled(void *userdata, const char *job_id,
                       const Cuzk__V1__SubmitProofRequest *request, uint64_t submitted_usec,
                       const struct api_peer *owner, const char *input_path,
                       const Cuzk__V1__AwaitProofResponse *result);
