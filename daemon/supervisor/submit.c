/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SubmitProof and Prove from the handler to the job table, through the intake (intake.h):
 * the handler queues the request and returns with the call open; the intake thread checks
 * the request with its sender's rights and spools it; cuzkd_intake_done() puts the job in
 * the table and the scheduler and answers. Jobs reloaded from the spool at start-up wait
 * in the table, queued, while the intake checks them again.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "common/log.h"
#include "daemon/message-ids.h"
#include "daemon/supervisor/handlers.h"
#include "daemon/supervisor/intake.h"
#include "daemon/supervisor/log-journal.h"

/* A job id unique across restarts: a count and random bits. */
static void new_job_id(struct cuzkd *d, char *buf, size_t size) {
        uint32_t random_bits = 0;

        if (getrandom(&random_bits, sizeof(random_bits), GRND_NONBLOCK) != sizeof(random_bits))
                random_bits = (uint32_t)job_now_usec();
        snprintf(buf, size, "job-%" PRIu64 "-%08" PRIx32, ++d->job_counter, random_bits);
}

/* The status of a refused submission: the check's errors are the client's (a bad
 * request or file), the spool's are ours. */
static enum grpc_status status_for_error(int r, bool spool) {
        switch (r) {
        case -EOPNOTSUPP:
                return GRPC_STATUS_UNIMPLEMENTED;
        case -ENOMEM:
        case -ENOSPC:
        case -EDQUOT:
                return GRPC_STATUS_RESOURCE_EXHAUSTED;
        case -EROFS:
                return GRPC_STATUS_UNAVAILABLE;
        case -EACCES:
        case -EPERM:
                return GRPC_STATUS_PERMISSION_DENIED;
        default:
                return spool ? GRPC_STATUS_INTERNAL : GRPC_STATUS_INVALID_ARGUMENT;
        }
}

/* Answers a call with its job: SubmitProof with the job id and queue position, Prove
 * with the result once the job ends. The call is answered (or waits) on return. */
static void answer_with_job(struct cuzkd *d, struct api_call *call, struct job *job, bool prove) {
        Cuzk__V1__SubmitProofResponse response = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;

        if (prove && job_state_is_final(job->state)) {
                (void)job_table_reply(&d->table, call, job, true);
        } else if (prove) {
                if (job_table_wait(&d->table, job, call, 0, true) < 0)
                        (void)api_reply_error(call, GRPC_STATUS_RESOURCE_EXHAUSTED,
                                              "job %s: out of memory waiting for it", job->id);
        } else {
                response.job_id = job->id;
                response.queue_position = scheduler_queue_position(d->scheduler, job);
                response.assigned_gpu = (char *)"";
                (void)api_reply(call, &response.base);
        }
}

int cuzkd_submit(struct cuzkd *d, struct api_call *call,
                 const Cuzk__V1__SubmitProofRequest *request, bool prove) {
        const struct api_peer *owner = api_call_peer(call);
        const struct job_settings settings = cuzkd_job_settings(d);
        struct intake_item *item;
        struct job *job;
        char id[40];
        int r;

        assert(d && call && request);
        job = job_table_find_request(&d->table, owner, request->request_id);
        if (job) {
                answer_with_job(d, call, job, prove);
                return 0;
        }
        /* The same request id being checked: the same answer, once it comes. */
        item = intake_find_request(d->intake, owner, request->request_id);
        if (item)
                return intake_item_wait(item, call, prove);
        if (d->stopping)
                return api_reply_error(call, GRPC_STATUS_UNAVAILABLE, "cuzkd is shutting down");
        new_job_id(d, id, sizeof(id));
        r = intake_item_new(id, request, owner, job_now_usec(), &settings, false, NULL, &item);
        if (r >= 0)
                r = intake_item_wait(item, call, prove);
        if (r >= 0)
                r = intake_queue(d->intake, item);
        if (r < 0)
                intake_item_free(item);
        if (r == -ENOBUFS)
                return api_reply_error(call, GRPC_STATUS_RESOURCE_EXHAUSTED,
                                       "%u submissions wait for their checks already, with "
                                       "their inline inputs; retry when they are in",
                                       intake_pending_count(d->intake));
        return r; /* 0: the call stays open until cuzkd_intake_done */
}

