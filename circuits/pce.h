/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Precompiled constraints (PCE): a constraint system's matrices A, B and C
 * in the form the synthesis workers evaluate them, a = A w, b = B w,
 * c = C w, for one witness w after another.
 *
 * Each matrix is CSR with 32-bit columns and COMPACT coefficients: a term is
 * a column plus an id into the matrix's table of distinct coefficients. Ids
 * are 1, 2 or 4 bytes wide, the narrowest that holds the table (PoRep-shaped
 * circuits need a handful of values: 1 byte). Id 0 is always +1 and id 1
 * always -1, which the evaluation adds or subtracts without a
 * multiplication; every other id costs one.
 *
 * Rows and the witness follow circom/bellperson: w[0] is the constant 1,
 * w[1 .. n_public] the public inputs, then the private (aux) wires. A PCE
 * with PCE_INPUT_ROWS ends with n_public + 1 "input rows", row
 * n_rows - n_public - 1 + s having the single A term w[s] (B and C empty),
 * the rows snarkjs's setup adds at nConstraints + s and bellperson's
 * prover appends as input constraints: a PCE built from a .r1cs with it
 * evaluates to exactly the a, b, c of the .zkey path.
 *
 * A PCE either owns its arrays or reads them from a mapped file
 * (pce-file.h); either way they are read-only once built.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zk/density.h"
#include "zk/fr.h"
#include "zk/sparse.h"

enum pce_matrix_id {
        PCE_A,
        PCE_B,
        PCE_C,
        PCE_N_MATRICES,
};

/* The two ids every coefficient table starts with. */
#define PCE_COEFF_ID_ONE 0u
#define PCE_COEFF_ID_MINUS_ONE 1u

/* The PCE ends with the n_public + 1 input rows (see above). */
#define PCE_INPUT_ROWS (1u << 0)
/* n_aux_values is known: the shape was recorded by a constraint system (circuits/cs) that
 * knows which aux are allocated as bits. */
#define PCE_AUX_VALUES (1u << 1)
#define PCE_KNOWN_FLAGS (PCE_INPUT_ROWS | PCE_AUX_VALUES)

struct pce_matrix {
        uint64_t n_terms;
        uint32_t n_values;         /* distinct coefficients, >= 2 */
        uint32_t id_bytes;         /* 1, 2 or 4 */
        const uint64_t *row_start; /* n_rows + 1, row_start[n_rows] = n_terms */
        const uint32_t *col;       /* n_terms */
        const void *coeff_id;      /* n_terms ids of id_bytes each, < n_values */
        const fr_t *values;        /* n_values, Montgomery; values[0] = 1, values[1] = -1 */
};

struct pce {
        uint32_t n_rows; /* input rows included */
        uint32_t n_cols; /* the witness length, constant wire included */
        uint32_t n_public;
        uint32_t flags; /* PCE_* */
        /* PCE_AUX_VALUES: the aux the circuit allocates as values, not bits. A witness of
         * this circuit made by its gadgets has exactly this many values in compact form
         * (circuits/pce-compact.h), whatever the input: what a worker's compact witness is
         * sized by ahead of time. */
        uint64_t n_aux_values;
        struct pce_matrix m[PCE_N_MATRICES];
        /* Columns that appear in A (density[0]) and in B (density[1]):
         * (n_cols + 63) / 64 words, bit c of word c / 64. The MSMs over A's
         * and B's bases skip the columns that never appear. */
        uint64_t *density[2];
        uint64_t density_count[2];

        /* Where the arrays live: a file mapping (pce-file.c) or the heap. */
        void *mapping;
        size_t mapping_bytes;
};

static inline uint32_t pce_coeff_id(const struct pce_matrix *m, uint64_t k) {
        switch (m->id_bytes) {
        case 1:
                return ((const uint8_t *)m->coeff_id)[k];
        case 2:
                return ((const uint16_t *)m->coeff_id)[k];
        default:
                return ((const uint32_t *)m->coeff_id)[k];
        }
}

static inline bool pce_bit(const uint64_t *bitmap, uint64_t i) {
        return (bitmap[i / 64] >> (i % 64)) & 1;
}

/* Words of a bitmap of n bits. */
static inline size_t pce_bitmap_words(uint64_t n) {
        return (size_t)((n + 63) / 64);
}

/* The rows of the constraint system proper, before the input rows. */
static inline uint32_t pce_n_constraints(const struct pce *pce) {
        return pce->flags & PCE_INPUT_ROWS ? pce->n_rows - pce->n_public - 1 : pce->n_rows;
}

/*
 * Builds a PCE from A, B and C with the same number of rows and columns
 * (for a .r1cs: r1cs->matrices, n_public = r1cs_n_public()). With
 * PCE_INPUT_ROWS in flags the input rows are appended after the given rows.
 * Returns 0, -EINVAL (another flag, shapes that do not match, n_public + 1 >
 * columns, or more than 2^32 - 1 rows) or -ENOMEM.
 */
int pce_from_sparse(const struct sparse_matrix *a, const struct sparse_matrix *b,
                    const struct sparse_matrix *c, uint32_t n_public, uint32_t flags,
                    struct pce **ret);

/* The matrices as plain CSR with fr_t coefficients (for the setup), the
 * input rows included. Returns 0 or -ENOMEM; free each with sparse_free(). */
int pce_to_sparse(const struct pce *pce, struct sparse_matrix ret[PCE_N_MATRICES]);

/* The columns of A (PCE_A) or B (PCE_B) as a wire density for a proving key
 * whose arrays hold only those wires' points (bellperson's parameters).
 * Returns 0, -EINVAL for another matrix, or -ENOMEM. */
int pce_wire_density(const struct pce *pce, enum pce_matrix_id which, struct wire_density **ret);

struct pce *pce_free(struct pce *pce);
static inline void pce_freep(struct pce **pce) {
        pce_free(*pce);
}

/* Bytes of the arrays (tables, bitmaps, CSR) as held in memory. */
uint64_t pce_memory_bytes(const struct pce *pce);
/* The smallest k with 2^k >= n_rows: the evaluation domain snarkjs and
 * bellperson use for this circuit. */
unsigned pce_log_domain_size(const struct pce *pce);

/*
 * a = A w, b = B w, c = C w on a domain of 2^log_domain_size points, zero
 * beyond n_rows, Montgomery form; multi-threaded (zk_thread_count()).
 * w holds n_vars >= n_cols values. Returns 0 or -EINVAL when the domain is
 * smaller than n_rows or w shorter than n_cols.
 */
int pce_evaluate(const struct pce *pce, const fr_t *w, size_t n_vars, unsigned log_domain_size,
                 fr_t *a, fr_t *b, fr_t *c);

/* Share of columns in A, and of private (aux) columns in B, from 0 to 1. */
double pce_a_density(const struct pce *pce);
double pce_b_aux_density(const struct pce *pce);

/*
 * The 0/1 split of a witness that the MSMs use: bit i of is_zero (is_one)
 * says w[i] is 0 (1). Bitmaps of pce_bitmap_words(n) words.
 */
struct pce_witness_split {
        uint64_t n;
        uint64_t *is_zero;
        uint64_t *is_one;
        uint64_t n_zero, n_one;
};

/* Returns 0 or -ENOMEM; multi-threaded. */
int pce_witness_split(const fr_t *w, uint64_t n, struct pce_witness_split *ret);
void pce_witness_split_free(struct pce_witness_split *s);
