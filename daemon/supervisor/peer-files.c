/* SPDX-License-Identifier: Apache-2.0 */
/* A client's files, opened with the client's rights (see peer-files.h). */
#include "daemon/supervisor/peer-files.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/capability.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "daemon/supervisor/peer-access.h"

#define NOBODY 65534

/* Whether this thread may take another filesystem identity: CAP_SETUID for setfsuid,
 * CAP_SETGID for setfsgid and setgroups, in the effective set. */
static bool can_switch_identity(void) {
        struct __user_cap_header_struct header = {.version = _LINUX_CAPABILITY_VERSION_3};
        struct __user_cap_data_struct data[_LINUX_CAPABILITY_U32S_3] = {{0}};
        const uint32_t needed = (UINT32_C(1) << CAP_SETUID) | (UINT32_C(1) << CAP_SETGID);

        if (syscall(SYS_capget, &header, data) < 0)
                return geteuid() == 0;
        return (data[0].effective & needed) == needed;
}

void peer_files_init(struct peer_files *ret, const struct api_peer *peer) {
        assert(ret);
        *ret = (struct peer_files){.mode = PEER_FILES_SELF};
        if (!peer)
                return;
        if (peer->known && (peer->uid == 0 || peer->uid == geteuid()))
                return; /* root, or ourselves: our rights are theirs, or less */
        ret->mode = can_switch_identity() ? PEER_FILES_SWITCH : PEER_FILES_JUDGE;
        if (!peer->known) {
                ret->uid = NOBODY;
                ret->gid = NOBODY;
                return;
        }
        ret->uid = peer->uid;
        ret->gid = peer->gid;
        ret->n_groups = peer->n_groups < API_PEER_MAX_GROUPS ? peer->n_groups : API_PEER_MAX_GROUPS;
        memcpy(ret->groups, peer->groups, ret->n_groups * sizeof(ret->groups[0]));
}

/* The thread's filesystem identity before a switch. */
struct saved_identity {
        uid_t fsuid;
        gid_t fsgid;
        int n_groups;
        gid_t *groups;
};

/* setfsuid/setfsgid answer the previous id whether or not they succeeded: an invalid id
 * (-1) changes nothing and tells the current one. */
static uid_t current_fsuid(void) {
        return (uid_t)syscall(SYS_setfsuid, (uid_t)-1);
}

static gid_t current_fsgid(void) {
        return (gid_t)syscall(SYS_setfsgid, (gid_t)-1);
}

/* Back to the daemon's identity. Failing that, the thread would go on opening the spool
 * and the configuration's files as a client: it cannot happen (the ids are our own),
 * and if it did nothing could be trusted after it. */
static void identity_restore(struct saved_identity *saved) {
        (void)syscall(SYS_setfsuid, saved->fsuid);
        (void)syscall(SYS_setfsgid, saved->fsgid);
        if (current_fsuid() != saved->fsuid || current_fsgid() != saved->fsgid ||
            syscall(SYS_setgroups, (size_t)saved->n_groups, saved->groups) < 0) {
                log_error_errno(errno, "cannot take the daemon's own filesystem identity back: %m");
                abort();
        }
        free(saved->groups);
        saved->groups = NULL;
}

/* The peer's groups, gid and uid, in that order: setgroups and setfsgid need CAP_SETGID,
 * which a switch of fsuid away from 0 keeps (it drops only the file capabilities). */
static int identity_switch(const struct peer_files *files, struct saved_identity *saved) {
        int n = getgroups(0, NULL);

        if (n < 0)
                return -errno;
        saved->groups = calloc((size_t)n + 1, sizeof(gid_t));
        if (!saved->groups)
                return -ENOMEM;
        saved->n_groups = getgroups(n, saved->groups);
        if (saved->n_groups < 0) {
                free(saved->groups);
                return -errno;
        }
        saved->fsuid = current_fsuid();
        saved->fsgid = current_fsgid();
        if (syscall(SYS_setgroups, (size_t)files->n_groups, files->groups) < 0) {
                int r = -errno;

                free(saved->groups);
                return r;
        }
        (void)syscall(SYS_setfsgid, files->gid);
        (void)syscall(SYS_setfsuid, files->uid);
        if (current_fsgid() != files->gid || current_fsuid() != files->uid) {
                identity_restore(saved);
                return -EPERM;
        }
        return 0;
}

/* Opens a regular file without blocking and without opening anything else: stat first
 * (a FIFO or device is refused before any open), then O_NONBLOCK|O_NOCTTY for the race
 * where the path changes in between, and fstat of what was opened. */
static int open_regular(const char *path, uint64_t *ret_size) {
        _cleanup_close_ int fd = -EBADF;
        struct stat st;

        if (stat(path, &st) < 0)
                return -errno;
        if (!S_ISREG(st.st_mode))
                return -EINVAL;
        fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0)
                return -errno;
        if (!S_ISREG(st.st_mode))
                return -EINVAL;
        *ret_size = (uint64_t)st.st_size;
        return TAKE_FD(fd);
}

/* PEER_FILES_JUDGE: fd, opened with the daemon's rights, if the peer could have opened
 * it itself (peer-access.h); else closed, -EACCES. */
static int judged(const struct peer_files *files, int fd, const char *field, const char *path,
                  char *msg, size_t msg_size) {
        struct api_peer peer = {
                .known = true, .uid = files->uid, .gid = files->gid, .n_groups = files->n_groups};
        char why[512];
        int r;

        memcpy(peer.groups, files->groups, files->n_groups * sizeof(peer.groups[0]));
        r = peer_access_check(&peer, fd, path, why, sizeof(why));
        if (r >= 0)
                return fd;
        close(fd);
        if (field)
                snprintf(msg, msg_size, "%s %s", field, why);
        else
                snprintf(msg, msg_size, "%s", why);
        return r;
}

/* "zkey_path /x: why", or "/x: why" for the daemon's own files. */
static void say(char *msg, size_t msg_size, const char *field, const char *path, const char *why) {
        if (field)
                snprintf(msg, msg_size, "%s %s: %s", field, path, why);
        else
                snprintf(msg, msg_size, "%s: %s", path, why);
}

int peer_files_open(const struct peer_files *files, const char *field, const char *path,
                    uint64_t *ret_size, char *msg, size_t msg_size) {
        struct saved_identity saved = {0};
        bool switched = false;
        char why[256];
        int fd, r;

        assert(path);
        assert(ret_size);
        assert(msg);
        if (path[0] != '/') {
                snprintf(msg, msg_size, "%s '%s': must be an absolute path", field ? field : "path",
                         path);
                return -EINVAL;
        }
        if (files && files->mode == PEER_FILES_SWITCH) {
                r = identity_switch(files, &saved);
                if (r < 0) {
                        snprintf(why, sizeof(why), "cannot take the identity of uid %u: %s",
                                 (unsigned)files->uid, strerror(-r));
                        say(msg, msg_size, field, path, why);
                        return -EPERM;
                }
                switched = true;
        }
        fd = open_regular(path, ret_size);
        if (switched)
                identity_restore(&saved);
        if (fd == -EINVAL)
                say(msg, msg_size, field, path, "not a regular file");
        else if (fd < 0)
                say(msg, msg_size, field, path, strerror(-fd));
        else if (files && files->mode == PEER_FILES_JUDGE)
                return judged(files, fd, field, path, msg, msg_size);
        return fd;
}
