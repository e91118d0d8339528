/* SPDX-License-Identifier: Apache-2.0 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "daemon/log-journal.h"
#include "daemon/message-ids.h"
#include "daemon/scheduler.h"

/* A circuit whose shared bytes (SRS, PCE) are reserved. The reservation outlives its last
 * partition, because the provers keep the key they loaded: it goes back to the budget when
 * the circuit is evicted (EvictSRS, or to admit a partition that needs the room), which
 * also has the provers drop the key. */
struct circuit {
        struct circuit *next;
        char id[sizeof(((struct job_shape *)NULL)->circuit_id)];
        uint64_t bytes;
        unsigned refs; /* running partitions, plus one while preloaded */
        bool preloaded;
        bool evict_when_idle; /* EvictSRS came while partitions ran */
        uint64_t last_used;   /* s->circuit_clock when its last partition ended */
};

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
        struct circuit *circuits;
        uint64_t next_task_id, next_sequence;
        unsigned n_provers; /* each holds its own copy of a circuit's key */
        uint64_t circuit_clock;
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

static struct circuit *circuit_find(const struct scheduler *s, const char *id) {
        for (struct circuit *c = s->circuits; c; c = c->next)
                if (!strcmp(c->id, id))
                        return c;
        return NULL;
}

/* A circuit's shared bytes with a copy of its key for every prover (any of them may get
 * one of its partitions, and keeps the key once loaded). */
static uint64_t circuit_bytes(const struct scheduler *s, const struct job_shape *shape) {
        return shape->shared_bytes + shape->key_bytes * (s->n_provers - 1);
}

/* The bytes a partition of job needs now: its own, and its circuit's unless reserved. */
static uint64_t partition_need(const struct scheduler *s, const struct job *job) {
        uint64_t need = job->shape.abc_bytes + job->shape.rest_bytes;

        if (!circuit_find(s, job->shape.circuit_id))
                need += circuit_bytes(s, &job->shape);
        return need;
}

/* Reserves a circuit's shared bytes and adds it with one reference. */
static int circuit_new(struct scheduler *s, const char *id, uint64_t bytes, bool preloaded) {
        struct circuit *c;

        c = calloc(1, sizeof(*c));
        if (!c)
                return -ENOMEM;
        if (budget_reserve(s->budget, bytes) < 0) {
                free(c);
                return -ENOSPC;
        }
        snprintf(c->id, sizeof(c->id), "%s", id);
        c->bytes = bytes;
        c->refs = 1;
        c->preloaded = preloaded;
        c->next = s->circuits;
        s->circuits = c;
        s->stats.shared_reserved_bytes += bytes;
        return 0;
}

static int circuit_ref(struct scheduler *s, const struct job_shape *shape) {
        struct circuit *c = circuit_find(s, shape->circuit_id);

        if (!c)
                return circuit_new(s, shape->circuit_id, circuit_bytes(s, shape), false);
        c->refs++;
        return 0;
}

/* Gives a circuit's bytes back and has the provers drop its key; returns the bytes. */
static uint64_t circuit_drop(struct scheduler *s, struct circuit **link) {
        struct circuit *c = *link;
        char key[sizeof(c->id)];
        enum job_kind kind;
        uint64_t bytes = c->bytes;

        *link = c->next;
        budget_release(s->budget, bytes);
        s->stats.shared_reserved_bytes -= bytes;
        if (s->executor && job_circuit_key(c->id, &kind, key, sizeof(key)) >= 0)
                executor_evict_key(s->executor, kind, key);
        log_info("circuit %s evicted: %" PRIu64 " bytes back to the budget", c->id, bytes);
        free(c);
        return bytes;
}

static struct circuit **circuit_link(struct scheduler *s, const char *id) {
        struct circuit **p;

        for (p = &s->circuits; *p && strcmp((*p)->id, id); p = &(*p)->next)
                ;
        return p;
}

/* Drops a reference. The last one keeps the reservation (the provers keep the key) unless
 * an eviction waits for it; returns the bytes that went back to the budget. */
static uint64_t circuit_unref(struct scheduler *s, const char *id) {
        struct circuit **p = circuit_link(s, id), *c = *p;

        assert(c && c->refs > 0);
        if (--c->refs > 0)
                return 0;
        c->last_used = ++s->circuit_clock;
        return c->evict_when_idle ? circuit_drop(s, p) : 0;
}

/* Evicts idle circuits (no partition, no preload; not `keep`), least recently used first,
 * until need fits. Returns whether it does. */
