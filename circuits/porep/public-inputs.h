/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Groth16 public inputs of one PoRep partition, as the verifier
 * derives them (storage-proofs-porep stacked/circuit/proof.rs
 * generate_public_inputs; ../shared/POREP.md Part B §9), ONE excluded:
 *
 *   replica_id, comm_d, comm_r,
 *   per challenge c: c (tree D), its 6 DRG parents, its 8 expander
 *   parents, c (UInt64), c (tree R), c (tree C)
 *
 * Nothing here comes from the prover's vanilla proofs: the challenges from
 * replica_id, the seed and comm_r, the parents from the graph.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "filecoin/porep/registered-proof.h"
#include "zk/fr.h"

#define POREP_INPUTS_PER_CHALLENGE (1u + POREP_TOTAL_PARENTS + 3u)

/* 3 + 18 · challenges_per_partition. */
size_t porep_public_input_count(const struct porep_config *cfg);

/*
 * out[0 .. porep_public_input_count(cfg)) for partition k. Returns 0,
 * -EINVAL (k out of range, replica_id/comm_d/comm_r not below r, or an
 * all-zero comm_d or comm_r, as get_seal_inputs refuses), -ENOMEM or -EIO.
 */
int porep_public_inputs(const struct porep_config *cfg, const uint8_t replica_id[32],
                        const uint8_t comm_d[32], const uint8_t comm_r[32], const uint8_t seed[32],
                        unsigned k, fr_t *out);
