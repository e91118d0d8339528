/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The memory budget (reserve, release, TotalBudget=auto from MemTotal and
 * the cgroup limit, the smallest of its ancestors') and what a job
 * reserves: the shape read from a .zkey header or a PCE header and the size
 * of its .params (a file in bellperson's layout adds the gathered scalars),
 * its split into the two release phases, and SubmitProof's checks of kinds
 * and files.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cgroup/cg-files.h"
#include "cgroup/hierarchy.h"
#include "circuits/pce-compact.h"
#include "circuits/pce-file.h"
#include "circuits/synthetic.h"
#include "common/cleanup.h"
#include "daemon/supervisor/budget.h"
#include "daemon/supervisor/reservation.h"
#include "formats/bellperson_params.h"
#include "daemon/supervisor/job.h"
#include "tests/lib/cgroup-common.h"
#include "zk/groth16_memory.h"

static void test_reserve_release(void **state) {
        struct budget b;
        (void)state;

        budget_init(&b, 100);
        assert_true(budget_fits(&b, 100));
        assert_false(budget_fits(&b, 101));
        assert_int_equal(budget_reserve(&b, 70), 0);
        assert_int_equal(budget_reserve(&b, 31), -ENOSPC);
        assert_int_equal(b.reserved_bytes, 70);
        assert_int_equal(budget_reserve(&b, 30), 0);
        budget_release(&b, 50);
        assert_int_equal(b.reserved_bytes, 50);
        assert_int_equal(b.peak_reserved_bytes, 100);
}

/* Bytes held already are counted past the total (a restarted prover's key), and then
 * nothing fits until enough is released; a permanent reservation follows what its owner
 * holds, giving back and taking exactly the difference. */
static void test_take_and_resize(void **state) {
        struct reservation partition = {0}, circuit = {0};
        struct budget b;
        (void)state;

        budget_init(&b, 100);
        assert_int_equal(reservation_reserve(&partition, &b, 10, 80), 0);
        reservation_into_permanent(&partition, 60, &circuit);
        assert_int_equal(reservation_release(&partition), 30);
        assert_int_equal(b.reserved_bytes, 60);
        reservation_resize(&circuit, 15);
        assert_int_equal(b.reserved_bytes, 15);
        assert_true(budget_fits(&b, 85));
        reservation_resize(&circuit, 130);
        assert_int_equal(b.reserved_bytes, 130);
        assert_int_equal(b.peak_reserved_bytes, 130);
        assert_false(budget_fits(&b, 0));
        assert_int_equal(budget_reserve(&b, 1), -ENOSPC);
        budget_take(&b, 5);
        assert_int_equal(b.reserved_bytes, 135);
        budget_release(&b, 5);
        assert_int_equal(reservation_release(&circuit), 130);
        assert_int_equal(b.reserved_bytes, 0);
        assert_true(budget_fits(&b, 100));
}

static void test_auto(void **state) {
        const uint64_t G = UINT64_C(1) << 30;
        uint64_t bytes = 0;
        char source[4096];
        (void)state;

        assert_int_equal(budget_auto_compute(64 * G, UINT64_MAX, G), 63 * G);
        assert_int_equal(budget_auto_compute(64 * G, 8 * G, G), 8 * G);
        assert_int_equal(budget_auto_compute(G / 2, UINT64_MAX, G), 0);
        assert_int_equal(
                budget_parse_meminfo("MemTotal:       16318412 kB\nMemFree: 1 kB\n", &bytes), 0);
        assert_int_equal(bytes, UINT64_C(16318412) * 1024);
        assert_int_equal(budget_parse_meminfo("MemFree: 1 kB\nMemTotal: 2 kB\n", &bytes), 0);
        assert_int_equal(bytes, 2048);
        assert_int_equal(budget_parse_meminfo("MemFree: 1 kB\n", &bytes), -EBADMSG);
        /* This host: some figure, no larger than MemTotal. */
        assert_int_equal(budget_auto_detect(0, &bytes, source, sizeof(source)), 0);
        assert_true(bytes > 0);
        print_message("auto budget here: %llu bytes from %s\n", (unsigned long long)bytes, source);
}

/* TotalBudget=auto under a limit set above cuzkd's cgroup (bench/porep-32g-daemon.sh's
 * MEMORY_MAX=64G on the cgroup it starts cuzkd in, MemoryMax= on cuzkd.service): the
 * limit holds whether the budget is computed before cuzkd moves itself into supervisor/
 * or after (at start-up, and on every reload). */
static void test_auto_cgroup_ancestors(void **state) {
        const cgt_fixture_t *top = *state;
        cg_hierarchy_t h = {.kind = CG_HIERARCHY_V2};
        char expect[512], file[512];
        static const char *const dirs[] = {"bench", "bench/cuzkd", "bench/cuzkd/supervisor"};

        for (size_t i = 0; i < ELEMENTSOF(dirs); i++) {
                cgt_mkdir(top->dirfd, dirs[i]);
                snprintf(file, sizeof(file), "%s/memory.max", dirs[i]);
                cgt_write_file(top->dirfd, file, "max\n");
        }
        cgt_write_file(top->dirfd, "bench/memory.max", "68719476736\n");
        snprintf(expect, sizeof(expect), "%s/bench/memory.max", top->path);
        snprintf(h.v2_mount, sizeof(h.v2_mount), "%s", top->path);
        snprintf(h.v2_dir, sizeof(h.v2_dir), "%s/bench/cuzkd", top->path);
        assert_true(budget_cgroup_limit(&h, file, sizeof(file)) == UINT64_C(64) << 30);
        assert_string_equal(file, expect);
        snprintf(h.v2_dir, sizeof(h.v2_dir), "%s/bench/cuzkd/supervisor", top->path);
        assert_true(budget_cgroup_limit(&h, file, sizeof(file)) == UINT64_C(64) << 30);
        assert_string_equal(file, expect);
        /* Delegate= without memory: no controller of our own, the ancestor's limit holds. */
        h.kind = CG_HIERARCHY_NONE;
        assert_true(budget_cgroup_limit(&h, file, sizeof(file)) == UINT64_C(64) << 30);
        /* A cgroup that went away: no limit, and the budget follows MemTotal. */
        snprintf(h.v2_dir, sizeof(h.v2_dir), "%s/bench/gone", top->path);
        assert_true(budget_cgroup_limit(&h, file, sizeof(file)) == CG_LIMIT_MAX);
        assert_string_equal(file, "");
}

static void put32(FILE *f, uint32_t v) {
        uint8_t b[4] = {v, v >> 8, v >> 16, v >> 24};

        fwrite(b, 1, 4, f);
}

static void put64(FILE *f, uint64_t v) {
        put32(f, (uint32_t)v);
        put32(f, (uint32_t)(v >> 32));
}

/* A .zkey with sections 1 and 2 only (the shape needs nothing else). */
static void write_zkey(const char *path, uint32_t protocol, uint32_t n8q, uint32_t n_vars,
                       uint32_t n_public, uint32_t domain) {
        static const uint8_t zeros[64];
        FILE *f = fopen(path, "w");

        assert_non_null(f);
        fwrite("zkey", 1, 4, f);
        put32(f, 1);
        put32(f, 2);
        put32(f, 1);
        put64(f, 4);
        put32(f, protocol);
        put32(f, 2);
        put64(f, 4 + 48 + 4 + 32 + 12);
        put32(f, n8q);
        fwrite(zeros, 1, 48, f);
        put32(f, 32);
        fwrite(zeros, 1, 32, f);
        put32(f, n_vars);
        put32(f, n_public);
        put32(f, domain);
        fclose(f);
}

static void test_shape_zkey(void **state) {
        char path[] = "/tmp/test-budget-XXXXXX";
        struct groth16_partition_shape expect = {.log_domain_size = 10,
                                                 .n_vars = 600,
                                                 .n_public = 3,
                                                 .g1_windowed = 600,
                                                 .g2_windowed = 600,
                                                 .threads = 2};
        struct job_shape shape;
        char msg[512];
        int fd;
        (void)state;

        fd = mkstemp(path);
        assert_true(fd >= 0);
        close(fd);
        write_zkey(path, 1, 48, 600, 3, 1024);
        assert_int_equal(job_shape_snarkjs(path, 2, &shape, msg, sizeof(msg)), 0);
        assert_int_equal(shape.abc_bytes, 3 * 32 * 1024);
        assert_int_equal(shape.abc_bytes + shape.rest_bytes, groth16_partition_bytes(&expect));
        assert_int_equal(shape.shared_bytes, 12 + 12 + 4 + 12 + 100);
        assert_string_equal(shape.circuit_id, path);

        write_zkey(path, 2, 48, 600, 3, 1024);
        assert_int_equal(job_shape_snarkjs(path, 2, &shape, msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, "protocol 2, expected 1 (Groth16)"));
        write_zkey(path, 1, 32, 600, 3, 1024);
        assert_int_equal(job_shape_snarkjs(path, 2, &shape, msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, "BLS12-381"));
        write_zkey(path, 1, 48, 600, 3, 1000);
        assert_int_equal(job_shape_snarkjs(path, 2, &shape, msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, "domain 1000"));
        assert_int_equal(truncate(path, 20), 0);
        assert_int_equal(job_shape_snarkjs(path, 2, &shape, msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, "not a snarkjs .zkey"));
        assert_non_null(strstr(msg, path));
        unlink(path);

        job_shape_split(4, 10, &shape);
        assert_int_equal(shape.abc_bytes, 10);
        assert_int_equal(shape.rest_bytes, 0);
}

/* A .params file of `bytes` (the job shape reads its size only). */
static void sized_file(const char *path, uint64_t bytes) {
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fclose(f);
        assert_int_equal(truncate(path, (off_t)bytes), 0);
}

/* A worker that synthesizes the compact witness (PoRep) is sized by the values its
 * circuit's shape counted (PCE_AUX_VALUES), far below the .wtns worker's full witness;
 * a PCE without the count bounds them by every aux. */
static void check_compact_synthesized(struct pce *pce, const char *pce_path,
                                      const char *params_path) {
        const uint64_t n_aux = pce->n_cols - 3, rank = pce_bitmap_words(n_aux) * 8;
        struct job_shape shape;
        char msg[512];

        assert_int_equal(job_shape_pce(pce_path, params_path, 2, &shape, msg, sizeof(msg)), 0);
        assert_int_equal(shape.n_public, 2);
        assert_int_equal(shape.max_aux_values, n_aux);
        assert_int_equal(shape.compact_abc_bytes,
                         pce->n_cols * 32 + 2 * (pce_compact_bytes(2, n_aux, n_aux) + 64));
        job_shape_compact_synthesized(&shape);
        assert_int_equal(shape.compact_abc_bytes, 6 * (pce_compact_bytes(2, n_aux, n_aux) + 64));
        assert_int_equal(shape.compact_rest_bytes, rank);

        pce->flags |= PCE_AUX_VALUES;
        pce->n_aux_values = n_aux / 50;
        assert_int_equal(pce_save(pce, pce_path), 0);
        assert_int_equal(job_shape_pce(pce_path, params_path, 2, &shape, msg, sizeof(msg)), 0);
        assert_int_equal(shape.max_aux_values, n_aux / 50);
        job_shape_compact_synthesized(&shape);
        assert_int_equal(shape.compact_abc_bytes,
                         6 * (pce_compact_bytes(2, n_aux, n_aux / 50) + 64));
        assert_true(shape.compact_abc_bytes < pce->n_cols * 32);
        assert_int_equal(shape.compact_rest_bytes, rank);
}

static void test_shape_pce(void **state) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_free_ fr_t *w = NULL;
        char dir[] = "/tmp/test-budget-pce-XXXXXX", pce_path[64], params_path[64];
        struct synthetic_params p = {
                .seed = 2, .n_rows = 1000, .n_aux = SYNTHETIC_DEFAULT, .n_public = 2};
        struct job_shape full, packed;
        char msg[512];

        (void)state;
        assert_non_null(mkdtemp(dir));
        snprintf(pce_path, sizeof(pce_path), "%s/c.pce", dir);
        snprintf(params_path, sizeof(params_path), "%s/c.params", dir);
        assert_int_equal(synthetic_params_resolve(&p), 0);
        assert_int_equal(synthetic_generate(&p, &pce, &w), 0);
        assert_int_equal(pce_save(pce, pce_path), 0);
        const uint64_t per_wire = bellperson_params_bytes(2, 1023, pce->n_cols - 3, pce->n_cols,
                                                          pce->n_cols, pce->n_cols);
        struct groth16_partition_shape expect = {.log_domain_size = 10,
                                                 .n_vars = pce->n_cols,
                                                 .n_public = 2,
                                                 .g1_windowed = pce->n_cols,
                                                 .g2_windowed = pce->n_cols,
                                                 .threads = 2};

        sized_file(params_path, per_wire);
        assert_int_equal(job_shape_pce(pce_path, params_path, 2, &full, msg, sizeof(msg)), 0);
        assert_int_equal(full.abc_bytes + full.rest_bytes, groth16_partition_bytes(&expect));
        assert_int_equal(full.key_bytes, per_wire);
        /* smaller: bellperson's layout, whose prover gathers up to every wire's scalar */
        sized_file(params_path, per_wire - 96 * 100);
        assert_int_equal(job_shape_pce(pce_path, params_path, 2, &packed, msg, sizeof(msg)), 0);
        expect.gathered = pce->n_cols;
        assert_int_equal(packed.abc_bytes + packed.rest_bytes, groth16_partition_bytes(&expect));
        assert_true(packed.rest_bytes > full.rest_bytes);
        check_compact_synthesized(pce, pce_path, params_path);
        unlink(params_path);
        unlink(pce_path);
        rmdir(dir);
}

static void test_job_new_checks(void **state) {
        Cuzk__V1__SubmitProofRequest req = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
        const struct job_settings settings = {
                .parameter_cache = "/nonexistent/params",
                .pce_cache = "/nonexistent/pce",
        };
        const struct job_settings *s = &settings;
        char fifo[] = "/tmp/test-budget-fifo-XXXXXX", regular[] = "/tmp/test-budget-pce-XXXXXX";
        struct job *job = NULL;
        char msg[1024];
        int fd;
        (void)state;

        fd = mkstemp(fifo); /* a unique name for the FIFO below */
        assert_true(fd >= 0);
        close(fd);
        unlink(fifo);

        req.proof_kind = CUZK__V1__PROOF_KIND__WINDOW_POST_PARTITION;
        assert_int_equal(job_new("j", &req, NULL, 1, s, &job, msg, sizeof(msg)), -EOPNOTSUPP);
        assert_non_null(strstr(msg, "WINDOW_POST_PARTITION"));
        assert_non_null(strstr(msg, "not implemented"));

        /* PoRep: the registered proof first, then the C1 output. */
        req.proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
        req.registered_proof = 15; /* StackedDrg2KiBV1_2_Feat_NonInteractivePoRep */
        assert_int_equal(job_new("j", &req, NULL, 1, s, &job, msg, sizeof(msg)), -EOPNOTSUPP);
        assert_non_null(strstr(msg, "non-interactive PoRep is not supported yet"));
        req.registered_proof = 20;
        assert_int_equal(job_new("j", &req, NULL, 1, s, &job, msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, "registered_proof 20: not a RegisteredSealProof"));
        req.registered_proof = 5;
        assert_int_equal(job_new("j", &req, NULL, 1, s, &job, msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, "vanilla_proof is required"));
        req.registered_proof = 0;

        req.proof_kind = CUZK__V1__PROOF_KIND__GROTH16_SNARKJS;
        assert_int_equal(job_new("j", &req, NULL, 1, s, &job, msg, sizeof(msg)), -EINVAL);
        assert_string_equal(msg, "zkey_path is required");
        req.zkey_path = (char *)"/nonexistent/c.zkey";
        assert_int_equal(job_new("j", &req, NULL, 1, s, &job, msg, sizeof(msg)), -ENOENT);
        assert_string_equal(msg, "zkey_path /nonexistent/c.zkey: No such file or directory");

        /* Client paths: absolute, and regular files only; a FIFO must not block. */
        req.zkey_path = (char *)"c.zkey";
        assert_int_equal(job_new("j", &req, NULL, 1, s, &job, msg, sizeof(msg)), -EINVAL);
        assert_string_equal(msg, "zkey_path 'c.zkey': must be an absolute path");
        req.zkey_path = (char *)"/";
        assert_int_equal(job_new("j", &req, NULL, 1, s, &job, msg, sizeof(msg)), -EINVAL);
        assert_string_equal(msg, "zkey_path /: not a regular file");
        assert_int_equal(mkfifo(fifo, 0600), 0);
        req.zkey_path = fifo;
        assert_int_equal(job_new("j", &req, NULL, 1, s, &job, msg, sizeof(msg)), -EINVAL);
        assert_non_null(strstr(msg, "not a regular file"));
        unlink(fifo);

        fd = mkstemp(regular);
        assert_true(fd >= 0);
        close(fd);
        req.proof_kind = CUZK__V1__PROOF_KIND__SYNTHETIC_PCE;
        req.pce_path = regular;
        req.params_path = (char *)"/nonexistent/p.params";
        assert_int_equal(job_new("j", &req, NULL, 1, s, &job, msg, sizeof(msg)), -ENOENT);
        assert_non_null(strstr(msg, "params_path /nonexistent/p.params"));
        unlink(regular);
        req.pce_path = (char *)"/dev/null";
        req.params_path = (char *)"/dev/null";
        req.witness_path = (char *)"/dev/null";
        assert_int_equal(job_new("j", &req, NULL, 1, s, &job, msg, sizeof(msg)), -EINVAL);
        assert_string_equal(msg, "pce_path /dev/null: not a regular file");
        assert_null(job);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_reserve_release),
                cmocka_unit_test(test_take_and_resize),
                cmocka_unit_test(test_auto),
                cmocka_unit_test_setup_teardown(test_auto_cgroup_ancestors, cgt_fixture_setup,
                                                cgt_fixture_teardown),
                cmocka_unit_test(test_shape_zkey),
                cmocka_unit_test(test_shape_pce),
                cmocka_unit_test(test_job_new_checks),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
