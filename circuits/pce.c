/* SPDX-License-Identifier: Apache-2.0 */
/* PCE construction from plain CSR matrices and back, and what every PCE has. */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/cleanup.h"
#include "pce-coeff-table.h"
#include "pce-internal.h"

void pce_minus_one(fr_t *r) {
        fr_set_one(r);
        fr_neg(r, r);
}

struct pce *pce_new(uint32_t n_rows, uint32_t n_cols, uint32_t n_public, uint32_t flags) {
        struct pce *pce = calloc(1, sizeof(*pce));

        if (!pce)
                return NULL;
        pce->n_rows = n_rows;
        pce->n_cols = n_cols;
        pce->n_public = n_public;
        pce->flags = flags;
        return pce;
}

struct pce *pce_free(struct pce *pce) {
        if (!pce)
                return NULL;
        if (pce->mapping)
                munmap(pce->mapping, pce->mapping_bytes);
        else
                for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                        free((void *)pce->m[k].row_start);
                        free((void *)pce->m[k].col);
                        free((void *)pce->m[k].coeff_id);
                        free((void *)pce->m[k].values);
                }
        free(pce->density[0]);
        free(pce->density[1]);
        free(pce);
        return NULL;
}

uint32_t pce_id_bytes_for(uint32_t n_values) {
        if (n_values <= (1u << 8))
                return 1;
        if (n_values <= (1u << 16))
                return 2;
        return 4;
}

int pce_matrix_alloc(struct pce *pce, enum pce_matrix_id id, uint64_t n_terms, uint32_t n_values,
                     uint64_t **ret_row_start, uint32_t **ret_col, void **ret_ids,
                     fr_t **ret_values) {
        struct pce_matrix *m;
        uint32_t id_bytes = pce_id_bytes_for(n_values);
        /* malloc(0) may return NULL: keep every array at least one element. */
        size_t terms = n_terms ? (size_t)n_terms : 1;

        assert(pce && !pce->mapping);
        assert(id < PCE_N_MATRICES);
        assert(n_values >= 2);

        m = &pce->m[id];
        assert(!m->row_start);
        *m = (struct pce_matrix){.n_terms = n_terms, .n_values = n_values, .id_bytes = id_bytes};
        *ret_row_start = malloc(((size_t)pce->n_rows + 1) * sizeof(uint64_t));
        m->row_start = *ret_row_start;
        *ret_col = malloc(terms * sizeof(uint32_t));
        m->col = *ret_col;
        *ret_ids = malloc(terms * id_bytes);
        m->coeff_id = *ret_ids;
        *ret_values = malloc((size_t)n_values * sizeof(fr_t));
        m->values = *ret_values;
        /* pce_free() releases whatever was allocated. */
        if (!m->row_start || !m->col || !m->coeff_id || !m->values)
                return -ENOMEM;
        return 0;
}

int pce_wire_density(const struct pce *pce, enum pce_matrix_id which, struct wire_density **ret) {
        _cleanup_(wire_density_freep) struct wire_density *d = NULL;
        int r;

        assert(pce);
        assert(ret);

        if (which != PCE_A && which != PCE_B)
                return -EINVAL;
        r = wire_density_new(&d, pce->n_cols);
        if (r < 0)
                return r;
        memcpy(d->bits, pce->density[which == PCE_A ? 0 : 1],
               pce_bitmap_words(pce->n_cols) * sizeof(uint64_t));
        wire_density_seal(d);
        *ret = TAKE_PTR(d);
        return 0;
}

