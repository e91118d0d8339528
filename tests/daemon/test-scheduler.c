/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The scheduler against a fake executor: admission order (priority, age,
 * partition), the budget and its two release phases, circuits' shared
 * bytes reserved once, a partition too big for the budget, worker slots
 * (-EBUSY), retries up to MaxAttempts, input failures, cancellation,
 * pressure pauses, preload/evict, and partitions' proofs in order.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/executor/ipc.h"
#include "daemon/supervisor/scheduler.h"

/* The fake executor: records tasks, refuses beyond `slots` running ones. */
#define MAX_TASKS 64
static struct {
        struct executor_task tasks[MAX_TASKS];
        bool running[MAX_TASKS];
        size_t n_tasks;
        unsigned slots;
        uint64_t cancelled[MAX_TASKS];
        size_t n_cancelled;
        unsigned fail_submits; /* the next ones fail with -EAGAIN (fork failing) */
        char evicted[8][64];   /* executor_evict_key's keys, in order */
        uint32_t witness_form; /* executor_witness_form's answer for a PCE job */
        bool compact_possible; /* executor_compact_possible's answer */
        enum job_kind evicted_kind[8];
        size_t n_evicted;
} fake;

int executor_submit(struct executor *executor, const struct executor_task *task) {
        unsigned busy = 0;

        (void)executor;
        if (fake.fail_submits > 0) {
                fake.fail_submits--;
                return -EAGAIN;
        }
        for (size_t i = 0; i < fake.n_tasks; i++)
                busy += fake.running[i];
        if (busy >= fake.slots)
                return -EBUSY;
        assert_true(fake.n_tasks < MAX_TASKS);
        fake.tasks[fake.n_tasks] = *task;
        fake.running[fake.n_tasks++] = true;
        return 0;
}

uint32_t executor_witness_form(const struct executor *executor, const struct job_inputs *in) {
        (void)executor;
        assert_true(in->kind != JOB_GROTH16_SNARKJS); /* asked for PCE circuits only */
        return fake.witness_form;
}

bool executor_compact_possible(const struct executor *executor) {
        (void)executor;
        return fake.compact_possible;
}

int executor_cancel(struct executor *executor, uint64_t task_id) {
        (void)executor;
        fake.cancelled[fake.n_cancelled++] = task_id;
        return 0;
}

void executor_evict_key(struct executor *executor, enum job_kind kind, const char *key_path) {
        (void)executor;
        assert_true(fake.n_evicted < 8);
        fake.evicted_kind[fake.n_evicted] = kind;
        snprintf(fake.evicted[fake.n_evicted++], sizeof(fake.evicted[0]), "%s", key_path);
}

struct ctx {
        sd_event *event;
        struct budget budget;
        struct scheduler *scheduler;
        struct job *ended[16];
        size_t n_ended;
        struct job *jobs[16];
        size_t n_jobs;
};

static void on_job_ended(void *userdata, struct job *job) {
        struct ctx *c = userdata;

        assert_true(job_state_is_final(job->state));
        c->ended[c->n_ended++] = job;
}

static struct ctx *setup_ctx(uint64_t budget_bytes, unsigned slots, unsigned max_attempts) {
        struct ctx *c = calloc(1, sizeof(*c));
        struct scheduler_options options = {.max_attempts = max_attempts};
        struct scheduler_callbacks callbacks = {.job_ended = on_job_ended};

        assert_non_null(c);
        memset(&fake, 0, sizeof(fake));
        fake.slots = slots;
        assert_int_equal(sd_event_new(&c->event), 0);
        budget_init(&c->budget, budget_bytes);
        assert_int_equal(
                scheduler_new(c->event, &c->budget, &options, &callbacks, c, &c->scheduler), 0);
        /* Any non-NULL pointer: the fake ignores it. */
        scheduler_set_executor(c->scheduler, (struct executor *)c, 1);
        return c;
}

static void teardown_ctx(struct ctx *c) {
        scheduler_free(c->scheduler);
        for (size_t i = 0; i < c->n_jobs; i++)
                job_free(c->jobs[i]);
        sd_event_unref(c->event);
        free(c);
}

static void dispatch(struct ctx *c) {
        while (sd_event_run(c->event, 0) > 0)
                ;
}

/* The key_bytes of the next add_job's shape. */
static uint64_t next_key_bytes;

static struct job *add_job(struct ctx *c, const char *id, int priority, uint64_t submitted,
                           unsigned partitions, enum job_kind kind, uint64_t abc, uint64_t rest,
                           uint64_t shared, const char *circuit) {
        struct job *job = calloc(1, sizeof(*job));

        assert_non_null(job);
        snprintf(job->id, sizeof(job->id), "%s", id);
        job->request_id = strdup("");
        job->priority = priority;
        job->submitted_usec = submitted;
        job->inputs.kind = kind;
        job->inputs.partitions = partitions;
        job->partitions = calloc(partitions, sizeof(*job->partitions));
        job->shape = (struct job_shape){.abc_bytes = abc,
                                        .rest_bytes = rest,
                                        .shared_bytes = shared,
                                        .key_bytes = next_key_bytes};
        snprintf(job->shape.circuit_id, sizeof(job->shape.circuit_id), "%s", circuit);
        c->jobs[c->n_jobs++] = job;
        scheduler_add(c->scheduler, job);
        return job;
}

