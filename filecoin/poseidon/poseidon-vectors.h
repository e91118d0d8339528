/* SPDX-License-Identifier: Apache-2.0 */
/*
 * neptune's published Poseidon hashes (poseidon.rs hash_values_aux:
 * Standard strength, MerkleTree tag, preimage 0, 1, ..., arity - 1), as
 * little-endian u64 limbs of the canonical value (../shared/POREP.md Part B
 * §1). Test data, shared by the native and the circuit tests.
 */
#pragma once

#include <stdint.h>

struct poseidon_vector {
        unsigned arity;
        uint64_t limbs[4];
};

static const struct poseidon_vector POSEIDON_NEPTUNE_VECTORS[] = {
        {2, {0x2e203c369a02e7ff, 0xa6fba9339d05a69d, 0x739e0fd902efe161, 0x396508d75e76a56b}},
        {4, {0x019814ff6662075d, 0xfb6b4605bf1327ec, 0x00db3c6579229399, 0x58a54b10a9e5848a}},
        {8, {0x2a9934f56d38a5e6, 0x4b682e9d9cc4aed9, 0x1201004211677077, 0x2394611da3a5de55}},
        {11, {0xcee3bbc32b693163, 0x09f3dcd8ccb08fc1, 0x6ca537e232ebe87a, 0x0c0fc1b2e5227f28}},
        {16, {0x1291c74060266d37, 0x5b8dbc6d30680a6f, 0xc1c2fb5a6f871e63, 0x2d3ae2663381ae8a}},
};
