/* SPDX-License-Identifier: Apache-2.0 */
/*
 * formats/ against snarkjs on the fixtures of tests/fixtures/make-fixtures.sh:
 * every value of each .r1cs, .wtns and .zkey as snarkjs reads it
 * (tests/node/fixture-dump.js), the JSON files written back byte for byte,
 * the files' mutual consistency, and proofs both ways: snarkjs's proofs
 * verified by zk/, zk/'s proofs from the loaded zkey and witness verified by
 * snarkjs (tests/node/fixture-verify.js).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "formats/r1cs.h"
#include "formats/snarkjs-json.h"
#include "formats/wtns.h"
#include "formats/zkey.h"
#include "tests/lib/formats-common.h"
#include "tests/lib/ref.h"

/* Runs fixture-dump.js on every circuit's file of this kind, in the order
 * of fixture_circuits, and returns the pipe. */
static FILE *dump_fixtures(const char *kind) {
        char args[4096];
        size_t used = (size_t)snprintf(args, sizeof(args), "%s", kind);

        for (size_t f = 0; f < n_fixture_circuits; f++) {
                _cleanup_free_ char *path = fixture_file(fixture_circuits[f], kind);
                used += (size_t)snprintf(args + used, sizeof(args) - used, " '%s'", path);
                assert_true(used < sizeof(args));
        }
        return ref_run("fixture-dump.js", args);
}

static json_t *next_line(FILE *f) {
        json_t *v = ref_next(f);

        assert_non_null(v);
        return v;
}

static uint64_t json_u64(const json_t *obj, const char *key) {
        const json_t *v = json_object_get(obj, key);

        assert_non_null(v);
        assert_true(json_is_integer(v));
        return (uint64_t)json_integer_value(v);
}

static void expect_fr(const fr_t *a, const json_t *hex) {
        fr_t expected;

        ref_fr_from_json(&expected, hex);
        assert_true(fr_equal(a, &expected));
}

/* [x, y, z] from ffjavascript's toObject(): z = 0 is infinity. */
static void expect_g1(const g1_affine_t *p, const json_t *v) {
        fp_t x, y, z;

        assert_int_equal(json_array_size(v), 3);
        ref_fp_from_json(&x, json_array_get(v, 0));
        ref_fp_from_json(&y, json_array_get(v, 1));
        ref_fp_from_json(&z, json_array_get(v, 2));
        if (fp_is_zero(&z)) {
                assert_true(g1_affine_is_infinity(p));
                return;
        }
        assert_true(fp_is_one(&z));
        assert_true(fp_equal(&p->x, &x));
        assert_true(fp_equal(&p->y, &y));
}

static void expect_g2(const g2_affine_t *p, const json_t *v) {
        fp2_t x, y, z;

        assert_int_equal(json_array_size(v), 3);
        ref_fp2_from_json(&x, json_array_get(v, 0));
        ref_fp2_from_json(&y, json_array_get(v, 1));
        ref_fp2_from_json(&z, json_array_get(v, 2));
        if (fp2_is_zero(&z)) {
                assert_true(g2_affine_is_infinity(p));
                return;
        }
        assert_true(fp2_is_one(&z));
        assert_true(fp2_equal(&p->x, &x));
        assert_true(fp2_equal(&p->y, &y));
}

static void expect_g1_array(const g1_affine_t *points, size_t n, const json_t *line,
                            const char *key) {
        const json_t *v = json_object_get(line, key);

        assert_non_null(v);
        assert_int_equal(json_array_size(v), n);
        for (size_t i = 0; i < n; i++)
                expect_g1(&points[i], json_array_get(v, i));
}