/* The index in fake.tasks of the task of job's partition (by inputs pointer). */
static size_t task_of(const struct job *job, unsigned partition) {
        for (size_t i = fake.n_tasks; i-- > 0;)
                if (fake.tasks[i].inputs == &job->inputs && fake.tasks[i].partition == partition)
                        return i;
        fail_msg("job %s partition %u was never submitted", job->id, partition);
        return 0;
}

static void finish(struct ctx *c, size_t task, enum executor_failure failure, const char *message) {
        static const uint8_t proof[192] = {7};
        struct executor_result result = {.failure = failure};

        snprintf(result.message, sizeof(result.message), "%s", message ? message : "");
        if (failure == EXECUTOR_OK) {
                result.proof = proof;
                result.proof_size = sizeof(proof);
                result.proof_json = "{\"pi_a\":[]}";
                result.public_json = "[\"1\"]";
        }
        fake.running[task] = false;
        scheduler_executor_callbacks.finished(c->scheduler, fake.tasks[task].task_id, &result);
        dispatch(c);
}

/* A proof from `prover`, which says it keeps key_host and pce_host bytes of the circuit. */
static void finish_held(struct ctx *c, size_t task, unsigned prover, uint64_t key_host,
                        uint64_t pce_host) {
        static const uint8_t proof[192] = {7};
        struct executor_result result = {.failure = EXECUTOR_OK,
                                         .proof = proof,
                                         .proof_size = sizeof(proof),
                                         .held_reported = true,
                                         .prover = prover,
                                         .key_host_bytes = key_host,
                                         .pce_host_bytes = pce_host};

        fake.running[task] = false;
        scheduler_executor_callbacks.finished(c->scheduler, fake.tasks[task].task_id, &result);
        dispatch(c);
}

static size_t count_running(void) {
        size_t n = 0;

        for (size_t i = 0; i < fake.n_tasks; i++)
                n += fake.running[i];
        return n;
}

static void test_order_and_budget(void **state) {
        /* Room for two partitions of 100 + the shared 50 of circuit "k". */
        struct ctx *c = setup_ctx(250, 8, 3);
        struct job *low, *old, *young, *high;
        uint64_t freed = 0;
        (void)state;

        low = add_job(c, "low", CUZK__V1__PRIORITY__LOW, 1, 1, JOB_GROTH16_SNARKJS, 60, 40, 50,
                      "k");
        young = add_job(c, "young", CUZK__V1__PRIORITY__NORMAL, 30, 1, JOB_GROTH16_SNARKJS, 60, 40,
                        50, "k");
        old = add_job(c, "old", CUZK__V1__PRIORITY__NORMAL, 20, 1, JOB_GROTH16_SNARKJS, 60, 40, 50,
                      "k");
        high = add_job(c, "high", CUZK__V1__PRIORITY__HIGH, 40, 1, JOB_GROTH16_SNARKJS, 60, 40, 50,
                       "k");
        dispatch(c);
        /* high, then old: 2 x 100 + 50 shared once = 250. */
        assert_int_equal(fake.n_tasks, 2);
        assert_ptr_equal(fake.tasks[0].inputs, &high->inputs);
        assert_ptr_equal(fake.tasks[1].inputs, &old->inputs);
        assert_int_equal(fake.tasks[0].abc_bytes, 60);
        assert_int_equal(fake.tasks[0].rest_bytes, 40);
        assert_int_equal(c->budget.reserved_bytes, 250);
        assert_int_equal(high->state, JOB_RUNNING);
        assert_int_equal(young->state, JOB_QUEUED);
        assert_int_equal(scheduler_queue_position(c->scheduler, low), 1);

        /* a, b, c of high come back: 60 is not enough for young's 100. */
        scheduler_executor_callbacks.abc_released(c->scheduler, fake.tasks[0].task_id);
        dispatch(c);
        assert_int_equal(c->budget.reserved_bytes, 190);
        assert_int_equal(fake.n_tasks, 2);
        /* old's too: 130 reserved, young fits. */
        scheduler_executor_callbacks.abc_released(c->scheduler, fake.tasks[1].task_id);
        dispatch(c);
        assert_int_equal(fake.n_tasks, 3);
        assert_ptr_equal(fake.tasks[2].inputs, &young->inputs);
        assert_int_equal(c->budget.reserved_bytes, 230);

        finish(c, 0, EXECUTOR_OK, NULL);
        assert_int_equal(high->state, JOB_COMPLETED);
        assert_string_equal(high->proof_json, "{\"pi_a\":[]}");
        assert_string_equal(high->public_json, "[\"1\"]");
        assert_int_equal(c->n_ended, 1);
        /* high's rest (40) came back: 190 reserved, low (100) does not fit yet. */
        assert_int_equal(c->budget.reserved_bytes, 190);
        assert_int_equal(fake.n_tasks, 3);
        finish(c, 1, EXECUTOR_OK, NULL);
        assert_int_equal(fake.n_tasks, 4);
        assert_ptr_equal(fake.tasks[3].inputs, &low->inputs);
        finish(c, 2, EXECUTOR_OK, NULL);
        finish(c, 3, EXECUTOR_OK, NULL);
        assert_int_equal(c->n_ended, 4);
        /* Every partition's bytes went back; the circuit's stay while the prover keeps its
         * key, until it is evicted (which tells the provers to drop the key). */
        assert_int_equal(c->budget.reserved_bytes, 50);
        assert_int_equal(c->budget.peak_reserved_bytes, 250);
        assert_int_equal(fake.n_evicted, 0);
        assert_int_equal(scheduler_evict(c->scheduler, "k", &freed), 0);
        assert_int_equal(freed, 50);
        assert_int_equal(c->budget.reserved_bytes, 0);
        assert_int_equal(fake.n_evicted, 1);
        assert_string_equal(fake.evicted[0], "k");
        assert_int_equal(fake.evicted_kind[0], JOB_GROTH16_SNARKJS);
        assert_int_equal(scheduler_evict(c->scheduler, "k", &freed), -ENOENT);
        teardown_ctx(c);
}

