/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The methods of cuzk.v1.ProvingEngine: their HTTP/2 paths and the protobuf
 * descriptors of their request and response, shared by server and client.
 */
#pragma once

#include <stddef.h>

#include "api/cuzk.pb-c.h"

enum api_method {
        API_METHOD_SUBMIT_PROOF,
        API_METHOD_AWAIT_PROOF,
        API_METHOD_PROVE,
        API_METHOD_CANCEL_PROOF,
        API_METHOD_GET_STATUS,
        API_METHOD_GET_METRICS,
        API_METHOD_PRELOAD_SRS,
        API_METHOD_EVICT_SRS,
        _API_METHOD_COUNT,
};

#define API_SERVICE_NAME "cuzk.v1.ProvingEngine"

struct api_method_info {
        const char *name; /* "SubmitProof" */
        const char *path; /* "/cuzk.v1.ProvingEngine/SubmitProof" */
        const ProtobufCMessageDescriptor *request;
        const ProtobufCMessageDescriptor *response;
};

const struct api_method_info *api_method_info(enum api_method method);
/* The method served at an HTTP/2 :path, or -ENOENT. */
int api_method_from_path(const char *path, size_t length);
