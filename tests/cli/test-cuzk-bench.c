/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzk-bench's pure parts: the command line (defaults, the reference's
 * aliases, every kind of bad flag with its one-line reason), the summary's
 * arithmetic on known samples, the lines it prints, the provers' idle time
 * between two GetStatus samples, the Prometheus metric reader, and the base64
 * decoder of the reference's job fields (hex: test-hex).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "cli/cuzk-bench.h"
#include "tests/lib/run.h"

/* Parses a command line given as one string (words split at spaces);
 * returns bench_parse_args()'s result and what it wrote to err. The
 * options point into a static copy of line, valid until the next call. */
static int parse(struct bench_options *o, char **ret_err, const char *line) {
        static char copy[1024];
        char *argv[64], *save = NULL, *err_text = NULL;
        size_t err_size = 0;
        int argc = 0, r;
        FILE *out, *err;

        assert_true(strlen(line) < sizeof(copy));
        strcpy(copy, line);
        argv[argc++] = (char *)"cuzk-bench";
        for (char *w = strtok_r(copy, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
                assert_true(argc < 63);
                argv[argc++] = w;
        }
        argv[argc] = NULL;
        out = fopen("/dev/null", "w");
        err = open_memstream(&err_text, &err_size);
        assert_non_null(out);
        assert_non_null(err);
        memset(o, 0xa5, sizeof(*o));
        r = bench_parse_args(argc, argv, out, err, o);
        fclose(out);
        fclose(err);
        if (ret_err)
                *ret_err = err_text;
        else
                free(err_text);
        return r;
}

static void test_parse_defaults(void **state) {
        struct bench_options o;
        (void)state;

        unsetenv("CUZK_SOCKET");
        assert_int_equal(parse(&o, NULL, "batch --type snarkjs --zkey k.zkey --wtns w.wtns"), 0);
        assert_string_equal(o.socket_path, "/run/cuzk/cuzk.sock");
        assert_int_equal(o.tcp_host[0], 0);
        assert_int_equal(o.kind, CUZK__V1__PROOF_KIND__GROTH16_SNARKJS);
        assert_string_equal(o.type_name, "snarkjs");
        assert_int_equal(o.count, 3); /* the reference's defaults */
        assert_int_equal(o.concurrency, 1);
        assert_int_equal(o.sector_num, 1);
        assert_int_equal(o.miner_id, 1000);
        assert_int_equal(o.registered_proof, 0);
        assert_int_equal(o.partitions, 1);
        assert_false(o.verify);
        assert_int_equal(o.log_level, LOG_INFO);
        assert_string_equal(o.zkey_path, "k.zkey");
        assert_string_equal(o.wtns_path, "w.wtns");

        setenv("CUZK_SOCKET", "/tmp/env.sock", 1);
        assert_int_equal(parse(&o, NULL, "batch -t groth16 --zkey k --wtns w"), 0);
        assert_string_equal(o.socket_path, "/tmp/env.sock");
        unsetenv("CUZK_SOCKET");
}

static void test_parse_batch_flags(void **state) {
        struct bench_options o;
        (void)state;

        /* --socket before or after the command; short forms -t -c -j. */
        assert_int_equal(parse(&o, NULL,
                               "--socket /tmp/a.sock batch -t synthetic-pce --pce c.pce --params "
                               "c.params --witness c.wtns --partitions 10 -c 20 -j 4 --verify"),
                         0);
        assert_string_equal(o.socket_path, "/tmp/a.sock");
        assert_int_equal(o.kind, CUZK__V1__PROOF_KIND__SYNTHETIC_PCE);
        assert_int_equal(o.count, 20);
        assert_int_equal(o.concurrency, 4);
        assert_int_equal(o.partitions, 10);
        assert_true(o.verify);
        assert_string_equal(o.pce_path, "c.pce");
        assert_string_equal(o.params_path, "c.params");
        assert_string_equal(o.witness_path, "c.wtns");

        assert_int_equal(parse(&o, NULL,
                               "batch --type pce --pce c --params p --witness w -s /tmp/b.sock "
                               "--count=7 --concurrency=16"),
                         0);
        assert_string_equal(o.socket_path, "/tmp/b.sock");
        assert_int_equal(o.count, 7);
        assert_int_equal(o.concurrency, 16);

        /* The reference's types, aliases, case and fields. */
        assert_int_equal(parse(&o, NULL,
                               "-a unix:///tmp/c.sock --log-level debug batch -t PoRep-C2 --c1 "
                               "c1.json --registered-proof 8 --sector-num 42 --miner-id 1234"),
                         0);
        assert_string_equal(o.socket_path, "/tmp/c.sock");
        assert_int_equal(o.log_level, LOG_DEBUG);
        assert_int_equal(o.kind, CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT);
        assert_string_equal(o.c1_path, "c1.json");
        assert_int_equal(o.registered_proof, 8);
        assert_int_equal(o.sector_num, 42);
        assert_int_equal(o.miner_id, 1234);

        assert_int_equal(
                parse(&o, NULL,
                      "--addr http://127.0.0.1:9820 batch -t wpost --vanilla v.json "
                      "--randomness 0x00ff --comm-r-old aa --comm-r-new bb --comm-d-new cc"),
                0);
        assert_string_equal(o.tcp_host, "127.0.0.1");
        assert_int_equal(o.tcp_port, 9820);
        assert_int_equal(o.kind, CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION);
        assert_string_equal(o.randomness_hex, "0x00ff");

        assert_int_equal(parse(&o, NULL, "--addr [::1]:9 batch -t winningpost --vanilla v"), 0);
        assert_string_equal(o.tcp_host, "::1");
        assert_int_equal(o.tcp_port, 9);
        assert_int_equal(o.kind, CUZK__V1__PROOF_KIND__WINNING_POST);
        assert_int_equal(parse(&o, NULL, "batch -t update --vanilla v"), 0);
        assert_int_equal(o.kind, CUZK__V1__PROOF_KIND__SNAP_DEALS_UPDATE);

        /* --help, before or after the command: 1, nothing on err. */
        char *err;
        assert_int_equal(parse(&o, &err, "--help"), 1);
        assert_string_equal(err, "");
        free(err);
        assert_int_equal(parse(&o, &err, "batch -h"), 1);
        assert_string_equal(err, "");
        free(err);
}

static void test_parse_errors(void **state) {
        static const struct {
                const char *line, *message;
        } cases[] = {
                {"", "a command is expected: batch"},
                {"single -t porep", "unknown command 'single'"},
                {"--bogus batch", "--bogus: unknown option"},
                {"-s", "-s: the option needs a value"},
                {"batch", "batch: --type is required"},
                {"batch --type", "--type: the option needs a value"},
                {"batch -t sha256", "--type=sha256: unknown proof type"},
                {"batch -t snarkjs", "--type=snarkjs: --zkey and --wtns are required"},
                {"batch -t snarkjs --zkey k", "--zkey and --wtns are required"},
                {"batch -t snarkjs --zkey k --wtns", "--wtns: the option needs a value"},
                {"batch -t synthetic --pce p --params q",
                 "--pce, --params and --witness are required"},
                {"batch -t porep", "--c1 is required for PoRep"},
                {"batch -t snap", "--vanilla is required for PoSt and SnapDeals"},
                {"batch -t snarkjs --zkey k --wtns w --pce p", "belong to --type=synthetic"},
                {"batch -t snarkjs --zkey k --wtns w --partitions 2", "belong to --type=synthetic"},
                {"batch -t synthetic --pce p --params q --witness w --zkey k",
                 "--zkey and --wtns belong to --type=snarkjs"},
                {"batch -t porep --c1 c --vanilla v", "--vanilla belongs to"},
                {"batch -t wpost --vanilla v --c1 c", "--c1 belongs to --type=porep"},
                {"batch -t porep --c1 c --verify", "--verify: proofs of --type=porep cannot"},
                {"batch -t porep --c1 c --count 0", "--count=0: expected a number in 1..1000000"},
                {"batch -t porep --c1 c --count 1000001", "--count=1000001: expected a number"},
                {"batch -t porep --c1 c -c -3", "--count=-3: expected a number"},
                {"batch -t porep --c1 c -c 3x", "--count=3x: expected a number"},
                {"batch -t porep --c1 c -j 0", "--concurrency=0: expected a number in 1..1024"},
                {"batch -t porep --c1 c -j many", "--concurrency=many: expected a number"},
                {"batch -t porep --c1 c --sector-num 99999999999999999999",
                 "--sector-num=99999999999999999999: expected a number"},
                {"batch -t synthetic --pce p --params q --witness w --partitions 0",
                 "--partitions=0: expected a number in 1..1024"},
                {"batch -t wpost --vanilla v --randomness 0xzz", "--randomness=0xzz: expected hex"},
                {"batch -t wpost --vanilla v --comm-r-old abc", "--comm-r-old=abc: expected hex"},
                {"--addr nowhere batch -t porep --c1 c", "--addr=nowhere: expected unix:///PATH"},
                {"--addr unix:// batch -t porep --c1 c", "--addr=unix://: expected unix:///PATH"},
                {"--addr host:99999 batch -t porep --c1 c", "--addr=99999: expected a number"},
                {"--log-level loud batch", "--log-level=loud: expected error, warning"},
                {"batch -t porep --c1 c stray", "batch: unexpected argument 'stray'"},
                {"batch -t porep --c1 c --frobnicate", "--frobnicate: unknown option"},
        };
        struct bench_options o;
        (void)state;

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                char *err;

                if (parse(&o, &err, cases[i].line) != -EINVAL)
                        fail_msg("'%s' was accepted", cases[i].line);
                test_assert_contains(err, cases[i].message);
                test_assert_contains(err, "Try 'cuzk-bench --help'.\n");
                /* One line of reason, one of advice. */
                assert_int_equal(strchr(strchr(err, '\n') + 1, '\n')[1], 0);
                free(err);
        }
}

