/* SPDX-License-Identifier: Apache-2.0 */
/* The queue and admission (see scheduler.h); what the executor answers is handled in
 * scheduler-results.c. */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/log.h"
#include "daemon/executor/ipc.h"
#include "daemon/supervisor/circuit-cache.h"
#include "daemon/supervisor/reservation.h"
#include "daemon/supervisor/scheduler-internal.h"

/* Whether a goes before b: higher priority, then older, then earlier arrival. */
static bool job_before(const struct job *a, const struct job *b) {
        if (a->priority != b->priority)
                return a->priority > b->priority;
        if (a->submitted_usec != b->submitted_usec)
                return a->submitted_usec < b->submitted_usec;
        return a->sequence < b->sequence;
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
        const uint32_t form = job->shape.compact_abc_bytes
                                      ? executor_witness_form(s->executor, &job->inputs)
                                      : IPC_WITNESS_FULL;
        const bool compact = form == IPC_WITNESS_COMPACT;
        const uint64_t abc = compact ? job->shape.compact_abc_bytes : job->shape.abc_bytes;
        const uint64_t rest = compact ? job->shape.compact_rest_bytes : job->shape.rest_bytes;
        uint64_t shared = circuit_cache_need(&s->circuits, &job->shape, form);
        uint64_t need = abc + rest + shared;
        struct executor_task task;
        int r;

        if (!budget_fits(s->budget, need) &&
            !circuit_cache_evict_for(&s->circuits, need, job->shape.circuit_id))
                return HELD;
        r = reservation_reserve(&p->reservation, s->budget, abc, rest + shared);
        assert(r == 0); /* it fits, checked above */
        if (circuit_cache_ref(&s->circuits, &job->shape, form, &p->reservation) < 0) {
                (void)reservation_release(&p->reservation);
                return HELD;
        }
        task = (struct executor_task){
                .task_id = ++s->next_task_id,
                .inputs = &job->inputs,
                .partition = i,
                .abc_bytes = abc,
                .rest_bytes = rest,
                .witness_form = form,
        };
        r = executor_submit(s->executor, &task);
        if (r < 0) {
                (void)reservation_release(&p->reservation);
                (void)circuit_cache_unref(&s->circuits, job->shape.circuit_id, form);
                /* Every worker cgroup is busy: slot_free kicks us. */
                if (r == -EBUSY)
                        return HELD;
                *ret_error = r;
                return START_FAILED;
        }
        p->state = PARTITION_RUNNING;
        p->task_id = task.task_id;
        p->witness_form = form;
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
                        scheduler_attempt_failed(
                                s, job, i,
                                &(struct attempt_failure){.retry = true, .why = strerror(-error)});
                        if (!job_state_is_final(job->state)) {
                                scheduler_kick(s); /* from the loop, not in this pass */
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
        assert(n_provers <= EXECUTOR_MAX_PROVERS);
        s->circuits.n_provers = n_provers ? n_provers : 1;
        scheduler_kick(s);
}

void scheduler_add(struct scheduler *s, struct job *job) {
        uint64_t abc, rest, need;
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
                        scheduler_end_job(s, job, JOB_FAILED, "out of memory queueing the job");
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

        abc = job->shape.abc_bytes;
        rest = job->shape.rest_bytes;
        /* The compact form, where a GPU prover may take it, may be all that fits (its
         * partitions wait for a GPU prover to be ready). */
        if (job->shape.compact_abc_bytes &&
            (!s->executor || executor_compact_possible(s->executor)) &&
            job->shape.compact_abc_bytes + job->shape.compact_rest_bytes < abc + rest) {
                abc = job->shape.compact_abc_bytes;
                rest = job->shape.compact_rest_bytes;
        }
        need = abc + rest + circuit_cache_bytes(&s->circuits, &job->shape);
        if (need > s->budget->total_bytes) {
                snprintf(message, sizeof(message),
                         "a partition needs %" PRIu64 " bytes (%" PRIu64 " for a, b, c, %" PRIu64
                         " for the rest, %" PRIu64 " for the SRS/PCE of %s%s) but the memory "
                         "budget is %" PRIu64 " bytes",
                         need, abc, rest, circuit_cache_bytes(&s->circuits, &job->shape),
                         job->shape.circuit_id,
                         s->circuits.n_provers > 1 ? ", a key copy per prover" : "",
                         s->budget->total_bytes);
                scheduler_end_job(s, job, JOB_FAILED, message);
                return;
        }
        scheduler_kick(s);
}

void scheduler_cancel(struct scheduler *s, struct job *job, bool *ret_was_running) {
        assert(s);
        assert(job);
        assert(ret_was_running);
        *ret_was_running = job->n_running > 0;
        if (job_state_is_final(job->state))
                return;
        scheduler_end_job(s, job, JOB_CANCELLED, NULL);
        scheduler_kick(s);
}

void scheduler_reconfigure(struct scheduler *s, unsigned max_attempts) {
        assert(s);
        assert(max_attempts >= 1);
        s->max_attempts = max_attempts;
        scheduler_kick(s);
}

void scheduler_set_paused(struct scheduler *s, bool paused) {
        assert(s);
        s->paused = paused;
        if (!paused)
                scheduler_kick(s);
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
        ret->shared_reserved_bytes = s->circuits.reserved_bytes;
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
        scheduler_kick(s);
        return 0;
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
