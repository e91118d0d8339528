/* SPDX-License-Identifier: Apache-2.0 */
#include "tests/lib/pce-compare.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

void expect_same_pce(const struct pce *x, const struct pce *y) {
        assert_int_equal(x->n_rows, y->n_rows);
        assert_int_equal(x->n_cols, y->n_cols);
        assert_int_equal(x->n_public, y->n_public);
        assert_int_equal(x->flags, y->flags);
        assert_int_equal(x->n_aux_values, y->n_aux_values);
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                const struct pce_matrix *a = &x->m[k], *b = &y->m[k];
                assert_int_equal(a->n_terms, b->n_terms);
                assert_int_equal(a->n_values, b->n_values);
                assert_int_equal(a->id_bytes, b->id_bytes);
                assert_memory_equal(a->row_start, b->row_start,
                                    ((size_t)x->n_rows + 1) * sizeof(uint64_t));
                assert_memory_equal(a->col, b->col, a->n_terms * sizeof(uint32_t));
                assert_memory_equal(a->coeff_id, b->coeff_id, a->n_terms * a->id_bytes);
                assert_memory_equal(a->values, b->values, a->n_values * sizeof(fr_t));
        }
        for (size_t k = 0; k < 2; k++) {
                assert_int_equal(x->density_count[k], y->density_count[k]);
                assert_memory_equal(x->density[k], y->density[k],
                                    pce_bitmap_words(x->n_cols) * sizeof(uint64_t));
        }
}
