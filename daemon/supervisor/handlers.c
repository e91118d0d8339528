/* SPDX-License-Identifier: Apache-2.0 */
/* The methods of cuzk.v1.ProvingEngine on the supervisor's state. */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "daemon/supervisor/handlers.h"
#include "daemon/supervisor/status.h"
#include "daemon/supervisor/preload.h"
#include "daemon/supervisor/log-journal.h"
#include "daemon/message-ids.h"
#include "daemon/supervisor/job-porep.h"

/* A job id unique across restarts: a count and random bits. */
static void new_job_id(struct cuzkd *d, char *buf, size_t size) {
        uint32_t random_bits = 0;

        if (getrandom(&random_bits, sizeof(random_bits), GRND_NONBLOCK) != sizeof(random_bits))
                random_bits = (uint32_t)job_now_usec();
        snprintf(buf, size, "job-%" PRIu64 "-%08" PRIx32, ++d->job_counter, random_bits);
}

static enum grpc_status status_for_error(int r) {
        switch (r) {
        case -EOPNOTSUPP:
                return GRPC_STATUS_UNIMPLEMENTED;
        case -ENOMEM:
                return GRPC_STATUS_RESOURCE_EXHAUSTED;
        case -EIO:
        case -ENOSPC:
                return GRPC_STATUS_INTERNAL;
        default:
                return GRPC_STATUS_INVALID_ARGUMENT;
        }
}

void cuzkd_job_ended(void *userdata, struct job *job) {
        struct cuzkd *d = userdata;
        Cuzk__V1__AwaitProofResponse result;
        int r;

        assert(d);
        assert(job);
        metrics_job_ended(&d->metrics, job);
        job_result(job, &result);
        r = spool_save_result(d->spool, job->id, &result);
        if (r < 0)
                log_error_errno(r, "job %s: cannot spool its result: %m", job->id);
        job_table_notify(&d->table, job);
}

void cuzkd_job_forgotten(void *userdata, const struct job *job) {
        struct cuzkd *d = userdata;
        uint64_t now = job_now_usec();
        int r;

        assert(d);
        assert(job);
        log_info("job %s forgotten: %s %" PRIu64 " s ago (ResultRetention=%" PRIu64 ")%s", job->id,
                 job_state_name(job->state),
                 now > job->finished_usec ? (now - job->finished_usec) / 1000000 : 0,
                 d->config.result_retention_sec,
                 job->result_delivered ? "" : "; its result was never collected");
        r = spool_remove_job(d->spool, job->id);
        if (r < 0)
                log_error_errno(r, "job %s: cannot remove it from the spool: %m", job->id);
}

struct job_settings cuzkd_job_settings(const struct cuzkd *d) {
        return (struct job_settings){
                .prover_threads = d->config.prover_threads,
                .parameter_cache = d->config.parameter_cache,
                .pce_cache = d->config.pce_cache,
        };
}

/* A job that ended FAILED as it came in (or when the spool brought it back): its result
 * spooled, in the table for AwaitProof, counted. */
