/* SPDX-License-Identifier: Apache-2.0 */
/*
 * G1 and G2 against ffjavascript (tests/node/curve-vectors.js): for random
 * P = k1*G, Q = k2*G the script gives P, Q, P + Q, 2P, k*P (k full-width or
 * small) and P's encodings; we recompute each through every form (Jacobian,
 * mixed, XYZZ, batch affine) and compare coordinates and bytes. The
 * generators' compressed bytes are also checked against the published ones.
 *
 * Written once for both groups: this file includes itself with
 * TEST_CURVE_FFJS_TEMPLATE defined, once per group.
 */
#ifndef TEST_CURVE_FFJS_TEMPLATE

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cleanup.h"
#include "tests/lib/ref.h"
#include "zk/g1.h"
#include "zk/g2.h"
#include "zk/point_encoding.h"

static const char G1_GENERATOR_COMPRESSED_HEX[] =
        "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb"
        "22c6bb";
static const char G2_GENERATOR_COMPRESSED_HEX[] =
        "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d"
        "042b7e024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd480"
        "56c8c121bdb8";

static uint64_t seed;

static unsigned cases_per_group(void) {
        const char *s = getenv("CUZK_TEST_SCALE");
        double scale = s ? atof(s) : 1.0;
        unsigned n = (unsigned)(400 * scale);

        return n < 8 ? 8 : n; /* the first four cases are the special ones */
}

static int setup_seed(void **state) {
        const char *s = getenv("CUZK_TEST_SEED");

        (void)state;
        seed = s ? strtoull(s, NULL, 0) : (uint64_t)time(NULL);
        printf("test-curve-ffjs: seed %" PRIu64 " (CUZK_TEST_SEED=%" PRIu64 " repeats it)\n", seed,
               seed);
        test_rng_seed(seed);
        return 0;
}

static void hex_to_bytes(uint8_t *out, size_t n, const char *hex) {
        if (strlen(hex) != 2 * n)
                fail_msg("expected %zu hex bytes, got \"%s\"", n, hex);
        for (size_t i = 0; i < n; i++) {
                unsigned v;
                assert_int_equal(sscanf(hex + 2 * i, "%2x", &v), 1);
                out[i] = (uint8_t)v;
        }
}

static const char *json_str(const json_t *obj, const char *key) {
        const char *s = json_string_value(json_object_get(obj, key));

        if (!s)
                fail_msg("reference line without string \"%s\"", key);
        return s;
}

/* A scalar of up to 256 bits and its bit length. */
static size_t json_scalar(uint64_t k[4], const json_t *obj, const char *key) {
        size_t nbits = 256;

        assert_true(ref_hex_to_limbs(k, 4, json_str(obj, key)));
        while (nbits > 0 && !((k[(nbits - 1) / 64] >> ((nbits - 1) % 64)) & 1))
                nbits--;
        return nbits;
}

static void g1_json_fe(fp_t *r, const json_t *v) {
        ref_fp_from_json(r, v);
}

static void g2_json_fe(fp2_t *r, const json_t *v) {
        ref_fp2_from_json(r, v);
}

static void g1_rng_fe(fp_t *r) {
        test_rng_fp(r);
}

static void g2_rng_fe(fp2_t *r) {
        test_rng_fp2(r);
}

/* The vectors of one run, read once and shared by the tests. */
static json_t *vectors;

static int read_vectors(void **state) {
        char args[64];
        FILE *f;
        json_t *line;

        setup_seed(state);
        vectors = json_array();
        snprintf(args, sizeof(args), "%u %" PRIu64, cases_per_group(), seed);
        f = ref_run("curve-vectors.js", args);
        while ((line = ref_next(f)))
                json_array_append_new(vectors, line);
        if (ref_close(f) != 0) {
                fprintf(stderr, "curve-vectors.js failed\n");
                return -1;
        }
        return 0;
}

static int free_vectors(void **state) {
        (void)state;
        json_decref(vectors);
        return 0;
}

/* ---- G1 ---- */
#define TEST_CURVE_FFJS_TEMPLATE
#define TG(name) g1_##name
#define TFE(name) fp_##name
#define TFE_T fp_t
#define T_AFF g1_affine_t
#define T_JAC g1_jac_t
#define T_XYZZ g1_xyzz_t
#define T_GENERATOR G1_GENERATOR
#define T_GROUP "g1"
#define T_GENERATOR_KEY "g1c"
#define T_GENERATOR_HEX G1_GENERATOR_COMPRESSED_HEX
#define T_FE_BYTES FP_BYTES
#include "test-curve-ffjs.c"
#undef TG
#undef TFE
#undef TFE_T
#undef T_AFF
#undef T_JAC
#undef T_XYZZ
#undef T_GENERATOR
#undef T_GROUP
#undef T_GENERATOR_KEY
#undef T_GENERATOR_HEX
#undef T_FE_BYTES

