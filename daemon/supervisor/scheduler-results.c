/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The executor's answers to the scheduler: a partition proved (its proof stored and, for
 * PoRep, verified), failed (queued again or its job failed), or gave its a/b/c bytes back;
 * and the one path by which a job ends. The queue and admission are in scheduler.c.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/log.h"
#include "daemon/executor/ipc.h"
#include "daemon/message-ids.h"
#include "daemon/supervisor/job-porep.h"
#include "daemon/supervisor/log-journal.h"
#include "daemon/supervisor/reservation.h"
#include "daemon/supervisor/scheduler-internal.h"

static void job_remove_if_idle(struct scheduler *s, struct job *job) {
        if (!job_state_is_final(job->state) || job->n_running > 0)
                return;
        for (size_t i = 0; i < s->n_jobs; i++)
                if (s->jobs[i] == job) {
                        memmove(s->jobs + i, s->jobs + i + 1,
                                (s->n_jobs - i - 1) * sizeof(*s->jobs));
                        s->n_jobs--;
                        return;
                }
}

/* Cancels the job's running partitions at the executor (their `finished` follows). */
static void cancel_running(struct scheduler *s, struct job *job) {
        for (unsigned i = 0; i < job->inputs.partitions; i++) {
                struct job_partition *p = &job->partitions[i];
                int r;

                if (p->state != PARTITION_RUNNING)
                        continue;
                r = executor_cancel(s->executor, p->task_id);
                if (r < 0)
                        log_warning_errno(
                                r, "job %s: cannot cancel partition %u (task %" PRIu64 "): %m",
                                job->id, i, p->task_id);
        }
}

/* See scheduler-internal.h. */
void scheduler_end_job(struct scheduler *s, struct job *job, enum job_state state,
                       const char *message) {
        assert(!job_state_is_final(job->state));
        if (message)
                job_end(job, state, job_now_usec(), "%s", message);
        else
                job_end(job, state, job_now_usec(), NULL);
        if (state == JOB_FAILED)
                log_fields(LOG_ERR, 0,
                           LOG_FIELDS({"MESSAGE_ID", CUZK_MID_JOB_FAILED}, {"CUZK_JOB_ID", job->id},
                                      {"CUZK_JOB_STATE", job_state_name(state)}),
                           "job %s failed: %s", job->id, job->error_message);
        else
                log_fields(LOG_INFO, 0,
                           LOG_FIELDS({"CUZK_JOB_ID", job->id},
                                      {"CUZK_JOB_STATE", job_state_name(state)}),
                           "job %s %s", job->id, job_state_name(state));
        cancel_running(s, job);
        if (s->callbacks.job_ended)
                s->callbacks.job_ended(s->userdata, job);
        job_remove_if_idle(s, job);
}

/* See scheduler-internal.h. */
void scheduler_attempt_failed(struct scheduler *s, struct job *job, unsigned i,
                              const struct attempt_failure *f) {
        struct job_partition *p = &job->partitions[i];
        char message[1024];

        if (job_state_is_final(job->state)) {
                p->state = PARTITION_DROPPED;
                return;
        }
        if (s->stopped) {
                /* Shutdown stopped it: it runs again at the next start, from the spool. */
                p->state = PARTITION_QUEUED;
                return;
        }
        if (f->retry && p->attempts < s->max_attempts) {
                p->state = PARTITION_QUEUED;
                s->stats.partition_retries++;
                log_warning("job %s partition %u: attempt %u of %u %s (%s); queued again", job->id,
                            i, p->attempts, s->max_attempts,
                            f->started ? "failed" : "could not be started", f->why);
                return;
        }
        p->state = PARTITION_DROPPED;
        if (!f->started)
                snprintf(message, sizeof(message),
                         "partition %u could not be started in %u attempts: %s", i, p->attempts,
                         f->why);
        else if (f->retry)
                snprintf(message, sizeof(message), "partition %u failed %u times; the last: %s", i,
                         p->attempts, f->why);
        else
                snprintf(message, sizeof(message), "partition %u: %s", i, f->why);
        scheduler_end_job(s, job, JOB_FAILED, message);
}

/* The job and partition of a running task. */
static struct job *find_task(struct scheduler *s, uint64_t task_id, unsigned *ret_partition) {
        for (size_t j = 0; j < s->n_jobs; j++)
                for (unsigned i = 0; i < s->jobs[j]->inputs.partitions; i++) {
                        const struct job_partition *p = &s->jobs[j]->partitions[i];

                        if (p->state == PARTITION_RUNNING && p->task_id == task_id) {
                                *ret_partition = i;
                                return s->jobs[j];
                        }
                }
        return NULL;
}

static void on_abc_released(void *userdata, uint64_t task_id) {
        struct scheduler *s = userdata;
        struct job *job;
        unsigned i;

        job = find_task(s, task_id, &i);
        if (!job || !reservation_holds_abc(&job->partitions[i].reservation)) {
                log_warning("abc_released for task %" PRIu64 ", which holds no a/b/c bytes",
                            task_id);
                return;
        }
        (void)reservation_release_abc(&job->partitions[i].reservation);
        scheduler_kick(s);
}

static int store_proof(struct job *job, unsigned partition, const struct executor_result *r) {
        if (job_kind_has_filecoin_proofs(job->inputs.kind)) {
                if (!r->proof || r->proof_size != sizeof(job->partitions[partition].proof))
                        return -EBADMSG;
                memcpy(job->partitions[partition].proof, r->proof, r->proof_size);
                return 0;
        }
        if (!r->proof_json || !r->public_json)
                return -EBADMSG;
        free(job->proof_json);
        free(job->public_json);
        job->proof_json = strdup(r->proof_json);
        job->public_json = strdup(r->public_json);
        return job->proof_json && job->public_json ? 0 : -ENOMEM;
}

