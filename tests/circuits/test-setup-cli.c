/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzk setup, cuzk prove --pce and cuzk verify with a bellperson .vk, run as
 * commands (argv[1] is the cuzk binary) on a synthetic PoRep-shaped
 * circuit of 2^12 rows:
 *   - setup + prove + verify: OK (exit 0), with Filecoin and snarkjs proofs;
 *   - other public inputs: INVALID (exit 1);
 *   - a timing-only key proves, but verify refuses it (exit 2, saying why),
 *     whatever the proof;
 *   - a witness or key of another circuit, bad options: exit 2.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "circuits/pce-file.h"
#include "circuits/synthetic.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "formats/wtns-save.h"

static const char *cuzk;
static char dir[] = "/tmp/test-setup-cli-XXXXXX";
static char out_path[512], err_path[512];

static const char *path(const char *name) {
        static char buf[8][512];
        static unsigned next;
        char *p = buf[next++ % 8];

        snprintf(p, sizeof(buf[0]), "%s/%s", dir, name);
        return p;
}

/* Runs cuzk with args (NULL-terminated), stdout and stderr to files; the exit status. */
static int run_argv(const char *const *args) {
        const char *argv[24] = {cuzk};
        size_t argc = 1;
        pid_t pid;
        int status;

        while (argc < ELEMENTSOF(argv) - 1 && args[argc - 1]) {
                argv[argc] = args[argc - 1];
                argc++;
        }
        argv[argc] = NULL;

        pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
                int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
                int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

                if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
                        _exit(127);
                execv(cuzk, (char *const *)argv);
                _exit(127);
        }
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status));
        return WEXITSTATUS(status);
}
#define run(...) run_argv((const char *const[]){__VA_ARGS__, NULL})

/* Fails unless the file holds needle. */
static void expect_in(const char *file, const char *needle) {
        _cleanup_fclose_ FILE *f = fopen(file, "re");
        char buf[8192];
        size_t n;

        assert_non_null(f);
        n = fread(buf, 1, sizeof(buf) - 1, f);
        buf[n] = 0;
        if (!strstr(buf, needle))
                fail_msg("%s lacks \"%s\": %s", file, needle, buf);
}

static off_t file_size(const char *p) {
        struct stat st;

        assert_int_equal(stat(p, &st), 0);
        return st.st_size;
}

/* A circuit and its witness as files. */
static void make_circuit(uint32_t n_rows, uint64_t seed, const char *pce_name,
                         const char *wtns_name) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_free_ fr_t *w = NULL;
        struct synthetic_params p = {
                .seed = seed,
                .n_rows = n_rows,
                .n_aux = SYNTHETIC_DEFAULT,
                .n_public = 5,
        };

        assert_int_equal(synthetic_params_resolve(&p), 0);
        assert_int_equal(synthetic_generate(&p, &pce, &w), 0);
        assert_int_equal(pce_save(pce, path(pce_name)), 0);
        assert_int_equal(wtns_save(path(wtns_name), w, pce->n_cols), 0);
}

static void test_prove_verify(void **state) {
        (void)state;
        assert_int_equal(run("setup", "--pce", path("c.pce"), "--params", path("c.params"), "--vk",
                             path("c.vk"), "--seed", "c0ffee"),
                         0);
        expect_in(err_path, "for tests only");
        assert_int_equal(run("--verbose", "prove", "--pce", path("c.pce"), "--params",
                             path("c.params"), "--witness", path("c.wtns"), "--proof",
                             path("c.proof"), "--public", path("public.json")),
                         0);
        expect_in(err_path, "partition memory: predicted");
        assert_int_equal(file_size(path("c.proof")), 192);
        assert_int_equal(run("verify", path("c.vk"), path("public.json"), path("c.proof")), 0);
        expect_in(out_path, "OK");

        /* the snarkjs form of the proof */
        assert_int_equal(run("prove", "--pce", path("c.pce"), "--params", path("c.params"),
                             "--witness", path("c.wtns"), "--proof", path("proof.json"), "--format",
                             "snarkjs"),
                         0);
        assert_int_equal(run("verify", path("c.vk"), path("public.json"), path("proof.json")), 0);

        /* other public inputs */
        {
                _cleanup_fclose_ FILE *f = fopen(path("other.json"), "we");

                assert_non_null(f);
                fputs("[\"1\", \"2\", \"3\", \"4\", \"5\"]\n", f);
        }
        assert_int_equal(run("verify", path("c.vk"), path("other.json"), path("c.proof")), 1);
        expect_in(out_path, "INVALID");
}

