/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Algebraic checks of G1 and G2 (zk/g1.h, zk/g2.h) and of their encodings
 * (zk/point_encoding.h): the forms (affine, Jacobian, XYZZ, batch) agree, the
 * group laws hold, the fast subgroup tests agree with r*P == O on points in
 * and out of the subgroup, and every decoding error is reported with its
 * code. The comparison with an independent implementation is in
 * test-curve-ffjs.c.
 *
 * The tests are written once for both groups: this file includes itself
 * with TEST_CURVE_TEMPLATE defined, once per group (as zk/curve_impl.h is).
 */
#ifndef TEST_CURVE_TEMPLATE

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cleanup.h"
#include "tests/lib/ref.h"
#include "zk/g1.h"
#include "zk/g2.h"
#include "zk/point_encoding.h"

/* Iteration counts scale with CUZK_TEST_SCALE (the sanitizer build lowers it). */
static unsigned scaled(unsigned n) {
        const char *s = getenv("CUZK_TEST_SCALE");
        double scale = s ? atof(s) : 1.0;
        unsigned r = (unsigned)(n * scale);

        return r ? r : 1;
}

static void fr_to_limbs(uint64_t k[FR_LIMBS], const fr_t *s) {
        fr_to_canonical(k, s);
}

static int setup_seed(void **state) {
        const char *s = getenv("CUZK_TEST_SEED");
        uint64_t seed = s ? strtoull(s, NULL, 0) : (uint64_t)time(NULL);

        (void)state;
        printf("test-curve: seed %" PRIu64 " (CUZK_TEST_SEED=%" PRIu64 " repeats it)\n", seed,
               seed);
        test_rng_seed(seed);
        return 0;
}

static void test_error_strings(void **state) {
        (void)state;
        for (int e = ZK_ERROR_BASE; e < ZK_E_MAX_; e++) {
                const char *s = zk_strerror(-e);
                assert_non_null(s);
                assert_true(strlen(s) > 0);
                assert_string_equal(s, zk_strerror(e));
        }
        assert_string_equal(zk_strerror(-ZK_E_NOT_IN_SUBGROUP), "not in the prime-order subgroup");
        /* errno values fall through to strerror */
        assert_string_equal(zk_strerror(-ENOENT), strerror(ENOENT));
}

/* The published compressed generators. */
static const char G1_GENERATOR_COMPRESSED_HEX[] =
        "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb"
        "22c6bb";
static const char G2_GENERATOR_COMPRESSED_HEX[] =
        "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d"
        "042b7e024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd480"
        "56c8c121bdb8";

static void hex_to_bytes(uint8_t *out, size_t n, const char *hex) {
        assert_int_equal(strlen(hex), 2 * n);
        for (size_t i = 0; i < n; i++) {
                unsigned v;
                assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
                out[i] = (uint8_t)v;
        }
}

/* p as big-endian bytes: a coordinate that is not canonical. */
static void modulus_be(uint8_t out[FP_BYTES]) {
        uint8_t le[FP_BYTES];

        for (size_t i = 0; i < FP_LIMBS; i++)
                for (size_t k = 0; k < 8; k++)
                        le[i * 8 + k] = (uint8_t)(BLS12_381_P[i] >> (8 * k));
        for (size_t i = 0; i < FP_BYTES; i++)
                out[i] = le[FP_BYTES - 1 - i];
}

static void modulus_le(uint8_t out[FP_BYTES]) {
        for (size_t i = 0; i < FP_LIMBS; i++)
                for (size_t k = 0; k < 8; k++)
                        out[i * 8 + k] = (uint8_t)(BLS12_381_P[i] >> (8 * k));
}

/*
 * The primes l dividing the cofactor, and for each a multiplier m = h / l^e
 * (l^e the largest power of l dividing h) that maps the cofactor torsion
 * (points r*Q) onto its l-primary part. m is computed from h by division,
 * except for G2's large prime factor where it is given directly (the
 * product of the small ones).
 */
typedef struct {
        uint64_t prime;      /* 0: the large prime, m below */
        uint64_t multiplier; /* used when prime is 0 */
} cofactor_prime_t;

static const cofactor_prime_t g1_cofactor_primes[] = {
        {3, 0}, {11, 0}, {10177, 0}, {859267, 0}, {52437899, 0},
};

/* h2 = 13^2 23^2 2713 11953 262069 * (a 448-bit prime) */
static const cofactor_prime_t g2_cofactor_primes[] = {
        {13, 0},    {23, 0},     {2713, 0},
        {11953, 0}, {262069, 0}, {0, 13ULL * 13 * 23 * 23 * 2713 * 11953 * 262069},
};

static bool all_seen(const unsigned *seen, size_t n) {
        for (size_t i = 0; i < n; i++)
                if (!seen[i])
                        return false;
        return true;
}

/* q = a / d for n-limb a and a small d; returns the remainder. */
static uint64_t limbs_div_small(uint64_t *q, const uint64_t *a, size_t n, uint64_t d) {
        unsigned __int128 rem = 0;

        for (size_t i = n; i-- > 0;) {
                unsigned __int128 cur = (rem << 64) | a[i];
                q[i] = (uint64_t)(cur / d);
                rem = cur % d;
        }
        return (uint64_t)rem;
}

static void g1_rng_fe(fp_t *r) {
        test_rng_fp(r);
}

static void g2_rng_fe(fp2_t *r) {
        test_rng_fp2(r);
}

