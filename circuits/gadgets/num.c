/* SPDX-License-Identifier: Apache-2.0 */
/* AllocatedNum, its bit decomposition and the packings, row for row. */
#include <assert.h>
#include <string.h>

#include "num.h"

struct cs_num cs_num_alloc(struct cs *cs, const fr_t *value) {
        assert(cs && value);
        return (struct cs_num){.var = cs_alloc_aux(cs, value), .value = *value};
}

struct cs_num cs_num_alloc_input(struct cs *cs, const fr_t *value) {
        assert(cs && value);
        return (struct cs_num){.var = cs_alloc_input(cs, value), .value = *value};
}

void cs_num_inputize(struct cs *cs, const struct cs_num *x) {
        cs_var input;
        struct cs_row *row;

        assert(cs && x);
        input = cs_alloc_input(cs, &x->value);
        row = cs_row_begin(cs);
        if (row) {
                cs_lc_add(cs, &row->a, input, cs_fr_one(cs));
                cs_lc_add(cs, &row->b, CS_ONE, cs_fr_one(cs));
                cs_lc_add(cs, &row->c, x->var, cs_fr_one(cs));
        }
        cs_row_end(cs);
}

void cs_num_enforce_equal(struct cs *cs, const struct cs_num *a, const struct cs_num *b) {
        struct cs_row *row;

        assert(cs && a && b);
        row = cs_row_begin(cs);
        if (row) {
                cs_lc_add(cs, &row->a, a->var, cs_fr_one(cs));
                cs_lc_add(cs, &row->b, CS_ONE, cs_fr_one(cs));
                cs_lc_add(cs, &row->c, b->var, cs_fr_one(cs));
        }
        cs_row_end(cs);
}

void cs_num_to_bits_le(struct cs *cs, const struct cs_num *x, struct cs_bool bits[CS_FR_NUM_BITS]) {
        uint8_t le[FR_BYTES];
        struct cs_row *row;

        assert(cs && x && bits);
        fr_to_le_bytes(le, &x->value);
        for (unsigned i = 0; i < CS_FR_NUM_BITS; i++)
                bits[i] = cs_bit_alloc(cs, (le[i / 8] >> (i % 8)) & 1);
        row = cs_row_begin(cs);
        if (row) {
                for (unsigned i = 0; i < CS_FR_NUM_BITS; i++)
                        cs_lc_add(cs, &row->c, bits[i].var, cs_fr_pow2(cs, i));
                cs_lc_sub(cs, &row->c, x->var, cs_fr_one(cs));
        }
        cs_row_end(cs);
}

/* The value Σ 2^i bit_i of at most 254 bits (always below r). */
static void packed_value(const struct cs_bool *bits, size_t n, fr_t *ret) {
        uint8_t le[FR_BYTES] = {0};
        bool ok;

        assert(n <= CS_FR_CAPACITY);
        for (size_t i = 0; i < n; i++)
                le[i / 8] |= (uint8_t)(bits[i].value << (i % 8));
        ok = fr_from_le_bytes(ret, le);
        assert(ok);
        (void)ok;
}

/* The row (Σ 2^i bit_i)·ONE = out. */
static void packing_row(struct cs *cs, const struct cs_bool *bits, size_t n, cs_var out) {
        struct cs_row *row = cs_row_begin(cs);

        if (row) {
                for (size_t i = 0; i < n; i++)
                        cs_lc_add_bool(cs, &row->a, bits[i], cs_fr_pow2(cs, (unsigned)i));
                cs_lc_add(cs, &row->b, CS_ONE, cs_fr_one(cs));
                cs_lc_add(cs, &row->c, out, cs_fr_one(cs));
        }
        cs_row_end(cs);
}

struct cs_num cs_pack_bits(struct cs *cs, const struct cs_bool *bits, size_t n) {
        struct cs_num num;
        fr_t value;

        assert(cs && (bits || n == 0));
        if (n > CS_FR_CAPACITY)
                n = CS_FR_CAPACITY;
        packed_value(bits, n, &value);
        num = cs_num_alloc(cs, &value);
        packing_row(cs, bits, n, num.var);
        return num;
}

void cs_pack_into_inputs(struct cs *cs, const struct cs_bool *bits, size_t n) {
        assert(cs && (bits || n == 0));
        for (size_t at = 0; at < n; at += CS_FR_CAPACITY) {
                size_t chunk = n - at < CS_FR_CAPACITY ? n - at : CS_FR_CAPACITY;
                fr_t value;
                cs_var input;

                packed_value(&bits[at], chunk, &value);
                input = cs_alloc_input(cs, &value);
                packing_row(cs, &bits[at], chunk, input);
        }
}

size_t cs_reverse_bit_numbering(const struct cs_bool *bits, size_t n, struct cs_bool *out) {
        size_t padded = (n + 7) / 8 * 8;

        assert((bits || n == 0) && out);
        for (size_t i = 0; i < padded; i++) {
                size_t from = i / 8 * 8 + (7 - i % 8);
                out[i] = from < n ? bits[from] : cs_bool_constant(false);
        }
        return padded;
}
