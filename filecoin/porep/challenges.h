/* SPDX-License-Identifier: Apache-2.0 */
/*
 * PoRep challenges: which nodes partition k of a sector's proof opens
 * (rust-fil-proofs vanilla/challenges.rs; ../shared/POREP.md Part B §6).
 * Every kind turns 32 pseudo-random bytes into a node as the little-endian
 * integer mod (nodes - 1) + 1, so node 0 is never challenged.
 *
 *   interactive:  SHA-256(replica_id ‖ seed ‖ j u32 LE)
 *   NI:           SHA-256("filecoin.io|PoRep|1|NonInteractive|1" ‖ replica_id ‖ comm_r ‖ j u32 LE)
 *   synthetic:    min(nodes, 2^18) challenges from a ChaCha20 stream keyed by
 *                 replica_id and comm_r (fixed before the seed is known), of
 *                 which the seed selects cpp per partition
 *
 * with j = cpp * k + i for challenge i of partition k.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "filecoin/porep/registered-proof.h"

/* Synthetic challenges generated for a sector: min(nodes, 2^18). */
#define POREP_SYNTH_CHALLENGES_MAX (1u << 18)

/*
 * out[0..cpp) = the challenges of partition k for cfg's challenge kind: the
 * interactive and synthetic kinds read seed, the NI and synthetic kinds
 * comm_r (the other may be NULL). Returns 0, -EINVAL when k is not a
 * partition of cfg or an input the kind needs is NULL, -ENOMEM / -EIO from
 * libcrypto (synthetic only).
 */
int porep_challenges(const struct porep_config *cfg, const uint8_t replica_id[32],
                     const uint8_t seed[32], const uint8_t comm_r[32], unsigned k, uint64_t *out);

/* The interactive challenges of partition k (any cfg). Returns 0 or -EINVAL (k). */
int porep_interactive_challenges(const struct porep_config *cfg, const uint8_t replica_id[32],
                                 const uint8_t seed[32], unsigned k, uint64_t *out);

/* The non-interactive challenges of partition k (any cfg). Returns 0 or -EINVAL (k). */
int porep_ni_challenges(const struct porep_config *cfg, const uint8_t replica_id[32],
                        const uint8_t comm_r[32], unsigned k, uint64_t *out);

/* The synthetic challenges of partition k (any cfg): porep_synth_select then
 * porep_synth_generate. Returns 0, -EINVAL (k), -ENOMEM or -EIO. */
int porep_synthetic_challenges(const struct porep_config *cfg, const uint8_t replica_id[32],
                               const uint8_t seed[32], const uint8_t comm_r[32], unsigned k,
                               uint64_t *out);

/* How many synthetic challenges a sector of nodes has: min(nodes, 2^18). */
uint64_t porep_synth_count(uint64_t nodes);

/*
 * out[0..n) = synthetic challenges first .. first + n - 1 of a sector of
 * nodes: 32-byte words of ChaCha20 (IETF, nonce "synth-porep\0", counter 0)
 * keyed by BLAKE2b-256 keyed "filecoin.io|PoRep|1|Synthetic|1|Generation"
 * over replica_id ‖ comm_r. Returns 0, -ENOMEM or -EIO.
 */
int porep_synth_generate(uint64_t nodes, const uint8_t replica_id[32], const uint8_t comm_r[32],
                         uint64_t first, size_t n, uint64_t *out);

/*
 * out[0..n) = which of num_synth synthetic challenges porep challenges
 * first .. first + n - 1 are: u32 LE words of ChaCha20 keyed by BLAKE2b-256
 * keyed "filecoin.io|PoRep|1|Synthetic|1|Selection" over replica_id ‖ seed,
 * mod num_synth. Partition k's are first = k * cpp, n = cpp.
 * Returns 0, -ENOMEM or -EIO.
 */
int porep_synth_select(uint64_t num_synth, const uint8_t replica_id[32], const uint8_t seed[32],
                       uint64_t first, size_t n, uint64_t *out);

/* The node a challenge's pseudo-random bytes (little-endian) stand for:
 * value mod (nodes - 1) + 1. nodes must be in [2, 2^32]. */
uint64_t porep_challenge_from_le(const uint8_t *bytes, size_t n, uint64_t nodes);
