/* SPDX-License-Identifier: Apache-2.0 */
#include "api-socket.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/cleanup.h"

#define LISTEN_BACKLOG 128

/* A unix stream socket (SOCK_CLOEXEC, and flags) and path's address, to bind or connect
 * it to. */
static int unix_socket(const char *path, int flags, struct sockaddr_un *ret_sa, int *ret_fd) {
        int fd;

        assert(path);

        *ret_sa = (struct sockaddr_un){.sun_family = AF_UNIX};
        if (path[0] == 0 || strlen(path) >= sizeof(ret_sa->sun_path))
                return -ENAMETOOLONG;
        strcpy(ret_sa->sun_path, path);
        fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | flags, 0);
        if (fd < 0)
                return -errno;
        *ret_fd = fd;
        return 0;
}

static int set_nonblocking(int fd) {
        int flags = fcntl(fd, F_GETFL);

        if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) < 0)
                return -errno;
        return 0;
}

/* Whether a process listens on the socket at sa: connect() succeeds (or the
 * backlog is full: EAGAIN, someone listens but is busy). A socket file nobody
 * listens on refuses (ECONNREFUSED). */
static bool socket_is_live(const struct sockaddr_un *sa) {
        _cleanup_close_ int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

        if (fd < 0)
                return false;
        if (connect(fd, (const struct sockaddr *)sa, sizeof(*sa)) == 0)
                return true;
        return errno == EAGAIN || errno == EINPROGRESS;
}

/* A socket file left by a previous run would make bind() fail with EADDRINUSE;
 * a socket another process still serves is never taken over: -EADDRINUSE. */
static int remove_stale_socket(const char *path, const struct sockaddr_un *sa) {
        struct stat st;

        if (lstat(path, &st) < 0)
                return errno == ENOENT ? 0 : -errno;
        if (!S_ISSOCK(st.st_mode))
                return -EEXIST;
        if (socket_is_live(sa))
                return -EADDRINUSE;
        if (unlink(path) < 0 && errno != ENOENT)
                return -errno;
        return 0;
}

int api_socket_listen_unix(const char *path, mode_t mode, int *ret_fd) {
        _cleanup_close_ int fd = -EBADF;
        struct sockaddr_un sa;
        int r;

        assert(path);
        assert(ret_fd);

        r = unix_socket(path, SOCK_NONBLOCK, &sa, &fd);
        if (r < 0)
                return r;
        r = remove_stale_socket(path, &sa);
        if (r < 0)
                return r;
        if (bind(fd, (const struct sockaddr *)&sa, sizeof(sa)) < 0)
                return -errno;
        if (chmod(path, mode) < 0 || listen(fd, LISTEN_BACKLOG) < 0) {
                r = -errno;
                unlink(path);
                return r;
        }
        *ret_fd = TAKE_FD(fd);
        return 0;
}

int api_socket_listen_tcp(const char *host, uint16_t port, int *ret_fd) {
        struct addrinfo hints = {
                .ai_family = AF_UNSPEC,
                .ai_socktype = SOCK_STREAM,
                .ai_flags = AI_PASSIVE | AI_NUMERICSERV,
        };
        struct addrinfo *list = NULL;
        char service[8];
        int r, last_error = -EADDRNOTAVAIL;

        assert(ret_fd);

        snprintf(service, sizeof(service), "%u", port);
        r = getaddrinfo(host, service, &hints, &list);
        if (r != 0)
                return r == EAI_SYSTEM ? -errno : -EADDRNOTAVAIL;
        for (struct addrinfo *ai = list; ai; ai = ai->ai_next) {
                _cleanup_close_ int fd = -EBADF;
                int one = 1;

                fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
                            ai->ai_protocol);
                if (fd < 0) {
                        last_error = -errno;
                        continue;
                }
                (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
                if (bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, LISTEN_BACKLOG) < 0) {
                        last_error = -errno;
                        continue;
                }
                *ret_fd = TAKE_FD(fd);
                freeaddrinfo(list);
                return 0;
        }
        freeaddrinfo(list);
        return last_error;
}

int api_socket_check_listening(int fd) {
        int type = 0, listening = 0;
        socklen_t length = sizeof(type);

        assert(fd >= 0);

        if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) < 0)
                return -errno;
        if (type != SOCK_STREAM)
                return -EINVAL;
        length = sizeof(listening);
        if (getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) < 0)
                return -errno;
        if (!listening)
                return -EINVAL;
        /* A socket passed by systemd is blocking unless the unit says
         * NonBlocking=yes; the server accepts until EAGAIN. */
        return set_nonblocking(fd);
}

