/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The ids a seal is bound to (../shared/POREP.md Part B §6): the prover id
 * of a miner and the replica id of a sector, which seeds its labels and its
 * interactive challenges.
 */
#pragma once

#include <stdint.h>

#define POREP_PROVER_ID_BYTES 32u
#define POREP_REPLICA_ID_BYTES 32u

/*
 * out = trim(SHA-256(prover_id ‖ sector_id u64 BE ‖ ticket ‖ comm_d ‖ porep_id))
 * (vanilla/params.rs generate_replica_id): byte 31 &= 0x3f, so that out is
 * the little-endian repr of a canonical Fr.
 */
void porep_replica_id(const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                      const uint8_t comm_d[32], const uint8_t porep_id[32], uint8_t out[32]);

/*
 * The prover id of miner f0<actor_id>: the payload of its ID address (the
 * actor id as an unsigned LEB128 varint) in bytes 0.., zeros after, as
 * filecoin-ffi's to_prover_id makes it (t01000 -> e8 07 00 ...). Returns the
 * number of payload bytes (1 to 10).
 */
int porep_prover_id_from_miner(uint64_t actor_id, uint8_t out[POREP_PROVER_ID_BYTES]);

/*
 * Parses a miner as an ID address ("t01000", "f01000") or a bare actor id
 * ("1000"). Returns 0, -EINVAL when s is neither (other address protocols
 * included), -ERANGE when the number does not fit in 64 bits. The caller
 * names the field in its message.
 */
int porep_parse_miner(const char *s, uint64_t *actor_id);
