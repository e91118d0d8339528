/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Poseidon as neptune 11.0.0 defines it over BLS12-381 Fr, with Filecoin's
 * settings (../shared/POREP.md Part B §1): width t = arity + 1, S-box x^5,
 * R_F = 8 full rounds, R_P partial rounds from neptune's security formula,
 * Grain LFSR round constants, the Cauchy MDS matrix M[i][j] = 1/(i + j + t),
 * Strength::Standard and the MerkleTree domain tag 2^arity - 1 in state[0].
 * The hash is state[1] after the permutation.
 *
 * Conventions every array below follows:
 *  - Mixing is a row vector times a matrix: s'[j] = sum_i s[i] * A[i][j],
 *    matrices are t x t row-major (A[i][j] = a[i * t + j]).
 *  - Elements are fr_t (Montgomery form); the byte interface uses the
 *    32-byte little-endian canonical repr (Filecoin's PoseidonDomain).
 *
 * The optimised schedule (what poseidon_hash runs and what neptune's
 * circuit mirrors; the LC coefficients come from these arrays):
 *
 *   k = 0                                  (index into compressed[])
 *   s[i] += compressed[k + i], k += t      (the first round's constants)
 *   full rounds r = 0 .. R_F/2 - 1:
 *       s[i] = s[i]^5 + compressed[k + i] for all i, k += t
 *       mix with pre_sparse when r == R_F/2 - 1, else with mds
 *   partial rounds p = 0 .. R_P - 1:
 *       s[0] = s[0]^5 + compressed[k], k += 1
 *       sparse mix with sparse[p]:
 *           s'[0] = sum_{i<t} w_hat[i] * s[i]
 *           s'[j] = s[j] + v[j-1] * s[0]            (j >= 1, old s[0])
 *   full rounds r = 0 .. R_F/2 - 2:
 *       s[i] = s[i]^5 + compressed[k + i] for all i, k += t; mix with mds
 *   last full round: s[i] = s[i]^5 (no constant); mix with mds
 *
 * At the end k == t * R_F + R_P == n_compressed.
 *
 * The reference ("Correct") permutation, poseidon_hash_reference, uses
 * round_constants[] directly, t per round in order: R_F/2 full rounds
 * (add all, S-box all, mix mds), R_P partial rounds (add all, S-box s[0],
 * mix mds), R_F/2 full rounds.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "zk/fr.h"

/* Arities Filecoin declares (filecoin-hashers poseidon_types.rs). */
#define POSEIDON_MAX_ARITY 36u
#define POSEIDON_MAX_WIDTH (POSEIDON_MAX_ARITY + 1u)
#define POSEIDON_FULL_ROUNDS 8u

/* One sparse matrix of the partial rounds (neptune's SparseMatrix). */
struct poseidon_sparse {
        fr_t *w_hat; /* t entries: column 0 of the matrix */
        fr_t *v;     /* t - 1 entries: row 0 without its first entry */
};

struct poseidon_constants {
        unsigned arity, width;   /* width = t = arity + 1 */
        unsigned full_rounds;    /* R_F = 8 */
        unsigned partial_rounds; /* R_P */
        fr_t domain_tag;         /* MerkleTree: 2^arity - 1 */
        fr_t *round_constants;   /* (R_F + R_P) * t, the Grain output */
        size_t n_round_constants;
        fr_t *compressed; /* t * R_F + R_P, the optimised schedule's */
        size_t n_compressed;
        fr_t *mds, *mds_inv;            /* t * t each */
        fr_t *pre_sparse;               /* t * t: mixes the last first-half full round */
        struct poseidon_sparse *sparse; /* R_P, in the order the partial rounds use them */
};

/* The constants for one arity (2, 4, 8, 11, 16, 24 or 36), built on first
 * use and kept for the life of the process; thread-safe. NULL for any other
 * arity, or when memory ran out. */
const struct poseidon_constants *poseidon_constants(unsigned arity);

/* R_P for width t (neptune round_numbers.rs with the security margin);
 * R_F is always 8 for the widths Filecoin uses. */
unsigned poseidon_partial_rounds(unsigned width);

/* out = Poseidon(tag, in[0], ..., in[arity - 1]) in the optimised form. */
void poseidon_hash(const struct poseidon_constants *c, const fr_t *in, fr_t *out);
/* The same hash through the plain ("Correct") permutation: the oracle for
 * the optimised form. */
void poseidon_hash_reference(const struct poseidon_constants *c, const fr_t *in, fr_t *out);

/* Hash of arity 32-byte little-endian Fr reprs. Returns 0, -EOPNOTSUPP for
 * an arity without constants, or -EINVAL when an input is not below r. */
int poseidon_hash_bytes(unsigned arity, const uint8_t (*in)[32], uint8_t out[32]);
