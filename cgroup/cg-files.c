/* SPDX-License-Identifier: Apache-2.0 */
#include "cg-files.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"

/* Keys and values of the files we read are short; longer lines are not ones we want. */
#define CG_KEYED_LINE_MAX 256

const char *cg_path_for_message(int dirfd, const char *file, char *buf, size_t size) {
        char link[64], dir[PATH_MAX];
        ssize_t n;

        assert(file);
        assert(buf);
        assert(size > 0);

        if (file[0] == '/' || dirfd == AT_FDCWD) {
                snprintf(buf, size, "%s", file);
                return buf;
        }
        snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
        n = readlink(link, dir, sizeof(dir) - 1);
        if (n < 0)
                snprintf(dir, sizeof(dir), "(fd %d)", dirfd);
        else
                dir[n] = '\0';
        snprintf(buf, size, "%s/%s", dir, file);
        return buf;
}

/* Copies text for a log line: at most 40 bytes, non-printable bytes shown as '?'. */
static const char *printable(const char *text, char *buf, size_t size) {
        size_t i;

        for (i = 0; i + 1 < size && i < 40 && text[i]; i++)
                buf[i] = isprint((unsigned char)text[i]) ? text[i] : '?';
        buf[i] = '\0';
        return buf;
}

int cg_parse_u64(const char *text, uint64_t *ret) {
        uint64_t value = 0;
        const char *p = text;

        assert(text);
        assert(ret);

        if (strcmp(text, "max") == 0 || strcmp(text, "max\n") == 0) {
                *ret = CG_LIMIT_MAX;
                return 0;
        }
        if (!isdigit((unsigned char)*p))
                return -EINVAL;
        for (; isdigit((unsigned char)*p); p++) {
                unsigned digit = (unsigned)(*p - '0');
                if (value > (UINT64_MAX - digit) / 10)
                        return -ERANGE;
                value = value * 10 + digit;
        }
        if (*p == '\n')
                p++;
        if (*p != '\0')
                return -EINVAL;
        *ret = value;
        return 0;
}

