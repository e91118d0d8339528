/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The executor's public calls and its tasks (see executor.h); the worker
 * side is executor-worker.c, the prover side executor-prover.c (life cycle),
 * executor-relay.c (tasks and results) and executor-preload.c (keys).
 *
 * A task holds its worker cgroup from executor_submit() until `finished`:
 * the memfds the worker filled stay charged to that cgroup until the
 * prover has closed them, so the cgroup's limits cannot be handed to the
 * next task before.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "daemon/executor/executor-internal.h"

uint64_t executor_now_usec(void) {
        return clock_now_usec();
}

void executor_result_init(struct executor_result *result, enum executor_failure failure, int error,
                          const char *fmt, ...) {
        va_list ap;

        assert(result);
        *result = (struct executor_result){.failure = failure, .error = error};
        if (fmt) {
                va_start(ap, fmt);
                vsnprintf(result->message, sizeof(result->message), fmt, ap);
                va_end(ap);
        }
}

struct task *executor_task_find(struct executor *e, uint64_t task_id) {
        assert(e);
        for (struct task *t = e->tasks; t; t = t->next)
                if (t->spec.task_id == task_id)
                        return t;
        return NULL;
}

static void task_free(struct task *t) {
        struct executor *e = t->executor;

        if (t->prev)
                t->prev->next = t->next;
        else
                e->tasks = t->next;
        if (t->next)
                t->next->prev = t->prev;
        if (t->state == TASK_AT_PROVER && t->prover && t->prover->in_hand > 0) {
                t->prover->in_hand--;
                executor_prover_idle_note(t->prover);
        }
        if (t->slot && t->slot->task == t) {
                t->slot->task = NULL;
                executor_slot_changed(t->slot);
        }
        if (t->abc_fd >= 0)
                close(t->abc_fd);
        if (t->w_fd >= 0)
                close(t->w_fd);
        sd_event_source_disable_unref(t->defer);
        free(t);
}

static int on_slot_free(sd_event_source *s, void *userdata) {
        struct executor *e = userdata;

        (void)s;
        e->callbacks.slot_free(e->userdata);
        return 0;
}

void executor_slot_changed(struct worker_slot *slot) {
        struct executor *e;
        int r;

        assert(slot);
        e = slot->executor;
        if (executor_slot_busy(slot) || !e->slot_free_source)
                return;
        r = sd_event_source_set_enabled(e->slot_free_source, SD_EVENT_ONESHOT);
        if (r < 0)
                log_error_errno(r, "Worker w%u came free but slot_free cannot be scheduled: %m",
                                slot->index);
}

void executor_task_finish(struct task *t, struct executor_result *result) {
        struct executor *e;
        uint64_t task_id;

        assert(t);
        assert(result);
        e = t->executor;
        task_id = t->spec.task_id;

        if (t->canceled && result->failure != EXECUTOR_OK) {
                result->failure = EXECUTOR_FAILED_CANCELED;
                result->error = -ECANCELED;
                snprintf(result->message, sizeof(result->message),
                         "task %" PRIu64 " (partition %u) canceled", t->spec.task_id,
                         t->spec.partition);
        } else if (t->canceled) {
                /* The proof was done before the cancel reached the prover: still canceled. */
                executor_result_init(result, EXECUTOR_FAILED_CANCELED, -ECANCELED,
                                     "task %" PRIu64 " (partition %u) canceled", t->spec.task_id,
                                     t->spec.partition);
        }
        result->oom_killed = result->oom_killed || t->oom_killed;
        result->synthesis_usec = t->synth.synthesis_usec;
        result->witness_form = t->synth.witness_form;
        if (t->slot)
                result->worker_peak_bytes = t->slot->peak_bytes;
        if (result->failure != EXECUTOR_OK)
                log_full_errno(result->failure == EXECUTOR_FAILED_CANCELED ? LOG_INFO : LOG_WARNING,
                               0, "Task %" PRIu64 " partition %u: %s", t->spec.task_id,
                               t->spec.partition, result->message);
        /* Unlink first: the callback may submit the next task into this slot. */
        task_free(t);
        e->callbacks.finished(e->userdata, task_id, result);
}

