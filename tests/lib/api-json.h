/* SPDX-License-Identifier: Apache-2.0 */
/*
 * protobuf-c messages as JSON in the form @grpc/proto-loader gives them with
 * {keepCase, longs: String, enums: String, bytes: String, defaults, arrays}:
 * proto field names, 64-bit integers as decimal strings, enums by name,
 * bytes as base64, every field present. protobufjs reads the same form back,
 * so the JSON of a request is what the node scripts send.
 */
#pragma once

#include <jansson.h>
#include <protobuf-c/protobuf-c.h>

json_t *test_api_message_to_json(const ProtobufCMessage *message);
