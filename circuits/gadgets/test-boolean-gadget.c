/* SPDX-License-Identifier: Apache-2.0 */
/*
 * circuits/gadgets/boolean and uint32: bellpepper's row shapes (booleanity,
 * xor, and/and_not/nor, ch, maj), the constant folding case by case, every
 * kind combination satisfied with the right value, and MultiEq's packing.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <stdint.h>
#include <stdlib.h>

#include "circuits/cs/cs.h"
#include "common/cleanup.h"
#include "circuits/gadgets/uint32.h"

/* One expected term: PCE column and a small signed coefficient. */
struct term {
        uint32_t col;
        int coeff;
};

static void assert_row(const struct pce *pce, enum pce_matrix_id m, uint32_t row,
                       const struct term *want, size_t n) {
        const struct pce_matrix *x = &pce->m[m];
        uint64_t start = x->row_start[row];

        assert_int_equal(x->row_start[row + 1] - start, n);
        for (size_t k = 0; k < n; k++) {
                fr_t c;
                fr_from_u64(&c, (uint64_t)abs(want[k].coeff));
                if (want[k].coeff < 0)
                        fr_neg(&c, &c);
                assert_int_equal(x->col[start + k], want[k].col);
                assert_true(fr_equal(&x->values[pce_coeff_id(x, start + k)], &c));
        }
}

static struct pce *shape_of(struct cs *cs) {
        struct pce *pce = NULL;
        assert_int_equal(cs_to_pce(cs, &pce), 0);
        return pce;
}

/* The witness satisfies every row. */
static void assert_satisfied(struct cs *cs) {
        _cleanup_(pce_freep) struct pce *pce = shape_of(cs);
        fr_t *w = NULL;
        size_t n = 0;
        uint64_t row;

        assert_int_equal(cs_witness_full(cs, &w, &n), 0);
        assert_int_equal(cs_pce_check(pce, w, n, &row), 0);
        free(w);
}

static void test_booleanity_row(void **state) {
        struct cs *cs = NULL;
        (void)state;

        assert_int_equal(cs_new(CS_CHECK, &cs), 0);
        struct cs_bool b = cs_bit_alloc(cs, true);
        assert_int_equal(b.kind, CS_BOOL_IS);
        assert_int_equal(cs_n_rows(cs), 1);
        struct pce *pce = shape_of(cs);
        /* (1 - v)·v = 0, aux 0 is column 1 */
        assert_row(pce, PCE_A, 0, (struct term[]){{0, 1}, {1, -1}}, 2);
        assert_row(pce, PCE_B, 0, (struct term[]){{1, 1}}, 1);
        assert_row(pce, PCE_C, 0, NULL, 0);
        /* the input row for ONE */
        assert_row(pce, PCE_A, 1, (struct term[]){{0, 1}}, 1);

        /* 2 is not a bit: its row fails. */
        fr_t w[2];
        uint64_t row;
        fr_set_one(&w[0]);
        fr_from_u64(&w[1], 2);
        assert_int_equal(cs_pce_check(pce, w, 2, &row), 1);
        assert_int_equal(row, 0);
        fr_set_zero(&w[1]);
        assert_int_equal(cs_pce_check(pce, w, 2, &row), 0);
        pce_free(pce);
        cs_free(cs);
}