/* A PCE circuit's job (a PoRep job's proofs would be verified: a synthetic one's are not),
 * queued and admission run. */
static struct job *add_pce_job(struct ctx *c, const char *id, unsigned partitions,
                               const struct job_shape *shape) {
        struct job *job = calloc(1, sizeof(*job));

        assert_non_null(job);
        snprintf(job->id, sizeof(job->id), "%s", id);
        job->request_id = strdup("");
        job->inputs.kind = JOB_SYNTHETIC_PCE;
        job->inputs.partitions = partitions;
        job->partitions = calloc(partitions, sizeof(*job->partitions));
        job->shape = *shape;
        c->jobs[c->n_jobs++] = job;
        scheduler_add(c->scheduler, job);
        dispatch(c);
        return job;
}

/* A PCE job's partitions reserve the compact witness's bytes while the executor says its
 * workers hand the compact form on (GPU provers), the full form's otherwise; the task
 * carries the form its bytes were reserved for. */
static void test_compact_witness(void **state) {
        struct ctx *c = setup_ctx(1000, 8, 3);
        struct job *job;
        (void)state;

        fake.witness_form = IPC_WITNESS_COMPACT;
        job = add_pce_job(c, "pce", 3,
                          &(struct job_shape){.abc_bytes = 400,
                                              .rest_bytes = 100,
                                              .compact_abc_bytes = 30,
                                              .compact_rest_bytes = 5,
                                              .shared_bytes = 50,
                                              .circuit_id = "c"});
        /* three compact partitions: 3 x 35 + 50 shared */
        assert_int_equal(fake.n_tasks, 3);
        for (size_t i = 0; i < 3; i++) {
                assert_int_equal(fake.tasks[i].witness_form, IPC_WITNESS_COMPACT);
                assert_int_equal(fake.tasks[i].abc_bytes, 30);
                assert_int_equal(fake.tasks[i].rest_bytes, 5);
        }
        assert_int_equal(c->budget.reserved_bytes, 155);
        scheduler_executor_callbacks.abc_released(c->scheduler, fake.tasks[0].task_id);
        dispatch(c);
        assert_int_equal(c->budget.reserved_bytes, 125);
        /* a retry after the GPU provers are gone reserves the full form */
        fake.witness_form = IPC_WITNESS_FULL;
        finish(c, 1, EXECUTOR_FAILED_PROVER, "no GPU prover in service");
        assert_int_equal(fake.n_tasks, 4);
        assert_int_equal(fake.tasks[3].witness_form, IPC_WITNESS_FULL);
        assert_int_equal(fake.tasks[3].abc_bytes, 400);
        assert_int_equal(fake.tasks[3].rest_bytes, 100);
        assert_int_equal(c->budget.reserved_bytes, 5 + 35 + 500 + 50);
        finish(c, 0, EXECUTOR_OK, NULL);
        finish(c, 2, EXECUTOR_OK, NULL);
        finish(c, 3, EXECUTOR_OK, NULL);
        assert_int_equal(job->state, JOB_COMPLETED);
        teardown_ctx(c);
}

