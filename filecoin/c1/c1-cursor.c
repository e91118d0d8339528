/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A single-pass JSON reader over a buffer for the fixed schemas of the C1
 * output and its envelope: no tokens are stored and nothing is allocated;
 * each caller asks for what the schema says comes next. Whitespace between
 * tokens is accepted (serde_json writes none, but a hand-edited file may
 * have it); numbers must be plain unsigned integers as serde writes them.
 */
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "filecoin/c1/c1-internal.h"

const char *const c1_merkle_kind_names[3] = {"Single", "Sub", "Top"};

int c1_check_json_size(size_t len, unsigned long long max_bytes, const char *what,
                       const char *kind) {
        if (len > max_bytes)
                return log_error_errno(E2BIG, "%s: %zu bytes, more than the %llu %s may have", what,
                                       len, max_bytes, kind);
        return 0;
}

void c1_cursor_init(struct c1_cursor *c, const char *json, size_t len, const char *what) {
        assert(c);
        assert(json || len == 0);

        *c = (struct c1_cursor){.start = json, .p = json, .end = json + len, .what = what};
}

static size_t format_path(const struct c1_cursor *c, char *out, size_t size) {
        size_t n = 0;

        out[0] = '\0';
        for (unsigned i = 0; i < c->depth && n < size; i++) {
                const struct c1_frame *f = &c->frames[i];
                int w;

                if (f->hidden)
                        continue;
                if (f->key)
                        w = snprintf(out + n, size - n, "%s%s", n ? "." : "", f->key);
                else
                        w = snprintf(out + n, size - n, "[%u]", f->index);
                if (w < 0)
                        break;
                n += (size_t)w;
        }
        return n;
}

int c1_cursor_fail(struct c1_cursor *c, const char *fmt, ...) {
        char path[512], message[256];
        va_list ap;

        assert(c);
        assert(fmt);

        va_start(ap, fmt);
        vsnprintf(message, sizeof(message), fmt, ap);
        va_end(ap);
        format_path(c, path, sizeof(path));
        return log_error_errno(EINVAL, "%s: %s%s%s (at byte %zu)", c->what ? c->what : "C1 output",
                               path, path[0] ? ": " : "", message, (size_t)(c->p - c->start));
}

void c1_cursor_push_key(struct c1_cursor *c, const char *key) {
        assert(c->depth < C1_CURSOR_MAX_DEPTH);
        c->frames[c->depth++] = (struct c1_frame){.key = key};
}

void c1_cursor_push_index(struct c1_cursor *c, uint32_t index) {
        assert(c->depth < C1_CURSOR_MAX_DEPTH);
        c->frames[c->depth++] = (struct c1_frame){.index = index};
}

void c1_cursor_pop(struct c1_cursor *c) {
        assert(c->depth > 0);
        c->depth--;
}

void c1_cursor_hide_top(struct c1_cursor *c) {
        assert(c->depth > 0);
        c->frames[c->depth - 1].hidden = true;
}

void c1_cursor_skip_ws(struct c1_cursor *c) {
        while (c->p < c->end && (*c->p == ' ' || *c->p == '\n' || *c->p == '\r' || *c->p == '\t'))
                c->p++;
}

/* What the cursor is looking at, for messages. */
static const char *found(const struct c1_cursor *c, char buf[16]) {
        unsigned char ch;

        if (c->p >= c->end)
                return "the end of the input";
        ch = (unsigned char)*c->p;
        if (ch >= 0x20 && ch < 0x7f)
                snprintf(buf, 16, "'%c'", ch);
        else
                snprintf(buf, 16, "byte 0x%02x", ch);
        return buf;
}

int c1_cursor_expect(struct c1_cursor *c, char ch) {
        char buf[16];

        c1_cursor_skip_ws(c);
        if (c->p < c->end && *c->p == ch) {
                c->p++;
                return 0;
        }
        return c1_cursor_fail(c, "expected '%c', found %s", ch, found(c, buf));
}

int c1_cursor_string(struct c1_cursor *c, const char **ret, size_t *ret_len) {
        const char *s;
        int r;

        r = c1_cursor_expect(c, '"');
        if (r < 0)
                return r;
        for (s = c->p; c->p < c->end && *c->p != '"'; c->p++)
                if (*c->p == '\\' || (unsigned char)*c->p < 0x20)
                        return c1_cursor_fail(c, "escape or control character in a string, "
                                                 "none expected here");
        if (c->p >= c->end)
                return c1_cursor_fail(c, "unterminated string");
        *ret = s;
        *ret_len = (size_t)(c->p - s);
        c->p++;
        return 0;
}

/* The number token at the cursor, as text for a message. */
static int number_token_len(const struct c1_cursor *c) {
        const char *q = c->p;

        while (q < c->end && q - c->p < 40 && strchr("0123456789+-.eE", *q) && *q)
                q++;
        return (int)(q - c->p);
}