static void test_summary(void **state) {
        const struct bench_sample samples[] = {
                {.completed = true,
                 .wall_seconds = 2.0,
                 .end_seconds = 2.0,
                 .prove_ms = 1500,
                 .queue_ms = 10},
                {.completed = false,
                 .wall_seconds = 100.0,
                 .end_seconds = 100.0,
                 .prove_ms = 99000},
                {.completed = true,
                 .wall_seconds = 4.0,
                 .end_seconds = 9.0,
                 .prove_ms = 500,
                 .queue_ms = 20},
                {.completed = true,
                 .wall_seconds = 3.0,
                 .end_seconds = 5.0,
                 .prove_ms = 1000,
                 .queue_ms = 0},
        };
        struct bench_summary s;
        (void)state;

        bench_summarize(samples, 4, 12.0, 1, &s);
        assert_int_equal(s.jobs, 4);
        assert_int_equal(s.completed, 3);
        assert_int_equal(s.failed, 1);
        /* The failed job's 100 s counts nowhere. */
        assert_float_equal(s.wall_seconds.avg, 3.0, 1e-12);
        assert_float_equal(s.wall_seconds.min, 2.0, 1e-12);
        assert_float_equal(s.wall_seconds.max, 4.0, 1e-12);
        assert_float_equal(s.prove_seconds.avg, 1.0, 1e-12);
        assert_float_equal(s.prove_seconds.min, 0.5, 1e-12);
        assert_float_equal(s.prove_seconds.max, 1.5, 1e-12);
        /* 3 proofs in 12 s: 15 per minute, 4 s each. */
        assert_float_equal(s.proofs_per_minute, 15.0, 1e-12);
        assert_float_equal(s.seconds_per_proof, 4.0, 1e-12);
        /* Steady: the completed proofs ended at 2, 5 and 9 s (in a different
         * order than listed); after the first, 2 more in 9 - 2 = 7 s. The
         * failed job's end counts nowhere. */
        assert_int_equal(s.steady_proofs, 2);
        assert_int_equal(s.warm, 1);
        assert_float_equal(s.steady_seconds, 7.0, 1e-12);
        /* After the first 2: 1 more, from 5 to 9 s. */
        bench_summarize(samples, 4, 12.0, 2, &s);
        assert_int_equal(s.steady_proofs, 1);
        assert_float_equal(s.steady_seconds, 4.0, 1e-12);
        /* No proof after the warm ones, or none left out: no steady rate. */
        bench_summarize(samples, 4, 12.0, 3, &s);
        assert_int_equal(s.steady_proofs, 0);
        bench_summarize(samples, 4, 12.0, 0, &s);
        assert_int_equal(s.steady_proofs, 0);

        /* Two at a time, proofs served in order (a 32 GiB batch on one GPU
         * lane): each later proof waited ~13 s behind the one before and
         * ran ~13 s. After the first two, 3 more in 38.8 s: 12.9 s a proof,
         * the GPU's own rate (ten partitions of 1.26-1.29 s), where counting
         * each by the share of its wall time in the span said 15.5. */
        const struct bench_sample batch[] = {
                {.completed = true, .wall_seconds = 65.5, .end_seconds = 65.5},
                {.completed = true, .wall_seconds = 78.4, .end_seconds = 78.4},
                {.completed = true, .wall_seconds = 26.0, .end_seconds = 91.5},
                {.completed = true, .wall_seconds = 26.2, .end_seconds = 104.6},
                {.completed = true, .wall_seconds = 25.7, .end_seconds = 117.2},
        };
        bench_summarize(batch, 5, 117.2, 2, &s);
        assert_int_equal(s.steady_proofs, 3);
        assert_float_equal(s.steady_seconds, 38.8, 1e-9);
        assert_float_equal(s.steady_seconds / s.steady_proofs, 12.93, 0.01);

        /* Min and max also when the first sample is the largest. */
        bench_summarize(samples + 2, 2, 7.0, 1, &s);
        assert_float_equal(s.wall_seconds.min, 3.0, 1e-12);
        assert_float_equal(s.wall_seconds.max, 4.0, 1e-12);
        assert_float_equal(s.proofs_per_minute, 2.0 / 7.0 * 60.0, 1e-12);

        /* Nothing completed: no rates, no division by zero. */
        bench_summarize(samples + 1, 1, 5.0, 1, &s);
        assert_int_equal(s.completed, 0);
        assert_int_equal(s.failed, 1);
        assert_float_equal(s.proofs_per_minute, 0.0, 0.0);
        assert_float_equal(s.seconds_per_proof, 0.0, 0.0);
        assert_float_equal(s.wall_seconds.max, 0.0, 0.0);
        assert_int_equal(s.steady_proofs, 0);
        bench_summarize(samples, 1, 0.0, 1, &s);
        assert_int_equal(s.completed, 1);
        assert_float_equal(s.proofs_per_minute, 0.0, 0.0);
}