static void test_too_big(void **state) {
        struct ctx *c = setup_ctx(1000, 8, 3);
        struct job *job;
        (void)state;

        job = add_job(c, "big", 0, 1, 1, JOB_GROTH16_SNARKJS, 600, 300, 200, "k");
        dispatch(c);
        assert_int_equal(job->state, JOB_FAILED);
        assert_int_equal(c->n_ended, 1);
        assert_non_null(strstr(job->error_message, "needs 1100 bytes"));
        assert_non_null(strstr(job->error_message, "budget is 1000 bytes"));
        assert_int_equal(fake.n_tasks, 0);
        teardown_ctx(c);
}

static void test_slots_and_partitions(void **state) {
        struct ctx *c = setup_ctx(1 << 20, 2, 3);
        struct job *job;
        (void)state;

        job = add_job(c, "pce", 0, 1, 5, JOB_SYNTHETIC_PCE, 10, 10, 5, "p");
        dispatch(c);
        /* Two worker slots: partitions 0 and 1. */
        assert_int_equal(fake.n_tasks, 2);
        assert_int_equal(fake.tasks[0].partition, 0);
        assert_int_equal(fake.tasks[1].partition, 1);
        for (unsigned p = 0; p < 5; p++) {
                static uint8_t proof[192];
                struct executor_result result = {
                        .failure = EXECUTOR_OK, .proof = proof, .proof_size = sizeof(proof)};
                size_t t = task_of(job, p);

                memset(proof, 'a' + p, sizeof(proof));
                fake.running[t] = false;
                scheduler_executor_callbacks.finished(c->scheduler, fake.tasks[t].task_id, &result);
                dispatch(c);
        }
        assert_int_equal(job->state, JOB_COMPLETED);
        assert_int_equal(job->proof_size, 5 * 192);
        for (unsigned p = 0; p < 5; p++)
                assert_int_equal(job->proof[p * 192 + 191], 'a' + p);
        assert_int_equal(c->budget.reserved_bytes, 5); /* the circuit's, kept */
        teardown_ctx(c);
}

static void test_retries(void **state) {
        struct ctx *c = setup_ctx(1 << 20, 4, 3);
        struct job *ok, *bad;
        (void)state;

        ok = add_job(c, "ok", 0, 1, 1, JOB_GROTH16_SNARKJS, 10, 10, 0, "a");
        dispatch(c);
        finish(c, task_of(ok, 0), EXECUTOR_FAILED_WORKER, "worker killed by SIGKILL");
        finish(c, task_of(ok, 0), EXECUTOR_FAILED_PROVER, "the prover died");
        assert_int_equal(ok->state, JOB_RUNNING);
        assert_int_equal(ok->partitions[0].attempts, 3);
        finish(c, task_of(ok, 0), EXECUTOR_OK, NULL);
        assert_int_equal(ok->state, JOB_COMPLETED);

        /* A worker that cannot be started costs an attempt too. */
        fake.fail_submits = 2;
        ok = add_job(c, "late", 0, 2, 1, JOB_GROTH16_SNARKJS, 10, 10, 0, "a");
        dispatch(c);
        assert_int_equal(ok->state, JOB_RUNNING);
        assert_int_equal(ok->partitions[0].attempts, 3);
        finish(c, task_of(ok, 0), EXECUTOR_OK, NULL);
        assert_int_equal(ok->state, JOB_COMPLETED);
        fake.fail_submits = 3;
        bad = add_job(c, "never", 0, 3, 1, JOB_GROTH16_SNARKJS, 10, 10, 0, "a");
        dispatch(c);
        assert_int_equal(bad->state, JOB_FAILED);
        assert_string_equal(bad->error_message,
                            "partition 0 could not be started in 3 attempts: Resource "
                            "temporarily unavailable");

        bad = add_job(c, "bad", 0, 4, 1, JOB_GROTH16_SNARKJS, 10, 10, 0, "a");
        dispatch(c);
        for (int i = 0; i < 3; i++)
                finish(c, task_of(bad, 0), EXECUTOR_FAILED_WORKER, "worker OOM-killed");
        assert_int_equal(bad->state, JOB_FAILED);
        assert_string_equal(bad->error_message,
                            "partition 0 failed 3 times; the last: worker OOM-killed");
        assert_int_equal(c->budget.reserved_bytes, 0);
        teardown_ctx(c);
}