static void test_r1cs_matches_snarkjs(void **state) {
        FILE *ref = dump_fixtures("r1cs");

        (void)state;
        for (size_t f = 0; f < n_fixture_circuits; f++) {
                _cleanup_free_ char *path = fixture_file(fixture_circuits[f], "r1cs");
                _cleanup_(r1cs_freep) struct r1cs *cs = NULL;
                json_auto_t *header = NULL;
                static const char *const names[R1CS_N_MATRICES] = {"A", "B", "C"};

                assert_int_equal(r1cs_load(path, &cs), 0);
                header = next_line(ref);
                assert_int_equal(json_u64(header, "nVars"), cs->n_wires);
                assert_int_equal(json_u64(header, "nOutputs"), cs->n_pub_out);
                assert_int_equal(json_u64(header, "nPubInputs"), cs->n_pub_in);
                assert_int_equal(json_u64(header, "nPrvInputs"), cs->n_prv_in);
                assert_int_equal(json_u64(header, "nLabels"), cs->n_labels);
                assert_int_equal(json_u64(header, "nConstraints"), cs->n_constraints);

                for (uint32_t c = 0; c < cs->n_constraints; c++) {
                        json_auto_t *line = next_line(ref);
                        for (size_t m = 0; m < R1CS_N_MATRICES; m++) {
                                const struct sparse_matrix *mat = &cs->matrices[m];
                                const json_t *lc = json_object_get(line, names[m]);
                                uint64_t start = mat->row_start[c], end = mat->row_start[c + 1];

                                assert_non_null(lc);
                                assert_int_equal(json_object_size(lc), end - start);
                                for (uint64_t t = start; t < end; t++) {
                                        char wire[16];
                                        snprintf(wire, sizeof(wire), "%u", mat->col[t]);
                                        assert_non_null(json_object_get(lc, wire));
                                        expect_fr(&mat->coeff[t], json_object_get(lc, wire));
                                }
                        }
                }
        }
        assert_null(ref_next(ref));
        assert_int_equal(ref_close(ref), 0);
}

static void test_wtns_matches_snarkjs(void **state) {
        FILE *ref = dump_fixtures("wtns");

        (void)state;
        for (size_t f = 0; f < n_fixture_circuits; f++) {
                _cleanup_free_ char *path = fixture_file(fixture_circuits[f], "wtns");
                _cleanup_(wtns_freep) struct wtns *w = NULL;
                json_auto_t *line = NULL;
                const json_t *values;

                assert_int_equal(wtns_load(path, &w), 0);
                line = next_line(ref);
                values = json_object_get(line, "values");
                assert_int_equal(json_array_size(values), w->n_values);
                for (uint32_t i = 0; i < w->n_values; i++)
                        expect_fr(&w->values[i], json_array_get(values, i));
        }
        assert_int_equal(ref_close(ref), 0);
}

/* The edge circuit's witness holds 0, 1 and r - 1, as it was built to. */
static void test_wtns_edge_values(void **state) {
        _cleanup_free_ char *path = fixture_file("edge", "wtns");
        _cleanup_(wtns_freep) struct wtns *w = NULL;
        bool zero = false, one = false, minus_one = false;
        fr_t m1;

        (void)state;
        fr_set_one(&m1);
        fr_neg(&m1, &m1);
        assert_int_equal(wtns_load(path, &w), 0);
        for (uint32_t i = 0; i < w->n_values; i++) {
                zero |= fr_is_zero(&w->values[i]);
                one |= i > 0 && fr_is_one(&w->values[i]);
                minus_one |= fr_equal(&w->values[i], &m1);
        }
        assert_true(zero && one && minus_one);
}

static void test_zkey_matches_snarkjs(void **state) {
        FILE *ref = dump_fixtures("zkey");

        (void)state;
        for (size_t f = 0; f < n_fixture_circuits; f++) {
                _cleanup_free_ char *path = fixture_file(fixture_circuits[f], "zkey");
                _cleanup_(zkey_freep) struct zkey *zk = NULL;
                json_auto_t *header = NULL, *ic = NULL, *coefs = NULL, *a = NULL, *b1 = NULL,
                            *b2 = NULL, *c = NULL, *h = NULL;
                const json_t *v;

                assert_int_equal(zkey_load(path, &zk), 0);
                header = next_line(ref);
                assert_string_equal(json_string_value(json_object_get(header, "protocol")),
                                    "groth16");
                assert_int_equal(json_u64(header, "nVars"), zk->n_vars);
                assert_int_equal(json_u64(header, "nPublic"), zk->n_public);
                assert_int_equal(json_u64(header, "domainSize"), zk->domain_size);
                assert_int_equal(json_u64(header, "power"), zk->log2_domain_size);
                expect_g1(&zk->alpha1, json_object_get(header, "vk_alpha_1"));
                expect_g1(&zk->beta1, json_object_get(header, "vk_beta_1"));
                expect_g2(&zk->beta2, json_object_get(header, "vk_beta_2"));
                expect_g2(&zk->gamma2, json_object_get(header, "vk_gamma_2"));
                expect_g1(&zk->delta1, json_object_get(header, "vk_delta_1"));
                expect_g2(&zk->delta2, json_object_get(header, "vk_delta_2"));

                ic = next_line(ref);
                expect_g1_array(zk->ic, zk->n_public + 1, ic, "IC");

                coefs = next_line(ref);
                v = json_object_get(coefs, "ccoefs");
                assert_int_equal(json_array_size(v), zk->n_coefs);
                for (uint32_t i = 0; i < zk->n_coefs; i++) {
                        const json_t *e = json_array_get(v, i);
                        assert_int_equal(json_integer_value(json_array_get(e, 0)),
                                         zk->coefs[i].matrix);
                        assert_int_equal(json_integer_value(json_array_get(e, 1)),
                                         zk->coefs[i].constraint);
                        assert_int_equal(json_integer_value(json_array_get(e, 2)),
                                         zk->coefs[i].signal);
                        expect_fr(&zk->coefs[i].value, json_array_get(e, 3));
                }

                a = next_line(ref);
                expect_g1_array(zk->a, zk->n_vars, a, "A");
                b1 = next_line(ref);
                expect_g1_array(zk->b1, zk->n_vars, b1, "B1");
                b2 = next_line(ref);
                v = json_object_get(b2, "B2");
                assert_int_equal(json_array_size(v), zk->n_vars);
                for (uint32_t i = 0; i < zk->n_vars; i++)
                        expect_g2(&zk->b2[i], json_array_get(v, i));
                c = next_line(ref);
                expect_g1_array(zk->c, zkey_n_private(zk), c, "C");
                h = next_line(ref);
                expect_g1_array(zk->h, zk->domain_size, h, "hExps");
        }
        assert_int_equal(ref_close(ref), 0);
}

