/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer harness: snarkjs/circom binary files (.zkey, .wtns, .r1cs). The
 * first byte picks the parser so that one corpus covers all three. */
#include <stdint.h>
#include <stdlib.h>

#include "formats/r1cs.h"
#include "formats/wtns.h"
#include "formats/zkey.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        const char *path;

        if (size < 1)
                return 0;
        fuzz_quiet();
        path = fuzz_file(data + 1, size - 1);
        switch (data[0] % 3) {
        case 0: {
                struct zkey *zk = NULL;
                if (zkey_load(path, &zk) == 0)
                        zkey_free(zk);
                break;
        }
        case 1: {
                struct wtns *w = NULL;
                if (wtns_load(path, &w) == 0)
                        wtns_free(w);
                break;
        }
        default: {
                struct r1cs *cs = NULL;
                if (r1cs_load(path, &cs) == 0)
                        r1cs_free(cs);
                break;
        }
        }
        fuzz_file_close();
        return 0;
}
