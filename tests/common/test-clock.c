/* SPDX-License-Identifier: Apache-2.0 */
/* common/clock: both units read the same monotonic clock, which moves forward. */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdint.h>
#include <time.h>

#include "common/clock.h"

static void test_units_agree(void **state) {
        struct timespec ts;
        uint64_t before, after;
        double seconds;
        (void)state;

        before = clock_now_usec();
        seconds = clock_now_seconds();
        after = clock_now_usec();
        assert_true(before <= after);
        /* The same clock: the seconds read between the two microsecond reads. */
        assert_true(seconds * 1e6 >= (double)before - 1.0);
        assert_true(seconds * 1e6 <= (double)after + 1.0);
        clock_gettime(CLOCK_MONOTONIC, &ts);
        assert_true((uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u >= after);
}

static void test_moves_forward(void **state) {
        const struct timespec ten_ms = {.tv_nsec = 10 * 1000 * 1000};
        uint64_t start = clock_now_usec();
        double start_seconds = clock_now_seconds();
        (void)state;

        nanosleep(&ten_ms, NULL);
        assert_true(clock_now_usec() - start >= 10000);
        assert_true(clock_now_seconds() - start_seconds >= 0.01);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_units_agree),
                cmocka_unit_test(test_moves_forward),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