static int add_failed_job(struct cuzkd *d, const char *id,
                          const Cuzk__V1__SubmitProofRequest *request, uint64_t submitted_usec,
                          const struct api_peer *owner, const char *message, struct job **ret) {
        Cuzk__V1__AwaitProofResponse failed = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
        struct job *job = NULL;
        int r;

        failed.job_id = (char *)id;
        failed.status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
        failed.error_message = (char *)message;
        /* It ended now: its retention counts from here. */
        failed.total_ms = (job_now_usec() - submitted_usec) / 1000;
        (void)spool_save_result(d->spool, id, &failed);
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

/* A PoRep job whose C1 output or parameters are wrong is accepted as a job that FAILED at
 * once, with the reason, as the reference daemon answers Curio (it awaits every job it
 * submitted); other kinds' bad requests are refused. */
static bool fails_as_job(const Cuzk__V1__SubmitProofRequest *request, int r) {
        return request->proof_kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT && r != -ENOMEM;
}

/* Makes, spools and queues a job; on error *ret_status and message say why. */
static int submit(struct cuzkd *d, const Cuzk__V1__SubmitProofRequest *request,
                  const struct api_peer *owner, struct job **ret_job, enum grpc_status *ret_status,
                  char *message, size_t message_size) {
        _cleanup_free_ char *input_path = NULL;
        const struct job_settings settings = cuzkd_job_settings(d);
        struct job *job;
        char id[40];
        uint64_t now = job_now_usec();
        int r;

        job = job_table_find_request(&d->table, request->request_id);
        if (job) {
                *ret_job = job;
                return 0;
        }
        if (d->stopping) {
                *ret_status = GRPC_STATUS_UNAVAILABLE;
                snprintf(message, message_size, "cuzkd is shutting down");
                return -ESHUTDOWN;
        }
        new_job_id(d, id, sizeof(id));
        /* Spooled first: an inline witness or C1 output becomes a file there, which the job
         * reads. */
        r = spool_save_job(d->spool, id, request, now, owner, &input_path);
        if (r < 0) {
                *ret_status = GRPC_STATUS_INTERNAL;
                snprintf(message, message_size, "cannot spool the job: %s", strerror(-r));
                return r;
        }
        r = job_new(id, request, input_path, now, &settings, &job, message, message_size);
        if (r < 0 && fails_as_job(request, r)) {
                log_fields(LOG_ERR, 0,
                           LOG_FIELDS({"MESSAGE_ID", CUZK_MID_JOB_FAILED}, {"CUZK_JOB_ID", id},
                                      {"CUZK_PROOF_KIND", "POREP_SEAL_COMMIT"}),
                           "job %s failed as it came in: %s", id, message);
                d->metrics.jobs_submitted++;
                r = add_failed_job(d, id, request, now, owner, message, ret_job);
                if (r >= 0) {
                        (*ret_job)->from_spool = false;
                        return 0;
                }
        }
        if (r < 0) {
                (void)spool_remove_job(d->spool, id);
                *ret_status = status_for_error(r);
                log_info("SubmitProof refused: %s", message);
                return r;
        }
        job->owner = *owner;
        r = job_table_add(&d->table, job);
        if (r < 0) {
                job_free(job);
                (void)spool_remove_job(d->spool, id);
                *ret_status = GRPC_STATUS_RESOURCE_EXHAUSTED;
                snprintf(message, message_size, "out of memory");
                return r;
        }
        d->metrics.jobs_submitted++;
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
        scheduler_add(d->scheduler, job);
        *ret_job = job;
        return 0;
}

static int on_submit_proof(struct api_call *call, const Cuzk__V1__SubmitProofRequest *request,
                           void *userdata) {
        struct cuzkd *d = userdata;
        Cuzk__V1__SubmitProofResponse response = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
        enum grpc_status status = GRPC_STATUS_INTERNAL;
        char message[1024] = "";
        struct job *job;
        int r;

        r = submit(d, request, api_call_peer(call), &job, &status, message, sizeof(message));
        if (r < 0)
                return api_reply_error(call, status, "%s", message);
        response.job_id = job->id;
        response.queue_position = scheduler_queue_position(d->scheduler, job);
        response.assigned_gpu = (char *)"";
        return api_reply(call, &response.base);
}

/* NOT_FOUND for a job id the table does not have. */
static int reply_no_job(struct api_call *call, const struct cuzkd *d, const char *job_id) {
        if (d->config.result_retention_sec == 0)
                return api_reply_error(call, GRPC_STATUS_NOT_FOUND,
                                       "no job %s: its result was delivered already and "
                                       "forgotten (ResultRetention=0), or it never existed",
                                       job_id);
        return api_reply_error(call, GRPC_STATUS_NOT_FOUND,
                               "no job %s: it ended more than ResultRetention=%" PRIu64
                               " seconds ago and was forgotten, or it never existed",
                               job_id, d->config.result_retention_sec);
}

static int on_await_proof(struct api_call *call, const Cuzk__V1__AwaitProofRequest *request,
                          void *userdata) {
        struct cuzkd *d = userdata;
        struct job *job = job_table_find(&d->table, request->job_id);

        if (!job)
                return reply_no_job(call, d, request->job_id);
        if (job_state_is_final(job->state))
                return job_table_reply(&d->table, call, job, false);
        return job_table_wait(&d->table, job, call, request->timeout_ms, false);
}

static int on_prove(struct api_call *call, const Cuzk__V1__ProveRequest *request, void *userdata) {
        struct cuzkd *d = userdata;
        enum grpc_status status = GRPC_STATUS_INTERNAL;
        char message[1024] = "";
        struct job *job;
        int r;

        if (!request->submit)
                return api_reply_error(call, GRPC_STATUS_INVALID_ARGUMENT,
                                       "ProveRequest.submit is required");
        r = submit(d, request->submit, api_call_peer(call), &job, &status, message,
                   sizeof(message));
        if (r < 0)
                return api_reply_error(call, status, "%s", message);
        if (job_state_is_final(job->state))
                return job_table_reply(&d->table, call, job, true);
        return job_table_wait(&d->table, job, call, 0, true);
}

static int on_cancel_proof(struct api_call *call, const Cuzk__V1__CancelProofRequest *request,
                           void *userdata) {
        struct cuzkd *d = userdata;
        Cuzk__V1__CancelProofResponse response = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
        struct job *job = job_table_find(&d->table, request->job_id);
        bool was_running = false;

        if (!job)
                return reply_no_job(call, d, request->job_id);
        if (job_state_is_final(job->state))
                return api_reply_error(call, GRPC_STATUS_FAILED_PRECONDITION,
                                       "job %s already ended: %s", job->id,
                                       job_state_name(job->state));
        scheduler_cancel(d->scheduler, job, &was_running);
        response.was_running = was_running;
        return api_reply(call, &response.base);
}

static int on_get_status(struct api_call *call, const Cuzk__V1__GetStatusRequest *request,
                         void *userdata) {
        Cuzk__V1__GetStatusResponse response;
        int r;

        (void)request;
        r = status_fill(userdata, &response);
        if (r >= 0)
                r = api_reply(call, &response.base);
        status_response_done(&response);
        return r;
}

static int on_get_metrics(struct api_call *call, const Cuzk__V1__GetMetricsRequest *request,
                          void *userdata) {
        Cuzk__V1__GetMetricsResponse response = CUZK__V1__GET_METRICS_RESPONSE__INIT;
        _cleanup_free_ char *text = NULL;
        int r;

        (void)request;
        r = metrics_format(userdata, &text);
        if (r < 0)
                return r;
        response.prometheus_text = text;
        return api_reply(call, &response.base);
}

/* Reserves the circuit's bytes and has every prover load its key now (preload.h); the
 * answer comes at once, the loads go on in the provers (logged, with their times). */
static int on_preload_srs(struct api_call *call, const Cuzk__V1__PreloadSrsRequest *request,
                          void *userdata) {
        struct cuzkd *d = userdata;
        Cuzk__V1__PreloadSrsResponse response = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
        char message[1024];
        uint64_t bytes = 0;
        bool already;
        int r;

        if (!request->circuit_id || !*request->circuit_id)
                return api_reply_error(call, GRPC_STATUS_INVALID_ARGUMENT,
                                       "circuit_id is required");
        r = preload_circuit(d, request->circuit_id, &already, &bytes, message, sizeof(message));
        if (r == -ENOENT)
                return api_reply_error(call, GRPC_STATUS_NOT_FOUND,
                                       "%s; cuzkd's circuit ids are the path of a .zkey, or "
                                       "PCE+PARAMS",
                                       message);
        if (r == -ENOSPC)
                return api_reply_error(call, GRPC_STATUS_RESOURCE_EXHAUSTED, "%s", message);
        if (r == -EINVAL)
                return api_reply_error(call, GRPC_STATUS_INVALID_ARGUMENT, "%s", message);
        if (r < 0)
                return r;
        log_info("PreloadSRS %s: %" PRIu64 " bytes reserved from the memory budget%s; every "
                 "prover loads it now",
                 request->circuit_id, bytes, already ? " (already reserved)" : "");
        response.already_loaded = already;
        response.load_time_ms = 0;
        return api_reply(call, &response.base);
}

static int on_evict_srs(struct api_call *call, const Cuzk__V1__EvictSrsRequest *request,
                        void *userdata) {
        struct cuzkd *d = userdata;
        Cuzk__V1__EvictSrsResponse response = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
        const struct job_settings settings = cuzkd_job_settings(d);
        char circuit[2 * PATH_MAX], message[1024];
        uint64_t freed = 0;
        int r;

        if (!request->circuit_id || !*request->circuit_id)
                return api_reply_error(call, GRPC_STATUS_INVALID_ARGUMENT,
                                       "circuit_id is required");
        snprintf(circuit, sizeof(circuit), "%s", request->circuit_id);
        /* "porep-32g": the reference's name of the circuit PoRep jobs of that size use. */
        if (job_porep_is_circuit_alias(request->circuit_id) &&
            job_porep_circuit_id(request->circuit_id, &settings, false, circuit, sizeof(circuit),
                                 message, sizeof(message)) < 0)
                return api_reply_error(call, GRPC_STATUS_INVALID_ARGUMENT, "%s", message);
        r = scheduler_evict(d->scheduler, circuit, &freed);
        if (r < 0 && r != -ENOENT)
                return r;
        response.was_loaded = r >= 0;
        response.freed_bytes = freed;
        log_info("EvictSRS %s: %s, %" PRIu64 " bytes back to the memory budget",
                 request->circuit_id, r >= 0 ? "preload dropped" : "was not preloaded", freed);
        return api_reply(call, &response.base);
}

static void on_call_abandoned(struct api_call *call, void *userdata) {
        struct cuzkd *d = userdata;

        job_table_abandon(&d->table, call);
}

const struct api_handler cuzkd_api_handler = {
        .submit_proof = on_submit_proof,
        .await_proof = on_await_proof,
        .prove = on_prove,
        .cancel_proof = on_cancel_proof,
        .get_status = on_get_status,
        .get_metrics = on_get_metrics,
        .preload_srs = on_preload_srs,
        .evict_srs = on_evict_srs,
        .call_abandoned = on_call_abandoned,
};

int cuzkd_load_spooled(void *userdata, const char *job_id,
                       const Cuzk__V1__SubmitProofRequest *request, uint64_t submitted_usec,
                       const struct api_peer *owner, const char *input_path,
                       const Cuzk__V1__AwaitProofResponse *result) {
        struct cuzkd *d = userdata;
        const struct job_settings settings = cuzkd_job_settings(d);
        char message[1024] = "";
        struct job *job = NULL;
        int r;

        if (result) {
                r = job_new_ended(job_id, request, submitted_usec, result, &job);
                if (r >= 0 && job_table_retention_over(&d->table, job, job_now_usec())) {
                        cuzkd_job_forgotten(d, job);
                        job_free(job);
                        return 0;
                }
        } else {
                r = job_new(job_id, request, input_path, submitted_usec, &settings, &job, message,
                            sizeof(message));
                if (r < 0 && r != -ENOMEM) {
                        /* Its inputs went away while cuzkd was down: it fails, for good. */
                        log_error("spooled job %s cannot run again: %s", job_id, message);
                        return add_failed_job(d, job_id, request, submitted_usec, owner, message,
                                              &job);
                }
        }
        if (r < 0)
                return log_error_errno(r, "spooled job %s: %m", job_id);
        job->owner = *owner;
        r = job_table_add(&d->table, job);
        if (r < 0) {
                job_free(job);
                return r;
        }
        if (!job_state_is_final(job->state)) {
                log_info("spooled job %s queued again", job_id);
                scheduler_add(d->scheduler, job);
        }
        return 0;
}
