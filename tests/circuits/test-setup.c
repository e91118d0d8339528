/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Groth16 setup (zk/groth16_setup.h, zk/fixed_base.h):
 *   - fixed-base tables of every window width give k * P as the plain
 *     scalar multiplication does, edge scalars included; progressions give
 *     (start + i step) P;
 *   - on a 2^5 domain every point of a seeded key equals its definition,
 *     with the Lagrange basis computed independently (product formula);
 *   - keys for circuits of 2^10, 2^12 and 2^14 rows prove with
 *     groth16_prove and groth16_prove_partition, and groth16_verify accepts
 *     the proofs; a wrong witness or wrong public inputs are rejected; the
 *     same for a PoRep-shaped synthetic circuit of 2^13 rows through its
 *     PCE (pce_to_sparse for the setup, pce_evaluate for the proof);
 *   - .params/.vk files are written and read back identical, and the key
 *     read back proves; a timing-only key has the real key's densities,
 *     valid points, proofs that do not verify, and files marked as such;
 *   - bad toxic waste and bad sizes are refused.
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

#include "circuits/pce-setup.h"
#include "circuits/synthetic.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "formats/bellperson_params.h"
#include "formats/bellperson_vk.h"
#include "tests/lib/ref.h"
#include "tests/lib/setup-circuit.h"
#include "zk/fixed_base.h"
#include "zk/groth16_partition.h"
#include "zk/groth16_setup.h"

static const uint8_t test_seed[] = "test-setup";

static void keys_for(const struct test_circuit *tc, struct groth16_keys **ret) {
        test_circuit_keys(tc, test_seed, sizeof(test_seed), ret);
}

/* ---- fixed-base multiplication ---- */

static void edge_scalars(fr_t *s, size_t n) {
        uint64_t l[FR_LIMBS];

        assert_true(n >= 8);
        for (size_t i = 0; i < n; i++)
                test_rng_fr(&s[i]);
        fr_set_zero(&s[0]);
        fr_set_one(&s[1]);
        fr_neg(&s[2], &s[1]); /* r - 1: the top window's carry */
        fr_from_u64(&s[3], 2);
        /* 2^254 and 2^64 - 1: long runs of set and clear bits */
        memset(l, 0, sizeof(l));
        l[3] = UINT64_C(1) << 62;
        assert_true(fr_from_canonical(&s[4], l));
        fr_from_u64(&s[5], UINT64_MAX);
        /* 0x8000...: a window exactly at the signed-digit boundary */
        fr_from_u64(&s[6], UINT64_C(0x8000800080008000));
        fr_neg(&s[7], &s[6]);
}

static void test_fixed_base_g1(void **state) {
        const size_t hints[] = {1, 200, 20000, 1000000};
        fr_t s[40];

        (void)state;
        test_rng_seed(11);
        for (size_t h = 0; h < ELEMENTSOF(hints); h++) {
                _cleanup_(g1_fixed_base_freep) struct g1_fixed_base *t = NULL;
                g1_affine_t out[ELEMENTSOF(s)];

                edge_scalars(s, ELEMENTSOF(s));
                assert_int_equal(g1_fixed_base_new(&t, &G1_GENERATOR, hints[h], 0), 0);
                assert_int_equal(t->window_bits, fixed_base_window_bits(hints[h]));
                assert_int_equal(g1_fixed_base_mul(t, out, s, ELEMENTSOF(s), 0), 0);
                for (size_t i = 0; i < ELEMENTSOF(s); i++) {
                        g1_jac_t e;
                        g1_affine_t ea;

                        g1_jac_from_affine(&e, &G1_GENERATOR);
                        g1_jac_mul_fr(&e, &e, &s[i]);
                        g1_jac_to_affine(&ea, &e);
                        if (!g1_affine_equal(&ea, &out[i]))
                                fail_msg("window %u bits, scalar %zu differs", t->window_bits, i);
                }
        }
        /* The widest window (16 bits) for the hint of a large setup. */
        assert_int_equal(fixed_base_window_bits(1000000), FIXED_BASE_MAX_WINDOW_BITS);
        assert_true(fixed_base_window_bits(1) < 6);
}

