/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer harness: bellperson .params and .vk, 192-byte Filecoin proofs
 * and the point encodings under them. The first byte picks the parser. */
#include <stdint.h>
#include <stdlib.h>

#include "formats/bellperson_params.h"
#include "formats/bellperson_vk.h"
#include "formats/filecoin_proof.h"
#include "fuzz-common.h"
#include "zk/point_encoding.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const uint8_t *in = data + 1;
        size_t n = size - 1;

        if (size < 1)
                return 0;
        fuzz_quiet();
        switch (data[0] % 5) {
        case 0:
        case 1: {
                struct bellperson_params *p = NULL;
                if (bellperson_params_parse(in, n, "fuzz", data[0] % 5 == 1, &p) == 0)
                        bellperson_params_free(p);
                break;
        }
        case 2: {
                struct bellperson_vk *vk = NULL;
                if (bellperson_vk_parse(in, n, "fuzz", NULL, &vk) == 0)
                        bellperson_vk_free(vk);
                break;
        }
        case 3: {
                struct groth16_proof *proofs = NULL;
                size_t count;
                if (filecoin_proofs_decode(in, n, "fuzz", &proofs, &count) == 0)
                        free(proofs);
                break;
        }
        default: {
                g1_affine_t p1;
                g2_affine_t p2;
                for (point_format_t f = POINT_FORMAT_COMPRESSED; f <= POINT_FORMAT_SNARKJS; f++) {
                        (void)g1_decode(&p1, in, n, f, 0);
                        (void)g2_decode(&p2, in, n, f, 0);
                }
                break;
        }
        }
        return 0;
}
