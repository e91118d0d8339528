/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/lib/fixture.h"

#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <ftw.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "common/log.h"

static char log_text[16384];
static size_t log_errors;

static void capture_sink(int level, const char *message, void *userdata) {
        size_t len = strlen(log_text);

        (void)userdata;
        if (level <= LOG_ERR)
                log_errors++;
        snprintf(log_text + len, sizeof(log_text) - len, "%s\n", message);
        fprintf(stderr, "  log: %s\n", message);
}

void test_log_capture(int max_level) {
        test_log_reset();
        log_set_sink(capture_sink, NULL);
        log_set_max_level(max_level);
}

void test_log_reset(void) {
        log_text[0] = 0;
        log_errors = 0;
}

size_t test_log_errors(void) {
        return log_errors;
}

void test_assert_logged(const char *text) {
        if (!strstr(log_text, text)) {
                print_error("no log message contains '%s'; logged:\n%s", text, log_text);
                fail();
        }
}

void test_log_capture_stop(void) {
        log_set_sink(NULL, NULL);
        log_set_max_level(LOG_INFO);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
        (void)st;
        (void)flag;
        (void)ftw;
        return remove(path);
}

void test_remove_tree(const char *path) {
        (void)nftw(path, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}
