/* SPDX-License-Identifier: Apache-2.0 */
/* Synthesis: variables, linear combinations and rows in both modes. */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "cs-internal.h"

int cs_grow(void **p, uint64_t *capacity, uint64_t need, size_t elem) {
        uint64_t c = *capacity ? *capacity : 64;
        void *q;

        if (need <= *capacity)
                return 0;
        while (c < need)
                c *= 2;
        q = realloc(*p, (size_t)c * elem);
        if (!q)
                return -ENOMEM;
        *p = q;
        *capacity = c;
        return 0;
}

int cs_new(enum cs_mode mode, struct cs **ret) {
        _cleanup_(cs_freep) struct cs *cs = NULL;

        assert(ret);

        if (mode != CS_SHAPE && mode != CS_WITNESS && mode != CS_CHECK && mode != CS_VERIFY)
                return -EINVAL;
        cs = calloc(1, sizeof(*cs));
        if (!cs)
                return -ENOMEM;
        cs->mode = mode;
        cs->first_unsatisfied = UINT64_MAX;
        fr_set_one(&cs->one);
        fr_neg(&cs->minus_one, &cs->one);
        cs->pow2[0] = cs->one;
        for (size_t k = 1; k < ELEMENTSOF(cs->pow2); k++)
                fr_dbl(&cs->pow2[k], &cs->pow2[k - 1]);

        if (mode & CS_SHAPE)
                for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                        if (cs_grow((void **)&cs->m[k].row_start, &cs->m[k].row_capacity, 1,
                                    sizeof(uint64_t)) < 0)
                                return -ENOMEM;
                        cs->m[k].row_start[0] = 0;
                }
        if (mode & CS_WITNESS) {
                /* The constant ONE is input 0. */
                if (cs_grow((void **)&cs->w.inputs, &cs->input_capacity, 1, sizeof(fr_t)) < 0)
                        return -ENOMEM;
                cs->w.inputs[0] = cs->one;
        }
        *ret = TAKE_PTR(cs);
        return 0;
}

struct cs *cs_free(struct cs *cs) {
        if (!cs)
                return NULL;
        cs_lc_done(&cs->scratch.a);
        cs_lc_done(&cs->scratch.b);
        cs_lc_done(&cs->scratch.c);
        cs_lc_done(&cs->sort_buffer);
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                free(cs->m[k].row_start);
                free(cs->m[k].terms);
        }
        pce_coeff_table_done(&cs->coeffs);
        free(cs->aux_is_bit);
        free(cs->w.inputs);
        free(cs->w.aux_bit_value);
        free(cs->w.nums);
        free(cs->aux_values);
        free(cs);
        return NULL;
}

enum cs_mode cs_mode(const struct cs *cs) {
        return cs->mode;
}

int cs_error(const struct cs *cs) {
        return cs->error;
}

uint64_t cs_first_unsatisfied(const struct cs *cs) {
        return cs->first_unsatisfied;
}

uint64_t cs_n_rows(const struct cs *cs) {
        return cs->n_rows;
}

uint32_t cs_n_inputs(const struct cs *cs) {
        return cs->n_inputs;
}

uint64_t cs_n_aux(const struct cs *cs) {
        return cs->n_aux;
}

const fr_t *cs_fr_one(const struct cs *cs) {
        return &cs->one;
}

const fr_t *cs_fr_minus_one(const struct cs *cs) {
        return &cs->minus_one;
}

const fr_t *cs_fr_pow2(const struct cs *cs, unsigned k) {
        assert(k < ELEMENTSOF(cs->pow2));
        return &cs->pow2[k];
}

/* Makes the bitmaps hold aux index j (new words zeroed). */
int cs_bitmaps_reserve(struct cs *cs, uint64_t j) {
        uint64_t words = j / 64 + 1, old = cs->bitmap_words, capacity = old;
        int r;

        if (words <= old)
                return 0;
        r = cs_grow((void **)&cs->aux_is_bit, &capacity, words, sizeof(uint64_t));
        if (r < 0)
                return r;
        memset(cs->aux_is_bit + old, 0, (capacity - old) * sizeof(uint64_t));
        if (cs->mode & CS_WITNESS) {
                uint64_t *v = realloc(cs->w.aux_bit_value, (size_t)capacity * sizeof(uint64_t));
                if (!v)
                        return -ENOMEM;
                memset(v + old, 0, (capacity - old) * sizeof(uint64_t));
                cs->w.aux_bit_value = v;
        }
        cs->bitmap_words = capacity;
        cs->w.aux_is_bit = cs->aux_is_bit;
        return 0;
}

