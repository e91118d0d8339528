/* SPDX-License-Identifier: Apache-2.0 */
/* What the circuit tests assert about recorded shapes (include after cmocka.h). */
#pragma once

#include <stdint.h>

#include "circuits/pce.h"

/* Two recorded shapes are the same rows: same columns, same coefficients. */
static inline void assert_same_shape(const struct pce *x, const struct pce *y) {
        assert_int_equal(x->n_rows, y->n_rows);
        assert_int_equal(x->n_cols, y->n_cols);
        for (size_t m = 0; m < PCE_N_MATRICES; m++) {
                const struct pce_matrix *a = &x->m[m], *b = &y->m[m];
                assert_int_equal(a->n_terms, b->n_terms);
                assert_memory_equal(a->row_start, b->row_start, (x->n_rows + 1) * sizeof(uint64_t));
                assert_memory_equal(a->col, b->col, a->n_terms * sizeof(uint32_t));
                for (uint64_t k = 0; k < a->n_terms; k++)
                        assert_true(fr_equal(&a->values[pce_coeff_id(a, k)],
                                             &b->values[pce_coeff_id(b, k)]));
        }
}
