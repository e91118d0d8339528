/* SPDX-License-Identifier: Apache-2.0 */
/* Helpers shared by the cgroup tests: fixture trees (a temp directory that mimics cgroupfs
 * files, as oomd's tests do), log capture, and a runner printing one PASS/FAIL/SKIP line per
 * case (kernel selftest style) besides cmocka's output. */
#pragma once

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <cmocka.h>

/* A fixture tree: path and an O_PATH dirfd of its top directory. */
typedef struct cgt_fixture {
        char path[256];
        int dirfd;
} cgt_fixture_t;

/* cmocka setup/teardown creating and removing a fixture tree in *state. */
int cgt_fixture_setup(void **state);
int cgt_fixture_teardown(void **state);

/* Writes (replacing) or reads a file below dirfd; the test fails on errors. */
void cgt_write_file(int dirfd, const char *file, const char *content);
/* Returns the bytes read (content NUL-terminated). */
size_t cgt_read_file(int dirfd, const char *file, char *buf, size_t size);
void cgt_mkdir(int dirfd, const char *name);

/* Captures log messages: cgt_log_last() is the latest since cgt_log_reset(). */
void cgt_log_capture(void);
void cgt_log_reset(void);
const char *cgt_log_last(void);
int cgt_log_count(void);
/* Asserts that the latest message contains each of the strings given. */
#define cgt_assert_log_contains(...) \
        cgt_assert_log_contains_all((const char *const[]){__VA_ARGS__, 0})
void cgt_assert_log_contains_all(const char *const *strings);

/* Marks the running case skipped (for the summary line) and skips it in cmocka. */
#define cgt_skip(...)                       \
        do {                                \
                cgt_note_skip(__VA_ARGS__); \
                skip();                     \
        } while (0)
void cgt_note_skip(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Runs each case on its own and prints "PASS: name", "FAIL: name" or "SKIP: name (why)".
 * Returns 0 when all passed or skipped, 1 when any failed, 77 when every case skipped. */
int cgt_run(const char *group, const struct CMUnitTest *tests, size_t n_tests);