static void log_accepted(const struct job *job) {
        const char *kind = job->inputs.kind == JOB_POREP_C2        ? "POREP_SEAL_COMMIT"
                           : job->inputs.kind == JOB_SYNTHETIC_PCE ? "SYNTHETIC_PCE"
                                                                   : "GROTH16_SNARKJS";
        char partitions[16];

        snprintf(partitions, sizeof(partitions), "%u", job->inputs.partitions);
        log_fields(LOG_INFO, 0,
                   LOG_FIELDS({"CUZK_JOB_ID", job->id}, {"CUZK_PROOF_KIND", kind},
                              {"CUZK_PARTITIONS", partitions},
                              {"CUZK_CIRCUIT", job->shape.circuit_id}),
                   "job %s accepted: %s, %u partition(s) of %" PRIu64 " bytes, circuit %s", job->id,
                   kind, job->inputs.partitions, job->shape.abc_bytes + job->shape.rest_bytes,
                   job->shape.circuit_id);
}

/* A job that ended FAILED as it came in (its result spooled by the intake, or here when
 * spool_it): in the table for AwaitProof, counted. */
static int add_failed_job(struct cuzkd *d, const char *id,
                          const Cuzk__V1__SubmitProofRequest *request, uint64_t submitted_usec,
                          const struct api_peer *owner, const char *message, uint64_t finished_usec,
                          bool spool_it, struct job **ret) {
        Cuzk__V1__AwaitProofResponse failed = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
        struct job *job = NULL;
        int r;

        failed.job_id = (char *)id;
        failed.status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
        failed.error_message = (char *)message;
        /* It ended now: its retention counts from here. */
        failed.total_ms =
                finished_usec > submitted_usec ? (finished_usec - submitted_usec) / 1000 : 0;
        if (spool_it) {
                (void)spool_save_result(d->spool, id, &failed);
                (void)spool_remove_input(d->spool, id); /* never read again */
        }
        r = job_new_ended(id, request, submitted_usec, &failed, &job);
        if (r < 0)
                return r;
        job->owner = *owner;
        r = job_table_add(&d->table, job);
        if (r < 0) {
                job_free(job);
                return r;
        }
        metrics_job_ended(&d->metrics, job);
        *ret = job;
        return 0;
}

/* A new submission that passed its check (spooled): in the table and the scheduler. */
static int add_accepted_job(struct cuzkd *d, struct intake_item *item, struct job **ret) {
        struct job *job = item->job;
        int r;

        job->owner = item->owner;
        r = job_table_add(&d->table, job);
        if (r < 0) {
                (void)spool_remove_job(d->spool, job->id);
                return r; /* the item still holds the job and frees it */
        }
        item->job = NULL;
        d->metrics.jobs_submitted++;
        log_accepted(job);
        scheduler_add(d->scheduler, job);
        cuzkd_work_pending_changed(d);
        *ret = job;
        return 0;
}

/* A reloaded job checked again: it runs, or fails for good; unless it was cancelled (and
 * perhaps forgotten) while the check ran. */
static void spooled_job_checked(struct cuzkd *d, struct intake_item *item) {
        struct job *job = job_table_find(&d->table, item->job_id);

        if (!job || job_state_is_final(job->state))
                return;
        if (item->outcome == INTAKE_ACCEPTED) {
                job_take_inputs(job, item->job);
                log_info("spooled job %s queued again", job->id);
                scheduler_add(d->scheduler, job);
                return;
        }
        /* Its inputs went away, or changed, while cuzkd was down. */
        log_fields(LOG_ERR, 0,
                   LOG_FIELDS({"MESSAGE_ID", CUZK_MID_JOB_FAILED}, {"CUZK_JOB_ID", job->id}),
                   "spooled job %s cannot run again: %s", job->id, item->message);
        job_end(job, JOB_FAILED, item->finished_usec, "%s", item->message);
        cuzkd_job_ended(d, job);
}

