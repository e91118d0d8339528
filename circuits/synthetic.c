/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The synthetic PoRep-shaped circuit (synthetic.h; the layout of wires and
 * rows is in synthetic-internal.h). Four passes, each a function of the
 * seed alone: row shapes (the term counts), row terms, the seeded inputs,
 * then the defined wires' values, block after block.
 */
#include "synthetic.h"

#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "pce-internal.h"
#include "synthetic-internal.h"

#define BOOLEAN_WIRES_PER_MILLE 750
/* Blocks of n_cons / BLOCKS_PER_CIRCUIT rows, within these bounds: few
 * enough for the value pass's barriers to cost nothing, and the last block,
 * whose wires nothing reads, is 1/256 of them (PoRep: 0.3% outside A). */
#define BLOCKS_PER_CIRCUIT 256
#define BLOCK_MIN 16
#define BLOCK_MAX 16384

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

/* Shapes of all rows, and the terms of each matrix (input rows included). */
static void make_shapes(const struct gen *g, uint64_t n_terms[PCE_N_MATRICES]) {
        uint64_t n_a = 0, n_c = 0;

#pragma omp parallel for schedule(static, 4096) reduction(+ : n_a, n_c)
        for (uint64_t i = 0; i < g->n_cons; i++) {
                synthetic_row_shape(g, i, &g->shapes[i]);
                n_a += g->shapes[i].n_a;
                n_c += g->shapes[i].n_c;
        }
        n_terms[PCE_A] = n_a + g->n_public + 1;
        n_terms[PCE_B] = g->n_cons;
        n_terms[PCE_C] = n_c;
}

/* Row starts from the shapes; each input row is one A term. */
static void make_row_starts(const struct gen *g, uint32_t n_rows) {
        uint64_t at[PCE_N_MATRICES] = {0, 0, 0};

        for (uint64_t i = 0; i < n_rows; i++) {
                const struct row_shape *s = i < g->n_cons ? &g->shapes[i] : NULL;
                for (size_t k = 0; k < PCE_N_MATRICES; k++)
                        g->row_start[k][i] = at[k];
                at[PCE_A] += s ? s->n_a : 1;
                at[PCE_B] += s ? 1 : 0;
                at[PCE_C] += s ? s->n_c : 0;
        }
        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                g->row_start[k][n_rows] = at[k];
}

static void make_terms(const struct gen *g, uint32_t n_rows) {
#pragma omp parallel for schedule(static, 4096)
        for (uint64_t i = 0; i < g->n_cons; i++)
                synthetic_row_terms(g, i);

        /* Input row s: A = w[s]. */
        for (uint64_t i = g->n_cons; i < n_rows; i++) {
                uint64_t at = g->row_start[PCE_A][i];
                g->col[PCE_A][at] = (uint32_t)(i - g->n_cons);
                g->ids[PCE_A][at] = ID_ONE;
        }
}

/* Terms first .. end - 1 of matrix k at the witness. */
static void eval_terms(const struct gen *g, size_t k, uint64_t first, uint64_t end, fr_t *ret) {
        fr_t t;

        fr_set_zero(ret);
        for (uint64_t at = first; at < end; at++) {
                const fr_t *x = &g->w[g->col[k][at]];
                uint8_t id = g->ids[k][at];
                if (id == ID_ONE) {
                        fr_add(ret, ret, x);
                } else if (id == ID_MINUS_ONE) {
                        fr_sub(ret, ret, x);
                } else {
                        fr_mul(&t, &g->table[id], x);
                        fr_add(ret, ret, &t);
                }
        }
}

/* The wire row i defines, C's first term z (coefficient +-1), from
 * <A,w> <B,w> = +-z + <rest of C,w>. Check rows define nothing. */
static void solve_row(const struct gen *g, uint64_t i) {
        uint64_t c = g->row_start[PCE_C][i];
        fr_t a, b, rest, z;

        if (c == g->row_start[PCE_C][i + 1])
                return;
        eval_terms(g, PCE_A, g->row_start[PCE_A][i], g->row_start[PCE_A][i + 1], &a);
        eval_terms(g, PCE_B, g->row_start[PCE_B][i], g->row_start[PCE_B][i + 1], &b);
        eval_terms(g, PCE_C, c + 1, g->row_start[PCE_C][i + 1], &rest);
        fr_mul(&z, &a, &b);
        fr_sub(&z, &z, &rest);
        if (g->ids[PCE_C][c] == ID_MINUS_ONE)
                fr_neg(&z, &z);
        g->w[g->col[PCE_C][c]] = z;
}

static void make_values(const struct gen *g) {
#pragma omp parallel
        for (uint64_t s = 0; s < g->n_cons; s += g->block) {
                uint64_t end = s + g->block < g->n_cons ? s + g->block : g->n_cons;
                /* The implied barrier at the end of each block's loop makes
                 * its wires final before the next block reads them. */
#pragma omp for schedule(static)
                for (uint64_t i = s; i < end; i++)
                        solve_row(g, i);
        }
}

static uint32_t block_rows(uint32_t n_cons) {
        uint32_t block = BLOCK_MIN;
        while (block < BLOCK_MAX && (uint64_t)block * 2 * BLOCKS_PER_CIRCUIT <= n_cons)
                block *= 2;
        return block;
}

int synthetic_generate(const struct synthetic_params *params, struct pce **ret_pce,
                       fr_t **ret_witness) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_free_ uint8_t *kinds = NULL;
        _cleanup_free_ struct row_shape *shapes = NULL;
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
        shapes = malloc((size_t)g.n_cons * sizeof(*shapes));
        if (!pce || !w || !shapes)
                return -ENOMEM;
        g.w = w;
        g.shapes = shapes;
        make_shapes(&g, n_terms);
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

        make_row_starts(&g, p.n_rows);
        make_terms(&g, p.n_rows);
        seed_inputs(&g);
        make_values(&g);
        r = pce_compute_density(pce);
        if (r < 0)
                return r;

        *ret_pce = TAKE_PTR(pce);
        *ret_witness = TAKE_PTR(w);
        return 0;
}