int executor_new(sd_event *event, const struct executor_options *options,
                 const struct executor_callbacks *callbacks, void *userdata,
                 struct executor **ret) {
        struct executor *e;
        int r;

        assert(event);
        assert(options && options->domain && options->helper_path);
        assert(options->max_workers > 0);
        assert(options->n_devices <= EXECUTOR_MAX_PROVERS);
        assert(options->worker_nice <= WORKER_NICE_MAX);
        assert(!options->gpu_tuning || gpu_tuning_check(options->gpu_tuning) == 0);
        assert(callbacks && callbacks->finished && callbacks->abc_released);
        assert(ret);

        e = calloc(1, sizeof(*e));
        if (!e)
                return log_error_errno(ENOMEM, "Out of memory for the executor");
        e->event = sd_event_ref(event);
        e->options = *options;
        e->callbacks = *callbacks;
        e->userdata = userdata;
        e->synth_fd = -EBADF;
        e->helper_path = strdup(options->helper_path);
        if (!e->helper_path) {
                executor_free(e);
                return log_error_errno(ENOMEM, "Out of memory for the executor");
        }
        e->options.helper_path = e->helper_path;
        if (options->gpu_tuning)
                e->gpu_tuning = *options->gpu_tuning;
        else
                gpu_tuning_defaults(&e->gpu_tuning);
        e->options.gpu_tuning = &e->gpu_tuning;

        r = executor_slots_open(e);
        if (r >= 0 && callbacks->slot_free) {
                r = sd_event_add_defer(event, &e->slot_free_source, on_slot_free, e);
                if (r >= 0)
                        r = sd_event_source_set_enabled(e->slot_free_source, SD_EVENT_OFF);
                if (r < 0)
                        log_error_errno(r, "Failed to add the slot_free event source: %m");
        }
        if (r >= 0)
                r = executor_provers_start(e);
        if (r >= 0)
                r = executor_liveness_start(e);
        if (r < 0) {
                executor_free(e);
                return r;
        }
        *ret = e;
        return 0;
}

void executor_free(struct executor *e) {
        if (!e)
                return;
        /* No callbacks from here on: the caller is going away. */
        e->slot_free_source = sd_event_source_disable_unref(e->slot_free_source);
        executor_liveness_stop(e);
        for (struct worker_slot *s = e->slots; s && s < e->slots + e->options.max_workers; s++)
                executor_worker_kill(s);
        /* The tasks before the provers: a task at a prover points to it. */
        while (e->tasks)
                task_free(e->tasks);
        executor_provers_stop(e);
        executor_slots_close(e);
        sd_event_unref(e->event);
        free(e->helper_path);
        free(e);
}

int executor_task_ipc(const struct executor_task *spec, struct ipc_task *ret) {
        const struct job_inputs *in = spec->inputs;
        const char *circuit, *key, *witness;

        if (in->kind == JOB_GROTH16_SNARKJS) {
                circuit = key = in->zkey_path;
                witness = in->wtns_path;
        } else if (in->kind == JOB_SYNTHETIC_PCE) {
                circuit = in->pce_path;
                key = in->params_path;
                witness = in->witness_path;
        } else if (in->kind == JOB_POREP_C2) {
                /* The worker computes partition k's witness from the C1 output. */
                circuit = in->pce_path;
                key = in->params_path;
                witness = in->c1_path;
        } else
                return log_error_errno(EINVAL, "Task %" PRIu64 ": unknown job kind %d",
                                       spec->task_id, (int)in->kind);
        if (!circuit || !key || !witness)
                return log_error_errno(EINVAL, "Task %" PRIu64 ": an input path is missing",
                                       spec->task_id);
        if (strlen(circuit) >= PATH_MAX || strlen(key) >= PATH_MAX || strlen(witness) >= PATH_MAX)
                return log_error_errno(ENAMETOOLONG, "Task %" PRIu64 ": an input path is too long",
                                       spec->task_id);
        *ret = (struct ipc_task){
                .task_id = spec->task_id,
                .kind = in->kind,
                .partition = spec->partition,
        };
        memcpy(ret->circuit_path, circuit, strlen(circuit) + 1);
        memcpy(ret->key_path, key, strlen(key) + 1);
        memcpy(ret->witness_path, witness, strlen(witness) + 1);
        return 0;
}

int executor_submit(struct executor *e, const struct executor_task *spec) {
        struct worker_slot *slot = NULL;
        struct task *t;
        int r;

        assert(e);
        assert(spec && spec->inputs);
        assert(spec->partition < spec->inputs->partitions);

        if (executor_task_find(e, spec->task_id))
                return log_error_errno(EEXIST, "Task %" PRIu64 " is already running",
                                       spec->task_id);
        for (unsigned i = 0; i < e->options.max_workers && !slot; i++)
                if (!executor_slot_busy(&e->slots[i]))
                        slot = &e->slots[i];
        if (!slot)
                return -EBUSY;

        t = calloc(1, sizeof(*t));
        if (!t)
                return log_error_errno(ENOMEM, "Out of memory for task %" PRIu64, spec->task_id);
        *t = (struct task){
                .executor = e,
                .spec = *spec,
                .abc_fd = -EBADF,
                .w_fd = -EBADF,
                .next = e->tasks,
        };
        if (e->tasks)
                e->tasks->prev = t;
        e->tasks = t;

        r = executor_worker_start(e, slot, t);
        if (r < 0) {
                task_free(t);
                return r;
        }
        return 0;
}

static int on_cancel_defer(sd_event_source *s, void *userdata) {
        struct task *t = userdata;
        struct executor_result result;

        (void)s;
        executor_result_init(&result, EXECUTOR_FAILED_CANCELED, -ECANCELED, "canceled");
        executor_task_finish(t, &result);
        return 0;
}

