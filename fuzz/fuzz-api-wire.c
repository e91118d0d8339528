/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer harness: the look at a request's encoding before it is decoded (api/api-wire.h).
 * The first byte picks the request type. Whatever the bytes, the walker reads only inside
 * them (ASan on an exact-size copy), answers 0, 1 or -EBADMSG, and a NUL it reports is in
 * the bytes, within a named field. protobuf-c then decodes the same bytes, as the server
 * does next, under the same sanitizers. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "api/api-wire.h"
#include "api/cuzk.pb-c.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const ProtobufCMessageDescriptor *const requests[] = {
        &cuzk__v1__submit_proof_request__descriptor, &cuzk__v1__await_proof_request__descriptor,
        &cuzk__v1__prove_request__descriptor,        &cuzk__v1__cancel_proof_request__descriptor,
        &cuzk__v1__get_status_request__descriptor,   &cuzk__v1__preload_srs_request__descriptor,
        &cuzk__v1__evict_srs_request__descriptor,    &cuzk__v1__get_metrics_request__descriptor,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const ProtobufCMessageDescriptor *d;
        struct api_wire_nul nul;
        ProtobufCMessage *m;
        uint8_t *copy;
        int r;

        fuzz_quiet();
        if (size < 1)
                return 0;
        d = requests[data[0] % (sizeof(requests) / sizeof(requests[0]))];
        /* an exact-size copy: any read past the message is a heap overflow */
        copy = malloc(size - 1 ? size - 1 : 1);
        if (!copy)
                abort();
        memcpy(copy, data + 1, size - 1);
        memset(&nul, 0, sizeof(nul));
        r = api_wire_find_nul_string(d, copy, size - 1, &nul);
        if (r != 0 && r != 1 && r != -EBADMSG)
                abort();
        if (r == 1 && (nul.field[0] == 0 || nul.offset >= size - 1 || !memchr(copy, 0, size - 1)))
                abort(); /* a NUL reported where there is none, or no field named */
        m = protobuf_c_message_unpack(d, NULL, size - 1, copy);
        if (m)
                protobuf_c_message_free_unpacked(m, NULL);
        free(copy);
        return 0;
}
