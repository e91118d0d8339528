/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The shape a registered proof fixes for its C1 output, allocated in one
 * block: a sizing pass and a filling pass walk the same shape, so a C1 of
 * 180 challenges costs one calloc() instead of ~30,000 small ones, and
 * c1_output_free() is one free().
 */
#include <assert.h>
#include <errno.h>
#include <stdalign.h>
#include <stdlib.h>

#include "filecoin/c1/c1-internal.h"
#include "filecoin/c1/c1.h"

void c1_tree_r_shape(const struct porep_config *cfg, struct c1_tree_shape *ret) {
        assert(cfg);
        assert(ret);

        *ret = (struct c1_tree_shape){
                .kind = cfg->top_arity   ? C1_MERKLE_TOP
                        : cfg->sub_arity ? C1_MERKLE_SUB
                                         : C1_MERKLE_SINGLE,
                .base_elements = porep_tree_base_levels(cfg),
                .base_hashes = cfg->base_arity - 1,
                .sub_hashes = cfg->sub_arity ? cfg->sub_arity - 1 : 0,
                .top_hashes = cfg->top_arity ? cfg->top_arity - 1 : 0,
        };
}

void c1_tree_d_shape(const struct porep_config *cfg, struct c1_tree_shape *ret) {
        assert(cfg);
        assert(ret);

        /* Tree D is a binary SHA-256 tree: one sibling per level. */
        *ret = (struct c1_tree_shape){
                .kind = C1_MERKLE_SINGLE, .base_elements = cfg->tree_d_depth, .base_hashes = 1};
}

/* A bump allocator over the block; with base NULL it only measures. */
struct shape_arena {
        uint8_t *base;
        size_t used;
};

static void *arena_take(struct shape_arena *a, size_t n_bytes) {
        size_t at = (a->used + alignof(max_align_t) - 1) & ~(alignof(max_align_t) - 1);

        a->used = at + n_bytes;
        return a->base ? a->base + at : NULL;
}

static void path_shape(struct shape_arena *a, struct c1_path *path, unsigned n_elements,
                       unsigned n_hashes) {
        struct c1_path_element *elements = arena_take(a, n_elements * sizeof(*elements));

        for (unsigned i = 0; i < n_elements; i++) {
                c1_domain *hashes = arena_take(a, n_hashes * sizeof(c1_domain));

                if (elements)
                        elements[i] =
                                (struct c1_path_element){.n_hashes = n_hashes, .hashes = hashes};
        }
        if (path)
                *path = (struct c1_path){.n_elements = n_elements, .elements = elements};
}

/* In the measuring pass the structs do not exist: scratch ones take the writes. */
static void merkle_shape(struct shape_arena *a, struct c1_merkle_proof *proof,
                         const struct c1_tree_shape *shape) {
        struct c1_merkle_proof scratch;

        if (!proof)
                proof = &scratch;
        proof->kind = shape->kind;
        path_shape(a, &proof->base, shape->base_elements, shape->base_hashes);
        if (shape->kind != C1_MERKLE_SINGLE)
                path_shape(a, &proof->sub, 1, shape->sub_hashes);
        if (shape->kind == C1_MERKLE_TOP)
                path_shape(a, &proof->top, 1, shape->top_hashes);
}

static void column_shape(struct shape_arena *a, struct c1_column_proof *col, unsigned layers,
                         const struct c1_tree_shape *tree_r) {
        c1_domain *rows = arena_take(a, layers * sizeof(c1_domain));

        if (col) {
                col->n_rows = layers;
                col->rows = rows;
        }
        merkle_shape(a, col ? &col->inclusion : NULL, tree_r);
}

static void labeling_shape(struct shape_arena *a, struct c1_labeling_proof *lp) {
        c1_domain *parents = arena_take(a, POREP_LABEL_PARENTS * sizeof(c1_domain));

        if (lp) {
                lp->n_parents = POREP_LABEL_PARENTS;
                lp->parents = parents;
        }
}

static void proof_shape(struct shape_arena *a, struct c1_vanilla_proof *p,
                        const struct porep_config *cfg) {
        struct c1_tree_shape tree_d, tree_r;
        struct c1_labeling_proof *labeling;

        c1_tree_d_shape(cfg, &tree_d);
        c1_tree_r_shape(cfg, &tree_r);
        merkle_shape(a, p ? &p->comm_d_proof : NULL, &tree_d);
        merkle_shape(a, p ? &p->comm_r_last_proof : NULL, &tree_r);
        column_shape(a, p ? &p->c_x : NULL, cfg->layers, &tree_r);
        for (unsigned i = 0; i < POREP_DRG_PARENTS; i++)
                column_shape(a, p ? &p->drg_parents[i] : NULL, cfg->layers, &tree_r);
        for (unsigned i = 0; i < POREP_EXP_PARENTS; i++)
                column_shape(a, p ? &p->exp_parents[i] : NULL, cfg->layers, &tree_r);
        labeling = arena_take(a, cfg->layers * sizeof(*labeling));
        for (unsigned i = 0; i < cfg->layers; i++)
                labeling_shape(a, labeling ? &labeling[i] : NULL);
        labeling_shape(a, p ? &p->encoding : NULL);
        if (p) {
                p->n_labeling = cfg->layers;
                p->labeling = labeling;
        }
}

static void output_shape(struct shape_arena *a, const struct porep_config *cfg) {
        struct c1_output *c1 = arena_take(a, sizeof(*c1));
        size_t n_proofs = (size_t)cfg->partitions * cfg->challenges_per_partition;
        struct c1_vanilla_proof *proofs = arena_take(a, n_proofs * sizeof(*proofs));

        for (size_t i = 0; i < n_proofs; i++)
                proof_shape(a, proofs ? &proofs[i] : NULL, cfg);
        if (c1)
                *c1 = (struct c1_output){.cfg = cfg,
                                         .n_partitions = cfg->partitions,
                                         .challenges_per_partition = cfg->challenges_per_partition,
                                         .proofs = proofs,
                                         .arena = a->base};
}

int c1_output_new(const struct porep_config *cfg, struct c1_output **ret) {
        struct shape_arena measure = {0}, fill = {0};

        assert(cfg);
        assert(ret);

        output_shape(&measure, cfg);
        fill.base = calloc(1, measure.used);
        if (!fill.base)
                return -ENOMEM;
        output_shape(&fill, cfg);
        assert(fill.used == measure.used);
        /* The struct is the block's first piece (offset 0). */
        *ret = (struct c1_output *)(void *)fill.base;
        return 0;
}

struct c1_output *c1_output_free(struct c1_output *c1) {
        if (c1)
                free(c1->arena);
        return NULL;
}
