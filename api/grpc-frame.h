/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gRPC over HTTP/2, the parts shared by the server and the client: the
 * length-prefixed message framing (1 byte compressed flag, 4 bytes
 * big-endian length, then the message), the status codes, and the
 * percent-encoding of grpc-message.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GRPC_FRAME_PREFIX_BYTES 5
/* Largest message accepted by default: a 32 GiB C1 envelope is ~51 MB and
 * the reference daemon takes up to 128 MiB; leave room above that. */
#define GRPC_DEFAULT_MAX_MESSAGE_BYTES (256u * 1024 * 1024)

enum grpc_status {
        GRPC_STATUS_OK = 0,
        GRPC_STATUS_CANCELLED = 1,
        GRPC_STATUS_UNKNOWN = 2,
        GRPC_STATUS_INVALID_ARGUMENT = 3,
        GRPC_STATUS_DEADLINE_EXCEEDED = 4,
        GRPC_STATUS_NOT_FOUND = 5,
        GRPC_STATUS_ALREADY_EXISTS = 6,
        GRPC_STATUS_PERMISSION_DENIED = 7,
        GRPC_STATUS_RESOURCE_EXHAUSTED = 8,
        GRPC_STATUS_FAILED_PRECONDITION = 9,
        GRPC_STATUS_ABORTED = 10,
        GRPC_STATUS_OUT_OF_RANGE = 11,
        GRPC_STATUS_UNIMPLEMENTED = 12,
        GRPC_STATUS_INTERNAL = 13,
        GRPC_STATUS_UNAVAILABLE = 14,
        GRPC_STATUS_DATA_LOSS = 15,
        GRPC_STATUS_UNAUTHENTICATED = 16,
};

/* "INVALID_ARGUMENT" etc.; "UNKNOWN_STATUS" outside 0..16. */
const char *grpc_status_name(int status);
/* The status a handler's negative errno stands for (EINVAL: INVALID_ARGUMENT,
 * ENOENT: NOT_FOUND, ...; anything unexpected: INTERNAL). */
enum grpc_status grpc_status_from_errno(int error);

/* Writes the 5-byte prefix of an uncompressed message of length bytes. */
void grpc_frame_prefix(uint8_t prefix[GRPC_FRAME_PREFIX_BYTES], uint32_t length);

/*
 * Collects one length-prefixed message from DATA frames that may split it
 * anywhere. The message buffer grows as bytes arrive (never past the length
 * the prefix announced, which is checked against max_message_bytes first),
 * so a prefix alone costs no memory: the server charges its request memory
 * cap for the bytes before it feeds them (api-admission.c).
 */
struct grpc_frame_reader {
        size_t max_message_bytes;
        uint8_t prefix[GRPC_FRAME_PREFIX_BYTES];
        size_t prefix_filled;
        uint8_t *message; /* NULL until bytes of the message arrive */
        size_t message_length;
        size_t message_filled;
        size_t message_allocated;
        bool complete;          /* one whole message is in message[] */
        enum grpc_status error; /* GRPC_STATUS_OK until the input is refused */
        const char *error_message;
};

void grpc_frame_reader_init(struct grpc_frame_reader *r, size_t max_message_bytes);
/* Frees the message buffer (the prefix and length stay known). */
void grpc_frame_reader_done(struct grpc_frame_reader *r);
/* Whether the prefix is complete, so that message_length is known. */
bool grpc_frame_reader_has_length(const struct grpc_frame_reader *r);
/* Feeds bytes; returns 0, or -EBADMSG once r->error says why the input is
 * refused (a second message, a compressed one, one too large). Bytes fed after
 * an error are ignored. -ENOMEM when the buffer cannot be allocated. */
int grpc_frame_reader_feed(struct grpc_frame_reader *r, const uint8_t *data, size_t length);
/* At the end of the stream: 0 with the message in r->message (length
 * r->message_length; not NUL-terminated), or -EBADMSG with r->error set
 * (no message, or one cut short). */
int grpc_frame_reader_finish(struct grpc_frame_reader *r);

/* Percent-encodes a grpc-message value (bytes outside 0x20..0x7e and '%'),
 * as the gRPC HTTP/2 protocol asks. Returns a malloc()ed string or NULL. */
char *grpc_message_encode(const char *text);
/* The reverse; malformed escapes are kept as they are. malloc()ed or NULL. */
char *grpc_message_decode(const char *value, size_t length);
