/* SPDX-License-Identifier: Apache-2.0 */
#include "grpc-frame.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/hex.h"

const char *grpc_status_name(int status) {
        static const char *const names[] = {
                [GRPC_STATUS_OK] = "OK",
                [GRPC_STATUS_CANCELLED] = "CANCELLED",
                [GRPC_STATUS_UNKNOWN] = "UNKNOWN",
                [GRPC_STATUS_INVALID_ARGUMENT] = "INVALID_ARGUMENT",
                [GRPC_STATUS_DEADLINE_EXCEEDED] = "DEADLINE_EXCEEDED",
                [GRPC_STATUS_NOT_FOUND] = "NOT_FOUND",
                [GRPC_STATUS_ALREADY_EXISTS] = "ALREADY_EXISTS",
                [GRPC_STATUS_PERMISSION_DENIED] = "PERMISSION_DENIED",
                [GRPC_STATUS_RESOURCE_EXHAUSTED] = "RESOURCE_EXHAUSTED",
                [GRPC_STATUS_FAILED_PRECONDITION] = "FAILED_PRECONDITION",
                [GRPC_STATUS_ABORTED] = "ABORTED",
                [GRPC_STATUS_OUT_OF_RANGE] = "OUT_OF_RANGE",
                [GRPC_STATUS_UNIMPLEMENTED] = "UNIMPLEMENTED",
                [GRPC_STATUS_INTERNAL] = "INTERNAL",
                [GRPC_STATUS_UNAVAILABLE] = "UNAVAILABLE",
                [GRPC_STATUS_DATA_LOSS] = "DATA_LOSS",
                [GRPC_STATUS_UNAUTHENTICATED] = "UNAUTHENTICATED",
        };

        if (status < 0 || (size_t)status >= sizeof(names) / sizeof(names[0]))
                return "UNKNOWN_STATUS";
        return names[status];
}

enum grpc_status grpc_status_from_errno(int error) {
        switch (abs(error)) {
        case 0:
                return GRPC_STATUS_OK;
        case EINVAL:
        case EBADMSG:
        case ERANGE:
                return GRPC_STATUS_INVALID_ARGUMENT;
        case ENOENT:
        case ESRCH:
                return GRPC_STATUS_NOT_FOUND;
        case EEXIST:
                return GRPC_STATUS_ALREADY_EXISTS;
        case EPERM:
        case EACCES:
                return GRPC_STATUS_PERMISSION_DENIED;
        case ENOMEM:
        case ENOSPC:
        case EAGAIN:
        case EMFILE:
                return GRPC_STATUS_RESOURCE_EXHAUSTED;
        case EBUSY:
        case ESTALE:
                return GRPC_STATUS_FAILED_PRECONDITION;
        case ECANCELED:
                return GRPC_STATUS_CANCELLED;
        case ETIMEDOUT:
        case ETIME:
                return GRPC_STATUS_DEADLINE_EXCEEDED;
        case EOPNOTSUPP:
        case ENOSYS:
                return GRPC_STATUS_UNIMPLEMENTED;
        case ESHUTDOWN:
        case ECONNREFUSED:
                return GRPC_STATUS_UNAVAILABLE;
        default:
                return GRPC_STATUS_INTERNAL;
        }
}

void grpc_frame_prefix(uint8_t prefix[GRPC_FRAME_PREFIX_BYTES], uint32_t length) {
        prefix[0] = 0; /* not compressed */
        prefix[1] = (uint8_t)(length >> 24);
        prefix[2] = (uint8_t)(length >> 16);
        prefix[3] = (uint8_t)(length >> 8);
        prefix[4] = (uint8_t)length;
}

void grpc_frame_reader_init(struct grpc_frame_reader *r, size_t max_message_bytes) {
        assert(r);
        *r = (struct grpc_frame_reader){.max_message_bytes = max_message_bytes};
}

void grpc_frame_reader_done(struct grpc_frame_reader *r) {
        assert(r);
        free(r->message);
        r->message = NULL;
        r->message_allocated = 0;
}

bool grpc_frame_reader_has_length(const struct grpc_frame_reader *r) {
        assert(r);
        return r->prefix_filled == GRPC_FRAME_PREFIX_BYTES && r->error == GRPC_STATUS_OK;
}

static int reader_refuse(struct grpc_frame_reader *r, enum grpc_status status,
                         const char *message) {
        r->error = status;
        r->error_message = message;
        return -EBADMSG;
}

