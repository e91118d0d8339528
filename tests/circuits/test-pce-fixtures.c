/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PCEs of the circom fixtures (tests/fixtures/make-fixtures.sh): the PCE
 * built from each .r1cs gives, for the fixture witness, the same a, b and c
 * as the .zkey path (zkey_to_groth16_matrices + groth16_evaluate, which is
 * snarkjs's prover's way), also after a trip through a PCE file; its plain
 * matrices prove with the .zkey into a proof that verifies; and wtns_save
 * writes the fixture witness back byte for byte as snarkjs wrote it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "circuits/pce-file.h"
#include "circuits/pce.h"
#include "common/cleanup.h"
#include "formats/r1cs.h"
#include "formats/snarkjs-json.h"
#include "formats/wtns-save.h"
#include "formats/wtns.h"
#include "formats/zkey.h"
#include "tests/lib/formats-common.h"
#include "tests/lib/ref.h"

struct fixture {
        struct r1cs *cs;
        struct wtns *w;
        struct zkey *zk;
        struct pce *pce;
};

static void fixture_load(const char *name, struct fixture *f) {
        _cleanup_free_ char *r1cs_path = fixture_file(name, "r1cs");
        _cleanup_free_ char *wtns_path = fixture_file(name, "wtns");
        _cleanup_free_ char *zkey_path = fixture_file(name, "zkey");
        const struct sparse_matrix *m;

        assert_int_equal(r1cs_load(r1cs_path, &f->cs), 0);
        assert_int_equal(wtns_load(wtns_path, &f->w), 0);
        assert_int_equal(zkey_load(zkey_path, &f->zk), 0);
        m = f->cs->matrices;
        assert_int_equal(pce_from_sparse(&m[R1CS_A], &m[R1CS_B], &m[R1CS_C], r1cs_n_public(f->cs),
                                         PCE_INPUT_ROWS, &f->pce),
                         0);
}

static void fixture_done(struct fixture *f) {
        r1cs_free(f->cs);
        wtns_free(f->w);
        zkey_free(f->zk);
        pce_free(f->pce);
}

/* a, b, c of the .zkey path: snarkjs's A and B (input rows included), c = a o b. */
static void zkey_evaluations(const struct fixture *f, fr_t *abc) {
        size_t n = f->zk->domain_size;
        struct sparse_matrix a, b;
        struct groth16_constraints cs = {.a = &a, .b = &b, .c = NULL};

        assert_int_equal(zkey_to_groth16_matrices(f->zk, &a, &b), 0);
        assert_int_equal(groth16_evaluate(&cs, f->w->values, f->w->n_values,
                                          f->zk->log2_domain_size, abc, abc + n, abc + 2 * n),
                         0);
        sparse_free(&a);
        sparse_free(&b);
}

static void pce_evaluations(const struct pce *pce, const struct fixture *f, fr_t *abc) {
        size_t n = f->zk->domain_size;

        assert_int_equal(pce_evaluate(pce, f->w->values, f->w->n_values, f->zk->log2_domain_size,
                                      abc, abc + n, abc + 2 * n),
                         0);
}

static void expect_same_vectors(const char *name, const char *what, const fr_t *got,
                                const fr_t *want, size_t n) {
        static const char *const names[3] = {"a", "b", "c"};

        for (size_t i = 0; i < 3 * n; i++)
                if (!fr_equal(&got[i], &want[i]))
                        fail_msg("%s: %s: %s[%zu] differs from the .zkey path", name, what,
                                 names[i / n], i % n);
}

static void test_same_abc_as_zkey(void **state) {
        (void)state;
        for (size_t c = 0; c < n_fixture_circuits; c++) {
                const char *name = fixture_circuits[c];
                struct fixture f = {0};
                _cleanup_free_ fr_t *want = NULL, *got = NULL;
                size_t n;

                fixture_load(name, &f);
                n = f.zk->domain_size;
                print_message("%s: %u constraints, %u public, domain 2^%u\n", name,
                              f.cs->n_constraints, r1cs_n_public(f.cs), f.zk->log2_domain_size);
                /* The PCE's rows are snarkjs's: constraints, then inputs. */
                assert_int_equal(f.pce->n_rows, f.cs->n_constraints + f.zk->n_public + 1);
                assert_int_equal(f.pce->n_cols, f.zk->n_vars);
                assert_int_equal(f.pce->n_public, f.zk->n_public);
                assert_int_equal(pce_n_constraints(f.pce), f.cs->n_constraints);
                assert_int_equal(pce_log_domain_size(f.pce), f.zk->log2_domain_size);

                want = malloc(3 * n * sizeof(fr_t));
                got = malloc(3 * n * sizeof(fr_t));
                assert_true(want && got);
                zkey_evaluations(&f, want);
                pce_evaluations(f.pce, &f, got);
                expect_same_vectors(name, "in memory", got, want, n);
                fixture_done(&f);
        }
}