int c1_cursor_u64(struct c1_cursor *c, uint64_t min, uint64_t max, uint64_t *ret) {
        const char *digits;
        uint64_t v = 0;
        char buf[16];

        c1_cursor_skip_ws(c);
        digits = c->p;
        while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
                unsigned d = (unsigned)(*c->p - '0');

                if (v > (UINT64_MAX - d) / 10) {
                        c->p = digits;
                        return c1_cursor_fail(c, "%.*s is out of range %llu..%llu",
                                              number_token_len(c), c->p, (unsigned long long)min,
                                              (unsigned long long)max);
                }
                v = v * 10 + d;
                c->p++;
        }
        if (c->p == digits) {
                if (c->p < c->end && *c->p == '-') {
                        int n = number_token_len(c);
                        return c1_cursor_fail(c, "%.*s is negative, expected %llu..%llu", n, c->p,
                                              (unsigned long long)min, (unsigned long long)max);
                }
                return c1_cursor_fail(c, "expected a number, found %s", found(c, buf));
        }
        if ((c->p < c->end && (*c->p == '.' || *c->p == 'e' || *c->p == 'E')) ||
            (*digits == '0' && c->p - digits > 1)) {
                c->p = digits;
                return c1_cursor_fail(c, "%.*s is not a plain unsigned integer",
                                      number_token_len(c), c->p);
        }
        if (v < min || v > max) {
                c->p = digits;
                if (max == UINT8_MAX && min == 0)
                        return c1_cursor_fail(c, "%llu is not a byte", (unsigned long long)v);
                return c1_cursor_fail(c, "%llu is out of range %llu..%llu", (unsigned long long)v,
                                      (unsigned long long)min, (unsigned long long)max);
        }
        *ret = v;
        return 0;
}

int c1_cursor_u32(struct c1_cursor *c, uint32_t min, uint32_t max, uint32_t *ret) {
        uint64_t v;
        int r;

        r = c1_cursor_u64(c, min, max, &v);
        if (r < 0)
                return r;
        *ret = (uint32_t)v;
        return 0;
}

int c1_cursor_literal(struct c1_cursor *c, const char *literal) {
        size_t n = strlen(literal);
        char buf[16];

        c1_cursor_skip_ws(c);
        if ((size_t)(c->end - c->p) >= n && memcmp(c->p, literal, n) == 0) {
                c->p += n;
                return 0;
        }
        return c1_cursor_fail(c, "expected %s, found %s", literal, found(c, buf));
}

/* One byte of a domain, the fast path for 1-3 digits followed by ',' or ']'. */
static inline bool domain_byte_fast(struct c1_cursor *c, uint8_t *out) {
        const char *p = c->p;
        unsigned v;

        if (c->end - p >= 4 && p[0] >= '1' && p[0] <= '9') {
                v = (unsigned)(p[0] - '0');
                p++;
                if (*p >= '0' && *p <= '9') {
                        v = v * 10 + (unsigned)(*p++ - '0');
                        if (*p >= '0' && *p <= '9')
                                v = v * 10 + (unsigned)(*p++ - '0');
                }
                if (v <= 255 && (*p == ',' || *p == ']')) {
                        c->p = p;
                        *out = (uint8_t)v;
                        return true;
                }
        } else if (c->end - p >= 2 && p[0] == '0' && (p[1] == ',' || p[1] == ']')) {
                c->p = p + 1;
                *out = 0;
                return true;
        }
        return false;
}

int c1_cursor_domain(struct c1_cursor *c, c1_domain out) {
        int r;

        r = c1_cursor_expect(c, '[');
        if (r < 0)
                return r;
        for (uint32_t i = 0; i < 32; i++) {
                if (i > 0) {
                        if (c->p < c->end && *c->p == ',')
                                c->p++;
                        else if ((r = c1_cursor_array_next(c, i, 32, "bytes")) < 0)
                                return r;
                        else
                                c1_cursor_pop(c);
                }
                if (!domain_byte_fast(c, &out[i])) {
                        /* Blanks, a bad number, 256, the end: the checked path, whose
                         * message names the byte. */
                        uint64_t v;

                        c1_cursor_push_index(c, i);
                        r = c1_cursor_u64(c, 0, UINT8_MAX, &v);
                        if (r < 0)
                                return r;
                        c1_cursor_pop(c);
                        out[i] = (uint8_t)v;
                }
        }
        if (c->p < c->end && *c->p == ']') {
                c->p++;
                return 0;
        }
        return c1_cursor_array_next(c, 32, 32, "bytes");
}

