/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Our MSM against ffjavascript's G1.multiExpAffine / G2.multiExpAffine (the
 * functions snarkjs proves with): tests/node/msm-vectors.js prints random
 * points (some at infinity), scalars mixing random values with 0, 1, r - 1
 * and small ones, and ffjavascript's result. Both scalar forms and several
 * thread counts must give that result.
 * CUZK_TEST_SCALE (default 1.0) scales the largest size.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "tests/lib/ref.h"
#include "zk/g1.h"
#include "zk/g2.h"
#include "zk/msm.h"

static size_t scaled(size_t n) {
        const char *s = getenv("CUZK_TEST_SCALE");
        double scale = s ? atof(s) : 1.0;
        size_t r = (size_t)((double)n * scale);

        return r ? r : 1;
}

static const json_t *json_array_at(const json_t *array, size_t i, size_t expected_size) {
        if (!json_is_array(array) || json_array_size(array) != expected_size)
                fail_msg("expected a JSON array of %zu elements in the reference output",
                         expected_size);
        return json_array_get(array, i);
}

static const json_t *json_member(const json_t *obj, const char *key) {
        const json_t *v = json_object_get(obj, key);

        if (!v)
                fail_msg("key '%s' missing in the reference output", key);
        return v;
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

static void scalars_from_json(fr_t *k, uint64_t *limbs, const json_t *v, size_t n) {
        for (size_t i = 0; i < n; i++) {
                ref_fr_from_json(&k[i], json_array_at(v, i, n));
                fr_to_canonical(&limbs[i * FR_LIMBS], &k[i]);
        }
}

static void check_g1(const json_t *vector, size_t n) {
        _cleanup_free_ g1_affine_t *points = malloc((n ? n : 1) * sizeof(g1_affine_t));
        _cleanup_free_ fr_t *k = malloc((n ? n : 1) * sizeof(fr_t));
        _cleanup_free_ uint64_t *limbs = malloc((n ? n : 1) * FR_LIMBS * sizeof(uint64_t));
        const json_t *points_json = json_member(vector, "points");
        g1_affine_t expected_affine;
        g1_jac_t expected, r;

        assert_non_null(points);
        assert_non_null(k);
        assert_non_null(limbs);
        for (size_t i = 0; i < n; i++)
                g1_from_json(&points[i], json_array_at(points_json, i, n));
        scalars_from_json(k, limbs, json_member(vector, "scalars"), n);
        g1_from_json(&expected_affine, json_member(vector, "result"));
        g1_jac_from_affine(&expected, &expected_affine);

        for (unsigned threads = 1; threads <= 3; threads++) {
                assert_int_equal(g1_msm_fr(&r, points, k, n, threads), 0);
                if (!g1_jac_equal(&r, &expected))
                        fail_msg("G1 MSM of %zu points (Fr scalars, %u threads) differs from "
                                 "ffjavascript's multiExpAffine",
                                 n, threads);
                assert_int_equal(g1_msm_canonical(&r, points, limbs, n, threads), 0);
                if (!g1_jac_equal(&r, &expected))
                        fail_msg("G1 MSM of %zu points (canonical scalars, %u threads) differs "
                                 "from ffjavascript's multiExpAffine",
                                 n, threads);
        }
}

static void check_g2(const json_t *vector, size_t n) {
        _cleanup_free_ g2_affine_t *points = malloc((n ? n : 1) * sizeof(g2_affine_t));
        _cleanup_free_ fr_t *k = malloc((n ? n : 1) * sizeof(fr_t));
        _cleanup_free_ uint64_t *limbs = malloc((n ? n : 1) * FR_LIMBS * sizeof(uint64_t));
        const json_t *points_json = json_member(vector, "points");
        g2_affine_t expected_affine;
        g2_jac_t expected, r;

        assert_non_null(points);
        assert_non_null(k);
        assert_non_null(limbs);
        for (size_t i = 0; i < n; i++)
                g2_from_json(&points[i], json_array_at(points_json, i, n));
        scalars_from_json(k, limbs, json_member(vector, "scalars"), n);
        g2_from_json(&expected_affine, json_member(vector, "result"));
        g2_jac_from_affine(&expected, &expected_affine);

        for (unsigned threads = 1; threads <= 3; threads++) {
                assert_int_equal(g2_msm_fr(&r, points, k, n, threads), 0);
                if (!g2_jac_equal(&r, &expected))
                        fail_msg("G2 MSM of %zu points (Fr scalars, %u threads) differs from "
                                 "ffjavascript's multiExpAffine",
                                 n, threads);
                assert_int_equal(g2_msm_canonical(&r, points, limbs, n, threads), 0);
                if (!g2_jac_equal(&r, &expected))
                        fail_msg("G2 MSM of %zu points (canonical scalars, %u threads) differs "
                                 "from ffjavascript's multiExpAffine",
                                 n, threads);
        }
}

static void test_msm_vs_ffjavascript(void **state) {
        size_t sizes[] = {1, 2, 7, 100, scaled(1000)};
        char args[256];
        size_t len, checked[2] = {0, 0};
        FILE *f;
        json_t *vector;

        (void)state;
        len = (size_t)snprintf(args, sizeof(args), "%u", 20261202u);
        for (size_t i = 0; i < ELEMENTSOF(sizes); i++)
                len += (size_t)snprintf(args + len, sizeof(args) - len, " %zu", sizes[i]);
        f = ref_run("msm-vectors.js", args);
        while ((vector = ref_next(f))) {
                const char *group = json_string_value(json_member(vector, "group"));
                size_t n = (size_t)json_integer_value(json_member(vector, "n"));

                assert_non_null(group);
                if (strcmp(group, "G1") == 0) {
                        check_g1(vector, n);
                        checked[0]++;
                } else if (strcmp(group, "G2") == 0) {
                        check_g2(vector, n);
                        checked[1]++;
                } else {
                        fail_msg("unknown group '%s' in the reference output", group);
                }
                json_decref(vector);
        }
        assert_int_equal(ref_close(f), 0);
        /* every size for both groups: a script that stopped early fails here */
        assert_int_equal(checked[0], ELEMENTSOF(sizes));
        assert_int_equal(checked[1], ELEMENTSOF(sizes));
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_msm_vs_ffjavascript),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