static char *print_to_string(void (*print)(FILE *f, const void *arg), const void *arg) {
        char *text = NULL;
        size_t size = 0;
        FILE *f = open_memstream(&text, &size);

        assert_non_null(f);
        print(f, arg);
        fclose(f);
        return text;
}

static void print_summary(FILE *f, const void *arg) {
        bench_print_summary(f, arg);
}

static void print_memory(FILE *f, const void *arg) {
        bench_print_memory(f, arg);
}

static void test_output_lines(void **state) {
        const struct bench_sample done = {.completed = true,
                                          .wall_seconds = 12.34,
                                          .end_seconds = 12.34,
                                          .prove_ms = 8021,
                                          .queue_ms = 153};
        const struct bench_sample samples[] = {
                done,
                {.completed = true,
                 .wall_seconds = 10.0,
                 .end_seconds = 10.0,
                 .prove_ms = 7000,
                 .queue_ms = 0},
        };
        struct bench_memory memory = {0};
        struct bench_summary s;
        char *text = NULL;
        size_t size = 0;
        FILE *f;
        (void)state;

        f = open_memstream(&text, &size);
        assert_non_null(f);
        bench_print_result_line(f, 3, 20, "COMPLETED", &done, NULL);
        bench_print_result_line(f, 4, 20, bench_status_label(2), &samples[1], "worker OOM-killed");
        fclose(f);
        assert_string_equal(text, "  [3/20] COMPLETED — 12.3s (prove=8021 ms, queue=153 ms)\n"
                                  "  [4/20] FAILED — 10.0s (prove=7000 ms, queue=0 ms): worker "
                                  "OOM-killed\n");
        free(text);
        assert_string_equal(bench_status_label(1), "COMPLETED");
        assert_string_equal(bench_status_label(3), "CANCELLED");
        assert_string_equal(bench_status_label(4), "TIMEOUT");
        assert_string_equal(bench_status_label(0), "UNKNOWN");
        assert_string_equal(bench_status_label(77), "UNKNOWN");

        bench_summarize(samples, 2, 30.0, 2, &s);
        text = print_to_string(print_summary, &s);
        assert_string_equal(text, "\n=== Batch Summary ===\n"
                                  "total time:    30.0s\n"
                                  "completed:     2\n"
                                  "failed:        0\n"
                                  "wall time:     avg=11.2s min=10.0s max=12.3s\n"
                                  "prove time:    avg=7.5s min=7.0s max=8.0s\n"
                                  "throughput:    4.000 proofs/min (15.0s/proof)\n");
        free(text);
        /* The second ended 2.34 s after the first: 1 more in 2.3 s. */
        bench_summarize(samples, 2, 30.0, 1, &s);
        text = print_to_string(print_summary, &s);
        assert_non_null(strstr(text, "throughput:    4.000 proofs/min (15.0s/proof)\n"
                                     "steady:        2.3s/proof after the first 1 (1 more ended "
                                     "in 2.3s)\n"));
        free(text);

        text = print_to_string(print_memory, &memory);
        assert_string_equal(text, "peak memory:   not reported\n");
        free(text);
        memory = (struct bench_memory){.peak_reported = true,
                                       .peak_bytes = 3ull << 29,
                                       .status_samples = 5,
                                       .budget_bytes = 8ull << 30,
                                       .max_reserved_bytes = 1ull << 30};
        text = print_to_string(print_memory, &memory);
        assert_string_equal(text, "peak memory:   1.5 GiB (cuzkd's memory cgroup)\n"
                                  "reserved:      at most 1.0 GiB of a 8.0 GiB budget (5 "
                                  "samples)\n");
        free(text);
        memory.peak_reported = false;
        memory.status_samples = 1;
        text = print_to_string(print_memory, &memory);
        assert_string_equal(text,
                            "peak memory:   not reported\n"
                            "reserved:      at most 1.0 GiB of a 8.0 GiB budget (1 sample)\n");
        free(text);
        /* Without a budget (an older daemon) there is nothing to relate to. */
        memory.budget_bytes = 0;
        text = print_to_string(print_memory, &memory);
        assert_string_equal(text, "peak memory:   not reported\n");
        free(text);
}

