/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The depth-robust base graph of SDR: rust-fil-proofs' BucketGraph with
 * BASE_DEGREE 6 (storage-proofs-core drgraph.rs, ../shared/POREP.md Part B
 * §3). Node v >= 2 draws 5 parents by bucket sampling in the metagraph of
 * 5 * v nodes, from ChaCha8Rng seeded with seed28 || v u32 LE, and has
 * v - 1 as its sixth: last under API V1_0_0, first under V1_1_0 and V1_2_0.
 * Nodes 0 and 1 have six parents 0.
 */
#pragma once

#include <stdint.h>

#include "filecoin/porep/registered-proof.h"

#define DRG_SEED_BYTES 28u

struct drg {
        uint8_t seed[DRG_SEED_BYTES]; /* SHA256("Filecoin_DRSample" || porep_id)[0..28] */
        enum porep_api_version api;
};

void drg_init(struct drg *d, const uint8_t porep_id[POREP_ID_BYTES], enum porep_api_version api);

/* The 6 DRG parents of node. */
void drg_parents(const struct drg *d, uint32_t node, uint32_t out[POREP_DRG_PARENTS]);
