/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Filecoin's Groth16 proofs (bellperson's Proof::write): 192 bytes,
 *
 *   A (G1 compressed, 48) || B (G2 compressed, 96) || C (G1 compressed, 48)
 *
 * in the zcash encoding (zk/point_encoding.h). A proof of several
 * partitions (a PoRep has 10) is their proofs concatenated in partition
 * order.
 *
 * Decoding checks flags, canonical coordinates, the curve and the subgroup
 * (groth16_verify() needs all three), and refuses a well-formed point at
 * infinity as bellperson does. It returns 0 or a negative error, logged
 * with the origin, the partition and the element (A, B or C): the point's
 * zk_error_t (ZK_E_BAD_FLAGS, ZK_E_NOT_ON_CURVE, ... ; print it with
 * zk_strerror()), -ZK_E_WRONG_LENGTH for a length that is not 192 (or a
 * multiple of it), -EBADMSG for a point at infinity, -ENOMEM.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "zk/groth16.h"

#define FILECOIN_PROOF_BYTES 192

void filecoin_proof_encode(uint8_t out[FILECOIN_PROOF_BYTES], const struct groth16_proof *proof);
/* origin names the proof's source (a file, a job) in messages. */
int filecoin_proof_decode(const uint8_t *in, size_t in_bytes, const char *origin,
                          struct groth16_proof *ret);

/* out_bytes must be n * FILECOIN_PROOF_BYTES. */
void filecoin_proofs_encode(uint8_t *out, size_t out_bytes, const struct groth16_proof *proofs,
                            size_t n);
/* *ret is a new array (malloc) of *ret_n >= 1 proofs; in_bytes must be a
 * non-zero multiple of FILECOIN_PROOF_BYTES. */
int filecoin_proofs_decode(const uint8_t *in, size_t in_bytes, const char *origin,
                           struct groth16_proof **ret, size_t *ret_n);