int c1_cursor_array_next(struct c1_cursor *c, uint32_t i, uint32_t n, const char *what) {
        char buf[16];

        c1_cursor_skip_ws(c);
        if (i >= n) {
                if (c->p < c->end && *c->p == ']') {
                        c->p++;
                        return 0;
                }
                if (c->p < c->end && *c->p == ',')
                        return c1_cursor_fail(c, "more than %u %s, expected %u", n, what, n);
                return c1_cursor_fail(c, "expected ']', found %s", found(c, buf));
        }
        if (c->p < c->end && *c->p == ']')
                return c1_cursor_fail(c, "%u %s, expected %u", i, what, n);
        if (i > 0) {
                if (c->p >= c->end || *c->p != ',')
                        return c1_cursor_fail(c, "expected ',' or ']', found %s", found(c, buf));
                c->p++;
        }
        c1_cursor_push_index(c, i);
        return 1;
}

static int field_lookup(struct c1_cursor *c, struct c1_fields *f, const char *key, size_t len) {
        for (unsigned i = 0; i < f->n_names; i++) {
                if (strlen(f->names[i]) != len || memcmp(f->names[i], key, len) != 0)
                        continue;
                if (f->seen & (1u << i))
                        return c1_cursor_fail(c, "duplicate field \"%s\"", f->names[i]);
                f->seen |= 1u << i;
                return (int)i;
        }
        return c1_cursor_fail(c, "unknown field \"%.*s\"", (int)(len < 64 ? len : 64), key);
}

static int fields_end(struct c1_cursor *c, struct c1_fields *f) {
        uint32_t missing = f->required & ~f->seen;

        if (missing)
                return c1_cursor_fail(c, "missing field \"%s\"", f->names[__builtin_ctz(missing)]);
        return 0;
}

int c1_cursor_field(struct c1_cursor *c, struct c1_fields *f, int *which) {
        const char *key, *at;
        size_t len;
        char buf[16];
        int r;

        assert(f->n_names <= 32);

        if (f->started) {
                c1_cursor_pop(c);
                c1_cursor_skip_ws(c);
                if (c->p < c->end && *c->p == '}') {
                        c->p++;
                        f->started = false;
                        return fields_end(c, f);
                }
                if (c->p >= c->end || *c->p != ',')
                        return c1_cursor_fail(c, "expected ',' or '}', found %s", found(c, buf));
                c->p++;
        } else {
                c1_cursor_skip_ws(c);
                if (c->p < c->end && *c->p == '}') {
                        c->p++;
                        return fields_end(c, f);
                }
        }
        c1_cursor_skip_ws(c);
        at = c->p;
        r = c1_cursor_string(c, &key, &len);
        if (r < 0)
                return r;
        c->p = at; /* a duplicate or unknown key is reported where it starts */
        r = field_lookup(c, f, key, len);
        if (r < 0)
                return r;
        c->p = key + len + 1;
        *which = r;
        c1_cursor_push_key(c, f->names[r]);
        f->started = true;
        return c1_cursor_expect(c, ':') < 0 ? -EINVAL : 1;
}

int c1_cursor_variant(struct c1_cursor *c, const char **ret, size_t *ret_len) {
        int r;

        r = c1_cursor_expect(c, '{');
        if (r < 0)
                return r;
        r = c1_cursor_string(c, ret, ret_len);
        if (r < 0)
                return r;
        return c1_cursor_expect(c, ':');
}

int c1_cursor_variant_end(struct c1_cursor *c) {
        c1_cursor_skip_ws(c);
        if (c->p < c->end && *c->p == ',')
                return c1_cursor_fail(c, "a second enum variant, expected one");
        return c1_cursor_expect(c, '}');
}

/* Past a string whose opening quote is at the cursor, escapes included. */
static int skip_string(struct c1_cursor *c) {
        for (c->p++; c->p < c->end; c->p++) {
                if (*c->p == '\\')
                        c->p++;
                else if (*c->p == '"') {
                        c->p++;
                        return 0;
                }
        }
        return c1_cursor_fail(c, "unterminated string");
}

int c1_cursor_skip_value(struct c1_cursor *c) {
        unsigned depth = 0;
        int r;

        c1_cursor_skip_ws(c);
        while (c->p < c->end) {
                char ch = *c->p;

                if (ch == '"') {
                        r = skip_string(c);
                        if (r < 0)
                                return r;
                        if (depth == 0)
                                return 0;
                        continue;
                }
                if (ch == '[' || ch == '{') {
                        if (++depth > C1_SKIP_MAX_DEPTH)
                                return c1_cursor_fail(c, "nested deeper than %u",
                                                      C1_SKIP_MAX_DEPTH);
                } else if (ch == ']' || ch == '}' || ch == ',') {
                        if (depth == 0)
                                return 0; /* the end of a scalar */
                        if (ch != ',' && --depth == 0) {
                                c->p++;
                                return 0;
                        }
                }
                c->p++;
        }
        return c1_cursor_fail(c, "unexpected end of input");
}
