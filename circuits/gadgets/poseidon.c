/* SPDX-License-Identifier: Apache-2.0 */
/*
 * neptune 11's legacy Poseidon circuit, row for row. The state holds
 * neptune's Elts: an allocated variable, or a Num (a value and a linear
 * combination). Mixing turns every element into a Num; an S-box first
 * allocates a Num (Num·ONE = v), so where ONE terms and which variables
 * appear in a row follow from doing the same algebra in the same order:
 * Num + Num merges terms, scaling multiplies every coefficient (zeros stay),
 * a constant is coeff·ONE.
 *
 * Num combinations are kept unmerged (cs merges equal variables when a row
 * is recorded, which gives the same sums); they stay empty in witness mode.
 */
#include <assert.h>
#include <stdbool.h>

#include "poseidon.h"

struct elt {
        bool allocated;
        cs_var var; /* allocated only */
        fr_t value;
        struct cs_lc lc; /* a Num's terms (shape modes) */
};

struct poseidon_circuit {
        struct cs *cs;
        const struct poseidon_constants *c;
        size_t k; /* next compressed constant */
        struct elt *e, *next;
        struct elt buf[2][POSEIDON_MAX_WIDTH];
};

static void elt_set_allocated(struct elt *x, cs_var var, const fr_t *value) {
        x->allocated = true;
        x->var = var;
        x->value = *value;
        cs_lc_clear(&x->lc);
}

static void elt_set_zero_num(struct elt *x) {
        x->allocated = false;
        fr_set_zero(&x->value);
        cs_lc_clear(&x->lc);
}

/* neptune's Elt::num_from_fr: the Num value·ONE. */
static void elt_set_constant(struct cs *cs, struct elt *x, const fr_t *value) {
        elt_set_zero_num(x);
        x->value = *value;
        cs_lc_add(cs, &x->lc, CS_ONE, value);
}

/* dst (a Num) += scale·src: Num::add(src.scale(scale)). */
static void num_add_scaled(struct cs *cs, struct elt *dst, const struct elt *src,
                           const fr_t *scale) {
        fr_t v;

        assert(!dst->allocated);
        fr_mul(&v, &src->value, scale);
        fr_add(&dst->value, &dst->value, &v);
        if (src->allocated)
                cs_lc_add(cs, &dst->lc, src->var, scale);
        else
                cs_lc_add_scaled(cs, &dst->lc, &src->lc, scale);
}

/* Elt::ensure_allocated: a Num becomes a new variable with Num·ONE = v. */
static cs_var ensure_allocated(struct cs *cs, struct elt *x) {
        struct cs_row *row;
        cs_var v;

        if (x->allocated)
                return x->var;
        v = cs_alloc_aux(cs, &x->value);
        row = cs_row_begin(cs);
        if (row) {
                cs_lc_add_scaled(cs, &row->a, &x->lc, cs_fr_one(cs));
                cs_lc_add(cs, &row->b, CS_ONE, cs_fr_one(cs));
                cs_lc_add(cs, &row->c, v, cs_fr_one(cs));
        }
        cs_row_end(cs);
        elt_set_allocated(x, v, &x->value);
        return v;
}

/* lc += var + add·ONE (add may be NULL). */
static void lc_var_plus(struct cs *cs, struct cs_lc *lc, cs_var var, const fr_t *add) {
        cs_lc_add(cs, lc, var, cs_fr_one(cs));
        if (add)
                cs_lc_add(cs, lc, CS_ONE, add);
}

/* AllocatedNum::square, or neptune's square_sum when add is set:
 * (x + add)·(x + add) = r. */
static cs_var square(struct cs *cs, cs_var x, const fr_t *x_value, const fr_t *add,
                     fr_t *ret_value) {
        struct cs_row *row;
        fr_t base = *x_value;
        cs_var r;

        if (add)
                fr_add(&base, &base, add);
        fr_sqr(ret_value, &base);
        r = cs_alloc_aux(cs, ret_value);
        row = cs_row_begin(cs);
        if (row) {
                lc_var_plus(cs, &row->a, x, add);
                lc_var_plus(cs, &row->b, x, add);
                cs_lc_add(cs, &row->c, r, cs_fr_one(cs));
        }
        cs_row_end(cs);
        return r;
}

/* neptune's mul_sum(a, b, pre, post): r = (b + pre)·a + post with the row
 * (b + pre·ONE)·a = r - post·ONE. */
static cs_var mul_sum(struct cs *cs, cs_var a, const fr_t *a_value, cs_var b, const fr_t *b_value,
                      const fr_t *pre, const fr_t *post, fr_t *ret_value) {
        struct cs_row *row;
        cs_var r;

        *ret_value = *b_value;
        if (pre)
                fr_add(ret_value, ret_value, pre);
        fr_mul(ret_value, ret_value, a_value);
        if (post)
                fr_add(ret_value, ret_value, post);
        r = cs_alloc_aux(cs, ret_value);
        row = cs_row_begin(cs);
        if (row) {
                lc_var_plus(cs, &row->a, b, pre);
                cs_lc_add(cs, &row->b, a, cs_fr_one(cs));
                cs_lc_add(cs, &row->c, r, cs_fr_one(cs));
                if (post)
                        cs_lc_sub(cs, &row->c, CS_ONE, post);
        }
        cs_row_end(cs);
        return r;
}