/* ---- G1 ---- */
#define TEST_CURVE_TEMPLATE
#define TG(name) g1_##name
#define TFE(name) fp_##name
#define TFE_T fp_t
#define T_AFF g1_affine_t
#define T_JAC g1_jac_t
#define T_XYZZ g1_xyzz_t
#define T_GENERATOR G1_GENERATOR
#define T_GENERATOR_HEX G1_GENERATOR_COMPRESSED_HEX
#define T_FE_BYTES FP_BYTES
#define T_NAME "G1"
#define TG_COFACTOR G1_COFACTOR
#include "test-curve.c"
#undef TG
#undef TFE
#undef TFE_T
#undef T_AFF
#undef T_JAC
#undef T_XYZZ
#undef T_GENERATOR
#undef T_GENERATOR_HEX
#undef T_FE_BYTES
#undef T_NAME
#undef TG_COFACTOR

/* ---- G2 ---- */
#define TG(name) g2_##name
#define TFE(name) fp2_##name
#define TFE_T fp2_t
#define T_AFF g2_affine_t
#define T_JAC g2_jac_t
#define T_XYZZ g2_xyzz_t
#define T_GENERATOR G2_GENERATOR
#define T_GENERATOR_HEX G2_GENERATOR_COMPRESSED_HEX
#define T_FE_BYTES (2 * FP_BYTES)
#define T_NAME "G2"
#define TG_COFACTOR G2_COFACTOR
#include "test-curve.c"