static void test_same_abc_after_file(void **state) {
        char dir[] = "/tmp/test-pce-fixtures-XXXXXX";

        (void)state;
        assert_non_null(mkdtemp(dir));
        for (size_t c = 0; c < n_fixture_circuits; c++) {
                const char *name = fixture_circuits[c];
                struct fixture f = {0};
                _cleanup_(pce_freep) struct pce *loaded = NULL;
                _cleanup_free_ fr_t *want = NULL, *got = NULL;
                _cleanup_free_ char *path = NULL;
                size_t n;

                fixture_load(name, &f);
                n = f.zk->domain_size;
                assert_true(asprintf(&path, "%s/%s.pce", dir, name) > 0);
                assert_int_equal(pce_save(f.pce, path), 0);
                assert_int_equal(pce_load(path, &loaded), 0);
                want = malloc(3 * n * sizeof(fr_t));
                got = malloc(3 * n * sizeof(fr_t));
                assert_true(want && got);
                zkey_evaluations(&f, want);
                pce_evaluations(loaded, &f, got);
                expect_same_vectors(name, "from file", got, want, n);
                assert_int_equal(unlink(path), 0);
                fixture_done(&f);
        }
        assert_int_equal(rmdir(dir), 0);
}

/* The setup takes pce_to_sparse(): those matrices prove with the .zkey. */
static void test_plain_matrices_prove(void **state) {
        (void)state;
        for (size_t c = 0; c < n_fixture_circuits; c++) {
                const char *name = fixture_circuits[c];
                _cleanup_free_ char *vk_path = fixture_file(name, "vk.json");
                _cleanup_(snarkjs_vk_freep) struct groth16_vk *vk = NULL;
                struct sparse_matrix m[PCE_N_MATRICES];
                struct groth16_constraints cs = {.a = &m[PCE_A], .b = &m[PCE_B], .c = &m[PCE_C]};
                struct groth16_proof proof;
                struct groth16_pk pk;
                struct fixture f = {0};

                fixture_load(name, &f);
                assert_int_equal(snarkjs_vk_load(vk_path, &vk), 0);
                assert_int_equal(pce_to_sparse(f.pce, m), 0);
                zkey_to_groth16_pk(f.zk, &pk);
                assert_int_equal(groth16_prove(&pk, &cs, f.w->values, &proof, 0), 0);
                assert_int_equal(groth16_verify(vk, f.w->values + 1, &proof), 1);
                /* A wrong witness value makes a proof that fails. */
                fr_from_u64(&f.w->values[f.w->n_values - 1], 12345);
                assert_int_equal(groth16_prove(&pk, &cs, f.w->values, &proof, 0), 0);
                assert_int_equal(groth16_verify(vk, f.w->values + 1, &proof), 0);
                for (size_t k = 0; k < PCE_N_MATRICES; k++)
                        sparse_free(&m[k]);
                fixture_done(&f);
        }
}

static void test_wtns_save_as_snarkjs(void **state) {
        char dir[] = "/tmp/test-pce-fixtures-XXXXXX";

        (void)state;
        assert_non_null(mkdtemp(dir));
        for (size_t c = 0; c < n_fixture_circuits; c++) {
                _cleanup_free_ char *fixture = fixture_file(fixture_circuits[c], "wtns");
                _cleanup_free_ char *out = NULL;
                _cleanup_free_ uint8_t *original = NULL;
                _cleanup_(wtns_freep) struct wtns *w = NULL;
                size_t size;

                assert_true(asprintf(&out, "%s/w.wtns", dir) > 0);
                assert_int_equal(wtns_load(fixture, &w), 0);
                assert_int_equal(wtns_save(out, w->values, w->n_values), 0);
                original = read_whole_file(fixture, &size);
                if (!file_equals(out, original, size))
                        fail_msg("%s: wtns_save does not write snarkjs's bytes", fixture);
                assert_int_equal(unlink(out), 0);
        }
        assert_int_equal(rmdir(dir), 0);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_same_abc_as_zkey),
                cmocka_unit_test(test_same_abc_after_file),
                cmocka_unit_test(test_plain_matrices_prove),
                cmocka_unit_test(test_wtns_save_as_snarkjs),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
