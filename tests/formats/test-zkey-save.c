/* SPDX-License-Identifier: Apache-2.0 */
/*
 * formats/zkey-write.h against the .zkey files snarkjs made for the fixtures:
 *   - zkey_save(zkey_load(F)) has sections 1 to 9 byte for byte as in F, in
 *     snarkjs's order, and a section 10 with no contributions;
 *   - zkey_new_from_r1cs() on the fixture's .r1cs gives F's sizes and its
 *     coefficient section entry for entry (binding rows included);
 *   - a key from groth16_setup_snarkjs() saved and loaded back proves and
 *     verifies with zk/groth16 on the fixture's witness; a key in
 *     bellperson's convention is refused.
 * (tests/formats/test-zkey-write.sh checks the keys against snarkjs itself.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "formats/binfile.h"
#include "formats/r1cs.h"
#include "formats/wtns.h"
#include "formats/zkey-write.h"
#include "formats/zkey.h"
#include "tests/lib/formats-common.h"
#include "zk/groth16_setup.h"

/* snarkjs's order of sections in a new key (zkey_new.js). */
static const uint32_t SNARKJS_ORDER[] = {1, 2, 4, 3, 9, 8, 5, 6, 7, 10};

static char *temp_path(const char *name) {
        char *path = NULL;

        assert_true(asprintf(&path, "/tmp/test-zkey-save-%d-%s", (int)getpid(), name) > 0);
        return path;
}

static const struct binfile_section *section_of(const struct binfile *bf, uint32_t type) {
        for (uint32_t i = 0; i < bf->n_sections; i++)
                if (bf->sections[i].type == type)
                        return &bf->sections[i];
        fail_msg("%s: no section %u", bf->path, type);
        return NULL;
}

static void test_round_trip(void **state) {
        (void)state;
        for (size_t i = 0; i < n_fixture_circuits; i++) {
                _cleanup_free_ char *path = fixture_file(fixture_circuits[i], "zkey");
                _cleanup_free_ char *out = temp_path("round-trip.zkey");
                _cleanup_(zkey_freep) struct zkey *zk = NULL;
                _cleanup_(binfile_closep) struct binfile *orig = NULL, *ours = NULL;
                const struct binfile_section *s10;

                assert_int_equal(zkey_load(path, &zk), 0);
                assert_int_equal(zkey_save(out, zk, NULL), 0);
                assert_int_equal(binfile_open(path, "zkey", 2, &orig), 0);
                assert_int_equal(binfile_open(out, "zkey", 2, &ours), 0);
                unlink(out);

                assert_int_equal(ours->version, 1);
                assert_int_equal(ours->n_sections, ELEMENTSOF(SNARKJS_ORDER));
                for (size_t j = 0; j < ELEMENTSOF(SNARKJS_ORDER); j++)
                        assert_int_equal(ours->sections[j].type, SNARKJS_ORDER[j]);
                for (uint32_t type = 1; type <= 9; type++) {
                        const struct binfile_section *a = section_of(orig, type);
                        const struct binfile_section *b = section_of(ours, type);

                        assert_int_equal(a->size, b->size);
                        if (memcmp(orig->data + a->offset, ours->data + b->offset, a->size))
                                fail_msg("%s: section %u differs", fixture_circuits[i], type);
                }
                /* A zero hash and no contributions. */
                s10 = section_of(ours, 10);
                assert_int_equal(s10->size, ZKEY_CS_HASH_BYTES + 4);
                for (size_t b = 0; b < s10->size; b++)
                        assert_int_equal(ours->data[s10->offset + b], 0);
                print_message("%s: sections 1-9 as snarkjs wrote them (%zu bytes)\n",
                              fixture_circuits[i], orig->size);
        }
}

static void test_coefficients_from_r1cs(void **state) {
        (void)state;
        for (size_t i = 0; i < n_fixture_circuits; i++) {
                _cleanup_free_ char *zkey_path = fixture_file(fixture_circuits[i], "zkey");
                _cleanup_free_ char *r1cs_path = fixture_file(fixture_circuits[i], "r1cs");
                _cleanup_(zkey_freep) struct zkey *ref = NULL, *zk = NULL;
                _cleanup_(r1cs_freep) struct r1cs *cs = NULL;

                assert_int_equal(zkey_load(zkey_path, &ref), 0);
                assert_int_equal(r1cs_load(r1cs_path, &cs), 0);
                assert_int_equal(zkey_new_from_r1cs(cs, r1cs_path, &zk), 0);
                assert_int_equal(zk->n_vars, ref->n_vars);
                assert_int_equal(zk->n_public, ref->n_public);
                assert_int_equal(zk->domain_size, ref->domain_size);
                assert_int_equal(zk->log2_domain_size, ref->log2_domain_size);
                assert_int_equal(zkey_log2_domain_size(cs), ref->log2_domain_size);
                assert_int_equal(zk->n_coefs, ref->n_coefs);
                for (uint32_t k = 0; k < zk->n_coefs; k++) {
                        const struct zkey_coef *a = &zk->coefs[k], *b = &ref->coefs[k];

                        if (a->matrix != b->matrix || a->constraint != b->constraint ||
                            a->signal != b->signal || !fr_equal(&a->value, &b->value))
                                fail_msg("%s: coefficient %u differs from snarkjs's",
                                         fixture_circuits[i], k);
                }
                assert_null(zk->a);
                print_message("%s: %u coefficients as snarkjs's\n", fixture_circuits[i],
                              zk->n_coefs);
        }
}

