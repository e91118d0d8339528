/* SPDX-License-Identifier: Apache-2.0 */
/* The rows of the synthetic circuit: shapes and terms (synthetic-internal.h). */
#include <assert.h>
#include <string.h>

#include "synthetic-internal.h"

/* Row mix, per mille, tuned so that terms per row match PoRep's. */
#define B_ELIGIBLE_PER_MILLE 262
#define OP_XOR_PER_MILLE 450
#define OP_AND_PER_MILLE 100
#define OP_ANDNOT_PER_MILLE 150 /* the rest of the boolean rows: choose */
#define OP_MUL_PER_MILLE 800    /* the rest of the field rows: packing */
#define PACK_BITS 8
/* Inputs come from the last WINDOW_BLOCKS blocks, 1 in FAR_ONE_IN from anywhere. */
#define WINDOW_BLOCKS 4
#define FAR_ONE_IN 16
#define PICK_TRIES 32
#define ROW_MAX_TERMS 16

/* A linear combination being built. */
struct lc {
        uint32_t col[ROW_MAX_TERMS];
        uint8_t id[ROW_MAX_TERMS];
        unsigned n;
};

static inline bool aux_in_b(const struct gen *g, uint64_t j) {
        struct rng r;
        rng_seed(&r, g->seed, STREAM_B_ELIGIBLE, j);
        return rng_per_mille(&r, B_ELIGIBLE_PER_MILLE);
}

enum need {
        NEED_BOOLEAN = 1 << 0,
        NEED_FIELD = 1 << 1,
        NEED_B = 1 << 2, /* one of the aux wires that may appear in B */
};

static bool aux_fits(const struct gen *g, uint64_t j, unsigned need) {
        if ((need & NEED_BOOLEAN) && !aux_is_boolean(g, j))
                return false;
        if ((need & NEED_FIELD) && aux_is_boolean(g, j))
                return false;
        return !(need & NEED_B) || aux_in_b(g, j);
}

/*
 * An input wire (its witness index) for a row of a block that may read the
 * aux wires below `avail`: mostly recent ones, some from anywhere, some
 * free ones. Falls back to the constant (boolean) or a public input.
 */
static uint32_t pick_wire(const struct gen *g, struct rng *r, uint64_t avail, unsigned need) {
        uint64_t window = (uint64_t)g->block * WINDOW_BLOCKS;
        bool have_free = g->n_aux > g->n_defined;

        for (unsigned t = 0; t < PICK_TRIES && (avail > 0 || have_free); t++) {
                uint64_t j;
                if (have_free && (avail == 0 || rng_below(r, FAR_ONE_IN) == 0))
                        j = g->n_defined + rng_below(r, g->n_aux - g->n_defined);
                else if (rng_below(r, FAR_ONE_IN) == 0 || avail <= window)
                        j = rng_below(r, avail);
                else
                        j = avail - window + rng_below(r, window);
                if (aux_fits(g, j, need))
                        return g->aux_base + (uint32_t)j;
        }
        if ((need & (NEED_BOOLEAN | NEED_B)) || g->n_public == 0)
                return 0;
        return 1 + (uint32_t)rng_below(r, g->n_public);
}

void synthetic_row_shape(const struct gen *g, uint64_t i, struct row_shape *ret) {
        struct rng r;
        unsigned pick;

        if (row_is_check(g, i)) {
                *ret = (struct row_shape){OP_CHECK, 2, 0};
                return;
        }
        rng_seed(&r, g->seed, STREAM_SHAPE, i);
        pick = (unsigned)rng_below(&r, 1000);
        if (aux_is_boolean(g, row_defines(g, i))) {
                if (pick < OP_XOR_PER_MILLE)
                        *ret = (struct row_shape){OP_XOR, 1, 3};
                else if (pick < OP_XOR_PER_MILLE + OP_AND_PER_MILLE)
                        *ret = (struct row_shape){OP_AND, 1, 1};
                else if (pick < OP_XOR_PER_MILLE + OP_AND_PER_MILLE + OP_ANDNOT_PER_MILLE)
                        *ret = (struct row_shape){OP_ANDNOT, 2, 1};
                else
                        *ret = (struct row_shape){OP_CHOOSE, 2, 2};
                return;
        }
        if (pick < OP_MUL_PER_MILLE) {
                /* 1 + 3.45 A terms and 1 + 1.35 C terms on average */
                unsigned extra_a = (unsigned)rng_below(&r, 7) + rng_per_mille(&r, 450);
                unsigned extra_c = (unsigned)rng_below(&r, 3) + rng_per_mille(&r, 350);
                *ret = (struct row_shape){OP_MUL, 1 + extra_a, 1 + extra_c};
                return;
        }
        *ret = (struct row_shape){OP_PACK, PACK_BITS, 1};
}

static void lc_add(struct lc *lc, uint32_t col, uint8_t id) {
        assert(lc->n < ROW_MAX_TERMS);
        lc->col[lc->n] = col;
        lc->id[lc->n] = id;
        lc->n++;
}

