/* SPDX-License-Identifier: Apache-2.0 */
/* The per-witness work on a PCE: a, b, c by sparse matrix-vector products,
 * and the 0/1 split of the witness. */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "pce-internal.h"
#include "pce.h"

/* Rows per scheduling chunk: rows are a few terms, so chunks must be large
 * for the loop overhead to vanish, and small enough to balance. */
#define SPMV_CHUNK_ROWS 4096

/*
 * Row i of m times w. Inlined once per id width, so that the id load is a
 * plain load of a known size; +1 and -1 (ids 0 and 1) are an add or a
 * subtract, every other id a multiplication by its table value.
 */
static inline __attribute__((always_inline)) void row_product(const struct pce_matrix *m,
                                                              const uint32_t id_bytes, uint64_t i,
                                                              const fr_t *w, fr_t *ret) {
        fr_t acc;

        fr_set_zero(&acc);
        for (uint64_t k = m->row_start[i]; k < m->row_start[i + 1]; k++)
                pce_term_add(&acc, m->values, pce_id_at(m->coeff_id, id_bytes, k), &w[m->col[k]]);
        *ret = acc;
}

/* All three matrices in one pass over the rows: a row's A, B and C terms
 * mostly read the same few wires, so the second and third reads hit the
 * cache (the witness is far larger than the cache in real circuits). */
static inline __attribute__((always_inline)) void
spmv_fused(const struct pce *pce, const uint32_t id_bytes, const fr_t *w, fr_t *const out[3]) {
#pragma omp parallel for schedule(static, SPMV_CHUNK_ROWS)
        for (int64_t i = 0; i < (int64_t)pce->n_rows; i++)
                for (size_t k = 0; k < PCE_N_MATRICES; k++)
                        row_product(&pce->m[k], id_bytes, (uint64_t)i, w, &out[k][i]);
}

static inline __attribute__((always_inline)) void spmv_one(const struct pce_matrix *m,
                                                           uint32_t n_rows, const uint32_t id_bytes,
                                                           const fr_t *w, fr_t *out) {
#pragma omp parallel for schedule(static, SPMV_CHUNK_ROWS)
        for (int64_t i = 0; i < (int64_t)n_rows; i++)
                row_product(m, id_bytes, (uint64_t)i, w, &out[i]);
}

static void spmv_separate(const struct pce *pce, const fr_t *w, fr_t *const out[3]) {
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                const struct pce_matrix *m = &pce->m[k];
                if (m->id_bytes == 1)
                        spmv_one(m, pce->n_rows, 1, w, out[k]);
                else if (m->id_bytes == 2)
                        spmv_one(m, pce->n_rows, 2, w, out[k]);
                else
                        spmv_one(m, pce->n_rows, 4, w, out[k]);
        }
}

int pce_evaluate(const struct pce *pce, const fr_t *w, size_t n_vars, unsigned log_domain_size,
                 fr_t *a, fr_t *b, fr_t *c) {
        fr_t *const out[PCE_N_MATRICES] = {a, b, c};
        uint32_t id_bytes;
        size_t domain_size;

        assert(pce);
        assert(w && a && b && c);

        if (log_domain_size >= 64 || ((uint64_t)1 << log_domain_size) < pce->n_rows ||
            n_vars < pce->n_cols)
                return -EINVAL;
        domain_size = (size_t)1 << log_domain_size;

        /* One width for all three matrices is the rule (PoRep: 1 byte); a
         * mix is evaluated matrix by matrix. */
        id_bytes = pce->m[PCE_A].id_bytes;
        if (pce->m[PCE_B].id_bytes != id_bytes || pce->m[PCE_C].id_bytes != id_bytes)
                spmv_separate(pce, w, out);
        else if (id_bytes == 1)
                spmv_fused(pce, 1, w, out);
        else if (id_bytes == 2)
                spmv_fused(pce, 2, w, out);
        else
                spmv_fused(pce, 4, w, out);

        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                memset(out[k] + pce->n_rows, 0, (domain_size - pce->n_rows) * sizeof(fr_t));
        return 0;
}

int pce_witness_split(const fr_t *w, uint64_t n, struct pce_witness_split *ret) {
        size_t words = pce_bitmap_words(n);
        uint64_t *is_zero, *is_one, n_zero = 0, n_one = 0;

        assert(w || n == 0);
        assert(ret);

        is_zero = malloc((words ? words : 1) * sizeof(uint64_t));
        is_one = malloc((words ? words : 1) * sizeof(uint64_t));
        if (!is_zero || !is_one) {
                free(is_zero);
                free(is_one);
                return -ENOMEM;
        }

        /* One word (64 values) per iteration: no two threads write a word. */
#pragma omp parallel for schedule(static) reduction(+ : n_zero, n_one) if (words >= 1024)
        for (size_t k = 0; k < words; k++) {
                uint64_t zero = 0, one = 0, end = (k + 1) * 64 < n ? (k + 1) * 64 : n;
                for (uint64_t i = k * 64; i < end; i++) {
                        zero |= (uint64_t)fr_is_zero(&w[i]) << (i % 64);
                        one |= (uint64_t)fr_is_one(&w[i]) << (i % 64);
                }
                is_zero[k] = zero;
                is_one[k] = one;
                n_zero += (uint64_t)__builtin_popcountll(zero);
                n_one += (uint64_t)__builtin_popcountll(one);
        }

        *ret = (struct pce_witness_split){
                .n = n, .is_zero = is_zero, .is_one = is_one, .n_zero = n_zero, .n_one = n_one};
        return 0;
}

void pce_witness_split_free(struct pce_witness_split *s) {
        if (!s)
                return;
        free(s->is_zero);
        free(s->is_one);
        *s = (struct pce_witness_split){0};
}