int api_socket_local_port(int fd, uint16_t *ret_port) {
        struct sockaddr_storage ss;
        socklen_t length = sizeof(ss);

        assert(fd >= 0);
        assert(ret_port);

        if (getsockname(fd, (struct sockaddr *)&ss, &length) < 0)
                return -errno;
        if (ss.ss_family == AF_INET)
                *ret_port = ntohs(((const struct sockaddr_in *)&ss)->sin_port);
        else if (ss.ss_family == AF_INET6)
                *ret_port = ntohs(((const struct sockaddr_in6 *)&ss)->sin6_port);
        else
                return -EAFNOSUPPORT;
        return 0;
}

static int64_t now_ms(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * A blocking connect() that gives up at deadline_ms (CLOCK_MONOTONIC; -1: never), with
 * -ETIMEDOUT. It waits for a TCP handshake, or for room in a unix listener's backlog: a
 * daemon that does not accept() fills it. The kernel bounds that wait by SO_SNDTIMEO, for
 * both families; a non-blocking connect() could not be polled instead, as a unix socket
 * answers it with EAGAIN while the backlog is full and no event says when it has room.
 */
static int connect_until(int fd, const struct sockaddr *sa, socklen_t length, int64_t deadline_ms) {
        if (deadline_ms >= 0) {
                int64_t left_ms = deadline_ms - now_ms();
                struct timeval tv;

                if (left_ms < 1)
                        left_ms = 1; /* one try: a zero SO_SNDTIMEO would mean no limit */
                tv = (struct timeval){.tv_sec = (time_t)(left_ms / 1000),
                                      .tv_usec = (suseconds_t)(left_ms % 1000) * 1000};
                if (setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)) < 0)
                        return -errno;
        }
        if (connect(fd, sa, length) == 0)
                return 0;
        /* The time ran out: a unix socket says EAGAIN, TCP EINPROGRESS. */
        if (deadline_ms >= 0 && (errno == EAGAIN || errno == EINPROGRESS))
                return -ETIMEDOUT;
        return -errno;
}

static int64_t deadline_of(int timeout_ms) {
        return timeout_ms >= 0 ? now_ms() + timeout_ms : -1;
}

int api_socket_connect_unix(const char *path, int timeout_ms, int *ret_fd) {
        int64_t deadline_ms = deadline_of(timeout_ms);
        _cleanup_close_ int fd = -EBADF;
        struct sockaddr_un sa;
        int r;

        assert(path);
        assert(ret_fd);

        r = unix_socket(path, 0, &sa, &fd);
        if (r < 0)
                return r;
        r = connect_until(fd, (const struct sockaddr *)&sa, sizeof(sa), deadline_ms);
        if (r < 0)
                return r;
        r = set_nonblocking(fd);
        if (r < 0)
                return r;
        *ret_fd = TAKE_FD(fd);
        return 0;
}

int api_socket_connect_tcp(const char *host, uint16_t port, int timeout_ms, int *ret_fd) {
        int64_t deadline_ms = deadline_of(timeout_ms);
        struct addrinfo hints = {
                .ai_family = AF_UNSPEC,
                .ai_socktype = SOCK_STREAM,
                .ai_flags = AI_NUMERICSERV,
        };
        struct addrinfo *list = NULL;
        char service[8];
        int r, last_error = -ECONNREFUSED;

        assert(host);
        assert(ret_fd);

        snprintf(service, sizeof(service), "%u", port);
        r = getaddrinfo(host, service, &hints, &list);
        if (r != 0)
                return r == EAI_SYSTEM ? -errno : -EHOSTUNREACH;
        for (struct addrinfo *ai = list; ai; ai = ai->ai_next) {
                _cleanup_close_ int fd = -EBADF;
                int one = 1;

                fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
                if (fd < 0) {
                        last_error = -errno;
                        continue;
                }
                r = connect_until(fd, ai->ai_addr, ai->ai_addrlen, deadline_ms);
                if (r == -ETIMEDOUT) {
                        last_error = r;
                        break; /* the time is the same for every address */
                }
                if (r < 0) {
                        last_error = r;
                        continue;
                }
                /* gRPC calls are small request/response exchanges: no Nagle delay. */
                (void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
                r = set_nonblocking(fd);
                if (r < 0) {
                        last_error = r;
                        continue;
                }
                *ret_fd = TAKE_FD(fd);
                freeaddrinfo(list);
                return 0;
        }
        freeaddrinfo(list);
        return last_error;
}
