/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer harness: snarkjs's proof.json, public.json and vk.json readers. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>

#include "formats/snarkjs-json.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        struct groth16_proof proof;
        struct groth16_vk *vk = NULL;
        fr_t *pub = NULL;
        size_t n_pub;
        json_t *root;

        fuzz_quiet();
        root = json_loadb((const char *)data, size, 0, NULL);
        if (!root)
                return 0;
        (void)snarkjs_proof_from_json(root, "fuzz", &proof);
        if (snarkjs_public_from_json(root, "fuzz", &pub, &n_pub) == 0)
                free(pub);
        if (snarkjs_vk_from_json(root, "fuzz", &vk) == 0)
                snarkjs_vk_free(vk);
        json_decref(root);
        return 0;
}
