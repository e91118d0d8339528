/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Our pairing against ffjavascript's (the library snarkjs verifies Groth16
 * proofs with): tests/node/pairing-vectors.js prints random points k*G and
 * their pairing values, and four-pairing products with ffjavascript's
 * verdict on them. Every Fp12 coefficient must agree.
 * CUZK_TEST_SCALE (default 1.0) scales the number of vectors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "tests/lib/ref.h"
#include "zk/fp12.h"
#include "zk/pairing.h"

#define PRODUCT_PAIRS 4

static int iterations(int base) {
        const char *s = getenv("CUZK_TEST_SCALE");
        double scale = s ? atof(s) : 1.0;
        int n = (int)(base * scale + 0.5);
        return n < 1 ? 1 : n;
}

static const json_t *json_array_at(const json_t *array, size_t i, size_t expected_size) {
        if (!json_is_array(array) || json_array_size(array) != expected_size)
                fail_msg("expected a JSON array of %zu elements in the reference output",
                         expected_size);
        return json_array_get(array, i);
}

/* [x, y]; [0, 0] is the point at infinity, as in g1_affine_t. */
static void g1_from_json(g1_affine_t *r, const json_t *v) {
        ref_fp_from_json(&r->x, json_array_at(v, 0, 2));
        ref_fp_from_json(&r->y, json_array_at(v, 1, 2));
        assert_true(g1_affine_is_on_curve(r));
}

static void g2_from_json(g2_affine_t *r, const json_t *v) {
        ref_fp2_from_json(&r->x, json_array_at(v, 0, 2));
        ref_fp2_from_json(&r->y, json_array_at(v, 1, 2));
        assert_true(g2_affine_is_on_curve(r));
}

/* Twelve Fp values in ffjavascript's order c0.c0.c0, c0.c0.c1, c0.c1.c0, ... */
static void fp12_from_json(fp12_t *r, const json_t *v) {
        fp2_t *coefficients[6] = {&r->c0.c0, &r->c0.c1, &r->c0.c2, &r->c1.c0, &r->c1.c1, &r->c1.c2};

        for (size_t i = 0; i < 6; i++) {
                ref_fp_from_json(&coefficients[i]->c0, json_array_at(v, 2 * i, 12));
                ref_fp_from_json(&coefficients[i]->c1, json_array_at(v, 2 * i + 1, 12));
        }
}

static void check_pairing(const json_t *vector) {
        g1_affine_t p;
        g2_affine_t q;
        fp12_t expect, e;

        g1_from_json(&p, json_object_get(vector, "p"));
        g2_from_json(&q, json_object_get(vector, "q"));
        fp12_from_json(&expect, json_object_get(vector, "e"));
        pairing(&e, &p, &q);
        if (!fp12_equal(&e, &expect))
                fail_msg("e(k1 G1, k2 G2) differs from ffjavascript for k1 = %s, k2 = %s",
                         json_string_value(json_object_get(vector, "k1")),
                         json_string_value(json_object_get(vector, "k2")));
}

static void check_product(const json_t *vector) {
        const json_t *ps = json_object_get(vector, "p"), *qs = json_object_get(vector, "q");
        const json_t *is_one = json_object_get(vector, "is_one");
        g1_affine_t p[PRODUCT_PAIRS];
        g2_affine_t q[PRODUCT_PAIRS];

        assert_true(json_is_boolean(is_one));
        for (size_t i = 0; i < PRODUCT_PAIRS; i++) {
                g1_from_json(&p[i], json_array_at(ps, i, PRODUCT_PAIRS));
                g2_from_json(&q[i], json_array_at(qs, i, PRODUCT_PAIRS));
        }
        assert_int_equal(pairing_product_is_one(p, q, PRODUCT_PAIRS), json_is_true(is_one));
}

static void test_pairing_matches_ffjavascript(void **state) {
        int pairings = iterations(24), products = iterations(8);
        int seen_pairings = 0, seen_products = 0, seen_true = 0;
        char args[64];
        json_t *vector;
        FILE *f;
        (void)state;

        /* at least the generators, P at infinity and one random pair */
        if (pairings < 3)
                pairings = 3;
        if (products < 2)
                products = 2;
        snprintf(args, sizeof(args), "%d %d 4242", pairings, products);
        f = ref_run("pairing-vectors.js", args);
        while ((vector = ref_next(f))) {
                const char *kind = json_string_value(json_object_get(vector, "kind"));

                assert_non_null(kind);
                if (strcmp(kind, "pairing") == 0) {
                        check_pairing(vector);
                        seen_pairings++;
                } else if (strcmp(kind, "product") == 0) {
                        check_product(vector);
                        seen_products++;
                        seen_true += json_is_true(json_object_get(vector, "is_one"));
                } else {
                        fail_msg("unknown vector kind '%s'", kind);
                }
                json_decref(vector);
        }
        assert_int_equal(ref_close(f), 0);
        assert_int_equal(seen_pairings, pairings);
        assert_int_equal(seen_products, products);
        /* both verdicts were exercised */
        assert_true(seen_true > 0 && seen_true < seen_products);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_pairing_matches_ffjavascript),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
