/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Sparse matrices over Fr in compressed sparse rows, the form the prover
 * evaluates constraint systems in: row i holds the terms
 * row_start[i] .. row_start[i + 1] - 1 (column, coefficient).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "fr.h"

struct sparse_matrix {
        uint32_t n_rows;
        uint32_t n_cols;
        uint64_t *row_start; /* n_rows + 1 */
        uint32_t *col;       /* row_start[n_rows] */
        fr_t *coeff;         /* row_start[n_rows], Montgomery form */
};

/*
 * Builds a CSR matrix from (row, column, coefficient) triplets in any order;
 * terms of one row keep their input order. Returns 0, -EINVAL when a row or
 * column is out of range, or -ENOMEM.
 */
int sparse_from_triplets(struct sparse_matrix *m, uint32_t n_rows, uint32_t n_cols,
                         const uint32_t *rows, const uint32_t *cols, const fr_t *coeffs,
                         size_t n_terms);
void sparse_free(struct sparse_matrix *m);
/* For _cleanup_(sparse_freep) on a struct sparse_matrix variable. */
static inline void sparse_freep(struct sparse_matrix *m) {
        sparse_free(m);
}

static inline uint64_t sparse_n_terms(const struct sparse_matrix *m) {
        return m->row_start[m->n_rows];
}

/* out[i] = sum of coeff * x[col] over row i, for i < n_rows (multi-threaded). */
void sparse_mul_vector(const struct sparse_matrix *m, const fr_t *x, fr_t *out);
