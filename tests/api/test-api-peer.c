/* SPDX-License-Identifier: Apache-2.0 */
/*
 * api-peer: what the kernel says about a connected client. A child that
 * drops to uid/gid 65534 with one supplementary group connects to a unix
 * listener; the accepted socket must name that uid, gid, group and pid, and
 * not ours. A TCP connection has no credentials.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <arpa/inet.h>
#include <grp.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "api/api-peer.h"
#include "common/cleanup.h"

#define NOBODY 65534
#define EXTRA_GROUP 4242

static int unix_listener(struct sockaddr_un *address) {
        int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

        assert_true(fd >= 0);
        *address = (struct sockaddr_un){.sun_family = AF_UNIX};
        snprintf(address->sun_path, sizeof(address->sun_path), "/tmp/test-api-peer-%d",
                 (int)getpid());
        unlink(address->sun_path);
        assert_int_equal(bind(fd, (struct sockaddr *)address, sizeof(*address)), 0);
        assert_int_equal(chmod(address->sun_path, 0666), 0);
        assert_int_equal(listen(fd, 4), 0);
        return fd;
}

/* The child: drop to nobody with one extra group, connect, wait for the parent. */
static void connect_as_nobody(const struct sockaddr_un *address) {
        gid_t groups[] = {EXTRA_GROUP};
        int fd;
        char byte;

        if (setgroups(1, groups) < 0 || setresgid(NOBODY, NOBODY, NOBODY) < 0 ||
            setresuid(NOBODY, NOBODY, NOBODY) < 0)
                _exit(2);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd < 0 || connect(fd, (const struct sockaddr *)address, sizeof(*address)) < 0)
                _exit(3);
        (void)read(fd, &byte, 1);
        _exit(0);
}

static void test_unix_peer_is_the_client(void **state) {
        struct sockaddr_un address;
        _cleanup_close_ int listener = -EBADF, client = -EBADF;
        struct api_peer peer;
        int status;
        pid_t child;

        (void)state;
        if (geteuid() != 0) {
                skip();
                return;
        }
        listener = unix_listener(&address);
        child = fork();
        assert_true(child >= 0);
        if (child == 0)
                connect_as_nobody(&address);
        client = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        assert_true(client >= 0);
        assert_int_equal(api_peer_from_socket(client, &peer), 0);
        assert_true(peer.known);
        assert_int_equal(peer.uid, NOBODY);
        assert_int_equal(peer.gid, NOBODY);
        assert_int_equal(peer.pid, child);
        assert_false(api_peer_is_root(&peer));
        assert_true(api_peer_in_group(&peer, EXTRA_GROUP));
        assert_true(api_peer_in_group(&peer, NOBODY));
        assert_false(api_peer_in_group(&peer, 0));
        close(TAKE_FD(client));
        assert_int_equal(waitpid(child, &status, 0), child);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        unlink(address.sun_path);
}

static void test_tcp_peer_is_unknown(void **state) {
        struct sockaddr_in address = {.sin_family = AF_INET};
        socklen_t length = sizeof(address);
        _cleanup_close_ int listener = -EBADF, out = -EBADF, in = -EBADF;
        struct api_peer peer;

        (void)state;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        assert_true(listener >= 0);
        assert_int_equal(bind(listener, (struct sockaddr *)&address, sizeof(address)), 0);
        assert_int_equal(listen(listener, 1), 0);
        assert_int_equal(getsockname(listener, (struct sockaddr *)&address, &length), 0);
        out = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        assert_int_equal(connect(out, (struct sockaddr *)&address, sizeof(address)), 0);
        in = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        assert_true(in >= 0);
        assert_int_equal(api_peer_from_socket(in, &peer), 0);
        assert_false(peer.known);
        assert_false(api_peer_is_root(&peer));
        assert_false(api_peer_in_group(&peer, 0));
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_unix_peer_is_the_client),
                cmocka_unit_test(test_tcp_peer_is_unknown),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