static void test_xor_rows(void **state) {
        struct cs *cs = NULL;
        (void)state;

        assert_int_equal(cs_new(CS_CHECK, &cs), 0);
        struct cs_bool a = cs_bit_alloc(cs, true), b = cs_bit_alloc(cs, false);
        /* Is ^ Is: (2a)·b = a + b - c */
        struct cs_bool c = cs_bool_xor(cs, a, b);
        assert_true(c.kind == CS_BOOL_IS && c.value);
        /* Not a ^ Is b = Not(b ^ a): the Is operand first */
        struct cs_bool d = cs_bool_xor(cs, cs_bool_not(a), b);
        assert_true(d.kind == CS_BOOL_NOT && !d.value);
        /* constants fold */
        struct cs_bool e = cs_bool_xor(cs, cs_bool_constant(true), a);
        assert_true(e.kind == CS_BOOL_NOT && e.var == a.var && !e.value);
        struct cs_bool f = cs_bool_xor(cs, b, cs_bool_constant(false));
        assert_true(f.kind == CS_BOOL_IS && f.var == b.var);
        assert_int_equal(cs_n_rows(cs), 4);
        assert_int_equal(cs_n_aux(cs), 4);

        struct pce *pce = shape_of(cs);
        assert_row(pce, PCE_A, 2, (struct term[]){{1, 2}}, 1);
        assert_row(pce, PCE_B, 2, (struct term[]){{2, 1}}, 1);
        assert_row(pce, PCE_C, 2, (struct term[]){{1, 1}, {2, 1}, {3, -1}}, 3);
        assert_row(pce, PCE_A, 3, (struct term[]){{2, 2}}, 1);
        assert_row(pce, PCE_B, 3, (struct term[]){{1, 1}}, 1);
        assert_row(pce, PCE_C, 3, (struct term[]){{1, 1}, {2, 1}, {4, -1}}, 3);
        pce_free(pce);
        assert_satisfied(cs);
        cs_free(cs);
}

static void test_and_rows(void **state) {
        struct cs *cs = NULL;
        (void)state;

        assert_int_equal(cs_new(CS_CHECK, &cs), 0);
        struct cs_bool a = cs_bit_alloc(cs, true), b = cs_bit_alloc(cs, false);
        struct cs_bool x = cs_bool_and(cs, a, b);                           /* a·b = c */
        struct cs_bool y = cs_bool_and(cs, cs_bool_not(b), a);              /* and_not(a, b) */
        struct cs_bool z = cs_bool_and(cs, cs_bool_not(a), cs_bool_not(b)); /* nor */
        assert_true(!x.value && y.value && !z.value);
        assert_true(cs_bool_and(cs, a, cs_bool_constant(false)).kind == CS_BOOL_CONSTANT);
        assert_int_equal(cs_bool_and(cs, cs_bool_constant(true), b).var, b.var);
        assert_int_equal(cs_n_rows(cs), 5);

        struct pce *pce = shape_of(cs);
        assert_row(pce, PCE_A, 2, (struct term[]){{1, 1}}, 1);
        assert_row(pce, PCE_B, 2, (struct term[]){{2, 1}}, 1);
        assert_row(pce, PCE_C, 2, (struct term[]){{3, 1}}, 1);
        assert_row(pce, PCE_A, 3, (struct term[]){{1, 1}}, 1);
        assert_row(pce, PCE_B, 3, (struct term[]){{0, 1}, {2, -1}}, 2);
        assert_row(pce, PCE_A, 4, (struct term[]){{0, 1}, {1, -1}}, 2);
        assert_row(pce, PCE_B, 4, (struct term[]){{0, 1}, {2, -1}}, 2);
        assert_row(pce, PCE_C, 4, (struct term[]){{5, 1}}, 1);
        pce_free(pce);
        assert_satisfied(cs);
        cs_free(cs);
}

static struct cs_bool make_bool(struct cs *cs, int kind, bool value) {
        if (kind == CS_BOOL_CONSTANT)
                return cs_bool_constant(value);
        if (kind == CS_BOOL_IS)
                return cs_bit_alloc(cs, value);
        return cs_bool_not(cs_bit_alloc(cs, !value));
}

/* Rows ch/maj cost beyond the inputs' booleanity rows, by the reference's
 * match arms: a folded case costs one and-gate row unless it folds further. */
