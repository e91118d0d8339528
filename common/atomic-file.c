/* SPDX-License-Identifier: Apache-2.0 */
#include "atomic-file.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"

#define TMP_INFIX ".tmp-"
#define TMP_RANDOM_CHARS 6
#define TMP_ATTEMPTS 64

int atomic_file_tmp_name(const char *name, char *buf, size_t size) {
        static const char alphabet[] =
                "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        uint8_t random_bytes[TMP_RANDOM_CHARS];
        size_t len;
        int n;

        assert(name);
        assert(buf);

        n = snprintf(buf, size, ".%s" TMP_INFIX "XXXXXX", name);
        if (n < 0 || (size_t)n >= size || n > NAME_MAX)
                return -ENAMETOOLONG;
        /* Unique enough with O_EXCL and a retry; not a secret, so a clock
         * fallback is fine where getrandom() would block. */
        if (getrandom(random_bytes, sizeof(random_bytes), GRND_NONBLOCK) !=
            (ssize_t)sizeof(random_bytes)) {
                struct timespec ts;

                clock_gettime(CLOCK_MONOTONIC, &ts);
                for (size_t i = 0; i < sizeof(random_bytes); i++)
                        random_bytes[i] = (uint8_t)((uint64_t)ts.tv_nsec >> (5 * i)) ^
                                          (uint8_t)(getpid() >> i);
        }
        len = (size_t)n;
        for (size_t i = 0; i < TMP_RANDOM_CHARS; i++)
                buf[len - TMP_RANDOM_CHARS + i] =
                        alphabet[random_bytes[i] % (sizeof(alphabet) - 1)];
        return 0;
}

bool atomic_file_is_tmp_name(const char *name) {
        size_t len, suffix = strlen(TMP_INFIX) + TMP_RANDOM_CHARS;

        assert(name);

        /* ".", then at least one character of the name, then the suffix */
        len = strlen(name);
        return name[0] == '.' && len >= 2 + suffix &&
               !strncmp(name + len - suffix, TMP_INFIX, strlen(TMP_INFIX));
}

static int write_all(int fd, const void *data, size_t size) {
        const uint8_t *p = data;

        while (size > 0) {
                ssize_t n = write(fd, p, size);

                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        return -errno;
                }
                if (n == 0)
                        return -EIO;
                p += n;
                size -= (size_t)n;
        }
        return 0;
}

/* The temporary file until it is renamed; unlinked on every other way out. */
struct tmp_file {
        int dir_fd;
        char name[NAME_MAX + 1]; /* "" once renamed, or before it exists */
};

static void tmp_file_unlink(struct tmp_file *t) {
        if (t->name[0])
                (void)unlinkat(t->dir_fd, t->name, 0);
}

int atomic_file_write_at(int dir_fd, const char *name, const void *data, size_t size, mode_t mode) {
        _cleanup_(tmp_file_unlink) struct tmp_file tmp = {.dir_fd = dir_fd};
        _cleanup_close_ int fd = -EBADF;
        char tmp_name[NAME_MAX + 1] = "";
        int attempts = 0, r;

        assert(dir_fd >= 0);
        assert(name && name[0] && !strchr(name, '/'));
        assert(data || size == 0);

        do {
                r = atomic_file_tmp_name(name, tmp_name, sizeof(tmp_name));
                if (r < 0)
                        return r;
                fd = openat(dir_fd, tmp_name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
                if (fd < 0 && (errno != EEXIST || ++attempts >= TMP_ATTEMPTS))
                        return -errno;
        } while (fd < 0);
        memcpy(tmp.name, tmp_name, sizeof(tmp.name));

        r = write_all(fd, data, size);
        if (r < 0)
                return r;
        if (fsync(fd) < 0)
                return -errno;
        /* close() can report a deferred write error (NFS): check it. */
        r = close(TAKE_FD(fd));
        if (r < 0)
                return -errno;
        if (renameat(dir_fd, tmp.name, dir_fd, name) < 0)
                return -errno;
        tmp.name[0] = 0;
        if (fsync(dir_fd) < 0)
                return -errno;
        return 0;
}

int atomic_file_write(const char *path, const void *data, size_t size, mode_t mode) {
        _cleanup_close_ int dir_fd = -EBADF;
        const char *slash, *name;

        assert(path);

        slash = strrchr(path, '/');
        if (!slash) {
                dir_fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                name = path;
        } else if (slash == path) {
                dir_fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                name = path + 1;
        } else {
                char dir[PATH_MAX];

                if ((size_t)(slash - path) >= sizeof(dir))
                        return -ENAMETOOLONG;
                memcpy(dir, path, (size_t)(slash - path));
                dir[slash - path] = 0;
                dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                name = slash + 1;
        }
        if (dir_fd < 0)
                return -errno;
        if (!name[0])
                return -EISDIR;
        return atomic_file_write_at(dir_fd, name, data, size, mode);
}
