/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzkctl against the API server with the toy handler: every command's
 * output and exit status (0 done, 1 the daemon refused or the job did not
 * complete, 2 bad arguments), --help of each command, an unreachable socket, one
 * that never accepts (--timeout bounds the connect),
 * and what a submission carries (absolute paths, file contents, hex).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/clock.h"
#include "api/cuzk.pb-c.h"
#include "tests/lib/api-toy.h"
#include "tests/lib/run.h"

static char cuzkctl[PATH_MAX];
static uint8_t proof[384];

/* Runs cuzkctl with args (a shell fragment); returns its exit status and its
 * output (stdout, and stderr too when merge_stderr). */
static int run_ctl(char **ret_output, bool merge_stderr, const char *format, ...) {
        _cleanup_free_ char *args = NULL;
        va_list ap;

        va_start(ap, format);
        assert_true(vasprintf(&args, format, ap) >= 0);
        va_end(ap);
        return test_run_shell(ret_output, merge_stderr, "'%s' %s", cuzkctl, args);
}

static struct toy_server *start(bool jobs_stay_running) {
        struct toy_server_options options = {.proof = proof,
                                             .proof_length = sizeof(proof),
                                             .jobs_stay_running = jobs_stay_running};
        struct toy_server *toy;

        assert_int_equal(toy_server_start(&options, &toy), 0);
        return toy;
}

static void test_status_and_metrics(void **state) {
        struct toy_server *toy = start(false);
        const char *sock = toy_server_socket(toy);
        char *out;
        (void)state;

        assert_int_equal(run_ctl(&out, false, "--socket '%s' status", sock), 0);
        test_assert_contains(out, "uptime: 86400 s\n");
        test_assert_contains(out, "proofs: 1099511627776 completed, 5 failed\n");
        test_assert_contains(out, "pinned memory: 16.0 GiB of 64.0 GiB\n");
        test_assert_contains(out,
                             "memory budget: 123.0 GiB reserved of 700.0 GiB, admission paused "
                             "by memory pressure\n");
        test_assert_contains(out, "memory enforcement: cgroup2\n");
        test_assert_contains(out, "stalled: 2 workers and 1 prover killed for making no "
                                  "progress, their partitions retried\n");
        test_assert_contains(out, "gpu 0: NVIDIA H200, 11.5 GiB free of 150.0 GiB, running job-1 "
                                  "(POREP_SEAL_COMMIT)\n");
        test_assert_contains(out, "gpu 1: NVIDIA H200, 150.0 GiB free of 150.0 GiB, idle\n");
        test_assert_contains(out, "prover 0: gpu 0, backend cuda, pid 4242, ready, 10 proved, 1 "
                                  "failed, 0 restarts, 2 in hand, keys 3.0 GiB, running job-1, "
                                  "idle 12345.7 s\n");
        test_assert_contains(out, "srs porep-32g: WARM, 44.0 GiB, 3 references\n");
        test_assert_contains(out, "queue POREP_SEAL_COMMIT: 4 pending, 2 in progress\n");
        free(out);

        /* The Prometheus text exactly as the daemon wrote it. */
        assert_int_equal(run_ctl(&out, false, "-s '%s' metrics", sock), 0);
        assert_string_equal(out, toy_metrics_text);
        free(out);
        toy_server_stop(toy);
}

