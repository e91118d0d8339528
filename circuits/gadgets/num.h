/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Field elements in the circuit (bellpepper-core's AllocatedNum) and the bit
 * conversions Filecoin's circuits use: to_bits_le (non-strict), bellperson's
 * multipack (pack_bits, pack_into_inputs) and storage-proofs-core's
 * reverse_bit_numbering.
 */
#pragma once

#include <stddef.h>

#include "boolean.h"

#define CS_FR_NUM_BITS 255u

struct cs_num {
        cs_var var;
        fr_t value;
};

struct cs_num cs_num_alloc(struct cs *cs, const fr_t *value);
struct cs_num cs_num_alloc_input(struct cs *cs, const fr_t *value);
/* A new input equal to x: the row input·ONE = x. */
void cs_num_inputize(struct cs *cs, const struct cs_num *x);

/* storage-proofs-core constraint::equal: the row a·ONE = b. */
void cs_num_enforce_equal(struct cs *cs, const struct cs_num *a, const struct cs_num *b);

/* 255 booleanity-checked bits, least significant first, and the row
 * 0·0 = Σ 2^i bit_i - x (no range check: the value may wrap). */
void cs_num_to_bits_le(struct cs *cs, const struct cs_num *x, struct cs_bool bits[CS_FR_NUM_BITS]);

/* A new aux num = Σ 2^i bit_i over the first min(n, 254) bits, with the
 * row (Σ 2^i bit_i)·ONE = num. */
struct cs_num cs_pack_bits(struct cs *cs, const struct cs_bool *bits, size_t n);
/* One new input per 254 bits, each with its packing row. */
void cs_pack_into_inputs(struct cs *cs, const struct cs_bool *bits, size_t n);

/* Pads to a multiple of 8 with constant false and reverses the bits inside
 * each byte; out holds (n + 7) / 8 * 8 entries. Returns that count. */
size_t cs_reverse_bit_numbering(const struct cs_bool *bits, size_t n, struct cs_bool *out);