void cuzkd_intake_done(void *userdata, struct intake_item *item) {
        struct cuzkd *d = userdata;
        struct job *job = NULL;
        int r = 0;

        assert(d && item);
        if (item->from_spool) {
                spooled_job_checked(d, item);
                return;
        }
        if (item->outcome == INTAKE_FAILED) {
                log_fields(LOG_ERR, 0,
                           LOG_FIELDS({"MESSAGE_ID", CUZK_MID_JOB_FAILED},
                                      {"CUZK_JOB_ID", item->job_id},
                                      {"CUZK_PROOF_KIND", "POREP_SEAL_COMMIT"}),
                           "job %s failed as it came in: %s", item->job_id, item->message);
                d->metrics.jobs_submitted++;
                r = add_failed_job(d, item->job_id, item->request, item->submitted_usec,
                                   &item->owner, item->message, item->finished_usec, false, &job);
        } else if (item->outcome == INTAKE_ACCEPTED)
                r = add_accepted_job(d, item, &job);
        if (item->outcome == INTAKE_REFUSED)
                log_info("SubmitProof refused: %s", item->message);
        else if (r < 0)
                snprintf(item->message, sizeof(item->message), "job %s: out of memory",
                         item->job_id);
        for (struct intake_waiter *w = item->waiters; w; w = w->next)
                if (job)
                        answer_with_job(d, w->call, job, w->prove);
                else
                        (void)api_reply_error(
                                w->call,
                                r < 0 ? GRPC_STATUS_RESOURCE_EXHAUSTED
                                      : status_for_error(item->error, item->spool_error),
                                "%s", item->message);
}

/* An unfinished spooled job: queued in the table now, checked by the intake (with its
 * owner's rights) once the socket is served. */
static int load_unfinished(struct cuzkd *d, const char *job_id,
                           const Cuzk__V1__SubmitProofRequest *request, uint64_t submitted_usec,
                           const struct api_peer *owner, const char *input_path) {
        const struct job_settings settings = cuzkd_job_settings(d);
        struct intake_item *item = NULL;
        char message[1024] = "";
        struct job *job = NULL;
        int r;

        r = job_new_pending(job_id, request, submitted_usec, &job, message, sizeof(message));
        if (r < 0 && r != -ENOMEM) {
                log_error("spooled job %s cannot run again: %s", job_id, message);
                return add_failed_job(d, job_id, request, submitted_usec, owner, message,
                                      job_now_usec(), true, &job);
        }
        if (r >= 0)
                r = intake_item_new(job_id, request, owner, submitted_usec, &settings, true,
                                    input_path, &item);
        if (r < 0) {
                job_free(job);
                return log_error_errno(r, "spooled job %s: %m", job_id);
        }
        job->owner = *owner;
        r = job_table_add(&d->table, job);
        if (r < 0) {
                intake_item_free(item);
                job_free(job);
                return log_error_errno(r, "spooled job %s: %m", job_id);
        }
        cuzkd_work_pending_changed(d);        /* unfinished: its partitions will run */
        return intake_queue(d->intake, item); /* a reloaded job always has room */
}

int cuzkd_load_spooled(void *userdata, const char *job_id,
                       const Cuzk__V1__SubmitProofRequest *request, uint64_t submitted_usec,
                       const struct api_peer *owner, const char *input_path,
                       const Cuzk__V1__AwaitProofResponse *result) {
        struct cuzkd *d = userdata;
        struct job *job = NULL;
        int r;

        if (!result)
                return load_unfinished(d, job_id, request, submitted_usec, owner, input_path);
        r = job_new_ended(job_id, request, submitted_usec, result, &job);
        if (r < 0)
                return log_error_errno(r, "spooled job %s: %m", job_id);
        if (job_table_retention_over(&d->table, job, job_now_usec())) {
                cuzkd_job_forgotten(d, job);
                job_free(job);
                return 0;
        }
        job->owner = *owner;
        r = job_table_add(&d->table, job);
        if (r < 0)
                job_free(job);
        return r;
}