static void test_submit_await_cancel(void **state) {
        struct toy_server *toy = start(false);
        const char *sock = toy_server_socket(toy);
        char dir[] = "/tmp/cuzkctl-test-XXXXXX", path[PATH_MAX], expect_hex[2 * sizeof(proof) + 16];
        _cleanup_free_ uint8_t *sent = NULL;
        Cuzk__V1__SubmitProofRequest *req;
        uint8_t back[sizeof(proof) + 1];
        size_t length;
        FILE *f;
        char *out;
        (void)state;

        assert_non_null(mkdtemp(dir));
        snprintf(path, sizeof(path), "%s/c1.json", dir);
        f = fopen(path, "w");
        assert_non_null(f);
        fputs("{\"SectorNum\":7}", f);
        fclose(f);

        assert_int_equal(run_ctl(&out, false,
                                 "-s '%s' submit --kind porep -r sector-7 -p high "
                                 "--sector-size 34359738368 --sector-number 7 --miner-id 1000 "
                                 "--partition-index 3 --vanilla-proof '%s' --vanilla-proofs '%s' "
                                 "--vanilla-proofs '%s' --randomness 0x00ff10",
                                 sock, path, path, path),
                         0);
        assert_string_equal(out, "job: job-1\nqueue position: 0\ngpu: gpu0\n");
        free(out);
        assert_int_equal(toy_server_last_request(toy, API_METHOD_SUBMIT_PROOF, &sent, &length), 0);
        req = cuzk__v1__submit_proof_request__unpack(NULL, length, sent);
        assert_non_null(req);
        assert_string_equal(req->request_id, "sector-7");
        assert_int_equal(req->proof_kind, CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT);
        assert_int_equal(req->priority, CUZK__V1__PRIORITY__HIGH);
        assert_int_equal(req->sector_size, 34359738368ull);
        assert_int_equal(req->sector_number, 7);
        assert_int_equal(req->miner_id, 1000);
        assert_int_equal(req->partition_index, 3);
        assert_int_equal(req->vanilla_proof.len, 15);
        assert_memory_equal(req->vanilla_proof.data, "{\"SectorNum\":7}", 15);
        assert_int_equal(req->n_vanilla_proofs, 2);
        assert_int_equal(req->randomness.len, 3);
        assert_memory_equal(req->randomness.data, "\x00\xff\x10", 3);
        cuzk__v1__submit_proof_request__free_unpacked(req, NULL);

        /* await prints the proof as hex, or writes it to --proof-out. */
        for (size_t i = 0; i < sizeof(proof); i++)
                snprintf(expect_hex + 2 * i, 3, "%02x", proof[i]);
        assert_int_equal(run_ctl(&out, false, "-s '%s' await job-1", sock), 0);
        test_assert_contains(out, "job: job-1\nstatus: COMPLETED\n");
        test_assert_contains(out,
                             "time: queue 1 ms, srs load 2 ms, synthesis 3 ms, gpu 4 ms, total "
                             "10 ms\nproof bytes: 384\n");
        test_assert_contains(out, expect_hex);
        free(out);
        snprintf(path, sizeof(path), "%s/proof.bin", dir);
        assert_int_equal(run_ctl(NULL, false, "-s '%s' await --proof-out '%s' job-1", sock, path),
                         0);
        f = fopen(path, "r");
        assert_non_null(f);
        assert_int_equal(fread(back, 1, sizeof(back), f), sizeof(proof));
        fclose(f);
        assert_memory_equal(back, proof, sizeof(proof));
        unlink(path);

        assert_int_equal(run_ctl(&out, false, "-s '%s' cancel job-1", sock), 0);
        assert_string_equal(out, "job-1: cancelled, was not running\n");
        free(out);
        assert_int_equal(run_ctl(&out, true, "-s '%s' cancel job-9", sock), 1);
        test_assert_contains(out, "CancelProof: NOT_FOUND");
        free(out);
        assert_int_equal(run_ctl(&out, true, "-s '%s' await job-9", sock), 1);
        test_assert_contains(out, "AwaitProof: NOT_FOUND: no job job-9");
        free(out);

        snprintf(path, sizeof(path), "%s/c1.json", dir);
        unlink(path);
        rmdir(dir);
        toy_server_stop(toy);
}