static void print_idle(FILE *f, const void *arg) {
        bench_print_idle(f, arg);
}

/* Folds a GetStatus answer listing n provers (indexes 0..n-1) with these idle times into
 * idle, and checks the line printed then. */
static void sample_and_expect(struct bench_idle *idle, const uint64_t *idle_usec, size_t n,
                              const char *expect) {
        Cuzk__V1__ProverStatus provers[2], *pointers[2];
        Cuzk__V1__GetStatusResponse s = CUZK__V1__GET_STATUS_RESPONSE__INIT;
        char *text;

        assert_true(n <= 2);
        for (size_t i = 0; i < n; i++) {
                provers[i] = (Cuzk__V1__ProverStatus)CUZK__V1__PROVER_STATUS__INIT;
                provers[i].index = (uint32_t)i;
                provers[i].idle_usec = idle_usec[i];
                pointers[i] = &provers[i];
        }
        s.n_provers = n;
        s.provers = n ? pointers : NULL;
        bench_idle_add_status(idle, &s);
        text = print_to_string(print_idle, idle);
        assert_string_equal(text, expect);
        free(text);
}

/* What the provers' idle time grew by between the first sample and the latest. */
static void test_idle_lines(void **state) {
        static const char not_reported[] = "gpu idle:      not reported\n";
        struct bench_idle idle = {0};
        char *text;
        (void)state;

        /* No sample, one sample: not reported rather than a made-up zero. */
        text = print_to_string(print_idle, &idle);
        assert_string_equal(text, not_reported);
        free(text);
        sample_and_expect(&idle, (const uint64_t[]){5000000}, 1, not_reported);
        /* One prover: what it grew by from the first sample to the latest. */
        sample_and_expect(&idle, (const uint64_t[]){9000000}, 1,
                          "gpu idle:      4.0 s between partitions\n");
        sample_and_expect(&idle, (const uint64_t[]){17300000}, 1,
                          "gpu idle:      12.3 s between partitions\n");

        /* Two provers: the sum, and each one's. */
        idle = (struct bench_idle){0};
        sample_and_expect(&idle, (const uint64_t[]){1000000, 2000000}, 2, not_reported);
        sample_and_expect(&idle, (const uint64_t[]){3500000, 2000000}, 2,
                          "gpu idle:      2.5 s between partitions (prover 0: 2.5 s, prover 1: "
                          "0.0 s)\n");
        /* A daemon restarted meanwhile counts from 0 again. */
        sample_and_expect(&idle, (const uint64_t[]){400000, 2100000}, 2,
                          "gpu idle:      0.5 s between partitions (prover 0: 0.4 s, prover 1: "
                          "0.1 s)\n");

        /* The reference daemon lists no provers. */
        idle = (struct bench_idle){0};
        sample_and_expect(&idle, NULL, 0, not_reported);
        sample_and_expect(&idle, NULL, 0, not_reported);
}

