/* SPDX-License-Identifier: Apache-2.0 */
/* CS_VERIFY: rows checked on the values as they are made. */
#include <errno.h>

#include "cs-internal.h"

void cs_verify_set_aux(struct cs *cs, uint64_t j, const fr_t *value) {
        if (cs->error)
                return;
        if (cs_grow((void **)&cs->aux_values, &cs->aux_value_capacity, j + 1, sizeof(fr_t)) < 0) {
                cs_fail(cs, -ENOMEM);
                return;
        }
        cs->aux_values[j] = *value;
}

static const fr_t *var_value(const struct cs *cs, cs_var v) {
        return v & CS_VAR_INPUT ? &cs->w.inputs[v & ~CS_VAR_INPUT] : &cs->aux_values[v];
}

static void lc_value(const struct cs *cs, const struct cs_lc *lc, fr_t *ret) {
        fr_set_zero(ret);
        if (!lc)
                return;
        for (uint32_t k = 0; k < lc->n; k++) {
                fr_t t;
                fr_mul(&t, &lc->terms[k].coeff, var_value(cs, lc->terms[k].var));
                fr_add(ret, ret, &t);
        }
}

void cs_verify_row(struct cs *cs, const struct cs_lc *a, const struct cs_lc *b,
                   const struct cs_lc *c) {
        fr_t va, vb, vc, ab;

        if (cs->first_unsatisfied != UINT64_MAX)
                return;
        lc_value(cs, a, &va);
        lc_value(cs, b, &vb);
        lc_value(cs, c, &vc);
        fr_mul(&ab, &va, &vb);
        if (!fr_equal(&ab, &vc))
                cs->first_unsatisfied = cs->n_rows;
}
