/* SPDX-License-Identifier: Apache-2.0 */
/*
 * `cuzk pce` as a user runs it (the cuzk of this build directory,
 * ../cli/cuzk beside this test): synth writes a PCE and a witness that
 * load and hold, the same bytes on 1 and 2 threads; from-r1cs on a circom
 * fixture; info's lines; exit status 2 and a message for bad input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "circuits/pce-file.h"
#include "common/cleanup.h"
#include "formats/wtns.h"
#include "tests/lib/formats-common.h"
#include "tests/lib/run.h"

static char dir[] = "/tmp/test-pce-cli-XXXXXX";
static char cuzk[PATH_MAX];

static int setup(void **state) {
        char exe[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

        (void)state;
        if (n <= 0 || !mkdtemp(dir))
                return -1;
        exe[n] = 0;
        snprintf(cuzk, sizeof(cuzk), "%s/../cli/cuzk", dirname(exe));
        return access(cuzk, X_OK);
}

static int teardown(void **state) {
        _cleanup_free_ char *cmd = NULL;

        (void)state;
        if (asprintf(&cmd, "rm -rf '%s'", dir) < 0)
                return -1;
        return system(cmd);
}

/* Runs cuzk with args (a shell fragment; files are in dir); returns the
 * exit status and what it printed on stdout and stderr. */
static int run(char **output, const char *fmt, ...) {
        _cleanup_free_ char *args = NULL;
        va_list ap;

        va_start(ap, fmt);
        assert_true(vasprintf(&args, fmt, ap) > 0);
        va_end(ap);
        return test_run_shell(output, true, "cd '%s' && '%s' %s", dir, cuzk, args);
}

static char *in_dir(const char *name) {
        char *path;
        assert_true(asprintf(&path, "%s/%s", dir, name) > 0);
        return path;
}

static void test_synth(void **state) {
        _cleanup_free_ char *out = NULL, *pce1 = in_dir("s1.pce"), *pce2 = in_dir("s2.pce");
        _cleanup_free_ char *wtns1 = in_dir("s1.wtns"), *wtns2 = in_dir("s2.wtns");
        _cleanup_free_ uint8_t *bytes1 = NULL, *bytes2 = NULL;
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_(wtns_freep) struct wtns *w = NULL;
        size_t n1, n2;
        fr_t *abc;
        size_t n;

        (void)state;
        assert_int_equal(run(NULL, "-t 1 pce synth --rows 8128 --seed 0x2a s1.pce s1.wtns"), 0);
        assert_int_equal(run(NULL, "-t 2 pce synth s2.pce --seed 42 --rows 8128 s2.wtns"), 0);
        bytes1 = read_whole_file(pce1, &n1);
        bytes2 = read_whole_file(pce2, &n2);
        assert_int_equal(n1, n2);
        assert_memory_equal(bytes1, bytes2, n1);
        free(bytes1);
        free(bytes2);
        bytes1 = read_whole_file(wtns1, &n1);
        bytes2 = read_whole_file(wtns2, &n2);
        assert_int_equal(n1, n2);
        assert_memory_equal(bytes1, bytes2, n1);

        /* The files are a satisfied circuit: a o b = c everywhere. */
        assert_int_equal(pce_load(pce1, &pce), 0);
        assert_int_equal(wtns_load(wtns1, &w), 0);
        assert_int_equal(pce->n_rows, 8128);
        assert_int_equal(w->n_values, pce->n_cols);
        n = (size_t)1 << pce_log_domain_size(pce);
        abc = malloc(3 * n * sizeof(fr_t));
        assert_non_null(abc);
        assert_int_equal(pce_evaluate(pce, w->values, w->n_values, pce_log_domain_size(pce), abc,
                                      abc + n, abc + 2 * n),
                         0);
        for (size_t i = 0; i < n; i++) {
                fr_t ab;
                fr_mul(&ab, &abc[i], &abc[n + i]);
                assert_true(fr_equal(&ab, &abc[2 * n + i]));
        }
        free(abc);

        assert_int_equal(run(&out, "pce info s1.pce"), 0);
        assert_non_null(strstr(out, "rows: 8128\n"));
        assert_non_null(strstr(out, "public_inputs: 7\n"));
        assert_non_null(strstr(out, "domain_size: 8192 (2^13)\n"));
        assert_non_null(strstr(out, "1-byte ids"));
        free(out);

        assert_int_equal(run(NULL, "pce synth --rows 300 --seed 1 --aux 500 --public 2 a b"), 0);
        assert_int_equal(run(&out, "pce info a"), 0);
        assert_non_null(strstr(out, "wires: 503\n"));
        assert_non_null(strstr(out, "constraints: 297\n"));
}

static void test_from_r1cs(void **state) {
        _cleanup_free_ char *r1cs = fixture_file("bits", "r1cs");
        _cleanup_free_ char *out = NULL;

        (void)state;
        assert_int_equal(run(NULL, "pce from-r1cs '%s' bits.pce", r1cs), 0);
        assert_int_equal(run(&out, "pce info bits.pce"), 0);
        assert_non_null(strstr(out, "constraints: 2413\n"));
        assert_non_null(strstr(out, "public_inputs: 13\n"));
        assert_non_null(strstr(out, "input_rows: yes\n"));
}

static void test_bad_input(void **state) {
        static const struct {
                const char *args, *phrase;
        } cases[] = {
                {"pce", "Usage: cuzk pce"},
                {"pce frobnicate", "unknown command 'frobnicate'"},
                {"pce synth --rows 100 x.pce x.wtns", "expected --rows, --seed"},
                {"pce synth --rows 10x --seed 1 x.pce x.wtns", "--rows 10x"},
                {"pce synth --rows -5 --seed 1 x.pce x.wtns", "--rows -5"},
                {"pce synth --rows 3 --seed 1 --public 2 x.pce x.wtns", "no constraint row"},
                {"pce synth --rows 100 --seed 1 --aux 0 x.pce x.wtns", "--aux is 0"},
                {"pce info missing.pce", "missing.pce: cannot open"},
                {"pce info s1.wtns", "not a PCE file"},
                {"pce from-r1cs s1.pce out.pce", "s1.pce"},
                {"pce from-r1cs one-argument", "expected 2 arguments"},
        };

        (void)state;
        for (size_t c = 0; c < ELEMENTSOF(cases); c++) {
                _cleanup_free_ char *out = NULL;
                int status = run(&out, "%s", cases[c].args);
                if (status != 2 || !strstr(out, cases[c].phrase))
                        fail_msg("cuzk %s: exit %d, output \"%s\": expected 2 and \"%s\"",
                                 cases[c].args, status, out, cases[c].phrase);
        }
}

static void test_help(void **state) {
        static const char *const commands[] = {"pce --help", "pce synth --help",
                                               "pce from-r1cs --help", "pce info -h"};

        (void)state;
        for (size_t c = 0; c < ELEMENTSOF(commands); c++) {
                _cleanup_free_ char *out = NULL;
                assert_int_equal(run(&out, "%s", commands[c]), 0);
                assert_non_null(strstr(out, "Usage: cuzk pce"));
        }
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_synth),
                cmocka_unit_test(test_from_r1cs),
                cmocka_unit_test(test_bad_input),
                cmocka_unit_test(test_help),
        };
        return cmocka_run_group_tests(tests, setup, teardown);
}
