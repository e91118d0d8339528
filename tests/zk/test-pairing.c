/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Fp6/Fp12 towers and the pairing checked against their definitions:
 * tower operations against the schoolbook ones, Frobenius maps and their
 * constants against exponentiation by p^k (GMP computes the exponents),
 * and the pairing's bilinearity, non-degeneracy and product check. The
 * values themselves are compared with ffjavascript in test-pairing-ffjs.
 * CUZK_TEST_SCALE (default 1.0) scales the iteration counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <gmp.h>
#include <stdlib.h>

#include "tests/lib/ref.h"
#include "zk/fp12.h"
#include "zk/g1.h"
#include "zk/g2.h"
#include "zk/pairing.h"

static const char P_HEX[] =
        "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffe"
        "b153ffffb9feffffffffaaab";
static const char R_HEX[] = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";

/* Exponents up to 12 * 384 bits. */
#define EXP_LIMBS 80

static int iterations(int base) {
        const char *s = getenv("CUZK_TEST_SCALE");
        double scale = s ? atof(s) : 1.0;
        int n = (int)(base * scale + 0.5);
        return n < 1 ? 1 : n;
}

/* An mpz as little-endian limbs for the *_pow functions; returns the count. */
static size_t mpz_to_limbs(uint64_t limbs[EXP_LIMBS], const mpz_t v) {
        size_t n = 0;

        assert_true(mpz_sizeinbase(v, 2) <= 64 * EXP_LIMBS);
        mpz_export(limbs, &n, -1, sizeof(uint64_t), 0, 0, v);
        return n;
}

static void rng_fp6(fp6_t *r) {
        test_rng_fp2(&r->c0);
        test_rng_fp2(&r->c1);
        test_rng_fp2(&r->c2);
}

static void rng_fp12(fp12_t *r) {
        rng_fp6(&r->c0);
        rng_fp6(&r->c1);
}

/* The six Fp2 coefficients of a, indexed by the power of w they belong to. */
static fp2_t *fp12_coefficient(fp12_t *a, unsigned power_of_w) {
        fp2_t *by_power[6] = {&a->c0.c0, &a->c1.c0, &a->c0.c1, &a->c1.c1, &a->c0.c2, &a->c1.c2};
        return by_power[power_of_w];
}

/* f^((p^6 - 1)(p^2 + 1)): an element of the cyclotomic subgroup. */
static void to_cyclotomic(fp12_t *r, const fp12_t *f) {
        fp12_t t, m;

        fp12_inv(&t, f);
        fp12_conjugate(&m, f);
        fp12_mul(&m, &m, &t);
        fp12_frobenius_map(&t, &m, 2);
        fp12_mul(r, &m, &t);
}

static void test_fp6_arithmetic(void **state) {
        (void)state;
        test_rng_seed(10);
        for (int i = 0; i < iterations(50); i++) {
                fp6_t a, b, c, d, sparse;

                rng_fp6(&a);
                rng_fp6(&b);
                fp6_sqr(&c, &a);
                fp6_mul(&d, &a, &a);
                assert_true(fp6_equal(&c, &d));

                fp6_inv(&c, &a);
                fp6_mul(&d, &a, &c);
                assert_true(fp6_is_one(&d));

                /* (a + b)^2 = a^2 + 2ab + b^2 ties mul to sqr and add */
                fp6_add(&c, &a, &b);
                fp6_sqr(&c, &c);
                fp6_mul(&d, &a, &b);
                fp6_dbl(&d, &d);
                fp6_sub(&c, &c, &d);
                fp6_sqr(&d, &a);
                fp6_sub(&c, &c, &d);
                fp6_sqr(&d, &b);
                assert_true(fp6_equal(&c, &d));

                sparse = b;
                fp2_set_zero(&sparse.c2);
                fp6_mul(&c, &a, &sparse);
                fp6_mul_by_01(&d, &a, &b.c0, &b.c1);
                assert_true(fp6_equal(&c, &d));

                fp2_set_zero(&sparse.c0);
                fp6_mul(&c, &a, &sparse);
                fp6_mul_by_1(&d, &a, &b.c1);
                assert_true(fp6_equal(&c, &d));

                fp6_set_zero(&sparse);
                fp2_set_one(&sparse.c1);
                fp6_mul(&c, &a, &sparse);
                fp6_mul_by_nonresidue(&d, &a);
                assert_true(fp6_equal(&c, &d));
        }
}