static void partition_succeeded(struct scheduler *s, struct job *job, unsigned i,
                                const struct executor_result *result) {
        char message[512];
        int r;

        r = store_proof(job, i, result);
        if (r < 0) {
                snprintf(message, sizeof(message),
                         "partition %u: the executor returned no usable proof (%s)", i,
                         strerror(-r));
                scheduler_end_job(s, job, JOB_FAILED, message);
                return;
        }
        /* A PoRep partition is verified before the job can complete: a proof that does not
         * verify fails the job (a wrong key or a bug; proving it again would not help). */
        if (job->inputs.kind == JOB_POREP_C2 &&
            job_porep_verify(job, i, job->partitions[i].proof, sizeof(job->partitions[i].proof),
                             message, sizeof(message)) < 0) {
                scheduler_end_job(s, job, JOB_FAILED, message);
                return;
        }
        job->partitions[i].state = PARTITION_DONE;
        job->n_done++;
        s->stats.partitions_proved++;
        if (job->n_done == job->inputs.partitions)
                scheduler_end_job(s, job, JOB_COMPLETED, NULL);
}

static void partition_failed(struct scheduler *s, struct job *job, unsigned i,
                             const struct executor_result *result) {
        struct attempt_failure f = {.started = true, .why = result->message};

        switch (result->failure) {
        case EXECUTOR_FAILED_WORKER:
                s->stats.worker_failures++;
                f.retry = true;
                break;
        case EXECUTOR_FAILED_PROVER:
                s->stats.prover_failures++;
                f.retry = true;
                break;
        case EXECUTOR_FAILED_INPUT:
                s->stats.input_failures++;
                break;
        case EXECUTOR_FAILED_CANCELED:
                /* We cancelled it because the job ended; if not, the executor gave up on it
                 * (shutdown of a worker slot, say): run it again. */
                f.retry = true;
                break;
        case EXECUTOR_OK:
                assert(false);
        }
        scheduler_attempt_failed(s, job, i, &f);
}

/* What the prover that proved a partition of job keeps of its circuit: the circuit's
 * reservation follows it. */
static void note_held(struct scheduler *s, const struct job *job, uint32_t witness_form,
                      const struct executor_result *result) {
        char key[sizeof(job->shape.circuit_id)];
        enum job_kind kind;

        if (job_circuit_key(job->shape.circuit_id, &kind, key, sizeof(key)) >= 0)
                circuit_cache_key_held(&s->circuits, kind, key, result->prover,
                                       result->key_host_bytes);
        /* A compact partition had the prover take the PCE in. */
        if (witness_form == IPC_WITNESS_COMPACT)
                circuit_cache_pce_held(&s->circuits, job->shape.circuit_id, result->prover,
                                       result->pce_host_bytes);
}

static void on_finished(void *userdata, uint64_t task_id, const struct executor_result *result) {
        struct scheduler *s = userdata;
        struct job *job;
        unsigned i;

        assert(result);
        job = find_task(s, task_id, &i);
        if (!job) {
                log_warning("the executor finished task %" PRIu64 ", which is not running",
                            task_id);
                return;
        }
        (void)reservation_release(&job->partitions[i].reservation);
        if (result->held_reported)
                note_held(s, job, job->partitions[i].witness_form, result);
        (void)circuit_cache_unref(&s->circuits, job->shape.circuit_id,
                                  job->partitions[i].witness_form);
        job->n_running--;
        if (result->oom_killed)
                s->stats.worker_oom_kills++;
        if (result->worker_peak_bytes > s->stats.worker_peak_bytes)
                s->stats.worker_peak_bytes = result->worker_peak_bytes;
        job->synthesis_usec += result->synthesis_usec;
        job->srs_load_usec += result->srs_load_usec;
        job->gpu_usec += result->gpu_stage_usec + result->g2_tail_usec;

        if (result->failure == EXECUTOR_OK) {
                if (job_state_is_final(job->state))
                        job->partitions[i].state = PARTITION_DROPPED;
                else
                        partition_succeeded(s, job, i, result);
        } else
                partition_failed(s, job, i, result);
        job_remove_if_idle(s, job);
        scheduler_kick(s);
}

/* A worker cgroup came free: what -EBUSY held back may go now. */
static void on_slot_free(void *userdata) {
        scheduler_kick(userdata);
}

static void on_preload_progress(void *userdata) {
        struct scheduler *s = userdata;

        if (s->callbacks.preload_progress)
                s->callbacks.preload_progress(s->userdata);
}

/* No prover loaded a preloaded key (logged): give its bytes back, or admission waits. */
static void on_preload_failed(void *userdata, const char *circuit_id,
                              const char *message __attribute__((unused))) {
        uint64_t freed;

        (void)scheduler_evict(userdata, circuit_id, &freed);
}

/* A prover answered a preload: the circuits of the key reserve what it keeps. */
static void on_key_held(void *userdata, unsigned prover, enum job_kind kind, const char *key_path,
                        uint64_t key_host_bytes) {
        struct scheduler *s = userdata;

        circuit_cache_key_held(&s->circuits, kind, key_path, prover, key_host_bytes);
        scheduler_kick(s);
}

/* A prover's process ended: its successor loads keys and PCEs afresh. */
static void on_prover_lost(void *userdata, unsigned prover) {
        struct scheduler *s = userdata;

        circuit_cache_prover_lost(&s->circuits, prover);
}

const struct executor_callbacks scheduler_executor_callbacks = {
        .key_held = on_key_held,
        .prover_lost = on_prover_lost,
        .abc_released = on_abc_released,
        .finished = on_finished,
        .slot_free = on_slot_free,
        .preload_progress = on_preload_progress,
        .preload_failed = on_preload_failed,
};
