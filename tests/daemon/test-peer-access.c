/* SPDX-License-Identifier: Apache-2.0 */
/*
 * peer-access: who may read a file, judged from mode bits for a client's
 * uid, gid and groups as the kernel judges them. Files and directories are
 * made here with owners and modes (the test runs as root), and every
 * verdict is compared with what the kernel itself says when a child process
 * with the client's identity opens the same path.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "daemon/supervisor/peer-access.h"

static char top[64];

static const struct api_peer user = {
        .known = true, .uid = 1000, .gid = 1000, .n_groups = 2, .groups = {1000, 4242}};
static const struct api_peer stranger = {.known = true, .uid = 2000, .gid = 2000};
static const struct api_peer root = {.known = true, .uid = 0, .gid = 0};
static const struct api_peer anonymous = {.known = false};

static void make(const char *name, mode_t mode, uid_t uid, gid_t gid, bool dir) {
        char path[256];

        snprintf(path, sizeof(path), "%s/%s", top, name);
        if (dir)
                assert_int_equal(mkdir(path, 0700), 0);
        else
                assert_true(close(open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600)) == 0);
        assert_int_equal(chown(path, uid, gid), 0);
        assert_int_equal(chmod(path, mode), 0);
}

/* What the kernel says: a child with the peer's identity opens path. */
static bool kernel_allows(const struct api_peer *peer, const char *path) {
        pid_t child = fork();
        int status;

        assert_true(child >= 0);
        if (child == 0) {
                gid_t gid = peer->known ? peer->gid : 65534;
                uid_t uid = peer->known ? peer->uid : 65534;

                if (setgroups(peer->known ? peer->n_groups : 0, peer->groups) < 0 ||
                    setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0)
                        _exit(2);
                _exit(open(path, O_RDONLY | O_CLOEXEC) >= 0 ? 0 : 1);
        }
        assert_int_equal(waitpid(child, &status, 0), child);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) <= 1);
        return WEXITSTATUS(status) == 0;
}

/* Our verdict for name, which must agree with the kernel's; returns it. */
static bool allows(const struct api_peer *peer, const char *name) {
        _cleanup_close_ int fd = -EBADF;
        char path[256], msg[512] = "";
        bool ours;

        snprintf(path, sizeof(path), "%s/%s", top, name);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        assert_true(fd >= 0);
        ours = peer_access_check(peer, fd, path, msg, sizeof(msg)) == 0;
        if (!ours)
                assert_non_null(strstr(msg, "Permission denied"));
        assert_int_equal(ours, kernel_allows(peer, path));
        return ours;
}

static int setup(void **state) {
        (void)state;
        snprintf(top, sizeof(top), "/tmp/test-peer-access-XXXXXX");
        assert_non_null(mkdtemp(top));
        assert_int_equal(chmod(top, 0755), 0);
        return 0;
}

static int teardown(void **state) {
        char command[128];

        (void)state;
        snprintf(command, sizeof(command), "rm -rf '%s'", top);
        return system(command);
}

static void test_mode_bits(void **state) {
        (void)state;
        if (geteuid() != 0) {
                skip();
                return;
        }
        make("root-only", 0600, 0, 0, false);
        make("group-4242", 0640, 0, 4242, false);
        make("world", 0644, 0, 0, false);
        make("own-no-owner-bits", 0066, 1000, 1000, false); /* owner bits rule for the owner */
        make("closed", 0700, 0, 0, true);
        make("closed/world", 0644, 0, 0, false);
        make("search-only", 0711, 0, 0, true);
        make("search-only/world", 0644, 0, 0, false);

        assert_false(allows(&user, "root-only"));
        assert_true(allows(&root, "root-only"));
        assert_true(allows(&user, "group-4242"));
        assert_false(allows(&stranger, "group-4242"));
        assert_true(allows(&stranger, "world"));
        assert_true(allows(&anonymous, "world"));
        assert_false(allows(&anonymous, "root-only"));
        assert_false(allows(&user, "own-no-owner-bits"));
        assert_true(allows(&stranger, "own-no-owner-bits"));
        assert_false(allows(&user, "closed/world"));
        assert_true(allows(&user, "search-only/world"));
}

/* A symbolic link is judged by where it leads, as open() follows it. */
static void test_symlink_to_closed_directory(void **state) {
        char target[256], link[256];

        (void)state;
        if (geteuid() != 0) {
                skip();
                return;
        }
        make("closed", 0700, 0, 0, true);
        make("closed/world", 0644, 0, 0, false);
        snprintf(target, sizeof(target), "%s/closed/world", top);
        snprintf(link, sizeof(link), "%s/link", top);
        assert_int_equal(symlink(target, link), 0);
        assert_false(allows(&user, "link"));
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test_setup_teardown(test_mode_bits, setup, teardown),
                cmocka_unit_test_setup_teardown(test_symlink_to_closed_directory, setup, teardown),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