/* ---- G2 ---- */
#define TG(name) g2_##name
#define TFE(name) fp2_##name
#define TFE_T fp2_t
#define T_AFF g2_affine_t
#define T_JAC g2_jac_t
#define T_XYZZ g2_xyzz_t
#define T_GENERATOR G2_GENERATOR
#define T_GROUP "g2"
#define T_GENERATOR_KEY "g2c"
#define T_GENERATOR_HEX G2_GENERATOR_COMPRESSED_HEX
#define T_FE_BYTES (2 * FP_BYTES)
#include "test-curve-ffjs.c"

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(g1_test_generator_bytes),
                cmocka_unit_test(g1_test_against_ffjs),
                cmocka_unit_test(g2_test_generator_bytes),
                cmocka_unit_test(g2_test_against_ffjs),
        };
        return cmocka_run_group_tests(tests, read_vectors, free_vectors);
}

#else /* TEST_CURVE_FFJS_TEMPLATE: the checks of one group */

static void TG(json_point)(T_AFF *r, const json_t *obj, const char *key) {
        const json_t *v = json_object_get(obj, key);

        if (!json_is_array(v) || json_array_size(v) != 2)
                fail_msg("reference line without point \"%s\"", key);
        TG(json_fe)(&r->x, json_array_get(v, 0));
        TG(json_fe)(&r->y, json_array_get(v, 1));
}

/* A non-trivial Z, so that the formulas do not run on Z = 1 only. */
static void TG(rescale)(T_JAC *r) {
        TFE_T l, l2, l3;

        do
                TG(rng_fe)(&l);
        while (TFE(is_zero)(&l));
        TFE(sqr)(&l2, &l);
        TFE(mul)(&l3, &l2, &l);
        TFE(mul)(&r->x, &r->x, &l2);
        TFE(mul)(&r->y, &r->y, &l3);
        TFE(mul)(&r->z, &r->z, &l);
}

static void TG(expect_jac)(const T_JAC *j, const T_AFF *expect, const char *what, size_t i) {
        T_AFF a;

        TG(jac_to_affine)(&a, j);
        if (!TG(affine_equal)(&a, expect))
                fail_msg("%s case %zu: %s differs from ffjavascript", T_GROUP, i, what);
}

static void TG(expect_xyzz)(const T_XYZZ *x, const T_AFF *expect, const char *what, size_t i) {
        T_JAC j;

        TG(xyzz_to_jac)(&j, x);
        TG(expect_jac)(&j, expect, what, i);
}

static void TG(test_generator_bytes)(void **state) {
        uint8_t published[T_FE_BYTES], ffjs[T_FE_BYTES], ours[T_FE_BYTES];
        (void)state;

        hex_to_bytes(published, sizeof(published), T_GENERATOR_HEX);
        for (size_t i = 0; i < json_array_size(vectors); i++) {
                const json_t *line = json_array_get(vectors, i);
                if (strcmp(json_str(line, "kind"), "generators") != 0)
                        continue;
                hex_to_bytes(ffjs, sizeof(ffjs), json_str(line, T_GENERATOR_KEY));
                assert_memory_equal(ffjs, published, sizeof(ffjs));
                TG(encode)(ours, sizeof(ours), &T_GENERATOR, POINT_FORMAT_COMPRESSED);
                assert_memory_equal(ours, published, sizeof(ours));
                return;
        }
        fail_msg("no generators line in the reference output");
}

