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
#include "daemon/supervisor/peer-files.h"
#include "daemon/supervisor/log-journal.h"
#include "daemon/message-ids.h"
#include "daemon/supervisor/job-porep.h"
#include "daemon/supervisor/job-limits.h"
#include "daemon/supervisor/intake.h"

void cuzkd_job_ended(void *userdata, struct job *job) {
        struct cuzkd *d = userdata;
        Cuzk__V1__AwaitProofResponse result;

        assert(d);
        assert(job);
        metrics_job_ended(&d->metrics, job);
        cuzkd_work_pending_changed(d);
        job_result(job, &result);
        /* Written off the loop; its calls are answered once it is (cuzkd_result_spooled).
         * A failed or cancelled job's inline input is never read again. */
        job->result_spooling = true;
        (void)spool_writer_save_result(d->spool_writer, job->id, &result,
                                       job->state == JOB_FAILED || job->state == JOB_CANCELLED);
}

void cuzkd_work_pending_changed(struct cuzkd *d) {
        size_t unfinished;

        assert(d);
        if (!d->executor)
                return;
        job_table_count_unfinished(&d->table, NULL, &unfinished, NULL);
        executor_set_work_pending(d->executor, unfinished > 0);
}

void cuzkd_result_spooled(void *userdata, const char *job_id, int r) {
        struct cuzkd *d = userdata;
        struct job *job = job_table_find(&d->table, job_id);

        assert(d);
        if (r < 0)
                log_error_errno(r,
                                "job %s: its result is not spooled (it runs again after a "
                                "restart): %m",
                                job_id);
        if (!job)
                return;
        job->result_spooling = false;
        job_table_notify(&d->table, job);
}

void cuzkd_job_forgotten(void *userdata, const struct job *job) {
        struct cuzkd *d = userdata;
        uint64_t now = job_now_usec();

        assert(d);
        assert(job);
        log_info("job %s forgotten: %s %" PRIu64 " s ago (ResultRetention=%" PRIu64 ")%s", job->id,
                 job_state_name(job->state),
                 now > job->finished_usec ? (now - job->finished_usec) / 1000000 : 0,
                 d->config.result_retention_sec,
                 job->result_delivered ? "" : "; its result was never collected");
        spool_writer_remove_job(d->spool_writer, job->id); /* errors logged there */
}

struct job_settings cuzkd_job_settings(const struct cuzkd *d) {
        return (struct job_settings){
                .prover_threads = d->config.prover_threads,
                .parameter_cache = d->config.parameter_cache,
                .pce_cache = d->config.pce_cache,
        };
}

static int on_submit_proof(struct api_call *call, const Cuzk__V1__SubmitProofRequest *request,
                           void *userdata) {
        struct cuzkd *d = userdata;
        enum grpc_status status = GRPC_STATUS_INTERNAL;
        char message[1024] = "";

        if (job_limits_check(d, api_call_peer(call), request, &status, message, sizeof(message)))
                return api_reply_error(call, status, "%s", message);
        /* Answered once the intake has checked and spooled it (submit.c). */
        return cuzkd_submit(d, call, request, false);
}

/* A job quarantined at start-up (spool.h): AwaitProof gets it as FAILED, which clients
 * (Curio) take as final, with why and where it is kept; CancelProof gets
 * FAILED_PRECONDITION, as for any job that ended. */
static int reply_quarantined(struct api_call *call, const struct cuzkd *d,
                             const struct spool_quarantined *q, bool await) {
        Cuzk__V1__AwaitProofResponse response = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
        char message[sizeof(q->reason) + sizeof(d->config.spool_dir) + sizeof(q->dir) + 64];

        if (q->owner_known && !job_limits_may_access(d, api_call_peer(call), &q->owner))
                return api_reply_error(call, GRPC_STATUS_PERMISSION_DENIED,
                                       "job %s belongs to another user", q->job_id);
        snprintf(message, sizeof(message), "quarantined at start-up: %s; kept as %s/%s", q->reason,
                 d->config.spool_dir, q->dir);
        if (!await)
                return api_reply_error(call, GRPC_STATUS_FAILED_PRECONDITION,
                                       "job %s already ended: FAILED, %s", q->job_id, message);
        response.job_id = (char *)q->job_id;
        response.status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED;
        response.error_message = message;
        return api_reply(call, &response.base);
}