static void test_ch_maj_all_kinds(void **state) {
        (void)state;

        for (int combo = 0; combo < 27 * 8; combo++) {
                int ka = combo % 3, kb = combo / 3 % 3, kc = combo / 9 % 3;
                bool va = combo / 27 & 1, vb = combo / 54 & 1, vc = combo / 108 & 1;
                struct cs *cs = NULL;

                assert_int_equal(cs_new(CS_CHECK, &cs), 0);
                struct cs_bool a = make_bool(cs, ka, va), b = make_bool(cs, kb, vb),
                               c = make_bool(cs, kc, vc);
                uint64_t before = cs_n_rows(cs);
                struct cs_bool ch = cs_bool_sha256_ch(cs, a, b, c);
                uint64_t ch_rows = cs_n_rows(cs) - before;
                struct cs_bool maj = cs_bool_sha256_maj(cs, a, b, c);
                uint64_t maj_rows = cs_n_rows(cs) - before - ch_rows;

                assert_int_equal(ch.value, (va & vb) ^ (!va & vc));
                assert_int_equal(maj.value, (va & vb) ^ (va & vc) ^ (vb & vc));
                if (ka && kb && kc) {
                        /* no constant: one ch row; maj allocates maj then b and c */
                        assert_int_equal(ch_rows, 1);
                        assert_int_equal(maj_rows, 2);
                }
                if (!ka && !kb && !kc)
                        assert_true(ch_rows == 0 && maj_rows == 0 && ch.kind == CS_BOOL_CONSTANT);
                if (!ka && !va)
                        assert_int_equal(ch_rows, 0); /* ch = c */
                if (!ka && va && kb && kc)
                        assert_int_equal(ch_rows, 1); /* a true: the general row */
                assert_true(ch_rows <= 1 && maj_rows <= 2);
                assert_satisfied(cs);
                cs_free(cs);
        }
}

static void test_maj_row(void **state) {
        struct cs *cs = NULL;
        (void)state;

        assert_int_equal(cs_new(CS_CHECK, &cs), 0);
        struct cs_bool a = cs_bit_alloc(cs, true), b = cs_bit_alloc(cs, true),
                       c = cs_bit_alloc(cs, false);
        struct cs_bool maj = cs_bool_sha256_maj(cs, a, b, c);
        assert_true(maj.value && maj.var == 3);
        struct pce *pce = shape_of(cs);
        /* row 3: b·c = bc (aux 4, column 5); row 4: (2bc - b - c)·a = bc - maj */
        assert_row(pce, PCE_C, 3, (struct term[]){{5, 1}}, 1);
        assert_row(pce, PCE_A, 4, (struct term[]){{2, -1}, {3, -1}, {5, 2}}, 3);
        assert_row(pce, PCE_B, 4, (struct term[]){{1, 1}}, 1);
        assert_row(pce, PCE_C, 4, (struct term[]){{4, -1}, {5, 1}}, 2);
        pce_free(pce);
        assert_satisfied(cs);
        cs_free(cs);
}

/* addmany: result bits, one packed MultiEq row per 253 bits, lazily. */
static void test_addmany_multieq(void **state) {
        struct cs *cs = NULL;
        struct cs_multieq m;
        struct cs_u32 ops[3], sum;
        (void)state;

        assert_int_equal(cs_new(CS_CHECK, &cs), 0);
        cs_multieq_init(&m, cs);
        cs_u32_constant(&ops[0], 0xdeadbeef);
        cs_u32_constant(&ops[1], 0x12345678);
        cs_u32_addmany(&m, &sum, ops, 2);
        assert_int_equal(sum.value, 0xdeadbeefu + 0x12345678u);
        assert_int_equal(cs_n_rows(cs), 0); /* constants fold */

        for (unsigned i = 0; i < 32; i++)
                ops[2].bits[i] = cs_bit_alloc(cs, (0x9abcdef0u >> i) & 1);
        ops[2].value = 0x9abcdef0u;
        uint64_t rows = cs_n_rows(cs);
        /* 7 additions of 3 operands, 34 bits each: 7·34 = 238 < 254 fit one row */
        for (unsigned k = 0; k < 7; k++) {
                cs_u32_addmany(&m, &sum, ops, 3);
                assert_int_equal(sum.value, 0xdeadbeefu + 0x12345678u + 0x9abcdef0u);
        }
        assert_int_equal(cs_n_rows(cs), rows + 7 * 34);
        /* the 8th would reach 272: the pending row is emitted first */
        cs_u32_addmany(&m, &sum, ops, 3);
        assert_int_equal(cs_n_rows(cs), rows + 8 * 34 + 1);
        cs_multieq_finish(&m);
        assert_int_equal(cs_n_rows(cs), rows + 8 * 34 + 2);
        assert_satisfied(cs);
        cs_free(cs);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_booleanity_row), cmocka_unit_test(test_xor_rows),
                cmocka_unit_test(test_and_rows),       cmocka_unit_test(test_ch_maj_all_kinds),
                cmocka_unit_test(test_maj_row),        cmocka_unit_test(test_addmany_multieq),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
