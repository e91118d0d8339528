/* SPDX-License-Identifier: Apache-2.0 */
/*
 * snarkjs/circom witness files (.wtns, version <= 2):
 *   section 1 (header): n8 u32, prime (n8 bytes LE), n_values u32
 *   section 2 (values): n_values field elements, canonical little-endian
 * The prime must be BLS12-381's r. values[0] is the constant 1 of every
 * circom circuit, then the public signals (outputs, public inputs), then
 * the private wires.
 */
#pragma once

#include <stdint.h>

#include "zk/fr.h"

struct wtns {
        uint32_t n_values;
        fr_t *values; /* Montgomery form */
};

/* Returns 0 or a negative errno (logged, naming the file). */
int wtns_load(const char *path, struct wtns **ret);
struct wtns *wtns_free(struct wtns *w);
static inline void wtns_freep(struct wtns **w) {
        wtns_free(*w);
}
