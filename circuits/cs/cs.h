/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A constraint system with bellperson's semantics, driven by one gadget code
 * for two jobs: recording the shape (the rows A·B = C, for a PCE) and
 * computing the witness (values only, no linear combination is built).
 * Both count rows and variables identically, so one synthesis in each mode
 * yields a PCE and a witness that belong together; CS_CHECK does both at once,
 * and CS_VERIFY checks each row as it goes without keeping it.
 *
 * Variables follow bellperson: input 0 is the constant ONE, inputs
 * 1..n_inputs come from cs_alloc_input(), aux variables from cs_alloc_aux()
 * are counted apart. The PCE column of aux j is 1 + n_inputs + j, with
 * n_inputs known only at the end (cs_to_pce() remaps).
 *
 * Linear combinations merge like bellpepper-core 0.2's: a term for a
 * variable already present adds its coefficient in place, and a coefficient
 * that becomes zero stays a term (it counts in nnz). A row's terms end up in
 * bellpepper's iteration order: inputs by index, then aux by index.
 *
 * Gadgets build a row only when cs_row_begin() returns one (shape modes):
 *
 *     struct cs_row *row = cs_row_begin(cs);
 *     if (row) {
 *             cs_lc_add(cs, &row->a, CS_ONE, cs_fr_one(cs));
 *             ...
 *     }
 *     cs_row_end(cs);
 *
 * Memory errors are sticky: the first one is kept (cs_error()), later calls
 * keep counting but store nothing, and cs_to_pce()/cs_witness_full() fail.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "circuits/pce.h"
#include "zk/fr.h"

enum cs_mode {
        CS_SHAPE = 1 << 0,   /* record rows (and which aux are bits) */
        CS_WITNESS = 1 << 1, /* record values */
        CS_CHECK = CS_SHAPE | CS_WITNESS,
        /* Each row evaluated as it is made, a·b == c on the values, and
         * forgotten: row-by-row checking of circuits whose PCE would not
         * fit in memory (a 32 GiB PoRep partition), the aux values held
         * densely (32 bytes each). See cs_first_unsatisfied(). */
        CS_VERIFY = CS_CHECK | (1 << 2),
};

/* A variable: bit 31 set for inputs (CS_ONE is input 0), else aux index. */
typedef uint32_t cs_var;
#define CS_VAR_INPUT 0x80000000u
#define CS_ONE CS_VAR_INPUT
#define CS_MAX_AUX CS_VAR_INPUT

/* Bits that always fit below Fr's modulus (bellperson's Fr::CAPACITY). */
#define CS_FR_CAPACITY 254u

struct cs_term {
        cs_var var;
        fr_t coeff;
};

struct cs_lc {
        struct cs_term *terms;
        uint32_t n, capacity;
};

struct cs_row {
        struct cs_lc a, b, c;
};

/*
 * The witness in compact form: the 0/1 aux (allocated as bits) as two
 * bitmaps, the other aux values densely in allocation order. Bitmaps have
 * pce_bitmap_words(n_aux) words.
 */
struct cs_witness {
        uint32_t n_inputs;       /* public inputs, ONE excluded */
        fr_t *inputs;            /* n_inputs + 1 values, inputs[0] = 1 */
        uint64_t n_aux;          /* all aux variables */
        uint64_t *aux_is_bit;    /* bit j: aux j holds 0 or 1 */
        uint64_t *aux_bit_value; /* bit j: that value (0 for the others) */
        uint64_t n_nums;         /* aux that are not bits */
        fr_t *nums;              /* their values, in allocation order */
};

struct cs;

/* Returns 0, -EINVAL (unknown mode) or -ENOMEM. */
int cs_new(enum cs_mode mode, struct cs **ret);
struct cs *cs_free(struct cs *cs);
static inline void cs_freep(struct cs **cs) {
        cs_free(*cs);
}