static void test_fixed_base_g2(void **state) {
        const size_t hints[] = {1, 5000, 300000};
        fr_t s[24];

        (void)state;
        test_rng_seed(12);
        for (size_t h = 0; h < ELEMENTSOF(hints); h++) {
                _cleanup_(g2_fixed_base_freep) struct g2_fixed_base *t = NULL;
                g2_affine_t out[ELEMENTSOF(s)];
                g2_jac_t p;
                g2_affine_t base;

                /* a base other than the generator */
                g2_jac_from_affine(&p, &G2_GENERATOR);
                g2_jac_dbl(&p, &p);
                g2_jac_to_affine(&base, &p);
                edge_scalars(s, ELEMENTSOF(s));
                assert_int_equal(g2_fixed_base_new(&t, &base, hints[h], 0), 0);
                assert_int_equal(g2_fixed_base_mul(t, out, s, ELEMENTSOF(s), 0), 0);
                for (size_t i = 0; i < ELEMENTSOF(s); i++) {
                        g2_jac_t e;
                        g2_affine_t ea;

                        g2_jac_from_affine(&e, &base);
                        g2_jac_mul_fr(&e, &e, &s[i]);
                        g2_jac_to_affine(&ea, &e);
                        if (!g2_affine_equal(&ea, &out[i]))
                                fail_msg("window %u bits, scalar %zu differs", t->window_bits, i);
                }
        }
}

/* Many scalars over several chunks and threads: every result checked. */
static void test_fixed_base_many(void **state) {
        _cleanup_(g1_fixed_base_freep) struct g1_fixed_base *t = NULL;
        const size_t n = 5000;
        _cleanup_free_ fr_t *s = malloc(n * sizeof(fr_t));
        _cleanup_free_ g1_affine_t *out = malloc(n * sizeof(g1_affine_t));
        g1_jac_t acc;

        (void)state;
        assert_non_null(s);
        assert_non_null(out);
        /* consecutive scalars 0, 1, ..., n-1: each result is the previous plus G */
        for (size_t i = 0; i < n; i++)
                fr_from_u64(&s[i], i);
        assert_int_equal(g1_fixed_base_new(&t, &G1_GENERATOR, n, 0), 0);
        assert_int_equal(g1_fixed_base_mul(t, out, s, n, 3), 0);
        g1_jac_set_infinity(&acc);
        for (size_t i = 0; i < n; i++) {
                g1_affine_t e;

                g1_jac_to_affine(&e, &acc);
                if (!g1_affine_equal(&e, &out[i]))
                        fail_msg("%zu G differs", i);
                g1_jac_add_affine(&acc, &acc, &G1_GENERATOR);
        }
}

static void test_progression(void **state) {
        const size_t n = 3000, check[] = {0, 1, 2, 1023, 1024, 1500, 2047, 2999};
        _cleanup_free_ g1_affine_t *p1 = malloc(n * sizeof(g1_affine_t));
        _cleanup_free_ g2_affine_t *p2 = malloc(n * sizeof(g2_affine_t));
        fr_t start, step;

        (void)state;
        assert_non_null(p1);
        assert_non_null(p2);
        test_rng_seed(13);
        test_rng_fr(&start);
        test_rng_fr(&step);
        assert_int_equal(g1_arithmetic_progression(p1, n, &G1_GENERATOR, &start, &step, 3), 0);
        assert_int_equal(g2_arithmetic_progression(p2, n, &G2_GENERATOR, &start, &step, 2), 0);
        for (size_t c = 0; c < ELEMENTSOF(check); c++) {
                size_t i = check[c];
                g1_jac_t e1;
                g2_jac_t e2;
                g1_affine_t a1;
                g2_affine_t a2;
                fr_t k;

                fr_from_u64(&k, i);
                fr_mul(&k, &k, &step);
                fr_add(&k, &k, &start);
                g1_jac_from_affine(&e1, &G1_GENERATOR);
                g1_jac_mul_fr(&e1, &e1, &k);
                g1_jac_to_affine(&a1, &e1);
                g2_jac_from_affine(&e2, &G2_GENERATOR);
                g2_jac_mul_fr(&e2, &e2, &k);
                g2_jac_to_affine(&a2, &e2);
                assert_true(g1_affine_equal(&a1, &p1[i]));
                assert_true(g2_affine_equal(&a2, &p2[i]));
        }
}