/* The prefix is complete: check it. The buffer comes with the bytes. */
static int reader_start_message(struct grpc_frame_reader *r) {
        uint32_t length = (uint32_t)r->prefix[1] << 24 | (uint32_t)r->prefix[2] << 16 |
                          (uint32_t)r->prefix[3] << 8 | (uint32_t)r->prefix[4];

        if (r->prefix[0] == 1)
                return reader_refuse(r, GRPC_STATUS_UNIMPLEMENTED,
                                     "compressed messages are not supported, send identity");
        if (r->prefix[0] != 0)
                return reader_refuse(r, GRPC_STATUS_INVALID_ARGUMENT,
                                     "malformed message prefix (flag byte not 0 or 1)");
        if (length > r->max_message_bytes)
                return reader_refuse(r, GRPC_STATUS_RESOURCE_EXHAUSTED,
                                     "message larger than the server accepts");
        r->message_length = length;
        r->message_filled = 0;
        r->complete = length == 0;
        /* An empty message has its (one byte) buffer at once: a valid pointer. */
        if (length == 0) {
                r->message = malloc(1);
                if (!r->message)
                        return -ENOMEM;
                r->message_allocated = 1;
        }
        return 0;
}

/* Smallest step of the buffer's growth; it doubles from there. */
#define READER_MIN_ALLOCATION (16u * 1024)

/* Makes room for needed bytes of the message: the buffer doubles (amortised copies;
 * glibc's realloc moves large blocks with mremap), but never past message_length. */
static int reader_grow(struct grpc_frame_reader *r, size_t needed) {
        size_t size = r->message_allocated ? r->message_allocated : READER_MIN_ALLOCATION;
        uint8_t *grown;

        if (needed <= r->message_allocated)
                return 0;
        while (size < needed)
                size *= 2;
        if (size > r->message_length)
                size = r->message_length;
        grown = realloc(r->message, size);
        if (!grown)
                return -ENOMEM;
        r->message = grown;
        r->message_allocated = size;
        return 0;
}

int grpc_frame_reader_feed(struct grpc_frame_reader *r, const uint8_t *data, size_t length) {
        int ret;

        assert(r);
        assert(data || length == 0);

        if (r->error != GRPC_STATUS_OK)
                return -EBADMSG;
        while (length > 0) {
                size_t n;

                if (r->complete)
                        return reader_refuse(r, GRPC_STATUS_INVALID_ARGUMENT,
                                             "more than one message on a unary call");
                if (r->prefix_filled < GRPC_FRAME_PREFIX_BYTES) {
                        n = GRPC_FRAME_PREFIX_BYTES - r->prefix_filled;
                        if (n > length)
                                n = length;
                        memcpy(r->prefix + r->prefix_filled, data, n);
                        r->prefix_filled += n;
                        data += n;
                        length -= n;
                        if (r->prefix_filled == GRPC_FRAME_PREFIX_BYTES) {
                                ret = reader_start_message(r);
                                if (ret < 0)
                                        return ret;
                        }
                        continue;
                }
                n = r->message_length - r->message_filled;
                if (n > length)
                        n = length;
                ret = reader_grow(r, r->message_filled + n);
                if (ret < 0)
                        return ret;
                memcpy(r->message + r->message_filled, data, n);
                r->message_filled += n;
                data += n;
                length -= n;
                r->complete = r->message_filled == r->message_length;
        }
        return 0;
}

int grpc_frame_reader_finish(struct grpc_frame_reader *r) {
        assert(r);

        if (r->error != GRPC_STATUS_OK)
                return -EBADMSG;
        if (r->prefix_filled == 0)
                return reader_refuse(r, GRPC_STATUS_INVALID_ARGUMENT, "no message in a unary call");
        if (!r->complete)
                return reader_refuse(r, GRPC_STATUS_INVALID_ARGUMENT,
                                     "message cut short by the end of the stream");
        return 0;
}

static bool grpc_message_byte_is_plain(unsigned char c) {
        return c >= 0x20 && c <= 0x7e && c != '%';
}

char *grpc_message_encode(const char *text) {
        static const char hex[] = "0123456789ABCDEF";
        size_t length = 0;
        char *out, *p;

        assert(text);
        for (const unsigned char *s = (const unsigned char *)text; *s; s++)
                length += grpc_message_byte_is_plain(*s) ? 1 : 3;
        out = malloc(length + 1);
        if (!out)
                return NULL;
        p = out;
        for (const unsigned char *s = (const unsigned char *)text; *s; s++) {
                if (grpc_message_byte_is_plain(*s)) {
                        *p++ = (char)*s;
                        continue;
                }
                *p++ = '%';
                *p++ = hex[*s >> 4];
                *p++ = hex[*s & 15];
        }
        *p = 0;
        return out;
}

char *grpc_message_decode(const char *value, size_t length) {
        char *out, *p;

        assert(value || length == 0);
        out = malloc(length + 1);
        if (!out)
                return NULL;
        p = out;
        for (size_t i = 0; i < length; i++) {
                int hi, lo;

                if (value[i] == '%' && i + 2 < length &&
                    (hi = hex_digit_value(value[i + 1])) >= 0 &&
                    (lo = hex_digit_value(value[i + 2])) >= 0) {
                        *p++ = (char)(hi << 4 | lo);
                        i += 2;
                        continue;
                }
                *p++ = value[i];
        }
        *p = 0;
        return out;
}
