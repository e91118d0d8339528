/* SPDX-License-Identifier: Apache-2.0 */
#include "api-methods.h"

#include <assert.h>
#include <errno.h>
#include <string.h>

#define METHOD(id, method_name, request_descriptor, response_descriptor) \
        [id] = {                                                         \
                .name = method_name,                                     \
                .path = "/" API_SERVICE_NAME "/" method_name,            \
                .request = &request_descriptor,                          \
                .response = &response_descriptor,                        \
        }

static const struct api_method_info api_methods[_API_METHOD_COUNT] = {
        METHOD(API_METHOD_SUBMIT_PROOF, "SubmitProof", cuzk__v1__submit_proof_request__descriptor,
               cuzk__v1__submit_proof_response__descriptor),
        METHOD(API_METHOD_AWAIT_PROOF, "AwaitProof", cuzk__v1__await_proof_request__descriptor,
               cuzk__v1__await_proof_response__descriptor),
        METHOD(API_METHOD_PROVE, "Prove", cuzk__v1__prove_request__descriptor,
               cuzk__v1__prove_response__descriptor),
        METHOD(API_METHOD_CANCEL_PROOF, "CancelProof", cuzk__v1__cancel_proof_request__descriptor,
               cuzk__v1__cancel_proof_response__descriptor),
        METHOD(API_METHOD_GET_STATUS, "GetStatus", cuzk__v1__get_status_request__descriptor,
               cuzk__v1__get_status_response__descriptor),
        METHOD(API_METHOD_GET_METRICS, "GetMetrics", cuzk__v1__get_metrics_request__descriptor,
               cuzk__v1__get_metrics_response__descriptor),
        METHOD(API_METHOD_PRELOAD_SRS, "PreloadSRS", cuzk__v1__preload_srs_request__descriptor,
               cuzk__v1__preload_srs_response__descriptor),
        METHOD(API_METHOD_EVICT_SRS, "EvictSRS", cuzk__v1__evict_srs_request__descriptor,
               cuzk__v1__evict_srs_response__descriptor),
};

const struct api_method_info *api_method_info(enum api_method method) {
        assert(method >= 0 && method < _API_METHOD_COUNT);
        return &api_methods[method];
}

int api_method_from_path(const char *path, size_t length) {
        assert(path || length == 0);

        for (int m = 0; m < _API_METHOD_COUNT; m++)
                if (strlen(api_methods[m].path) == length &&
                    memcmp(api_methods[m].path, path, length) == 0)
                        return m;
        return -ENOENT;
}
