/* SPDX-License-Identifier: Apache-2.0 */
#include "daemon/supervisor/peer-access.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define NOBODY 65534

/* The permission bits (r = 4, w = 2, x = 1) st grants peer, as the kernel picks them:
 * the owner's if it owns the file, else the group's if it is in the group, else the
 * others'. */
static unsigned granted(const struct api_peer *peer, const struct stat *st) {
        uid_t uid = peer->known ? peer->uid : NOBODY;
        bool in_group = peer->known ? api_peer_in_group(peer, st->st_gid) : st->st_gid == NOBODY;

        if (st->st_uid == uid)
                return (st->st_mode >> 6) & 7;
        if (in_group)
                return (st->st_mode >> 3) & 7;
        return st->st_mode & 7;
}

/* Search permission on every directory above real_path (an absolute, resolved path). */
static int check_directories(const struct api_peer *peer, const char *real_path, const char *path,
                             char *msg, size_t msg_size) {
        char dir[PATH_MAX];
        size_t len = strlen(real_path);

        if (len >= sizeof(dir))
                return -ENAMETOOLONG;
        memcpy(dir, real_path, len + 1);
        /* "/" first (slash at dir[0], cut after it), then "/a", "/a/b", ... */
        for (char *slash = dir; slash; slash = strchr(slash + 1, '/')) {
                char saved = slash[slash == dir];
                struct stat st;

                slash[slash == dir] = 0;
                if (stat(dir, &st) < 0)
                        return -errno;
                if (!(granted(peer, &st) & 1)) {
                        snprintf(msg, msg_size,
                                 "%s: Permission denied (the client may not enter %s)", path, dir);
                        return -EACCES;
                }
                slash[slash == dir] = saved;
        }
        return 0;
}

int peer_access_check(const struct api_peer *peer, int fd, const char *path, char *msg,
                      size_t msg_size) {
        char link[64], real_path[PATH_MAX];
        struct stat st;
        ssize_t n;
        int r;

        assert(peer);
        assert(fd >= 0);
        assert(path);
        assert(msg);
        if (api_peer_is_root(peer))
                return 0;
        snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
        n = readlink(link, real_path, sizeof(real_path) - 1);
        if (n < 0 || fstat(fd, &st) < 0) {
                r = -errno;
                snprintf(msg, msg_size, "%s: cannot tell who may read it: %s", path, strerror(-r));
                return r;
        }
        real_path[n] = 0;
        if (real_path[0] != '/') {
                snprintf(msg, msg_size, "%s: cannot tell who may read it", path);
                return -EACCES;
        }
        r = check_directories(peer, real_path, path, msg, msg_size);
        if (r < 0)
                return r;
        if (!(granted(peer, &st) & 4)) {
                snprintf(msg, msg_size, "%s: Permission denied (the client may not read it)", path);
                return -EACCES;
        }
        return 0;
}
