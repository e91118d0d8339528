/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writing snarkjs Groth16 proving keys (.zkey), the layout zkey.h reads, as
 * snarkjs's zkey_new.js writes a key before any phase-2 contribution:
 *
 *   zkey_new_from_r1cs()  the header and coefficient section of a circuit:
 *                         sizes, the A and B terms constraint by constraint
 *                         and the public-input binding entries (A, row
 *                         nConstraints + s, wire s, value 1 for s <= nPublic)
 *   zkey_set_keys()       the points, from a key pair in snarkjs's
 *                         convention (zk/groth16_setup.h's
 *                         groth16_setup_snarkjs())
 *   zkey_save()           the file: sections 1, 2, 4, 3, 9, 8, 5, 6, 7, 10 in
 *                         snarkjs's order, section 10 with the circuit hash
 *                         and no contributions
 *
 * Functions return 0 or a negative errno, logged with the file or the sizes:
 * -EINVAL for sizes a .zkey cannot hold (counts over u32, a domain over
 * 2^NTT_MAX_LOG_SIZE), -ENOMEM, or the error of writing the file.
 */
#pragma once

#include <stdint.h>

#include "r1cs.h"
#include "zk/groth16.h"
#include "zkey.h"

/* The size of section 10's circuit hash (snarkjs: a BLAKE2b-512 digest). */
#define ZKEY_CS_HASH_BYTES 64

/* snarkjs's domain for a circuit: the smallest power of two, at least 2,
 * that holds its constraints and the n_public + 1 binding rows. */
uint32_t zkey_log2_domain_size(const struct r1cs *cs);

/* A key for cs with its header fields and coefficients set and no points
 * (all point arrays NULL); free it with zkey_free(). origin (the .r1cs
 * file) names the circuit in messages. */
int zkey_new_from_r1cs(const struct r1cs *cs, const char *origin, struct zkey **ret);

/*
 * Copies the points of a key pair into zk: pk's a, b1, b2, l (as C) and h,
 * alpha1, beta1, delta1, beta2, delta2, and vk's ic and gamma2. pk must be
 * in GROTH16_H_SNARKJS with zk's sizes (-EINVAL otherwise).
 */
int zkey_set_keys(struct zkey *zk, const struct groth16_pk *pk, const struct groth16_vk *vk);

/*
 * Writes zk (every point array set) to path, atomically (common/atomic-file.h).
 * cs_hash: ZKEY_CS_HASH_BYTES for section 10, or NULL for zeros. snarkjs
 * hashes the powers of tau's points into it, so only `snarkjs zkey verify`
 * against that powers of tau checks it; a key made without one (cuzk setup)
 * has nothing to check it against and leaves it zero.
 */
int zkey_save(const char *path, const struct zkey *zk, const uint8_t *cs_hash);