static void test_fp12_arithmetic(void **state) {
        (void)state;
        test_rng_seed(11);
        for (int i = 0; i < iterations(50); i++) {
                fp12_t a, b, c, d, sparse;

                rng_fp12(&a);
                rng_fp12(&b);
                fp12_sqr(&c, &a);
                fp12_mul(&d, &a, &a);
                assert_true(fp12_equal(&c, &d));

                fp12_inv(&c, &a);
                fp12_mul(&d, &a, &c);
                assert_true(fp12_is_one(&d));

                /* (a + b)(a - b) = a^2 - b^2 */
                fp12_add(&c, &a, &b);
                fp12_sub(&d, &a, &b);
                fp12_mul(&c, &c, &d);
                fp12_sqr(&d, &a);
                fp12_sub(&c, &d, &c);
                fp12_sqr(&d, &b);
                assert_true(fp12_equal(&c, &d));

                fp12_set_zero(&sparse);
                sparse.c0.c0 = b.c0.c0;
                sparse.c0.c1 = b.c0.c1;
                sparse.c1.c1 = b.c1.c1;
                fp12_mul(&c, &a, &sparse);
                fp12_mul_by_014(&d, &a, &b.c0.c0, &b.c0.c1, &b.c1.c1);
                assert_true(fp12_equal(&c, &d));
                /* and in place */
                fp12_mul_by_014(&a, &a, &b.c0.c0, &b.c0.c1, &b.c1.c1);
                assert_true(fp12_equal(&a, &d));
        }
}

/* Frobenius maps equal exponentiation by p, p^2, p^3 and conjugation is the
 * p^6 power. */
static void test_frobenius_is_power_of_p(void **state) {
        uint64_t e[EXP_LIMBS];
        mpz_t p, pk;
        (void)state;

        mpz_init_set_str(p, P_HEX, 16);
        mpz_init(pk);
        test_rng_seed(12);
        for (int i = 0; i < iterations(3); i++) {
                fp12_t a, frob, pow, t;
                fp6_t a6, frob6, pow6;

                rng_fp12(&a);
                a6 = a.c1;
                for (unsigned k = 0; k <= 3; k++) {
                        size_t n;

                        mpz_pow_ui(pk, p, k);
                        n = mpz_to_limbs(e, pk);
                        fp12_frobenius_map(&frob, &a, k);
                        fp12_pow(&pow, &a, e, n);
                        assert_true(fp12_equal(&frob, &pow));
                        fp6_frobenius_map(&frob6, &a6, k);
                        fp12_set_zero(&t);
                        t.c0 = a6;
                        fp12_pow(&t, &t, e, n);
                        pow6 = t.c0;
                        assert_true(fp6_equal(&frob6, &pow6));
                }
                fp12_frobenius_map(&t, &a, 3);
                fp12_frobenius_map(&t, &t, 3);
                fp12_conjugate(&frob, &a);
                assert_true(fp12_equal(&t, &frob));
        }
        mpz_clears(p, pk, NULL);
}

/*
 * The hard-coded constants, recomputed: the map sends w^i to
 * xi^(i (p^k - 1)/6) w^i, so applied to the basis element w^i it must give
 * that power of xi, computed here with fp2_pow.
 */
static void test_frobenius_constants(void **state) {
        uint64_t e[EXP_LIMBS];
        mpz_t p, exponent;
        fp2_t xi;
        (void)state;

        mpz_init_set_str(p, P_HEX, 16);
        mpz_init(exponent);
        fp_set_one(&xi.c0);
        fp_set_one(&xi.c1);
        for (unsigned k = 1; k <= 3; k++) {
                for (unsigned i = 1; i < 6; i++) {
                        fp12_t basis, image, expect;
                        fp2_t gamma;
                        size_t n;

                        mpz_pow_ui(exponent, p, k);
                        mpz_sub_ui(exponent, exponent, 1);
                        mpz_mul_ui(exponent, exponent, i);
                        assert_true(mpz_divisible_ui_p(exponent, 6));
                        mpz_divexact_ui(exponent, exponent, 6);
                        n = mpz_to_limbs(e, exponent);
                        fp2_pow(&gamma, &xi, e, n);

                        fp12_set_zero(&basis);
                        fp2_set_one(fp12_coefficient(&basis, i));
                        fp12_frobenius_map(&image, &basis, k);
                        fp12_set_zero(&expect);
                        *fp12_coefficient(&expect, i) = gamma;
                        assert_true(fp12_equal(&image, &expect));

                        if (i % 2 == 0) { /* v^(i/2) in Fp6 */
                                fp6_t b6 = basis.c0, image6;
                                fp6_frobenius_map(&image6, &b6, k);
                                assert_true(fp6_equal(&image6, &expect.c0));
                        }
                }
        }
        mpz_clears(p, exponent, NULL);
}

