/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The executor (daemon/executor/executor.h) with real worker and prover processes in
 * real memory cgroups (v1 memory on hybrid hosts, v2 where that is what we
 * have) below a cgroup of this test, on an sd-event loop:
 *   1. a snarkjs fixture task proves; the proof verifies with the fixture's
 *      vk and public.json is snarkjs's; abc_released comes before finished;
 *      the result says what the prover keeps of the key (all of it, on the CPU);
 *   2. a synthetic PCE task (partition 1 of 2) proves a 192-byte proof that
 *      verifies with the key made for it, also from a .params file in
 *      bellperson's layout (densities from the task's PCE);
 *   3. a worker SIGKILLed mid-task, and one that crashes: EXECUTOR_FAILED_WORKER,
 *      no OOM; a worker at the nice of WorkerNice=, or with 0 at the one it started with;
 *   4. a worker allocating without bound in a small reservation is
 *      OOM-killed alone (oom_killed, the prover untouched); the next task
 *      proves;
 *   5. the prover SIGKILLed mid-task: EXECUTOR_FAILED_PROVER, prover_lost; it
 *      restarts and the next task proves;
 *   6. a corrupt .wtns: EXECUTOR_FAILED_INPUT naming the file;
 *   7. cancel in synthesis and at the prover; -EBUSY when every worker
 *      cgroup is busy; -ENOENT for an unknown task;
 *   8. without cgroups (RLIMIT_DATA): a task proves, an unbounded allocator
 *      is refused memory and fails as a worker failure (not under ASan);
 *   9. slot_free after the `finished` of a task whose worker is gone, and
 *      then room for a task where there was -EBUSY; a worker dead before it
 *      takes its task (the send meets a closed socket) is a `finished` with
 *      EXECUTOR_FAILED_WORKER, not an error of executor_submit;
 *  10. two provers (prover-0, prover-1) take tasks in turn; one killed while it
 *      holds a task fails that task and the other proves meanwhile; a GPU that
 *      cannot be opened is out of service, and with no prover left a task
 *      fails saying so;
 *  11. preloaded keys: loaded by every prover before a task (executor_preload_state says
 *      so, key_held what each keeps), a missing one answered as a failure, loaded again by
 *      a restarted prover (prover_lost, then key_held again); evicted,
 *      dropped by every prover and not loaded again after a restart;
 *  12. a prover's idle time: none before it is ready nor while no work is pending; the time
 *      it waits, work pending, with nothing in hand (a partition's synthesis included);
 *      not the time it holds the partition.
 * After each case the executor's cgroups, processes and descriptors are
 * gone. argv[1] is the helper program (tests/daemon/executor-helper.c). Needs root
 * and a writable memory cgroup: exits 77 without them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup/cg-files.h"
#include "cgroup/cg-tree.h"
#include "circuits/pce-file.h"
#include "circuits/pce-setup.h"
#include "circuits/synthetic.h"
#include "zk/groth16_pack.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "daemon/executor/executor.h"
#include "daemon/executor/ipc.h"
#include "formats/bellperson_params.h"
#include "formats/filecoin_proof.h"
#include "formats/snarkjs-json.h"
#include "formats/wtns-save.h"
#include "tests/lib/formats-common.h"
#include "zk/groth16_setup.h"
#if HAVE_CUDA
#include "cuda/gpu.h"
#else
static int gpu_device_count(void) {
        return 0;
}
#endif

#define MiB (UINT64_C(1) << 20)

static const char *helper_path;
static cg_domain_t domain; /* the test's own cgroup: the executor's "own" one */
static cg_domain_t base_domain;
static char test_cgroup[64];
static char tmp_dir[] = "/tmp/test-executor-XXXXXX";

static struct job_inputs snarkjs_job = {.kind = JOB_GROTH16_SNARKJS, .partitions = 1};
static struct job_inputs synthetic_job = {.kind = JOB_SYNTHETIC_PCE, .partitions = 2};
static char *bits_public_json;
static struct groth16_keys *synthetic_keys;
/* The same key in bellperson's layout (A and B points for their wires only). */
static const char *synthetic_packed_params;
static fr_t *synthetic_witness;

struct record {
        uint64_t task_id;
        enum executor_failure failure;
        char message[512];
        bool oom_killed;
        bool released_before;
        uint64_t synthesis_usec, srs_load_usec, gpu_stage_usec, g2_tail_usec, worker_peak_bytes;
        uint32_t witness_form;
        bool held_reported;
        unsigned prover;
        uint64_t key_host_bytes;
        uint8_t proof[FILECOIN_PROOF_BYTES];
        size_t proof_size;
        char *proof_json, *public_json;
};

struct ctx {
        sd_event *event;
        struct executor *executor;
        unsigned fds_before;
        /* CUDA's runtime is loaded in this process (gpu_device_count): it opens and closes
         * files of its own when it likes (22 then 21 on the H100 host), so the count of
         * open files says nothing of the executor's. */
        bool cuda_in_process;
        struct record done[8];
        size_t n_done;
        uint64_t released[8];
        size_t n_released;
        size_t n_slot_free;
        size_t done_at_slot_free[8]; /* n_done when slot_free came */
        size_t n_preload_progress;
        /* key_held: what each prover said it keeps of a preloaded key (the last), and how
         * often; prover_lost: each prover's deaths */
        uint64_t key_held_bytes[2];
        unsigned n_key_held[2];
        enum job_kind key_held_kind;
        unsigned n_prover_lost[2];
};

/* ---- helpers --------------------------------------------------------------------------- */

static char *tmp_path(const char *name);

static unsigned count_fds(void) {
        DIR *d = opendir("/proc/self/fd");
        unsigned n = 0;

        assert_non_null(d);
        while (readdir(d))
                n++;
        closedir(d);
        return n;
}

static bool was_released(const struct ctx *c, uint64_t task_id) {
        for (size_t i = 0; i < c->n_released; i++)
                if (c->released[i] == task_id)
                        return true;
        return false;
}

static void on_abc_released(void *userdata, uint64_t task_id) {
        struct ctx *c = userdata;

        assert_true(c->n_released < ELEMENTSOF(c->released));
        assert_false(was_released(c, task_id));
        c->released[c->n_released++] = task_id;
}

static void on_finished(void *userdata, uint64_t task_id, const struct executor_result *result) {
        struct ctx *c = userdata;
        struct record *r;

        assert_true(c->n_done < ELEMENTSOF(c->done));
        r = &c->done[c->n_done++];
        *r = (struct record){
                .task_id = task_id,
                .failure = result->failure,
                .oom_killed = result->oom_killed,
                .released_before = was_released(c, task_id),
                .synthesis_usec = result->synthesis_usec,
                .srs_load_usec = result->srs_load_usec,
                .gpu_stage_usec = result->gpu_stage_usec,
                .g2_tail_usec = result->g2_tail_usec,
                .worker_peak_bytes = result->worker_peak_bytes,
                .witness_form = result->witness_form,
                .held_reported = result->held_reported,
                .prover = result->prover,
                .key_host_bytes = result->key_host_bytes,
        };
        snprintf(r->message, sizeof(r->message), "%s", result->message);
        print_message("  task %llu: failure %d, oom_killed %d, \"%s\"\n",
                      (unsigned long long)task_id, (int)result->failure, (int)result->oom_killed,
                      result->message);
        if (result->failure != EXECUTOR_OK)
                return;
        if (result->proof) {
                assert_int_equal(result->proof_size, FILECOIN_PROOF_BYTES);
                memcpy(r->proof, result->proof, FILECOIN_PROOF_BYTES);
                r->proof_size = result->proof_size;
        }
        if (result->proof_json) {
                r->proof_json = strdup(result->proof_json);
                r->public_json = strdup(result->public_json);
        }
}

static void on_slot_free(void *userdata) {
        struct ctx *c = userdata;

        if (c->n_slot_free < ELEMENTSOF(c->done_at_slot_free))
                c->done_at_slot_free[c->n_slot_free] = c->n_done;
        c->n_slot_free++;
}

static void on_preload_progress(void *userdata) {
        struct ctx *c = userdata;

        c->n_preload_progress++;
}

static void on_key_held(void *userdata, unsigned prover, enum job_kind kind, const char *key_path,
                        uint64_t key_host_bytes) {
        struct ctx *c = userdata;

        assert_true(prover < 2);
        assert_non_null(key_path);
        c->key_held_bytes[prover] = key_host_bytes;
        c->key_held_kind = kind;
        c->n_key_held[prover]++;
}

static void on_prover_lost(void *userdata, unsigned prover) {
        struct ctx *c = userdata;

        assert_true(prover < 2);
        c->n_prover_lost[prover]++;
}

static const struct executor_callbacks callbacks = {
        .abc_released = on_abc_released,
        .finished = on_finished,
        .slot_free = on_slot_free,
        .preload_progress = on_preload_progress,
        .key_held = on_key_held,
        .prover_lost = on_prover_lost,
};

/* Set: the next sendmsg() of this process (the task to a worker, from inside
 * executor_submit) first waits until the worker has closed its end of the socket, so that
 * the send meets a worker that died before it took its task. The executor's ipc.c calls
 * this definition instead of the C library's. */
static bool lose_next_send;

ssize_t sendmsg(int fd, const struct msghdr *msg, int flags) {
        static ssize_t (*real_sendmsg)(int, const struct msghdr *, int);

        if (!real_sendmsg)
                real_sendmsg =
                        (ssize_t(*)(int, const struct msghdr *, int))dlsym(RTLD_NEXT, "sendmsg");
        if (lose_next_send) {
                struct pollfd p = {.fd = fd, .events = POLLRDHUP};

                lose_next_send = false;
                if (poll(&p, 1, 10000) != 1 || !(p.revents & (POLLHUP | POLLRDHUP)))
                        fprintf(stderr, "# the worker did not close its socket in 10 s\n");
        }
        return real_sendmsg(fd, msg, flags);
}

static int ctx_setup(void **state) {
        struct ctx *c = calloc(1, sizeof(*c));

        if (!c)
                return -1;
        c->fds_before = count_fds();
        if (sd_event_new(&c->event) < 0)
                return -1;
        *state = c;
        return 0;
}

/* WorkerStallTimeout= and ProverStallTimeout= of the next ctx_start (0: off). */
static uint64_t stall_usec;
/* The worker slots of the next ctx_start (0: 2). */
static unsigned max_workers;
/* WorkerNice= of the next ctx_start: cuzkd's default unless a case says otherwise. */
static unsigned worker_nice = WORKER_NICE_DEFAULT;

static void ctx_start_devices(struct ctx *c, const cg_domain_t *in, const char *helper,
                              const int *devices, unsigned n_devices) {
        struct executor_options options = {
                .worker_stall_usec = stall_usec,
                .prover_stall_usec = stall_usec,
                .worker_nice = worker_nice,
                .domain = in,
                .max_workers = max_workers ? max_workers : 2,
                .prover_threads = 0,
                .worker_slack_bytes = 64 * MiB,
                .helper_path = helper,
                .compact_witness = EXECUTOR_COMPACT_AUTO,
                .n_devices = n_devices,
        };

        for (unsigned i = 0; i < n_devices; i++)
                options.devices[i] = devices[i];
        assert_int_equal(executor_new(c->event, &options, &callbacks, c, &c->executor), 0);
}

static void ctx_start_with(struct ctx *c, const cg_domain_t *in, const char *helper) {
        ctx_start_devices(c, in, helper, NULL, 0);
}

static void ctx_start_in(struct ctx *c, const cg_domain_t *in) {
        ctx_start_with(c, in, helper_path);
}

static void ctx_start(struct ctx *c) {
        ctx_start_in(c, &domain);
}

/* Stops the executor and checks that it left nothing behind. */
static void ctx_stop(struct ctx *c) {
        executor_free(c->executor);
        c->executor = NULL;
        c->event = sd_event_unref(c->event);
        assert_int_equal(faccessat(domain.own_dirfd, "synth", F_OK, 0), -1);
        assert_int_equal(faccessat(domain.own_dirfd, "prover-0", F_OK, 0), -1);
        assert_int_equal(faccessat(domain.own_dirfd, "prover-1", F_OK, 0), -1);
        assert_int_equal(waitpid(-1, NULL, WNOHANG), -1); /* no children, not even zombies */
        if (!c->cuda_in_process)
                assert_int_equal(count_fds(), c->fds_before);
}

static int ctx_teardown(void **state) {
        struct ctx *c = *state;

        executor_free(c->executor);
        sd_event_unref(c->event);
        for (size_t i = 0; i < c->n_done; i++) {
                free(c->done[i].proof_json);
                free(c->done[i].public_json);
        }
        free(c);
        unsetenv("CUZK_TEST_WORKER_FAULT");
        unsetenv("CUZK_TEST_WORKER_FAULT_ONCE");
        unsetenv("CUZK_TEST_PROVER_FAULT");
        unsetenv("CUZK_TEST_PROVER_FAULT_ONCE");
        unsetenv("CUZK_TEST_DIE_AT_START");
        stall_usec = 0;
        worker_nice = WORKER_NICE_DEFAULT;
        return 0;
}

static uint64_t now_sec(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec;
}

static uint64_t now_usec(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

/* Runs the loop for usec. */
static void run_for(struct ctx *c, uint64_t usec) {
        for (uint64_t end = now_usec() + usec; now_usec() < end;)
                assert_true(sd_event_run(c->event, 10000) >= 0);
}

/* Runs the loop until n tasks have finished (or fails after timeout_s). */
/* The fault hooks (CUZK_TEST_*) exist only in a build with -Dtest_hooks=true. */
static void need_test_hooks(void) {
        if (!CUZK_TEST_HOOKS)
                skip();
}

static void run_until_done(struct ctx *c, size_t n, unsigned timeout_s) {
        uint64_t end = now_sec() + timeout_s;

        while (c->n_done < n) {
                if (now_sec() > end)
                        fail_msg("only %zu of %zu tasks finished in %u s", c->n_done, n, timeout_s);
                assert_true(sd_event_run(c->event, 100000) >= 0);
        }
}

static void run_until_released(struct ctx *c, size_t n, unsigned timeout_s) {
        uint64_t end = now_sec() + timeout_s;

        while (c->n_released < n) {
                if (now_sec() > end)
                        fail_msg("a/b/c of only %zu of %zu tasks released in %u s", c->n_released,
                                 n, timeout_s);
                assert_true(sd_event_run(c->event, 100000) >= 0);
        }
}

/* Runs until fewer than limit worker slots are busy: a worker may outlive its proof
 * (an ASan build's worker checks for leaks as it exits), and a submission with every
 * slot busy is refused (-EBUSY) until one comes free. */
static void run_until_workers_below(struct ctx *c, unsigned limit, unsigned timeout_s) {
        struct executor_status status;

        for (uint64_t end = now_sec() + timeout_s;;
             assert_true(sd_event_run(c->event, 100000) >= 0)) {
                executor_get_status(c->executor, &status);
                if (status.workers_busy < limit)
                        return;
                if (now_sec() > end)
                        fail_msg("%u worker slots still busy after %u s", status.workers_busy,
                                 timeout_s);
        }
}

/* Runs until a worker slot is free (fewer busy than the executor's max_workers): by
 * the slots' state, where run_until_slot_free below counts slot_free calls. */
static void run_until_worker_free(struct ctx *c, unsigned timeout_s) {
        struct executor_status status;

        executor_get_status(c->executor, &status);
        run_until_workers_below(c, status.max_workers, timeout_s);
}

static void submit(struct ctx *c, uint64_t task_id, const struct job_inputs *in, unsigned partition,
                   uint64_t abc_bytes, uint64_t rest_bytes) {
        struct executor_task task = {
                .task_id = task_id,
                .inputs = in,
                .partition = partition,
                .abc_bytes = abc_bytes,
                .rest_bytes = rest_bytes,
                /* as the scheduler asks */
                .witness_form = executor_witness_form(c->executor, in),
        };

        assert_int_equal(executor_submit(c->executor, &task), 0);
}

/* Room for the fixtures' synthesis (ASan builds included). */
static void submit_roomy(struct ctx *c, uint64_t task_id, const struct job_inputs *in,
                         unsigned partition) {
        submit(c, task_id, in, partition, 16 * MiB, 512 * MiB);
}

static void expect_snarkjs_proof(const struct record *r) {
        _cleanup_(snarkjs_vk_freep) struct groth16_vk *vk = NULL;
        _cleanup_free_ char *vk_path = fixture_file("bits", "vk.json");
        _cleanup_free_ fr_t *signals = NULL;
        struct groth16_proof proof;
        json_t *root;
        size_t n;

        assert_int_equal(r->failure, EXECUTOR_OK);
        assert_non_null(r->proof_json);
        assert_int_equal(snarkjs_vk_load(vk_path, &vk), 0);
        root = json_loads(r->proof_json, 0, NULL);
        assert_non_null(root);
        assert_int_equal(snarkjs_proof_from_json(root, "proof_json", &proof), 0);
        json_decref(root);
        /* public.json as snarkjs writes it, byte for byte */
        assert_string_equal(r->public_json, bits_public_json);
        root = json_loads(r->public_json, 0, NULL);
        assert_non_null(root);
        assert_int_equal(snarkjs_public_from_json(root, "public_json", &signals, &n), 0);
        json_decref(root);
        assert_int_equal(n, vk->n_public);
        assert_int_equal(groth16_verify(vk, signals, &proof), 1);
}

/* The pid in a worker cgroup (0 while none). */
static pid_t worker_pid(const char *slot) {
        char file[128], text[64] = "";
        int fd;

        snprintf(file, sizeof(file), "synth/%s/cgroup.procs", slot);
        fd = openat(domain.own_dirfd, file, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return 0;
        if (read(fd, text, sizeof(text) - 1) < 0)
                text[0] = 0;
        close(fd);
        return (pid_t)atoi(text);
}

/* ---- the cases ------------------------------------------------------------------------- */

static void test_snarkjs_task(void **state) {
        struct ctx *c = *state;
        struct executor_status status;

        ctx_start(c);
        submit_roomy(c, 1, &snarkjs_job, 0);
        executor_get_status(c->executor, &status);
        assert_int_equal(status.workers_busy, 1);
        assert_int_equal(status.max_workers, 2);
        run_until_done(c, 1, 120);
        assert_int_equal(c->done[0].task_id, 1);
        assert_true(c->done[0].released_before);
        expect_snarkjs_proof(&c->done[0]);
        assert_true(c->done[0].synthesis_usec > 0);
        assert_true(c->done[0].gpu_stage_usec > 0);
        assert_true(c->done[0].g2_tail_usec > 0);
        /* the worker's cgroup saw at least the evaluations it filled */
        assert_true(c->done[0].worker_peak_bytes >= 3 * (UINT64_C(32) << 12));
        /* its slot is free once the worker has exited too (it may outlive the proof) */
        run_until_workers_below(c, 1, 30);
        executor_get_status(c->executor, &status);
        assert_true(status.prover_pid > 0);
        assert_true(status.srs_bytes > 0);
        assert_string_equal(status.backend, "cpu");
        /* what the prover keeps of the key, its only one: all of it on the CPU, the
         * points and the .zkey's coefficients */
        assert_true(c->done[0].held_reported);
        assert_int_equal(c->done[0].prover, 0);
        assert_true(c->done[0].key_host_bytes > status.srs_bytes);
        ctx_stop(c);
}

static void test_synthetic_task(void **state) {
        struct ctx *c = *state;
        struct groth16_proof proof;
        const struct groth16_vk *vk = &synthetic_keys->vk;

        ctx_start(c);
        submit_roomy(c, 7, &synthetic_job, 1);
        run_until_done(c, 1, 120);
        assert_int_equal(c->done[0].failure, EXECUTOR_OK);
        assert_true(c->done[0].released_before);
        assert_int_equal(c->done[0].proof_size, FILECOIN_PROOF_BYTES);
        assert_int_equal(
                filecoin_proof_decode(c->done[0].proof, FILECOIN_PROOF_BYTES, "proof", &proof), 0);
        assert_int_equal(groth16_verify(vk, synthetic_witness + 1, &proof), 1);
        ctx_stop(c);
}

static uint64_t prover_idle_usec(struct ctx *c) {
        struct executor_prover_info info;

        assert_int_equal(executor_get_prover(c->executor, 0, &info), 0);
        return info.idle_usec;
}

/* The prover's idle time: the time it is ready with nothing in hand while work is pending. */
static void test_prover_idle(void **state) {
        struct ctx *c = *state;
        struct executor_prover_info info;
        uint64_t before, idle, end = now_sec() + 60, t0, t1;
        const struct record *r;

        ctx_start(c);
        /* Pending before the prover is ready: its start-up does not count. */
        executor_set_work_pending(c->executor, true);
        do {
                assert_int_equal(prover_idle_usec(c), 0);
                if (now_sec() > end)
                        fail_msg("the prover is not ready in 60 s");
                before = now_usec();
                assert_true(sd_event_run(c->event, 100000) >= 0);
                assert_int_equal(executor_get_prover(c->executor, 0, &info), 0);
        } while (!info.ready);
        assert_true(info.idle_usec <= now_usec() - before);

        /* Ready, nothing in hand, work pending: all of it is idle. */
        run_for(c, 300000);
        idle = prover_idle_usec(c);
        assert_true(idle >= 300000);
        /* No work pending: it stops growing. */
        executor_set_work_pending(c->executor, false);
        idle = prover_idle_usec(c);
        run_for(c, 300000);
        assert_int_equal(prover_idle_usec(c), idle);

        /* A partition: idle while its worker synthesizes, not while the prover holds it. */
        executor_set_work_pending(c->executor, true);
        t0 = now_usec();
        submit_roomy(c, 1, &synthetic_job, 0);
        run_until_done(c, 1, 120);
        t1 = now_usec();
        r = &c->done[0];
        assert_int_equal(r->failure, EXECUTOR_OK);
        idle = prover_idle_usec(c) - idle;
        print_message("  idle %llu us of %llu: synthesis %llu us, at the prover %llu us\n",
                      (unsigned long long)idle, (unsigned long long)(t1 - t0),
                      (unsigned long long)r->synthesis_usec,
                      (unsigned long long)(r->srs_load_usec + r->gpu_stage_usec + r->g2_tail_usec));
        assert_true(idle >= r->synthesis_usec);
        assert_true(idle + r->srs_load_usec + r->gpu_stage_usec + r->g2_tail_usec <= t1 - t0);
        ctx_stop(c);
}

static void test_worker_killed(void **state) {
        need_test_hooks();
        struct ctx *c = *state;
        uint64_t end;
        pid_t pid;

        ctx_start(c);
        setenv("CUZK_TEST_WORKER_FAULT", "hang", 1);
        submit_roomy(c, 2, &snarkjs_job, 0);
        unsetenv("CUZK_TEST_WORKER_FAULT");
        end = now_sec() + 10;
        while (!(pid = worker_pid("w0"))) {
                assert_true(now_sec() <= end);
                assert_true(sd_event_run(c->event, 10000) >= 0);
        }
        /* below the prover (WorkerNice='s default): once it has lowered itself */
        for (end = now_sec() + 10; getpriority(PRIO_PROCESS, (id_t)pid) != WORKER_NICE_DEFAULT;)
                assert_true(now_sec() <= end);
        assert_int_equal(kill(pid, SIGKILL), 0);
        run_until_done(c, 1, 30);
        assert_int_equal(c->done[0].failure, EXECUTOR_FAILED_WORKER);
        assert_false(c->done[0].oom_killed);
        assert_non_null(strstr(c->done[0].message, "signal 9"));
        assert_false(c->done[0].released_before);

        /* one that crashes on its own */
        setenv("CUZK_TEST_WORKER_FAULT", "crash", 1);
        submit_roomy(c, 15, &snarkjs_job, 0);
        unsetenv("CUZK_TEST_WORKER_FAULT");
        run_until_done(c, 2, 30);
        assert_int_equal(c->done[1].failure, EXECUTOR_FAILED_WORKER);
        assert_false(c->done[1].oom_killed);
        assert_non_null(strstr(c->done[1].message, "signal 11"));
        ctx_stop(c);
}

/* Starts the executor with WorkerNice=option and a worker from a submit made at nice
 * submitter_nice (a child starts at its parent's nice), and expects the worker at nice
 * expected once it has read its task: it is hung then, past the point where it sets its
 * nice (the flag file of CUZK_TEST_WORKER_FAULT_ONCE is gone), and is killed. */
static void expect_worker_nice(struct ctx *c, unsigned option, int submitter_nice, int expected) {
        _cleanup_free_ char *flag = tmp_path("worker-fault-once");
        FILE *f = fopen(flag, "we");
        uint64_t end;
        pid_t pid;
        int own;

        assert_non_null(f);
        fclose(f);
        errno = 0;
        own = getpriority(PRIO_PROCESS, 0);
        assert_int_equal(errno, 0);
        worker_nice = option;
        ctx_start(c);
        setenv("CUZK_TEST_WORKER_FAULT", "hang", 1);
        setenv("CUZK_TEST_WORKER_FAULT_ONCE", flag, 1);
        assert_int_equal(setpriority(PRIO_PROCESS, 0, submitter_nice), 0);
        submit_roomy(c, 60, &snarkjs_job, 0);
        assert_int_equal(setpriority(PRIO_PROCESS, 0, own), 0);
        unsetenv("CUZK_TEST_WORKER_FAULT");
        unsetenv("CUZK_TEST_WORKER_FAULT_ONCE");
        end = now_sec() + 10;
        while (!(pid = worker_pid("w0")) || access(flag, F_OK) == 0) {
                assert_true(now_sec() <= end);
                assert_true(sd_event_run(c->event, 10000) >= 0);
        }
        assert_int_equal(getpriority(PRIO_PROCESS, (id_t)pid), expected);
        assert_int_equal(kill(pid, SIGKILL), 0);
        run_until_done(c, 1, 30);
        assert_int_equal(c->done[0].failure, EXECUTOR_FAILED_WORKER);
        ctx_stop(c);
}

/* WorkerNice=7: the worker at nice 7, whatever the nice of the process that started it. */
static void test_worker_nice_configured(void **state) {
        need_test_hooks();
        expect_worker_nice(*state, 7, 3, 7);
}

/* WorkerNice=0: the worker keeps the nice it started with (3 here, so that "left alone" is
 * not mistaken for "set to 0"). */
static void test_worker_nice_zero(void **state) {
        need_test_hooks();
        expect_worker_nice(*state, 0, 3, 3);
}

static void test_worker_oom(void **state) {
        need_test_hooks();
        struct ctx *c = *state;
        struct executor_status status;

        ctx_start(c);
        setenv("CUZK_TEST_WORKER_FAULT", "alloc-unbounded", 1);
        /* 16 + 16 MiB reserved, 64 MiB slack: killed at 96 MiB */
        submit(c, 3, &snarkjs_job, 0, 16 * MiB, 16 * MiB);
        unsetenv("CUZK_TEST_WORKER_FAULT");
        run_until_done(c, 1, 60);
        assert_int_equal(c->done[0].failure, EXECUTOR_FAILED_WORKER);
        assert_true(c->done[0].oom_killed);
        assert_non_null(strstr(c->done[0].message, "out of memory"));

        /* alone: the prover lives on and the next task proves */
        executor_get_status(c->executor, &status);
        assert_int_equal(status.prover_restarts, 0);
        submit_roomy(c, 4, &snarkjs_job, 0);
        run_until_done(c, 2, 120);
        assert_int_equal(c->done[1].task_id, 4);
        assert_false(c->done[1].oom_killed);
        expect_snarkjs_proof(&c->done[1]);
        ctx_stop(c);
}

static void test_prover_killed(void **state) {
        need_test_hooks();
        struct ctx *c = *state;
        struct executor_status status;
        int old_pid;

        setenv("CUZK_TEST_PROVER_FAULT", "hang-tail", 1);
        ctx_start(c);
        unsetenv("CUZK_TEST_PROVER_FAULT"); /* its successor proves normally */
        submit_roomy(c, 5, &snarkjs_job, 0);
        run_until_released(c, 1, 120);
        executor_get_status(c->executor, &status);
        old_pid = status.prover_pid;
        assert_true(old_pid > 0);
        assert_int_equal(kill(old_pid, SIGKILL), 0);
        run_until_done(c, 1, 30);
        assert_int_equal(c->done[0].failure, EXECUTOR_FAILED_PROVER);
        assert_non_null(strstr(c->done[0].message, "prover"));
        assert_false(c->done[0].held_reported);
        assert_int_equal(c->n_prover_lost[0], 1); /* what it held is gone */

        /* submitted while the prover is down: its evaluations wait for the successor */
        submit_roomy(c, 6, &snarkjs_job, 0);
        run_until_done(c, 2, 120);
        expect_snarkjs_proof(&c->done[1]);
        executor_get_status(c->executor, &status);
        assert_int_equal(status.prover_restarts, 1);
        assert_true(status.prover_pid > 0);
        assert_int_not_equal(status.prover_pid, old_pid);
        ctx_stop(c);
}

/* A worker and then the prover SIGSTOPped with work: each is killed after the stall
 * timeout, the worker's task fails as a worker death (retried by the scheduler) and the
 * prover's as a prover death; the prover is restarted and proves. */
static void test_stalled_processes_killed(void **state) {
        need_test_hooks();
        struct ctx *c = *state;
        struct executor_status status;
        uint64_t end;
        pid_t pid;

        stall_usec = 1000000;
        ctx_start(c);
        setenv("CUZK_TEST_WORKER_FAULT", "hang", 1);
        submit_roomy(c, 40, &snarkjs_job, 0);
        unsetenv("CUZK_TEST_WORKER_FAULT");
        end = now_sec() + 10;
        while (!(pid = worker_pid("w0"))) {
                assert_true(now_sec() <= end);
                assert_true(sd_event_run(c->event, 10000) >= 0);
        }
        assert_int_equal(kill(pid, SIGSTOP), 0);
        run_until_done(c, 1, 30);
        assert_int_equal(c->done[0].failure, EXECUTOR_FAILED_WORKER);
        assert_non_null(strstr(c->done[0].message, "killed by signal 9"));
        assert_non_null(strstr(c->done[0].message, "WorkerStallTimeout="));
        executor_get_status(c->executor, &status);
        assert_int_equal(status.stalled_worker_kills, 1);

        /* The prover stopped while idle is left alone; given a task, it is killed. */
        pid = status.prover_pid;
        assert_true(pid > 0);
        assert_int_equal(kill(pid, SIGSTOP), 0);
        submit_roomy(c, 41, &snarkjs_job, 0);
        run_until_done(c, 2, 60);
        assert_int_equal(c->done[1].failure, EXECUTOR_FAILED_PROVER);
        assert_non_null(strstr(c->done[1].message, "ProverStallTimeout="));
        submit_roomy(c, 42, &snarkjs_job, 0);
        run_until_done(c, 3, 120);
        expect_snarkjs_proof(&c->done[2]);
        executor_get_status(c->executor, &status);
        assert_int_equal(status.stalled_prover_kills, 1);
        assert_int_equal(status.prover_restarts, 1);
        assert_int_not_equal(status.prover_pid, pid);
        ctx_stop(c);
}

/* Runs the loop until prover `index` is ready (or out of service), or fails. */
static void run_until_prover_settled(struct ctx *c, unsigned index, unsigned timeout_s) {
        uint64_t end = now_sec() + timeout_s;
        struct executor_prover_info info;

        for (;;) {
                assert_int_equal(executor_get_prover(c->executor, index, &info), 0);
                if (info.ready || !info.in_service)
                        return;
                if (now_sec() > end)
                        fail_msg("prover %u neither ready nor out of service in %u s", index,
                                 timeout_s);
                assert_true(sd_event_run(c->event, 100000) >= 0);
        }
}

/* The same task with GPU 0's prover (where this build has CUDA and a GPU answers): the
 * worker hands on the compact witness alone, the prover makes a, b, c on the card from
 * the PCE, and the proof verifies. With only CPU provers, the full form. */
static void test_synthetic_task_gpu(void **state) {
        static const int gpu0[] = {0};
        struct ctx *c = *state;
        struct groth16_proof proof;
        struct executor_prover_info p0;

        if (!HAVE_CUDA || gpu_device_count() <= 0) {
                assert_int_equal(c->n_done, 0);
                ctx_start(c);
                submit_roomy(c, 8, &synthetic_job, 0);
                run_until_done(c, 1, 120);
                assert_int_equal(c->done[0].failure, EXECUTOR_OK);
                assert_int_equal(c->done[0].witness_form, IPC_WITNESS_FULL);
                ctx_stop(c);
                skip();
        }
        c->cuda_in_process = true;
        ctx_start_devices(c, &domain, helper_path, gpu0, 1);
        run_until_prover_settled(c, 0, 60);
        assert_int_equal(executor_get_prover(c->executor, 0, &p0), 0);
        assert_true(p0.in_service);
        for (unsigned i = 0; i < 2; i++) {
                submit_roomy(c, 20 + i, &synthetic_job, i);
                run_until_done(c, i + 1, 120);
                assert_int_equal(c->done[i].failure, EXECUTOR_OK);
                assert_int_equal(c->done[i].witness_form, IPC_WITNESS_COMPACT);
                assert_true(c->done[i].released_before);
                assert_int_equal(filecoin_proof_decode(c->done[i].proof, FILECOIN_PROOF_BYTES,
                                                       "proof", &proof),
                                 0);
                assert_int_equal(groth16_verify(&synthetic_keys->vk, synthetic_witness + 1, &proof),
                                 1);
        }
        ctx_stop(c);
}

static const int two_cpu_provers[] = {EXECUTOR_DEVICE_CPU, EXECUTOR_DEVICE_CPU};

/* Two provers in prover-0 and prover-1: tasks one after another go to each in turn (a tie
 * in tasks in hand goes to the one idle longest), and each proof verifies. */
static void test_two_provers(void **state) {
        struct ctx *c = *state;
        struct executor_prover_info p0, p1, none;
        struct executor_status status;

        ctx_start_devices(c, &domain, helper_path, two_cpu_provers, 2);
        assert_int_equal(faccessat(domain.own_dirfd, "prover-0", F_OK, 0), 0);
        assert_int_equal(faccessat(domain.own_dirfd, "prover-1", F_OK, 0), 0);
        run_until_prover_settled(c, 0, 60);
        run_until_prover_settled(c, 1, 60);
        for (uint64_t id = 1; id <= 4; id++) {
                run_until_worker_free(c, 30);
                submit_roomy(c, id, &snarkjs_job, 0);
                run_until_done(c, (size_t)id, 120);
                expect_snarkjs_proof(&c->done[id - 1]);
        }
        assert_int_equal(executor_get_prover(c->executor, 0, &p0), 0);
        assert_int_equal(executor_get_prover(c->executor, 1, &p1), 0);
        assert_int_equal(executor_get_prover(c->executor, 2, &none), -ERANGE);
        assert_int_equal(p0.proved, 2);
        assert_int_equal(p1.proved, 2);
        assert_true(p0.pid > 0 && p1.pid > 0 && p0.pid != p1.pid);
        assert_true(p0.ready && p1.ready && p0.in_service && p1.in_service);
        assert_int_equal(p0.device, EXECUTOR_DEVICE_CPU);
        assert_int_equal(p0.ordinal, -1);
        assert_string_equal(p0.name, "cpu");
        assert_string_equal(p1.backend, "cpu");
        assert_int_equal(p0.in_hand + p1.in_hand, 0);
        assert_true(p0.srs_bytes > 0 && p1.srs_bytes == p0.srs_bytes);
        executor_get_status(c->executor, &status);
        assert_int_equal(status.n_provers, 2);
        assert_int_equal(status.provers_in_service, 2);
        assert_int_equal(status.srs_bytes, p0.srs_bytes + p1.srs_bytes);
        ctx_stop(c);
}

/* One of two provers killed while it holds a task: that task fails naming prover-0, and
 * the work goes on on prover-1 while prover-0 restarts. */
static void test_one_of_two_provers_killed(void **state) {
        need_test_hooks();
        struct ctx *c = *state;
        struct executor_prover_info p0, p1;
        _cleanup_free_ char *flag = tmp_path("prover-fault-once");
        FILE *f = fopen(flag, "we");
        int old_pid;

        assert_non_null(f);
        fclose(f);
        setenv("CUZK_TEST_PROVER_FAULT", "hang-tail", 1);
        setenv("CUZK_TEST_PROVER_FAULT_ONCE", flag, 1);
        ctx_start_devices(c, &domain, helper_path, two_cpu_provers, 2);
        unsetenv("CUZK_TEST_PROVER_FAULT");
        unsetenv("CUZK_TEST_PROVER_FAULT_ONCE");
        run_until_prover_settled(c, 0, 60);
        run_until_prover_settled(c, 1, 60);
        submit_roomy(c, 1, &snarkjs_job, 0); /* to prover-0, which hangs in its tail */
        run_until_released(c, 1, 120);
        assert_int_equal(executor_get_prover(c->executor, 0, &p0), 0);
        assert_int_equal(p0.in_hand, 1);
        assert_int_equal(p0.current_task_id, 1);
        submit_roomy(c, 2, &snarkjs_job, 0); /* to prover-1: prover-0 has one in hand */
        run_until_done(c, 1, 120);
        assert_int_equal(c->done[0].task_id, 2);
        expect_snarkjs_proof(&c->done[0]);

        old_pid = p0.pid;
        assert_int_equal(kill(old_pid, SIGKILL), 0);
        run_until_done(c, 2, 30);
        assert_int_equal(c->done[1].task_id, 1);
        assert_int_equal(c->done[1].failure, EXECUTOR_FAILED_PROVER);
        assert_non_null(strstr(c->done[1].message, "prover-0"));
        /* at once, while prover-0 restarts: prover-1 takes it */
        run_until_worker_free(c, 30);
        submit_roomy(c, 3, &snarkjs_job, 0);
        run_until_done(c, 3, 120);
        expect_snarkjs_proof(&c->done[2]);
        run_until_prover_settled(c, 0, 60);
        assert_int_equal(executor_get_prover(c->executor, 0, &p0), 0);
        assert_int_equal(executor_get_prover(c->executor, 1, &p1), 0);
        assert_int_equal(p0.restarts, 1);
        assert_int_equal(p0.failed, 1);
        assert_int_equal(p0.proved, 0);
        assert_true(p0.in_service);
        assert_int_not_equal(p0.pid, old_pid);
        assert_int_equal(p1.proved, 2);
        assert_int_equal(p1.restarts, 0);
        ctx_stop(c);
}

/* A GPU that cannot be opened (ordinal 7: no such device here, or no CUDA in this build)
 * takes its prover out of service, not restarted; the CPU prover proves. Alone, it leaves
 * no prover: a synthesized task fails saying so. */
static void test_device_out_of_service(void **state) {
        static const int gpu_and_cpu[] = {7, EXECUTOR_DEVICE_CPU};
        static const int gpu_alone[] = {7};
        struct ctx *c = *state;
        struct executor_prover_info p0;
        struct executor_status status;

        ctx_start_devices(c, &domain, helper_path, gpu_and_cpu, 2);
        run_until_prover_settled(c, 0, 60);
        assert_int_equal(executor_get_prover(c->executor, 0, &p0), 0);
        assert_false(p0.in_service);
        assert_int_equal(p0.device, 7);
        assert_int_equal(p0.pid, 0);
        submit_roomy(c, 1, &snarkjs_job, 0);
        run_until_done(c, 1, 120);
        expect_snarkjs_proof(&c->done[0]);
        assert_int_equal(executor_get_prover(c->executor, 0, &p0), 0);
        assert_int_equal(p0.restarts, 0);
        executor_get_status(c->executor, &status);
        assert_int_equal(status.n_provers, 2);
        assert_int_equal(status.provers_in_service, 1);
        ctx_stop(c);

        assert_int_equal(sd_event_new(&c->event), 0);
        ctx_start_devices(c, &domain, helper_path, gpu_alone, 1);
        run_until_prover_settled(c, 0, 60);
        submit_roomy(c, 2, &snarkjs_job, 0);
        run_until_done(c, 2, 120);
        assert_int_equal(c->done[1].failure, EXECUTOR_FAILED_PROVER);
        assert_non_null(strstr(c->done[1].message, "every prover is out of service"));
        ctx_stop(c);
}

/* Runs the loop until every prover has answered every preload, or fails. */
static void run_until_preloaded(struct ctx *c, unsigned timeout_s) {
        uint64_t end = now_sec() + timeout_s;

        while (!executor_preloads_settled(c->executor)) {
                if (now_sec() > end)
                        fail_msg("preloads not settled in %u s", timeout_s);
                assert_true(sd_event_run(c->event, 100000) >= 0);
        }
}

/* Preloaded keys: both provers load them before any task (the task then loads nothing),
 * a missing file is an answered failure, and a restarted prover loads them again. */
static void test_preload(void **state) {
        struct ctx *c = *state;
        struct executor_prover_info p0, p1;
        _cleanup_free_ char *missing = tmp_path("missing.zkey");
        char message[1024];
        int old_pid;

        ctx_start_devices(c, &domain, helper_path, two_cpu_provers, 2);
        assert_int_equal(
                executor_preload_key(c->executor, JOB_GROTH16_SNARKJS, snarkjs_job.zkey_path, NULL),
                0);
        assert_int_equal(executor_preload_key(c->executor, JOB_GROTH16_SNARKJS, missing, NULL), 0);
        /* the same key again is no second load */
        assert_int_equal(
                executor_preload_key(c->executor, JOB_GROTH16_SNARKJS, snarkjs_job.zkey_path, NULL),
                0);
        assert_false(executor_preloads_settled(c->executor));
        assert_int_equal(executor_preload_state(c->executor, JOB_GROTH16_SNARKJS,
                                                snarkjs_job.zkey_path, message, sizeof(message)),
                         0); /* loading */
        run_until_preloaded(c, 120);
        assert_true(c->n_preload_progress >= 4);
        /* what PreloadSRS answers by: the key held, the missing file's failure */
        assert_int_equal(executor_preload_state(c->executor, JOB_GROTH16_SNARKJS,
                                                snarkjs_job.zkey_path, message, sizeof(message)),
                         1);
        assert_true(executor_preload_state(c->executor, JOB_GROTH16_SNARKJS, missing, message,
                                           sizeof(message)) < 0);
        assert_non_null(strstr(message, "no prover could load it"));
        assert_int_equal(executor_preload_state(c->executor, JOB_SYNTHETIC_PCE,
                                                snarkjs_job.zkey_path, message, sizeof(message)),
                         -ENOENT);
        assert_int_equal(executor_get_prover(c->executor, 0, &p0), 0);
        assert_int_equal(executor_get_prover(c->executor, 1, &p1), 0);
        assert_int_equal(p0.preloads_done, 2);
        assert_int_equal(p1.preloads_done, 2);
        assert_true(p0.srs_bytes > 0);
        assert_int_equal(p1.srs_bytes, p0.srs_bytes);
        assert_int_equal(c->n_done, 0);
        /* each prover said what it keeps of the key it loaded (the missing one: nothing) */
        assert_int_equal(c->n_key_held[0], 1);
        assert_int_equal(c->n_key_held[1], 1);
        assert_true(c->key_held_bytes[0] > p0.srs_bytes);
        assert_int_equal(c->key_held_bytes[1], c->key_held_bytes[0]);
        assert_int_equal(c->key_held_kind, JOB_GROTH16_SNARKJS);

        submit_roomy(c, 1, &snarkjs_job, 0);
        run_until_done(c, 1, 120);
        expect_snarkjs_proof(&c->done[0]);
        assert_int_equal(c->done[0].srs_load_usec, 0); /* loaded before */

        old_pid = p1.pid;
        assert_int_equal(kill(old_pid, SIGKILL), 0);
        while (executor_preloads_settled(c->executor))
                assert_true(sd_event_run(c->event, 100000) >= 0);
        run_until_preloaded(c, 120);
        assert_int_equal(executor_get_prover(c->executor, 1, &p1), 0);
        assert_int_not_equal(p1.pid, old_pid);
        assert_int_equal(p1.preloads_done, 2);
        assert_int_equal(p1.srs_bytes, p0.srs_bytes);
        assert_int_equal(p1.proved, 0);
        /* the dead one's holdings went, its successor's load said so again */
        assert_int_equal(c->n_prover_lost[1], 1);
        assert_int_equal(c->n_key_held[1], 2);
        assert_int_equal(c->key_held_bytes[1], c->key_held_bytes[0]);

        /* evicted: both provers drop it, and a restarted one does not load it again */
        executor_evict_key(c->executor, JOB_GROTH16_SNARKJS, snarkjs_job.zkey_path);
        assert_int_equal(executor_preload_state(c->executor, JOB_GROTH16_SNARKJS,
                                                snarkjs_job.zkey_path, message, sizeof(message)),
                         -ECANCELED);
        for (uint64_t end = now_sec() + 60;;) {
                assert_int_equal(executor_get_prover(c->executor, 0, &p0), 0);
                assert_int_equal(executor_get_prover(c->executor, 1, &p1), 0);
                if (p0.srs_bytes == 0 && p1.srs_bytes == 0)
                        break;
                if (now_sec() > end)
                        fail_msg("the evicted key is still held (%llu, %llu bytes)",
                                 (unsigned long long)p0.srs_bytes,
                                 (unsigned long long)p1.srs_bytes);
                assert_true(sd_event_run(c->event, 100000) >= 0);
        }
        old_pid = p0.pid;
        assert_int_equal(kill(old_pid, SIGKILL), 0);
        while (executor_preloads_settled(c->executor))
                assert_true(sd_event_run(c->event, 100000) >= 0);
        run_until_preloaded(c, 120);
        assert_int_equal(executor_get_prover(c->executor, 0, &p0), 0);
        assert_int_not_equal(p0.pid, old_pid);
        assert_int_equal(p0.srs_bytes, 0);
        /* and a task of it still proves, loading the key on demand */
        submit_roomy(c, 2, &snarkjs_job, 0);
        run_until_done(c, 2, 120);
        expect_snarkjs_proof(&c->done[1]);
        assert_true(c->done[1].srs_load_usec > 0);

        /* a load answered while its eviction is in flight is not passed on: the key goes */
        const unsigned held[2] = {c->n_key_held[0], c->n_key_held[1]};
        assert_int_equal(
                executor_preload_key(c->executor, JOB_GROTH16_SNARKJS, snarkjs_job.zkey_path, NULL),
                0);
        executor_evict_key(c->executor, JOB_GROTH16_SNARKJS, snarkjs_job.zkey_path);
        for (uint64_t end = now_sec() + 60;;) {
                assert_int_equal(executor_get_prover(c->executor, 0, &p0), 0);
                assert_int_equal(executor_get_prover(c->executor, 1, &p1), 0);
                if (executor_preloads_settled(c->executor) && p0.srs_bytes == 0 &&
                    p1.srs_bytes == 0)
                        break;
                if (now_sec() > end)
                        fail_msg("the key loaded and evicted is still held");
                assert_true(sd_event_run(c->event, 100000) >= 0);
        }
        assert_int_equal(c->n_key_held[0], held[0]);
        assert_int_equal(c->n_key_held[1], held[1]);
        ctx_stop(c);
}

/* A .params file in bellperson's layout: the prover takes the densities from
 * the task's PCE. */
static void test_synthetic_bellperson_layout(void **state) {
        struct ctx *c = *state;
        struct groth16_proof proof;
        struct job_inputs job = synthetic_job;

        job.params_path = synthetic_packed_params;
        ctx_start(c);
        /* a preload names the circuit too */
        assert_int_equal(executor_preload_key(c->executor, JOB_SYNTHETIC_PCE,
                                              synthetic_packed_params, synthetic_job.pce_path),
                         0);
        run_until_preloaded(c, 120);
        submit_roomy(c, 8, &job, 0);
        run_until_done(c, 1, 120);
        assert_int_equal(c->done[0].failure, EXECUTOR_OK);
        assert_int_equal(c->done[0].srs_load_usec, 0); /* loaded before */
        assert_int_equal(
                filecoin_proof_decode(c->done[0].proof, FILECOIN_PROOF_BYTES, "proof", &proof), 0);
        assert_int_equal(groth16_verify(&synthetic_keys->vk, synthetic_witness + 1, &proof), 1);
        ctx_stop(c);
}

static void test_corrupt_witness(void **state) {
        struct ctx *c = *state;
        _cleanup_free_ char *wtns = fixture_file("bits", "wtns");
        _cleanup_free_ uint8_t *data = NULL;
        struct job_inputs corrupt = snarkjs_job;
        char path[256];
        FILE *f;
        size_t n;

        /* the first half of the fixture's witness: truncated */
        data = read_whole_file(wtns, &n);
        snprintf(path, sizeof(path), "%s/corrupt.wtns", tmp_dir);
        f = fopen(path, "we");
        assert_non_null(f);
        assert_int_equal(fwrite(data, 1, n / 2, f), n / 2);
        assert_int_equal(fclose(f), 0);
        corrupt.wtns_path = path;

        ctx_start(c);
        submit_roomy(c, 8, &corrupt, 0);
        run_until_done(c, 1, 60);
        assert_int_equal(c->done[0].failure, EXECUTOR_FAILED_INPUT);
        assert_non_null(strstr(c->done[0].message, path));
        assert_false(c->done[0].oom_killed);
        unlink(path);
        ctx_stop(c);
}

/* A FIFO as the witness fails its task as bad input at once: the worker does not wait in
 * open(2) for a writer, holding its slot. */
static void test_fifo_witness(void **state) {
        struct ctx *c = *state;
        struct job_inputs fifo = snarkjs_job;
        char path[256];

        snprintf(path, sizeof(path), "%s/fifo.wtns", tmp_dir);
        assert_int_equal(mkfifo(path, 0600), 0);
        fifo.wtns_path = path;
        ctx_start(c);
        submit_roomy(c, 9, &fifo, 0);
        run_until_done(c, 1, 10);
        assert_int_equal(c->done[0].failure, EXECUTOR_FAILED_INPUT);
        assert_non_null(strstr(c->done[0].message, "fifo.wtns: not a regular file"));
        unlink(path);
        ctx_stop(c);
}

static void test_cancel(void **state) {
        need_test_hooks();
        struct ctx *c = *state;
        struct executor_task third = {.task_id = 11, .inputs = &snarkjs_job, .rest_bytes = MiB};

        setenv("CUZK_TEST_PROVER_FAULT", "hang-tail", 1);
        ctx_start(c);
        unsetenv("CUZK_TEST_PROVER_FAULT");

        /* in synthesis; every worker cgroup busy meanwhile */
        setenv("CUZK_TEST_WORKER_FAULT", "hang", 1);
        submit_roomy(c, 9, &snarkjs_job, 0);
        submit_roomy(c, 10, &snarkjs_job, 0);
        unsetenv("CUZK_TEST_WORKER_FAULT");
        assert_int_equal(executor_submit(c->executor, &third), -EBUSY);
        assert_int_equal(executor_cancel(c->executor, 9), 0);
        assert_int_equal(executor_cancel(c->executor, 10), 0);
        run_until_done(c, 2, 30);
        assert_int_equal(c->done[0].failure, EXECUTOR_FAILED_CANCELED);
        assert_int_equal(c->done[1].failure, EXECUTOR_FAILED_CANCELED);

        /* at the prover (which waits there until the task is canceled) */
        submit_roomy(c, 12, &snarkjs_job, 0);
        run_until_released(c, 1, 120);
        assert_int_equal(executor_cancel(c->executor, 12), 0);
        run_until_done(c, 3, 30);
        assert_int_equal(c->done[2].task_id, 12);
        assert_int_equal(c->done[2].failure, EXECUTOR_FAILED_CANCELED);

        assert_int_equal(executor_cancel(c->executor, 99), -ENOENT);
        ctx_stop(c);
}

/* Whether a worker runs in any of the first n slots. */
static bool any_worker(unsigned n) {
        for (unsigned i = 0; i < n; i++) {
                char slot[16];
                snprintf(slot, sizeof(slot), "w%u", i);
                if (worker_pid(slot))
                        return true;
        }
        return false;
}

/* Messages that say a task waits for a prover; each message still goes to stderr. */
static size_t said_waiting;
static void count_said_waiting(int level, const char *message, void *userdata) {
        (void)level;
        (void)userdata;
        said_waiting += strstr(message, "waiting for a prover") != NULL;
        fprintf(stderr, "%s\n", message);
}

/* Synthesized partitions that wait for room at the prover go to it oldest first, so a
 * job's partitions go before a later job's; each says once that it waits. */
static void test_relay_oldest_first(void **state) {
        need_test_hooks();
        struct ctx *c = *state;

        /* a slot for each task: one at the prover or waiting for it holds its slot */
        max_workers = 6;
        setenv("CUZK_TEST_PROVER_FAULT", "hang-tail", 1);
        ctx_start(c);
        unsetenv("CUZK_TEST_PROVER_FAULT");
        max_workers = 0;
        /* four at the prover (as many as it holds), each waiting there until canceled */
        for (uint64_t id = 1; id <= 4; id++) {
                submit_roomy(c, id, &snarkjs_job, 0);
                run_until_released(c, id, 120);
        }
        said_waiting = 0;
        log_set_sink(count_said_waiting, NULL);
        /* two more, synthesized (their workers exit once the evaluations are sent up),
         * wait for room */
        submit_roomy(c, 5, &snarkjs_job, 0);
        submit_roomy(c, 6, &snarkjs_job, 0);
        for (uint64_t end = now_sec() + 120; any_worker(6);) {
                assert_true(now_sec() <= end);
                assert_true(sd_event_run(c->event, 10000) >= 0);
        }
        run_for(c, 300000);
        assert_int_equal(c->n_released, 4);
        /* each canceled task makes room for one: the oldest waiting */
        for (uint64_t id = 1; id <= 2; id++) {
                assert_int_equal(executor_cancel(c->executor, id), 0);
                run_until_released(c, 4 + id, 60);
                assert_int_equal(c->released[3 + id], 4 + id);
        }
        /* 6 was tried again when 1's answer made room for 5, and said nothing more */
        log_set_sink(NULL, NULL);
        assert_int_equal(said_waiting, 2);
        for (uint64_t id = 3; id <= 6; id++)
                assert_int_equal(executor_cancel(c->executor, id), 0);
        run_until_done(c, 6, 60);
        for (size_t i = 0; i < 6; i++)
                assert_int_equal(c->done[i].failure, EXECUTOR_FAILED_CANCELED);
        ctx_stop(c);
}

static void test_rlimit_data(void **state) {
        need_test_hooks();
        struct ctx *c = *state;
        const cg_domain_t no_cgroups = {.enforcement = CG_ENFORCEMENT_RLIMIT_DATA,
                                        .own_dirfd = -EBADF};

#if defined(__SANITIZE_ADDRESS__)
        /* AddressSanitizer cannot map its shadow memory within RLIMIT_DATA. */
        skip();
#endif
        ctx_start_in(c, &no_cgroups);
        submit_roomy(c, 13, &snarkjs_job, 0);
        run_until_done(c, 1, 120);
        expect_snarkjs_proof(&c->done[0]);

        /* refused memory instead of being killed: a worker failure all the same */
        setenv("CUZK_TEST_WORKER_FAULT", "alloc-unbounded", 1);
        submit(c, 14, &snarkjs_job, 0, 16 * MiB, 16 * MiB);
        unsetenv("CUZK_TEST_WORKER_FAULT");
        run_until_done(c, 2, 60);
        assert_int_equal(c->done[1].failure, EXECUTOR_FAILED_WORKER);
        assert_false(c->done[1].oom_killed);
        assert_non_null(strstr(c->done[1].message, "allocation refused"));
        ctx_stop(c);
}

/* Runs the loop until slot_free was called n times in all (or fails after timeout_s). */
static void run_until_slot_free(struct ctx *c, size_t n, unsigned timeout_s) {
        uint64_t end = now_sec() + timeout_s;

        while (c->n_slot_free < n) {
                if (now_sec() > end)
                        fail_msg("slot_free came %zu times, not %zu, in %u s", c->n_slot_free, n,
                                 timeout_s);
                assert_true(sd_event_run(c->event, 100000) >= 0);
        }
}

static void test_slot_free(void **state) {
        need_test_hooks();
        struct ctx *c = *state;
        _cleanup_free_ char *script = tmp_path("helper.sh");
        struct executor_task third = {.task_id = 22, .inputs = &snarkjs_job, .rest_bytes = MiB};
        struct executor_status status;
        uint64_t end;
        size_t frees;
        FILE *f;
        pid_t pid;

        /* The helper behind a script that, asked to, ends a worker before it reads a thing. */
        f = fopen(script, "we");
        assert_non_null(f);
        fprintf(f,
                "#!/bin/sh\n[ \"$1\" = --worker ] && [ -n \"$CUZK_TEST_DIE_AT_START\" ] && "
                "exit 3\nexec '%s' \"$@\"\n",
                helper_path);
        assert_int_equal(fclose(f), 0);
        assert_int_equal(chmod(script, 0755), 0);
        ctx_start_with(c, &domain, script);

        /* Both worker cgroups busy, then one worker killed: `finished` first, then
         * slot_free, and then there is a slot. */
        setenv("CUZK_TEST_WORKER_FAULT", "hang", 1);
        submit_roomy(c, 20, &snarkjs_job, 0);
        submit_roomy(c, 21, &snarkjs_job, 0);
        unsetenv("CUZK_TEST_WORKER_FAULT");
        end = now_sec() + 10;
        while (!(pid = worker_pid("w0"))) {
                assert_true(now_sec() <= end);
                assert_true(sd_event_run(c->event, 10000) >= 0);
        }
        assert_int_equal(executor_submit(c->executor, &third), -EBUSY);
        assert_int_equal(c->n_slot_free, 0);
        assert_int_equal(kill(pid, SIGKILL), 0);
        run_until_slot_free(c, 1, 30);
        assert_int_equal(c->n_done, 1);
        assert_int_equal(c->done_at_slot_free[0], 1);
        assert_int_equal(c->done[0].failure, EXECUTOR_FAILED_WORKER);
        setenv("CUZK_TEST_WORKER_FAULT", "hang", 1);
        submit_roomy(c, 22, &snarkjs_job, 0);
        unsetenv("CUZK_TEST_WORKER_FAULT");
        assert_int_equal(executor_cancel(c->executor, 21), 0);
        assert_int_equal(executor_cancel(c->executor, 22), 0);
        run_until_done(c, 3, 30);
        end = now_sec() + 30;
        do {
                assert_true(now_sec() <= end);
                assert_true(sd_event_run(c->event, 100000) >= 0);
                executor_get_status(c->executor, &status);
        } while (status.workers_busy > 0 || c->done_at_slot_free[c->n_slot_free - 1] < 3);

        /* A worker dead before its task was sent: submit succeeds, `finished` says so. */
        frees = c->n_slot_free;
        setenv("CUZK_TEST_DIE_AT_START", "1", 1);
        lose_next_send = true;
        submit_roomy(c, 23, &snarkjs_job, 0);
        unsetenv("CUZK_TEST_DIE_AT_START");
        assert_false(lose_next_send); /* the task was sent (and met a closed socket) */
        assert_int_equal(c->n_done, 3);
        run_until_done(c, 4, 30);
        assert_int_equal(c->done[3].task_id, 23);
        assert_int_equal(c->done[3].failure, EXECUTOR_FAILED_WORKER);
        assert_non_null(strstr(c->done[3].message, "exited with status 3"));
        assert_non_null(strstr(c->done[3].message, "before it took its task"));
        run_until_slot_free(c, frees + 1, 30);
        executor_get_status(c->executor, &status);
        assert_int_equal(status.workers_busy, 0);
        unlink(script);
        ctx_stop(c);
}

/* ---- the group ------------------------------------------------------------------------- */

static char *tmp_path(const char *name) {
        char *p;

        assert_true(asprintf(&p, "%s/%s", tmp_dir, name) >= 0);
        return p;
}

/* A small PoRep-shaped circuit, its witness and a key for it (seeded: tests only). */
static void make_synthetic(void) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        struct groth16_toxic_waste tw;
        struct synthetic_params p = {
                .seed = 11,
                .n_rows = 1024 - 8,
                .n_aux = SYNTHETIC_DEFAULT,
                .n_public = 3,
        };

        assert_int_equal(synthetic_params_resolve(&p), 0);
        assert_int_equal(synthetic_generate(&p, &pce, &synthetic_witness), 0);
        synthetic_job.pce_path = tmp_path("c.pce");
        synthetic_job.witness_path = tmp_path("c.wtns");
        synthetic_job.params_path = tmp_path("c.params");
        assert_int_equal(pce_save(pce, synthetic_job.pce_path), 0);
        assert_int_equal(wtns_save(synthetic_job.witness_path, synthetic_witness, pce->n_cols), 0);

        groth16_toxic_waste_from_seed(&tw, (const uint8_t *)"executor", 8);
        assert_int_equal(pce_groth16_setup(pce, &tw, NULL, &synthetic_keys), 0);
        assert_int_equal(bellperson_params_save(synthetic_job.params_path, &synthetic_keys->pk,
                                                &synthetic_keys->vk),
                         0);

        _cleanup_(wire_density_freep) struct wire_density *a = NULL, *b = NULL;
        _cleanup_(groth16_packed_arrays_free) struct groth16_packed_arrays arrays = {0};
        struct groth16_pk packed;
        synthetic_packed_params = tmp_path("c-packed.params");
        assert_int_equal(pce_wire_density(pce, PCE_A, &a), 0);
        assert_int_equal(pce_wire_density(pce, PCE_B, &b), 0);
        assert_int_equal(groth16_pk_pack(&synthetic_keys->pk, a, b, &arrays, &packed), 0);
        assert_int_equal(
                bellperson_params_save(synthetic_packed_params, &packed, &synthetic_keys->vk), 0);
}

static int group_setup(void **state) {
        _cleanup_free_ char *public_path = fixture_file("bits", "public.json");
        size_t n;

        (void)state;
        if (!mkdtemp(tmp_dir))
                return -1;
        snarkjs_job.zkey_path = fixture_file("bits", "zkey");
        snarkjs_job.wtns_path = fixture_file("bits", "wtns");
        bits_public_json = (char *)read_whole_file(public_path, &n);
        bits_public_json[n] = 0;
        make_synthetic();
        return 0;
}

static int group_teardown(void **state) {
        (void)state;
        free((char *)snarkjs_job.zkey_path);
        free((char *)snarkjs_job.wtns_path);
        free(bits_public_json);
        unlink(synthetic_job.pce_path);
        unlink(synthetic_job.witness_path);
        unlink(synthetic_job.params_path);
        unlink(synthetic_packed_params);
        free((char *)synthetic_packed_params);
        free((char *)synthetic_job.pce_path);
        free((char *)synthetic_job.witness_path);
        free((char *)synthetic_job.params_path);
        groth16_keys_free(synthetic_keys);
        free(synthetic_witness);
        rmdir(tmp_dir);
        return 0;
}

/* A cgroup of our own below ours, posing as the daemon's delegated one. */
static int open_test_domain(void) {
        cg_hierarchy_t hierarchy;
        int fd, r;

        if (geteuid() != 0) {
                printf("# SKIP: needs root\n");
                return 77;
        }
        r = cg_hierarchy_detect(&hierarchy);
        if (r < 0 || cg_domain_open(&hierarchy, &base_domain) < 0 ||
            base_domain.enforcement == CG_ENFORCEMENT_RLIMIT_DATA) {
                printf("# SKIP: no writable memory cgroup here\n");
                return 77;
        }
        snprintf(test_cgroup, sizeof(test_cgroup), "cuzk-test-executor-%d", (int)getpid());
        r = cg_child_create(base_domain.own_dirfd, test_cgroup, &fd);
        if (r == -EACCES || r == -EPERM || r == -EROFS) {
                printf("# SKIP: cannot create cgroups below %s\n", base_domain.own_path);
                return 77;
        }
        if (r < 0)
                return 1;
        domain = (cg_domain_t){.enforcement = base_domain.enforcement, .own_dirfd = fd};
        if (snprintf(domain.own_path, sizeof(domain.own_path), "%s/%s", base_domain.own_path,
                     test_cgroup) >= (int)sizeof(domain.own_path))
                return 1;
        printf("# executor cgroups below %s (%s)\n", domain.own_path,
               cg_domain_enforcement_name(&domain));
        return 0;
}

int main(int argc, char **argv) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test_setup_teardown(test_snarkjs_task, ctx_setup, ctx_teardown),
                cmocka_unit_test_setup_teardown(test_synthetic_task, ctx_setup, ctx_teardown),
                cmocka_unit_test_setup_teardown(test_prover_idle, ctx_setup, ctx_teardown),
                cmocka_unit_test_setup_teardown(test_synthetic_task_gpu, ctx_setup, ctx_teardown),
                cmocka_unit_test_setup_teardown(test_synthetic_bellperson_layout, ctx_setup,
                                                ctx_teardown),
                cmocka_unit_test_setup_teardown(test_worker_killed, ctx_setup, ctx_teardown),
                cmocka_unit_test_setup_teardown(test_worker_nice_configured, ctx_setup,
                                                ctx_teardown),
                cmocka_unit_test_setup_teardown(test_worker_nice_zero, ctx_setup, ctx_teardown),
                cmocka_unit_test_setup_teardown(test_worker_oom, ctx_setup, ctx_teardown),
                cmocka_unit_test_setup_teardown(test_prover_killed, ctx_setup, ctx_teardown),
                cmocka_unit_test_setup_teardown(test_stalled_processes_killed, ctx_setup,
                                                ctx_teardown),
                cmocka_unit_test_setup_teardown(test_fifo_witness, ctx_setup, ctx_teardown),
                cmocka_unit_test_setup_teardown(test_corrupt_witness, ctx_setup, ctx_teardown),
                cmocka_unit_test_setup_teardown(test_cancel, ctx_setup, ctx_teardown),
                cmocka_unit_test_setup_teardown(test_relay_oldest_first, ctx_setup, ctx_teardown),
                cmocka_unit_test_setup_teardown(test_rlimit_data, ctx_setup, ctx_teardown),
                cmocka_unit_test_setup_teardown(test_slot_free, ctx_setup, ctx_teardown),
                cmocka_unit_test_setup_teardown(test_two_provers, ctx_setup, ctx_teardown),
                cmocka_unit_test_setup_teardown(test_one_of_two_provers_killed, ctx_setup,
                                                ctx_teardown),
                cmocka_unit_test_setup_teardown(test_device_out_of_service, ctx_setup,
                                                ctx_teardown),
                cmocka_unit_test_setup_teardown(test_preload, ctx_setup, ctx_teardown),
        };
        int r;

        if (argc != 2) {
                fprintf(stderr, "Usage: %s HELPER\n", argv[0]);
                return 2;
        }
        helper_path = argv[1];
        /* e.g. CUZK_TEST_FILTER=test_prover_idle runs that case alone */
        if (getenv("CUZK_TEST_FILTER"))
                cmocka_set_test_filter(getenv("CUZK_TEST_FILTER"));
        r = open_test_domain();
        if (r != 0)
                return r;
        r = cmocka_run_group_tests(tests, group_setup, group_teardown);
        cg_domain_close(&domain);
        (void)cg_child_remove_tree(base_domain.own_dirfd, test_cgroup);
        cg_domain_close(&base_domain);
        return r;
}
