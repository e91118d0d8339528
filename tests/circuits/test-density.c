/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Wire densities and keys in bellperson's layout (zk/density.h,
 * zk/groth16_pack.h, formats/bellperson_params.h):
 *   - a circuit's density (its PCE's columns) sets exactly the wires whose
 *     key points are not infinity; the index of a wire and the gathered scalars
 *     match a plain count, with and without a partial last word;
 *   - a packed key (A, B_G1, B_G2 for the density's wires only) gives the
 *     same A, B_G1, L, H and B_G2 sums as the key with a point per wire,
 *     the same memory shape, and a proof that verifies;
 *   - written as .params it holds the density's point counts, is refused
 *     without densities (-EOPNOTSUPP), with a density of another count
 *     (-EBADMSG) or wire count (-EINVAL), and proves with them;
 *   - packing refuses a density that leaves out a wire with a point.
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
#include "circuits/pce.h"
#include "common/log.h"
#include "formats/bellperson_params.h"
#include "tests/lib/setup-circuit.h"
#include "zk/density.h"
#include "zk/groth16_pack.h"
#include "zk/groth16_partition.h"
#include "zk/groth16_setup.h"

static const uint8_t seed[] = "test-density";

static void keys_for(const struct test_circuit *tc, struct groth16_keys **ret) {
        test_circuit_keys(tc, seed, sizeof(seed), ret);
}

/* The circuit's A and B densities, as the prover takes them: from its PCE. */
static void circuit_densities(const struct test_circuit *tc, struct wire_density **a,
                              struct wire_density **b) {
        _cleanup_(pce_freep) struct pce *pce = NULL;

        assert_int_equal(pce_from_sparse(&tc->a, &tc->b, &tc->c, (uint32_t)tc->n_public, 0, &pce),
                         0);
        assert_int_equal(pce_wire_density(pce, PCE_A, a), 0);
        assert_int_equal(pce_wire_density(pce, PCE_B, b), 0);
}

static void random_scalars(fr_t *s, size_t n, uint64_t x) {
        for (size_t i = 0; i < n; i++) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                fr_from_u64(&s[i], x >> 11);
        }
}

static void test_bits_index_gather(void **state) {
        (void)state;
        /* 64 * 3 + 5 wires: a partial last word */
        for (size_t n_wires = 1; n_wires <= 197; n_wires += 49) {
                _cleanup_(wire_density_freep) struct wire_density *d = NULL;
                _cleanup_free_ fr_t *w = calloc(n_wires, sizeof(fr_t));
                _cleanup_free_ fr_t *out = calloc(n_wires, sizeof(fr_t));
                size_t count = 0;

                assert_non_null(w);
                assert_non_null(out);
                random_scalars(w, n_wires, n_wires);
                assert_int_equal(wire_density_new(&d, n_wires), 0);
                for (size_t j = 0; j < n_wires; j++)
                        if ((j * 7 + n_wires) % 3 == 0)
                                wire_density_set(d, j);
                wire_density_seal(d);
                wire_density_gather(d, w, out);
                for (size_t j = 0; j < n_wires; j++) {
                        const bool set = (j * 7 + n_wires) % 3 == 0;
                        assert_int_equal(wire_density_has(d, j), set);
                        if (!set)
                                continue;
                        assert_int_equal(wire_density_index(d, j), count);
                        assert_memory_equal(&out[count], &w[j], sizeof(fr_t));
                        count++;
                }
                assert_int_equal(d->count, count);
        }
}

/* The key's per-wire arrays and the circuit's densities agree. */
static void expect_density_matches_key(const struct wire_density *a, const struct wire_density *b,
                                       const struct groth16_pk *pk) {
        for (size_t j = 0; j < pk->n_vars; j++) {
                assert_int_equal(wire_density_has(a, j), !g1_affine_is_infinity(&pk->a[j]));
                assert_int_equal(wire_density_has(b, j), !g1_affine_is_infinity(&pk->b1[j]));
                assert_int_equal(wire_density_has(b, j), !g2_affine_is_infinity(&pk->b2[j]));
        }
}

