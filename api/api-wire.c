/* SPDX-License-Identifier: Apache-2.0 */
#include "api-wire.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

/* Wire types of the protobuf encoding; 3 and 4 (groups) protobuf-c does not decode. */
enum {
        WIRE_VARINT = 0,
        WIRE_FIXED64 = 1,
        WIRE_LENGTH_DELIMITED = 2,
        WIRE_FIXED32 = 5,
};

/* The longest varint protobuf-c decodes (64 bits), and the longest tag (32 bits). */
#define VARINT_MAX_BYTES 10
#define TAG_MAX_BYTES 5

/* Reads a varint of at most max_bytes (at most 10) at data[*pos], within length. Bits past
 * 64 are dropped, as protobuf-c does: only its length is checked. */
static int read_varint(const uint8_t *data, size_t length, size_t *pos, unsigned max_bytes,
                       uint64_t *ret) {
        uint64_t value = 0;

        for (unsigned i = 0; i < max_bytes && *pos < length; i++) {
                uint8_t byte = data[(*pos)++];

                value |= (uint64_t)(byte & 0x7f) << (7 * i);
                if (!(byte & 0x80)) {
                        *ret = value;
                        return 0;
                }
        }
        return -EBADMSG; /* truncated, or longer than max_bytes */
}

static int find_in_message(const ProtobufCMessageDescriptor *descriptor, const uint8_t *data,
                           size_t length, unsigned depth, char *path, size_t path_size,
                           struct api_wire_nul *ret);

/* A length-delimited field's bytes: a string with a NUL in it, or a message to look into.
 * path holds the names down to the message that has the field. */
static int check_field(const ProtobufCFieldDescriptor *field, const uint8_t *value, size_t length,
                       unsigned depth, char *path, size_t path_size, struct api_wire_nul *ret) {
        size_t end = strlen(path);
        const uint8_t *nul;
        int r = 0;

        if (!field ||
            (field->type != PROTOBUF_C_TYPE_STRING && field->type != PROTOBUF_C_TYPE_MESSAGE))
                return 0; /* unknown to this descriptor, bytes, or packed numbers */
        /* A path too long for the buffer is cut: it only names the field in an error. */
        snprintf(path + end, path_size - end, ".%s", field->name);
        if (field->type == PROTOBUF_C_TYPE_MESSAGE)
                r = find_in_message(field->descriptor, value, length, depth + 1, path, path_size,
                                    ret);
        else if ((nul = memchr(value, 0, length))) {
                snprintf(ret->field, sizeof(ret->field), "%s", path);
                ret->offset = (size_t)(nul - value);
                r = 1;
        }
        path[end] = 0;
        return r;
}

static int find_in_message(const ProtobufCMessageDescriptor *descriptor, const uint8_t *data,
                           size_t length, unsigned depth, char *path, size_t path_size,
                           struct api_wire_nul *ret) {
        size_t pos = 0;
        int r;

        if (depth > API_WIRE_MAX_DEPTH)
                return -EBADMSG;
        while (pos < length) {
                uint64_t tag, value_length;
                unsigned number;

                r = read_varint(data, length, &pos, TAG_MAX_BYTES, &tag);
                if (r < 0)
                        return r;
                number = (unsigned)(tag >> 3);
                if (number == 0)
                        return -EBADMSG;
                switch (tag & 7) {
                case WIRE_VARINT:
                        r = read_varint(data, length, &pos, VARINT_MAX_BYTES, &value_length);
                        if (r < 0)
                                return r;
                        break;
                case WIRE_FIXED64:
                case WIRE_FIXED32:
                        value_length = (tag & 7) == WIRE_FIXED64 ? 8 : 4;
                        if (length - pos < value_length)
                                return -EBADMSG;
                        pos += value_length;
                        break;
                case WIRE_LENGTH_DELIMITED:
                        r = read_varint(data, length, &pos, VARINT_MAX_BYTES, &value_length);
                        if (r < 0)
                                return r;
                        if (value_length > length - pos)
                                return -EBADMSG; /* past the end of its message */
                        r = check_field(protobuf_c_message_descriptor_get_field(descriptor, number),
                                        data + pos, (size_t)value_length, depth, path, path_size,
                                        ret);
                        if (r != 0)
                                return r;
                        pos += (size_t)value_length;
                        break;
                default:
                        return -EBADMSG;
                }
        }
        return 0;
}

int api_wire_find_nul_string(const ProtobufCMessageDescriptor *descriptor, const uint8_t *data,
                             size_t length, struct api_wire_nul *ret) {
        char path[sizeof(ret->field)];

        assert(descriptor);
        assert(data || length == 0);
        assert(ret);

        snprintf(path, sizeof(path), "%s", descriptor->short_name);
        return find_in_message(descriptor, data, length, 1, path, sizeof(path), ret);
}
