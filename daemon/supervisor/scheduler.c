/* SPDX-License-Identifier: Apache-2.0 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "daemon/supervisor/log-journal.h"
#include "daemon/message-ids.h"
#include "daemon/supervisor/circuit-cache.h"
#include "daemon/supervisor/reservation.h"
#include "daemon/supervisor/scheduler.h"
#include "daemon/supervisor/job-porep.h"

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

/* Whether a goes before b: higher priority, then older, then earlier arrival. */
static bool job_before(const struct job *a, const struct job *b) {
        if (a->priority != b->priority)
                return a->priority > b->priority;
        if (a->submitted_usec != b->submitted_usec)
                return a->submitted_usec < b->submitted_usec;
        return a->sequence < b->sequence;
}

static void kick(struct scheduler *s) {
        if (s->kick)
                (void)sd_event_source_set_enabled(s->kick, SD_EVENT_ONESHOT);
}

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

/* Ends a job that has not ended: its waiters hear of it now, running partitions are
 * cancelled and give their bytes back when the executor says they are over. */
static void end_job(struct scheduler *s, struct job *job, enum job_state state,
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

/* How one attempt of a partition ended without a proof. */
struct attempt_failure {
        bool retry;      /* a worker or prover death, or a start that failed: try again */
        bool started;    /* false: the worker could not even be started */
        const char *why; /* the executor's message, or the start's error */
};

/* The one retry path of a partition attempt that failed, whichever way: queued again
 * while attempts remain (and the job lives), else the job fails with the reason. */
static void attempt_failed(struct scheduler *s, struct job *job, unsigned i,
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
        end_job(s, job, JOB_FAILED, message);
}

enum admission {
        ADMITTED,     /* it runs */
        HELD,         /* it does not fit or no worker is free: nothing overtakes it */
        START_FAILED, /* its worker could not be started: an attempt that failed */
};

/* Reserves partition i's bytes (its circuit's too when not reserved yet: they move into
 * the circuit's permanent reservation) and submits it to the executor. */
static enum admission admit_partition(struct scheduler *s, struct job *job, unsigned i,
                                      int *ret_error) {
        struct job_partition *p = &job->partitions[i];
        uint64_t shared = circuit_cache_need(&s->circuits, &job->shape);
        uint64_t need = job->shape.abc_bytes + job->shape.rest_bytes + shared;
        struct executor_task task;
        int r;

        if (!budget_fits(s->budget, need) &&
            !circuit_cache_evict_for(&s->circuits, need, job->shape.circuit_id))
                return HELD;
        r = reservation_reserve(&p->reservation, s->budget, job->shape.abc_bytes,
                                job->shape.rest_bytes + shared);
        assert(r == 0); /* it fits, checked above */
        if (circuit_cache_ref(&s->circuits, &job->shape, &p->reservation) < 0) {
                (void)reservation_release(&p->reservation);
                return HELD;
        }
        task = (struct executor_task){
                .task_id = ++s->next_task_id,
                .inputs = &job->inputs,
                .partition = i,
                .abc_bytes = job->shape.abc_bytes,
                .rest_bytes = job->shape.rest_bytes,
        };
        r = executor_submit(s->executor, &task);
        if (r < 0) {
                (void)reservation_release(&p->reservation);
                (void)circuit_cache_unref(&s->circuits, job->shape.circuit_id);
                /* Every worker cgroup is busy: slot_free kicks us. */
                if (r == -EBUSY)
                        return HELD;
                *ret_error = r;
                return START_FAILED;
        }
        p->state = PARTITION_RUNNING;
        p->task_id = task.task_id;
        p->attempts++;
        job->n_running++;
        s->stats.partitions_admitted++;
        if (job->state == JOB_QUEUED) {
                job->state = JOB_RUNNING;
                job->started_usec = job_now_usec();
        }
        log_debug("job %s partition %u admitted (task %" PRIu64 ", attempt %u): %" PRIu64
                  " bytes reserved of %" PRIu64,
                  job->id, i, task.task_id, p->attempts, s->budget->reserved_bytes,
                  s->budget->total_bytes);
        return ADMITTED;
}

/* Admits partitions in order while they fit; see scheduler.h. */
static void admit(struct scheduler *s) {
        for (size_t j = 0; j < s->n_jobs; j++) {
                struct job *job = s->jobs[j];

                if (job_state_is_final(job->state))
                        continue;
                for (unsigned i = 0; i < job->inputs.partitions; i++) {
                        int error = 0;

                        if (job->partitions[i].state != PARTITION_QUEUED)
                                continue;
                        if (s->paused || s->stopped || !s->executor)
                                return;
                        switch (admit_partition(s, job, i, &error)) {
                        case ADMITTED:
                                continue;
                        case HELD:
                                return; /* nothing overtakes the head of the queue */
                        case START_FAILED:
                                break;
                        }
                        /* The worker could not be started (fork or the cgroup failing):
                         * an attempt like any worker death. */
                        job->partitions[i].attempts++;
                        s->stats.worker_failures++;
                        attempt_failed(
                                s, job, i,
                                &(struct attempt_failure){.retry = true, .why = strerror(-error)});
                        if (!job_state_is_final(job->state)) {
                                kick(s); /* from the loop, not in this pass */
                                return;
                        }
                        j--; /* the job may have left the list */
                        break;
                }
        }
}

static int on_kick(sd_event_source *source, void *userdata) {
        (void)source;
        admit(userdata);
        return 0;
}

int scheduler_new(sd_event *event, struct budget *budget, const struct scheduler_options *options,
                  const struct scheduler_callbacks *callbacks, void *userdata,
                  struct scheduler **ret) {
        struct scheduler *s;
        int r;

        assert(event);
        assert(budget);
        assert(options && options->max_attempts >= 1);
        assert(callbacks);
        assert(ret);
        s = calloc(1, sizeof(*s));
        if (!s)
                return -ENOMEM;
        s->event = sd_event_ref(event);
        s->budget = budget;
        s->max_attempts = options->max_attempts;
        circuit_cache_init(&s->circuits, budget);
        s->callbacks = *callbacks;
        s->userdata = userdata;
        r = sd_event_add_defer(event, &s->kick, on_kick, s);
        if (r < 0) {
                scheduler_free(s);
                return log_error_errno(r, "Failed to add the admission event source: %m");
        }
        (void)sd_event_source_set_enabled(s->kick, SD_EVENT_OFF);
        *ret = s;
        return 0;
}

struct scheduler *scheduler_free(struct scheduler *s) {
        if (!s)
                return NULL;
        sd_event_source_disable_unref(s->kick);
        circuit_cache_done(&s->circuits);
        free(s->jobs);
        sd_event_unref(s->event);
        free(s);
        return NULL;
}

void scheduler_set_executor(struct scheduler *s, struct executor *executor, unsigned n_provers) {
        assert(s);
        s->executor = executor;
        s->circuits.executor = executor;
        s->circuits.n_provers = n_provers ? n_provers : 1;
        kick(s);
}

void scheduler_add(struct scheduler *s, struct job *job) {
        uint64_t need;
        char message[1536];
        size_t i;

        assert(s);
        assert(job);
        assert(!job_state_is_final(job->state));
        job->sequence = s->next_sequence++;
        if (s->n_jobs == s->jobs_allocated) {
                size_t n = s->jobs_allocated ? 2 * s->jobs_allocated : 64;
                struct job **jobs = realloc(s->jobs, n * sizeof(*jobs));

                if (!jobs) {
                        end_job(s, job, JOB_FAILED, "out of memory queueing the job");
                        return;
                }
                s->jobs = jobs;
                s->jobs_allocated = n;
        }
        for (i = s->n_jobs; i > 0 && job_before(job, s->jobs[i - 1]); i--)
                ;
        memmove(s->jobs + i + 1, s->jobs + i, (s->n_jobs - i) * sizeof(*s->jobs));
        s->jobs[i] = job;
        s->n_jobs++;

        need = job->shape.abc_bytes + job->shape.rest_bytes +
               circuit_cache_bytes(&s->circuits, &job->shape);
        if (need > s->budget->total_bytes) {
                snprintf(message, sizeof(message),
                         "a partition needs %" PRIu64 " bytes (%" PRIu64 " for a, b, c, %" PRIu64
                         " for the rest, %" PRIu64 " for the SRS/PCE of %s%s) but the memory "
                         "budget is %" PRIu64 " bytes",
                         need, job->shape.abc_bytes, job->shape.rest_bytes,
                         circuit_cache_bytes(&s->circuits, &job->shape), job->shape.circuit_id,
                         s->circuits.n_provers > 1 ? ", a key copy per prover" : "",
                         s->budget->total_bytes);
                end_job(s, job, JOB_FAILED, message);
                return;
        }
        kick(s);
}

void scheduler_cancel(struct scheduler *s, struct job *job, bool *ret_was_running) {
        assert(s);
        assert(job);
        assert(ret_was_running);
        *ret_was_running = job->n_running > 0;
        if (job_state_is_final(job->state))
                return;
        end_job(s, job, JOB_CANCELLED, NULL);
        kick(s);
}

void scheduler_reconfigure(struct scheduler *s, unsigned max_attempts) {
        assert(s);
        assert(max_attempts >= 1);
        s->max_attempts = max_attempts;
        kick(s);
}

void scheduler_set_paused(struct scheduler *s, bool paused) {
        assert(s);
        s->paused = paused;
        if (!paused)
                kick(s);
}

bool scheduler_paused(const struct scheduler *s) {
        assert(s);
        return s->paused;
}

void scheduler_stop(struct scheduler *s) {
        assert(s);
        s->stopped = true;
}

unsigned scheduler_queue_position(const struct scheduler *s, const struct job *job) {
        unsigned position = 0;

        assert(s);
        assert(job);
        for (size_t i = 0; i < s->n_jobs && s->jobs[i] != job; i++)
                if (s->jobs[i]->state == JOB_QUEUED)
                        position++;
        return position;
}

void scheduler_get_stats(const struct scheduler *s, struct scheduler_stats *ret) {
        assert(s);
        assert(ret);
        *ret = s->stats;
        ret->partitions_queued = ret->partitions_running = 0;
        for (size_t j = 0; j < s->n_jobs; j++)
                for (unsigned i = 0; i < s->jobs[j]->inputs.partitions; i++) {
                        enum partition_state state = s->jobs[j]->partitions[i].state;

                        ret->partitions_queued += state == PARTITION_QUEUED;
                        ret->partitions_running += state == PARTITION_RUNNING;
                }
}

void scheduler_foreach_circuit(const struct scheduler *s, scheduler_circuit_fn fn, void *userdata) {
        assert(s);
        circuit_cache_foreach(&s->circuits, fn, userdata);
}

int scheduler_preload(struct scheduler *s, const char *circuit_id, uint64_t shared_bytes,
                      uint64_t key_bytes, bool *ret_already) {
        assert(s);
        return circuit_cache_preload(&s->circuits, circuit_id, shared_bytes, key_bytes,
                                     ret_already);
}

int scheduler_evict(struct scheduler *s, const char *circuit_id, uint64_t *ret_freed_bytes) {
        int r;

        assert(s);
        r = circuit_cache_evict(&s->circuits, circuit_id, ret_freed_bytes);
        if (r < 0)
                return r;
        kick(s);
        return 0;
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

struct job *scheduler_find_attempt(const struct scheduler *s, uint64_t task_id,
                                   unsigned *ret_partition) {
        assert(s);
        assert(ret_partition);
        if (task_id == 0)
                return NULL;
        for (size_t j = 0; j < s->n_jobs; j++)
                for (unsigned i = 0; i < s->jobs[j]->inputs.partitions; i++)
                        if (s->jobs[j]->partitions[i].task_id == task_id) {
                                *ret_partition = i;
                                return s->jobs[j];
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
        kick(s);
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
                end_job(s, job, JOB_FAILED, message);
                return;
        }
        /* A PoRep partition is verified before the job can complete: a proof that does not
         * verify fails the job (a wrong key or a bug; proving it again would not help). */
        if (job->inputs.kind == JOB_POREP_C2 &&
            job_porep_verify(job, i, job->partitions[i].proof, sizeof(job->partitions[i].proof),
                             message, sizeof(message)) < 0) {
                end_job(s, job, JOB_FAILED, message);
                return;
        }
        job->partitions[i].state = PARTITION_DONE;
        job->n_done++;
        s->stats.partitions_proved++;
        if (job->n_done == job->inputs.partitions)
                end_job(s, job, JOB_COMPLETED, NULL);
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
        attempt_failed(s, job, i, &f);
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
        (void)circuit_cache_unref(&s->circuits, job->shape.circuit_id);
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
        kick(s);
}

/* A worker cgroup came free: what -EBUSY held back may go now. */
static void on_slot_free(void *userdata) {
        kick(userdata);
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

const struct executor_callbacks scheduler_executor_callbacks = {
        .abc_released = on_abc_released,
        .finished = on_finished,
        .slot_free = on_slot_free,
        .preload_progress = on_preload_progress,
        .preload_failed = on_preload_failed,
};