/* ---- the key against its definition ---- */

static void g1_expect(const g1_affine_t *got, const fr_t *k, const char *what, size_t i) {
        g1_jac_t e;
        g1_affine_t ea;

        g1_jac_from_affine(&e, &G1_GENERATOR);
        g1_jac_mul_fr(&e, &e, k);
        g1_jac_to_affine(&ea, &e);
        if (!g1_affine_equal(&ea, got))
                fail_msg("%s[%zu] is not its scalar times G1", what, i);
}

static void g2_expect(const g2_affine_t *got, const fr_t *k, const char *what, size_t i) {
        g2_jac_t e;
        g2_affine_t ea;

        g2_jac_from_affine(&e, &G2_GENERATOR);
        g2_jac_mul_fr(&e, &e, k);
        g2_jac_to_affine(&ea, &e);
        if (!g2_affine_equal(&ea, got))
                fail_msg("%s[%zu] is not its scalar times G2", what, i);
}

/* sum over the terms of column j of m: coeff * lagrange[row] */
static void column_at(fr_t *r, const struct sparse_matrix *m, size_t j, const fr_t *lagrange) {
        fr_set_zero(r);
        for (uint32_t i = 0; i < m->n_rows; i++)
                for (uint64_t k = m->row_start[i]; k < m->row_start[i + 1]; k++)
                        if (m->col[k] == j) {
                                fr_t t;
                                fr_mul(&t, &m->coeff[k], &lagrange[i]);
                                fr_add(r, r, &t);
                        }
}

static void test_setup_definition(void **state) {
        const unsigned log_n = 5;
        const size_t n = (size_t)1 << log_n;
        _cleanup_(groth16_keys_freep) struct groth16_keys *k = NULL;
        struct test_circuit tc;
        struct groth16_toxic_waste tw;
        fr_t omega, lagrange[32], tau_i, z, delta_inv, gamma_inv, one;
        uint64_t e = n;

        (void)state;
        test_circuit_make(&tc, log_n, 2, 21);
        keys_for(&tc, &k);
        groth16_toxic_waste_from_seed(&tw, test_seed, sizeof(test_seed));
        assert_false(k->timing_only);
        assert_int_equal(k->pk.h_convention, GROTH16_H_BELLPERSON);
        assert_int_equal(k->pk.n_vars, tc.n_vars);
        assert_int_equal(k->vk.n_public, 2);

        /* L_i(tau) = prod_{k != i} (tau - w^k) / (w^i - w^k) */
        ntt_root_of_unity(&omega, log_n, NTT_ROOTS_BELLPERSON);
        for (size_t i = 0; i < n; i++) {
                fr_t num, den, wi, wk;
                uint64_t ei = i;

                fr_set_one(&num);
                fr_set_one(&den);
                fr_pow(&wi, &omega, &ei, 1);
                for (size_t kk = 0; kk < n; kk++) {
                        uint64_t ek = kk;
                        fr_t t;

                        if (kk == i)
                                continue;
                        fr_pow(&wk, &omega, &ek, 1);
                        fr_sub(&t, &tw.tau, &wk);
                        fr_mul(&num, &num, &t);
                        fr_sub(&t, &wi, &wk);
                        fr_mul(&den, &den, &t);
                }
                fr_inv(&den, &den);
                fr_mul(&lagrange[i], &num, &den);
        }

        fr_inv(&delta_inv, &tw.delta);
        fr_inv(&gamma_inv, &tw.gamma);
        for (size_t j = 0; j < tc.n_vars; j++) {
                fr_t u, v, w, s, t;

                column_at(&u, &tc.a, j, lagrange);
                column_at(&v, &tc.b, j, lagrange);
                column_at(&w, &tc.c, j, lagrange);
                g1_expect(&k->a[j], &u, "a", j);
                g1_expect(&k->b1[j], &v, "b_g1", j);
                g2_expect(&k->b2[j], &v, "b_g2", j);
                fr_mul(&s, &tw.beta, &u);
                fr_mul(&t, &tw.alpha, &v);
                fr_add(&s, &s, &t);
                fr_add(&s, &s, &w);
                if (j <= tc.n_public) {
                        fr_mul(&s, &s, &gamma_inv);
                        g1_expect(&k->ic[j], &s, "ic", j);
                } else {
                        fr_mul(&s, &s, &delta_inv);
                        g1_expect(&k->l[j - tc.n_public - 1], &s, "l", j);
                }
        }
        fr_pow(&z, &tw.tau, &e, 1);
        fr_set_one(&one);
        fr_sub(&z, &z, &one);
        fr_mul(&z, &z, &delta_inv);
        fr_set_one(&tau_i);
        for (size_t i = 0; i + 1 < n; i++) {
                fr_t s;

                fr_mul(&s, &tau_i, &z);
                g1_expect(&k->h[i], &s, "h", i);
                fr_mul(&tau_i, &tau_i, &tw.tau);
        }
        g1_expect(&k->pk.alpha1, &tw.alpha, "alpha1", 0);
        g1_expect(&k->vk.alpha1, &tw.alpha, "alpha1", 0);
        g1_expect(&k->pk.beta1, &tw.beta, "beta1", 0);
        g1_expect(&k->pk.delta1, &tw.delta, "delta1", 0);
        g2_expect(&k->pk.beta2, &tw.beta, "beta2", 0);
        g2_expect(&k->vk.gamma2, &tw.gamma, "gamma2", 0);
        g2_expect(&k->pk.delta2, &tw.delta, "delta2", 0);
        test_circuit_free(&tc);
}