static void test_cyclotomic_sqr(void **state) {
        (void)state;
        test_rng_seed(13);
        for (int i = 0; i < iterations(50); i++) {
                fp12_t f, m, a, b;

                rng_fp12(&f);
                to_cyclotomic(&m, &f);
                fp12_sqr(&a, &m);
                fp12_cyclotomic_sqr(&b, &m);
                assert_true(fp12_equal(&a, &b));
                fp12_cyclotomic_sqr(&m, &m);
                assert_true(fp12_equal(&m, &b));
        }
}

/* pairing_final_exponentiation(f) = f^(3 (p^12 - 1) / r), computed the slow way. */
static void test_final_exponentiation_definition(void **state) {
        uint64_t e[EXP_LIMBS];
        mpz_t p, r, exponent;
        size_t n;
        (void)state;

        mpz_init_set_str(p, P_HEX, 16);
        mpz_init_set_str(r, R_HEX, 16);
        mpz_init(exponent);
        mpz_pow_ui(exponent, p, 12);
        mpz_sub_ui(exponent, exponent, 1);
        assert_true(mpz_divisible_p(exponent, r));
        mpz_divexact(exponent, exponent, r);
        mpz_mul_ui(exponent, exponent, 3);
        n = mpz_to_limbs(e, exponent);

        test_rng_seed(14);
        for (int i = 0; i < iterations(2); i++) {
                fp12_t f, fast, slow;

                rng_fp12(&f);
                pairing_final_exponentiation(&fast, &f);
                fp12_pow(&slow, &f, e, n);
                assert_true(fp12_equal(&fast, &slow));
        }
        mpz_clears(p, r, exponent, NULL);
}

static void g1_mul_affine(g1_affine_t *r, const g1_affine_t *p, const fr_t *s) {
        g1_jac_t j;

        g1_jac_from_affine(&j, p);
        g1_jac_mul_fr(&j, &j, s);
        g1_jac_to_affine(r, &j);
}

static void g2_mul_affine(g2_affine_t *r, const g2_affine_t *q, const fr_t *s) {
        g2_jac_t j;

        g2_jac_from_affine(&j, q);
        g2_jac_mul_fr(&j, &j, s);
        g2_jac_to_affine(r, &j);
}

/* e(G1, G2) != 1 and has order r. */
static void test_non_degenerate(void **state) {
        fp12_t e, t;
        (void)state;

        pairing(&e, &G1_GENERATOR, &G2_GENERATOR);
        assert_false(fp12_is_one(&e));
        fp12_pow(&t, &e, BLS12_381_R, FR_LIMBS);
        assert_true(fp12_is_one(&t));
}

/* e(aP, bQ) == e(P, Q)^(ab) == e(abP, Q) == e(P, abQ) */
static void test_bilinearity(void **state) {
        (void)state;
        test_rng_seed(15);
        for (int i = 0; i < iterations(4); i++) {
                g1_affine_t p, ap, abp;
                g2_affine_t q, bq, abq;
                fr_t a, b, ab, k;
                uint64_t ab_limbs[FR_LIMBS];
                fp12_t e, e_ab, lhs, rhs;

                test_rng_fr(&k);
                g1_mul_affine(&p, &G1_GENERATOR, &k);
                test_rng_fr(&k);
                g2_mul_affine(&q, &G2_GENERATOR, &k);
                test_rng_fr(&a);
                test_rng_fr(&b);
                fr_mul(&ab, &a, &b);
                g1_mul_affine(&ap, &p, &a);
                g1_mul_affine(&abp, &p, &ab);
                g2_mul_affine(&bq, &q, &b);
                g2_mul_affine(&abq, &q, &ab);

                pairing(&e, &p, &q);
                fr_to_canonical(ab_limbs, &ab);
                fp12_pow(&e_ab, &e, ab_limbs, FR_LIMBS);

                pairing(&lhs, &ap, &bq);
                assert_true(fp12_equal(&lhs, &e_ab));
                pairing(&rhs, &abp, &q);
                assert_true(fp12_equal(&rhs, &e_ab));
                pairing(&rhs, &p, &abq);
                assert_true(fp12_equal(&rhs, &e_ab));
                assert_false(fp12_equal(&e, &e_ab));
        }
}