/* A coefficient for a multiplication row's extra A terms: +-1 mostly. */
static uint8_t mul_coeff_id(struct rng *r) {
        unsigned pick = (unsigned)rng_below(r, 10);
        if (pick < 6)
                return pick % 2 ? ID_MINUS_ONE : ID_ONE;
        if (pick < 8)
                return pick % 2 ? ID_MINUS_TWO : ID_THREE;
        return (uint8_t)(ID_CONST_FIRST + rng_below(r, N_CONSTS));
}

/*
 * The terms of row i (C's first term is the wire the row defines, if any)
 * for a row of a block that may read aux wires below avail.
 */
static void row_lcs(const struct gen *g, uint64_t i, const struct row_shape *shape, uint64_t avail,
                    struct lc lcs[PCE_N_MATRICES]) {
        struct lc *a = &lcs[PCE_A], *b = &lcs[PCE_B], *c = &lcs[PCE_C];
        struct rng r;
        uint32_t z = 0, primary = 0, x, y;

        rng_seed(&r, g->seed, STREAM_TERMS, i);
        if (shape->op != OP_CHECK) {
                uint64_t j = row_defines(g, i);
                z = g->aux_base + (uint32_t)j;
                if (j >= g->block)
                        primary = g->aux_base + (uint32_t)(j - g->block);
                else if (!aux_is_boolean(g, j) && g->n_public > 0)
                        primary = 1 + (uint32_t)rng_below(&r, g->n_public);
        }

        switch (shape->op) {
        case OP_CHECK: /* (1 - x) x = 0 */
                x = pick_wire(g, &r, avail, NEED_BOOLEAN | NEED_B);
                lc_add(a, 0, ID_ONE);
                lc_add(a, x, ID_MINUS_ONE);
                lc_add(b, x, ID_ONE);
                return;
        case OP_XOR: /* 2x y = x + y - z */
                y = pick_wire(g, &r, avail, NEED_BOOLEAN | NEED_B);
                lc_add(a, primary, ID_TWO);
                lc_add(b, y, ID_ONE);
                lc_add(c, z, ID_MINUS_ONE);
                lc_add(c, primary, ID_ONE);
                lc_add(c, y, ID_ONE);
                return;
        case OP_AND: /* x y = z */
                y = pick_wire(g, &r, avail, NEED_BOOLEAN | NEED_B);
                lc_add(a, primary, ID_ONE);
                lc_add(b, y, ID_ONE);
                lc_add(c, z, ID_ONE);
                return;
        case OP_ANDNOT: /* (1 - x) y = z */
                y = pick_wire(g, &r, avail, NEED_BOOLEAN | NEED_B);
                lc_add(a, 0, ID_ONE);
                lc_add(a, primary, ID_MINUS_ONE);
                lc_add(b, y, ID_ONE);
                lc_add(c, z, ID_ONE);
                return;
        case OP_CHOOSE: /* (x - u) y = z - u: z is x if y, else u */
                x = pick_wire(g, &r, avail, NEED_BOOLEAN);
                y = pick_wire(g, &r, avail, NEED_BOOLEAN | NEED_B);
                lc_add(a, primary, ID_ONE);
                lc_add(a, x, ID_MINUS_ONE);
                lc_add(b, y, ID_ONE);
                lc_add(c, z, ID_ONE);
                lc_add(c, x, ID_MINUS_ONE);
                return;
        case OP_MUL: /* (p + sum k_i s_i) y = z +- t_1 +- ... */
                lc_add(a, primary, ID_ONE);
                while (a->n < shape->n_a)
                        lc_add(a, pick_wire(g, &r, avail, 0), mul_coeff_id(&r));
                lc_add(b, pick_wire(g, &r, avail, NEED_FIELD | NEED_B), ID_ONE);
                lc_add(c, z, ID_ONE);
                while (c->n < shape->n_c)
                        lc_add(c, pick_wire(g, &r, avail, 0),
                               rng_below(&r, 2) ? ID_MINUS_ONE : ID_ONE);
                return;
        case OP_PACK: /* (p + 2 b_1 + 4 b_2 + ... + 128 b_7) 1 = z */
                lc_add(a, primary, ID_ONE);
                lc_add(a, pick_wire(g, &r, avail, NEED_BOOLEAN), ID_TWO);
                for (unsigned k = 0; a->n < PACK_BITS; k++)
                        lc_add(a, pick_wire(g, &r, avail, NEED_BOOLEAN),
                               (uint8_t)(ID_POW2_FIRST + k));
                lc_add(b, 0, ID_ONE);
                lc_add(c, z, ID_ONE);
                return;
        }
}

void synthetic_row_terms(const struct gen *g, uint64_t i) {
        const struct row_shape *shape = &g->shapes[i];
        struct lc lcs[PCE_N_MATRICES];

        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                lcs[k].n = 0;
        row_lcs(g, i, shape, defined_before(g, i - i % g->block), lcs);
        assert(lcs[PCE_A].n == shape->n_a && lcs[PCE_B].n == 1 && lcs[PCE_C].n == shape->n_c);
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                uint64_t at = g->row_start[k][i];
                memcpy(&g->col[k][at], lcs[k].col, lcs[k].n * sizeof(uint32_t));
                memcpy(&g->ids[k][at], lcs[k].id, lcs[k].n);
        }
}