static void test_input_failure_cancels_siblings(void **state) {
        struct ctx *c = setup_ctx(1 << 20, 2, 3);
        struct job *job, *next;
        (void)state;

        job = add_job(c, "j", 0, 1, 3, JOB_SYNTHETIC_PCE, 10, 10, 0, "p");
        next = add_job(c, "next", 0, 2, 1, JOB_SYNTHETIC_PCE, 10, 10, 0, "p");
        dispatch(c);
        assert_int_equal(fake.n_tasks, 2);
        finish(c, task_of(job, 0), EXECUTOR_FAILED_INPUT, "w.wtns: bad magic");
        assert_int_equal(job->state, JOB_FAILED);
        assert_string_equal(job->error_message, "partition 0: w.wtns: bad magic");
        /* Partition 1 runs on: cancelled, its bytes back when the executor says so. */
        assert_int_equal(fake.n_cancelled, 1);
        assert_int_equal(fake.cancelled[0], fake.tasks[task_of(job, 1)].task_id);
        assert_int_equal(job->partitions[2].state, PARTITION_DROPPED);
        /* next took partition 0's slot. */
        assert_int_equal(next->state, JOB_RUNNING);
        finish(c, task_of(job, 1), EXECUTOR_FAILED_CANCELED, "cancelled");
        finish(c, task_of(next, 0), EXECUTOR_OK, NULL);
        assert_int_equal(c->n_ended, 2);
        assert_int_equal(c->budget.reserved_bytes, 0);
        teardown_ctx(c);
}

static void test_cancel_and_pause(void **state) {
        struct ctx *c = setup_ctx(1 << 20, 1, 3);
        struct job *running, *queued;
        bool was_running;
        (void)state;

        running = add_job(c, "r", 0, 1, 1, JOB_GROTH16_SNARKJS, 10, 10, 0, "a");
        queued = add_job(c, "q", 0, 2, 1, JOB_GROTH16_SNARKJS, 10, 10, 0, "a");
        dispatch(c);
        scheduler_cancel(c->scheduler, queued, &was_running);
        assert_false(was_running);
        assert_int_equal(queued->state, JOB_CANCELLED);
        scheduler_cancel(c->scheduler, running, &was_running);
        assert_true(was_running);
        assert_int_equal(running->state, JOB_CANCELLED);
        assert_int_equal(fake.n_cancelled, 1);
        finish(c, 0, EXECUTOR_FAILED_CANCELED, "cancelled");
        assert_int_equal(c->budget.reserved_bytes, 0);

        scheduler_set_paused(c->scheduler, true);
        queued = add_job(c, "p", 0, 3, 1, JOB_GROTH16_SNARKJS, 10, 10, 0, "a");
        dispatch(c);
        assert_int_equal(queued->state, JOB_QUEUED);
        scheduler_set_paused(c->scheduler, false);
        dispatch(c);
        assert_int_equal(queued->state, JOB_RUNNING);
        finish(c, task_of(queued, 0), EXECUTOR_OK, NULL);
        assert_int_equal(c->n_ended, 3);
        teardown_ctx(c);
}

/* A task's `finished` may come while its worker still holds the slot: admission waits,
 * without polling, for slot_free. */
static void test_slot_free(void **state) {
        struct ctx *c = setup_ctx(1 << 20, 1, 3);
        struct job *first, *second;
        (void)state;

        assert_non_null(scheduler_executor_callbacks.slot_free);
        first = add_job(c, "first", 0, 1, 1, JOB_GROTH16_SNARKJS, 10, 10, 0, "a");
        second = add_job(c, "second", 0, 2, 1, JOB_GROTH16_SNARKJS, 10, 10, 0, "a");
        dispatch(c);
        assert_int_equal(first->state, JOB_RUNNING);
        assert_int_equal(second->state, JOB_QUEUED);
        /* The task ends while its worker still holds the slot. */
        fake.slots = 0;
        finish(c, 0, EXECUTOR_OK, NULL);
        assert_int_equal(first->state, JOB_COMPLETED);
        assert_int_equal(second->state, JOB_QUEUED);
        /* The slot frees, unannounced: nothing looks again by itself. */
        fake.slots = 1;
        for (int i = 0; i < 5; i++)
                assert_true(sd_event_run(c->event, 40 * 1000) >= 0);
        assert_int_equal(second->state, JOB_QUEUED);
        assert_int_equal(fake.n_tasks, 1);
        /* The executor says so: admitted at once. */
        scheduler_executor_callbacks.slot_free(c->scheduler);
        dispatch(c);
        assert_int_equal(second->state, JOB_RUNNING);
        finish(c, task_of(second, 0), EXECUTOR_OK, NULL);
        assert_int_equal(c->n_ended, 2);
        assert_int_equal(c->budget.reserved_bytes, 0);
        teardown_ctx(c);
}

static void count_circuit(void *userdata, const char *id, uint64_t bytes, unsigned refs,
                          bool preloaded) {
        unsigned *n = userdata;

        assert_string_equal(id, "srs");
        assert_int_equal(bytes, 500);
        assert_int_equal(refs, 1);
        assert_true(preloaded);
        (*n)++;
}

