/* SPDX-License-Identifier: Apache-2.0 */
/*
 * storage-proofs-core insertion.rs: insert_2, insert_4 and insert_8, each
 * output position a short chain of picks in the reference's order (its
 * variables are allocated in that order).
 */
#include <assert.h>

#include "insertion.h"

/* pick: c = condition ? a : b, with (b - a)·condition = b - c. */
static struct cs_num pick(struct cs *cs, struct cs_bool condition, const struct cs_num *a,
                          const struct cs_num *b) {
        const struct cs_num *chosen = condition.value ? a : b;
        struct cs_num c = cs_num_alloc(cs, &chosen->value);
        struct cs_row *row = cs_row_begin(cs);

        if (row) {
                const fr_t *one = cs_fr_one(cs);
                cs_lc_add(cs, &row->a, b->var, one);
                cs_lc_sub(cs, &row->a, a->var, one);
                cs_lc_add_bool(cs, &row->b, condition, one);
                cs_lc_add(cs, &row->c, b->var, one);
                cs_lc_sub(cs, &row->c, c.var, one);
        }
        cs_row_end(cs);
        return c;
}

/* Position 0 is element when the bit is 0, else the sibling; position 1 the other. */
static void insert_2(struct cs *cs, const struct cs_num *x, const struct cs_bool *bits,
                     const struct cs_num *s, struct cs_num *out) {
        out[0] = pick(cs, bits[0], &s[0], x);
        out[1] = pick(cs, bits[0], x, &s[0]);
}

static void insert_4(struct cs *cs, const struct cs_num *x, const struct cs_bool *bits,
                     const struct cs_num *s, struct cs_num *out) {
        struct cs_bool b0 = bits[0], b1 = bits[1];
        const struct cs_num *b = &s[0], *c = &s[1], *d = &s[2];
        struct cs_num p;

        p = pick(cs, b0, b, x);
        out[0] = pick(cs, b1, b, &p);
        p = pick(cs, b0, x, b);
        out[1] = pick(cs, b1, c, &p);
        p = pick(cs, b0, d, x);
        out[2] = pick(cs, b1, &p, c);
        p = pick(cs, b0, x, d);
        out[3] = pick(cs, b1, &p, d);
}

/*
 * insert_8: first b0 nor b1 and b0 and b1 (one row each), then per output
 * position the reference's picks; s[0..7) are its b..h, x its A.
 */
static void insert_8(struct cs *cs, const struct cs_num *x, const struct cs_bool *bits,
                     const struct cs_num *s, struct cs_num *out) {
        struct cs_bool b0 = bits[0], b1 = bits[1], b2 = bits[2], nor, and;
        struct cs_num p, q;

        assert(b0.kind == CS_BOOL_IS && b1.kind == CS_BOOL_IS);
        nor = cs_bool_and(cs, cs_bool_not(b0), cs_bool_not(b1)); /* AllocatedBit::nor */
        and = cs_bool_and(cs, b0, b1);

        p = pick(cs, nor, x, &s[0]);
        out[0] = pick(cs, b2, &s[0], &p);

        p = pick(cs, b0, x, &s[0]);
        q = pick(cs, b1, &s[1], &p);
        out[1] = pick(cs, b2, &s[1], &q);

        p = pick(cs, b0, &s[2], x);
        q = pick(cs, b1, &p, &s[1]);
        out[2] = pick(cs, b2, &s[2], &q);

        p = pick(cs, and, x, &s[2]);
        out[3] = pick(cs, b2, &s[3], &p);

        p = pick(cs, nor, x, &s[4]);
        out[4] = pick(cs, b2, &p, &s[3]);

        p = pick(cs, b0, x, &s[4]);
        q = pick(cs, b1, &s[5], &p);
        out[5] = pick(cs, b2, &q, &s[4]);

        p = pick(cs, b0, &s[6], x);
        q = pick(cs, b1, &p, &s[5]);
        out[6] = pick(cs, b2, &q, &s[5]);

        p = pick(cs, and, x, &s[6]);
        out[7] = pick(cs, b2, &p, &s[6]);
}

void cs_insert(struct cs *cs, const struct cs_num *element, const struct cs_bool *index_bits,
               unsigned n_bits, const struct cs_num *siblings, struct cs_num *out) {
        assert(cs && element && index_bits && siblings && out);
        assert(n_bits >= 1 && n_bits <= 3);

        if (n_bits == 1)
                insert_2(cs, element, index_bits, siblings, out);
        else if (n_bits == 2)
                insert_4(cs, element, index_bits, siblings, out);
        else
                insert_8(cs, element, index_bits, siblings, out);
}
