/* SPDX-License-Identifier: Apache-2.0 */
/* libFuzzer harness: the C1 output JSON and Curio's envelope (filecoin/c1).
 * Whatever parses must write back to text that parses to the same text. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/c1/c1.h"
#include "fuzz-common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
        struct c1_output *c1 = NULL, *again = NULL;
        struct c1_envelope_info info;
        char *text = NULL, *text2 = NULL;
        size_t len, len2;

        fuzz_quiet();
        if (c1_parse_any((const char *)data, size, "fuzz", &c1, &info) < 0)
                return 0;
        if (c1_write_buffer(c1, &text, &len) < 0)
                abort();
        if (c1_parse(text, len, "fuzz rewrite", &again) < 0)
                abort(); /* the writer wrote what the parser refuses */
        if (c1_write_buffer(again, &text2, &len2) < 0 || len != len2 || memcmp(text, text2, len))
                abort(); /* parse(write(x)) lost or changed something */
        free(text);
        free(text2);
        c1_output_free(again);
        c1_output_free(c1);
        return 0;
}
