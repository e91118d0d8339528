/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The constraints of a snarkjs .zkey without its points: what a synthesis
 * worker needs to evaluate a = A w, b = B w (and c = a o b). Only sections
 * 1 (protocol), 2 (Groth16 header) and 4 (coefficients) of the mapping are
 * read; the point sections (IC, A, B1, B2, C, H: nearly all of a large key)
 * are neither read nor checked, so a key whose points are damaged loads
 * here and is refused by zkey_load() (the prover's). The matrices are built
 * straight from the mapped section into compressed rows, with no copy of
 * the coefficients in between; they are those zkey_to_groth16_matrices()
 * builds from zkey_load(), term for term.
 */
#pragma once

#include <stdint.h>

#include "zk/sparse.h"

struct zkey_constraints {
        uint32_t n_vars;      /* witness length, including the constant wire 0 */
        uint32_t n_public;    /* public signals, not counting wire 0 */
        uint32_t domain_size; /* a power of two */
        uint32_t log2_domain_size;
        /* domain_size rows, n_vars columns; snarkjs takes C = A o B. */
        struct sparse_matrix a, b;
};

/*
 * Returns 0 or a negative errno, logged with zkey_load()'s message for the
 * same fault (naming the file, the value and what was expected).
 */
int zkey_constraints_load(const char *path, struct zkey_constraints *ret);
/* Frees both matrices and zeroes *cs; usable with _cleanup_(). */
void zkey_constraints_free(struct zkey_constraints *cs);

/*
 * The bytes zkey_constraints_load() keeps for a key with n_coefs entries in
 * its coefficient section (section 4 starts with the count) and this domain
 * size: per term a column (u32) and a coefficient (fr_t), per matrix
 * domain_size + 1 row starts (u64). Its peak is this figure plus the
 * coefficient section's pages of the mapping (clean page cache, 44 bytes a
 * term); what a supervisor can reserve for a worker from the headers alone.
 */
uint64_t zkey_constraints_bytes(uint64_t n_coefs, uint32_t domain_size);