static void test_preload(void **state) {
        struct ctx *c = setup_ctx(1000, 4, 3);
        uint64_t freed = 0;
        unsigned n = 0;
        bool already;
        struct job *job;
        (void)state;

        assert_int_equal(scheduler_preload(c->scheduler, "srs", 500, 500, &already), 0);
        assert_false(already);
        assert_int_equal(scheduler_preload(c->scheduler, "srs", 500, 500, &already), 0);
        assert_true(already);
        assert_int_equal(scheduler_preload(c->scheduler, "other", 600, 600, &already), -ENOSPC);
        scheduler_foreach_circuit(c->scheduler, count_circuit, &n);
        assert_int_equal(n, 1);
        /* A job of the preloaded circuit does not reserve its bytes again. */
        job = add_job(c, "j", 0, 1, 1, JOB_GROTH16_SNARKJS, 200, 200, 500, "srs");
        dispatch(c);
        assert_int_equal(job->state, JOB_RUNNING);
        assert_int_equal(c->budget.reserved_bytes, 900);
        /* Evicted while a partition uses it: nothing freed until it ends. */
        assert_int_equal(scheduler_evict(c->scheduler, "srs", &freed), 0);
        assert_int_equal(freed, 0);
        assert_int_equal(scheduler_evict(c->scheduler, "srs", &freed), 0);
        assert_int_equal(freed, 0);
        assert_int_equal(fake.n_evicted, 0);
        finish(c, 0, EXECUTOR_OK, NULL);
        assert_int_equal(c->budget.reserved_bytes, 0);
        assert_int_equal(fake.n_evicted, 1);
        assert_string_equal(fake.evicted[0], "srs");
        teardown_ctx(c);
}

/* Two provers: a circuit reserves its shared bytes plus a second copy of its key, in the
 * budget check of scheduler_add as in admission, and a preload reserves a copy per prover. */
static void test_key_copy_per_prover(void **state) {
        struct ctx *c = setup_ctx(1000, 4, 3);
        struct job *job, *big;
        bool already;
        (void)state;

        scheduler_set_executor(c->scheduler, (struct executor *)c, 2);
        /* 300 shared, 200 of them the prover's key: 500 for the circuit, 200 per partition */
        next_key_bytes = 200;
        job = add_job(c, "j", 0, 1, 2, JOB_SYNTHETIC_PCE, 100, 100, 300, "pce+params");
        dispatch(c);
        assert_int_equal(job->state, JOB_RUNNING);
        assert_int_equal(c->budget.reserved_bytes, 500 + 2 * 200);
        /* 100 + 100 + 600 + 300 > 1000 with the copy; 900 without it would fit */
        next_key_bytes = 300;
        big = add_job(c, "big", 0, 2, 1, JOB_SYNTHETIC_PCE, 100, 100, 600, "big");
        assert_int_equal(big->state, JOB_FAILED);
        assert_non_null(strstr(big->error_message, "a key copy per prover"));
        finish(c, task_of(job, 0), EXECUTOR_OK, NULL);
        finish(c, task_of(job, 1), EXECUTOR_OK, NULL);
        assert_int_equal(c->budget.reserved_bytes, 500); /* the circuit, kept */
        /* 800 for two copies of a 400-byte key: the idle circuit makes room */
        assert_int_equal(scheduler_preload(c->scheduler, "srs", 400, 400, &already), 0);
        assert_int_equal(c->budget.reserved_bytes, 800);
        assert_int_equal(fake.n_evicted, 1);
        assert_string_equal(fake.evicted[0], "params");
        assert_int_equal(fake.evicted_kind[0], JOB_SYNTHETIC_PCE);
        assert_int_equal(scheduler_preload(c->scheduler, "other", 101, 101, &already), -ENOSPC);
        next_key_bytes = 0;
        teardown_ctx(c);
}

/* Idle circuits keep their bytes until admission needs them: then the least recently used
 * goes first, never one in use or preloaded. */
static void test_idle_circuits_evicted_lru(void **state) {
        struct ctx *c = setup_ctx(1000, 8, 3);
        struct job *a, *b, *p, *d;
        bool already;
        (void)state;

        a = add_job(c, "a", 0, 1, 1, JOB_GROTH16_SNARKJS, 100, 100, 300, "/a.zkey");
        dispatch(c);
        finish(c, task_of(a, 0), EXECUTOR_OK, NULL);
        b = add_job(c, "b", 0, 2, 1, JOB_GROTH16_SNARKJS, 100, 100, 300, "/b.zkey");
        dispatch(c);
        finish(c, task_of(b, 0), EXECUTOR_OK, NULL);
        assert_int_equal(c->budget.reserved_bytes, 600);
        assert_int_equal(scheduler_preload(c->scheduler, "/p.zkey", 100, 100, &already), 0);
        /* 300 + 200 more than the 300 left: /a.zkey (older than /b.zkey) goes */
        p = add_job(c, "c", 0, 3, 1, JOB_GROTH16_SNARKJS, 100, 100, 300, "/c.zkey");
        dispatch(c);
        assert_int_equal(p->state, JOB_RUNNING);
        assert_int_equal(fake.n_evicted, 1);
        assert_string_equal(fake.evicted[0], "/a.zkey");
        assert_int_equal(c->budget.reserved_bytes, 300 + 100 + 300 + 200);
        /* a job of /b.zkey again: its bytes are there, nothing more goes */
        d = add_job(c, "d", 0, 4, 1, JOB_GROTH16_SNARKJS, 50, 50, 300, "/b.zkey");
        dispatch(c);
        assert_int_equal(d->state, JOB_RUNNING);
        assert_int_equal(fake.n_evicted, 1);
        /* a circuit that does not fit beside the running and preloaded ones waits */
        a = add_job(c, "e", 0, 5, 1, JOB_GROTH16_SNARKJS, 100, 100, 300, "/e.zkey");
        dispatch(c);
        assert_int_equal(a->state, JOB_QUEUED);
        assert_int_equal(fake.n_evicted, 1);
        finish(c, task_of(p, 0), EXECUTOR_OK, NULL); /* /c.zkey idle: it goes for /e.zkey */
        assert_int_equal(a->state, JOB_RUNNING);
        assert_int_equal(fake.n_evicted, 2);
        assert_string_equal(fake.evicted[1], "/c.zkey");
        teardown_ctx(c);
}

