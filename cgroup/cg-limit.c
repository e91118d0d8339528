/* SPDX-License-Identifier: Apache-2.0 */
#include "cg-limit.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cgroup/cg-files.h"
#include "common/cleanup.h"
#include "common/log.h"

/* Takes file of the cgroup at dirfd (dir in messages) into *limit when it is smaller. */
static int take_smaller(int dirfd, const char *dir, const char *file, uint64_t *limit,
                        char *ret_file, size_t file_size) {
        uint64_t value;
        int r;

        if (faccessat(dirfd, file, F_OK, 0) < 0) {
                if (errno == ENOENT)
                        return 0;
                return log_error_errno(errno, "Failed to look for %s/%s: %m", dir, file);
        }
        r = cg_read_u64(dirfd, file, &value);
        if (r < 0)
                return r;
        if (value < *limit) {
                *limit = value;
                snprintf(ret_file, file_size, "%s/%s", dir, file);
        }
        return 0;
}

/* Steps *dirfd and dir (its path) down into the child named by the first len bytes of
 * name. */
static int open_child(int *dirfd, char *dir, size_t dir_size, const char *name, size_t len) {
        size_t used = strlen(dir);
        int fd;

        if ((len == 1 && name[0] == '.') || (len == 2 && name[0] == '.' && name[1] == '.'))
                return log_error_errno(EINVAL,
                                       "cgroup path below %s: '%.*s', expected a cgroup name", dir,
                                       (int)len, name);
        if (used + 1 + len >= dir_size)
                return log_error_errno(ENAMETOOLONG, "cgroup path too long: %s/%.*s", dir, (int)len,
                                       name);
        dir[used] = '/';
        memcpy(dir + used + 1, name, len);
        dir[used + 1 + len] = '\0';
        fd = openat(*dirfd, dir + used + 1, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0)
                return log_error_errno(errno, "Failed to open cgroup %s: %m", dir);
        close(*dirfd);
        *dirfd = fd;
        return 0;
}

int cg_limit_smallest(const char *base_dir, const char *cgroup_path, const char *file,
                      uint64_t *ret_bytes, char *ret_file, size_t file_size) {
        _cleanup_close_ int fd = -EBADF;
        uint64_t limit = CG_LIMIT_MAX;
        const char *p = cgroup_path;
        char dir[PATH_MAX];
        int r;

        assert(base_dir);
        assert(cgroup_path);
        assert(file);
        assert(ret_bytes);
        assert(ret_file);
        assert(file_size > 0);

        ret_file[0] = '\0';
        if (strlen(base_dir) >= sizeof(dir))
                return log_error_errno(ENAMETOOLONG, "cgroup path too long: %s", base_dir);
        snprintf(dir, sizeof(dir), "%s", base_dir);
        fd = open(base_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0)
                return log_error_errno(errno, "Failed to open cgroup %s: %m", base_dir);
        for (;;) {
                size_t len;

                r = take_smaller(fd, dir, file, &limit, ret_file, file_size);
                if (r < 0)
                        return r;
                p += strspn(p, "/");
                if (*p == '\0')
                        break;
                len = strcspn(p, "/");
                r = open_child(&fd, dir, sizeof(dir), p, len);
                if (r < 0)
                        return r;
                p += len;
        }
        *ret_bytes = limit;
        return 0;
}
