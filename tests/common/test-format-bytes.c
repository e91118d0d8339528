/* SPDX-License-Identifier: Apache-2.0 */
/* common/format-bytes: each unit, its edges, and a short buffer. */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdint.h>

#include "common/format-bytes.h"

static void test_units(void **state) {
        static const struct {
                uint64_t bytes;
                const char *text;
        } cases[] = {
                {0, "0 B"},
                {1023, "1023 B"},
                {1024, "1.0 KiB"},
                {1536, "1.5 KiB"},
                {UINT64_C(16) << 30, "16.0 GiB"},
                {UINT64_C(123) << 30, "123.0 GiB"},
                {(UINT64_C(1) << 40) - 1, "1024.0 GiB"}, /* rounds up, stays in GiB */
                {UINT64_C(3) << 40, "3.0 TiB"},
                {UINT64_C(1) << 50, "1.0 PiB"},
                {UINT64_MAX, "16384.0 PiB"}, /* PiB is the largest unit */
        };
        char buffer[32];
        (void)state;

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                format_bytes(buffer, sizeof(buffer), cases[i].bytes);
                assert_string_equal(buffer, cases[i].text);
        }
}

static void test_short_buffer(void **state) {
        char buffer[5];
        (void)state;

        format_bytes(buffer, sizeof(buffer), UINT64_C(123) << 30);
        assert_string_equal(buffer, "123.");
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_units),
                cmocka_unit_test(test_short_buffer),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
