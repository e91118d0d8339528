/* SPDX-License-Identifier: Apache-2.0 */
/* The constraint system's state, shared by cs.c (synthesis) and cs-pce.c (export). */
#pragma once

#include "circuits/pce-coeff-table.h"
#include "cs.h"

/* One recorded term: the variable and an id into the coefficient table. */
struct cs_rec_term {
        cs_var var;
        uint32_t coeff_id;
};

/* One matrix as recorded: CSR over tagged variables. */
struct cs_rec_matrix {
        uint64_t *row_start; /* n_rows + 1 */
        uint64_t row_capacity;
        struct cs_rec_term *terms;
        uint64_t n_terms, term_capacity;
};

struct cs {
        enum cs_mode mode;
        int error;
        uint64_t n_rows;
        uint32_t n_inputs;
        uint64_t n_aux;
        fr_t one, minus_one, pow2[256];

        struct cs_row scratch;
        struct cs_lc sort_buffer;

        /* CS_SHAPE */
        struct cs_rec_matrix m[PCE_N_MATRICES];
        struct pce_coeff_table coeffs; /* ids 0 = +1 and 1 = -1 first, as the PCE wants */

        /* Both modes: which aux are bits (w.aux_is_bit points here). */
        uint64_t *aux_is_bit;
        uint64_t bitmap_words;

        /* CS_VERIFY: every aux value, and the first row that does not hold */
        fr_t *aux_values;
        uint64_t aux_value_capacity;
        uint64_t first_unsatisfied;

        /* CS_WITNESS */
        struct cs_witness w;
        uint64_t input_capacity, num_capacity;
};

/* Records r as the sticky error unless one is already there; returns r. */
static inline int cs_fail(struct cs *cs, int r) {
        if (!cs->error)
                cs->error = r;
        return r;
}

/* Grows *p (elements of elem bytes, *capacity of them) to hold need. */
int cs_grow(void **p, uint64_t *capacity, uint64_t need, size_t elem);

/* Makes the aux bitmaps hold aux index j, new words zeroed. Returns 0 or -ENOMEM. */
int cs_bitmaps_reserve(struct cs *cs, uint64_t j);

/* CS_VERIFY: stores aux j's value. */
void cs_verify_set_aux(struct cs *cs, uint64_t j, const fr_t *value);
/* CS_VERIFY: evaluates the row a·b = c on the values so far. */
void cs_verify_row(struct cs *cs, const struct cs_lc *a, const struct cs_lc *b,
                   const struct cs_lc *c);