/* ---- prove and verify ---- */

static void prove_verify(unsigned log_n, size_t n_public) {
        _cleanup_(groth16_keys_freep) struct groth16_keys *k = NULL;
        struct groth16_constraints cs;
        struct groth16_proof proof;
        struct test_circuit tc;
        fr_t saved, bad_public[4];

        test_circuit_make(&tc, log_n, n_public, 100 + log_n);
        keys_for(&tc, &k);
        cs = (struct groth16_constraints){.a = &tc.a, .b = &tc.b, .c = &tc.c};

        assert_int_equal(groth16_prove(&k->pk, &cs, tc.w, &proof, 0), 0);
        assert_int_equal(groth16_verify(&k->vk, tc.w + 1, &proof), 1);
        /* c = a o b (snarkjs's shortcut) gives the same H for a satisfying witness */
        cs.c = NULL;
        assert_int_equal(groth16_prove(&k->pk, &cs, tc.w, &proof, 0), 0);
        assert_int_equal(groth16_verify(&k->vk, tc.w + 1, &proof), 1);
        cs.c = &tc.c;
        assert_int_equal(
                groth16_prove_partition(&k->pk, groth16_evaluate_constraints, &cs, tc.w, &proof, 2),
                0);
        assert_int_equal(groth16_verify(&k->vk, tc.w + 1, &proof), 1);

        /* other public inputs */
        assert_true(n_public <= ELEMENTSOF(bad_public));
        memcpy(bad_public, tc.w + 1, n_public * sizeof(fr_t));
        fr_add(&bad_public[0], &bad_public[0], &tc.w[0]);
        assert_int_equal(groth16_verify(&k->vk, bad_public, &proof), 0);

        /* a witness that breaks one product row (the first private wire is x * y) */
        saved = tc.w[n_public + 1];
        fr_add(&tc.w[n_public + 1], &tc.w[n_public + 1], &tc.w[0]);
        assert_int_equal(groth16_prove(&k->pk, &cs, tc.w, &proof, 0), 0);
        assert_int_equal(groth16_verify(&k->vk, tc.w + 1, &proof), 0);
        assert_int_equal(
                groth16_prove_partition(&k->pk, groth16_evaluate_constraints, &cs, tc.w, &proof, 0),
                0);
        assert_int_equal(groth16_verify(&k->vk, tc.w + 1, &proof), 0);
        tc.w[n_public + 1] = saved;
        /* a wrong private bit */
        fr_add(&tc.w[tc.n_vars - 1], &tc.w[tc.n_vars - 1], &tc.w[0]);
        assert_int_equal(groth16_prove(&k->pk, &cs, tc.w, &proof, 0), 0);
        assert_int_equal(groth16_verify(&k->vk, tc.w + 1, &proof), 0);
        test_circuit_free(&tc);
}