static void test_timing_only(void **state) {
        (void)state;
        assert_int_equal(run("setup", "--pce", path("c.pce"), "--params", path("t.params"), "--vk",
                             path("t.vk"), "--timing-only"),
                         0);
        assert_int_equal(run("prove", "--pce", path("c.pce"), "--params", path("t.params"),
                             "--witness", path("c.wtns"), "--proof", path("t.proof"), "--public",
                             path("t-public.json")),
                         0);
        expect_in(err_path, "timing-only SRS: the proof will not verify");
        assert_int_equal(run("verify", path("t.vk"), path("t-public.json"), path("t.proof")), 2);
        expect_in(err_path, "proof made with a timing-only SRS cannot be verified");
        /* refused whatever the proof: a valid one of the real key too */
        assert_int_equal(run("verify", path("t.vk"), path("public.json"), path("c.proof")), 2);
        /* and its proof does not verify under the real key */
        assert_int_equal(run("verify", path("c.vk"), path("t-public.json"), path("t.proof")), 1);
}

static void test_refusals(void **state) {
        (void)state;
        /* a witness of another circuit */
        assert_int_equal(run("prove", "--pce", path("c.pce"), "--params", path("c.params"),
                             "--witness", path("d.wtns"), "--proof", path("x.proof")),
                         2);
        expect_in(err_path, "the witness has");
        /* a key of another circuit */
        assert_int_equal(run("prove", "--pce", path("d.pce"), "--params", path("c.params"),
                             "--witness", path("d.wtns"), "--proof", path("x.proof")),
                         2);
        expect_in(err_path, "not its key");
        assert_int_equal(run("setup", "--pce", path("c.pce"), "--params", path("x.params")), 2);
        assert_int_equal(run("setup", "--pce", path("c.pce"), "--params", path("x.params"), "--vk",
                             path("x.vk"), "--seed", "xyz"),
                         2);
        assert_int_equal(run("setup", "--pce", path("c.pce"), "--params", path("x.params"), "--vk",
                             path("x.vk"), "--seed", "01", "--timing-only"),
                         2);
        assert_int_equal(run("prove", "--pce", path("c.pce"), "--params", path("c.params"),
                             "--witness", path("c.wtns"), "--proof", path("x.proof"), "--format",
                             "json"),
                         2);
        assert_int_equal(run("setup", "--pce", path("missing.pce"), "--params", path("x.params"),
                             "--vk", path("x.vk")),
                         2);
}

static int setup_dir(void **state) {
        (void)state;
        if (!mkdtemp(dir))
                return -1;
        snprintf(out_path, sizeof(out_path), "%s/stdout", dir);
        snprintf(err_path, sizeof(err_path), "%s/stderr", dir);
        make_circuit(4096 - 32, 7, "c.pce", "c.wtns");
        make_circuit(2048 - 16, 8, "d.pce", "d.wtns");
        return 0;
}

static int remove_dir(void **state) {
        char cmd[600];

        (void)state;
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
        return system(cmd) == 0 ? 0 : -1;
}

int main(int argc, char **argv) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_prove_verify),
                cmocka_unit_test(test_timing_only),
                cmocka_unit_test(test_refusals),
        };

        if (argc != 2) {
                fprintf(stderr, "usage: %s CUZK_BINARY\n", argv[0]);
                return 2;
        }
        cuzk = argv[1];
        log_set_max_level(LOG_WARNING);
        return cmocka_run_group_tests(tests, setup_dir, remove_dir);
}