/* prove with cuzk's Groth16 fields: relative paths are sent absolute. */
static void test_prove_groth16(void **state) {
        struct toy_server *toy = start(false);
        const char *sock = toy_server_socket(toy);
        _cleanup_free_ uint8_t *sent = NULL;
        Cuzk__V1__ProveRequest *req;
        char cwd[PATH_MAX], expect[PATH_MAX + 16];
        size_t length;
        char *out;
        (void)state;

        assert_non_null(getcwd(cwd, sizeof(cwd)));
        assert_int_equal(run_ctl(&out, false,
                                 "-s '%s' prove --kind groth16 --zkey . --wtns-data /dev/null",
                                 sock),
                         0);
        test_assert_contains(out, "job: job-1\nstatus: COMPLETED\n");
        test_assert_contains(out,
                             "proof json: {\"protocol\":\"groth16\"}\npublic json: [\"33\"]\n");
        free(out);
        assert_int_equal(toy_server_last_request(toy, API_METHOD_PROVE, &sent, &length), 0);
        req = cuzk__v1__prove_request__unpack(NULL, length, sent);
        assert_non_null(req);
        assert_non_null(req->submit);
        assert_int_equal(req->submit->proof_kind, CUZK__V1__PROOF_KIND__GROTH16_SNARKJS);
        snprintf(expect, sizeof(expect), "%s", cwd);
        assert_string_equal(req->submit->zkey_path, expect);
        assert_int_equal(req->submit->wtns.len, 0);
        cuzk__v1__prove_request__free_unpacked(req, NULL);

        assert_int_equal(run_ctl(&out, false,
                                 "-s '%s' prove --kind synthetic-pce --pce / --params / "
                                 "--witness / --partitions 10",
                                 sock),
                         0);
        free(out);
        toy_server_stop(toy);
}

static void test_srs_commands(void **state) {
        struct toy_server *toy = start(false);
        const char *sock = toy_server_socket(toy);
        char *out;
        (void)state;

        assert_int_equal(run_ctl(&out, false, "-s '%s' preload porep-32g", sock), 0);
        assert_string_equal(out, "porep-32g: already loaded\n");
        free(out);
        assert_int_equal(run_ctl(&out, false, "-s '%s' preload snap-32g", sock), 0);
        assert_string_equal(out, "snap-32g: loaded in 4242 ms\n");
        free(out);
        assert_int_equal(run_ctl(&out, true, "-s '%s' preload ''", sock), 1);
        test_assert_contains(out, "PreloadSRS: INVALID_ARGUMENT");
        free(out);
        assert_int_equal(run_ctl(&out, false, "-s '%s' evict porep-32g", sock), 0);
        assert_string_equal(out, "porep-32g: evicted, 44.0 GiB freed\n");
        free(out);
        assert_int_equal(run_ctl(&out, false, "-s '%s' evict snap-32g", sock), 0);
        assert_string_equal(out, "snap-32g: was not loaded\n");
        free(out);
        toy_server_stop(toy);
}

/* A job still running when --wait runs out: TIMEOUT, exit status 1. */
static void test_await_timeout(void **state) {
        struct toy_server *toy = start(true);
        const char *sock = toy_server_socket(toy);
        char *out;
        (void)state;

        assert_int_equal(run_ctl(NULL, false, "-s '%s' submit --kind winning-post", sock), 0);
        assert_int_equal(run_ctl(&out, false, "-s '%s' await --wait 50 job-1", sock), 1);
        assert_string_equal(out, "job: job-1\nstatus: TIMEOUT\n");
        free(out);
        /* A client-side --timeout gives up on a daemon that does not answer. */
        assert_int_equal(run_ctl(&out, true, "-s '%s' --timeout 100 await job-1", sock), 1);
        test_assert_contains(out, "AwaitProof: no answer within 100 ms");
        free(out);
        toy_server_stop(toy);
}

/* A listener that never accepts, its backlog full: a connect() to it waits. Returns the
 * listening fd; the queued connections go to fds (closed by the caller). */
static int listen_never_accepting(const char *path, int fds[], size_t n_fds) {
        struct sockaddr_un sa = {.sun_family = AF_UNIX};
        int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        size_t n = 0;

        assert_true(listener >= 0);
        assert_true(strlen(path) < sizeof(sa.sun_path));
        strcpy(sa.sun_path, path);
        assert_int_equal(bind(listener, (struct sockaddr *)&sa, sizeof(sa)), 0);
        assert_int_equal(listen(listener, 0), 0);
        /* Non-blocking connects queue until the backlog is full: EAGAIN. */
        for (; n < n_fds; n++) {
                fds[n] = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
                assert_true(fds[n] >= 0);
                if (connect(fds[n], (struct sockaddr *)&sa, sizeof(sa)) < 0) {
                        assert_int_equal(errno, EAGAIN);
                        close(fds[n]);
                        break;
                }
        }
        assert_true(n < n_fds); /* the backlog is full */
        for (size_t i = n; i < n_fds; i++)
                fds[i] = -EBADF;
        return listener;
}

