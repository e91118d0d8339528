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

/* Creates a fresh ".NAME.tmp-XXXXXX" below dir_fd; returns its fd and its name in tmp_name. */
static int tmp_file_create(int dir_fd, const char *name, mode_t mode,
                           char tmp_name[static NAME_MAX + 1]) {
        int attempts = 0, fd, r;
        struct stat st;

        /* Only a regular file is replaced: renaming over a device node, a
         * symlink (/dev/stdout) or a directory entry of another kind would
         * swap a file in for it. */
        if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode))
                return -EEXIST;
        do {
                r = atomic_file_tmp_name(name, tmp_name, NAME_MAX + 1);
                if (r < 0)
                        return r;
                fd = openat(dir_fd, tmp_name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
                if (fd < 0 && (errno != EEXIST || ++attempts >= TMP_ATTEMPTS))
                        return -errno;
        } while (fd < 0);
        return fd;
}

/* Syncs and closes fd (always), renames tmp_name to name, syncs the directory. */
static int tmp_file_commit(int dir_fd, int fd, const char *tmp_name, const char *name) {
        if (fsync(fd) < 0) {
                int r = -errno;
                close(fd);
                return r;
        }
        /* close() can report a deferred write error (NFS): check it. */
        if (close(fd) < 0)
                return -errno;
        if (renameat(dir_fd, tmp_name, dir_fd, name) < 0)
                return -errno;
        if (fsync(dir_fd) < 0)
                return -errno;
        return 0;
}

int atomic_file_write_at(int dir_fd, const char *name, const void *data, size_t size, mode_t mode) {
        _cleanup_(tmp_file_unlink) struct tmp_file tmp = {.dir_fd = dir_fd};
        _cleanup_close_ int fd = -EBADF;
        char tmp_name[NAME_MAX + 1] = "";
        int r;

        assert(dir_fd >= 0);
        assert(name && name[0] && !strchr(name, '/'));
        assert(data || size == 0);

        fd = tmp_file_create(dir_fd, name, mode, tmp_name);
        if (fd < 0)
                return fd;
        memcpy(tmp.name, tmp_name, sizeof(tmp.name));

        r = write_all(fd, data, size);
        if (r < 0)
                return r;
        r = tmp_file_commit(dir_fd, TAKE_FD(fd), tmp.name, name);
        if (r < 0)
                return r;
        tmp.name[0] = 0;
        return 0;
}

/* Opens the directory of path; *ret_name points into path, at its last component. */
static int open_parent(const char *path, const char **ret_name) {
        const char *slash = strrchr(path, '/');
        int dir_fd;

        if (!slash) {
                dir_fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                *ret_name = path;
        } else if (slash == path) {
                dir_fd = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                *ret_name = path + 1;
        } else {
                char dir[PATH_MAX];

                if ((size_t)(slash - path) >= sizeof(dir))
                        return -ENAMETOOLONG;
                memcpy(dir, path, (size_t)(slash - path));
                dir[slash - path] = 0;
                dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                *ret_name = slash + 1;
        }
        if (dir_fd < 0)
                return -errno;
        if (!(*ret_name)[0]) {
                close(dir_fd);
                return -EISDIR;
        }
        return dir_fd;
}

int atomic_file_write(const char *path, const void *data, size_t size, mode_t mode) {
        _cleanup_close_ int dir_fd = -EBADF;
        const char *name;

        assert(path);

        dir_fd = open_parent(path, &name);
        if (dir_fd < 0)
                return dir_fd;
        return atomic_file_write_at(dir_fd, name, data, size, mode);
}

int atomic_file_open(const char *path, mode_t mode, struct atomic_file *ret) {
        _cleanup_(atomic_file_close) struct atomic_file f = {.fd = -EBADF, .dir_fd = -EBADF};
        const char *name;
        int r;

        assert(path);
        assert(ret);

        r = open_parent(path, &name);
        if (r < 0)
                return r;
        f.dir_fd = r;
        if (strlen(name) > NAME_MAX)
                return -ENAMETOOLONG;
        memcpy(f.name, name, strlen(name) + 1);
        r = tmp_file_create(f.dir_fd, f.name, mode, f.tmp_name);
        if (r < 0) {
                f.tmp_name[0] = 0; /* nothing to delete */
                return r;
        }
        f.fd = r;
        *ret = f;
        f = (struct atomic_file){.fd = -EBADF, .dir_fd = -EBADF};
        return 0;
}

int atomic_file_append(struct atomic_file *f, const void *data, size_t size) {
        assert(f);
        assert(f->fd >= 0);
        return write_all(f->fd, data, size);
}

int atomic_file_commit(struct atomic_file *f) {
        int r;

        assert(f);
        assert(f->fd >= 0 && f->tmp_name[0]);

        /* On failure the temporary name stays for atomic_file_close() to
         * delete; if the rename itself was done, that finds nothing. */
        r = tmp_file_commit(f->dir_fd, TAKE_FD(f->fd), f->tmp_name, f->name);
        if (r == 0)
                f->tmp_name[0] = 0;
        return r;
}

void atomic_file_close(struct atomic_file *f) {
        assert(f);
        closep(&f->fd);
        f->fd = -EBADF;
        if (f->dir_fd >= 0 && f->tmp_name[0])
                (void)unlinkat(f->dir_fd, f->tmp_name, 0);
        f->tmp_name[0] = 0;
        closep(&f->dir_fd);
        f->dir_fd = -EBADF;
}
