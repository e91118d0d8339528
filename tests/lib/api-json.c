/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/lib/api-json.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static json_t *base64(const uint8_t *data, size_t length) {
        static const char alphabet[] =
                "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        char *out = malloc(4 * ((length + 2) / 3) + 1), *p = out;
        json_t *v;

        assert(out);
        for (size_t i = 0; i < length; i += 3) {
                uint32_t n = (uint32_t)data[i] << 16;
                if (i + 1 < length)
                        n |= (uint32_t)data[i + 1] << 8;
                if (i + 2 < length)
                        n |= data[i + 2];
                *p++ = alphabet[n >> 18 & 63];
                *p++ = alphabet[n >> 12 & 63];
                *p++ = i + 1 < length ? alphabet[n >> 6 & 63] : '=';
                *p++ = i + 2 < length ? alphabet[n & 63] : '=';
        }
        *p = 0;
        v = json_string(out);
        free(out);
        return v;
}

/* One value of field f stored at p. */
static json_t *value_to_json(const ProtobufCFieldDescriptor *f, const void *p) {
        char number[32];

        switch (f->type) {
        case PROTOBUF_C_TYPE_UINT32:
                return json_integer(*(const uint32_t *)p);
        case PROTOBUF_C_TYPE_INT32:
        case PROTOBUF_C_TYPE_SINT32:
                return json_integer(*(const int32_t *)p);
        case PROTOBUF_C_TYPE_UINT64:
        case PROTOBUF_C_TYPE_FIXED64:
                snprintf(number, sizeof(number), "%" PRIu64, *(const uint64_t *)p);
                return json_string(number);
        case PROTOBUF_C_TYPE_INT64:
        case PROTOBUF_C_TYPE_SINT64:
                snprintf(number, sizeof(number), "%" PRId64, *(const int64_t *)p);
                return json_string(number);
        case PROTOBUF_C_TYPE_BOOL:
                return json_boolean(*(const protobuf_c_boolean *)p);
        case PROTOBUF_C_TYPE_ENUM: {
                const ProtobufCEnumValue *v =
                        protobuf_c_enum_descriptor_get_value(f->descriptor, *(const int *)p);
                return v ? json_string(v->name) : json_integer(*(const int *)p);
        }
        case PROTOBUF_C_TYPE_STRING:
                return json_string(*(char *const *)p ? *(char *const *)p : "");
        case PROTOBUF_C_TYPE_BYTES: {
                const ProtobufCBinaryData *b = p;
                return base64(b->data, b->len);
        }
        case PROTOBUF_C_TYPE_MESSAGE: {
                const ProtobufCMessage *m = *(const ProtobufCMessage *const *)p;
                return m ? test_api_message_to_json(m) : json_null();
        }
        default:
                fprintf(stderr, "api-json: field %s: type %d not handled\n", f->name, (int)f->type);
                abort();
        }
}

static size_t value_size(const ProtobufCFieldDescriptor *f) {
        switch (f->type) {
        case PROTOBUF_C_TYPE_UINT64:
        case PROTOBUF_C_TYPE_INT64:
        case PROTOBUF_C_TYPE_SINT64:
        case PROTOBUF_C_TYPE_FIXED64:
                return 8;
        case PROTOBUF_C_TYPE_BOOL:
                return sizeof(protobuf_c_boolean);
        case PROTOBUF_C_TYPE_STRING:
        case PROTOBUF_C_TYPE_MESSAGE:
                return sizeof(void *);
        case PROTOBUF_C_TYPE_BYTES:
                return sizeof(ProtobufCBinaryData);
        default:
                return 4;
        }
}

json_t *test_api_message_to_json(const ProtobufCMessage *message) {
        const ProtobufCMessageDescriptor *d = message->descriptor;
        json_t *object = json_object();

        for (unsigned i = 0; i < d->n_fields; i++) {
                const ProtobufCFieldDescriptor *f = &d->fields[i];
                const char *base = (const char *)message;
                json_t *v;

                if (f->label == PROTOBUF_C_LABEL_REPEATED) {
                        size_t n = *(const size_t *)(base + f->quantifier_offset);
                        const char *items = *(const char *const *)(base + f->offset);
                        v = json_array();
                        for (size_t k = 0; k < n; k++)
                                json_array_append_new(v,
                                                      value_to_json(f, items + k * value_size(f)));
                } else {
                        v = value_to_json(f, base + f->offset);
                }
                json_object_set_new(object, f->name, v);
        }
        return object;
}