static void test_prove_2_10(void **state) {
        (void)state;
        prove_verify(10, 1);
}

static void test_prove_2_12(void **state) {
        (void)state;
        prove_verify(12, 3);
}

static void test_prove_2_14(void **state) {
        (void)state;
        prove_verify(14, 4);
}

/* The PoRep-shaped generator's circuits (circuits/synthetic.h) through
 * their PCE: the setup from pce_to_sparse, proofs from pce_evaluate. */
static int evaluate_pce(void *userdata, const fr_t *w, size_t n_vars, unsigned log_domain_size,
                        fr_t *a, fr_t *b, fr_t *c) {
        return pce_evaluate(userdata, w, n_vars, log_domain_size, a, b, c);
}

static void test_prove_synthetic(void **state) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_(groth16_keys_freep) struct groth16_keys *k = NULL;
        _cleanup_free_ fr_t *w = NULL;
        struct synthetic_params params = {
                .seed = 5,
                .n_rows = 8192 - 64,
                .n_aux = SYNTHETIC_DEFAULT,
                .n_public = 6,
        };
        struct groth16_toxic_waste tw;
        struct groth16_proof proof;

        (void)state;
        assert_int_equal(synthetic_params_resolve(&params), 0);
        assert_int_equal(synthetic_generate(&params, &pce, &w), 0);
        groth16_toxic_waste_from_seed(&tw, test_seed, sizeof(test_seed));
        assert_int_equal(pce_groth16_setup(pce, &tw, NULL, &k), 0);

        assert_int_equal(groth16_prove_partition(&k->pk, evaluate_pce, pce, w, &proof, 0), 0);
        assert_int_equal(groth16_verify(&k->vk, w + 1, &proof), 1);
        /* one aux value off */
        fr_add(&w[pce->n_cols / 2], &w[pce->n_cols / 2], &w[0]);
        assert_int_equal(groth16_prove_partition(&k->pk, evaluate_pce, pce, w, &proof, 0), 0);
        assert_int_equal(groth16_verify(&k->vk, w + 1, &proof), 0);
}

/* ---- files ---- */

static char tmpdir[] = "/tmp/test-setup-XXXXXX";

static void tmp_path(char *buf, size_t size, const char *name) {
        snprintf(buf, size, "%s/%s", tmpdir, name);
}

static void assert_same_keys(const struct groth16_pk *a, const struct groth16_vk *avk,
                             const struct groth16_pk *b, const struct groth16_vk *bvk) {
        size_t n_h = groth16_h_bases(a->h_convention, a->log_domain_size);

        assert_int_equal(a->n_vars, b->n_vars);
        assert_int_equal(a->n_public, b->n_public);
        assert_int_equal(a->log_domain_size, b->log_domain_size);
        assert_int_equal(avk->n_public, bvk->n_public);
        assert_true(g1_affine_equal(&a->alpha1, &b->alpha1));
        assert_true(g1_affine_equal(&a->beta1, &b->beta1));
        assert_true(g1_affine_equal(&a->delta1, &b->delta1));
        assert_true(g2_affine_equal(&a->beta2, &b->beta2));
        assert_true(g2_affine_equal(&a->delta2, &b->delta2));
        assert_true(g2_affine_equal(&avk->gamma2, &bvk->gamma2));
        for (size_t j = 0; j < a->n_vars; j++) {
                assert_true(g1_affine_equal(&a->a[j], &b->a[j]));
                assert_true(g1_affine_equal(&a->b1[j], &b->b1[j]));
                assert_true(g2_affine_equal(&a->b2[j], &b->b2[j]));
        }
        for (size_t j = 0; j < a->n_vars - a->n_public - 1; j++)
                assert_true(g1_affine_equal(&a->l[j], &b->l[j]));
        for (size_t i = 0; i < n_h; i++)
                assert_true(g1_affine_equal(&a->h[i], &b->h[i]));
        for (size_t i = 0; i <= avk->n_public; i++)
                assert_true(g1_affine_equal(&avk->ic[i], &bvk->ic[i]));
}

