/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/lib/cgroup-common.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/log.h"

static char log_last[1024];
static int log_count;
static bool case_skipped;
static char skip_reason[256];

static void capture_sink(int level, const char *message, void *userdata) {
        (void)level;
        (void)userdata;
        snprintf(log_last, sizeof(log_last), "%s", message);
        log_count++;
        /* Still shown, so that a failing case's output explains itself. */
        fprintf(stderr, "  log: %s\n", message);
}

void cgt_log_capture(void) {
        log_set_sink(capture_sink, NULL);
        log_set_max_level(LOG_DEBUG);
}

void cgt_log_reset(void) {
        log_last[0] = '\0';
        log_count = 0;
}

const char *cgt_log_last(void) {
        return log_last;
}

int cgt_log_count(void) {
        return log_count;
}

void cgt_assert_log_contains_all(const char *const *strings) {
        for (; *strings; strings++) {
                if (!strstr(log_last, *strings)) {
                        print_error("log message '%s' lacks '%s'\n", log_last, *strings);
                        fail();
                }
        }
}

void cgt_note_skip(const char *fmt, ...) {
        va_list ap;

        va_start(ap, fmt);
        vsnprintf(skip_reason, sizeof(skip_reason), fmt, ap);
        va_end(ap);
        case_skipped = true;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
        (void)st;
        (void)flag;
        (void)ftw;
        return remove(path);
}

int cgt_fixture_setup(void **state) {
        cgt_fixture_t *f = calloc(1, sizeof(*f));

        if (!f)
                return -1;
        snprintf(f->path, sizeof(f->path), "/tmp/cuzk-cgroup-fixture-XXXXXX");
        if (!mkdtemp(f->path)) {
                free(f);
                return -1;
        }
        f->dirfd = open(f->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (f->dirfd < 0) {
                rmdir(f->path);
                free(f);
                return -1;
        }
        cgt_log_reset();
        *state = f;
        return 0;
}

int cgt_fixture_teardown(void **state) {
        cgt_fixture_t *f = *state;
        int r;

        close(f->dirfd);
        r = nftw(f->path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
        free(f);
        return r == 0 ? 0 : -1;
}

void cgt_write_file(int dirfd, const char *file, const char *content) {
        int fd = openat(dirfd, file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
        size_t len = strlen(content);

        assert_true(fd >= 0);
        assert_int_equal(write(fd, content, len), (ssize_t)len);
        close(fd);
}

size_t cgt_read_file(int dirfd, const char *file, char *buf, size_t size) {
        int fd = openat(dirfd, file, O_RDONLY | O_CLOEXEC);
        ssize_t n;

        assert_true(fd >= 0);
        n = read(fd, buf, size - 1);
        close(fd);
        assert_true(n >= 0);
        buf[n] = '\0';
        return (size_t)n;
}

void cgt_mkdir(int dirfd, const char *name) {
        assert_int_equal(mkdirat(dirfd, name, 0755), 0);
}

int cgt_run(const char *group, const struct CMUnitTest *tests, size_t n_tests) {
        size_t failed = 0, skipped = 0;

        cgt_log_capture();
        for (size_t i = 0; i < n_tests; i++) {
                int r;

                case_skipped = false;
                skip_reason[0] = '\0';
                cgt_log_reset();
                r = _cmocka_run_group_tests(tests[i].name, &tests[i], 1, NULL, NULL);
                if (r != 0) {
                        failed++;
                        printf("FAIL: %s: %s\n", group, tests[i].name);
                } else if (case_skipped) {
                        skipped++;
                        printf("SKIP: %s: %s (%s)\n", group, tests[i].name, skip_reason);
                } else
                        printf("PASS: %s: %s\n", group, tests[i].name);
                fflush(stdout);
        }
        printf("%s: %zu passed, %zu failed, %zu skipped\n", group, n_tests - failed - skipped,
               failed, skipped);
        if (failed)
                return 1;
        return skipped == n_tests ? 77 : 0;
}