static void TG(test_against_ffjs)(void **state) {
        static const struct {
                const char *key;
                point_format_t format;
        } encodings[] = {
                {"c", POINT_FORMAT_COMPRESSED},
                {"u", POINT_FORMAT_UNCOMPRESSED},
                {"lem", POINT_FORMAT_SNARKJS},
        };
        size_t n = json_array_size(vectors), cases = 0;
        _cleanup_free_ T_AFF *batch_acc = calloc(2 * n, sizeof(T_AFF));
        _cleanup_free_ T_AFF *batch_add = calloc(2 * n, sizeof(T_AFF));
        _cleanup_free_ T_AFF *batch_expect = calloc(2 * n, sizeof(T_AFF));
        _cleanup_free_ TFE_T *scratch = calloc(2 * n, sizeof(TFE_T));
        (void)state;

        assert_non_null(batch_acc);
        assert_non_null(batch_add);
        assert_non_null(batch_expect);
        assert_non_null(scratch);
        for (size_t i = 0; i < n; i++) {
                const json_t *line = json_array_get(vectors, i);
                uint64_t k1[4], k2[4], k[4];
                size_t k_bits;
                T_AFF p, q, sum, dbl, kp, decoded;
                T_JAC g, pj, qj, t;
                T_XYZZ px, qx, x;
                fr_t s;

                if (strcmp(json_str(line, "kind"), "point") != 0 ||
                    strcmp(json_str(line, "group"), T_GROUP) != 0)
                        continue;
                json_scalar(k1, line, "k1");
                json_scalar(k2, line, "k2");
                k_bits = json_scalar(k, line, "k");
                TG(json_point)(&p, line, "p");
                TG(json_point)(&q, line, "q");
                TG(json_point)(&sum, line, "sum");
                TG(json_point)(&dbl, line, "dbl");
                TG(json_point)(&kp, line, "kp");
                assert_true(TG(affine_is_on_curve)(&p));
                assert_true(TG(affine_in_subgroup)(&q));

                /* P = k1 G through mul_fr, Q = k2 G through mul on limbs */
                TG(jac_from_affine)(&g, &T_GENERATOR);
                assert_true(fr_from_canonical(&s, k1));
                TG(jac_mul_fr)(&pj, &g, &s);
                TG(expect_jac)(&pj, &p, "k1*G (mul_fr)", cases);
                TG(jac_mul)(&qj, &g, k2, 256);
                TG(expect_jac)(&qj, &q, "k2*G (mul)", cases);

                /* P + Q: Jacobian, mixed, XYZZ, mixed XYZZ */
                TG(rescale)(&pj);
                TG(rescale)(&qj);
                TG(jac_add)(&t, &pj, &qj);
                TG(expect_jac)(&t, &sum, "P+Q (jac_add)", cases);
                TG(jac_add_affine)(&t, &pj, &q);
                TG(expect_jac)(&t, &sum, "P+Q (jac_add_affine)", cases);
                TG(xyzz_from_affine)(&px, &p);
                TG(xyzz_from_affine)(&qx, &q);
                TG(xyzz_dbl)(&px, &px); /* 2P, then 2P + Q - P: ZZ != 1 in the sum */
                TG(xyzz_add)(&x, &px, &qx);
                TG(xyzz_sub_affine)(&x, &x, &p);
                TG(expect_xyzz)(&x, &sum, "P+Q (xyzz_add, xyzz_sub_affine)", cases);
                TG(xyzz_from_affine)(&px, &p);
                TG(xyzz_add_affine)(&x, &px, &q);
                TG(expect_xyzz)(&x, &sum, "P+Q (xyzz_add_affine)", cases);

                /* 2P */
                TG(jac_dbl)(&t, &pj);
                TG(expect_jac)(&t, &dbl, "2P (jac_dbl)", cases);
                TG(xyzz_dbl)(&x, &px);
                TG(expect_xyzz)(&x, &dbl, "2P (xyzz_dbl)", cases);
                TG(expect_xyzz)(&px, &p, "P (xyzz_from_affine)", cases);

                /* k P, k full-width or small, with and without leading zeros */
                TG(jac_mul)(&t, &pj, k, 256);
                TG(expect_jac)(&t, &kp, "k*P (256 bits)", cases);
                TG(jac_mul)(&t, &pj, k, k_bits);
                TG(expect_jac)(&t, &kp, "k*P (exact bit length)", cases);

                /* P + Q and P + P in one batch at the end */
                batch_acc[2 * cases] = p;
                batch_add[2 * cases] = q;
                batch_expect[2 * cases] = sum;
                batch_acc[2 * cases + 1] = p;
                batch_add[2 * cases + 1] = p;
                batch_expect[2 * cases + 1] = dbl;

                /* encodings: our bytes are ffjavascript's, and decode back to P */
                for (size_t e = 0; e < ELEMENTSOF(encodings); e++) {
                        uint8_t ref[2 * T_FE_BYTES], ours[2 * T_FE_BYTES];
                        size_t len = TG(encoded_bytes)(encodings[e].format);

                        hex_to_bytes(ref, len, json_str(line, encodings[e].key));
                        TG(encode)(ours, len, &p, encodings[e].format);
                        if (memcmp(ours, ref, len) != 0)
                                fail_msg("%s case %zu: encoding \"%s\" differs from ffjavascript",
                                         T_GROUP, cases, encodings[e].key);
                        assert_int_equal(TG(decode)(&decoded, ref, len, encodings[e].format, 0), 0);
                        assert_true(TG(affine_equal)(&decoded, &p));
                }
                cases++;
        }
        assert_true(cases >= 8);
        TG(affine_batch_add)(batch_acc, batch_add, 2 * cases, scratch);
        for (size_t i = 0; i < 2 * cases; i++)
                if (!TG(affine_equal)(&batch_acc[i], &batch_expect[i]))
                        fail_msg("%s case %zu: affine_batch_add (%s) differs from ffjavascript",
                                 T_GROUP, i / 2, i % 2 ? "P+P" : "P+Q");
        printf("test-curve-ffjs: %s: %zu cases match ffjavascript\n", T_GROUP, cases);
}

#endif /* TEST_CURVE_FFJS_TEMPLATE */
