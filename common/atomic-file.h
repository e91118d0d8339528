/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writing a buffer to a file so that, after a crash at any point, the file
 * is either whole or absent (or, when it existed, whole and old): the bytes
 * go to a temporary ".NAME.tmp-XXXXXX" beside it, which is fsync()ed and
 * renamed over NAME, and then the directory is fsync()ed so that the rename
 * itself is on disk. These helpers do not log: they return a negative errno
 * and leave the message, with its context, to the caller.
 */
#pragma once

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
