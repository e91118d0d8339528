/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzk-bench batch against the API server with the toy handler, which
 * completes every job with the proof bytes the test gives it: here a real
 * 192-byte proof of a small synthetic circuit made with `cuzk pce synth`,
 * `cuzk setup` and `cuzk prove --pce`, so that --verify has something to
 * accept, and the same proof tampered with, for it to refuse.
 *   - the per-proof lines, the summary, the memory lines, exit status 0;
 *   - what each job sends (absolute paths, distinct request ids);
 *   - never more jobs in flight than --concurrency;
 *   - proofs that do not verify, or of the wrong length: exit status 1;
 *   - jobs the daemon refuses: FAILED lines with its reason, exit status 1;
 *   - an unreachable daemon and an unreadable file: exit status 1 and 2.
 * Usage: test-cuzk-bench-toy CUZK_BENCH CUZK
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "api/cuzk.pb-c.h"
#include "formats/filecoin_proof.h"
#include "tests/lib/api-toy.h"
#include "tests/lib/run.h"

static const char *cuzk_bench, *cuzk;
static char dir[] = "/tmp/test-cuzk-bench-XXXXXX";
static uint8_t proof[FILECOIN_PROOF_BYTES];

static const char *path(const char *name) {
        static char buffers[4][PATH_MAX];
        static unsigned next;
        char *p = buffers[next++ % 4];

        snprintf(p, PATH_MAX, "%s/%s", dir, name);
        return p;
}

static unsigned count_occurrences(const char *haystack, const char *needle) {
        unsigned n = 0;

        for (const char *p = strstr(haystack, needle); p; p = strstr(p + 1, needle))
                n++;
        return n;
}

/* The circuit, its parameters and one valid proof, made once. */
static int make_circuit(void **state) {
        char *out = NULL;
        FILE *f;
        (void)state;

        if (!mkdtemp(dir))
                return -1;
        /* Each step's output replaces the last one's (freed first). */
        int failed = test_run_shell(&out, true, "'%s' pce synth --rows 1000 --seed 7 '%s' '%s'",
                                    cuzk, path("c.pce"), path("c.wtns")) != 0;
        if (!failed) {
                free(out);
                failed = test_run_shell(&out, true, "'%s' setup --pce '%s' --params '%s' --vk '%s'",
                                        cuzk, path("c.pce"), path("c.params"), path("c.vk")) != 0;
        }
        if (!failed) {
                free(out);
                failed = test_run_shell(
                                 &out, true,
                                 "'%s' prove --pce '%s' --params '%s' --witness '%s' --proof '%s'",
                                 cuzk, path("c.pce"), path("c.params"), path("c.wtns"),
                                 path("c.proof")) != 0;
        }
        if (failed) {
                fprintf(stderr, "making the circuit failed:\n%s", out ? out : "");
                free(out);
                return -1;
        }
        free(out);
        f = fopen(path("c.proof"), "rb");
        if (!f)
                return -1;
        size_t got = fread(proof, 1, sizeof(proof), f);
        fclose(f);
        return got == sizeof(proof) ? 0 : -1;
}

static int remove_circuit(void **state) {
        static const char *const names[] = {"c.pce", "c.wtns", "c.params", "c.vk", "c.proof"};
        (void)state;

        for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
                unlink(path(names[i]));
        rmdir(dir);
        return 0;
}

static struct toy_server *start(const uint8_t *bytes, size_t length, bool stay_running) {
        struct toy_server_options options = {
                .proof = bytes, .proof_length = length, .jobs_stay_running = stay_running};
        struct toy_server *toy;

        assert_int_equal(toy_server_start(&options, &toy), 0);
        return toy;
}

/* cuzk-bench against toy with the synthetic job's files and extra flags. */
static int bench(struct toy_server *toy, char **ret_output, const char *flags) {
        return test_run_shell(ret_output, true,
                              "'%s' --socket '%s' batch --type synthetic --pce '%s' --params '%s' "
                              "--witness '%s' %s",
                              cuzk_bench, toy_server_socket(toy), path("c.pce"), path("c.params"),
                              path("c.wtns"), flags);
}