static void test_files_round_trip(void **state) {
        _cleanup_(groth16_keys_freep) struct groth16_keys *k = NULL;
        _cleanup_(bellperson_params_freep) struct bellperson_params *p = NULL;
        _cleanup_(bellperson_vk_freep) struct bellperson_vk *vk = NULL;
        char params_path[256], vk_path[256];
        struct groth16_constraints cs;
        struct groth16_proof proof;
        struct groth16_pk pk;
        struct test_circuit tc;

        (void)state;
        test_circuit_make(&tc, 9, 2, 31);
        keys_for(&tc, &k);
        tmp_path(params_path, sizeof(params_path), "real.params");
        tmp_path(vk_path, sizeof(vk_path), "real.vk");
        assert_int_equal(bellperson_params_save(params_path, &k->pk, &k->vk), 0);
        assert_int_equal(bellperson_vk_save(vk_path, &k->vk, &k->pk.beta1, &k->pk.delta1), 0);

        assert_int_equal(bellperson_params_load(params_path, true, &p), 0);
        assert_false(p->timing_only);
        assert_false(p->vk->timing_only);
        assert_int_equal(bellperson_params_to_pk(p, NULL, NULL, &pk), 0);
        assert_int_equal(bellperson_vk_load(vk_path, &vk), 0);
        assert_false(vk->timing_only);
        assert_same_keys(&k->pk, &k->vk, &pk, &p->vk->vk);
        assert_same_keys(&k->pk, &k->vk, &pk, &vk->vk);
        assert_true(g1_affine_equal(&vk->beta1, &k->pk.beta1));
        assert_true(g1_affine_equal(&vk->delta1, &k->pk.delta1));

        /* the key read back proves, and the .vk read back verifies */
        cs = (struct groth16_constraints){.a = &tc.a, .b = &tc.b, .c = &tc.c};
        assert_int_equal(groth16_prove(&pk, &cs, tc.w, &proof, 0), 0);
        assert_int_equal(groth16_verify(&vk->vk, tc.w + 1, &proof), 1);
        test_circuit_free(&tc);
        unlink(params_path);
        unlink(vk_path);
}

/* ---- timing-only keys ---- */