int pce_compute_density(struct pce *pce) {
        assert(pce);

        for (size_t k = 0; k < 2; k++) {
                const struct pce_matrix *m = &pce->m[k == 0 ? PCE_A : PCE_B];
                size_t words = pce_bitmap_words(pce->n_cols);
                uint64_t *bits = calloc(words ? words : 1, sizeof(uint64_t));
                uint64_t count = 0;

                if (!bits)
                        return -ENOMEM;
                        /* Columns repeat a lot (every row touches a few): the load
                         * avoids most atomic writes. */
#pragma omp parallel for schedule(static) if (m->n_terms >= 65536)
                for (uint64_t t = 0; t < m->n_terms; t++) {
                        uint32_t c = m->col[t];
                        uint64_t bit = UINT64_C(1) << (c % 64);
                        if (!(__atomic_load_n(&bits[c / 64], __ATOMIC_RELAXED) & bit))
                                __atomic_fetch_or(&bits[c / 64], bit, __ATOMIC_RELAXED);
                }
#pragma omp parallel for reduction(+ : count) if (words >= 65536)
                for (size_t w = 0; w < words; w++)
                        count += (uint64_t)__builtin_popcountll(bits[w]);

                free(pce->density[k]);
                pce->density[k] = bits;
                pce->density_count[k] = count;
        }
        return 0;
}

/* Coefficient ids of every term of src, the two fixed ids first. */
static int intern_coefficients(const struct sparse_matrix *src, struct pce_coeff_table *t,
                               uint32_t *ids) {
        fr_t one, minus_one;
        uint32_t id;
        int r;

        fr_set_one(&one);
        pce_minus_one(&minus_one);
        if ((r = pce_coeff_table_intern(t, &one, &id)) < 0 ||
            (r = pce_coeff_table_intern(t, &minus_one, &id)) < 0)
                return r;
        assert(t->n_values == 2);

        for (uint64_t k = 0; k < sparse_n_terms(src); k++) {
                const fr_t *v = &src->coeff[k];
                /* Most coefficients are +-1: no hashing for them. */
                if (fr_equal(v, &one))
                        ids[k] = PCE_COEFF_ID_ONE;
                else if (fr_equal(v, &minus_one))
                        ids[k] = PCE_COEFF_ID_MINUS_ONE;
                else if ((r = pce_coeff_table_intern(t, v, &ids[k])) < 0)
                        return r;
        }
        return 0;
}

static int matrix_from_sparse(struct pce *pce, enum pce_matrix_id id,
                              const struct sparse_matrix *src, uint32_t n_input_rows) {
        _cleanup_free_ uint32_t *wide_ids = NULL;
        _cleanup_(pce_coeff_table_done) struct pce_coeff_table table = {0};
        uint64_t n_src = sparse_n_terms(src);
        /* Only A has terms in the input rows: a single w[s] each. */
        uint64_t n_input_terms = id == PCE_A ? n_input_rows : 0;
        uint64_t *row_start;
        uint32_t *col;
        fr_t *values;
        void *ids;
        int r;

        wide_ids = malloc((n_src ? n_src : 1) * sizeof(uint32_t));
        if (!wide_ids)
                return -ENOMEM;
        r = intern_coefficients(src, &table, wide_ids);
        if (r < 0)
                return r;

        r = pce_matrix_alloc(pce, id, n_src + n_input_terms, table.n_values, &row_start, &col, &ids,
                             &values);
        if (r < 0)
                return r;
        memcpy(values, table.values, (size_t)table.n_values * sizeof(fr_t));
        memcpy(row_start, src->row_start, ((size_t)src->n_rows + 1) * sizeof(uint64_t));
        memcpy(col, src->col, n_src * sizeof(uint32_t));
        for (uint64_t k = 0; k < n_src; k++)
                pce_set_coeff_id(ids, pce->m[id].id_bytes, k, wide_ids[k]);

        /* Input row s: the single A term w[s]; B and C rows stay empty. */
        for (uint32_t s = 0; s < n_input_rows; s++) {
                if (id == PCE_A) {
                        col[n_src + s] = s;
                        pce_set_coeff_id(ids, pce->m[id].id_bytes, n_src + s, PCE_COEFF_ID_ONE);
                }
                row_start[src->n_rows + s + 1] = n_src + (id == PCE_A ? s + 1 : 0);
        }
        return 0;
}

