/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The prover's start and finish threads (daemon/prover/prover-threads.c) in this process,
 * the test on the supervisor's end of their socket, proving a synthetic partition with
 * the CPU backend behind one lane: as the CUDA backend's prove_start waits for a free lane
 * while another proof's partition holds it, this one waits while the test holds the lane.
 *   1. the result's stage time (the job's gpu_compute_ms, summed) is the time the backend
 *      measured of its own work, not the wall time of prove_start, which counts the wait
 *      for the lane; the proof verifies;
 *   2. a backend that measures nothing: the wall times of its calls stand, the wait in.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <unistd.h>

#include "circuits/pce-setup.h"
#include "circuits/pce.h"
#include "circuits/synthetic.h"
#include "daemon/executor/executor.h"
#include "daemon/executor/ipc.h"
#include "daemon/prover/prover-backend.h"
#include "daemon/prover/prover.h"
#include "formats/bellperson_params.h"
#include "formats/filecoin_proof.h"
#include "zk/groth16.h"
#include "zk/groth16_setup.h"

/* How long the other proof keeps the lane once the partition waits for it: far longer than
 * the partition's own CPU stage (milliseconds for its 2^10 domain). */
#define LANE_HELD_USEC UINT64_C(1000000)

static char tmp_dir[] = "/tmp/test-prover-threads-XXXXXX";
static char params_path[64];
static struct pce *circuit;
static fr_t *witness;
static struct groth16_keys *keys;

/* The CPU backend behind one lane, which prove_start waits for while the test holds it. */
struct lane_backend {
        struct prover_backend base;
        struct prover_backend *cpu;
        bool measures; /* false: prove_finish says it measured nothing */
        pthread_mutex_t lock;
        pthread_cond_t changed;
        bool held, waiting; /* under lock */
};

/* partial_free has no backend argument: the one lane backend of the test that runs. */
static struct lane_backend *current_lane;

static int lane_prove_start(struct prover_backend *backend, const struct prover_inputs *in,
                            struct prover_partial **ret) {
        struct lane_backend *lane = (struct lane_backend *)backend;

        pthread_mutex_lock(&lane->lock);
        lane->waiting = true;
        pthread_cond_broadcast(&lane->changed);
        while (lane->held)
                pthread_cond_wait(&lane->changed, &lane->lock);
        pthread_mutex_unlock(&lane->lock);
        return lane->cpu->ops->prove_start(lane->cpu, in, ret);
}

static int lane_prove_finish(struct prover_backend *backend, struct prover_partial *partial,
                             struct groth16_proof *ret, struct prover_timings *ret_timings) {
        struct lane_backend *lane = (struct lane_backend *)backend;
        int r = lane->cpu->ops->prove_finish(lane->cpu, partial, ret, ret_timings);

        if (r >= 0 && ret_timings && !lane->measures)
                *ret_timings = (struct prover_timings){0};
        return r;
}

static void lane_partial_free(struct prover_partial *partial) {
        current_lane->cpu->ops->partial_free(partial);
}

static void lane_free(struct prover_backend *backend) {
        struct lane_backend *lane = (struct lane_backend *)backend;

        lane->cpu->ops->free(lane->cpu);
        pthread_mutex_destroy(&lane->lock);
        pthread_cond_destroy(&lane->changed);
        current_lane = NULL;
        free(lane);
}

static const struct prover_backend_ops lane_ops = {
        .name = "cpu-behind-a-lane",
        .prove_start = lane_prove_start,
        .prove_finish = lane_prove_finish,
        .partial_free = lane_partial_free,
        .free = lane_free,
};

/* The lane backend, its lane held by another proof until lane_release. */
static struct lane_backend *lane_backend_new(bool measures) {
        struct lane_backend *lane = calloc(1, sizeof(*lane));

        assert_non_null(lane);
        assert_int_equal(prover_backend_cpu_new(0, &lane->cpu), 0);
        lane->base.ops = &lane_ops;
        lane->measures = measures;
        lane->held = true;
        assert_int_equal(pthread_mutex_init(&lane->lock, NULL), 0);
        assert_int_equal(pthread_cond_init(&lane->changed, NULL), 0);
        current_lane = lane;
        return lane;
}

/* Once the partition waits for the lane, the other proof keeps it LANE_HELD_USEC more. */
static void lane_release_after_wait(struct lane_backend *lane) {
        pthread_mutex_lock(&lane->lock);
        while (!lane->waiting)
                pthread_cond_wait(&lane->changed, &lane->lock);
        pthread_mutex_unlock(&lane->lock);
        assert_int_equal(usleep(LANE_HELD_USEC), 0);
        pthread_mutex_lock(&lane->lock);
        lane->held = false;
        pthread_cond_broadcast(&lane->changed);
        pthread_mutex_unlock(&lane->lock);
}

/* The partition as the prover's main thread queues it (prover-main.c's receive_prove): the
 * worker's a/b/c memfd, and its witness memfd mapped. */
static struct prove_job *job_new(uint64_t task_id) {
        const unsigned log_domain_size = pce_log_domain_size(circuit);
        const size_t n = (size_t)1 << log_domain_size;
        struct prove_job *job = calloc(1, sizeof(*job));
        fr_t *abc;
        void *w;