static void test_timing_only(void **state) {
        _cleanup_(groth16_keys_freep) struct groth16_keys *k = NULL, *real = NULL;
        _cleanup_(bellperson_params_freep) struct bellperson_params *p = NULL;
        _cleanup_(bellperson_vk_freep) struct bellperson_vk *vk = NULL;
        char params_path[256], vk_path[256];
        struct groth16_constraints cs;
        struct groth16_proof proof;
        struct groth16_pk pk;
        struct test_circuit tc;
        size_t infinities = 0;

        (void)state;
        test_circuit_make(&tc, 10, 2, 41);
        keys_for(&tc, &real);
        struct groth16_setup_circuit c = {
                .a = &tc.a,
                .b = &tc.b,
                .n_vars = tc.n_vars,
                .n_public = tc.n_public,
                .log_domain_size = tc.log_domain_size,
        };
        assert_int_equal(groth16_setup_timing_only(&c, NULL, &k), 0);
        assert_true(k->timing_only);

        /* infinity exactly where the real key has it */
        for (size_t j = 0; j < tc.n_vars; j++) {
                assert_int_equal(g1_affine_is_infinity(&k->a[j]),
                                 g1_affine_is_infinity(&real->a[j]));
                assert_int_equal(g1_affine_is_infinity(&k->b1[j]),
                                 g1_affine_is_infinity(&real->b1[j]));
                assert_int_equal(g2_affine_is_infinity(&k->b2[j]),
                                 g2_affine_is_infinity(&real->b2[j]));
                infinities += g2_affine_is_infinity(&k->b2[j]);
        }
        /* B holds about a quarter of the wires */
        assert_true(infinities > tc.n_vars / 2);
        /* valid points (a sample, the subgroup check is slow) */
        for (size_t j = 0; j < tc.n_vars; j += 97) {
                assert_true(g1_affine_is_on_curve(&k->l[j % (tc.n_vars - tc.n_public - 1)]));
                assert_true(g1_affine_in_subgroup(&k->h[j]));
                assert_true(g1_affine_is_on_curve(&k->a[j]));
                assert_true(g2_affine_is_on_curve(&k->b2[j]));
                assert_true(g2_affine_in_subgroup(&k->b2[j]));
        }

        /* it proves (for timing) but the proof is not valid */
        cs = (struct groth16_constraints){.a = &tc.a, .b = &tc.b, .c = &tc.c};
        assert_int_equal(groth16_prove(&k->pk, &cs, tc.w, &proof, 0), 0);
        assert_int_equal(groth16_verify(&k->vk, tc.w + 1, &proof), 0);

        /* its files are marked, and read back with the mark reported */
        tmp_path(params_path, sizeof(params_path), "timing.params");
        tmp_path(vk_path, sizeof(vk_path), "timing.vk");
        assert_int_equal(bellperson_params_save_timing_only(params_path, &k->pk, &k->vk), 0);
        assert_int_equal(
                bellperson_vk_save_timing_only(vk_path, &k->vk, &k->pk.beta1, &k->pk.delta1), 0);
        assert_int_equal(bellperson_params_load(params_path, true, &p), 0);
        assert_true(p->timing_only);
        assert_true(p->vk->timing_only);
        assert_int_equal(bellperson_params_to_pk(p, NULL, NULL, &pk), 0);
        assert_same_keys(&k->pk, &k->vk, &pk, &p->vk->vk);
        assert_int_equal(bellperson_vk_load(vk_path, &vk), 0);
        assert_true(vk->timing_only);
        assert_same_keys(&k->pk, &k->vk, &pk, &vk->vk);
        {
                /* the marker leads the file, before bellperson's bytes */
                _cleanup_fclose_ FILE *f = fopen(vk_path, "rb");
                uint8_t head[BELLPERSON_TIMING_ONLY_MARKER_BYTES];

                assert_non_null(f);
                assert_int_equal(fread(head, 1, sizeof(head), f), sizeof(head));
                assert_memory_equal(head, BELLPERSON_TIMING_ONLY_MARKER, sizeof(head));
                assert_int_equal(bellperson_timing_only_marker_bytes(head, sizeof(head)),
                                 sizeof(head));
                assert_int_equal(bellperson_timing_only_marker_bytes(head, sizeof(head) - 1), 0);
        }
        test_circuit_free(&tc);
        unlink(params_path);
        unlink(vk_path);
}

static void test_timing_only_bitmaps(void **state) {
        _cleanup_(groth16_keys_freep) struct groth16_keys *k = NULL;
        uint64_t a_columns[2] = {UINT64_MAX, 0x5}, b_columns[2] = {0x3, 0};
        struct groth16_setup_circuit c = {
                .n_vars = 70,
                .n_public = 1,
                .log_domain_size = 7,
                .a_columns = a_columns,
                .b_columns = b_columns,
        };

        (void)state;
        assert_int_equal(groth16_setup_timing_only(&c, NULL, &k), 0);
        for (size_t j = 0; j < 70; j++) {
                bool in_a = (a_columns[j / 64] >> (j % 64)) & 1;
                bool in_b = (b_columns[j / 64] >> (j % 64)) & 1;

                assert_int_equal(!g1_affine_is_infinity(&k->a[j]), in_a);
                assert_int_equal(!g1_affine_is_infinity(&k->b1[j]), in_b);
                assert_int_equal(!g2_affine_is_infinity(&k->b2[j]), in_b);
        }
        for (size_t i = 0; i < 127; i++)
                assert_false(g1_affine_is_infinity(&k->h[i]));
}