/* A PoRep-shaped circuit on two provers: 100 bytes of PCE, a 200-byte key of which a
 * prover keeps 20 once loaded (the CUDA one's B_G2). */
static struct job *add_porep_job(struct ctx *c, const char *id, unsigned partitions) {
        return add_pce_job(c, id, partitions,
                           &(struct job_shape){.abc_bytes = 100,
                                               .rest_bytes = 50,
                                               .compact_abc_bytes = 30,
                                               .compact_rest_bytes = 5,
                                               .shared_bytes = 300,
                                               .key_bytes = 200,
                                               .circuit_id = "/c.pce+/c.params"});
}

/* What the provers report they keep shrinks the circuit's reservation, and more partitions
 * are admitted: a key's host part per prover once it said so, the PCE once no worker maps
 * it and every prover has it on its card; a full-form partition reserves the PCE again
 * while it runs. */
static void test_reports_shrink_circuit(void **state) {
        struct ctx *c = setup_ctx(700, 16, 3);
        struct scheduler_stats stats;
        struct job *job;
        uint64_t freed;
        (void)state;

        scheduler_set_executor(c->scheduler, (struct executor *)c, 2);
        fake.witness_form = IPC_WITNESS_COMPACT;
        job = add_porep_job(c, "j", 12);
        /* 300 + a second 200-byte key copy, and 35 a partition: 5 fit in 700 */
        assert_int_equal(count_running(), 5);
        assert_int_equal(c->budget.reserved_bytes, 500 + 5 * 35);
        /* prover 0 keeps 20 of the key; prover 1 may still load all of it, and the PCE */
        finish_held(c, task_of(job, 0), 0, 20, 0);
        assert_int_equal(c->budget.reserved_bytes, 320 + 10 * 35);
        assert_int_equal(count_running(), 10);
        /* prover 1 answers a preload: 20 of the key too */
        scheduler_executor_callbacks.key_held(c->scheduler, 1, JOB_SYNTHETIC_PCE, "/c.params", 20);
        dispatch(c);
        assert_int_equal(c->budget.reserved_bytes, 140 + 11 * 35);
        assert_int_equal(count_running(), 11);
        /* a compact proof from prover 1: the PCE is on both cards, no host holds it */
        finish_held(c, task_of(job, 1), 1, 20, 0);
        assert_int_equal(c->budget.reserved_bytes, 40 + 10 * 35);
        /* a full-form attempt maps the PCE in its worker: reserved again while it runs */
        fake.witness_form = IPC_WITNESS_FULL;
        finish(c, task_of(job, 2), EXECUTOR_FAILED_WORKER, "killed");
        assert_int_equal(fake.tasks[task_of(job, 2)].witness_form, IPC_WITNESS_FULL);
        assert_int_equal(c->budget.reserved_bytes, 140 + 9 * 35 + 150);
        finish_held(c, task_of(job, 2), 0, 20, 0);
        assert_int_equal(c->budget.reserved_bytes, 40 + 9 * 35);
        /* a report of a key no circuit has changes nothing */
        scheduler_executor_callbacks.key_held(c->scheduler, 0, JOB_SYNTHETIC_PCE, "/x.params", 1);
        assert_int_equal(c->budget.reserved_bytes, 40 + 9 * 35);
        for (unsigned i = 3; i < 12; i++)
                finish_held(c, task_of(job, i), i % 2, 20, 0);
        assert_int_equal(job->state, JOB_COMPLETED);
        assert_int_equal(c->budget.reserved_bytes, 40);
        scheduler_get_stats(c->scheduler, &stats);
        assert_int_equal(stats.shared_reserved_bytes, 40);
        /* evicted: what it reserves now goes back, once */
        assert_int_equal(scheduler_evict(c->scheduler, "/c.pce+/c.params", &freed), 0);
        assert_int_equal(freed, 40);
        assert_int_equal(c->budget.reserved_bytes, 0);
        scheduler_executor_callbacks.key_held(c->scheduler, 0, JOB_SYNTHETIC_PCE, "/c.params", 20);
        assert_int_equal(c->budget.reserved_bytes, 0);
        teardown_ctx(c);
}

