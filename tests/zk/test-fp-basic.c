/* SPDX-License-Identifier: Apache-2.0 */
/* Small algebraic sanity checks of the field layer; the exhaustive checks
 * against GMP are in test-field-gmp.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include "tests/lib/ref.h"

static void test_fp_small_products(void **state) {
        fp_t a, b, c, expect;
        (void)state;

        fp_from_u64(&a, 3);
        fp_from_u64(&b, 5);
        fp_mul(&c, &a, &b);
        fp_from_u64(&expect, 15);
        assert_true(fp_equal(&c, &expect));
        fp_inv(&b, &a);
        fp_mul(&c, &b, &a);
        assert_true(fp_is_one(&c));
}

static void test_fp2_sqrt(void **state) {
        (void)state;
        test_rng_seed(1);
        for (int i = 0; i < 100; i++) {
                fp2_t a, s, r, back;
                test_rng_fp2(&a);
                fp2_sqr(&s, &a);
                assert_true(fp2_sqrt(&r, &s));
                fp2_sqr(&back, &r);
                assert_true(fp2_equal(&back, &s));
        }
}

static void test_fr_inverse(void **state) {
        (void)state;
        test_rng_seed(2);
        for (int i = 0; i < 100; i++) {
                fr_t a, b, c;
                test_rng_fr(&a);
                fr_inv(&b, &a);
                fr_mul(&c, &a, &b);
                assert_true(fr_is_one(&c));
        }
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_fp_small_products),
                cmocka_unit_test(test_fp2_sqrt),
                cmocka_unit_test(test_fr_inverse),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
