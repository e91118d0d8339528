/* SPDX-License-Identifier: Apache-2.0 */
#include "sparse.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "zk/big_alloc.h"

int sparse_from_triplets(struct sparse_matrix *m, uint32_t n_rows, uint32_t n_cols,
                         const uint32_t *rows, const uint32_t *cols, const fr_t *coeffs,
                         size_t n_terms) {
        _cleanup_free_ uint64_t *row_start = NULL, *fill = NULL;
        _cleanup_free_ uint32_t *col = NULL;
        _cleanup_free_ fr_t *coeff = NULL;

        assert(m);
        assert(n_terms == 0 || (rows && cols && coeffs));

        for (size_t i = 0; i < n_terms; i++)
                if (rows[i] >= n_rows || cols[i] >= n_cols)
                        return -EINVAL;

        row_start = calloc((size_t)n_rows + 1, sizeof(*row_start));
        fill = calloc((size_t)n_rows + 1, sizeof(*fill));
        col = big_alloc((n_terms ? n_terms : 1) * sizeof(*col));
        coeff = big_alloc((n_terms ? n_terms : 1) * sizeof(*coeff));
        if (!row_start || !fill || !col || !coeff)
                return -ENOMEM;

        /* Counting sort by row: stable, so each row keeps the input order. */
        for (size_t i = 0; i < n_terms; i++)
                row_start[rows[i] + 1]++;
        for (uint32_t i = 0; i < n_rows; i++)
                row_start[i + 1] += row_start[i];
        memcpy(fill, row_start, ((size_t)n_rows + 1) * sizeof(*fill));
        for (size_t i = 0; i < n_terms; i++) {
                uint64_t at = fill[rows[i]]++;
                col[at] = cols[i];
                coeff[at] = coeffs[i];
        }

        m->n_rows = n_rows;
        m->n_cols = n_cols;
        m->row_start = TAKE_PTR(row_start);
        m->col = TAKE_PTR(col);
        m->coeff = TAKE_PTR(coeff);
        return 0;
}

void sparse_free(struct sparse_matrix *m) {
        if (!m)
                return;
        free(m->row_start);
        free(m->col);
        free(m->coeff);
        memset(m, 0, sizeof(*m));
}

void sparse_mul_vector(const struct sparse_matrix *m, const fr_t *x, fr_t *out) {
        assert(m);
        assert(x);
        assert(out);

#pragma omp parallel for schedule(static, 4096)
        for (int64_t i = 0; i < (int64_t)m->n_rows; i++) {
                fr_t acc, t;
                fr_set_zero(&acc);
                for (uint64_t k = m->row_start[i]; k < m->row_start[i + 1]; k++) {
                        /* Coefficients +1 are common; skip the multiplication. */
                        if (fr_is_one(&m->coeff[k])) {
                                fr_add(&acc, &acc, &x[m->col[k]]);
                                continue;
                        }
                        fr_mul(&t, &m->coeff[k], &x[m->col[k]]);
                        fr_add(&acc, &acc, &t);
                }
                out[i] = acc;
        }
}
