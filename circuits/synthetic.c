/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The synthetic PoRep-shaped circuit (synthetic.h).
 *
 * Wires: w[0] = 1, the publics, then aux wire j at w[aux_base + j]. With
 * more constraint rows than aux wires, the extra rows are boolean checks
 * spread evenly among the others; every other row i defines aux wire
 * def(i), in order. With more aux wires than rows, the last ones are free
 * inputs with seeded values.
 *
 * Rows are made in blocks of `block` rows. A row reads only wires defined
 * by earlier blocks (and the constant, publics and free wires), so the
 * rows of a block are independent: each computes its own wire from the
 * finished values. Whether aux wire j is boolean depends on j % block
 * only, and row i's first A term is wire def(i) - block (the "primary",
 * always from an earlier block and of the row's own kind): that puts
 * nearly every wire in A once, as in real circuits, where every allocated
 * value is used again.
 */
#include "synthetic.h"

#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "pce-internal.h"

/* Row mix, per mille, tuned so that terms per row match PoRep's. */
#define BOOLEAN_WIRES_PER_MILLE 750
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

struct row_shape {
        enum row_op op;
        unsigned n_a, n_c; /* every row has one B term */
};

/* A linear combination being built. */
struct lc {
        uint32_t col[ROW_MAX_TERMS];
        uint8_t id[ROW_MAX_TERMS];
        unsigned n;
};