static void test_batch_verifies(void **state) {
        struct toy_server *toy = start(proof, sizeof(proof), false);
        _cleanup_free_ uint8_t *sent = NULL;
        _cleanup_free_ char *pce = realpath(path("c.pce"), NULL);
        Cuzk__V1__ProveRequest *request;
        char *out, line[64];
        size_t length;
        (void)state;

        assert_int_equal(bench(toy, &out, "--count 6 --concurrency 3 --verify"), 0);
        test_assert_contains(out,
                             "=== Batch Benchmark ===\nproof type:  synthetic\ncount:       6\n"
                             "concurrency: 3\npartitions:  1\n\n");
        for (unsigned i = 1; i <= 6; i++) {
                snprintf(line, sizeof(line), "  [%u/6] COMPLETED — ", i);
                test_assert_contains(out, line);
        }
        assert_int_equal(count_occurrences(out, "s (prove=4 ms, queue=1 ms)\n"), 6);
        test_assert_contains(out, "\n=== Batch Summary ===\ntotal time:    ");
        test_assert_contains(out, "completed:     6\nfailed:        0\nwall time:     avg=");
        test_assert_contains(out, "prove time:    avg=0.0s min=0.0s max=0.0s\nthroughput:    ");
        test_assert_contains(out, " proofs/min (");
        /* The steady rate leaves out the first --concurrency proofs. */
        test_assert_contains(out, "s/proof)\nsteady:        ");
        test_assert_contains(out, "s/proof after the first 3 (3 more ended in ");
        test_assert_contains(out, "verified:      6 of 6 completed proofs\n");
        /* The toy's metrics have no peak: said so, not made up. */
        test_assert_contains(out, "peak memory:   not reported\n");
        /* The toy's prover never gets idler: GetStatus sampled at the start and the end. */
        test_assert_contains(out, "gpu idle:      0.0 s between partitions\n");
        /* Not a terminal: no progress line, no escape sequences. */
        assert_null(strchr(out, '\033'));
        assert_null(strchr(out, '\r'));
        free(out);

        assert_int_equal(toy_server_last_request(toy, API_METHOD_PROVE, &sent, &length), 0);
        request = cuzk__v1__prove_request__unpack(NULL, length, sent);
        assert_non_null(request);
        assert_non_null(request->submit);
        assert_int_equal(request->submit->proof_kind, CUZK__V1__PROOF_KIND__SYNTHETIC_PCE);
        assert_non_null(pce);
        assert_string_equal(request->submit->pce_path, pce);
        assert_int_equal(request->submit->params_path[0], '/');
        assert_int_equal(request->submit->witness_path[0], '/');
        assert_int_equal(request->submit->partitions, 1);
        assert_int_equal(strncmp(request->submit->request_id, "cuzk-bench-", 11), 0);
        cuzk__v1__prove_request__free_unpacked(request, NULL);
        toy_server_stop(toy);
}

static void test_partitions(void **state) {
        uint8_t two[2 * FILECOIN_PROOF_BYTES];
        struct toy_server *toy;
        char *out;
        (void)state;

        memcpy(two, proof, sizeof(proof));
        memcpy(two + sizeof(proof), proof, sizeof(proof));
        toy = start(two, sizeof(two), false);
        assert_int_equal(bench(toy, &out, "-c 2 --partitions 2 --verify"), 0);
        test_assert_contains(out, "partitions:  2\n");
        test_assert_contains(out, "verified:      2 of 2 completed proofs\n");
        free(out);
        /* Three partitions asked, two proofs came. */
        assert_int_equal(bench(toy, &out, "-c 1 --partitions 3 --verify"), 1);
        test_assert_contains(out,
                             "DOES NOT VERIFY: 384 proof bytes, expected 3 partitions of 192\n");
        test_assert_contains(out, "verified:      0 of 1 completed proofs\n");
        free(out);
        toy_server_stop(toy);
}

static void test_invalid_proof(void **state) {
        uint8_t bad[2 * FILECOIN_PROOF_BYTES];
        struct toy_server *toy;
        char *out;
        (void)state;

        /* Partition 1 valid; partition 2 with C replaced by A: both points
         * decode, the pairing equation fails. */
        memcpy(bad, proof, sizeof(proof));
        memcpy(bad + sizeof(proof), proof, sizeof(proof));
        memcpy(bad + sizeof(proof) + 144, proof, 48);
        toy = start(bad, sizeof(bad), false);
        assert_int_equal(bench(toy, &out, "-c 2 -j 2 --partitions 2 --verify"), 1);
        assert_int_equal(count_occurrences(out, " COMPLETED — "), 2);
        assert_int_equal(count_occurrences(out, "DOES NOT VERIFY: 1 of 2 partition proofs do not "
                                                "verify (first: 1)\n"),
                         2);
        test_assert_contains(out, "completed:     2\nfailed:        0\n");
        test_assert_contains(out, "verified:      0 of 2 completed proofs\n");
        free(out);
        /* Without --verify nothing is checked: the batch passes. */
        assert_int_equal(bench(toy, &out, "-c 1 --partitions 2"), 0);
        assert_null(strstr(out, "verified:"));
        free(out);
        toy_server_stop(toy);
}

/* Waits until the toy holds n Prove calls; fails after 20 s. */
static void wait_for_waiters(struct toy_server *toy, unsigned n) {
        struct timespec pause = {.tv_nsec = 10 * 1000 * 1000};

        for (unsigned i = 0; i < 2000; i++) {
                unsigned open = toy_server_open_waiters(toy);

                if (open > n)
                        fail_msg("%u jobs in flight, --concurrency was 3", open);
                if (open == n) {
                        /* No fourth one comes a moment later either. */
                        nanosleep(&pause, NULL);
                        nanosleep(&pause, NULL);
                        assert_int_equal(toy_server_open_waiters(toy), n);
                        return;
                }
                nanosleep(&pause, NULL);
        }
        fail_msg("%u jobs in flight after 20 s, expected %u", toy_server_open_waiters(toy), n);
}