/* A prover that dies takes what it reported with it: its successor loads the key and the
 * PCE afresh, so the circuit reserves them in full again even past the budget, and nothing
 * is admitted until the reservation fits. An idle circuit evicted for room gives back what
 * it reserves then. */
static void test_prover_lost_grows_circuit(void **state) {
        struct ctx *c = setup_ctx(700, 16, 3);
        struct job *job, *next;
        (void)state;

        scheduler_set_executor(c->scheduler, (struct executor *)c, 2);
        fake.witness_form = IPC_WITNESS_COMPACT;
        job = add_porep_job(c, "j", 12);
        assert_int_equal(count_running(), 5);
        finish_held(c, task_of(job, 0), 0, 20, 0);
        finish_held(c, task_of(job, 1), 1, 20, 0);
        assert_int_equal(count_running(), 10); /* all twelve admitted */
        assert_int_equal(c->budget.reserved_bytes, 40 + 10 * 35);
        scheduler_executor_callbacks.prover_lost(c->scheduler, 0);
        assert_int_equal(c->budget.reserved_bytes, 320 + 10 * 35);
        scheduler_executor_callbacks.prover_lost(c->scheduler, 1);
        assert_int_equal(c->budget.reserved_bytes, 500 + 10 * 35); /* past the 700 */
        /* nothing is admitted until it fits again */
        next = add_job(c, "k", 0, 9, 1, JOB_GROTH16_SNARKJS, 60, 20, 350, "/k.zkey");
        assert_int_equal(next->state, JOB_QUEUED);
        /* a successor's report shrinks it again */
        finish_held(c, task_of(job, 2), 0, 20, 0);
        assert_int_equal(c->budget.reserved_bytes, 320 + 9 * 35);
        for (unsigned i = 3; i < 12; i++)
                finish(c, task_of(job, i), EXECUTOR_OK, NULL);
        assert_int_equal(job->state, JOB_COMPLETED);
        /* the idle circuit and the 320 bytes it reserves now go for /k.zkey's 430 */
        assert_int_equal(next->state, JOB_RUNNING);
        assert_int_equal(fake.n_evicted, 1);
        assert_string_equal(fake.evicted[0], "/c.params");
        assert_int_equal(c->budget.reserved_bytes, 60 + 20 + 350);
        finish(c, task_of(next, 0), EXECUTOR_OK, NULL);
        assert_int_equal(c->budget.reserved_bytes, 350);
        teardown_ctx(c);
}

/* A job whose full-form partition exceeds the budget waits for a GPU prover where its
 * compact form fits and one may take it, and fails at once where none may. */
static void test_compact_only_fits(void **state) {
        struct ctx *c = setup_ctx(550, 16, 3);
        struct job *job;
        (void)state;

        fake.witness_form = IPC_WITNESS_FULL;
        fake.compact_possible = true;
        /* one prover: 300 for the circuit, 150 full or 35 compact a partition */
        job = add_porep_job(c, "waits", 1);
        assert_int_equal(job->state, JOB_RUNNING);
        finish(c, task_of(job, 0), EXECUTOR_OK, NULL);
        c->budget.total_bytes = 400;
        job = add_porep_job(c, "compact", 1);
        assert_int_equal(job->state, JOB_QUEUED);
        fake.witness_form = IPC_WITNESS_COMPACT;
        scheduler_reconfigure(c->scheduler, 3);
        dispatch(c);
        assert_int_equal(job->state, JOB_RUNNING);
        fake.compact_possible = false;
        job = add_porep_job(c, "fails", 1);
        assert_int_equal(job->state, JOB_FAILED);
        assert_non_null(strstr(job->error_message, "needs 450 bytes (100 for a, b, c, 50"));
        teardown_ctx(c);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_order_and_budget),
                cmocka_unit_test(test_too_big),
                cmocka_unit_test(test_slots_and_partitions),
                cmocka_unit_test(test_retries),
                cmocka_unit_test(test_input_failure_cancels_siblings),
                cmocka_unit_test(test_cancel_and_pause),
                cmocka_unit_test(test_preload),
                cmocka_unit_test(test_slot_free),
                cmocka_unit_test(test_key_copy_per_prover),
                cmocka_unit_test(test_idle_circuits_evicted_lru),
                cmocka_unit_test(test_compact_witness),
                cmocka_unit_test(test_reports_shrink_circuit),
                cmocka_unit_test(test_prover_lost_grows_circuit),
                cmocka_unit_test(test_compact_only_fits),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