/*
 * quintic_s_box (pre == NULL: x = ensure_allocated, 4 rows for a Num) and
 * quintic_s_box_pre_add (the first round over allocated inputs, 3 rows):
 * x becomes the allocated (x + pre)^5 + post. post may be NULL (the last round).
 */
static void quintic_s_box(struct cs *cs, struct elt *x, const fr_t *pre, const fr_t *post) {
        fr_t l_value, l2_value, l4_value, l5_value;
        cs_var l, l2, l4, l5;

        l = ensure_allocated(cs, x);
        l_value = x->value;
        l2 = square(cs, l, &l_value, pre, &l2_value);
        l4 = square(cs, l2, &l2_value, NULL, &l4_value);
        l5 = mul_sum(cs, l4, &l4_value, l, &l_value, pre, post, &l5_value);
        elt_set_allocated(x, l5, &l5_value);
}

/* product_mds_with_matrix: next[j] = sum_i e[i]·m[i][j], then swap. */
static void mix_dense(struct poseidon_circuit *p, const fr_t *m) {
        unsigned t = p->c->width;
        struct elt *swap;

        for (unsigned j = 0; j < t; j++) {
                elt_set_zero_num(&p->next[j]);
                for (unsigned i = 0; i < t; i++)
                        num_add_scaled(p->cs, &p->next[j], &p->e[i], &m[i * t + j]);
        }
        swap = p->e;
        p->e = p->next;
        p->next = swap;
}

/* product_mds_with_sparse_matrix: e'[0] = sum_i w_hat[i]·e[i],
 * e'[j] = e[j] + v[j-1]·e[0] (in place: e[0] is read before it changes). */
static void mix_sparse(struct poseidon_circuit *p, const struct poseidon_sparse *s) {
        unsigned t = p->c->width;
        struct elt *first = &p->next[0], old;

        elt_set_zero_num(first);
        for (unsigned i = 0; i < t; i++)
                num_add_scaled(p->cs, first, &p->e[i], &s->w_hat[i]);
        for (unsigned j = 1; j < t; j++)
                num_add_scaled(p->cs, &p->e[j], &p->e[0], &s->v[j - 1]);
        /* swap the new element 0 in, keeping both buffers' combinations */
        old = p->e[0];
        p->e[0] = *first;
        *first = old;
}

/* The first full round: constants before and after each S-box; the tag's
 * S-box is computed as a constant (no row). */
static void first_round(struct poseidon_circuit *p) {
        const fr_t *pre = &p->c->compressed[p->k], *post = &p->c->compressed[p->k + p->c->width];
        fr_t base, tag;

        /* (tag + pre)^5 + post, neptune's native quintic_s_box */
        fr_add(&base, &p->e[0].value, &pre[0]);
        fr_sqr(&tag, &base);
        fr_sqr(&tag, &tag);
        fr_mul(&tag, &tag, &base);
        fr_add(&tag, &tag, &post[0]);
        elt_set_constant(p->cs, &p->e[0], &tag);
        for (unsigned i = 1; i < p->c->width; i++)
                quintic_s_box(p->cs, &p->e[i], &pre[i], &post[i]);
        p->k += 2 * p->c->width;
}

/* A later full round: S-box all, adding the next t constants (none in the
 * terminal round). */
static void full_round(struct poseidon_circuit *p, bool last) {
        for (unsigned i = 0; i < p->c->width; i++)
                quintic_s_box(p->cs, &p->e[i], NULL, last ? NULL : &p->c->compressed[p->k + i]);
        if (!last)
                p->k += p->c->width;
}

static void partial_round(struct poseidon_circuit *p, unsigned round) {
        quintic_s_box(p->cs, &p->e[0], NULL, &p->c->compressed[p->k]);
        p->k++;
        mix_sparse(p, &p->c->sparse[round]);
}

/* hash(): R_F/2 full rounds (the last of them mixing with pre_sparse), the
 * partial rounds, R_F/2 full rounds (the terminal one without constants). */
static void permute(struct poseidon_circuit *p) {
        const struct poseidon_constants *c = p->c;
        unsigned half = c->full_rounds / 2;

        for (unsigned r = 0; r < half; r++) {
                if (r == 0)
                        first_round(p);
                else
                        full_round(p, false);
                mix_dense(p, r == half - 1 ? c->pre_sparse : c->mds);
        }
        for (unsigned r = 0; r < c->partial_rounds; r++)
                partial_round(p, r);
        for (unsigned r = 0; r < half; r++) {
                full_round(p, r == half - 1);
                mix_dense(p, c->mds);
        }
        assert(p->k == c->n_compressed);
}

struct cs_num cs_poseidon_hash(struct cs *cs, const struct poseidon_constants *c,
                               const struct cs_num *in) {
        struct poseidon_circuit p = {.cs = cs, .c = c};
        struct cs_num out;

        assert(cs && c && in);
        assert(c->width <= POSEIDON_MAX_WIDTH && c->arity + 1 == c->width);

        p.e = p.buf[0];
        p.next = p.buf[1];
        elt_set_constant(cs, &p.e[0], &c->domain_tag);
        for (unsigned i = 0; i < c->arity; i++)
                elt_set_allocated(&p.e[i + 1], in[i].var, &in[i].value);
        permute(&p);

        /* The hash result: element 1 allocated, one more row. */
        out.var = ensure_allocated(cs, &p.e[1]);
        out.value = p.e[1].value;
        for (unsigned i = 0; i < 2; i++)
                for (unsigned j = 0; j < c->width; j++)
                        cs_lc_done(&p.buf[i][j].lc);
        return out;
}