        assert_non_null(job);
        job->request.task = (struct ipc_task){
                .task_id = task_id, .kind = JOB_SYNTHETIC_PCE, .witness_form = IPC_WITNESS_FULL};
        snprintf(job->request.task.key_path, sizeof(job->request.task.key_path), "%s", params_path);
        job->request.synth = (struct ipc_synth_done){.task_id = task_id,
                                                     .n_vars = circuit->n_cols,
                                                     .log_domain_size = log_domain_size,
                                                     .witness_form = IPC_WITNESS_FULL};
        assert_int_equal(ipc_memfd_new("abc", 3 * n * sizeof(fr_t), &job->abc_fd, (void **)&abc),
                         0);
        assert_int_equal(pce_evaluate(circuit, witness, circuit->n_cols, log_domain_size, abc,
                                      abc + n, abc + 2 * n),
                         0);
        assert_int_equal(munmap(abc, 3 * n * sizeof(fr_t)), 0);
        job->w_bytes = circuit->n_cols * sizeof(fr_t);
        assert_int_equal(ipc_memfd_new("w", job->w_bytes, &job->w_fd, &w), 0);
        memcpy(w, witness, job->w_bytes);
        job->w = w;
        return job;
}

/* One partition through the prover's threads behind the held lane: its result, and its
 * proof checked against the key's vk. */
static void prove_behind_held_lane(bool measures, struct ipc_result *ret) {
        struct lane_backend *lane = lane_backend_new(measures);
        struct prover p = {
                .send_lock = PTHREAD_MUTEX_INITIALIZER,
                .lock = PTHREAD_MUTEX_INITIALIZER,
                .wake = PTHREAD_COND_INITIALIZER,
                .backend = &lane->base,
        };
        uint8_t encoded[FILECOIN_PROOF_BYTES];
        struct groth16_proof proof;
        pthread_t starter, finisher;
        bool released = false;
        int socks[2];

        assert_int_equal(socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, socks), 0);
        p.sock = socks[0];
        assert_int_equal(prover_keys_new(&p.keys), 0);
        assert_int_equal(pthread_create(&starter, NULL, prover_start_thread, &p), 0);
        assert_int_equal(pthread_create(&finisher, NULL, prover_finish_thread, &p), 0);

        pthread_mutex_lock(&p.lock);
        prover_queue_push(&p.start_queue, job_new(1));
        pthread_cond_broadcast(&p.wake);
        pthread_mutex_unlock(&p.lock);
        lane_release_after_wait(lane);

        for (;;) {
                struct ipc_message message;
                int fds[IPC_MAX_FDS];
                size_t n_fds;

                assert_int_equal(ipc_recv(socks[1], &message, fds, &n_fds), 1);
                if (message.type == IPC_ABC_RELEASED)
                        released = true;
                if (message.type != IPC_RESULT)
                        continue;
                *ret = message.result;
                assert_int_equal(ret->status.failure, EXECUTOR_OK);
                assert_int_equal(n_fds, 1);
                assert_int_equal(ret->proof_bytes, sizeof(encoded));
                assert_int_equal(pread(fds[0], encoded, sizeof(encoded), 0), sizeof(encoded));
                close(fds[0]);
                break;
        }
        assert_true(released);
        assert_int_equal(filecoin_proof_decode(encoded, sizeof(encoded), "the result", &proof), 0);
        assert_int_equal(groth16_verify(&keys->vk, witness + 1, &proof), 1);

        pthread_mutex_lock(&p.lock);
        p.stopping = true;
        pthread_cond_broadcast(&p.wake);
        pthread_mutex_unlock(&p.lock);
        assert_int_equal(pthread_join(starter, NULL), 0);
        assert_int_equal(pthread_join(finisher, NULL), 0);
        assert_null(p.start_queue.head);
        assert_null(p.finish_queue.head);
        prover_keys_free(p.keys);
        lane->base.ops->free(&lane->base);
        close(socks[0]);
        close(socks[1]);
}

/* Under the old rule (the wall time of prove_start) the stage would be at least the
 * second the lane was held: another proof's time. */
static void test_measured_by_backend(void **state) {
        struct ipc_result result;
        (void)state;

        prove_behind_held_lane(true, &result);
        printf("stage %.3f s, tail %.3f s, with the lane held %.3f s\n",
               (double)result.gpu_stage_usec / 1e6, (double)result.g2_tail_usec / 1e6,
               (double)LANE_HELD_USEC / 1e6);
        assert_true(result.gpu_stage_usec > 0);
        assert_true(result.gpu_stage_usec < LANE_HELD_USEC);
        assert_true(result.g2_tail_usec > 0);
}

static void test_unmeasured_wall_time(void **state) {
        struct ipc_result result;
        (void)state;

        prove_behind_held_lane(false, &result);
        assert_true(result.gpu_stage_usec >= LANE_HELD_USEC);
        assert_true(result.g2_tail_usec > 0);
}

/* A small PoRep-shaped circuit, its witness and a key for it in a .params file (seeded:
 * tests only). */
static int group_setup(void **state) {
        struct groth16_toxic_waste tw;
        struct synthetic_params params = {
                .seed = 12, .n_rows = 1024 - 8, .n_aux = SYNTHETIC_DEFAULT, .n_public = 2};
        (void)state;

        assert_non_null(mkdtemp(tmp_dir));
        snprintf(params_path, sizeof(params_path), "%s/k.params", tmp_dir);
        assert_int_equal(synthetic_params_resolve(&params), 0);
        assert_int_equal(synthetic_generate(&params, &circuit, &witness), 0);
        groth16_toxic_waste_from_seed(&tw, (const uint8_t *)"threads", 7);
        assert_int_equal(pce_groth16_setup(circuit, &tw, NULL, &keys), 0);
        assert_int_equal(bellperson_params_save(params_path, &keys->pk, &keys->vk), 0);
        return 0;
}

static int group_teardown(void **state) {
        (void)state;
        (void)unlink(params_path);
        (void)rmdir(tmp_dir);
        groth16_keys_freep(&keys);
        pce_freep(&circuit);
        free(witness);
        return 0;
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_measured_by_backend),
                cmocka_unit_test(test_unmeasured_wall_time),
        };
        return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