static void test_metric_value(void **state) {
        const char text[] = "# HELP cuzk_memory_peak_bytes Peak memory of cuzkd's processes.\n"
                            "# TYPE cuzk_memory_peak_bytes gauge\n"
                            "cuzk_memory_peak_bytes_total 5\n"
                            "cuzk_memory_peak_bytes 1.2345e+09\n"
                            "cuzk_jobs{kind=\"porep\",state=\"a b\"} 7 1700000000000\n"
                            "cuzk_bad{x=\"1\"} twelve\n"
                            "cuzk_last 42";
        double v;
        (void)state;

        assert_int_equal(bench_metric_value(text, "cuzk_memory_peak_bytes", &v), 0);
        assert_float_equal(v, 1.2345e9, 1e-3);
        assert_int_equal(bench_metric_value(text, "cuzk_jobs", &v), 0);
        assert_float_equal(v, 7.0, 0.0);
        assert_int_equal(bench_metric_value(text, "cuzk_last", &v), 0);
        assert_float_equal(v, 42.0, 0.0);
        assert_int_equal(bench_metric_value(text, "cuzk_bad", &v), -EBADMSG);
        assert_int_equal(bench_metric_value(text, "cuzk_memory", &v), -ENOENT);
        assert_int_equal(bench_metric_value("", "cuzk_last", &v), -ENOENT);
        assert_int_equal(bench_metric_value("cuzk_x{a=\"1\" 3\n", "cuzk_x", &v), -EBADMSG);
}

