/* SPDX-License-Identifier: Apache-2.0 */
/* Running a command from a cmocka test and checking what it printed. */
#pragma once

#include <stdbool.h>

/*
 * Runs a shell command line (printf-style), its stderr merged into its
 * stdout (merge_stderr) or dropped. Returns its exit status and, when
 * ret_output, what it printed (malloc()ed, NUL-terminated); fails the test
 * when it could not be run or did not exit.
 */
int test_run_shell(char **ret_output, bool merge_stderr, const char *format, ...)
        __attribute__((format(printf, 3, 4)));

/* Fails the test, showing haystack, unless needle is in it. */
void test_assert_contains(const char *haystack, const char *needle);