/*
 * The three binaries of a circuit agree: sizes, the zkey's coefficients are
 * the R1CS's A and B terms in file order plus snarkjs's public-input rows,
 * and the witness satisfies every constraint.
 */
static void test_files_consistent(void **state) {
        (void)state;
        for (size_t f = 0; f < n_fixture_circuits; f++) {
                _cleanup_free_ char *r1cs_path = fixture_file(fixture_circuits[f], "r1cs");
                _cleanup_free_ char *wtns_path = fixture_file(fixture_circuits[f], "wtns");
                _cleanup_free_ char *zkey_path = fixture_file(fixture_circuits[f], "zkey");
                _cleanup_(r1cs_freep) struct r1cs *cs = NULL;
                _cleanup_(wtns_freep) struct wtns *w = NULL;
                _cleanup_(zkey_freep) struct zkey *zk = NULL;
                _cleanup_free_ fr_t *ev = NULL;
                uint32_t k = 0;

                assert_int_equal(r1cs_load(r1cs_path, &cs), 0);
                assert_int_equal(wtns_load(wtns_path, &w), 0);
                assert_int_equal(zkey_load(zkey_path, &zk), 0);

                assert_int_equal(w->n_values, cs->n_wires);
                assert_int_equal(zk->n_vars, cs->n_wires);
                assert_int_equal(zk->n_public, r1cs_n_public(cs));
                assert_true(zk->domain_size >= (uint64_t)cs->n_constraints + zk->n_public + 1);
                assert_true(zk->domain_size / 2 < (uint64_t)cs->n_constraints + zk->n_public + 1);

                for (uint32_t c = 0; c < cs->n_constraints; c++)
                        for (uint32_t m = 0; m < 2; m++) {
                                const struct sparse_matrix *mat = &cs->matrices[m];
                                for (uint64_t t = mat->row_start[c]; t < mat->row_start[c + 1];
                                     t++, k++) {
                                        assert_true(k < zk->n_coefs);
                                        assert_int_equal(zk->coefs[k].matrix, m);
                                        assert_int_equal(zk->coefs[k].constraint, c);
                                        assert_int_equal(zk->coefs[k].signal, mat->col[t]);
                                        assert_true(fr_equal(&zk->coefs[k].value, &mat->coeff[t]));
                                }
                        }
                for (uint32_t s = 0; s <= zk->n_public; s++, k++) {
                        assert_true(k < zk->n_coefs);
                        assert_int_equal(zk->coefs[k].matrix, ZKEY_MATRIX_A);
                        assert_int_equal(zk->coefs[k].constraint, cs->n_constraints + s);
                        assert_int_equal(zk->coefs[k].signal, s);
                        assert_true(fr_is_one(&zk->coefs[k].value));
                }
                assert_int_equal(k, zk->n_coefs);

                ev = malloc(3 * (size_t)cs->n_constraints * sizeof(fr_t) + sizeof(fr_t));
                assert_non_null(ev);
                for (size_t m = 0; m < R1CS_N_MATRICES; m++)
                        sparse_mul_vector(&cs->matrices[m], w->values, ev + m * cs->n_constraints);
                for (uint32_t c = 0; c < cs->n_constraints; c++) {
                        fr_t ab;
                        fr_mul(&ab, &ev[c], &ev[cs->n_constraints + c]);
                        assert_true(fr_equal(&ab, &ev[2 * cs->n_constraints + c]));
                }
        }
}