static void test_base64(void **state) {
        static const struct {
                const char *text;
                const char *bytes;
                size_t length;
        } b64[] = {
                {"", "", 0},
                {"Zg==", "f", 1},
                {"Zm8=", "fo", 2},
                {"Zm9v", "foo", 3},
                {"Zm9vYg", "foob", 4},
                {"Zm9vYmE=", "fooba", 5},
                {"/+8A", "\xff\xef\x00", 3},
        };
        static const char *const bad_b64[] = {
                "Z", "Zm9vY", "Zg=", "Zm9v=", "Z===", "Zm9v!", "Zg==Zg=="};
        uint8_t *bytes;
        size_t n;
        (void)state;

        for (size_t i = 0; i < sizeof(b64) / sizeof(b64[0]); i++) {
                assert_int_equal(bench_base64_decode(b64[i].text, &bytes, &n), 0);
                assert_int_equal(n, b64[i].length);
                assert_memory_equal(bytes, b64[i].bytes, n);
                free(bytes);
        }
        for (size_t i = 0; i < sizeof(bad_b64) / sizeof(bad_b64[0]); i++)
                if (bench_base64_decode(bad_b64[i], &bytes, &n) != -EINVAL)
                        fail_msg("'%s' decoded as base64", bad_b64[i]);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_parse_defaults), cmocka_unit_test(test_parse_batch_flags),
                cmocka_unit_test(test_parse_errors),   cmocka_unit_test(test_summary),
                cmocka_unit_test(test_output_lines),   cmocka_unit_test(test_metric_value),
                cmocka_unit_test(test_base64),         cmocka_unit_test(test_idle_lines),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