/* --timeout bounds the connect() too: a daemon that does not accept is reported within it. */
static void test_connect_timeout(void **state) {
        char dir[] = "/tmp/test-api-cuzkctl-XXXXXX", path[64], *out;
        int fds[16], listener;
        uint64_t start;
        (void)state;

        assert_non_null(mkdtemp(dir));
        snprintf(path, sizeof(path), "%s/hung.sock", dir);
        listener = listen_never_accepting(path, fds, sizeof(fds) / sizeof(fds[0]));
        start = clock_now_usec();
        assert_int_equal(run_ctl(&out, true, "-s '%s' -t 300 status", path), 1);
        /* 300 ms, and the start of a process on a busy machine. */
        assert_true(clock_now_usec() - start < 5000000);
        test_assert_contains(out, "cannot connect to ");
        test_assert_contains(out, "not accepted within 300 ms");
        free(out);
        /* Also for await, whose call has no limit of its own. */
        assert_int_equal(run_ctl(&out, true, "-s '%s' -t 200 await job-1", path), 1);
        test_assert_contains(out, "not accepted within 200 ms");
        free(out);
        for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
                if (fds[i] >= 0)
                        close(fds[i]);
        close(listener);
        unlink(path);
        rmdir(dir);
}

static void test_usage_errors(void **state) {
        static const char *const commands[] = {"status", "metrics", "submit",  "await",
                                               "prove",  "cancel",  "preload", "evict"};
        char *out;
        (void)state;

        for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
                assert_int_equal(run_ctl(&out, false, "%s --help", commands[i]), 0);
                test_assert_contains(out, "Usage: cuzkctl ");
                test_assert_contains(out, commands[i]);
                free(out);
        }
        assert_int_equal(run_ctl(&out, false, "--help"), 0);
        free(out);
        assert_int_equal(run_ctl(NULL, false, ""), 2);
        assert_int_equal(run_ctl(NULL, false, "frobnicate"), 2);
        assert_int_equal(run_ctl(NULL, false, "cancel"), 2);
        assert_int_equal(run_ctl(NULL, false, "submit"), 2);
        assert_int_equal(run_ctl(NULL, false, "submit --kind nope"), 2);
        assert_int_equal(run_ctl(NULL, false, "submit --kind porep --randomness abc"), 2);
        assert_int_equal(run_ctl(NULL, false, "submit --kind porep --vanilla-proof /nonexistent"),
                         2);
        assert_int_equal(run_ctl(NULL, false, "--timeout soon status"), 2);
        assert_int_equal(run_ctl(NULL, false, "--address nohost status"), 2);
        assert_int_equal(run_ctl(&out, true, "--socket /nonexistent/cuzk.sock status"), 1);
        test_assert_contains(out, "cannot connect to /nonexistent/cuzk.sock");
        free(out);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_status_and_metrics),
                cmocka_unit_test(test_submit_await_cancel),
                cmocka_unit_test(test_prove_groth16),
                cmocka_unit_test(test_srs_commands),
                cmocka_unit_test(test_await_timeout),
                cmocka_unit_test(test_usage_errors),
                cmocka_unit_test(test_connect_timeout),
        };
        char self[PATH_MAX];
        ssize_t n;

        /* cuzkctl is built beside us: <build>/cli/cuzkctl for <build>/tests/test-api-cuzkctl. */
        n = readlink("/proc/self/exe", self, sizeof(self) - 1);
        if (n < 0)
                return 1;
        self[n] = 0;
        snprintf(cuzkctl, sizeof(cuzkctl), "%s/../cli/cuzkctl", dirname(self));
        if (access(cuzkctl, X_OK) < 0) {
                fprintf(stderr, "test-api-cuzkctl: %s: %s\n", cuzkctl, strerror(errno));
                return 1;
        }
        for (size_t i = 0; i < sizeof(proof); i++)
                proof[i] = (uint8_t)(0xa5 ^ i);
        return cmocka_run_group_tests(tests, NULL, NULL);
}