/* A scratch directory for files the test writes, removed with its files. */
struct scratch {
        char dir[64];
};

static struct scratch scratch_new(void) {
        struct scratch s = {.dir = "/tmp/test-formats-XXXXXX"};
        assert_non_null(mkdtemp(s.dir));
        return s;
}

static char *scratch_path(const struct scratch *s, const char *name) {
        char *path;
        assert_true(asprintf(&path, "%s/%s", s->dir, name) >= 0);
        return path;
}

static void scratch_done(struct scratch *s) {
        DIR *d = opendir(s->dir);
        struct dirent *e;

        assert_non_null(d);
        while ((e = readdir(d)))
                if (e->d_name[0] != '.') {
                        _cleanup_free_ char *p = scratch_path(s, e->d_name);
                        assert_int_equal(unlink(p), 0);
                }
        closedir(d);
        assert_int_equal(rmdir(s->dir), 0);
}

static void expect_same_file(const char *a, const char *b) {
        size_t n;
        _cleanup_free_ uint8_t *data = read_whole_file(a, &n);
        if (!file_equals(b, data, n))
                fail_msg("%s differs from %s", a, b);
}

/* vk.json: the zkey's key written as snarkjs exports it, and read back. */
static void test_vk_json(void **state) {
        struct scratch s = scratch_new();

        (void)state;
        for (size_t f = 0; f < n_fixture_circuits; f++) {
                _cleanup_free_ char *zkey_path = fixture_file(fixture_circuits[f], "zkey");
                _cleanup_free_ char *vk_path = fixture_file(fixture_circuits[f], "vk.json");
                _cleanup_free_ char *out = scratch_path(&s, "vk.json");
                _cleanup_(zkey_freep) struct zkey *zk = NULL;
                _cleanup_(snarkjs_vk_freep) struct groth16_vk *from_zkey = NULL, *from_file = NULL;

                assert_int_equal(zkey_load(zkey_path, &zk), 0);
                assert_int_equal(snarkjs_vk_from_zkey(zk, &from_zkey), 0);
                assert_int_equal(snarkjs_vk_save(out, from_zkey), 0);
                expect_same_file(out, vk_path);

                assert_int_equal(snarkjs_vk_load(vk_path, &from_file), 0);
                assert_int_equal(from_file->n_public, zk->n_public);
                assert_true(from_file->has_alphabeta);
                assert_true(g1_affine_equal(&from_file->alpha1, &zk->alpha1));
                assert_true(g2_affine_equal(&from_file->beta2, &zk->beta2));
                assert_true(g2_affine_equal(&from_file->gamma2, &zk->gamma2));
                assert_true(g2_affine_equal(&from_file->delta2, &zk->delta2));
                for (uint32_t i = 0; i <= zk->n_public; i++)
                        assert_true(g1_affine_equal(&from_file->ic[i], &zk->ic[i]));
                assert_memory_equal(from_file->alphabeta, from_zkey->alphabeta,
                                    sizeof(from_file->alphabeta));

                assert_int_equal(snarkjs_vk_save(out, from_file), 0);
                expect_same_file(out, vk_path);
        }
        scratch_done(&s);
}

static void free_fr_array(fr_t **p) {
        free(*p);
}

/* snarkjs's proof and public signals: read, written back identically,
 * the signals are the witness's public wires, and zk/ accepts the proof. */
