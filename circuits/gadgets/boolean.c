/* SPDX-License-Identifier: Apache-2.0 */
/* bellpepper-core's AllocatedBit and Boolean gates, row for row. */
#include <assert.h>
#include <errno.h>

#include "boolean.h"

/* The value of the variable behind an Is/Not. */
static inline bool var_value(struct cs_bool b) {
        return b.kind == CS_BOOL_NOT ? !b.value : b.value;
}

static inline struct cs_bool is_bit(cs_var var, bool value) {
        return (struct cs_bool){.var = var, .kind = CS_BOOL_IS, .value = value};
}

struct cs_bool cs_bool_not(struct cs_bool b) {
        if (b.kind == CS_BOOL_IS)
                b.kind = CS_BOOL_NOT;
        else if (b.kind == CS_BOOL_NOT)
                b.kind = CS_BOOL_IS;
        b.value = !b.value;
        return b;
}

void cs_lc_add_bool(struct cs *cs, struct cs_lc *lc, struct cs_bool b, const fr_t *coeff) {
        switch (b.kind) {
        case CS_BOOL_CONSTANT:
                if (b.value)
                        cs_lc_add(cs, lc, CS_ONE, coeff);
                break;
        case CS_BOOL_IS:
                cs_lc_add(cs, lc, b.var, coeff);
                break;
        default:
                cs_lc_add(cs, lc, CS_ONE, coeff);
                cs_lc_sub(cs, lc, b.var, coeff);
                break;
        }
}

struct cs_bool cs_bit_alloc(struct cs *cs, bool value) {
        cs_var v = cs_alloc_aux_bit(cs, value);
        struct cs_row *row = cs_row_begin(cs);

        if (row) {
                /* (1 - v)·v = 0 */
                cs_lc_add(cs, &row->a, CS_ONE, cs_fr_one(cs));
                cs_lc_sub(cs, &row->a, v, cs_fr_one(cs));
                cs_lc_add(cs, &row->b, v, cs_fr_one(cs));
        }
        cs_row_end(cs);
        return is_bit(v, value);
}

/* AllocatedBit::xor: (a + a)·b = a + b - c. */
static struct cs_bool allocated_xor(struct cs *cs, cs_var a, bool va, cs_var b, bool vb) {
        cs_var c = cs_alloc_aux_bit(cs, va ^ vb);
        struct cs_row *row = cs_row_begin(cs);

        if (row) {
                const fr_t *one = cs_fr_one(cs);
                cs_lc_add(cs, &row->a, a, one);
                cs_lc_add(cs, &row->a, a, one);
                cs_lc_add(cs, &row->b, b, one);
                cs_lc_add(cs, &row->c, a, one);
                cs_lc_add(cs, &row->c, b, one);
                cs_lc_sub(cs, &row->c, c, one);
        }
        cs_row_end(cs);
        return is_bit(c, va ^ vb);
}

/*
 * AllocatedBit::and (a·b = c), and_not (a·(1 - b) = c) and nor
 * ((1 - a)·(1 - b) = c): not_a / not_b say which operand enters as 1 - v.
 */
static struct cs_bool allocated_and(struct cs *cs, cs_var a, bool va, bool not_a, cs_var b, bool vb,
                                    bool not_b) {
        bool value = (va ^ not_a) & (vb ^ not_b);
        cs_var c = cs_alloc_aux_bit(cs, value);
        struct cs_row *row = cs_row_begin(cs);

        if (row) {
                const fr_t *one = cs_fr_one(cs);
                if (not_a)
                        cs_lc_add(cs, &row->a, CS_ONE, one);
                (not_a ? cs_lc_sub : cs_lc_add)(cs, &row->a, a, one);
                if (not_b)
                        cs_lc_add(cs, &row->b, CS_ONE, one);
                (not_b ? cs_lc_sub : cs_lc_add)(cs, &row->b, b, one);
                cs_lc_add(cs, &row->c, c, one);
        }
        cs_row_end(cs);
        return is_bit(c, value);
}

struct cs_bool cs_bool_xor(struct cs *cs, struct cs_bool a, struct cs_bool b) {
        if (a.kind == CS_BOOL_CONSTANT && !a.value)
                return b;
        if (b.kind == CS_BOOL_CONSTANT && !b.value)
                return a;
        if (a.kind == CS_BOOL_CONSTANT)
                return cs_bool_not(b);
        if (b.kind == CS_BOOL_CONSTANT)
                return cs_bool_not(a);
        /* a XOR (NOT b) = NOT (a XOR b), the Is operand first. */
        if (a.kind == CS_BOOL_IS && b.kind == CS_BOOL_NOT)
                return cs_bool_not(allocated_xor(cs, a.var, var_value(a), b.var, var_value(b)));
        if (a.kind == CS_BOOL_NOT && b.kind == CS_BOOL_IS)
                return cs_bool_not(allocated_xor(cs, b.var, var_value(b), a.var, var_value(a)));
        /* Is/Is or Not/Not: the variables' xor. */
        return allocated_xor(cs, a.var, var_value(a), b.var, var_value(b));
}