struct gen {
        uint64_t seed;
        uint32_t n_cons, n_aux, n_public, aux_base;
        uint32_t n_defined; /* aux wires defined by rows: min(n_cons, n_aux) */
        uint64_t n_checks;  /* rows that define nothing */
        uint32_t block;
        uint8_t *wire_is_boolean; /* block entries, by j % block */
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
static void rng_fr(struct rng *r, fr_t *v) {
        for (size_t i = 0; i < FR_LIMBS; i++)
                v->l[i] = rng_next(r);
        v->l[FR_LIMBS - 1] &= UINT64_C(0x3fffffffffffffff);
}

int synthetic_params_resolve(struct synthetic_params *p) {
        uint64_t n_cons;

        assert(p);
        if (p->n_public == SYNTHETIC_DEFAULT)
                p->n_public = p->n_rows / 1024 < SYNTHETIC_POREP_PUBLIC ? p->n_rows / 1024
                                                                        : SYNTHETIC_POREP_PUBLIC;
        if ((uint64_t)p->n_public + 2 > p->n_rows)
                return -EINVAL;
        n_cons = p->n_rows - p->n_public - 1;
        if (p->n_aux == SYNTHETIC_DEFAULT)
                p->n_aux = (uint32_t)(n_cons - n_cons / 1024);
        if (p->n_aux == 0 || 1 + (uint64_t)p->n_public + p->n_aux > UINT32_MAX)
                return -EINVAL;
        return 0;
}

/* Check rows among rows 0 .. i - 1, spread evenly. */
static inline uint64_t checks_before(const struct gen *g, uint64_t i) {
        return (uint64_t)((unsigned __int128)i * g->n_checks / g->n_cons);
}

static inline bool row_is_check(const struct gen *g, uint64_t i) {
        return checks_before(g, i + 1) != checks_before(g, i);
}

/* The aux wire row i defines (rows that are not checks), and the number of
 * aux wires the rows before row s define. */
static inline uint64_t row_defines(const struct gen *g, uint64_t i) {
        return i - checks_before(g, i);
}

static inline uint64_t defined_before(const struct gen *g, uint64_t s) {
        return s - checks_before(g, s);
}

static inline bool aux_is_boolean(const struct gen *g, uint64_t j) {
        return g->wire_is_boolean[j % g->block];
}

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

static void row_shape(const struct gen *g, uint64_t i, struct row_shape *ret) {
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

static void lc_eval(const struct gen *g, const struct lc *lc, unsigned from, fr_t *ret) {
        fr_t t;

        fr_set_zero(ret);
        for (unsigned k = from; k < lc->n; k++) {
                const fr_t *x = &g->w[lc->col[k]];
                if (lc->id[k] == ID_ONE) {
                        fr_add(ret, ret, x);
                } else if (lc->id[k] == ID_MINUS_ONE) {
                        fr_sub(ret, ret, x);
                } else {
                        fr_mul(&t, &g->table[lc->id[k]], x);
                        fr_add(ret, ret, &t);
                }
        }
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
static void row_terms(const struct gen *g, uint64_t i, const struct row_shape *shape,
                      uint64_t avail, struct lc lcs[PCE_N_MATRICES]) {
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

/* Row i's terms into the CSR arrays, and the value of the wire it defines:
 * <A,w> <B,w> = <C,w> solved for C's first term, whose coefficient is +-1. */
static void make_row(const struct gen *g, uint64_t i, uint64_t avail) {
        struct lc lcs[PCE_N_MATRICES] = {0};
        struct row_shape shape;

        row_shape(g, i, &shape);
        row_terms(g, i, &shape, avail, lcs);
        assert(lcs[PCE_A].n == shape.n_a && lcs[PCE_B].n == 1 && lcs[PCE_C].n == shape.n_c);

        if (shape.op != OP_CHECK) {
                fr_t a, b, rest, z;
                lc_eval(g, &lcs[PCE_A], 0, &a);
                lc_eval(g, &lcs[PCE_B], 0, &b);
                lc_eval(g, &lcs[PCE_C], 1, &rest);
                fr_mul(&z, &a, &b);
                fr_sub(&z, &z, &rest);
                if (lcs[PCE_C].id[0] == ID_MINUS_ONE)
                        fr_neg(&z, &z);
                g->w[lcs[PCE_C].col[0]] = z;
        }
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                uint64_t at = g->row_start[k][i];
                memcpy(&g->col[k][at], lcs[k].col, lcs[k].n * sizeof(uint32_t));
                memcpy(&g->ids[k][at], lcs[k].id, lcs[k].n);
        }
}

/* Exactly 3/4 of the residues mod block are boolean, in seeded positions. */
static int make_kinds(struct gen *g) {
        uint32_t n_boolean = (uint32_t)((uint64_t)g->block * BOOLEAN_WIRES_PER_MILLE / 1000);
        struct rng r;

        g->wire_is_boolean = calloc(g->block, 1);
        if (!g->wire_is_boolean)
                return -ENOMEM;
        memset(g->wire_is_boolean, 1, n_boolean);
        rng_seed(&r, g->seed, STREAM_KINDS, 0);
        for (uint32_t k = g->block - 1; k > 0; k--) {
                uint32_t other = (uint32_t)rng_below(&r, (uint64_t)k + 1);
                uint8_t t = g->wire_is_boolean[k];
                g->wire_is_boolean[k] = g->wire_is_boolean[other];
                g->wire_is_boolean[other] = t;
        }
        return 0;
}

static void make_table(struct gen *g) {
        struct rng r;

        fr_set_one(&g->table[ID_ONE]);
        pce_minus_one(&g->table[ID_MINUS_ONE]);
        fr_from_u64(&g->table[ID_TWO], 2);
        fr_neg(&g->table[ID_MINUS_TWO], &g->table[ID_TWO]);
        for (unsigned k = 0; k < 6; k++)
                fr_from_u64(&g->table[ID_POW2_FIRST + k], UINT64_C(4) << k);
        fr_from_u64(&g->table[ID_THREE], 3);
        rng_seed(&r, g->seed, STREAM_CONSTS, 0);
        for (unsigned k = 0; k < N_CONSTS; k++)
                rng_fr(&r, &g->table[ID_CONST_FIRST + k]);
}

/* Row starts of the three matrices from the shapes, the input rows last. */
static void count_terms(const struct gen *g, uint32_t n_rows) {
#pragma omp parallel for schedule(static, 4096)
        for (uint64_t i = 0; i < g->n_cons; i++) {
                struct row_shape s;
                row_shape(g, i, &s);
                g->row_start[PCE_A][i + 1] = s.n_a;
                g->row_start[PCE_B][i + 1] = 1;
                g->row_start[PCE_C][i + 1] = s.n_c;
        }
        for (uint64_t i = g->n_cons; i < n_rows; i++) {
                g->row_start[PCE_A][i + 1] = 1;
                g->row_start[PCE_B][i + 1] = 0;
                g->row_start[PCE_C][i + 1] = 0;
        }
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                g->row_start[k][0] = 0;
                for (uint64_t i = 0; i < n_rows; i++)
                        g->row_start[k][i + 1] += g->row_start[k][i];
        }
}

/* Terms of each matrix, input rows included. */
static void count_all_terms(const struct gen *g, uint64_t ret[PCE_N_MATRICES]) {
        uint64_t n_a = 0, n_c = 0;

#pragma omp parallel for schedule(static, 4096) reduction(+ : n_a, n_c)
        for (uint64_t i = 0; i < g->n_cons; i++) {
                struct row_shape s;
                row_shape(g, i, &s);
                n_a += s.n_a;
                n_c += s.n_c;
        }
        ret[PCE_A] = n_a + g->n_public + 1;
        ret[PCE_B] = g->n_cons;
        ret[PCE_C] = n_c;
}

/* The constant, the publics and the free aux wires: seeded values. */
static void seed_inputs(const struct gen *g) {
        fr_set_one(&g->w[0]);
#pragma omp parallel for schedule(static, 4096)
        for (uint64_t k = 1; k < (uint64_t)g->aux_base + g->n_aux; k++) {
                struct rng r;
                uint64_t j = k - g->aux_base;
                if (k >= g->aux_base && j < g->n_defined)
                        continue;
                rng_seed(&r, g->seed, STREAM_VALUES, k);
                if (k >= g->aux_base && aux_is_boolean(g, j)) {
                        if (rng_below(&r, 2))
                                fr_set_one(&g->w[k]);
                        else
                                fr_set_zero(&g->w[k]);
                } else {
                        rng_fr(&r, &g->w[k]);
                }
        }
}

static void make_rows(const struct gen *g, uint32_t n_rows) {
#pragma omp parallel
        for (uint64_t s = 0; s < g->n_cons; s += g->block) {
                uint64_t end = s + g->block < g->n_cons ? s + g->block : g->n_cons;
                uint64_t avail = defined_before(g, s);
                /* The implied barrier at the end of each block's loop makes
                 * its wires final before the next block reads them. */
#pragma omp for schedule(static)
                for (uint64_t i = s; i < end; i++)
                        make_row(g, i, avail);
        }

        /* Input row s: A = w[s]. */
        for (uint64_t i = g->n_cons; i < n_rows; i++) {
                uint64_t at = g->row_start[PCE_A][i];
                g->col[PCE_A][at] = (uint32_t)(i - g->n_cons);
                g->ids[PCE_A][at] = ID_ONE;
        }
}

static uint32_t block_rows(uint32_t n_cons) {
        uint32_t block = 16;
        while (block < 4096 && (uint64_t)block * 2 * 256 <= n_cons)
                block *= 2;
        return block;
}

int synthetic_generate(const struct synthetic_params *params, struct pce **ret_pce,
                       fr_t **ret_witness) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_free_ uint8_t *kinds = NULL;
        _cleanup_free_ fr_t *w = NULL;
        struct synthetic_params p;
        struct gen g = {0};
        uint64_t n_terms[PCE_N_MATRICES];
        int r;

        assert(params);
        assert(ret_pce);
        assert(ret_witness);

        p = *params;
        r = synthetic_params_resolve(&p);
        if (r < 0)
                return r;

        g.seed = p.seed;
        g.n_public = p.n_public;
        g.n_cons = p.n_rows - p.n_public - 1;
        g.n_aux = p.n_aux;
        g.aux_base = 1 + p.n_public;
        g.n_defined = g.n_cons < g.n_aux ? g.n_cons : g.n_aux;
        g.n_checks = g.n_cons - g.n_defined;
        g.block = block_rows(g.n_cons);
        r = make_kinds(&g);
        kinds = g.wire_is_boolean;
        if (r < 0)
                return r;
        make_table(&g);

        pce = pce_new(p.n_rows, g.aux_base + g.n_aux, p.n_public, PCE_INPUT_ROWS);
        w = malloc(((size_t)g.aux_base + g.n_aux) * sizeof(fr_t));
        if (!pce || !w)
                return -ENOMEM;
        g.w = w;
        count_all_terms(&g, n_terms);
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                fr_t *values;
                void *ids;
                r = pce_matrix_alloc(pce, (enum pce_matrix_id)k, n_terms[k], N_IDS, &g.row_start[k],
                                     &g.col[k], &ids, &values);
                if (r < 0)
                        return r;
                assert(pce->m[k].id_bytes == 1);
                g.ids[k] = ids;
                memcpy(values, g.table, sizeof(g.table));
        }

        count_terms(&g, p.n_rows);
        seed_inputs(&g);
        make_rows(&g, p.n_rows);
        r = pce_compute_density(pce);
        if (r < 0)
                return r;

        *ret_pce = TAKE_PTR(pce);
        *ret_witness = TAKE_PTR(w);
        return 0;
}