static void test_infinity_gives_one(void **state) {
        g1_affine_t o1;
        g2_affine_t o2;
        fp12_t e;
        (void)state;

        g1_affine_set_infinity(&o1);
        g2_affine_set_infinity(&o2);
        pairing(&e, &o1, &G2_GENERATOR);
        assert_true(fp12_is_one(&e));
        pairing(&e, &G1_GENERATOR, &o2);
        assert_true(fp12_is_one(&e));
        pairing(&e, &o1, &o2);
        assert_true(fp12_is_one(&e));
        assert_true(pairing_product_is_one(&o1, &G2_GENERATOR, 1));
        assert_true(pairing_product_is_one(NULL, NULL, 0));
        pairing_miller_loop(&e, NULL, NULL, 0);
        assert_true(fp12_is_one(&e));
}

/* e(P, Q) e(-P, Q) == 1, and the product check rejects e(P, Q) e(P, Q). */
static void test_product_of_inverse_pair(void **state) {
        (void)state;
        test_rng_seed(16);
        for (int i = 0; i < iterations(4); i++) {
                g1_affine_t p[2];
                g2_affine_t q[2];
                fr_t k;

                test_rng_fr(&k);
                g1_mul_affine(&p[0], &G1_GENERATOR, &k);
                test_rng_fr(&k);
                g2_mul_affine(&q[0], &G2_GENERATOR, &k);
                g1_affine_neg(&p[1], &p[0]);
                q[1] = q[0];
                assert_true(pairing_product_is_one(p, q, 2));
                p[1] = p[0];
                assert_false(pairing_product_is_one(p, q, 2));
                /* the negation may sit on either side */
                g2_affine_neg(&q[1], &q[0]);
                assert_true(pairing_product_is_one(p, q, 2));
        }
}

/*
 * A product longer than one Miller batch, with points at infinity mixed in:
 * prod e(a_i G1, b_i G2) == 1 exactly when sum a_i b_i == 0, and the
 * product equals the product of the single pairings.
 */
static void test_long_product(void **state) {
        enum { N = 19 };
        g1_affine_t p[N];
        g2_affine_t q[N];
        fr_t a[N], b[N], sum, t;
        fp12_t single, expect, f;
        (void)state;

        test_rng_seed(17);
        fr_set_zero(&sum);
        for (size_t i = 0; i < N; i++) {
                test_rng_fr(&a[i]);
                test_rng_fr(&b[i]);
                if (i == 3)
                        fr_set_zero(&a[i]);
                if (i == 11)
                        fr_set_zero(&b[i]);
                if (i + 1 < N) {
                        fr_mul(&t, &a[i], &b[i]);
                        fr_add(&sum, &sum, &t);
                }
        }
        /* a_{N-1} = -sum / b_{N-1} */
        fr_inv(&t, &b[N - 1]);
        fr_mul(&t, &t, &sum);
        fr_neg(&a[N - 1], &t);

        fp12_set_one(&expect);
        for (size_t i = 0; i < N; i++) {
                g1_mul_affine(&p[i], &G1_GENERATOR, &a[i]);
                g2_mul_affine(&q[i], &G2_GENERATOR, &b[i]);
                if (i < (size_t)iterations(N)) {
                        pairing_miller_loop(&single, &p[i], &q[i], 1);
                        fp12_mul(&expect, &expect, &single);
                }
        }
        assert_true(g1_affine_is_infinity(&p[3]));
        assert_true(g2_affine_is_infinity(&q[11]));
        assert_true(pairing_product_is_one(p, q, N));

        /* Miller loop of the whole product == product of the Miller loops
         * (up to the factors the final exponentiation removes). */
        pairing_miller_loop(&f, p, q, (size_t)iterations(N));
        pairing_final_exponentiation(&f, &f);
        pairing_final_exponentiation(&expect, &expect);
        assert_true(fp12_equal(&f, &expect));

        fr_add(&a[0], &a[0], &b[0]);
        g1_mul_affine(&p[0], &G1_GENERATOR, &a[0]);
        assert_false(pairing_product_is_one(p, q, N));
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_fp6_arithmetic),
                cmocka_unit_test(test_fp12_arithmetic),
                cmocka_unit_test(test_frobenius_is_power_of_p),
                cmocka_unit_test(test_frobenius_constants),
                cmocka_unit_test(test_cyclotomic_sqr),
                cmocka_unit_test(test_final_exponentiation_definition),
                cmocka_unit_test(test_non_degenerate),
                cmocka_unit_test(test_bilinearity),
                cmocka_unit_test(test_infinity_gives_one),
                cmocka_unit_test(test_product_of_inverse_pair),
                cmocka_unit_test(test_long_product),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