/* The next aux index; marks it a bit or not. */
static cs_var cs_next_aux(struct cs *cs, bool is_bit, bool bit_value) {
        uint64_t j = cs->n_aux;

        if (j >= CS_MAX_AUX) {
                cs_fail(cs, -E2BIG);
                return 0;
        }
        cs->n_aux++;
        cs->w.n_aux = cs->n_aux;
        if (cs->error)
                return (cs_var)j;
        if (cs_bitmaps_reserve(cs, j) < 0) {
                cs_fail(cs, -ENOMEM);
                return (cs_var)j;
        }
        if (is_bit) {
                cs->aux_is_bit[j / 64] |= UINT64_C(1) << (j % 64);
                if ((cs->mode & CS_WITNESS) && bit_value)
                        cs->w.aux_bit_value[j / 64] |= UINT64_C(1) << (j % 64);
        }
        return (cs_var)j;
}

cs_var cs_alloc_aux_bit(struct cs *cs, bool value) {
        cs_var v;

        assert(cs);

        v = cs_next_aux(cs, true, value);
        if (cs->mode == CS_VERIFY)
                cs_verify_set_aux(cs, v, value ? &cs->one : &(fr_t){0});
        return v;
}

cs_var cs_alloc_aux(struct cs *cs, const fr_t *value) {
        cs_var v;

        assert(cs);
        assert(value);

        v = cs_next_aux(cs, false, false);
        if (cs->mode == CS_VERIFY)
                cs_verify_set_aux(cs, v, value);
        if (!(cs->mode & CS_WITNESS) || cs->error)
                return v;
        if (cs_grow((void **)&cs->w.nums, &cs->num_capacity, cs->w.n_nums + 1, sizeof(fr_t)) < 0) {
                cs_fail(cs, -ENOMEM);
                return v;
        }
        cs->w.nums[cs->w.n_nums++] = *value;
        return v;
}

cs_var cs_alloc_input(struct cs *cs, const fr_t *value) {
        assert(cs);
        assert(value);

        if (cs->n_inputs + 1u >= CS_MAX_AUX) {
                cs_fail(cs, -E2BIG);
                return CS_ONE;
        }
        cs->n_inputs++;
        cs->w.n_inputs = cs->n_inputs;
        if ((cs->mode & CS_WITNESS) && !cs->error) {
                if (cs_grow((void **)&cs->w.inputs, &cs->input_capacity, (uint64_t)cs->n_inputs + 1,
                            sizeof(fr_t)) < 0)
                        cs_fail(cs, -ENOMEM);
                else
                        cs->w.inputs[cs->n_inputs] = *value;
        }
        return CS_VAR_INPUT | cs->n_inputs;
}

/* Appends a term without merging (merging happens when the row is recorded,
 * which gives the same sums as merging at every addition). */
static void cs_lc_push(struct cs *cs, struct cs_lc *lc, cs_var var, const fr_t *coeff) {
        if (lc->n == lc->capacity) {
                uint64_t capacity = lc->capacity;
                if (cs_grow((void **)&lc->terms, &capacity, (uint64_t)lc->n + 1,
                            sizeof(struct cs_term)) < 0 ||
                    capacity > UINT32_MAX) {
                        cs_fail(cs, -ENOMEM);
                        return;
                }
                lc->capacity = (uint32_t)capacity;
        }
        lc->terms[lc->n].var = var;
        lc->terms[lc->n].coeff = *coeff;
        lc->n++;
}

void cs_lc_add(struct cs *cs, struct cs_lc *lc, cs_var var, const fr_t *coeff) {
        assert(cs && lc && coeff);
        if (!(cs->mode & CS_SHAPE) || cs->error)
                return;
        cs_lc_push(cs, lc, var, coeff);
}

void cs_lc_sub(struct cs *cs, struct cs_lc *lc, cs_var var, const fr_t *coeff) {
        fr_t neg;

        assert(cs && lc && coeff);
        if (!(cs->mode & CS_SHAPE) || cs->error)
                return;
        fr_neg(&neg, coeff);
        cs_lc_push(cs, lc, var, &neg);
}

void cs_lc_add_scaled(struct cs *cs, struct cs_lc *lc, const struct cs_lc *other,
                      const fr_t *scale) {
        assert(cs && lc && other && scale);
        if (!(cs->mode & CS_SHAPE) || cs->error)
                return;
        for (uint32_t k = 0; k < other->n; k++) {
                fr_t v;
                fr_mul(&v, &other->terms[k].coeff, scale);
                cs_lc_push(cs, lc, other->terms[k].var, &v);
        }
}

void cs_lc_done(struct cs_lc *lc) {
        free(lc->terms);
        *lc = (struct cs_lc){0};
}

struct cs_row *cs_row_begin(struct cs *cs) {
        assert(cs);
        if (!(cs->mode & CS_SHAPE))
                return NULL;
        cs_lc_clear(&cs->scratch.a);
        cs_lc_clear(&cs->scratch.b);
        cs_lc_clear(&cs->scratch.c);
        return &cs->scratch;
}

void cs_row_end(struct cs *cs) {
        assert(cs);
        cs_enforce(cs, &cs->scratch.a, &cs->scratch.b, &cs->scratch.c);
}