/* A key for the circuit from a fixed seed (gamma = delta = 1), in a zkey. */
static void make_key(const struct r1cs *cs, const char *origin, struct zkey **ret,
                     enum groth16_h_convention conv, int expect) {
        _cleanup_(zkey_freep) struct zkey *zk = NULL;
        _cleanup_(groth16_keys_freep) struct groth16_keys *k = NULL;
        _cleanup_(sparse_freep) struct sparse_matrix a = {0}, b = {0};
        struct groth16_toxic_waste tw;
        struct groth16_setup_circuit circuit;

        assert_int_equal(zkey_new_from_r1cs(cs, origin, &zk), 0);
        assert_int_equal(zkey_to_groth16_matrices(zk, &a, &b), 0);
        circuit = (struct groth16_setup_circuit){
                .a = &a,
                .b = &b,
                .c = &cs->matrices[R1CS_C],
                .n_vars = zk->n_vars,
                .n_public = zk->n_public,
                .log_domain_size = zk->log2_domain_size,
        };
        groth16_toxic_waste_from_seed(&tw, (const uint8_t *)"zkey", 4);
        fr_set_one(&tw.gamma);
        fr_set_one(&tw.delta);
        if (conv == GROTH16_H_SNARKJS)
                assert_int_equal(groth16_setup_snarkjs(&circuit, &tw, NULL, &k), 0);
        else
                assert_int_equal(groth16_setup(&circuit, &tw, NULL, &k), 0);
        log_capture(true);
        assert_int_equal(zkey_set_keys(zk, &k->pk, &k->vk), expect);
        log_capture(false);
        *ret = TAKE_PTR(zk);
}

static void test_setup_proves(void **state) {
        (void)state;
        for (size_t i = 0; i < n_fixture_circuits; i++) {
                _cleanup_free_ char *r1cs_path = fixture_file(fixture_circuits[i], "r1cs");
                _cleanup_free_ char *wtns_path = fixture_file(fixture_circuits[i], "wtns");
                _cleanup_free_ char *out = temp_path("setup.zkey");
                _cleanup_(zkey_freep) struct zkey *zk = NULL, *loaded = NULL;
                _cleanup_(r1cs_freep) struct r1cs *cs = NULL;
                _cleanup_(wtns_freep) struct wtns *w = NULL;
                _cleanup_(sparse_freep) struct sparse_matrix a = {0}, b = {0};
                struct groth16_constraints constraints = {.a = &a, .b = &b};
                struct groth16_vk vk;
                struct groth16_pk pk;
                struct groth16_proof proof;
                fr_t wrong;

                assert_int_equal(r1cs_load(r1cs_path, &cs), 0);
                assert_int_equal(wtns_load(wtns_path, &w), 0);
                make_key(cs, r1cs_path, &zk, GROTH16_H_SNARKJS, 0);
                assert_int_equal(zkey_save(out, zk, NULL), 0);
                assert_int_equal(zkey_load(out, &loaded), 0);
                unlink(out);

                zkey_to_groth16_pk(loaded, &pk);
                assert_int_equal(zkey_to_groth16_matrices(loaded, &a, &b), 0);
                assert_int_equal(w->n_values, loaded->n_vars);
                assert_int_equal(groth16_prove(&pk, &constraints, w->values, &proof, 0), 0);
                vk = (struct groth16_vk){
                        .n_public = loaded->n_public,
                        .alpha1 = loaded->alpha1,
                        .beta2 = loaded->beta2,
                        .gamma2 = loaded->gamma2,
                        .delta2 = loaded->delta2,
                        .ic = loaded->ic,
                };
                assert_int_equal(groth16_verify(&vk, w->values + 1, &proof), 1);
                /* gamma and delta are the generators, as in a new snarkjs key. */
                assert_true(g2_affine_equal(&loaded->gamma2, &G2_GENERATOR));
                assert_true(g2_affine_equal(&loaded->delta2, &G2_GENERATOR));
                assert_true(g1_affine_equal(&loaded->delta1, &G1_GENERATOR));
                /* Not vacuous: another public input fails. */
                if (loaded->n_public > 0) {
                        wrong = w->values[1];
                        fr_add(&w->values[1], &w->values[1], &wrong);
                        assert_int_equal(groth16_verify(&vk, w->values + 1, &proof), 0);
                        w->values[1] = wrong;
                }
                print_message("%s: a key from groth16_setup_snarkjs proves and verifies\n",
                              fixture_circuits[i]);
        }
}

static void test_refuses_bellperson(void **state) {
        _cleanup_free_ char *r1cs_path = fixture_file("edge", "r1cs");
        _cleanup_(zkey_freep) struct zkey *zk = NULL;
        _cleanup_(r1cs_freep) struct r1cs *cs = NULL;

        (void)state;
        assert_int_equal(r1cs_load(r1cs_path, &cs), 0);
        make_key(cs, r1cs_path, &zk, GROTH16_H_BELLPERSON, -EINVAL);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_round_trip),
                cmocka_unit_test(test_coefficients_from_r1cs),
                cmocka_unit_test(test_setup_proves),
                cmocka_unit_test(test_refuses_bellperson),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
