/* SPDX-License-Identifier: Apache-2.0 */
/*
 * circom constraint systems (.r1cs, version 1):
 *   section 1 (header): n8 u32, prime (n8 bytes LE), n_wires u32,
 *     n_pub_out u32, n_pub_in u32, n_prv_in u32, n_labels u64,
 *     n_constraints u32
 *   section 2 (constraints): per constraint the linear combinations A, B
 *     and C, each n_terms u32 then n_terms times (wire u32, coefficient as
 *     n8 canonical little-endian bytes)
 *   section 3 (wire -> label map, a u64 per wire) is only checked for
 *     its size; files with custom gates (sections 4, 5: PLONK only) are
 *     refused.
 * Constraint i says <A_i, w> * <B_i, w> = <C_i, w> for the witness w, whose
 * wire 0 is the constant 1, then n_pub_out outputs, n_pub_in public inputs,
 * n_prv_in private inputs and the internal wires.
 */
#pragma once

#include <stdint.h>

#include "zk/fr.h"
#include "zk/sparse.h"

enum r1cs_matrix_id {
        R1CS_A,
        R1CS_B,
        R1CS_C,
        R1CS_N_MATRICES,
};

struct r1cs {
        uint32_t n_wires;
        uint32_t n_pub_out;
        uint32_t n_pub_in;
        uint32_t n_prv_in;
        uint64_t n_labels;
        uint32_t n_constraints;
        /* A, B, C: n_constraints rows, n_wires columns, terms in file order. */
        struct sparse_matrix matrices[R1CS_N_MATRICES];
};

/* Returns 0 or a negative errno (logged, naming the file). */
int r1cs_load(const char *path, struct r1cs **ret);
struct r1cs *r1cs_free(struct r1cs *cs);
static inline void r1cs_freep(struct r1cs **cs) {
        r1cs_free(*cs);
}

/* Public signals, not counting the constant wire: outputs then public inputs. */
static inline uint32_t r1cs_n_public(const struct r1cs *cs) {
        return cs->n_pub_out + cs->n_pub_in;
}
