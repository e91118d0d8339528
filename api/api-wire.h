/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A look at a request's protobuf encoding before it is decoded: protobuf-c hands every
 * string field over as a NUL-terminated char *, so a string holding a NUL byte
 * ("/tmp/x\0/etc/shadow") arrives cut short, and the cut is invisible after decoding. The
 * server refuses such a request instead (api-call.c), naming the field.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <protobuf-c/protobuf-c.h>

/* Message fields are looked into down to this depth (ProveRequest.submit is 2). */
#define API_WIRE_MAX_DEPTH 8

struct api_wire_nul {
        char field[256]; /* the field's path: "SubmitProofRequest.submit.zkey_path" */
        size_t offset;   /* of the first NUL byte within the string */
};

/*
 * Walks the fields of the encoded message data (of type descriptor), and of its message
 * fields, for a string field that holds a NUL byte. 1 with *ret filled for the first one,
 * 0 when there is none, -EBADMSG when data is not a well-formed message (a truncated or
 * overlong varint, a length past the end, a group, field number 0): protobuf-c's decoder
 * then gives its own answer. Never reads outside data, whatever it holds.
 */
int api_wire_find_nul_string(const ProtobufCMessageDescriptor *descriptor, const uint8_t *data,
                             size_t length, struct api_wire_nul *ret);
