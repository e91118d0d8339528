/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Booleans as bellpepper-core 0.2 has them: a constant, an allocated bit
 * (Is) or its negation (Not), and the gates with the reference's constant
 * folding, case by case in its match order, so that rows and variables come
 * out in the same order. Every gate computes its value as it goes (the
 * witness), whatever the mode.
 */
#pragma once

#include <stdbool.h>

#include "circuits/cs/cs.h"

enum cs_bool_kind {
        CS_BOOL_CONSTANT,
        CS_BOOL_IS,
        CS_BOOL_NOT,
};

struct cs_bool {
        cs_var var; /* Is/Not only */
        uint8_t kind;
        bool value; /* the Boolean's value (for Not: the negated variable) */
};

static inline struct cs_bool cs_bool_constant(bool value) {
        return (struct cs_bool){.kind = CS_BOOL_CONSTANT, .value = value};
}

static inline bool cs_bool_is_constant(struct cs_bool b) {
        return b.kind == CS_BOOL_CONSTANT;
}

struct cs_bool cs_bool_not(struct cs_bool b);

/* AllocatedBit::alloc: a new aux v with the row (1 - v)·v = 0. */
struct cs_bool cs_bit_alloc(struct cs *cs, bool value);

/* lc += coeff·b: constant true is coeff·ONE, Not v is coeff·ONE - coeff·v. */
void cs_lc_add_bool(struct cs *cs, struct cs_lc *lc, struct cs_bool b, const fr_t *coeff);

/* Boolean::xor / and: at most one new variable and one row. */
struct cs_bool cs_bool_xor(struct cs *cs, struct cs_bool a, struct cs_bool b);
struct cs_bool cs_bool_and(struct cs *cs, struct cs_bool a, struct cs_bool b);
/* (a and b) xor (not a and c), and (a and b) xor (a and c) xor (b and c). */
struct cs_bool cs_bool_sha256_ch(struct cs *cs, struct cs_bool a, struct cs_bool b,
                                 struct cs_bool c);
struct cs_bool cs_bool_sha256_maj(struct cs *cs, struct cs_bool a, struct cs_bool b,
                                  struct cs_bool c);

/* Boolean::enforce_equal. Returns 0, or -EDOM for two unequal constants. */
int cs_bool_enforce_equal(struct cs *cs, struct cs_bool a, struct cs_bool b);
