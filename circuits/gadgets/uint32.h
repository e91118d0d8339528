/* SPDX-License-Identifier: Apache-2.0 */
/*
 * 32-bit words of Booleans (bellperson 0.27 uint32.rs) and MultiEq
 * (multieq.rs), which packs the equalities of several additions into one
 * row lhs·ONE = rhs, each scaled by 2^bits_used. A row is emitted lazily:
 * when the next equality would reach Fr's capacity (254 bits), and by
 * cs_multieq_finish() (the reference's Drop).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "boolean.h"

struct cs_u32 {
        struct cs_bool bits[32]; /* least significant first */
        uint32_t value;
};

struct cs_multieq {
        struct cs *cs;
        unsigned bits_used;
        struct cs_lc lhs, rhs;
};

void cs_multieq_init(struct cs_multieq *m, struct cs *cs);
/* Emits the pending row, if any, and frees the combinations. */
void cs_multieq_finish(struct cs_multieq *m);
/* Makes room for an equality of n_bits (emitting the pending row when it
 * would not fit) and returns the shift 2^shift that equality gets. */
unsigned cs_multieq_reserve(struct cs_multieq *m, unsigned n_bits);

void cs_u32_constant(struct cs_u32 *r, uint32_t value);
/* bits[0] is the most significant. */
void cs_u32_from_bits_be(struct cs_u32 *r, const struct cs_bool bits[32]);
void cs_u32_to_bits_be(const struct cs_u32 *a, struct cs_bool bits[32]);
void cs_u32_rotr(struct cs_u32 *r, const struct cs_u32 *a, unsigned by);
void cs_u32_shr(struct cs_u32 *r, const struct cs_u32 *a, unsigned by);
void cs_u32_xor(struct cs *cs, struct cs_u32 *r, const struct cs_u32 *a, const struct cs_u32 *b);
void cs_u32_sha256_ch(struct cs *cs, struct cs_u32 *r, const struct cs_u32 *a,
                      const struct cs_u32 *b, const struct cs_u32 *c);
void cs_u32_sha256_maj(struct cs *cs, struct cs_u32 *r, const struct cs_u32 *a,
                       const struct cs_u32 *b, const struct cs_u32 *c);
/*
 * r = sum of ops[0..n) mod 2^32, 2 <= n <= 10: a constant when every bit
 * is, else bitlen(n·(2^32 - 1)) new bits with booleanity rows and one
 * equality through m. r may alias none of ops.
 */
void cs_u32_addmany(struct cs_multieq *m, struct cs_u32 *r, const struct cs_u32 *ops, size_t n);