static void test_proof_json(void **state) {
        struct scratch s = scratch_new();

        (void)state;
        for (size_t f = 0; f < n_fixture_circuits; f++) {
                _cleanup_free_ char *proof_path = fixture_file(fixture_circuits[f], "proof.json");
                _cleanup_free_ char *public_path = fixture_file(fixture_circuits[f], "public.json");
                _cleanup_free_ char *vk_path = fixture_file(fixture_circuits[f], "vk.json");
                _cleanup_free_ char *wtns_path = fixture_file(fixture_circuits[f], "wtns");
                _cleanup_free_ char *proof_out = scratch_path(&s, "proof.json");
                _cleanup_free_ char *public_out = scratch_path(&s, "public.json");
                _cleanup_(snarkjs_vk_freep) struct groth16_vk *vk = NULL;
                _cleanup_(wtns_freep) struct wtns *w = NULL;
                _cleanup_(free_fr_array) fr_t *signals = NULL;
                struct groth16_proof proof;
                size_t n_signals;
                fr_t one;

                assert_int_equal(snarkjs_proof_load(proof_path, &proof), 0);
                assert_int_equal(snarkjs_proof_save(proof_out, &proof), 0);
                expect_same_file(proof_out, proof_path);

                assert_int_equal(snarkjs_public_load(public_path, &signals, &n_signals), 0);
                assert_int_equal(snarkjs_public_save(public_out, signals, n_signals), 0);
                expect_same_file(public_out, public_path);

                assert_int_equal(wtns_load(wtns_path, &w), 0);
                assert_int_equal(snarkjs_vk_load(vk_path, &vk), 0);
                assert_int_equal(n_signals, vk->n_public);
                for (size_t i = 0; i < n_signals; i++)
                        assert_true(fr_equal(&signals[i], &w->values[1 + i]));

                assert_int_equal(groth16_verify(vk, signals, &proof), 1);
                if (n_signals > 0) {
                        fr_set_one(&one);
                        fr_add(&signals[0], &signals[0], &one);
                        assert_int_equal(groth16_verify(vk, signals, &proof), 0);
                }
        }
        scratch_done(&s);
}

/*
 * zk/'s prover on the loaded zkey and witness: its proof verifies with zk/
 * and, written as proof.json, with snarkjs.
 */
static void test_prove_from_zkey(void **state) {
        struct scratch s = scratch_new();
        char args[4096];
        size_t used = 0;
        FILE *ref;

        (void)state;
        for (size_t f = 0; f < n_fixture_circuits; f++) {
                const char *name = fixture_circuits[f];
                _cleanup_free_ char *zkey_path = fixture_file(name, "zkey");
                _cleanup_free_ char *wtns_path = fixture_file(name, "wtns");
                _cleanup_free_ char *vk_path = fixture_file(name, "vk.json");
                _cleanup_free_ char *proof_name = NULL, *public_name = NULL;
                _cleanup_free_ char *proof_out = NULL, *public_out = NULL;
                _cleanup_(zkey_freep) struct zkey *zk = NULL;
                _cleanup_(wtns_freep) struct wtns *w = NULL;
                _cleanup_(snarkjs_vk_freep) struct groth16_vk *vk = NULL;
                struct sparse_matrix a = {0}, b = {0};
                struct groth16_pk pk;
                struct groth16_constraints cs;
                struct groth16_proof proof;

                assert_int_equal(zkey_load(zkey_path, &zk), 0);
                assert_int_equal(wtns_load(wtns_path, &w), 0);
                assert_int_equal(snarkjs_vk_load(vk_path, &vk), 0);
                zkey_to_groth16_pk(zk, &pk);
                assert_int_equal(zkey_to_groth16_matrices(zk, &a, &b), 0);
                cs = (struct groth16_constraints){.a = &a, .b = &b, .c = NULL};

                assert_int_equal(groth16_prove(&pk, &cs, w->values, &proof, 0), 0);
                sparse_free(&a);
                sparse_free(&b);
                assert_int_equal(groth16_verify(vk, w->values + 1, &proof), 1);

                assert_true(asprintf(&proof_name, "%s.proof.json", name) >= 0);
                assert_true(asprintf(&public_name, "%s.public.json", name) >= 0);
                proof_out = scratch_path(&s, proof_name);
                public_out = scratch_path(&s, public_name);
                assert_int_equal(snarkjs_proof_save(proof_out, &proof), 0);
                assert_int_equal(snarkjs_public_save(public_out, w->values + 1, zk->n_public), 0);
                used += (size_t)snprintf(args + used, sizeof(args) - used, " '%s' '%s' '%s'",
                                         vk_path, public_out, proof_out);
                assert_true(used < sizeof(args));
        }

        /* One snarkjs run checks them all, in order. */
        ref = ref_run("fixture-verify.js", args);
        for (size_t f = 0; f < n_fixture_circuits; f++) {
                json_auto_t *verdict = next_line(ref);
                if (!json_is_true(json_object_get(verdict, "ok")))
                        fail_msg("snarkjs refuses zk/'s proof for %s", fixture_circuits[f]);
        }
        assert_int_equal(ref_close(ref), 0);
        scratch_done(&s);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_r1cs_matches_snarkjs),
                cmocka_unit_test(test_wtns_matches_snarkjs),
                cmocka_unit_test(test_wtns_edge_values),
                cmocka_unit_test(test_zkey_matches_snarkjs),
                cmocka_unit_test(test_files_consistent),
                cmocka_unit_test(test_vk_json),
                cmocka_unit_test(test_proof_json),
                cmocka_unit_test(test_prove_from_zkey),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
