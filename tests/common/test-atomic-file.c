/* SPDX-License-Identifier: Apache-2.0 */
/* common/atomic-file: whole files or none, and nothing but regular files replaced. */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/atomic-file.h"

static char dir[] = "/tmp/cuzk-atomic-XXXXXX";

static void path_of(char *buf, size_t size, const char *name) {
        snprintf(buf, size, "%s/%s", dir, name);
}

static void assert_content(const char *path, const char *text) {
        char buf[64] = "";
        FILE *f = fopen(path, "re");
        assert_non_null(f);
        assert_int_equal(fread(buf, 1, sizeof(buf) - 1, f), strlen(text));
        fclose(f);
        assert_string_equal(buf, text);
}

static void test_write_and_replace(void **state) {
        char path[128];
        (void)state;

        path_of(path, sizeof(path), "plain");
        assert_int_equal(atomic_file_write(path, "one", 3, 0644), 0);
        assert_content(path, "one");
        assert_int_equal(atomic_file_write(path, "two!", 4, 0644), 0);
        assert_content(path, "two!");
}

static void test_streaming(void **state) {
        struct atomic_file f;
        char path[128];
        (void)state;

        path_of(path, sizeof(path), "stream");
        assert_int_equal(atomic_file_open(path, 0644, &f), 0);
        assert_int_equal(atomic_file_append(&f, "ab", 2), 0);
        /* nothing visible before the commit */
        assert_int_equal(access(path, F_OK), -1);
        assert_int_equal(atomic_file_append(&f, "cd", 2), 0);
        assert_int_equal(atomic_file_commit(&f), 0);
        atomic_file_close(&f);
        assert_content(path, "abcd");
}

/* A symlink, a fifo (standing in for a device node) and a directory are
 * refused and left as they were. */
static void test_refuses_non_regular(void **state) {
        char target[128], link[128], fifo[128], sub[128];
        struct stat st;
        (void)state;

        path_of(target, sizeof(target), "target");
        path_of(link, sizeof(link), "link");
        path_of(fifo, sizeof(fifo), "fifo");
        path_of(sub, sizeof(sub), "sub");
        assert_int_equal(atomic_file_write(target, "keep", 4, 0644), 0);
        assert_int_equal(symlink(target, link), 0);
        assert_int_equal(mkfifo(fifo, 0600), 0);
        assert_int_equal(mkdir(sub, 0700), 0);

        assert_int_equal(atomic_file_write(link, "x", 1, 0644), -EEXIST);
        assert_int_equal(atomic_file_write(fifo, "x", 1, 0644), -EEXIST);
        assert_int_equal(atomic_file_write(sub, "x", 1, 0644), -EEXIST);
        struct atomic_file f;
        assert_int_equal(atomic_file_open(link, 0644, &f), -EEXIST);

        assert_int_equal(lstat(link, &st), 0);
        assert_true(S_ISLNK(st.st_mode));
        assert_int_equal(lstat(fifo, &st), 0);
        assert_true(S_ISFIFO(st.st_mode));
        assert_int_equal(lstat(sub, &st), 0);
        assert_true(S_ISDIR(st.st_mode));
        assert_content(target, "keep");
        unlink(link);
        unlink(fifo);
        rmdir(sub);
}

static int setup(void **state) {
        (void)state;
        return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state) {
        char cmd[160];
        (void)state;
        snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
        return system(cmd) == 0 ? 0 : -1;
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_write_and_replace),
                cmocka_unit_test(test_streaming),
                cmocka_unit_test(test_refuses_non_regular),
        };
        return cmocka_run_group_tests(tests, setup, teardown);
}
