/* SPDX-License-Identifier: Apache-2.0 */
/* Dense Fr matrices for Poseidon's preprocessing: sizes up to 37, run once. */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "filecoin/poseidon/poseidon-internal.h"

void fr_matrix_cauchy(fr_t *m, unsigned n) {
        assert(m);

        for (unsigned i = 0; i < n; i++)
                for (unsigned j = 0; j < n; j++) {
                        fr_t x;
                        fr_from_u64(&x, (uint64_t)i + j + n);
                        fr_inv(&m[i * n + j], &x);
                }
}

void fr_matrix_mul(fr_t *out, const fr_t *a, const fr_t *b, unsigned n) {
        assert(out && a && b);
        assert(out != a && out != b);

        for (unsigned i = 0; i < n; i++)
                fr_vector_times_matrix(&out[i * n], &a[i * n], b, n);
}

void fr_vector_times_matrix(fr_t *out, const fr_t *v, const fr_t *a, unsigned n) {
        assert(out && v && a);
        assert(out != v);

        for (unsigned j = 0; j < n; j++) {
                fr_t sum, term;
                fr_set_zero(&sum);
                for (unsigned i = 0; i < n; i++) {
                        fr_mul(&term, &v[i], &a[i * n + j]);
                        fr_add(&sum, &sum, &term);
                }
                out[j] = sum;
        }
}

static void swap_rows(fr_t *m, unsigned n, unsigned r1, unsigned r2) {
        for (unsigned j = 0; j < n; j++) {
                fr_t x = m[r1 * n + j];
                m[r1 * n + j] = m[r2 * n + j];
                m[r2 * n + j] = x;
        }
}

/* row[dst] -= factor * row[src], on both halves of the Gauss-Jordan pair. */
static void eliminate_row(fr_t *work, fr_t *out, unsigned n, unsigned dst, unsigned src,
                          const fr_t *factor) {
        for (unsigned j = 0; j < n; j++) {
                fr_t t;
                fr_mul(&t, factor, &work[src * n + j]);
                fr_sub(&work[dst * n + j], &work[dst * n + j], &t);
                fr_mul(&t, factor, &out[src * n + j]);
                fr_sub(&out[dst * n + j], &out[dst * n + j], &t);
        }
}

int fr_matrix_invert(fr_t *out, const fr_t *a, unsigned n) {
        _cleanup_free_ fr_t *work = NULL;

        assert(out && a);
        assert(out != a);

        work = malloc(sizeof(fr_t) * n * n);
        if (!work)
                return -ENOMEM;
        memcpy(work, a, sizeof(fr_t) * n * n);
        for (unsigned i = 0; i < n; i++)
                for (unsigned j = 0; j < n; j++)
                        (i == j ? fr_set_one : fr_set_zero)(&out[i * n + j]);

        for (unsigned col = 0; col < n; col++) {
                unsigned pivot = col;
                fr_t inv;

                while (pivot < n && fr_is_zero(&work[pivot * n + col]))
                        pivot++;
                if (pivot == n)
                        return -EDOM;
                swap_rows(work, n, col, pivot);
                swap_rows(out, n, col, pivot);

                fr_inv(&inv, &work[col * n + col]);
                for (unsigned j = 0; j < n; j++) {
                        fr_mul(&work[col * n + j], &work[col * n + j], &inv);
                        fr_mul(&out[col * n + j], &out[col * n + j], &inv);
                }
                for (unsigned r = 0; r < n; r++) {
                        fr_t factor = work[r * n + col];
                        if (r != col && !fr_is_zero(&factor))
                                eliminate_row(work, out, n, r, col, &factor);
                }
        }
        return 0;
}