enum cs_mode cs_mode(const struct cs *cs);
/* CS_VERIFY: the first row whose a·b != c, UINT64_MAX when none (yet). */
uint64_t cs_first_unsatisfied(const struct cs *cs);
/* The first error (negative errno), 0 if none. */
int cs_error(const struct cs *cs);
uint64_t cs_n_rows(const struct cs *cs);   /* constraint rows, input rows excluded */
uint32_t cs_n_inputs(const struct cs *cs); /* ONE excluded */
uint64_t cs_n_aux(const struct cs *cs);

/* +1, -1 and 2^k (k < 256) in Montgomery form. */
const fr_t *cs_fr_one(const struct cs *cs);
const fr_t *cs_fr_minus_one(const struct cs *cs);
const fr_t *cs_fr_pow2(const struct cs *cs, unsigned k);

/* A new aux variable holding a 0/1 value (no row: see cs_bit_alloc()). */
cs_var cs_alloc_aux_bit(struct cs *cs, bool value);
/* A new aux variable holding any value. */
cs_var cs_alloc_aux(struct cs *cs, const fr_t *value);
cs_var cs_alloc_input(struct cs *cs, const fr_t *value);

/* lc += coeff·var (cs_lc_sub: -=). No-ops when nothing is recorded. */
void cs_lc_add(struct cs *cs, struct cs_lc *lc, cs_var var, const fr_t *coeff);
void cs_lc_sub(struct cs *cs, struct cs_lc *lc, cs_var var, const fr_t *coeff);
/* lc += scale·other. */
void cs_lc_add_scaled(struct cs *cs, struct cs_lc *lc, const struct cs_lc *other,
                      const fr_t *scale);
static inline void cs_lc_clear(struct cs_lc *lc) {
        lc->n = 0;
}
void cs_lc_done(struct cs_lc *lc);

/* The cleared scratch row to fill when the shape is recorded, else NULL. */
struct cs_row *cs_row_begin(struct cs *cs);
/* Appends the scratch row (or only counts it). */
void cs_row_end(struct cs *cs);
/* Appends a·b = c from caller-owned combinations (NULL: empty). */
void cs_enforce(struct cs *cs, const struct cs_lc *a, const struct cs_lc *b, const struct cs_lc *c);

/*
 * The recorded shape as a PCE with PCE_INPUT_ROWS (n_inputs + 1 rows
 * appended, as bellperson's prover does). Needs CS_SHAPE. Returns 0,
 * -EINVAL (no shape recorded, or too many rows/columns), a recorded error,
 * or -ENOMEM.
 */
int cs_to_pce(const struct cs *cs, struct pce **ret);

/* The compact witness (CS_WITNESS), owned by cs; NULL without values. */
const struct cs_witness *cs_witness(const struct cs *cs);
/*
 * Appends src's witness to dst's, as if src's synthesis had continued
 * dst's: its inputs after dst's inputs, its aux after dst's aux, its rows
 * counted. A circuit whose parts allocate disjoint variables (a PoRep
 * partition's challenges) computes them in parallel this way. Both need
 * CS_WITNESS alone. Returns 0, -EINVAL (a mode), a recorded error, -E2BIG
 * or -ENOMEM.
 */
int cs_witness_append(struct cs *dst, const struct cs *src);

/*
 * The compact witness as the PCE evaluator takes it (circuits/pce-compact.h),
 * pointing into cs (valid while cs lives); *ret_rank is the caller's to
 * free. Needs CS_WITNESS. Returns 0, -EINVAL, a recorded error or -ENOMEM.
 */
struct pce_compact_witness;
int cs_witness_compact(const struct cs *cs, struct pce_compact_witness *ret, uint64_t **ret_rank);

/*
 * The witness in PCE column order (ONE, inputs, aux), 1 + n_inputs + n_aux
 * values, malloc'ed. Returns 0, -EINVAL (no values recorded), a recorded
 * error or -ENOMEM.
 */
int cs_witness_full(const struct cs *cs, fr_t **ret, size_t *ret_n);

/*
 * Evaluates a·b == c row by row for witness w (n_vars >= n_cols values).
 * Returns 0 when every row holds, 1 with *ret_row = the first row that does
 * not, -EINVAL for a short witness, or -ENOMEM.
 */
int cs_pce_check(const struct pce *pce, const fr_t *w, size_t n_vars, uint64_t *ret_row);