/* ---- refusals and seeds ---- */

static void test_refusals(void **state) {
        struct groth16_keys *k = NULL;
        struct test_circuit tc;
        struct groth16_toxic_waste tw;
        fr_t omega;
        uint64_t e = 3;

        (void)state;
        test_circuit_make(&tc, 6, 1, 51);
        struct groth16_setup_circuit c = {
                .a = &tc.a,
                .b = &tc.b,
                .c = &tc.c,
                .n_vars = tc.n_vars,
                .n_public = tc.n_public,
                .log_domain_size = tc.log_domain_size,
        };
        groth16_toxic_waste_from_seed(&tw, test_seed, sizeof(test_seed));

        /* tau on the domain: the Lagrange basis has no value there */
        ntt_root_of_unity(&omega, 6, NTT_ROOTS_BELLPERSON);
        fr_pow(&tw.tau, &omega, &e, 1);
        assert_int_equal(groth16_setup(&c, &tw, NULL, &k), -EINVAL);
        groth16_toxic_waste_from_seed(&tw, test_seed, sizeof(test_seed));
        fr_set_zero(&tw.delta);
        assert_int_equal(groth16_setup(&c, &tw, NULL, &k), -EINVAL);
        groth16_toxic_waste_from_seed(&tw, test_seed, sizeof(test_seed));

        /* no C, a domain too small for the rows, too few wires */
        c.c = NULL;
        assert_int_equal(groth16_setup(&c, &tw, NULL, &k), -EINVAL);
        c.c = &tc.c;
        c.log_domain_size = 5;
        assert_int_equal(groth16_setup(&c, &tw, NULL, &k), -EINVAL);
        c.log_domain_size = 6;
        c.n_vars = tc.n_vars - 1;
        assert_int_equal(groth16_setup(&c, &tw, NULL, &k), -EINVAL);
        assert_int_equal(groth16_setup_timing_only(&c, NULL, &k), -EINVAL);
        c.n_vars = 1;
        c.n_public = 1;
        c.a = c.b = c.c = NULL;
        assert_int_equal(groth16_setup_timing_only(&c, NULL, &k), -EINVAL);
        assert_null(k);
        test_circuit_free(&tc);
}

static void test_seeds(void **state) {
        struct groth16_toxic_waste a, b, c;

        (void)state;
        groth16_toxic_waste_from_seed(&a, (const uint8_t *)"one", 3);
        groth16_toxic_waste_from_seed(&b, (const uint8_t *)"one", 3);
        groth16_toxic_waste_from_seed(&c, (const uint8_t *)"two", 3);
        assert_memory_equal(&a, &b, sizeof(a));
        assert_false(fr_equal(&a.tau, &c.tau));
        assert_false(fr_equal(&a.tau, &a.alpha));
        assert_int_equal(groth16_toxic_waste_random(&a), 0);
        assert_int_equal(groth16_toxic_waste_random(&b), 0);
        assert_false(fr_equal(&a.tau, &b.tau));
        assert_false(fr_is_zero(&a.delta));
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
                cmocka_unit_test(test_fixed_base_g1),    cmocka_unit_test(test_fixed_base_g2),
                cmocka_unit_test(test_fixed_base_many),  cmocka_unit_test(test_progression),
                cmocka_unit_test(test_setup_definition), cmocka_unit_test(test_prove_2_10),
                cmocka_unit_test(test_prove_2_12),       cmocka_unit_test(test_prove_2_14),
                cmocka_unit_test(test_prove_synthetic),  cmocka_unit_test(test_files_round_trip),
                cmocka_unit_test(test_timing_only),      cmocka_unit_test(test_timing_only_bitmaps),
                cmocka_unit_test(test_refusals),         cmocka_unit_test(test_seeds),
        };

        log_set_max_level(LOG_WARNING);
        return cmocka_run_group_tests(tests, setup_tmpdir, remove_tmpdir);
}