int cg_write_string(int dirfd, const char *file, const char *value) {
        _cleanup_close_ int fd = -EBADF;
        char path[PATH_MAX + 64];
        size_t len;
        ssize_t n;

        assert(file);
        assert(value);

        fd = openat(dirfd, file, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return log_error_errno(errno, "Failed to open %s for writing '%s': %m",
                                       cg_path_for_message(dirfd, file, path, sizeof(path)), value);
        /* cgroupfs takes one write per value: a short write is an error, not a retry. */
        len = strlen(value);
        n = write(fd, value, len);
        if (n < 0)
                return log_error_errno(errno, "Failed to write '%s' to %s: %m", value,
                                       cg_path_for_message(dirfd, file, path, sizeof(path)));
        if ((size_t)n != len)
                return log_error_errno(EIO, "Short write of '%s' to %s (%zd of %zu bytes)", value,
                                       cg_path_for_message(dirfd, file, path, sizeof(path)), n,
                                       len);
        return 0;
}

int cg_write_u64(int dirfd, const char *file, uint64_t value) {
        char buf[32];

        assert(file);

        if (value == CG_LIMIT_MAX)
                snprintf(buf, sizeof(buf), "max");
        else
                snprintf(buf, sizeof(buf), "%" PRIu64, value);
        return cg_write_string(dirfd, file, buf);
}

/* read(2) of the cgroup file `file` open at fd: the bytes read (0 at its end), or a negative
 * errno, logged naming the file. */
static ssize_t read_logged(int fd, int dirfd, const char *file, void *buf, size_t size) {
        char path[PATH_MAX + 64];
        ssize_t n = read(fd, buf, size);

        if (n < 0)
                return log_error_errno(errno, "Failed to read %s: %m",
                                       cg_path_for_message(dirfd, file, path, sizeof(path)));
        return n;
}

int cg_read_string(int dirfd, const char *file, char *buf, size_t size) {
        _cleanup_close_ int fd = -EBADF;
        char path[PATH_MAX + 64];
        size_t used = 0;

        assert(file);
        assert(buf);
        assert(size > 1);

        fd = openat(dirfd, file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0)
                return log_error_errno(errno, "Failed to open %s: %m",
                                       cg_path_for_message(dirfd, file, path, sizeof(path)));
        for (;;) {
                ssize_t n = read_logged(fd, dirfd, file, buf + used, size - 1 - used);
                if (n < 0)
                        return (int)n;
                if (n == 0)
                        break;
                used += (size_t)n;
                if (used == size - 1) {
                        char extra;
                        n = read(fd, &extra, 1);
                        if (n != 0)
                                return log_error_errno(
                                        EFBIG, "%s is longer than %zu bytes",
                                        cg_path_for_message(dirfd, file, path, sizeof(path)),
                                        size - 1);
                        break;
                }
        }
        buf[used] = '\0';
        if (used > 0 && buf[used - 1] == '\n')
                buf[used - 1] = '\0';
        return 0;
}

int cg_read_u64(int dirfd, const char *file, uint64_t *ret) {
        char buf[64], shown[48], path[PATH_MAX + 64];
        int r;

        assert(file);
        assert(ret);

        r = cg_read_string(dirfd, file, buf, sizeof(buf));
        if (r < 0)
                return r;
        r = cg_parse_u64(buf, ret);
        if (r == -ERANGE)
                return log_error_errno(r, "Failed to parse %s: '%s' is out of range for 64 bits",
                                       cg_path_for_message(dirfd, file, path, sizeof(path)),
                                       printable(buf, shown, sizeof(shown)));
        if (r < 0)
                return log_error_errno(EBADMSG,
                                       "Failed to parse %s: '%s' is not a number or \"max\"",
                                       cg_path_for_message(dirfd, file, path, sizeof(path)),
                                       printable(buf, shown, sizeof(shown)));
        return 0;
}

/* Stores one "key value" line into the matching wanted key, if any. */
static int keyed_take_line(int dirfd, const char *file, char *line, cg_keyed_value_t *values,
                           size_t n_values) {
        char shown[48], path[PATH_MAX + 64];
        char *value = strchr(line, ' ');
        int r;

        if (!value)
                return 0;
        *value++ = '\0';
        for (size_t i = 0; i < n_values; i++) {
                if (strcmp(values[i].key, line) != 0)
                        continue;
                r = cg_parse_u64(value, &values[i].value);
                if (r < 0)
                        return log_error_errno(
                                EBADMSG,
                                "Failed to parse %s: key '%s' has value '%s', expected an "
                                "unsigned number",
                                cg_path_for_message(dirfd, file, path, sizeof(path)), line,
                                printable(value, shown, sizeof(shown)));
                values[i].found = true;
                return 0;
        }
        return 0;
}

int cg_read_keyed_fd(int fd, int dirfd, const char *file, cg_keyed_value_t *values,
                     size_t n_values) {
        char chunk[4096], line[CG_KEYED_LINE_MAX], path[PATH_MAX + 64];
        size_t line_len = 0;
        bool line_too_long = false;
        int r;

        assert(fd >= 0);
        assert(file);
        assert(values || n_values == 0);

        for (size_t i = 0; i < n_values; i++) {
                values[i].value = 0;
                values[i].found = false;
        }
        if (lseek(fd, 0, SEEK_SET) < 0)
                return log_error_errno(errno, "Failed to rewind %s: %m",
                                       cg_path_for_message(dirfd, file, path, sizeof(path)));
        /* Streamed line by line: memory.stat grows with every kernel release. */
        for (;;) {
                ssize_t n = read_logged(fd, dirfd, file, chunk, sizeof(chunk));
                if (n < 0)
                        return (int)n;
                if (n == 0)
                        break;
                for (ssize_t i = 0; i < n; i++) {
                        if (chunk[i] != '\n') {
                                if (line_len + 1 < sizeof(line))
                                        line[line_len++] = chunk[i];
                                else
                                        line_too_long = true;
                                continue;
                        }
                        line[line_len] = '\0';
                        if (!line_too_long) {
                                r = keyed_take_line(dirfd, file, line, values, n_values);
                                if (r < 0)
                                        return r;
                        }
                        line_len = 0;
                        line_too_long = false;
                }
        }
        if (line_len > 0 && !line_too_long) {
                line[line_len] = '\0';
                return keyed_take_line(dirfd, file, line, values, n_values);
        }
        return 0;
}

int cg_read_keyed(int dirfd, const char *file, cg_keyed_value_t *values, size_t n_values) {
        _cleanup_close_ int fd = -EBADF;
        char path[PATH_MAX + 64];

        assert(file);

        fd = openat(dirfd, file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
        if (fd < 0) {
                for (size_t i = 0; i < n_values; i++)
                        values[i].found = false;
                return log_error_errno(errno, "Failed to open %s: %m",
                                       cg_path_for_message(dirfd, file, path, sizeof(path)));
        }
        return cg_read_keyed_fd(fd, dirfd, file, values, n_values);
}
