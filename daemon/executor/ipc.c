/* SPDX-License-Identifier: Apache-2.0 */
/* The supervisor <-> worker <-> prover messages (see ipc.h). */
#include "ipc.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "common/parse-number.h"

#define IPC_SEALS_SIZE (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)
#define IPC_SEALS(writable) (IPC_SEALS_SIZE | ((writable) ? 0 : F_SEAL_WRITE))

/* The payload size of each type; 0 for an unknown type. */
static size_t payload_bytes(uint32_t type) {
        switch (type) {
        case IPC_TASK:
                return sizeof(struct ipc_task);
        case IPC_SYNTH_DONE:
                return sizeof(struct ipc_synth_done);
        case IPC_FAILED:
                return sizeof(struct ipc_failed);
        case IPC_PROVE:
                return sizeof(struct ipc_prove);
        case IPC_CANCEL:
        case IPC_ABC_RELEASED:
                return sizeof(struct ipc_task_id);
        case IPC_PROVER_READY:
                return sizeof(struct ipc_prover_ready);
        case IPC_RESULT:
                return sizeof(struct ipc_result);
        case IPC_LOAD_KEY:
        case IPC_EVICT_KEY:
                return sizeof(struct ipc_load_key);
        case IPC_KEY_LOADED:
                return sizeof(struct ipc_key_loaded);
        case IPC_PROGRESS:
                return sizeof(struct ipc_progress);
        default:
                return 0;
        }
}

size_t ipc_expected_fds(const struct ipc_message *message) {
        assert(message);
        switch (message->type) {
        case IPC_SYNTH_DONE:
                return message->synth_done.witness_form == IPC_WITNESS_COMPACT ? 1 : 2;
        case IPC_PROVE:
                return message->prove.synth.witness_form == IPC_WITNESS_COMPACT ? 1 : 2;
        case IPC_RESULT:
                return message->result.status.failure == 0 ? 1 : 0;
        default:
                return 0;
        }
}

int ipc_send(int sock, enum ipc_type type, const void *payload, size_t bytes, const int *fds,
             size_t n_fds) {
        struct ipc_message header = {.type = type};
        struct iovec iov[2] = {
                {.iov_base = &header, .iov_len = offsetof(struct ipc_message, task)},
                {.iov_base = (void *)payload, .iov_len = bytes},
        };
        union {
                struct cmsghdr align;
                char buf[CMSG_SPACE(sizeof(int) * IPC_MAX_FDS)];
        } control = {0};
        struct msghdr msg = {.msg_iov = iov, .msg_iovlen = 2};
        ssize_t n;

        assert(sock >= 0);
        assert(payload);
        assert(bytes == payload_bytes(type));
        assert(n_fds <= IPC_MAX_FDS);
        assert(n_fds == 0 || fds);

        if (n_fds > 0) {
                struct cmsghdr *cmsg;

                msg.msg_control = control.buf;
                msg.msg_controllen = CMSG_SPACE(sizeof(int) * n_fds);
                cmsg = CMSG_FIRSTHDR(&msg);
                cmsg->cmsg_level = SOL_SOCKET;
                cmsg->cmsg_type = SCM_RIGHTS;
                cmsg->cmsg_len = CMSG_LEN(sizeof(int) * n_fds);
                memcpy(CMSG_DATA(cmsg), fds, sizeof(int) * n_fds);
        }
        do
                n = sendmsg(sock, &msg, MSG_NOSIGNAL);
        while (n < 0 && errno == EINTR);
        if (n < 0) {
                if (errno == EAGAIN || errno == EPIPE || errno == ECONNRESET)
                        return -errno;
                return log_error_errno(errno, "Sending message type %d on socket %d failed: %m",
                                       (int)type, sock);
        }
        if ((size_t)n != iov[0].iov_len + bytes)
                return log_error_errno(EIO, "Short send of message type %d: %zd of %zu bytes",
                                       (int)type, n, iov[0].iov_len + bytes);
        return 0;
}

static void close_all(int *fds, size_t n) {
        for (size_t i = 0; i < n; i++)
                if (fds[i] >= 0) {
                        close(fds[i]);
                        fds[i] = -EBADF;
                }
}

