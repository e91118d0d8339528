/* SPDX-License-Identifier: Apache-2.0 */
/* What the builders of a PCE share (pce.c, pce-file.c, synthetic.c). */
#pragma once

#include "pce.h"

/* An empty heap PCE of this shape, matrices without arrays. NULL: no memory. */
struct pce *pce_new(uint32_t n_rows, uint32_t n_cols, uint32_t n_public, uint32_t flags);

/* The narrowest id width (1, 2 or 4 bytes) for a table of n_values. */
uint32_t pce_id_bytes_for(uint32_t n_values);

/*
 * Allocates matrix id's arrays on the heap for n_terms terms and a table of
 * n_values coefficients, and hands them out for filling: row_start
 * (n_rows + 1), col, ids (n_terms of pce_id_bytes_for(n_values) bytes) and
 * values. Returns 0 or -ENOMEM.
 */
int pce_matrix_alloc(struct pce *pce, enum pce_matrix_id id, uint64_t n_terms, uint32_t n_values,
                     uint64_t **ret_row_start, uint32_t **ret_col, void **ret_ids,
                     fr_t **ret_values);

/* Stores id k of a term in an id array of width id_bytes. */
static inline void pce_set_coeff_id(void *ids, uint32_t id_bytes, uint64_t k, uint32_t id) {
        switch (id_bytes) {
        case 1:
                ((uint8_t *)ids)[k] = (uint8_t)id;
                break;
        case 2:
                ((uint16_t *)ids)[k] = (uint16_t)id;
                break;
        default:
                ((uint32_t *)ids)[k] = id;
                break;
        }
}

/* Fills density[] and density_count[] from A's and B's columns, which
 * must be below n_cols. Returns 0 or -ENOMEM. */
int pce_compute_density(struct pce *pce);

/* The value -1 in Montgomery form. */
void pce_minus_one(fr_t *r);

/* Term k's coefficient id, id_bytes a constant where this is inlined (the
 * evaluators instantiate it once per width). */
static inline __attribute__((always_inline)) uint32_t pce_id_at(const void *ids, uint32_t id_bytes,
                                                                uint64_t k) {
        return id_bytes == 1   ? ((const uint8_t *)ids)[k]
               : id_bytes == 2 ? ((const uint16_t *)ids)[k]
                               : ((const uint32_t *)ids)[k];
}

/* acc += values[id] · x: +1 and -1 (ids 0 and 1) an add or a subtract,
 * every other id a multiplication. */
static inline __attribute__((always_inline)) void pce_term_add(fr_t *acc, const fr_t *values,
                                                               uint32_t id, const fr_t *x) {
        fr_t t;

        if (id == 0) { /* PCE_COEFF_ID_ONE */
                fr_add(acc, acc, x);
        } else if (id == 1) { /* PCE_COEFF_ID_MINUS_ONE */
                fr_sub(acc, acc, x);
        } else {
                fr_mul(&t, &values[id], x);
                fr_add(acc, acc, &t);
        }
}
