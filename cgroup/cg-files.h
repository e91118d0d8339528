/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading and writing cgroupfs files relative to a cgroup directory fd
 * (openat, never a concatenated absolute path). Every function returns a
 * negative errno and logs the file's full path and the value involved.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* "max" in cgroupfs: no limit. */
#define CG_LIMIT_MAX UINT64_MAX

/* Writes value (no newline) to file below dirfd. */
int cg_write_string(int dirfd, const char *file, const char *value);
/* Writes a decimal number; CG_LIMIT_MAX is written as "max". */
int cg_write_u64(int dirfd, const char *file, uint64_t value);

/* Reads the whole (small) file into buf as a string without the trailing newline; -EFBIG
 * when it does not fit. */
int cg_read_string(int dirfd, const char *file, char *buf, size_t size);
/* Reads a single number; "max" reads as CG_LIMIT_MAX. */
int cg_read_u64(int dirfd, const char *file, uint64_t *ret);

/* One wanted key of a flat keyed file ("key value" per line, e.g. memory.events). */
typedef struct cg_keyed_value {
        const char *key;
        uint64_t value;
        bool found;
} cg_keyed_value_t;

/* Fills the wanted keys of a flat keyed file; keys not in the file keep found = false.
 * A wanted key whose value is not a number fails with -EBADMSG. */
int cg_read_keyed(int dirfd, const char *file, cg_keyed_value_t *values, size_t n_values);

/* The same from an open fd of that file, read from its start (an fd that is polled must
 * be the one re-read, or kernfs keeps reporting the change); dirfd and file name it in
 * messages. */
int cg_read_keyed_fd(int fd, int dirfd, const char *file, cg_keyed_value_t *values,
                     size_t n_values);

/* Parses a decimal u64 or "max" (one optional trailing newline): -EINVAL or -ERANGE. */
int cg_parse_u64(const char *text, uint64_t *ret);

/* "<directory of dirfd>/<file>" for messages; never fails. */
const char *cg_path_for_message(int dirfd, const char *file, char *buf, size_t size);