int ipc_recv(int sock, struct ipc_message *ret, int fds[IPC_MAX_FDS], size_t *ret_n_fds) {
        struct ipc_message message;
        struct iovec iov = {.iov_base = &message, .iov_len = sizeof(message)};
        union {
                struct cmsghdr align;
                char buf[CMSG_SPACE(sizeof(int) * IPC_MAX_FDS)];
        } control;
        struct msghdr msg = {
                .msg_iov = &iov,
                .msg_iovlen = 1,
                .msg_control = control.buf,
                .msg_controllen = sizeof(control.buf),
        };
        int got[IPC_MAX_FDS];
        size_t n_got = 0;
        ssize_t n;

        assert(sock >= 0);
        assert(ret);
        assert(fds);
        assert(ret_n_fds);

        for (size_t i = 0; i < IPC_MAX_FDS; i++)
                fds[i] = got[i] = -EBADF;
        *ret_n_fds = 0;
        do
                n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
        while (n < 0 && errno == EINTR);
        if (n < 0) {
                if (errno == EAGAIN || errno == ECONNRESET)
                        return errno == EAGAIN ? -EAGAIN : 0;
                return log_error_errno(errno, "Receiving on socket %d failed: %m", sock);
        }
        for (struct cmsghdr *c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
                size_t count;

                if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
                        continue;
                count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
                for (size_t i = 0; i < count; i++) {
                        int fd;

                        memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
                        if (n_got < IPC_MAX_FDS)
                                got[n_got++] = fd;
                        else
                                close(fd);
                }
        }
        if (n == 0 && n_got == 0)
                return 0;
        if (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC) ||
            (size_t)n < offsetof(struct ipc_message, task) || payload_bytes(message.type) == 0 ||
            (size_t)n != offsetof(struct ipc_message, task) + payload_bytes(message.type) ||
            n_got != ipc_expected_fds(&message)) {
                close_all(got, n_got);
                return log_error_errno(EBADMSG,
                                       "Malformed message on socket %d: %zd bytes, type %u, %zu "
                                       "descriptors",
                                       sock, n, (size_t)n >= sizeof(uint32_t) ? message.type : 0,
                                       n_got);
        }
        memcpy(ret, &message, (size_t)n);
        memcpy(fds, got, sizeof(got));
        *ret_n_fds = n_got;
        return 1;
}

int ipc_memfd_new(const char *name, size_t bytes, int *ret_fd, void **ret_map) {
        _cleanup_close_ int fd = -EBADF;
        void *map;

        assert(name);
        assert(bytes > 0);
        assert(ret_fd);
        assert(ret_map);

        fd = memfd_create(name, MFD_CLOEXEC | MFD_ALLOW_SEALING);
        if (fd < 0)
                return log_error_errno(errno, "memfd_create(%s) failed: %m", name);
        if (ftruncate(fd, (off_t)bytes) < 0)
                return log_error_errno(errno, "Sizing memfd %s to %zu bytes failed: %m", name,
                                       bytes);
        map = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (map == MAP_FAILED)
                return log_error_errno(errno, "Mapping memfd %s (%zu bytes) failed: %m", name,
                                       bytes);
        *ret_fd = TAKE_FD(fd);
        *ret_map = map;
        return 0;
}

int ipc_memfd_seal(int fd, bool writable) {
        assert(fd >= 0);
        if (fcntl(fd, F_ADD_SEALS, IPC_SEALS(writable)) < 0)
                return log_error_errno(errno, "Sealing memfd %d failed: %m", fd);
        return 0;
}

int ipc_memfd_check(int fd, size_t bytes, const char *what, bool writable) {
        const int wanted = IPC_SEALS(writable);
        struct stat st;
        int seals;

        assert(fd >= 0);
        assert(what);

        seals = fcntl(fd, F_GET_SEALS);
        if (seals < 0)
                return log_error_errno(errno, "%s: not a memfd (F_GET_SEALS): %m", what);
        if ((seals & wanted) != wanted)
                return log_error_errno(EBADMSG, "%s: memfd seals 0x%x, expected 0x%x", what,
                                       (unsigned)seals, (unsigned)wanted);
        if (fstat(fd, &st) < 0)
                return log_error_errno(errno, "%s: fstat failed: %m", what);
        if ((uint64_t)st.st_size != bytes)
                return log_error_errno(EBADMSG, "%s: memfd of %lld bytes, expected %zu", what,
                                       (long long)st.st_size, bytes);
        return 0;
}

void ipc_set_text(char *buf, size_t size, const char *fmt, ...) {
        va_list ap;

        assert(buf);
        assert(size > 0);
        va_start(ap, fmt);
        vsnprintf(buf, size, fmt, ap);
        va_end(ap);
}

int ipc_parse_fd(const char *text, int *ret) {
        uint64_t v;

        assert(text);
        assert(ret);

        if (parse_unsigned_range(text, 0, 65535, 10, &v) < 0)
                return log_error_errno(EINVAL, "Bad socket descriptor \"%s\", expected a number",
                                       text);
        *ret = (int)v;
        return 0;
}