/* NOT_FOUND for a job id the table does not have, unless the spool quarantined it. */
static int reply_no_job(struct api_call *call, const struct cuzkd *d, const char *job_id,
                        bool await) {
        const struct spool_quarantined *q = spool_find_quarantined(d->spool, job_id);

        if (q)
                return reply_quarantined(call, d, q, await);
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
                return reply_no_job(call, d, request->job_id, true);
        if (!job_limits_may_access(d, api_call_peer(call), &job->owner))
                return api_reply_error(call, GRPC_STATUS_PERMISSION_DENIED,
                                       "job %s belongs to another user", job->id);
        if (job_state_is_final(job->state))
                return job_table_reply(&d->table, call, job, false);
        return job_table_wait(&d->table, job, call, request->timeout_ms, false);
}

static int on_prove(struct api_call *call, const Cuzk__V1__ProveRequest *request, void *userdata) {
        struct cuzkd *d = userdata;
        enum grpc_status status = GRPC_STATUS_INTERNAL;
        char message[1024] = "";

        if (job_limits_check(d, api_call_peer(call), request->submit, &status, message,
                             sizeof(message)))
                return api_reply_error(call, status, "%s", message);
        if (!request->submit)
                return api_reply_error(call, GRPC_STATUS_INVALID_ARGUMENT,
                                       "ProveRequest.submit is required");
        /* Answered with the result once the job ends (submit.c). */
        return cuzkd_submit(d, call, request->submit, true);
}

static int on_cancel_proof(struct api_call *call, const Cuzk__V1__CancelProofRequest *request,
                           void *userdata) {
        struct cuzkd *d = userdata;
        Cuzk__V1__CancelProofResponse response = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
        struct job *job = job_table_find(&d->table, request->job_id);
        bool was_running = false;

        if (!job)
                return reply_no_job(call, d, request->job_id, false);
        if (!job_limits_may_access(d, api_call_peer(call), &job->owner))
                return api_reply_error(call, GRPC_STATUS_PERMISSION_DENIED,
                                       "job %s belongs to another user", job->id);
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
        r = status_fill(userdata, api_call_peer(call), &response);
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
 * answer comes once every prover in service has answered the load, so that a client that
 * preloads and then submits finds the key resident, or hears why it is not. */
static int on_preload_srs(struct api_call *call, const Cuzk__V1__PreloadSrsRequest *request,
                          void *userdata) {
        struct cuzkd *d = userdata;
        struct peer_files files;
        struct preload_key key;
        char message[1024];
        uint64_t bytes = 0;
        bool already;
        int r;

        if (!request->circuit_id || !*request->circuit_id)
                return api_reply_error(call, GRPC_STATUS_INVALID_ARGUMENT,
                                       "circuit_id is required");
        /* The files are the client's: opened with its rights, so it reserves budget only for
         * files it could read itself. */
        peer_files_init(&files, api_call_peer(call));
        r = preload_circuit(d, &files, request->circuit_id, &already, &bytes, &key, message,
                            sizeof(message));
        if (r == -ENOENT)
                return api_reply_error(call, GRPC_STATUS_NOT_FOUND,
                                       "%s; cuzkd's circuit ids are the path of a .zkey, or "
                                       "PCE+PARAMS",
                                       message);
        if (r == -ENOSPC)
                return api_reply_error(call, GRPC_STATUS_RESOURCE_EXHAUSTED, "%s", message);
        if (r == -EINVAL)
                return api_reply_error(call, GRPC_STATUS_INVALID_ARGUMENT, "%s", message);
        if (r == -EPERM || r == -EACCES)
                return api_reply_error(call, GRPC_STATUS_PERMISSION_DENIED, "%s", message);
        if (r < 0)
                return r;
        log_info("PreloadSRS %s: %" PRIu64 " bytes reserved from the memory budget%s; every "
                 "prover loads it now",
                 request->circuit_id, bytes, already ? " (already reserved)" : "");
        return preload_answer(d, call, request->circuit_id, &key, already);
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

        /* A SubmitProof or Prove still being checked, a PreloadSRS waiting for the load,
         * else a waiter of the table. */
        if (d->intake && intake_abandon(d->intake, call))
                return;
        if (preload_abandon(d, call))
                return;
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