/* Reads cuzk-bench's output until n more proofs are reported, appending it
 * to out. */
static void read_completed(FILE *pipe, FILE *out, unsigned n) {
        char line[512];

        while (n > 0 && fgets(line, sizeof(line), pipe)) {
                fputs(line, out);
                n -= strstr(line, " COMPLETED — ") != NULL;
        }
        assert_int_equal(n, 0);
}

static void test_concurrency_bound(void **state) {
        struct toy_server *toy = start(proof, sizeof(proof), true);
        char command[4 * PATH_MAX], *out = NULL;
        size_t size = 0;
        FILE *pipe, *f;
        int status;
        (void)state;

        snprintf(command, sizeof(command),
                 "'%s' --socket '%s' batch -t synthetic --pce '%s' --params '%s' --witness '%s' "
                 "-c 7 -j 3 2>&1",
                 cuzk_bench, toy_server_socket(toy), path("c.pce"), path("c.params"),
                 path("c.wtns"));
        f = open_memstream(&out, &size);
        assert_non_null(f);
        pipe = popen(command, "r");
        assert_non_null(pipe);
        /* 7 jobs, 3 at a time: rounds of 3, 3 and 1. The toy completes its
         * jobs asynchronously: a round is over when cuzk-bench says so. */
        wait_for_waiters(toy, 3);
        toy_server_complete_jobs(toy);
        read_completed(pipe, f, 3);
        wait_for_waiters(toy, 3);
        toy_server_complete_jobs(toy);
        read_completed(pipe, f, 3);
        wait_for_waiters(toy, 1);
        toy_server_complete_jobs(toy);
        for (int c; (c = fgetc(pipe)) != EOF;)
                fputc(c, f);
        fclose(f);
        status = pclose(pipe);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), 0);
        test_assert_contains(out, "  [7/7] COMPLETED — ");
        test_assert_contains(out, "completed:     7\nfailed:        0\n");
        free(out);
        toy_server_stop(toy);
}

static void test_refused_jobs(void **state) {
        struct toy_server *toy = start(proof, sizeof(proof), false);
        char *out;
        (void)state;

        /* The toy holds 256 jobs and refuses the ones after. */
        assert_int_equal(bench(toy, &out, "-c 258 -j 8"), 1);
        assert_int_equal(count_occurrences(out, " COMPLETED — "), 256);
        assert_int_equal(count_occurrences(out, " FAILED — "), 2);
        test_assert_contains(out, "s (prove=0 ms, queue=0 ms): Prove: ");
        test_assert_contains(out, "completed:     256\nfailed:        2\n");
        free(out);
        toy_server_stop(toy);
}

static void test_unreachable_and_bad_files(void **state) {
        char *out;
        (void)state;

        assert_int_equal(
                test_run_shell(&out, true,
                               "'%s' --socket '%s' batch -t synthetic --pce '%s' --params '%s' "
                               "--witness '%s'",
                               cuzk_bench, path("no.sock"), path("c.pce"), path("c.params"),
                               path("c.wtns")),
                1);
        test_assert_contains(out, "no.sock: No such file or directory (is cuzkd running?)\n");
        assert_null(strstr(out, "=== Batch"));
        free(out);

        assert_int_equal(
                test_run_shell(&out, true,
                               "'%s' --socket '%s' batch -t synthetic --pce '%s' --params '%s' "
                               "--witness '%s'",
                               cuzk_bench, path("no.sock"), path("missing.pce"), path("c.params"),
                               path("c.wtns")),
                2);
        test_assert_contains(out, "--pce=");
        test_assert_contains(out, "missing.pce: No such file or directory\n");
        free(out);

        /* --verify reads the key first: parameters that are not parameters. */
        assert_int_equal(
                test_run_shell(&out, true,
                               "'%s' --socket '%s' batch -t synthetic --pce '%s' --params '%s' "
                               "--witness '%s' --verify",
                               cuzk_bench, path("no.sock"), path("c.pce"), path("c.wtns"),
                               path("c.wtns")),
                2);
        assert_null(strstr(out, "=== Batch"));
        free(out);
}

int main(int argc, char **argv) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_batch_verifies),
                cmocka_unit_test(test_partitions),
                cmocka_unit_test(test_invalid_proof),
                cmocka_unit_test(test_concurrency_bound),
                cmocka_unit_test(test_refused_jobs),
                cmocka_unit_test(test_unreachable_and_bad_files),
        };

        if (argc != 3) {
                fprintf(stderr, "usage: %s CUZK_BENCH CUZK\n", argv[0]);
                return 2;
        }
        cuzk_bench = argv[1];
        cuzk = argv[2];
        return cmocka_run_group_tests(tests, make_circuit, remove_circuit);
}
