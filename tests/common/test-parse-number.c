/* SPDX-License-Identifier: Apache-2.0 */
/* common/parse-number: bases, bounds, and what strtoull() alone would let through. */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <stdint.h>

#include "common/parse-number.h"

static void test_accepts(void **state) {
        uint64_t v = 0;
        (void)state;

        assert_int_equal(parse_unsigned_range("0", 0, 10, 10, &v), 0);
        assert_int_equal(v, 0);
        assert_int_equal(parse_unsigned_range("4096", 0, 4096, 10, &v), 0);
        assert_int_equal(v, 4096);
        assert_int_equal(parse_unsigned_range("18446744073709551615", 0, UINT64_MAX, 10, &v), 0);
        assert_int_equal(v, UINT64_MAX);
        assert_int_equal(parse_unsigned_range("0x10", 0, 100, 0, &v), 0);
        assert_int_equal(v, 16);
        assert_int_equal(parse_unsigned_range("010", 0, 100, 0, &v), 0);
        assert_int_equal(v, 8);
        assert_int_equal(parse_unsigned_range("0755", 0, 07777, 8, &v), 0);
        assert_int_equal(v, 0755);
        assert_int_equal(parse_unsigned_range("5", 5, 5, 10, &v), 0);
        assert_int_equal(v, 5);
}

static void test_refuses(void **state) {
        uint64_t v = 7;
        (void)state;

        /* Not of the form: -EINVAL. */
        assert_int_equal(parse_unsigned_range("", 0, 10, 10, &v), -EINVAL);
        assert_int_equal(parse_unsigned_range("-1", 0, UINT64_MAX, 10, &v), -EINVAL);
        assert_int_equal(parse_unsigned_range(" -1", 0, UINT64_MAX, 10, &v), -EINVAL);
        assert_int_equal(parse_unsigned_range("+1", 0, 10, 10, &v), -EINVAL);
        assert_int_equal(parse_unsigned_range(" 1", 0, 10, 10, &v), -EINVAL);
        assert_int_equal(parse_unsigned_range("1 ", 0, 10, 10, &v), -EINVAL);
        assert_int_equal(parse_unsigned_range("1k", 0, 10, 10, &v), -EINVAL);
        assert_int_equal(parse_unsigned_range("0x10", 0, 100, 10, &v), -EINVAL);
        assert_int_equal(parse_unsigned_range("8", 0, 100, 8, &v), -EINVAL);
        /* Of the form, out of range: -ERANGE. */
        assert_int_equal(parse_unsigned_range("4097", 0, 4096, 10, &v), -ERANGE);
        assert_int_equal(parse_unsigned_range("4", 5, 10, 10, &v), -ERANGE);
        assert_int_equal(parse_unsigned_range("18446744073709551616", 0, UINT64_MAX, 10, &v),
                         -ERANGE);
        /* Nothing stored on failure. */
        assert_int_equal(v, 7);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_accepts),
                cmocka_unit_test(test_refuses),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
