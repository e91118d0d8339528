/* SPDX-License-Identifier: Apache-2.0 */
#include "log.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int log_max_level = LOG_INFO;
static log_sink_fn log_sink;
static void *log_sink_userdata;

void log_set_max_level(int max_level) {
        log_max_level = max_level;
}

int log_get_max_level(void) {
        return log_max_level;
}

void log_set_sink(log_sink_fn sink, void *userdata) {
        log_sink = sink;
        log_sink_userdata = userdata;
}

/* The length of the well-formed UTF-8 sequence of two to four bytes at s (no overlong
 * forms, no surrogates, nothing past U+10FFFF), or 0. */
static size_t utf8_sequence_length(const unsigned char *s) {
        static const unsigned lead_mask[5] = {0, 0, 0x1f, 0x0f, 0x07};
        static const unsigned min_code[5] = {0, 0, 0x80, 0x800, 0x10000};
        size_t n = s[0] >= 0xc2 && s[0] <= 0xdf   ? 2
                   : s[0] >= 0xe0 && s[0] <= 0xef ? 3
                   : s[0] >= 0xf0 && s[0] <= 0xf4 ? 4
                                                  : 0;
        unsigned code;

        if (n == 0)
                return 0;
        code = s[0] & lead_mask[n];
        for (size_t i = 1; i < n; i++) {
                if ((s[i] & 0xc0) != 0x80)
                        return 0; /* also stops at the NUL */
                code = code << 6 | (s[i] & 0x3fu);
        }
        if (code < min_code[n] || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff))
                return 0;
        return n;
}

/* One byte as itself when it is printable ASCII, else as an escape a reader of a log line
 * can tell from text: \n, \r, \t, \xNN. */
static size_t escape_byte(unsigned char c, char *out) {
        static const char hex[] = "0123456789abcdef";

        if (c >= 0x20 && c < 0x7f) {
                out[0] = (char)c;
                return 1;
        }
        out[0] = '\\';
        if (c == '\n' || c == '\r' || c == '\t') {
                out[1] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
                return 2;
        }
        out[1] = 'x';
        out[2] = hex[c >> 4];
        out[3] = hex[c & 0xf];
        return 4;
}

size_t log_escape(const char *message, char *buf, size_t size) {
        const unsigned char *s = (const unsigned char *)message;
        size_t used = 0;

        if (size == 0)
                return 0;
        while (*s) {
                char piece[4];
                size_t n = utf8_sequence_length(s), piece_len;
                /* C1 controls (U+0080..U+009F) are terminal commands too. */
                bool c1 = n == 2 && s[0] == 0xc2 && s[1] < 0xa0;

                if (n > 0 && !c1) {
                        if (used + n >= size)
                                break;
                        memcpy(buf + used, s, n);
                        used += n;
                        s += n;
                        continue;
                }
                /* Control characters would forge lines or drive a terminal; a byte that is
                 * not UTF-8 would make the line unreadable to journald's readers. */
                piece_len = escape_byte(*s, piece);
                if (used + piece_len >= size)
                        break;
                memcpy(buf + used, piece, piece_len);
                used += piece_len;
                s++;
        }
        buf[used] = 0;
        return used;
}

int log_internal(int level, int error, const char *fmt, ...) {
        char message[1024], escaped[4 * sizeof(message)];
        va_list ap;
        int saved_errno = errno;

        error = abs(error);
        if (level > log_max_level) {
                errno = saved_errno;
                return -error;
        }

        /* "%m" in fmt is printed by glibc from errno: make it the error we were given. */
        errno = error;
        va_start(ap, fmt);
        vsnprintf(message, sizeof(message), fmt, ap);
        va_end(ap);

        /* Messages carry what clients sent (paths, request ids): one message stays one
         * line on every target. */
        log_escape(message, escaped, sizeof(escaped));
        if (log_sink)
                log_sink(level, escaped, log_sink_userdata);
        else
                fprintf(stderr, "%s\n", escaped);

        errno = saved_errno;
        return -error;
}