static void test_packed_key_proves(void **state) {
        _cleanup_(groth16_keys_freep) struct groth16_keys *k = NULL;
        _cleanup_(wire_density_freep) struct wire_density *a = NULL, *b = NULL;
        _cleanup_(groth16_packed_arrays_free) struct groth16_packed_arrays arrays = {0};
        struct groth16_msm_results full, packed;
        struct groth16_partition_shape full_shape, packed_shape;
        struct groth16_constraints cs;
        struct groth16_proof proof;
        struct groth16_pk pk;
        struct test_circuit tc;
        fr_t *h;

        (void)state;
        test_circuit_make(&tc, 10, 2, 7);
        keys_for(&tc, &k);
        circuit_densities(&tc, &a, &b);
        expect_density_matches_key(a, b, &k->pk);
        /* B holds a fraction of the wires: the layout matters */
        assert_true(b->count < tc.n_vars / 2);
        assert_true(b->count > 0);

        assert_int_equal(groth16_pk_pack(&k->pk, a, b, &arrays, &pk), 0);
        assert_int_equal(groth16_pk_a_points(&pk), a->count);
        assert_int_equal(groth16_pk_b_points(&pk), b->count);

        /* the same sums as with a point per wire */
        h = calloc(groth16_h_bases(pk.h_convention, pk.log_domain_size), sizeof(fr_t));
        assert_non_null(h);
        random_scalars(h, groth16_h_bases(pk.h_convention, pk.log_domain_size), 99);
        assert_int_equal(groth16_msm_g1(&k->pk, tc.w, h, &full, 0), 0);
        assert_int_equal(groth16_msm_g1(&pk, tc.w, h, &packed, 0), 0);
        assert_int_equal(groth16_msm_b_g2(&k->pk, tc.w, &full.b2, 0), 0);
        assert_int_equal(groth16_msm_b_g2(&pk, tc.w, &packed.b2, 0), 0);
        assert_true(g1_jac_equal(&full.a, &packed.a));
        assert_true(g1_jac_equal(&full.b1, &packed.b1));
        assert_true(g1_jac_equal(&full.l, &packed.l));
        assert_true(g1_jac_equal(&full.h, &packed.h));
        assert_true(g2_jac_equal(&full.b2, &packed.b2));
        free(h);

        /* the same windows in the memory model, plus the gathered scalars */
        groth16_partition_shape_from_witness(&full_shape, &k->pk, tc.w, 0);
        groth16_partition_shape_from_witness(&packed_shape, &pk, tc.w, 0);
        assert_int_equal(full_shape.g1_windowed, packed_shape.g1_windowed);
        assert_int_equal(full_shape.g2_windowed, packed_shape.g2_windowed);
        assert_int_equal(full_shape.gathered, 0);
        assert_int_equal(packed_shape.gathered, a->count > b->count ? a->count : b->count);
        assert_true(groth16_partition_bytes(&packed_shape) > groth16_partition_bytes(&full_shape));

        cs = (struct groth16_constraints){.a = &tc.a, .b = &tc.b, .c = &tc.c};
        assert_int_equal(groth16_prove(&pk, &cs, tc.w, &proof, 0), 0);
        assert_int_equal(groth16_verify(&k->vk, tc.w + 1, &proof), 1);
        test_circuit_free(&tc);
}

static char tmpdir[] = "/tmp/test-density-XXXXXX";