int executor_cancel(struct executor *e, uint64_t task_id) {
        struct task *t;

        assert(e);

        t = executor_task_find(e, task_id);
        if (!t)
                return -ENOENT;
        if (t->canceled)
                return 0;
        t->canceled = true;
        switch (t->state) {
        case TASK_SYNTHESIZING:
                /* Its exit finishes the task. */
                executor_worker_kill(t->slot);
                return 0;
        case TASK_WAITING:
                return sd_event_add_defer(e->event, &t->defer, on_cancel_defer, t);
        case TASK_AT_PROVER:
                return executor_prover_cancel(e, t);
        }
        return 0;
}

void executor_get_status(const struct executor *e, struct executor_status *ret) {
        unsigned busy = 0;

        assert(e);
        assert(ret);

        for (unsigned i = 0; i < e->options.max_workers; i++)
                busy += executor_slot_busy(&e->slots[i]);
        *ret = (struct executor_status){
                .workers_busy = busy,
                .max_workers = e->options.max_workers,
                .n_provers = e->n_provers,
                .prover_pid = e->n_provers ? (int)e->provers[0].pid : 0,
                .backend = e->n_provers ? e->provers[0].backend : "none",
                .stalled_worker_kills = e->stalled_worker_kills,
                .stalled_prover_kills = e->stalled_prover_kills,
                .preload_failures = e->preload_failures,
        };
        for (unsigned i = 0; i < e->n_provers; i++) {
                ret->provers_in_service += !e->provers[i].out_of_service;
                ret->prover_restarts += e->provers[i].restarts;
                ret->srs_bytes += e->provers[i].srs_bytes;
        }
}

/* Waiting for work: ready and in service, nothing in hand, while the supervisor has some. */
static bool prover_idle_now(const struct prover_slot *p) {
        return p->executor->work_pending && p->ready && !p->out_of_service && p->in_hand == 0;
}

void executor_prover_idle_note(struct prover_slot *p) {
        const uint64_t now = executor_now_usec();

        assert(p);
        /* Nothing of what makes it idle changed since the last note: that interval was all
         * idle or all not. */
        if (p->idling)
                p->idle_usec += now - p->idle_since_usec;
        p->idling = prover_idle_now(p);
        p->idle_since_usec = now;
}

void executor_set_work_pending(struct executor *e, bool pending) {
        assert(e);
        if (e->work_pending == pending)
                return;
        e->work_pending = pending;
        for (unsigned i = 0; i < e->n_provers; i++)
                executor_prover_idle_note(&e->provers[i]);
}

static uint64_t prover_idle_usec(const struct prover_slot *p) {
        return p->idle_usec + (p->idling ? executor_now_usec() - p->idle_since_usec : 0);
}

void executor_device_name(int device, char *buf, size_t size) {
        if (device >= 0)
                snprintf(buf, size, "gpu %d", device);
        else
                snprintf(buf, size, "%s", device == EXECUTOR_DEVICE_CPU ? "cpu" : "auto");
}

int executor_get_prover(const struct executor *e, unsigned index,
                        struct executor_prover_info *ret) {
        const struct prover_slot *p;
        uint64_t current = 0;

        assert(e);
        assert(ret);
        if (index >= e->n_provers)
                return -ERANGE;
        p = &e->provers[index];
        /* Tasks are listed newest first: the last one found is the oldest. */
        for (const struct task *t = e->tasks; t; t = t->next)
                if (t->state == TASK_AT_PROVER && t->prover == p)
                        current = t->spec.task_id;
        *ret = (struct executor_prover_info){
                .device = p->device,
                .ordinal = p->ready ? p->ordinal : -1,
                .name = p->device_name,
                .backend = p->backend,
                .pid = (int)p->pid,
                .cg_fd = p->cg_fd,
                .ready = p->ready,
                .in_service = !p->out_of_service,
                .in_hand = p->in_hand,
                .preloads_done = p->preloads_done,
                .current_task_id = current,
                .proved = p->proved,
                .failed = p->failed,
                .restarts = p->restarts,
                .srs_bytes = p->srs_bytes,
                .memory_total_bytes = p->memory_total_bytes,
                .memory_free_bytes = p->memory_free_bytes,
                .idle_usec = prover_idle_usec(p),
        };
        return 0;
}

void executor_get_cgroups(const struct executor *e, struct executor_cgroups *ret) {
        assert(e);
        assert(ret);
        *ret = (struct executor_cgroups){.synth_fd = e->synth_fd, .n_provers = e->n_provers};
        for (unsigned i = 0; i < e->n_provers; i++)
                ret->prover_fds[i] = e->provers[i].cg_fd;
}

int executor_get_worker(const struct executor *e, unsigned index,
                        struct executor_worker_info *ret) {
        const struct worker_slot *slot;

        assert(e);
        assert(ret);
        if (index >= e->options.max_workers)
                return -ERANGE;
        slot = &e->slots[index];
        *ret = (struct executor_worker_info){
                .cg_fd = slot->cg_fd,
                .task_id = slot->task ? slot->task->spec.task_id : slot->last_task_id,
                .partition = slot->task ? slot->task->spec.partition : slot->last_partition,
                .running = slot->task != NULL,
        };
        return 0;
}
