/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writing a buffer to a file so that, after a crash at any point, the file
 * is either whole or absent (or, when it existed, whole and old): the bytes
 * go to a temporary ".NAME.tmp-XXXXXX" beside it, which is fsync()ed and
 * renamed over NAME, and then the directory is fsync()ed so that the rename
 * itself is on disk. Only a missing or regular file is replaced: any other
 * kind of entry (a device node, a symlink, a directory) gives -EEXIST.
 * These helpers do not log: they return a negative errno
 * and leave the message, with its context, to the caller.
 */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* Writes size bytes to name below the directory dir_fd (an fd opened with
 * O_DIRECTORY; name is one path component) with the given mode (umask
 * applies). -ENAMETOOLONG when name leaves no room for the temporary name. */
int atomic_file_write_at(int dir_fd, const char *name, const void *data, size_t size, mode_t mode);
/* The same for a path: its directory is opened to write and sync in. */
int atomic_file_write(const char *path, const void *data, size_t size, mode_t mode);

/* A fresh temporary name for name, ".NAME.tmp-XXXXXX" with six random
 * characters, in buf (size bytes); -ENAMETOOLONG if it does not fit or is
 * longer than NAME_MAX. For callers that build a directory the same way. */
int atomic_file_tmp_name(const char *name, char *buf, size_t size);
/* Whether name is such a temporary name (left behind by a crash). */
bool atomic_file_is_tmp_name(const char *name);

/*
 * The same for a file written piece by piece, too large to hold in one
 * buffer: atomic_file_open() creates the temporary file beside path, the
 * caller writes through f->fd (write(), pwrite(), atomic_file_append()),
 * atomic_file_commit() syncs it, renames it over path and syncs the
 * directory. atomic_file_close() closes and deletes what was not committed
 * (nothing after a commit): use it with _cleanup_().
 */
struct atomic_file {
        int fd;     /* the temporary file, open for writing; -EBADF once closed */
        int dir_fd; /* the directory of path */
        char name[NAME_MAX + 1];
        char tmp_name[NAME_MAX + 1]; /* "" once renamed (or before it exists) */
};

int atomic_file_open(const char *path, mode_t mode, struct atomic_file *ret);
/* Writes all size bytes at the file position (EINTR and short writes retried). */
int atomic_file_append(struct atomic_file *f, const void *data, size_t size);
int atomic_file_commit(struct atomic_file *f);
void atomic_file_close(struct atomic_file *f);