static void test_params_file(void **state) {
        _cleanup_(groth16_keys_freep) struct groth16_keys *k = NULL;
        _cleanup_(wire_density_freep) struct wire_density *a = NULL, *b = NULL, *short_d = NULL;
        _cleanup_(groth16_packed_arrays_free) struct groth16_packed_arrays arrays = {0};
        _cleanup_(bellperson_params_freep) struct bellperson_params *p = NULL;
        struct groth16_constraints cs;
        struct groth16_proof proof;
        struct groth16_pk packed, pk;
        struct test_circuit tc;
        char path[256];

        (void)state;
        test_circuit_make(&tc, 9, 3, 11);
        keys_for(&tc, &k);
        circuit_densities(&tc, &a, &b);
        assert_int_equal(groth16_pk_pack(&k->pk, a, b, &arrays, &packed), 0);
        snprintf(path, sizeof(path), "%s/packed.params", tmpdir);
        assert_int_equal(bellperson_params_save(path, &packed, &k->vk), 0);

        assert_int_equal(bellperson_params_load(path, true, &p), 0);
        assert_int_equal(p->n_a, a->count);
        assert_int_equal(p->n_b_g1, b->count);
        assert_int_equal(p->n_b_g2, b->count);
        log_set_max_level(LOG_CRIT); /* the refusals below are logged */
        assert_int_equal(bellperson_params_to_pk(p, NULL, NULL, &pk), -EOPNOTSUPP);
        assert_int_equal(bellperson_params_to_pk(p, a, NULL, &pk), -EOPNOTSUPP);
        /* A's density for B: another count */
        assert_int_equal(bellperson_params_to_pk(p, a, a, &pk), -EBADMSG);
        assert_int_equal(wire_density_new(&short_d, tc.n_vars - 1), 0);
        wire_density_seal(short_d);
        assert_int_equal(bellperson_params_to_pk(p, short_d, b, &pk), -EINVAL);
        log_set_max_level(LOG_INFO);

        assert_int_equal(bellperson_params_to_pk(p, a, b, &pk), 0);
        for (size_t i = 0; i < b->count; i++) {
                assert_true(g1_affine_equal(&pk.b1[i], &packed.b1[i]));
                assert_true(g2_affine_equal(&pk.b2[i], &packed.b2[i]));
        }
        cs = (struct groth16_constraints){.a = &tc.a, .b = &tc.b, .c = &tc.c};
        assert_int_equal(groth16_prove(&pk, &cs, tc.w, &proof, 0), 0);
        assert_int_equal(groth16_verify(&k->vk, tc.w + 1, &proof), 1);
        /* a wrong witness value on a B wire breaks the proof */
        for (size_t j = tc.n_public + 1; j < tc.n_vars; j++)
                if (wire_density_has(b, j)) {
                        fr_add(&tc.w[j], &tc.w[j], &tc.w[0]);
                        break;
                }
        assert_int_equal(groth16_prove(&pk, &cs, tc.w, &proof, 0), 0);
        assert_int_equal(groth16_verify(&k->vk, tc.w + 1, &proof), 0);
        unlink(path);
        test_circuit_free(&tc);
}

static void test_pack_refuses_foreign_density(void **state) {
        _cleanup_(groth16_keys_freep) struct groth16_keys *k = NULL;
        _cleanup_(wire_density_freep) struct wire_density *a = NULL, *b = NULL;
        struct groth16_packed_arrays arrays = {0};
        struct groth16_pk pk;
        struct test_circuit tc;

        (void)state;
        test_circuit_make(&tc, 9, 2, 5);
        keys_for(&tc, &k);
        circuit_densities(&tc, &a, &b);
        /* B's density for A leaves out wires whose A point is not infinity */
        assert_int_equal(groth16_pk_pack(&k->pk, b, b, &arrays, &pk), -EINVAL);
        assert_null(arrays.a);
        test_circuit_free(&tc);
}

static int setup_tmpdir(void **state) {
        (void)state;
        return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state) {
        (void)state;
        return rmdir(tmpdir);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_bits_index_gather),
                cmocka_unit_test(test_packed_key_proves),
                cmocka_unit_test(test_params_file),
                cmocka_unit_test(test_pack_refuses_foreign_density),
        };
        return cmocka_run_group_tests(tests, setup_tmpdir, remove_tmpdir);
}
