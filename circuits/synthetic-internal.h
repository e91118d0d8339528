/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What synthetic.c (sizes, witness values, the whole run) and
 * synthetic-rows.c (each row's shape and terms) share.
 *
 * Wires: w[0] = 1, the publics, then aux wire j at w[aux_base + j]. With
 * more constraint rows than aux wires, the extra rows are boolean checks
 * spread evenly among the others; every other row i defines aux wire
 * row_defines(i), in order. With more aux wires than rows, the last ones
 * are free inputs with seeded values.
 *
 * Rows come in blocks of `block` rows. A row reads only aux wires defined
 * by earlier blocks (besides the constant, the publics and free wires), so
 * the terms of every row can be chosen at once, and the values of a
 * block's wires computed in parallel once the earlier blocks are done.
 * Whether aux wire j is boolean depends on j % block only, and row i's
 * first A term is the wire defined one block earlier (the "primary", of
 * the row's own kind): that puts nearly every wire in A, as in real
 * circuits, where every allocated value is used again.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "pce.h"

/* Coefficient ids; each matrix has the whole table. */
enum {
        ID_ONE = PCE_COEFF_ID_ONE,
        ID_MINUS_ONE = PCE_COEFF_ID_MINUS_ONE,
        ID_TWO,
        ID_MINUS_TWO,
        ID_POW2_FIRST, /* 4, 8, ..., 128 */
        ID_THREE = ID_POW2_FIRST + 6,
        ID_CONST_FIRST, /* seeded field constants, like a hash's round constants */
        N_CONSTS = 8,
        N_IDS = ID_CONST_FIRST + N_CONSTS,
};

/* Seeded streams, so that no two uses of the seed collide. */
enum stream {
        STREAM_KINDS,
        STREAM_CONSTS,
        STREAM_B_ELIGIBLE,
        STREAM_VALUES,
        STREAM_SHAPE,
        STREAM_TERMS,
};

enum row_op { OP_CHECK, OP_XOR, OP_AND, OP_ANDNOT, OP_CHOOSE, OP_MUL, OP_PACK };

/* What a row is and how many terms it has in A and C (B: always one). */
struct row_shape {
        uint8_t op, n_a, n_c;
};

struct gen {
        uint64_t seed;
        uint32_t n_cons, n_aux, n_public, aux_base;
        uint32_t n_defined; /* aux wires defined by rows: min(n_cons, n_aux) */
        uint64_t n_checks;  /* rows that define nothing */
        uint32_t block;
        uint8_t *wire_is_boolean; /* block entries, by j % block */
        struct row_shape *shapes; /* n_cons */
        fr_t table[N_IDS];
        uint64_t *row_start[PCE_N_MATRICES];
        uint32_t *col[PCE_N_MATRICES];
        uint8_t *ids[PCE_N_MATRICES];
        fr_t *w;
};

/* splitmix64: a counter-based generator, seeded per row, wire or stream. */
struct rng {
        uint64_t s;
};

static inline uint64_t mix64(uint64_t z) {
        z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
        z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
        return z ^ (z >> 31);
}

static inline void rng_seed(struct rng *r, uint64_t seed, enum stream stream, uint64_t index) {
        r->s = mix64(seed ^ mix64(((uint64_t)stream << 56) ^ index));
}

static inline uint64_t rng_next(struct rng *r) {
        r->s += UINT64_C(0x9e3779b97f4a7c15);
        return mix64(r->s);
}

static inline uint64_t rng_below(struct rng *r, uint64_t n) {
        return (uint64_t)(((unsigned __int128)rng_next(r) * n) >> 64);
}

static inline bool rng_per_mille(struct rng *r, unsigned per_mille) {
        return rng_below(r, 1000) < per_mille;
}

/* A uniform-looking element below 2^254 < r, taken as a Montgomery form. */
static inline void rng_fr(struct rng *r, fr_t *v) {
        for (size_t i = 0; i < FR_LIMBS; i++)
                v->l[i] = rng_next(r);
        v->l[FR_LIMBS - 1] &= UINT64_C(0x3fffffffffffffff);
}

/* Check rows among rows 0 .. i - 1, spread evenly. */
static inline uint64_t checks_before(const struct gen *g, uint64_t i) {
        return (uint64_t)((unsigned __int128)i * g->n_checks / g->n_cons);
}

static inline bool row_is_check(const struct gen *g, uint64_t i) {
        return checks_before(g, i + 1) != checks_before(g, i);
}

/* The aux wire row i defines (if not a check), and the number of aux wires
 * the rows before row s define. */
static inline uint64_t row_defines(const struct gen *g, uint64_t i) {
        return i - checks_before(g, i);
}

static inline uint64_t defined_before(const struct gen *g, uint64_t s) {
        return s - checks_before(g, s);
}

static inline bool aux_is_boolean(const struct gen *g, uint64_t j) {
        return g->wire_is_boolean[j % g->block];
}

/* Row i's shape, a function of the seed and i. */
void synthetic_row_shape(const struct gen *g, uint64_t i, struct row_shape *ret);

/* Row i's terms into the CSR arrays at its row starts: C's first term is
 * the wire the row defines (coefficient +-1), if it defines one. */
void synthetic_row_terms(const struct gen *g, uint64_t i);
