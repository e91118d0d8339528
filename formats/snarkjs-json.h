/* SPDX-License-Identifier: Apache-2.0 */
/*
 * snarkjs's Groth16 JSON files on BLS12-381, read and written byte for byte
 * as snarkjs writes them (decimal strings, one-space indent, no final
 * newline):
 *   proof.json   {"pi_a": G1, "pi_b": G2, "pi_c": G1,
 *                 "protocol": "groth16", "curve": "bls12381"}
 *   public.json  ["<decimal>", ...]: the public signals, wires 1..nPublic
 *   vk.json      {"protocol", "curve", "nPublic", "vk_alpha_1", "vk_beta_2",
 *                 "vk_gamma_2", "vk_delta_2", "vk_alphabeta_12", "IC"}
 * Points must be on the curve and in the subgroup. The *_from_json functions
 * take an origin (a file name, a job id) to name in messages. All return 0
 * or a negative errno (logged): -EBADMSG for malformed data, -EOPNOTSUPP
 * for another protocol or curve.
 */
#pragma once

#include <jansson.h>
#include <stddef.h>

#include "zk/fr.h"
#include "zk/groth16.h"

struct zkey;

int snarkjs_proof_from_json(const json_t *root, const char *origin, struct groth16_proof *ret);
/* A new reference, NULL when out of memory. */
json_t *snarkjs_proof_to_json(const struct groth16_proof *proof);
int snarkjs_proof_load(const char *path, struct groth16_proof *ret);
int snarkjs_proof_save(const char *path, const struct groth16_proof *proof);

/* *ret is a new (malloc) array of *ret_n signals. */
int snarkjs_public_from_json(const json_t *root, const char *origin, fr_t **ret, size_t *ret_n);
json_t *snarkjs_public_to_json(const fr_t *signals, size_t n);
int snarkjs_public_load(const char *path, fr_t **ret, size_t *ret_n);
int snarkjs_public_save(const char *path, const fr_t *signals, size_t n);

/*
 * Verification keys: *ret and its ic array are allocated here; free them
 * with snarkjs_vk_free(). vk_alphabeta_12, when the file has it, must equal
 * e(vk_alpha_1, vk_beta_2); it is kept (has_alphabeta) and written back.
 */
int snarkjs_vk_from_json(const json_t *root, const char *origin, struct groth16_vk **ret);
json_t *snarkjs_vk_to_json(const struct groth16_vk *vk);
int snarkjs_vk_load(const char *path, struct groth16_vk **ret);
int snarkjs_vk_save(const char *path, const struct groth16_vk *vk);
/* The verification key in a proving key, with alphabeta computed: what
 * `snarkjs zkey export verificationkey` writes. */
int snarkjs_vk_from_zkey(const struct zkey *zk, struct groth16_vk **ret);
struct groth16_vk *snarkjs_vk_free(struct groth16_vk *vk);
static inline void snarkjs_vk_freep(struct groth16_vk **vk) {
        snarkjs_vk_free(*vk);
}
