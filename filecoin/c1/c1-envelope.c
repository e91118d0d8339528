/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Curio's (and lotus-bench's) c1.json envelope: Go's encoding/json of
 * struct { SectorNum int64; Phase1Out []byte; SectorSize uint64 }, the C1
 * JSON inside as standard padded base64. c1_parse_any() takes either form.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "filecoin/c1/c1-internal.h"
#include "filecoin/c1/c1.h"

static const char base64_alphabet[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* Base64 encodes 3 bytes in 4 characters: the envelope's limit follows the C1's. */
#define C1_ENVELOPE_MAX_BYTES (C1_JSON_MAX_BYTES / 3 * 4 + 4096)

static int base64_value(char ch) {
        const char *at = ch ? strchr(base64_alphabet, ch) : NULL;

        return at ? (int)(at - base64_alphabet) : -1;
}

/* Strict: length a multiple of 4, '=' only as padding, unused bits zero (as Go writes). */
static int base64_decode(struct c1_cursor *c, const char *s, size_t len, char **ret,
                         size_t *ret_len) {
        _cleanup_free_ char *out = NULL;
        size_t pad = 0, n = 0;
        uint32_t bits = 0;

        if (len % 4)
                return c1_cursor_fail(c, "base64 of %zu characters, not a multiple of 4", len);
        if (len && s[len - 1] == '=')
                pad = len >= 2 && s[len - 2] == '=' ? 2 : 1;
        out = malloc(len / 4 * 3 + 1);
        if (!out)
                return log_error_errno(ENOMEM, "%s: cannot allocate %zu bytes for Phase1Out: %m",
                                       c->what, len / 4 * 3);
        for (size_t i = 0; i < len - pad; i++) {
                int v = base64_value(s[i]);

                if (v < 0)
                        return c1_cursor_fail(c,
                                              "character %zu of the base64 (0x%02x) is not in "
                                              "the standard alphabet",
                                              i, (unsigned char)s[i]);
                bits = bits << 6 | (uint32_t)v;
                if (i % 4 == 3) {
                        out[n++] = (char)(bits >> 16);
                        out[n++] = (char)(bits >> 8);
                        out[n++] = (char)bits;
                        bits = 0;
                }
        }
        if (pad == 2) { /* 12 bits left, 8 used */
                if (bits & 0xf)
                        return c1_cursor_fail(c, "base64 padding with non-zero unused bits");
                out[n++] = (char)(bits >> 4);
        } else if (pad == 1) { /* 18 bits left, 16 used */
                if (bits & 0x3)
                        return c1_cursor_fail(c, "base64 padding with non-zero unused bits");
                out[n++] = (char)(bits >> 10);
                out[n++] = (char)(bits >> 2);
        }
        *ret_len = n;
        *ret = TAKE_PTR(out);
        return 0;
}

static int envelope_fields(struct c1_cursor *c, uint64_t *sector_num, uint64_t *sector_size,
                           char **phase1_out, size_t *phase1_len) {
        static const char *const names[] = {"SectorNum", "Phase1Out", "SectorSize"};
        struct c1_fields f = {.names = names, .n_names = 3, .required = 7};
        const char *s;
        size_t len;
        int which, r;

        r = c1_cursor_expect(c, '{');
        if (r < 0)
                return r;
        while ((r = c1_cursor_field(c, &f, &which)) > 0) {
                if (which == 0) /* an int64 in Go */
                        r = c1_cursor_u64(c, 0, INT64_MAX, sector_num);
                else if (which == 2)
                        r = c1_cursor_u64(c, 1, UINT64_MAX, sector_size);
                else {
                        r = c1_cursor_string(c, &s, &len);
                        if (r >= 0)
                                r = base64_decode(c, s, len, phase1_out, phase1_len);
                }
                if (r < 0)
                        return r;
        }
        if (r < 0)
                return r;
        c1_cursor_skip_ws(c);
        if (c->p != c->end)
                return c1_cursor_fail(c, "trailing text after the envelope");
        return 0;
}

int c1_envelope_parse(const char *json, size_t len, const char *what, uint64_t *sector_num,
                      uint64_t *sector_size, char **phase1_out, size_t *phase1_len) {
        _cleanup_free_ char *phase1 = NULL;
        struct c1_cursor c;
        size_t n = 0;
        int r;

        assert(json || len == 0);
        assert(sector_num && sector_size && phase1_out && phase1_len);

        r = c1_check_json_size(len, C1_ENVELOPE_MAX_BYTES, what, "a C1 envelope");
        if (r < 0)
                return r;
        c1_cursor_init(&c, json, len, what);
        r = envelope_fields(&c, sector_num, sector_size, &phase1, &n);
        if (r < 0)
                return r; /* phase1 is freed: a later field may fail after Phase1Out */
        *phase1_len = n;
        *phase1_out = TAKE_PTR(phase1);
        return 0;
}

static void base64_encode(struct c1_buffer *b, const uint8_t *in, size_t len) {
        char *out;

        if (!c1_buffer_reserve(b, (len + 2) / 3 * 4))
                return;
        out = b->data + b->len;
        for (size_t i = 0; i < len; i += 3) {
                uint32_t v = (uint32_t)in[i] << 16;
                size_t left = len - i;

                if (left > 1)
                        v |= (uint32_t)in[i + 1] << 8;
                if (left > 2)
                        v |= in[i + 2];
                *out++ = base64_alphabet[v >> 18];
                *out++ = base64_alphabet[(v >> 12) & 63];
                *out++ = left > 1 ? base64_alphabet[(v >> 6) & 63] : '=';
                *out++ = left > 2 ? base64_alphabet[v & 63] : '=';
        }
        b->len = (size_t)(out - b->data);
}

int c1_envelope_write_buffer(uint64_t sector_num, const void *phase1, size_t len,
                             uint64_t sector_size, char **ret, size_t *ret_len) {
        struct c1_buffer b = {0};

        assert(phase1 || len == 0);
        assert(ret && ret_len);

        /* Go's field order; a nil Phase1Out would be null, but a C1 is never empty. */
        c1_buffer_add_str(&b, "{\"SectorNum\":");
        c1_buffer_add_u64(&b, sector_num);
        c1_buffer_add_str(&b, ",\"Phase1Out\":\"");
        base64_encode(&b, phase1, len);
        c1_buffer_add_str(&b, "\",\"SectorSize\":");
        c1_buffer_add_u64(&b, sector_size);
        c1_buffer_add_str(&b, "}");
        return c1_buffer_finish(&b, ret, ret_len);
}

int c1_envelope_write(FILE *f, uint64_t sector_num, const void *phase1, size_t len,
                      uint64_t sector_size) {
        _cleanup_free_ char *buf = NULL;
        size_t n;
        int r;

        assert(f);

        r = c1_envelope_write_buffer(sector_num, phase1, len, sector_size, &buf, &n);
        if (r < 0)
                return r;
        return c1_fwrite_all(f, buf, n);
}

/* An envelope starts with one of its own keys, a bare C1 with one of serde's. */
static bool looks_like_envelope(const char *json, size_t len) {
        struct c1_cursor c;
        const char *key;
        size_t n;

        c1_cursor_init(&c, json, len, NULL);
        c1_cursor_skip_ws(&c);
        if (c.p >= c.end || *c.p != '{')
                return false;
        c.p++;
        c1_cursor_skip_ws(&c);
        if (c.p >= c.end || *c.p != '"')
                return false;
        key = ++c.p;
        while (c.p < c.end && *c.p != '"')
                c.p++;
        n = (size_t)(c.p - key);
        return (n == 9 && memcmp(key, "SectorNum", 9) == 0) ||
               (n == 9 && memcmp(key, "Phase1Out", 9) == 0) ||
               (n == 10 && memcmp(key, "SectorSize", 10) == 0);
}

int c1_parse_any(const char *json, size_t len, const char *what, struct c1_output **ret,
                 struct c1_envelope_info *envelope) {
        _cleanup_c1_output_ struct c1_output *c1 = NULL;
        _cleanup_free_ char *phase1 = NULL, *inner = NULL;
        struct c1_envelope_info info = {0};
        size_t n;
        int r;

        assert(json || len == 0);
        assert(ret);

        r = c1_check_json_size(len, C1_ENVELOPE_MAX_BYTES, what, "a C1 output or envelope");
        if (r < 0)
                return r;
        if (!looks_like_envelope(json, len)) {
                r = c1_parse(json, len, what, &c1);
                if (r < 0)
                        return r;
        } else {
                r = c1_envelope_parse(json, len, what, &info.sector_num, &info.sector_size, &phase1,
                                      &n);
                if (r < 0)
                        return r;
                info.present = true;
                if (asprintf(&inner, "%s: Phase1Out", what ? what : "C1 envelope") < 0)
                        return log_error_errno(ENOMEM, "%s: %m", what);
                r = c1_parse(phase1, n, inner, &c1);
                if (r < 0)
                        return r;
                if (info.sector_size != c1->cfg->sector_bytes)
                        return log_error_errno(EINVAL,
                                               "%s: SectorSize %llu, but %s is a proof of "
                                               "%llu-byte sectors",
                                               what, (unsigned long long)info.sector_size,
                                               c1->cfg->name,
                                               (unsigned long long)c1->cfg->sector_bytes);
        }
        if (envelope)
                *envelope = info;
        *ret = TAKE_PTR(c1);
        return 0;
}
