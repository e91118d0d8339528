/* SPDX-License-Identifier: Apache-2.0 */
/* The constraint system's state, shared by cs.c (synthesis) and cs-pce.c (export). */
#pragma once

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

/* Distinct coefficients, ids 0 = +1 and 1 = -1 first (as the PCE wants). */
struct cs_coeff_table {
        fr_t *values;
        uint32_t n_values, capacity;
        uint32_t *slots; /* index + 1 into values, 0 = empty */
        uint64_t n_slots;
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
        struct cs_coeff_table coeffs;

        /* Both modes: which aux are bits (w.aux_is_bit points here). */
        uint64_t *aux_is_bit;
        uint64_t bitmap_words;

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
