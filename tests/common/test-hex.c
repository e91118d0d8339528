/* SPDX-License-Identifier: Apache-2.0 */
/* common/hex: digits, the optional prefix, where a bad pair is, whole strings. */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/hex.h"

static void test_digit_value(void **state) {
        (void)state;

        assert_int_equal(hex_digit_value('0'), 0);
        assert_int_equal(hex_digit_value('9'), 9);
        assert_int_equal(hex_digit_value('a'), 10);
        assert_int_equal(hex_digit_value('F'), 15);
        assert_int_equal(hex_digit_value('g'), -EINVAL);
        assert_int_equal(hex_digit_value('G'), -EINVAL);
        assert_int_equal(hex_digit_value('/'), -EINVAL);
        assert_int_equal(hex_digit_value(' '), -EINVAL);
        assert_int_equal(hex_digit_value('\0'), -EINVAL);
}

static void test_skip_prefix(void **state) {
        static const char *const texts[] = {"0x12", "0X12", "12", "0", ""};
        (void)state;

        assert_ptr_equal(hex_skip_prefix(texts[0]), texts[0] + 2);
        assert_ptr_equal(hex_skip_prefix(texts[1]), texts[1] + 2);
        assert_ptr_equal(hex_skip_prefix(texts[2]), texts[2]);
        assert_ptr_equal(hex_skip_prefix(texts[3]), texts[3]);
        assert_ptr_equal(hex_skip_prefix(texts[4]), texts[4]);
}

static void test_decode(void **state) {
        uint8_t out[4] = {0};
        size_t bad = 99;
        (void)state;

        assert_int_equal(hex_decode("00fF10aB", 4, out, &bad), 0);
        assert_memory_equal(out, "\x00\xff\x10\xab", 4);
        assert_int_equal(bad, 99);
        /* Only the digits asked for are read. */
        assert_int_equal(hex_decode("01zz", 1, out, NULL), 0);
        assert_int_equal(out[0], 1);
        assert_int_equal(hex_decode("0102z3", 3, out, &bad), -EINVAL);
        assert_int_equal(bad, 4);
        assert_int_equal(hex_decode("013z", 2, out, &bad), -EINVAL);
        assert_int_equal(bad, 2);
        assert_int_equal(hex_decode("-1", 1, out, &bad), -EINVAL);
        assert_int_equal(bad, 0);
        assert_int_equal(hex_decode(" 1", 1, out, NULL), -EINVAL);
        assert_int_equal(hex_decode("", 0, out, NULL), 0);
}

static void test_decode_alloc(void **state) {
        uint8_t *bytes;
        size_t n;
        (void)state;

        assert_int_equal(hex_decode_alloc("0x00fF10", &bytes, &n), 0);
        assert_int_equal(n, 3);
        assert_memory_equal(bytes, "\x00\xff\x10", 3);
        free(bytes);
        assert_int_equal(hex_decode_alloc("0XAB", &bytes, &n), 0);
        assert_int_equal(n, 1);
        assert_int_equal(bytes[0], 0xab);
        free(bytes);
        assert_int_equal(hex_decode_alloc("", &bytes, &n), 0);
        assert_non_null(bytes);
        assert_int_equal(n, 0);
        free(bytes);
        assert_int_equal(hex_decode_alloc("0x", &bytes, &n), 0);
        assert_int_equal(n, 0);
        free(bytes);
        assert_int_equal(hex_decode_alloc("abc", &bytes, &n), -EINVAL);
        assert_int_equal(hex_decode_alloc("0xg0", &bytes, &n), -EINVAL);
        assert_int_equal(hex_decode_alloc("0x0", &bytes, &n), -EINVAL);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_digit_value),
                cmocka_unit_test(test_skip_prefix),
                cmocka_unit_test(test_decode),
                cmocka_unit_test(test_decode_alloc),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