int pce_from_sparse(const struct sparse_matrix *a, const struct sparse_matrix *b,
                    const struct sparse_matrix *c, uint32_t n_public, uint32_t flags,
                    struct pce **ret) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        const struct sparse_matrix *src[PCE_N_MATRICES] = {a, b, c};
        uint32_t n_input_rows = 0;
        int r;

        assert(a && b && c);
        assert(ret);

        /* Matrices do not say which wires are bits: PCE_AUX_VALUES is cs_to_pce's. */
        if ((flags & ~PCE_INPUT_ROWS) || b->n_rows != a->n_rows || c->n_rows != a->n_rows ||
            b->n_cols != a->n_cols || c->n_cols != a->n_cols || (uint64_t)n_public + 1 > a->n_cols)
                return -EINVAL;
        if (flags & PCE_INPUT_ROWS) {
                n_input_rows = n_public + 1;
                if ((uint64_t)a->n_rows + n_input_rows > UINT32_MAX)
                        return -EINVAL;
        }

        pce = pce_new(a->n_rows + n_input_rows, a->n_cols, n_public, flags);
        if (!pce)
                return -ENOMEM;
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                r = matrix_from_sparse(pce, (enum pce_matrix_id)k, src[k], n_input_rows);
                if (r < 0)
                        return r == -E2BIG ? -EINVAL : r;
        }
        r = pce_compute_density(pce);
        if (r < 0)
                return r;

        *ret = TAKE_PTR(pce);
        return 0;
}

int pce_to_sparse(const struct pce *pce, struct sparse_matrix ret[PCE_N_MATRICES]) {
        struct sparse_matrix out[PCE_N_MATRICES] = {0};

        assert(pce);
        assert(ret);

        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                const struct pce_matrix *m = &pce->m[k];
                size_t terms = m->n_terms ? (size_t)m->n_terms : 1;

                out[k].n_rows = pce->n_rows;
                out[k].n_cols = pce->n_cols;
                out[k].row_start = malloc(((size_t)pce->n_rows + 1) * sizeof(uint64_t));
                out[k].col = malloc(terms * sizeof(uint32_t));
                out[k].coeff = malloc(terms * sizeof(fr_t));
                if (!out[k].row_start || !out[k].col || !out[k].coeff) {
                        for (size_t j = 0; j <= k; j++)
                                sparse_free(&out[j]);
                        return -ENOMEM;
                }
                memcpy(out[k].row_start, m->row_start,
                       ((size_t)pce->n_rows + 1) * sizeof(uint64_t));
                memcpy(out[k].col, m->col, (size_t)m->n_terms * sizeof(uint32_t));
#pragma omp parallel for schedule(static) if (m->n_terms >= 65536)
                for (uint64_t t = 0; t < m->n_terms; t++)
                        out[k].coeff[t] = m->values[pce_coeff_id(m, t)];
        }
        memcpy(ret, out, sizeof(out));
        return 0;
}

uint64_t pce_memory_bytes(const struct pce *pce) {
        uint64_t bytes = 2 * (uint64_t)pce_bitmap_words(pce->n_cols) * sizeof(uint64_t);

        assert(pce);
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                const struct pce_matrix *m = &pce->m[k];
                bytes += ((uint64_t)pce->n_rows + 1) * sizeof(uint64_t) +
                         m->n_terms * (sizeof(uint32_t) + m->id_bytes) +
                         (uint64_t)m->n_values * sizeof(fr_t);
        }
        return bytes;
}

unsigned pce_log_domain_size(const struct pce *pce) {
        unsigned k = 0;

        assert(pce);
        while (((uint64_t)1 << k) < pce->n_rows)
                k++;
        return k;
}

double pce_a_density(const struct pce *pce) {
        assert(pce);
        return pce->n_cols ? (double)pce->density_count[0] / pce->n_cols : 0;
}

double pce_b_aux_density(const struct pce *pce) {
        uint64_t n_aux, in_b;

        assert(pce);
        n_aux = pce->n_cols - pce->n_public - 1;
        if (n_aux == 0)
                return 0;
        /* density_count[1] counts the constant and the public columns too. */
        in_b = pce->density_count[1];
        for (uint64_t c = 0; c <= pce->n_public; c++)
                in_b -= pce_bit(pce->density[1], c);
        return (double)in_b / (double)n_aux;
}
