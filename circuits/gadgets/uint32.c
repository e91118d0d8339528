/* SPDX-License-Identifier: Apache-2.0 */
/* UInt32 words and MultiEq, in bellperson's allocation and row order. */
#include <assert.h>

#include "uint32.h"

void cs_multieq_init(struct cs_multieq *m, struct cs *cs) {
        assert(m && cs);
        *m = (struct cs_multieq){.cs = cs};
}

/* The pending row lhs·ONE = rhs. */
static void multieq_emit(struct cs_multieq *m) {
        struct cs_term one = {.var = CS_ONE, .coeff = *cs_fr_one(m->cs)};
        struct cs_lc b = {.terms = &one, .n = 1, .capacity = 1};

        cs_enforce(m->cs, &m->lhs, &b, &m->rhs);
        cs_lc_clear(&m->lhs);
        cs_lc_clear(&m->rhs);
        m->bits_used = 0;
}

unsigned cs_multieq_reserve(struct cs_multieq *m, unsigned n_bits) {
        unsigned shift;

        assert(m);
        assert(n_bits < CS_FR_CAPACITY);

        if (m->bits_used + n_bits >= CS_FR_CAPACITY)
                multieq_emit(m);
        shift = m->bits_used;
        m->bits_used += n_bits;
        return shift;
}

void cs_multieq_finish(struct cs_multieq *m) {
        assert(m);
        if (m->bits_used > 0)
                multieq_emit(m);
        cs_lc_done(&m->lhs);
        cs_lc_done(&m->rhs);
}

void cs_u32_constant(struct cs_u32 *r, uint32_t value) {
        assert(r);
        for (unsigned i = 0; i < 32; i++)
                r->bits[i] = cs_bool_constant((value >> i) & 1);
        r->value = value;
}

void cs_u32_from_bits_be(struct cs_u32 *r, const struct cs_bool bits[32]) {
        assert(r && bits);
        r->value = 0;
        for (unsigned i = 0; i < 32; i++) {
                r->bits[i] = bits[31 - i];
                r->value |= (uint32_t)r->bits[i].value << i;
        }
}

void cs_u32_to_bits_be(const struct cs_u32 *a, struct cs_bool bits[32]) {
        assert(a && bits);
        for (unsigned i = 0; i < 32; i++)
                bits[i] = a->bits[31 - i];
}

void cs_u32_rotr(struct cs_u32 *r, const struct cs_u32 *a, unsigned by) {
        assert(r && a && r != a);
        by %= 32;
        for (unsigned i = 0; i < 32; i++)
                r->bits[i] = a->bits[(i + by) % 32];
        r->value = by ? (a->value >> by) | (a->value << (32 - by)) : a->value;
}

void cs_u32_shr(struct cs_u32 *r, const struct cs_u32 *a, unsigned by) {
        assert(r && a && r != a);
        by %= 32;
        for (unsigned i = 0; i < 32; i++)
                r->bits[i] = i + by < 32 ? a->bits[i + by] : cs_bool_constant(false);
        r->value = a->value >> by;
}

void cs_u32_xor(struct cs *cs, struct cs_u32 *r, const struct cs_u32 *a, const struct cs_u32 *b) {
        assert(cs && r && a && b);
        for (unsigned i = 0; i < 32; i++)
                r->bits[i] = cs_bool_xor(cs, a->bits[i], b->bits[i]);
        r->value = a->value ^ b->value;
}

void cs_u32_sha256_ch(struct cs *cs, struct cs_u32 *r, const struct cs_u32 *a,
                      const struct cs_u32 *b, const struct cs_u32 *c) {
        assert(cs && r && a && b && c);
        for (unsigned i = 0; i < 32; i++)
                r->bits[i] = cs_bool_sha256_ch(cs, a->bits[i], b->bits[i], c->bits[i]);
        r->value = (a->value & b->value) ^ (~a->value & c->value);
}

void cs_u32_sha256_maj(struct cs *cs, struct cs_u32 *r, const struct cs_u32 *a,
                       const struct cs_u32 *b, const struct cs_u32 *c) {
        assert(cs && r && a && b && c);
        for (unsigned i = 0; i < 32; i++)
                r->bits[i] = cs_bool_sha256_maj(cs, a->bits[i], b->bits[i], c->bits[i]);
        r->value = (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value);
}

/* Σ 2^(shift+j) op_j into m's lhs, Σ 2^(shift+i) r_i into its rhs. */
static void addmany_record(struct cs_multieq *m, unsigned shift, const struct cs_u32 *ops, size_t n,
                           const struct cs_bool *result, unsigned n_bits) {
        struct cs *cs = m->cs;

        for (size_t k = 0; k < n; k++)
                for (unsigned j = 0; j < 32; j++)
                        cs_lc_add_bool(cs, &m->lhs, ops[k].bits[j], cs_fr_pow2(cs, shift + j));
        for (unsigned i = 0; i < n_bits; i++)
                cs_lc_add(cs, &m->rhs, result[i].var, cs_fr_pow2(cs, shift + i));
}

void cs_u32_addmany(struct cs_multieq *m, struct cs_u32 *r, const struct cs_u32 *ops, size_t n) {
        struct cs_bool result[64];
        uint64_t sum = 0, max_value;
        bool all_constants = true;
        unsigned n_bits, shift;

        assert(m && r && ops);
        assert(n >= 2 && n <= 10);

        for (size_t k = 0; k < n; k++) {
                assert(r != &ops[k]);
                sum += ops[k].value;
                for (unsigned j = 0; j < 32; j++)
                        all_constants &= cs_bool_is_constant(ops[k].bits[j]);
        }
        if (all_constants) {
                cs_u32_constant(r, (uint32_t)sum);
                return;
        }

        max_value = (uint64_t)n * UINT32_MAX;
        n_bits = 64 - (unsigned)__builtin_clzll(max_value);
        for (unsigned i = 0; i < n_bits; i++)
                result[i] = cs_bit_alloc(m->cs, (sum >> i) & 1);

        shift = cs_multieq_reserve(m, n_bits);
        if (cs_mode(m->cs) & CS_SHAPE)
                addmany_record(m, shift, ops, n, result, n_bits);

        /* The carry bits are dropped. */
        for (unsigned i = 0; i < 32; i++)
                r->bits[i] = result[i];
        r->value = (uint32_t)sum;
}
