/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The NTT against ffjavascript's BLS12-381 Fr (the wasm engine snarkjs
 * proves with): its roots of unity Fr.w[k], Fr.fft, Fr.ifft, and the coset
 * step of snarkjs's groth16_prove.js (ifft, multiply by powers of
 * Fr.w[k+1], fft). Vectors come from tests/node/ntt-vectors.js.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/cleanup.h"
#include "tests/lib/ref.h"
#include "zk/ntt.h"

#define MAX_LOG 15

static double test_scale(void) {
        const char *s = getenv("CUZK_TEST_SCALE");
        double v = s ? atof(s) : 1.0;
        return v > 0 ? v : 1.0;
}

/* A JSON array of n hex strings as a new vector. */
static fr_t *vector_from_json(const json_t *obj, const char *key, size_t n) {
        const json_t *arr = json_object_get(obj, key);
        fr_t *v;

        assert_non_null(arr);
        assert_int_equal(json_array_size(arr), n);
        v = malloc(n * sizeof(fr_t));
        assert_non_null(v);
        for (size_t i = 0; i < n; i++)
                ref_fr_from_json(&v[i], json_array_get(arr, i));
        return v;
}

static void assert_vectors_equal(const fr_t *x, const fr_t *y, size_t n, const char *what,
                                 unsigned log_size) {
        for (size_t i = 0; i < n; i++)
                if (!fr_equal(&x[i], &y[i]))
                        fail_msg("%s, size 2^%u: element %zu differs from ffjavascript", what,
                                 log_size, i);
}

static void check_root(const json_t *obj, unsigned k) {
        fr_t ours, ours_inv, w, wi, w_f1;

        ref_get_fr(&w, obj, "w");
        ref_get_fr(&wi, obj, "wi");
        ref_get_fr(&w_f1, obj, "w_f1");
        ntt_root_of_unity(&ours, k, NTT_ROOTS_SNARKJS);
        assert_true(fr_equal(&ours, &w));
        assert_true(fr_equal(&ours, &w_f1));
        fr_inv(&ours_inv, &ours);
        assert_true(fr_equal(&ours_inv, &wi));
}

static void check_transform(const json_t *obj, const char *kind, const ntt_domain_t *d) {
        const size_t n = d->size;
        _cleanup_free_ fr_t *in = vector_from_json(obj, "in", n);
        _cleanup_free_ fr_t *expect = vector_from_json(obj, "out", n);
        _cleanup_free_ fr_t *buf = malloc(n * sizeof(fr_t));
        fr_t shift;

        assert_non_null(buf);
        if (strcmp(kind, "fft") == 0) {
                memcpy(buf, in, n * sizeof(fr_t));
                ntt_forward(d, buf, NTT_ORDER_NN);
                assert_vectors_equal(buf, expect, n, "Fr.fft", d->log_size);
        } else if (strcmp(kind, "ifft") == 0) {
                memcpy(buf, in, n * sizeof(fr_t));
                ntt_inverse(d, buf, NTT_ORDER_NN);
                assert_vectors_equal(buf, expect, n, "Fr.ifft", d->log_size);
        } else if (strcmp(kind, "snarkjs_h") == 0) {
                ntt_snarkjs_h_shift(&shift, d->log_size);
                /* The way a prover would: no permutation pass. */
                memcpy(buf, in, n * sizeof(fr_t));
                ntt_inverse(d, buf, NTT_ORDER_NR);
                ntt_coset_forward(d, buf, &shift, NTT_ORDER_RN);
                assert_vectors_equal(buf, expect, n, "snarkjs coset (NR/RN)", d->log_size);
                /* And natural order throughout. */
                memcpy(buf, in, n * sizeof(fr_t));
                ntt_inverse(d, buf, NTT_ORDER_NN);
                ntt_coset_forward(d, buf, &shift, NTT_ORDER_NN);
                assert_vectors_equal(buf, expect, n, "snarkjs coset (NN)", d->log_size);
        } else {
                fail_msg("ntt-vectors.js printed an unknown kind '%s'", kind);
        }
}

static void test_against_ffjavascript(void **state) {
        /* 2^13 .. 2^15 run the wide-stage sweeps; Fr.fft joins chunks past 2^14. */
        const char *sizes = test_scale() < 0.5 ? "0,1,2,5,8,12,13" : "0,1,2,3,5,8,11,12,13,14,15";
        ntt_domain_t *domains[MAX_LOG + 1] = {NULL};
        unsigned roots = 0, transforms = 0, expected_transforms = 3;
        char args[128];
        FILE *f;
        json_t *obj;
        (void)state;

        for (const char *p = sizes; *p; p++)
                expected_transforms += 3 * (*p == ',');
        snprintf(args, sizeof(args), "%d %s", 20260101, sizes);
        f = ref_run("ntt-vectors.js", args);
        while ((obj = ref_next(f))) {
                const char *kind = json_string_value(json_object_get(obj, "kind"));
                const json_int_t k = json_integer_value(json_object_get(obj, "log"));

                assert_non_null(kind);
                if (strcmp(kind, "root") == 0) {
                        assert_true(k >= 0 && k <= FR_TWO_ADICITY);
                        check_root(obj, (unsigned)k);
                        roots++;
                } else {
                        assert_true(k >= 0 && k <= MAX_LOG);
                        if (!domains[k])
                                assert_int_equal(
                                        ntt_domain_new(&domains[k], (unsigned)k, NTT_ROOTS_SNARKJS),
                                        0);
                        check_transform(obj, kind, domains[k]);
                        transforms++;
                }
                json_decref(obj);
        }
        assert_int_equal(ref_close(f), 0);
        for (size_t k = 0; k <= MAX_LOG; k++)
                ntt_domain_free(domains[k]);
        assert_int_equal(roots, FR_TWO_ADICITY + 1);
        assert_int_equal(transforms, expected_transforms);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_against_ffjavascript),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