static bool evict_for(struct scheduler *s, uint64_t need, const char *keep) {
        while (!budget_fits(s->budget, need)) {
                struct circuit **lru = NULL;

                for (struct circuit **p = &s->circuits; *p; p = &(*p)->next)
                        if ((*p)->refs == 0 && strcmp((*p)->id, keep) != 0 &&
                            (!lru || (*p)->last_used < (*lru)->last_used))
                                lru = p;
                if (!lru)
                        return false;
                (void)circuit_drop(s, lru);
        }
        return true;
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

/* Admits partitions in order while they fit; see scheduler.h. */
static void admit(struct scheduler *s) {
        for (size_t j = 0; j < s->n_jobs; j++) {
                struct job *job = s->jobs[j];

                if (job_state_is_final(job->state))
                        continue;
                for (unsigned i = 0; i < job->inputs.partitions; i++) {
                        struct job_partition *p = &job->partitions[i];
                        uint64_t need, partition_bytes;
                        struct executor_task task;
                        char message[512];
                        int r;

                        if (p->state != PARTITION_QUEUED)
                                continue;
                        if (s->paused || s->stopped || !s->executor)
                                return;
                        need = partition_need(s, job);
                        if (!budget_fits(s->budget, need) &&
                            !evict_for(s, need, job->shape.circuit_id))
                                return; /* nothing overtakes the head of the queue */
                        partition_bytes = job->shape.abc_bytes + job->shape.rest_bytes;
                        task = (struct executor_task){
                                .task_id = ++s->next_task_id,
                                .inputs = &job->inputs,
                                .partition = i,
                                .abc_bytes = job->shape.abc_bytes,
                                .rest_bytes = job->shape.rest_bytes,
                        };
                        r = circuit_ref(s, &job->shape);
                        if (r < 0)
                                return;
                        assert(budget_fits(s->budget, partition_bytes));
                        (void)budget_reserve(s->budget, partition_bytes);
                        r = executor_submit(s->executor, &task);
                        if (r < 0) {
                                budget_release(s->budget, partition_bytes);
                                (void)circuit_unref(s, job->shape.circuit_id);
                                /* Every worker cgroup is busy: slot_free kicks us. */
                                if (r == -EBUSY)
                                        return;
                                /* The worker could not be started (fork or the cgroup
                                 * failing): an attempt like any worker death. */
                                p->attempts++;
                                s->stats.worker_failures++;
                                if (p->attempts < s->max_attempts) {
                                        s->stats.partition_retries++;
                                        log_warning("job %s partition %u: attempt %u of %u could "
                                                    "not be started (%s); queued again",
                                                    job->id, i, p->attempts, s->max_attempts,
                                                    strerror(-r));
                                        kick(s); /* from the loop, not in this pass */
                                        return;
                                }
                                snprintf(message, sizeof(message),
                                         "partition %u could not be started in %u attempts: %s", i,
                                         p->attempts, strerror(-r));
                                end_job(s, job, JOB_FAILED, message);
                                j--; /* the job may have left the list */
                                break;
                        }
                        p->state = PARTITION_RUNNING;
                        p->task_id = task.task_id;
                        p->abc_reserved = true;
                        p->attempts++;
                        job->n_running++;
                        s->stats.partitions_admitted++;
                        if (job->state == JOB_QUEUED) {
                                job->state = JOB_RUNNING;
                                job->started_usec = job_now_usec();
                        }
                        log_debug("job %s partition %u admitted (task %" PRIu64
                                  ", attempt %u): %" PRIu64 " bytes reserved of %" PRIu64,
                                  job->id, i, task.task_id, p->attempts, s->budget->reserved_bytes,
                                  s->budget->total_bytes);
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
        s->n_provers = 1;
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
        while (s->circuits) {
                struct circuit *c = s->circuits;

                s->circuits = c->next;
                free(c);
        }
        free(s->jobs);
        sd_event_unref(s->event);
        free(s);
        return NULL;
}

void scheduler_set_executor(struct scheduler *s, struct executor *executor, unsigned n_provers) {
        assert(s);
        s->executor = executor;
        s->n_provers = n_provers ? n_provers : 1;
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

        need = job->shape.abc_bytes + job->shape.rest_bytes + circuit_bytes(s, &job->shape);
        if (need > s->budget->total_bytes) {
                snprintf(message, sizeof(message),
                         "a partition needs %" PRIu64 " bytes (%" PRIu64 " for a, b, c, %" PRIu64
                         " for the rest, %" PRIu64 " for the SRS/PCE of %s%s) but the memory "
                         "budget is %" PRIu64 " bytes",
                         need, job->shape.abc_bytes, job->shape.rest_bytes,
                         circuit_bytes(s, &job->shape), job->shape.circuit_id,
                         s->n_provers > 1 ? ", a key copy per prover" : "", s->budget->total_bytes);
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
        assert(fn);
        for (const struct circuit *c = s->circuits; c; c = c->next)
                fn(userdata, c->id, c->bytes, c->refs, c->preloaded);
}

int scheduler_preload(struct scheduler *s, const char *circuit_id, uint64_t shared_bytes,
                      uint64_t key_bytes, bool *ret_already) {
        struct circuit *c;
        uint64_t bytes;

        assert(s);
        assert(circuit_id);
        assert(ret_already);
        c = circuit_find(s, circuit_id);
        *ret_already = c != NULL;
        if (c) {
                if (!c->preloaded) {
                        c->preloaded = true;
                        c->refs++;
                }
                c->evict_when_idle = false;
                return 0;
        }
        bytes = circuit_bytes(
                s, &(struct job_shape){.shared_bytes = shared_bytes, .key_bytes = key_bytes});
        /* Room made as admission makes it: idle circuits go, least recently used first. */
        (void)evict_for(s, bytes, circuit_id);
        return circuit_new(s, circuit_id, bytes, true);
}

int scheduler_evict(struct scheduler *s, const char *circuit_id, uint64_t *ret_freed_bytes) {
        struct circuit *c;

        assert(s);
        assert(circuit_id);
        assert(ret_freed_bytes);
        c = circuit_find(s, circuit_id);
        if (!c)
                return -ENOENT;
        *ret_freed_bytes = 0;
        if (c->preloaded) {
                c->preloaded = false;
                c->refs--;
        }
        if (c->refs == 0)
                *ret_freed_bytes = circuit_drop(s, circuit_link(s, circuit_id));
        else
                c->evict_when_idle = true; /* its last partition's end frees it */
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
        if (!job || !job->partitions[i].abc_reserved) {
                log_warning("abc_released for task %" PRIu64 ", which holds no a/b/c bytes",
                            task_id);
                return;
        }
        job->partitions[i].abc_reserved = false;
        budget_release(s->budget, job->shape.abc_bytes);
        kick(s);
}

static int store_proof(struct job *job, unsigned partition, const struct executor_result *r) {
        if (job->inputs.kind == JOB_SYNTHETIC_PCE) {
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
        job->partitions[i].state = PARTITION_DONE;
        job->n_done++;
        s->stats.partitions_proved++;
        if (job->n_done == job->inputs.partitions)
                end_job(s, job, JOB_COMPLETED, NULL);
}

static void partition_failed(struct scheduler *s, struct job *job, unsigned i,
                             const struct executor_result *result) {
        struct job_partition *p = &job->partitions[i];
        char message[1024];
        bool retry = false;

        switch (result->failure) {
        case EXECUTOR_FAILED_WORKER:
                s->stats.worker_failures++;
                retry = true;
                break;
        case EXECUTOR_FAILED_PROVER:
                s->stats.prover_failures++;
                retry = true;
                break;
        case EXECUTOR_FAILED_INPUT:
                s->stats.input_failures++;
                break;
        case EXECUTOR_FAILED_CANCELED:
                /* We cancelled it because the job ended; if not, the executor gave up on it
                 * (shutdown of a worker slot, say): run it again. */
                retry = true;
                break;
        case EXECUTOR_OK:
                assert(false);
        }
        if (job_state_is_final(job->state)) {
                p->state = PARTITION_DROPPED;
                return;
        }
        if (s->stopped) {
                /* Shutdown stopped it: it runs again at the next start, from the spool. */
                p->state = PARTITION_QUEUED;
                return;
        }
        if (retry && p->attempts < s->max_attempts) {
                p->state = PARTITION_QUEUED;
                s->stats.partition_retries++;
                log_warning("job %s partition %u: attempt %u of %u failed (%s); queued again",
                            job->id, i, p->attempts, s->max_attempts, result->message);
                return;
        }
        p->state = PARTITION_DROPPED;
        if (retry)
                snprintf(message, sizeof(message), "partition %u failed %u times; the last: %s", i,
                         p->attempts, result->message);
        else
                snprintf(message, sizeof(message), "partition %u: %s", i, result->message);
        end_job(s, job, JOB_FAILED, message);
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
        budget_release(s->budget,
                       job->shape.rest_bytes +
                               (job->partitions[i].abc_reserved ? job->shape.abc_bytes : 0));
        job->partitions[i].abc_reserved = false;
        (void)circuit_unref(s, job->shape.circuit_id);
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

const struct executor_callbacks scheduler_executor_callbacks = {
        .abc_released = on_abc_released,
        .finished = on_finished,
        .slot_free = on_slot_free,
        .preload_progress = on_preload_progress,
};
