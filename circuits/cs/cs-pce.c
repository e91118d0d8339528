/* SPDX-License-Identifier: Apache-2.0 */
/* Export: the recorded shape as a PCE, the witness in column order, row checks. */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/pce-compact.h"
#include "circuits/pce-internal.h"
#include "common/cleanup.h"
#include "zk/big_alloc.h"
#include "cs-internal.h"

/* The PCE column of a variable: ONE and inputs first, then aux. */
static inline uint32_t var_column(cs_var v, uint32_t n_inputs) {
        return v & CS_VAR_INPUT ? v & ~CS_VAR_INPUT : 1 + n_inputs + v;
}

static int matrix_to_pce(const struct cs *cs, struct pce *pce, enum pce_matrix_id id) {
        const struct cs_rec_matrix *src = &cs->m[id];
        uint32_t n_input_rows = cs->n_inputs + 1;
        /* Only A has terms in the input rows: w[s] in row n_rows + s. */
        uint64_t n_extra = id == PCE_A ? n_input_rows : 0;
        fr_t fixed[2] = {cs->one, cs->minus_one};
        uint32_t n_values = cs->coeffs.n_values ? cs->coeffs.n_values : 2;
        uint64_t *row_start;
        uint32_t *col, id_bytes;
        fr_t *values;
        void *ids;
        int r;

        r = pce_matrix_alloc(pce, id, src->n_terms + n_extra, n_values, &row_start, &col, &ids,
                             &values);
        if (r < 0)
                return r;
        id_bytes = pce->m[id].id_bytes;
        memcpy(values, cs->coeffs.n_values ? cs->coeffs.values : fixed, n_values * sizeof(fr_t));
        memcpy(row_start, src->row_start, (cs->n_rows + 1) * sizeof(uint64_t));
        for (uint64_t t = 0; t < src->n_terms; t++) {
                col[t] = var_column(src->terms[t].var, cs->n_inputs);
                pce_set_coeff_id(ids, id_bytes, t, src->terms[t].coeff_id);
        }
        for (uint32_t s = 0; s < n_input_rows; s++) {
                if (id == PCE_A) {
                        col[src->n_terms + s] = s;
                        pce_set_coeff_id(ids, id_bytes, src->n_terms + s, PCE_COEFF_ID_ONE);
                }
                row_start[cs->n_rows + s + 1] = src->n_terms + (id == PCE_A ? s + 1 : 0);
        }
        return 0;
}

int cs_to_pce(const struct cs *cs, struct pce **ret) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        uint64_t n_rows, n_cols;
        int r;

        assert(cs);
        assert(ret);

        if (cs->error)
                return cs->error;
        if (!(cs->mode & CS_SHAPE) || cs->mode == CS_VERIFY)
                return -EINVAL;
        n_rows = cs->n_rows + cs->n_inputs + 1;
        n_cols = 1 + (uint64_t)cs->n_inputs + cs->n_aux;
        if (n_rows > UINT32_MAX || n_cols > UINT32_MAX)
                return -EINVAL;

        pce = pce_new((uint32_t)n_rows, (uint32_t)n_cols, cs->n_inputs,
                      PCE_INPUT_ROWS | PCE_AUX_VALUES);
        if (!pce)
                return -ENOMEM;
        /* The gadgets allocate an aux as a bit or a value whatever its value is, so every
         * witness of the circuit has this many values (what admission sizes workers by). */
        pce->n_aux_values = cs->n_aux;
        for (uint64_t i = 0; i < pce_bitmap_words(cs->n_aux); i++)
                pce->n_aux_values -= (uint64_t)__builtin_popcountll(cs->aux_is_bit[i]);
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                r = matrix_to_pce(cs, pce, (enum pce_matrix_id)k);
                if (r < 0)
                        return r;
        }
        r = pce_compute_density(pce);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(pce);
        return 0;
}

const struct cs_witness *cs_witness(const struct cs *cs) {
        assert(cs);
        return cs->mode & CS_WITNESS ? &cs->w : NULL;
}

int cs_witness_compact(const struct cs *cs, struct pce_compact_witness *ret, uint64_t **ret_rank) {
        int r;

        assert(cs);
        assert(ret && ret_rank);

        if (cs->error)
                return cs->error;
        if (!(cs->mode & CS_WITNESS))
                return -EINVAL;
        if ((r = pce_compact_rank(cs->aux_is_bit, cs->n_aux, ret_rank)) < 0)
                return r;
        *ret = (struct pce_compact_witness){
                .n_inputs = cs->n_inputs,
                .inputs = cs->w.inputs,
                .n_aux = cs->n_aux,
                .is_bit = cs->aux_is_bit,
                .bit_value = cs->w.aux_bit_value,
                .nums = cs->w.nums,
                .rank = *ret_rank,
        };
        return 0;
}

int cs_witness_full(const struct cs *cs, fr_t **ret, size_t *ret_n) {
        _cleanup_free_ uint64_t *rank = NULL;
        _cleanup_free_ fr_t *w = NULL;
        struct pce_compact_witness cw;
        size_t n;
        int r;

        assert(cs);
        assert(ret && ret_n);

        if ((r = cs_witness_compact(cs, &cw, &rank)) < 0)
                return r;
        n = 1 + (size_t)cs->n_inputs + cs->n_aux;
        /* 4.2 GB for a 32 GiB partition, read at random by the SpMV: huge
         * pages spare the faults of filling it and the TLB misses of reading it. */
        w = big_alloc(n * sizeof(fr_t));
        if (!w)
                return -ENOMEM;
        pce_compact_expand(&cw, w);
        *ret = TAKE_PTR(w);
        *ret_n = n;
        return 0;
}

int cs_pce_check(const struct pce *pce, const fr_t *w, size_t n_vars, uint64_t *ret_row) {
        _cleanup_free_ fr_t *a = NULL, *b = NULL, *c = NULL;
        unsigned log_n;
        int r;

        assert(pce && w);
        assert(ret_row);

        if (n_vars < pce->n_cols)
                return -EINVAL;
        log_n = pce_log_domain_size(pce);
        a = malloc(sizeof(fr_t) << log_n);
        b = malloc(sizeof(fr_t) << log_n);
        c = malloc(sizeof(fr_t) << log_n);
        if (!a || !b || !c)
                return -ENOMEM;
        r = pce_evaluate(pce, w, n_vars, log_n, a, b, c);
        if (r < 0)
                return r;
        for (uint64_t i = 0; i < pce->n_rows; i++) {
                fr_t ab;
                fr_mul(&ab, &a[i], &b[i]);
                if (!fr_equal(&ab, &c[i])) {
                        *ret_row = i;
                        return 1;
                }
        }
        *ret_row = UINT64_MAX;
        return 0;
}
