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

static uint64_t coeff_hash(const fr_t *v) {
        return (v->l[0] ^ v->l[1] ^ v->l[2] ^ v->l[3]) * UINT64_C(0x9e3779b97f4a7c15);
}

static int coeff_slots_grow(struct cs_coeff_table *t) {
        uint64_t n_slots = t->n_slots ? t->n_slots * 2 : 256;
        uint32_t *slots = calloc(n_slots, sizeof(*slots));

        if (!slots)
                return -ENOMEM;
        for (uint32_t i = 0; i < t->n_values; i++) {
                uint64_t s = coeff_hash(&t->values[i]) & (n_slots - 1);
                while (slots[s])
                        s = (s + 1) & (n_slots - 1);
                slots[s] = i + 1;
        }
        free(t->slots);
        t->slots = slots;
        t->n_slots = n_slots;
        return 0;
}

/* The id of v, added when new. Returns 0 or -ENOMEM (-E2BIG past 2^32 - 2). */
static int coeff_intern(struct cs_coeff_table *t, const fr_t *v, uint32_t *ret_id) {
        uint64_t s, capacity = t->capacity;
        int r;

        if ((uint64_t)t->n_values * 2 >= t->n_slots && (r = coeff_slots_grow(t)) < 0)
                return r;
        for (s = coeff_hash(v) & (t->n_slots - 1); t->slots[s]; s = (s + 1) & (t->n_slots - 1))
                if (fr_equal(&t->values[t->slots[s] - 1], v)) {
                        *ret_id = t->slots[s] - 1;
                        return 0;
                }
        if (t->n_values >= UINT32_MAX - 1)
                return -E2BIG;
        r = cs_grow((void **)&t->values, &capacity, (uint64_t)t->n_values + 1, sizeof(fr_t));
        if (r < 0)
                return r;
        t->capacity = (uint32_t)(capacity > UINT32_MAX ? UINT32_MAX : capacity);
        t->values[t->n_values] = *v;
        t->slots[s] = t->n_values + 1;
        *ret_id = t->n_values++;
        return 0;
}

static int coeff_id(struct cs *cs, const fr_t *v, uint32_t *ret_id) {
        int r;

        if (cs->coeffs.n_values == 0) {
                uint32_t id;
                /* The PCE's fixed ids: 0 = +1, 1 = -1. */
                if ((r = coeff_intern(&cs->coeffs, &cs->one, &id)) < 0 ||
                    (r = coeff_intern(&cs->coeffs, &cs->minus_one, &id)) < 0)
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
        return coeff_intern(&cs->coeffs, v, ret_id);
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

        if ((cs->mode & CS_SHAPE) && !cs->error)
                for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                        r = record_lc(cs, &cs->m[k], lcs[k]);
                        if (r < 0) {
                                cs_fail(cs, r);
                                break;
                        }
                }
        cs->n_rows++;
}