#define GROUP_TESTS(g)                                                                             \
        cmocka_unit_test(g##_test_generator), cmocka_unit_test(g##_test_group_order),              \
                cmocka_unit_test(g##_test_jacobian_laws), cmocka_unit_test(g##_test_forms_agree),  \
                cmocka_unit_test(g##_test_special_cases), cmocka_unit_test(g##_test_batch_add),    \
                cmocka_unit_test(g##_test_batch_to_affine), cmocka_unit_test(g##_test_scalar_mul), \
                cmocka_unit_test(g##_test_subgroup_check),                                         \
                cmocka_unit_test(g##_test_subgroup_check_small_orders),                            \
                cmocka_unit_test(g##_test_encoding_round_trip),                                    \
                cmocka_unit_test(g##_test_decoding_errors)

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_error_strings),
                GROUP_TESTS(g1),
                GROUP_TESTS(g2),
        };
        return cmocka_run_group_tests(tests, setup_seed, NULL);
}

#else /* TEST_CURVE_TEMPLATE: the tests of one group */

/* ---- helpers ---- */

static void TG(rng_scalar_point)(T_JAC *r, fr_t *k) {
        T_JAC g;

        test_rng_fr(k);
        TG(jac_from_affine)(&g, &T_GENERATOR);
        TG(jac_mul_fr)(r, &g, k);
}

/* A point of the curve, usually outside the subgroup: random x until
 * x^3 + b is a square. */
static void TG(rng_curve_point)(T_AFF *r) {
        TFE_T x;

        do
                TG(rng_fe)(&x);
        while (!TG(affine_from_x)(r, &x, test_rng_u64() & 1));
}

/* The same point with a random Z: (X l^2, Y l^3, Z l). */
static void TG(rescale)(T_JAC *r, const T_JAC *p) {
        TFE_T l, l2, l3;

        do
                TG(rng_fe)(&l);
        while (TFE(is_zero)(&l));
        TFE(sqr)(&l2, &l);
        TFE(mul)(&l3, &l2, &l);
        TFE(mul)(&r->x, &p->x, &l2);
        TFE(mul)(&r->y, &p->y, &l3);
        TFE(mul)(&r->z, &p->z, &l);
}

/* The same point in XYZZ with random ZZ = l^2, ZZZ = l^3. */
static void TG(to_xyzz_rescaled)(T_XYZZ *r, const T_AFF *p) {
        TFE_T l, l2, l3;

        if (TG(affine_is_infinity)(p)) {
                TG(xyzz_set_infinity)(r);
                return;
        }
        do
                TG(rng_fe)(&l);
        while (TFE(is_zero)(&l));
        TFE(sqr)(&l2, &l);
        TFE(mul)(&l3, &l2, &l);
        TFE(mul)(&r->x, &p->x, &l2);
        TFE(mul)(&r->y, &p->y, &l3);
        r->zz = l2;
        r->zzz = l3;
}

static void TG(xyzz_to_affine)(T_AFF *r, const T_XYZZ *p) {
        T_JAC j;

        TG(xyzz_to_jac)(&j, p);
        TG(jac_to_affine)(r, &j);
}

static bool TG(in_subgroup_by_definition)(const T_JAC *p) {
        T_JAC t;

        TG(jac_mul)(&t, p, BLS12_381_R, 255);
        return TG(jac_is_infinity)(&t);
}

static void TG(assert_jac_eq_affine)(const T_JAC *j, const T_AFF *a) {
        T_AFF t;

        TG(jac_to_affine)(&t, j);
        assert_true(TG(affine_equal)(&t, a));
}

/* ---- tests ---- */

static void TG(test_generator)(void **state) {
        uint8_t expect[T_FE_BYTES], got[T_FE_BYTES];
        T_AFF back;
        (void)state;

        assert_true(TG(affine_is_on_curve)(&T_GENERATOR));
        assert_true(TG(affine_in_subgroup)(&T_GENERATOR));
        assert_false(TG(affine_is_infinity)(&T_GENERATOR));
        hex_to_bytes(expect, sizeof(expect), T_GENERATOR_HEX);
        TG(encode)(got, sizeof(got), &T_GENERATOR, POINT_FORMAT_COMPRESSED);
        assert_memory_equal(got, expect, sizeof(got));
        assert_int_equal(TG(decode)(&back, expect, sizeof(expect), POINT_FORMAT_COMPRESSED, 0), 0);
        assert_true(TG(affine_equal)(&back, &T_GENERATOR));
}

/* r * P == O for subgroup points, and (r - 1) * P == -P. */
static void TG(test_group_order)(void **state) {
        uint64_t r_minus_1[FR_LIMBS];
        (void)state;

        memcpy(r_minus_1, BLS12_381_R, sizeof(r_minus_1));
        r_minus_1[0] -= 1;
        for (unsigned i = 0; i < scaled(4); i++) {
                T_JAC p, t, np;
                fr_t k;

                TG(rng_scalar_point)(&p, &k);
                assert_true(TG(in_subgroup_by_definition)(&p));
                TG(jac_mul)(&t, &p, r_minus_1, 255);
                TG(jac_neg)(&np, &p);
                assert_true(TG(jac_equal)(&t, &np));
        }
}

static void TG(test_jacobian_laws)(void **state) {
        (void)state;
        for (unsigned i = 0; i < scaled(50); i++) {
                T_JAC a, b, c, ab, bc, l, r, t, inf;
                fr_t ka, kb, kc;

                TG(rng_scalar_point)(&a, &ka);
                TG(rng_scalar_point)(&b, &kb);
                TG(rng_scalar_point)(&c, &kc);
                TG(rescale)(&b, &b);
                assert_true(TG(jac_is_on_curve)(&a));
                assert_true(TG(jac_is_on_curve)(&b));
                /* associativity and commutativity */
                TG(jac_add)(&ab, &a, &b);
                TG(jac_add)(&l, &ab, &c);
                TG(jac_add)(&bc, &b, &c);
                TG(jac_add)(&r, &a, &bc);
                assert_true(TG(jac_equal)(&l, &r));
                TG(jac_add)(&t, &b, &a);
                assert_true(TG(jac_equal)(&t, &ab));
                assert_true(TG(jac_is_on_curve)(&l));
                /* a + a == 2a, on differently scaled copies */
                TG(rescale)(&t, &a);
                TG(jac_add)(&l, &a, &t);
                TG(jac_dbl)(&r, &a);
                assert_true(TG(jac_equal)(&l, &r));
                /* a - a == O, a + O == a */
                TG(jac_neg)(&t, &a);
                TG(rescale)(&t, &t);
                TG(jac_add)(&l, &a, &t);
                assert_true(TG(jac_is_infinity)(&l));
                TG(jac_set_infinity)(&inf);
                TG(jac_add)(&l, &a, &inf);
                assert_true(TG(jac_equal)(&l, &a));
                TG(jac_add)(&l, &inf, &a);
                assert_true(TG(jac_equal)(&l, &a));
                /* (ka + kb) G == ka G + kb G */
                {
                        T_JAC g, s;
                        fr_t ks;
                        fr_add(&ks, &ka, &kb);
                        TG(jac_from_affine)(&g, &T_GENERATOR);
                        TG(jac_mul_fr)(&s, &g, &ks);
                        assert_true(TG(jac_equal)(&s, &ab));
                }
                /* different points are not equal; equality ignores scaling */
                assert_false(TG(jac_equal)(&a, &b));
                assert_false(TG(jac_equal)(&a, &inf));
                TG(rescale)(&t, &a);
                assert_true(TG(jac_equal)(&t, &a));
        }
}

/* Jacobian, mixed Jacobian, XYZZ, mixed XYZZ and affine batch addition all
 * give the same sums and doublings. */
static void TG(test_forms_agree)(void **state) {
        (void)state;
        for (unsigned i = 0; i < scaled(50); i++) {
                T_JAC a, b, sum, dbl, t;
                T_AFF aa, ba, sa, da, batch_acc[2], batch_add[2], xa;
                T_XYZZ ax, bx, x;
                TFE_T scratch[2];
                fr_t k;

                TG(rng_scalar_point)(&a, &k);
                TG(rng_scalar_point)(&b, &k);
                TG(jac_to_affine)(&aa, &a);
                TG(jac_to_affine)(&ba, &b);
                TG(jac_add)(&sum, &a, &b);
                TG(jac_dbl)(&dbl, &a);
                TG(jac_to_affine)(&sa, &sum);
                TG(jac_to_affine)(&da, &dbl);
                assert_true(TG(affine_is_on_curve)(&sa));
                assert_true(TG(affine_is_on_curve)(&da));

                TG(rescale)(&t, &a);
                TG(jac_add_affine)(&t, &t, &ba);
                TG(assert_jac_eq_affine)(&t, &sa);

                TG(to_xyzz_rescaled)(&ax, &aa);
                TG(to_xyzz_rescaled)(&bx, &ba);
                TG(xyzz_add)(&x, &ax, &bx);
                TG(xyzz_to_affine)(&xa, &x);
                assert_true(TG(affine_equal)(&xa, &sa));
                TG(xyzz_add_affine)(&x, &ax, &ba);
                TG(xyzz_to_affine)(&xa, &x);
                assert_true(TG(affine_equal)(&xa, &sa));
                TG(xyzz_dbl)(&x, &ax);
                TG(xyzz_to_affine)(&xa, &x);
                assert_true(TG(affine_equal)(&xa, &da));
                /* a + b - b == a */
                TG(xyzz_add_affine)(&x, &ax, &ba);
                TG(xyzz_sub_affine)(&x, &x, &ba);
                TG(xyzz_to_affine)(&xa, &x);
                assert_true(TG(affine_equal)(&xa, &aa));

                batch_acc[0] = aa;
                batch_add[0] = ba;
                batch_acc[1] = aa;
                batch_add[1] = aa;
                TG(affine_batch_add)(batch_acc, batch_add, 2, scratch);
                assert_true(TG(affine_equal)(&batch_acc[0], &sa));
                assert_true(TG(affine_equal)(&batch_acc[1], &da));
        }
}

/* Doubling through addition, opposite points and infinity in every form. */
static void TG(test_special_cases)(void **state) {
        T_JAC a, t, inf;
        T_AFF aa, na, infa, out;
        T_XYZZ ax, x, xinf;
        fr_t k;
        (void)state;

        TG(rng_scalar_point)(&a, &k);
        TG(jac_to_affine)(&aa, &a);
        TG(affine_neg)(&na, &aa);
        TG(affine_set_infinity)(&infa);
        TG(jac_set_infinity)(&inf);
        TG(xyzz_set_infinity)(&xinf);
        assert_true(TG(affine_is_on_curve)(&infa));
        assert_true(TG(jac_is_on_curve)(&inf));
        assert_true(TG(affine_in_subgroup)(&infa));

        /* Jacobian + affine */
        TG(jac_dbl)(&t, &a);
        TG(jac_to_affine)(&out, &t);
        TG(rescale)(&t, &a);
        TG(jac_add_affine)(&t, &t, &aa);
        TG(assert_jac_eq_affine)(&t, &out);
        TG(jac_add_affine)(&t, &a, &na);
        assert_true(TG(jac_is_infinity)(&t));
        TG(jac_add_affine)(&t, &a, &infa);
        assert_true(TG(jac_equal)(&t, &a));
        TG(jac_add_affine)(&t, &inf, &aa);
        assert_true(TG(jac_equal)(&t, &a));
        TG(jac_dbl)(&t, &inf);
        assert_true(TG(jac_is_infinity)(&t));
        TG(jac_from_affine)(&t, &infa);
        assert_true(TG(jac_is_infinity)(&t));
        TG(jac_to_affine)(&out, &inf);
        assert_true(TG(affine_is_infinity)(&out));

        /* XYZZ */
        TG(to_xyzz_rescaled)(&ax, &aa);
        TG(xyzz_add_affine)(&x, &ax, &aa);
        TG(xyzz_to_affine)(&out, &x);
        TG(jac_dbl)(&t, &a);
        TG(assert_jac_eq_affine)(&t, &out);
        TG(xyzz_add_affine)(&x, &ax, &na);
        assert_true(TG(xyzz_is_infinity)(&x));
        TG(xyzz_sub_affine)(&x, &ax, &aa);
        assert_true(TG(xyzz_is_infinity)(&x));
        TG(xyzz_add_affine)(&x, &ax, &infa);
        TG(xyzz_to_affine)(&out, &x);
        assert_true(TG(affine_equal)(&out, &aa));
        TG(xyzz_add_affine)(&x, &xinf, &aa);
        TG(xyzz_to_affine)(&out, &x);
        assert_true(TG(affine_equal)(&out, &aa));
        TG(xyzz_add_affine)(&x, &xinf, &infa);
        assert_true(TG(xyzz_is_infinity)(&x));
        TG(to_xyzz_rescaled)(&x, &aa);
        TG(xyzz_add)(&x, &ax, &x); /* equal points, different scaling */
        TG(xyzz_to_affine)(&out, &x);
        TG(assert_jac_eq_affine)(&t, &out);
        TG(to_xyzz_rescaled)(&x, &na);
        TG(xyzz_add)(&x, &ax, &x);
        assert_true(TG(xyzz_is_infinity)(&x));
        TG(xyzz_add)(&x, &ax, &xinf);
        TG(xyzz_to_affine)(&out, &x);
        assert_true(TG(affine_equal)(&out, &aa));
        TG(xyzz_add)(&x, &xinf, &ax);
        TG(xyzz_to_affine)(&out, &x);
        assert_true(TG(affine_equal)(&out, &aa));
        TG(xyzz_dbl)(&x, &xinf);
        assert_true(TG(xyzz_is_infinity)(&x));
        TG(xyzz_from_affine)(&x, &infa);
        assert_true(TG(xyzz_is_infinity)(&x));
        TG(xyzz_to_jac)(&t, &xinf);
        assert_true(TG(jac_is_infinity)(&t));

        /* affine */
        assert_true(TG(affine_equal)(&aa, &aa));
        assert_false(TG(affine_equal)(&aa, &na));
        TG(affine_neg)(&out, &infa);
        assert_true(TG(affine_is_infinity)(&out));
}

/* Batches mixing every case: distinct points, duplicates (P + P), opposites
 * (P + -P), infinity on either side, and both infinity; acc == add too. */
static void TG(test_batch_add)(void **state) {
        enum { N = 64 };
        T_AFF acc[N], add[N], expect[N], pts[8];
        TFE_T scratch[N];
        (void)state;

        for (unsigned round = 0; round < scaled(10); round++) {
                for (size_t i = 0; i < ELEMENTSOF(pts); i++) {
                        T_JAC p;
                        fr_t k;
                        TG(rng_scalar_point)(&p, &k);
                        TG(jac_to_affine)(&pts[i], &p);
                }
                for (size_t i = 0; i < N; i++) {
                        T_AFF a = pts[test_rng_u64() % ELEMENTSOF(pts)];
                        T_AFF b = pts[test_rng_u64() % ELEMENTSOF(pts)];
                        T_JAC j;

                        switch (test_rng_u64() % 6) {
                        case 0:
                                b = a;
                                break;
                        case 1:
                                TG(affine_neg)(&b, &a);
                                break;
                        case 2:
                                TG(affine_set_infinity)(&a);
                                break;
                        case 3:
                                TG(affine_set_infinity)(&b);
                                break;
                        case 4:
                                TG(affine_set_infinity)(&a);
                                TG(affine_set_infinity)(&b);
                                break;
                        default:
                                break;
                        }
                        acc[i] = a;
                        add[i] = b;
                        TG(jac_from_affine)(&j, &a);
                        TG(jac_add_affine)(&j, &j, &b);
                        TG(jac_to_affine)(&expect[i], &j);
                }
                TG(affine_batch_add)(acc, add, N, scratch);
                for (size_t i = 0; i < N; i++)
                        assert_true(TG(affine_equal)(&acc[i], &expect[i]));

                /* acc == add: every entry doubles */
                memcpy(acc, add, sizeof(acc));
                TG(affine_batch_add)(acc, acc, N, scratch);
                for (size_t i = 0; i < N; i++) {
                        T_JAC j;
                        TG(jac_from_affine)(&j, &add[i]);
                        TG(jac_dbl)(&j, &j);
                        TG(assert_jac_eq_affine)(&j, &acc[i]);
                }
        }
        TG(affine_batch_add)(acc, add, 0, scratch);
}

static void TG(test_batch_to_affine)(void **state) {
        enum { N = 40 };
        T_JAC pts[N];
        T_AFF batch[N];
        (void)state;

        for (unsigned round = 0; round < scaled(5); round++) {
                for (size_t i = 0; i < N; i++) {
                        fr_t k;
                        if (test_rng_u64() % 5 == 0) {
                                TG(jac_set_infinity)(&pts[i]);
                                continue;
                        }
                        TG(rng_scalar_point)(&pts[i], &k);
                        TG(rescale)(&pts[i], &pts[i]);
                }
                TG(jac_batch_to_affine)(batch, pts, N);
                for (size_t i = 0; i < N; i++)
                        TG(assert_jac_eq_affine)(&pts[i], &batch[i]);
        }
        TG(jac_batch_to_affine)(batch, pts, 1);
        TG(assert_jac_eq_affine)(&pts[0], &batch[0]);
        TG(jac_batch_to_affine)(batch, pts, 0);
}

/* jac_mul against repeated addition for small scalars, against mul_fr, and
 * the linearity k(aP) = (ka)P for full-width scalars. */
static void TG(test_scalar_mul)(void **state) {
        T_JAC p, acc, t;
        fr_t k;
        (void)state;

        TG(rng_scalar_point)(&p, &k);
        TG(rescale)(&p, &p);
        TG(jac_set_infinity)(&acc);
        for (uint64_t small = 0; small < 300; small++) {
                uint64_t limb = small;
                size_t nbits = 0;

                while (nbits < 64 && (small >> nbits))
                        nbits++;
                TG(jac_mul)(&t, &p, &limb, nbits);
                assert_true(TG(jac_equal)(&t, &acc));
                TG(jac_mul)(&t, &p, &limb, 64); /* leading zero bits change nothing */
                assert_true(TG(jac_equal)(&t, &acc));
                TG(jac_add)(&acc, &acc, &p);
        }
        for (unsigned i = 0; i < scaled(20); i++) {
                T_JAC a, b, c;
                fr_t s, u, su;
                uint64_t limbs[FR_LIMBS];

                test_rng_fr(&s);
                test_rng_fr(&u);
                fr_mul(&su, &s, &u);
                TG(jac_mul_fr)(&a, &p, &s);
                fr_to_limbs(limbs, &s);
                TG(jac_mul)(&b, &p, limbs, 256);
                assert_true(TG(jac_equal)(&a, &b));
                TG(jac_mul_fr)(&b, &a, &u);
                TG(jac_mul_fr)(&c, &p, &su);
                assert_true(TG(jac_equal)(&b, &c));
                /* output aliasing the input */
                c = p;
                TG(jac_mul_fr)(&c, &c, &s);
                assert_true(TG(jac_equal)(&c, &a));
        }
        fr_set_zero(&k);
        TG(jac_mul_fr)(&t, &p, &k);
        assert_true(TG(jac_is_infinity)(&t));
        TG(jac_set_infinity)(&acc);
        fr_set_one(&k);
        TG(jac_mul_fr)(&t, &acc, &k);
        assert_true(TG(jac_is_infinity)(&t));
}

/* The endomorphism test against the definition r*P == O, on: subgroup
 * points, random curve points, points of the cofactor torsion (r*Q) and
 * cofactor-cleared points (h*Q). */
static void TG(test_subgroup_check)(void **state) {
        unsigned n_in = 0, n_out = 0;
        (void)state;

        for (unsigned i = 0; i < scaled(12); i++) {
                T_AFF q, pa;
                T_JAC qj, p, t;
                fr_t k;

                TG(rng_curve_point)(&q);
                assert_true(TG(affine_is_on_curve)(&q));
                TG(jac_from_affine)(&qj, &q);
                for (int kind = 0; kind < 4; kind++) {
                        switch (kind) {
                        case 0:
                                TG(rng_scalar_point)(&p, &k);
                                break;
                        case 1:
                                p = qj;
                                break;
                        case 2:
                                TG(jac_mul)(&p, &qj, BLS12_381_R, 255);
                                break;
                        default:
                                TG(jac_clear_cofactor)(&p, &qj);
                                break;
                        }
                        if (TG(jac_is_infinity)(&p))
                                continue;
                        bool slow = TG(in_subgroup_by_definition)(&p);
                        assert_int_equal(TG(jac_in_subgroup)(&p), slow);
                        TG(jac_to_affine)(&pa, &p);
                        assert_int_equal(TG(affine_in_subgroup)(&pa), slow);
                        if (kind == 0 || kind == 3)
                                assert_true(slow);
                        if (kind == 2)
                                assert_false(slow);
                        if (slow)
                                n_in++;
                        else
                                n_out++;
                        /* the point stays out (in) after a random rescaling */
                        TG(rescale)(&t, &p);
                        assert_int_equal(TG(jac_in_subgroup)(&t), slow);
                }
        }
        assert_true(n_in > 0 && n_out > 0);
}

/* Points of each prime order l dividing the cofactor are rejected by the
 * fast test: the cases an endomorphism test could get wrong. */
static void TG(test_subgroup_check_small_orders)(void **state) {
        const size_t n = ELEMENTSOF(TG(cofactor_primes));
        unsigned seen[ELEMENTSOF(TG(cofactor_primes))] = {0};
        (void)state;

        /* a random point lacks the l-part with probability 1/l (1/3 for
         * l = 3): keep drawing until every l was seen */
        for (unsigned i = 0; i < 64 && (i < scaled(4) || !all_seen(seen, n)); i++) {
                T_AFF q;
                T_JAC t, s, next;

                TG(rng_curve_point)(&q);
                TG(jac_from_affine)(&t, &q);
                TG(jac_mul)(&t, &t, BLS12_381_R, 255);
                for (size_t m = 0; m < n; m++) {
                        const cofactor_prime_t *cp = &TG(cofactor_primes)[m];
                        uint64_t k[ELEMENTSOF(TG_COFACTOR)], q_limbs[ELEMENTSOF(TG_COFACTOR)];
                        size_t nbits = 64 * ELEMENTSOF(k);

                        if (cp->prime) {
                                /* k = h / l^e */
                                memcpy(k, TG_COFACTOR, sizeof(k));
                                while (limbs_div_small(q_limbs, k, ELEMENTSOF(k), cp->prime) == 0)
                                        memcpy(k, q_limbs, sizeof(k));
                        } else {
                                memset(k, 0, sizeof(k));
                                k[0] = cp->multiplier;
                        }
                        TG(jac_mul)(&s, &t, k, nbits);
                        if (TG(jac_is_infinity)(&s))
                                continue;
                        /* climb down the l-power orders to a point of order exactly l */
                        if (cp->prime)
                                for (;;) {
                                        uint64_t l = cp->prime;
                                        TG(jac_mul)(&next, &s, &l, 64);
                                        if (TG(jac_is_infinity)(&next))
                                                break;
                                        s = next;
                                }
                        seen[m]++;
                        assert_true(TG(jac_is_on_curve)(&s));
                        assert_false(TG(in_subgroup_by_definition)(&s));
                        assert_false(TG(jac_in_subgroup)(&s));
                }
        }
        for (size_t m = 0; m < n; m++)
                if (!seen[m])
                        fail_msg("%s: no random point had an l-torsion part for l = %" PRIu64,
                                 T_NAME, TG(cofactor_primes)[m].prime);
}

static void TG(test_encoding_round_trip)(void **state) {
        static const point_format_t formats[] = {POINT_FORMAT_COMPRESSED, POINT_FORMAT_UNCOMPRESSED,
                                                 POINT_FORMAT_SNARKJS};
        uint8_t buf[2 * T_FE_BYTES], again[2 * T_FE_BYTES];
        (void)state;

        assert_int_equal(TG(encoded_bytes)(POINT_FORMAT_COMPRESSED), T_FE_BYTES);
        assert_int_equal(TG(encoded_bytes)(POINT_FORMAT_UNCOMPRESSED), 2 * T_FE_BYTES);
        assert_int_equal(TG(encoded_bytes)(POINT_FORMAT_SNARKJS), 2 * T_FE_BYTES);
        for (unsigned i = 0; i < scaled(30); i++) {
                for (size_t f = 0; f < ELEMENTSOF(formats); f++) {
                        size_t n = TG(encoded_bytes)(formats[f]);
                        T_AFF a, back;
                        T_JAC j;
                        fr_t k;

                        if (i == 0) {
                                TG(affine_set_infinity)(&a);
                        } else {
                                TG(rng_scalar_point)(&j, &k);
                                TG(jac_to_affine)(&a, &j);
                        }
                        TG(encode)(buf, n, &a, formats[f]);
                        assert_int_equal(TG(decode)(&back, buf, n, formats[f], 0), 0);
                        assert_true(TG(affine_equal)(&back, &a));
                        TG(encode)(again, n, &back, formats[f]);
                        assert_memory_equal(buf, again, n);
                        /* -a differs only in the sign flag when compressed */
                        TG(affine_neg)(&back, &a);
                        TG(encode)(again, n, &back, formats[f]);
                        if (formats[f] == POINT_FORMAT_COMPRESSED && i > 0) {
                                assert_int_equal(buf[0] ^ again[0], 0x20);
                                assert_memory_equal(buf + 1, again + 1, n - 1);
                        }
                }
        }
        /* the flag bytes of infinity */
        {
                T_AFF inf;
                TG(affine_set_infinity)(&inf);
                TG(encode)(buf, T_FE_BYTES, &inf, POINT_FORMAT_COMPRESSED);
                assert_int_equal(buf[0], 0xc0);
                TG(encode)(buf, 2 * T_FE_BYTES, &inf, POINT_FORMAT_UNCOMPRESSED);
                assert_int_equal(buf[0], 0x40);
                TG(encode)(buf, 2 * T_FE_BYTES, &inf, POINT_FORMAT_SNARKJS);
                for (size_t b = 0; b < 2 * T_FE_BYTES; b++)
                        assert_int_equal(buf[b], 0);
        }
}

/* Decodes in and expects error code e; r must stay untouched. */
static void TG(expect_decode_error)(const uint8_t *in, size_t n, point_format_t f, unsigned flags,
                                    int e) {
        T_AFF r = T_GENERATOR;
        int got = TG(decode)(&r, in, n, f, flags);

        if (got != e)
                fail_msg("%s decode (format %d): got %d (%s), expected %d (%s)", T_NAME, (int)f,
                         got, zk_strerror(got), e, zk_strerror(e));
        assert_true(TG(affine_equal)(&r, &T_GENERATOR));
}

/* A coordinate field element x for which x^3 + b is not a square. */
static void TG(rng_x_off_curve)(TFE_T *x) {
        T_AFF unused;

        do
                TG(rng_fe)(x);
        while (TG(affine_from_x)(&unused, x, false));
}

static void TG(test_decoding_errors)(void **state) {
        uint8_t good_c[T_FE_BYTES], good_u[2 * T_FE_BYTES], good_s[2 * T_FE_BYTES];
        uint8_t bad[2 * T_FE_BYTES + 1];
        uint8_t p_be[FP_BYTES], p_le[FP_BYTES];
        const size_t nc = T_FE_BYTES, nu = 2 * T_FE_BYTES;
        T_AFF a, outside, inf, r;
        T_JAC j;
        TFE_T x;
        fr_t k;
        (void)state;

        modulus_be(p_be);
        modulus_le(p_le);
        TG(rng_scalar_point)(&j, &k);
        TG(jac_to_affine)(&a, &j);
        TG(affine_set_infinity)(&inf);
        do
                TG(rng_curve_point)(&outside);
        while (TG(affine_in_subgroup)(&outside));
        TG(encode)(good_c, nc, &a, POINT_FORMAT_COMPRESSED);
        TG(encode)(good_u, nu, &a, POINT_FORMAT_UNCOMPRESSED);
        TG(encode)(good_s, nu, &a, POINT_FORMAT_SNARKJS);

        /* wrong length, every format, one byte short and one too many */
        memset(bad, 0, sizeof(bad));
        memcpy(bad, good_c, nc);
        TG(expect_decode_error)(bad, nc - 1, POINT_FORMAT_COMPRESSED, 0, -ZK_E_WRONG_LENGTH);
        TG(expect_decode_error)(bad, nc + 1, POINT_FORMAT_COMPRESSED, 0, -ZK_E_WRONG_LENGTH);
        memcpy(bad, good_u, nu);
        TG(expect_decode_error)(bad, nu - 1, POINT_FORMAT_UNCOMPRESSED, 0, -ZK_E_WRONG_LENGTH);
        TG(expect_decode_error)(bad, nu + 1, POINT_FORMAT_UNCOMPRESSED, 0, -ZK_E_WRONG_LENGTH);
        TG(expect_decode_error)(bad, nc, POINT_FORMAT_UNCOMPRESSED, 0, -ZK_E_WRONG_LENGTH);
        memcpy(bad, good_s, nu);
        TG(expect_decode_error)(bad, nu - 1, POINT_FORMAT_SNARKJS, 0, -ZK_E_WRONG_LENGTH);
        TG(expect_decode_error)(bad, 0, POINT_FORMAT_SNARKJS, 0, -ZK_E_WRONG_LENGTH);

        /* bad flags: compression bit contradicting the format, sign bit with
         * infinity, sign bit when uncompressed */
        memcpy(bad, good_c, nc);
        bad[0] &= 0x7f;
        TG(expect_decode_error)(bad, nc, POINT_FORMAT_COMPRESSED, 0, -ZK_E_BAD_FLAGS);
        memcpy(bad, good_u, nu);
        bad[0] |= 0x80;
        TG(expect_decode_error)(bad, nu, POINT_FORMAT_UNCOMPRESSED, 0, -ZK_E_BAD_FLAGS);
        memcpy(bad, good_u, nu);
        bad[0] |= 0x20;
        TG(expect_decode_error)(bad, nu, POINT_FORMAT_UNCOMPRESSED, 0, -ZK_E_BAD_FLAGS);
        memset(bad, 0, nc);
        bad[0] = 0xe0;
        TG(expect_decode_error)(bad, nc, POINT_FORMAT_COMPRESSED, 0, -ZK_E_BAD_FLAGS);
        memset(bad, 0, nu);
        bad[0] = 0x60;
        TG(expect_decode_error)(bad, nu, POINT_FORMAT_UNCOMPRESSED, 0, -ZK_E_BAD_FLAGS);

        /* infinity flag with other bits set: in the first byte, in the last
         * byte, in y (uncompressed) */
        memset(bad, 0, nc);
        bad[0] = 0xc1;
        TG(expect_decode_error)(bad, nc, POINT_FORMAT_COMPRESSED, 0, -ZK_E_INFINITY_NOT_ZERO);
        memset(bad, 0, nc);
        bad[0] = 0xc0;
        bad[nc - 1] = 1;
        TG(expect_decode_error)(bad, nc, POINT_FORMAT_COMPRESSED, 0, -ZK_E_INFINITY_NOT_ZERO);
        memcpy(bad, good_c, nc);
        bad[0] |= 0x40;
        bad[0] &= ~0x20;
        TG(expect_decode_error)(bad, nc, POINT_FORMAT_COMPRESSED, 0, -ZK_E_INFINITY_NOT_ZERO);
        memset(bad, 0, nu);
        bad[0] = 0x40;
        bad[nc] = 0x01;
        TG(expect_decode_error)(bad, nu, POINT_FORMAT_UNCOMPRESSED, 0, -ZK_E_INFINITY_NOT_ZERO);

        /* not canonical: a coordinate (or one Fp half of it) equal to p */
        memcpy(bad, good_c, nc);
        memcpy(bad, p_be, FP_BYTES);
        bad[0] |= 0x80;
        TG(expect_decode_error)(bad, nc, POINT_FORMAT_COMPRESSED, 0, -ZK_E_NOT_CANONICAL);
        memcpy(bad, good_c, nc);
        memcpy(bad + nc - FP_BYTES, p_be, FP_BYTES); /* G2: c0; G1: x itself */
        bad[0] |= 0x80;
        TG(expect_decode_error)(bad, nc, POINT_FORMAT_COMPRESSED, 0, -ZK_E_NOT_CANONICAL);
        memcpy(bad, good_u, nu);
        memcpy(bad + nc - FP_BYTES, p_be, FP_BYTES); /* x (G2: x.c0) */
        TG(expect_decode_error)(bad, nu, POINT_FORMAT_UNCOMPRESSED, 0, -ZK_E_NOT_CANONICAL);
        memcpy(bad, good_u, nu);
        memcpy(bad + nc, p_be, FP_BYTES); /* y (G2: y.c1) */
        TG(expect_decode_error)(bad, nu, POINT_FORMAT_UNCOMPRESSED, 0, -ZK_E_NOT_CANONICAL);
        memcpy(bad, good_u, nu);
        memcpy(bad + nu - FP_BYTES, p_be, FP_BYTES); /* y (G2: y.c0) */
        TG(expect_decode_error)(bad, nu, POINT_FORMAT_UNCOMPRESSED, 0, -ZK_E_NOT_CANONICAL);
        memcpy(bad, good_s, nu);
        memcpy(bad, p_le, FP_BYTES); /* x (G2: x.c0) */
        TG(expect_decode_error)(bad, nu, POINT_FORMAT_SNARKJS, 0, -ZK_E_NOT_CANONICAL);
        memcpy(bad, good_s, nu);
        memcpy(bad + nu - FP_BYTES, p_le, FP_BYTES); /* y (G2: y.c1) */
        TG(expect_decode_error)(bad, nu, POINT_FORMAT_SNARKJS, 0, -ZK_E_NOT_CANONICAL);
        memcpy(bad, good_s, nu);
        memset(bad, 0xff, FP_BYTES);
        TG(expect_decode_error)(bad, nu, POINT_FORMAT_SNARKJS, 0, -ZK_E_NOT_CANONICAL);

        /* not on the curve: an x without y, a changed y, (0, 0) without the
         * infinity flag */
        TG(rng_x_off_curve)(&x);
        r.x = x;
        TFE(set_one)(&r.y);
        TG(encode)(bad, nc, &r, POINT_FORMAT_COMPRESSED);
        TG(expect_decode_error)(bad, nc, POINT_FORMAT_COMPRESSED, 0, -ZK_E_NOT_ON_CURVE);
        r = a;
        TFE(add)(&r.y, &r.y, &r.x);
        TG(encode)(bad, nu, &r, POINT_FORMAT_UNCOMPRESSED);
        TG(expect_decode_error)(bad, nu, POINT_FORMAT_UNCOMPRESSED, 0, -ZK_E_NOT_ON_CURVE);
        TG(expect_decode_error)
        (bad, nu, POINT_FORMAT_UNCOMPRESSED, POINT_DECODE_SKIP_SUBGROUP_CHECK, -ZK_E_NOT_ON_CURVE);
        TG(encode)(bad, nu, &r, POINT_FORMAT_SNARKJS);
        TG(expect_decode_error)(bad, nu, POINT_FORMAT_SNARKJS, 0, -ZK_E_NOT_ON_CURVE);
        memset(bad, 0, nu);
        TG(expect_decode_error)(bad, nu, POINT_FORMAT_UNCOMPRESSED, 0, -ZK_E_NOT_ON_CURVE);

        /* on the curve, outside the subgroup: rejected, or accepted when the
         * caller skips the check */
        {
                static const point_format_t formats[] = {
                        POINT_FORMAT_COMPRESSED, POINT_FORMAT_UNCOMPRESSED, POINT_FORMAT_SNARKJS};
                for (size_t f = 0; f < ELEMENTSOF(formats); f++) {
                        size_t n = TG(encoded_bytes)(formats[f]);
                        TG(encode)(bad, n, &outside, formats[f]);
                        TG(expect_decode_error)(bad, n, formats[f], 0, -ZK_E_NOT_IN_SUBGROUP);
                        assert_int_equal(TG(decode)(&r, bad, n, formats[f],
                                                    POINT_DECODE_SKIP_SUBGROUP_CHECK),
                                         0);
                        assert_true(TG(affine_equal)(&r, &outside));
                }
        }

        /* and the well-formed inputs decode */
        assert_int_equal(TG(decode)(&r, good_c, nc, POINT_FORMAT_COMPRESSED, 0), 0);
        assert_true(TG(affine_equal)(&r, &a));
        TG(encode)(bad, nc, &inf, POINT_FORMAT_COMPRESSED);
        assert_int_equal(TG(decode)(&r, bad, nc, POINT_FORMAT_COMPRESSED, 0), 0);
        assert_true(TG(affine_is_infinity)(&r));
}

#endif /* TEST_CURVE_TEMPLATE */