struct cs_bool cs_bool_and(struct cs *cs, struct cs_bool a, struct cs_bool b) {
        if ((a.kind == CS_BOOL_CONSTANT && !a.value) || (b.kind == CS_BOOL_CONSTANT && !b.value))
                return cs_bool_constant(false);
        if (a.kind == CS_BOOL_CONSTANT)
                return b;
        if (b.kind == CS_BOOL_CONSTANT)
                return a;
        if (a.kind == CS_BOOL_IS && b.kind == CS_BOOL_NOT)
                return allocated_and(cs, a.var, var_value(a), false, b.var, var_value(b), true);
        if (a.kind == CS_BOOL_NOT && b.kind == CS_BOOL_IS)
                return allocated_and(cs, b.var, var_value(b), false, a.var, var_value(a), true);
        if (a.kind == CS_BOOL_NOT)
                return allocated_and(cs, a.var, var_value(a), true, b.var, var_value(b), true);
        return allocated_and(cs, a.var, var_value(a), false, b.var, var_value(b), false);
}

struct cs_bool cs_bool_sha256_ch(struct cs *cs, struct cs_bool a, struct cs_bool b,
                                 struct cs_bool c) {
        bool value = (a.value & b.value) ^ (!a.value & c.value);
        struct cs_row *row;
        cs_var ch;

        if (cs_bool_is_constant(a) && cs_bool_is_constant(b) && cs_bool_is_constant(c))
                return cs_bool_constant(value);
        if (cs_bool_is_constant(a) && !a.value)
                return c;
        if (cs_bool_is_constant(b) && !b.value)
                return cs_bool_and(cs, cs_bool_not(a), c);
        if (cs_bool_is_constant(c) && !c.value)
                return cs_bool_and(cs, a, b);
        if (cs_bool_is_constant(c))
                return cs_bool_not(cs_bool_and(cs, a, cs_bool_not(b)));
        if (cs_bool_is_constant(b))
                return cs_bool_not(cs_bool_and(cs, cs_bool_not(a), cs_bool_not(c)));
        /* a constant true, or no constant: the general row. */
        ch = cs_alloc_aux_bit(cs, value);
        row = cs_row_begin(cs);
        if (row) {
                const fr_t *one = cs_fr_one(cs), *minus_one = cs_fr_minus_one(cs);
                /* (b - c)·a = ch - c */
                cs_lc_add_bool(cs, &row->a, b, one);
                cs_lc_add_bool(cs, &row->a, c, minus_one);
                cs_lc_add_bool(cs, &row->b, a, one);
                cs_lc_add(cs, &row->c, ch, one);
                cs_lc_add_bool(cs, &row->c, c, minus_one);
        }
        cs_row_end(cs);
        return is_bit(ch, value);
}

struct cs_bool cs_bool_sha256_maj(struct cs *cs, struct cs_bool a, struct cs_bool b,
                                  struct cs_bool c) {
        bool value = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
        struct cs_bool bc;
        struct cs_row *row;
        cs_var maj;

        if (cs_bool_is_constant(a) && cs_bool_is_constant(b) && cs_bool_is_constant(c))
                return cs_bool_constant(value);
        if (cs_bool_is_constant(a) && !a.value)
                return cs_bool_and(cs, b, c);
        if (cs_bool_is_constant(b) && !b.value)
                return cs_bool_and(cs, a, c);
        if (cs_bool_is_constant(c) && !c.value)
                return cs_bool_and(cs, a, b);
        if (cs_bool_is_constant(c))
                return cs_bool_not(cs_bool_and(cs, cs_bool_not(a), cs_bool_not(b)));
        if (cs_bool_is_constant(b))
                return cs_bool_not(cs_bool_and(cs, cs_bool_not(a), cs_bool_not(c)));
        if (cs_bool_is_constant(a))
                return cs_bool_not(cs_bool_and(cs, cs_bool_not(b), cs_bool_not(c)));
        /* maj is allocated before b and c. */
        maj = cs_alloc_aux_bit(cs, value);
        bc = cs_bool_and(cs, b, c);
        row = cs_row_begin(cs);
        if (row) {
                const fr_t *one = cs_fr_one(cs), *minus_one = cs_fr_minus_one(cs);
                /* (2bc - b - c)·a = bc - maj */
                cs_lc_add_bool(cs, &row->a, bc, one);
                cs_lc_add_bool(cs, &row->a, bc, one);
                cs_lc_add_bool(cs, &row->a, b, minus_one);
                cs_lc_add_bool(cs, &row->a, c, minus_one);
                cs_lc_add_bool(cs, &row->b, a, one);
                cs_lc_add_bool(cs, &row->c, bc, one);
                cs_lc_sub(cs, &row->c, maj, one);
        }
        cs_row_end(cs);
        return is_bit(maj, value);
}

int cs_bool_enforce_equal(struct cs *cs, struct cs_bool a, struct cs_bool b) {
        const fr_t *one = cs_fr_one(cs), *minus_one = cs_fr_minus_one(cs);
        struct cs_row *row;

        if (cs_bool_is_constant(a) && cs_bool_is_constant(b))
                return a.value == b.value ? 0 : -EDOM;
        row = cs_row_begin(cs);
        if (row) {
                /* 0·0 = ONE - x, x, or a - b. */
                if (cs_bool_is_constant(a) || cs_bool_is_constant(b)) {
                        struct cs_bool k = cs_bool_is_constant(a) ? a : b;
                        struct cs_bool x = cs_bool_is_constant(a) ? b : a;
                        if (k.value)
                                cs_lc_add(cs, &row->c, CS_ONE, one);
                        cs_lc_add_bool(cs, &row->c, x, k.value ? minus_one : one);
                } else {
                        cs_lc_add_bool(cs, &row->c, a, one);
                        cs_lc_add_bool(cs, &row->c, b, minus_one);
                }
        }
        cs_row_end(cs);
        return 0;
}
