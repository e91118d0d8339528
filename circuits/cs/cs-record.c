/* SPDX-License-Identifier: Apache-2.0 */
/* Recording rows: bellpepper's merge order, coefficient ids, the CSR arrays. */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cs-internal.h"

/* bellpepper iterates inputs (by index) before aux (by index). */
static inline uint32_t term_key(cs_var v) {
        return v ^ CS_VAR_INPUT;
}

static int term_compare(const void *x, const void *y) {
        uint32_t a = term_key(((const struct cs_term *)x)->var);
        uint32_t b = term_key(((const struct cs_term *)y)->var);

        return (a > b) - (a < b);
}

static void terms_sort(struct cs_term *t, uint32_t n) {
        /* Most rows have a handful of terms: insertion sort is faster there. */
        if (n > 32) {
                qsort(t, n, sizeof(*t), term_compare);
                return;
        }
        for (uint32_t i = 1; i < n; i++) {
                struct cs_term x = t[i];
                uint32_t j = i;
                while (j > 0 && term_key(t[j - 1].var) > term_key(x.var)) {
                        t[j] = t[j - 1];
                        j--;
                }
                t[j] = x;
        }
}

static int coeff_id(struct cs *cs, const fr_t *v, uint32_t *ret_id) {
        int r;

        if (cs->coeffs.n_values == 0) {
                uint32_t id;
                /* The PCE's fixed ids: 0 = +1, 1 = -1. */
                if ((r = pce_coeff_table_intern(&cs->coeffs, &cs->one, &id)) < 0 ||
                    (r = pce_coeff_table_intern(&cs->coeffs, &cs->minus_one, &id)) < 0)
                        return r;
        }
        if (fr_equal(v, &cs->one)) {
                *ret_id = PCE_COEFF_ID_ONE;
                return 0;
        }
        if (fr_equal(v, &cs->minus_one)) {
                *ret_id = PCE_COEFF_ID_MINUS_ONE;
                return 0;
        }
        return pce_coeff_table_intern(&cs->coeffs, v, ret_id);
}

/* Appends one combination as the next row of m: sorted, merged, interned. */
static int record_lc(struct cs *cs, struct cs_rec_matrix *m, const struct cs_lc *lc) {
        struct cs_lc *buf = &cs->sort_buffer;
        uint64_t capacity;
        uint32_t n = 0;
        int r;

        if (lc && lc->n) {
                capacity = buf->capacity;
                r = cs_grow((void **)&buf->terms, &capacity, lc->n, sizeof(struct cs_term));
                if (r < 0)
                        return r;
                buf->capacity = (uint32_t)(capacity > UINT32_MAX ? UINT32_MAX : capacity);
                memcpy(buf->terms, lc->terms, (size_t)lc->n * sizeof(struct cs_term));
                terms_sort(buf->terms, lc->n);
                /* Equal variables add up; a zero sum stays a term, as in bellpepper. */
                for (uint32_t k = 0; k < lc->n; k++) {
                        if (n > 0 && buf->terms[n - 1].var == buf->terms[k].var)
                                fr_add(&buf->terms[n - 1].coeff, &buf->terms[n - 1].coeff,
                                       &buf->terms[k].coeff);
                        else
                                buf->terms[n++] = buf->terms[k];
                }
        }

        r = cs_grow((void **)&m->terms, &m->term_capacity, m->n_terms + n,
                    sizeof(struct cs_rec_term));
        if (r < 0)
                return r;
        for (uint32_t k = 0; k < n; k++) {
                struct cs_rec_term *t = &m->terms[m->n_terms + k];
                t->var = buf->terms[k].var;
                r = coeff_id(cs, &buf->terms[k].coeff, &t->coeff_id);
                if (r < 0)
                        return r;
        }
        m->n_terms += n;

        r = cs_grow((void **)&m->row_start, &m->row_capacity, cs->n_rows + 2, sizeof(uint64_t));
        if (r < 0)
                return r;
        m->row_start[cs->n_rows + 1] = m->n_terms;
        return 0;
}

void cs_enforce(struct cs *cs, const struct cs_lc *a, const struct cs_lc *b,
                const struct cs_lc *c) {
        const struct cs_lc *lcs[PCE_N_MATRICES] = {a, b, c};
        int r;

        assert(cs);

        if (cs->mode == CS_VERIFY && !cs->error)
                cs_verify_row(cs, a, b, c);
        else if ((cs->mode & CS_SHAPE) && !cs->error)
                for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                        r = record_lc(cs, &cs->m[k], lcs[k]);
                        if (r < 0) {
                                cs_fail(cs, r);
                                break;
                        }
                }
        cs->n_rows++;
}
