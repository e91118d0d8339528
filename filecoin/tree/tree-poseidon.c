/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/tree/tree-poseidon.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/poseidon/poseidon.h"
#include "zk/big_alloc.h"

/* A Poseidon-8 hash is tens of microseconds: threads pay off early. */
#define TREE_POSEIDON_PARALLEL_NODES 64

void tree_shape_from_config(const struct porep_config *cfg, struct tree_shape *shape) {
        assert(cfg && shape);
        assert(cfg->base_arity == TREE_BASE_ARITY);

        *shape = (struct tree_shape){
                .base_count = porep_tree_base_count(cfg),
                .base_leaves = porep_tree_base_leaves(cfg),
                .sub_arity = cfg->sub_arity,
                .top_arity = cfg->top_arity,
        };
}

int tree_shape_levels(const struct tree_shape *s, unsigned arity[TREE_PATH_MAX_LEVELS]) {
        unsigned n = 0, above = 1;

        assert(s && arity);

        if (s->base_leaves == 0)
                return -EINVAL;
        for (uint64_t w = s->base_leaves; w > 1; w /= TREE_BASE_ARITY) {
                if (w % TREE_BASE_ARITY != 0 || n >= TREE_PATH_MAX_LEVELS - 2)
                        return -EINVAL;
                arity[n++] = TREE_BASE_ARITY;
        }
        if (s->sub_arity != 0) {
                if (s->sub_arity != TREE_BASE_ARITY)
                        return -EINVAL;
                arity[n++] = s->sub_arity;
                above *= s->sub_arity;
        }
        if (s->top_arity != 0) {
                /* neptune has no arity-1 node; Filecoin's top is binary. */
                if (s->sub_arity == 0 || s->top_arity != 2)
                        return -EINVAL;
                arity[n++] = s->top_arity;
                above *= s->top_arity;
        }
        return s->base_count == above ? (int)n : -EINVAL;
}

static int layout(struct poseidon_tree *t, const struct tree_shape *shape) {
        int n = tree_shape_levels(shape, t->arity);
        uint64_t width = shape->base_leaves * shape->base_count, at = 0;

        if (n < 0)
                return n;
        t->shape = *shape;
        t->n_levels = (unsigned)n;
        for (unsigned j = 0; j <= t->n_levels; j++) {
                t->level_nodes[j] = width;
                t->level_offset[j] = at;
                at += width;
                if (j < t->n_levels)
                        width /= t->arity[j];
        }
        t->n_nodes = at;
        return 0;
}

uint64_t poseidon_tree_node_count(const struct tree_shape *shape) {
        struct poseidon_tree t;

        assert(shape);
        return layout(&t, shape) < 0 ? 0 : t.n_nodes;
}

int poseidon_tree_init(struct poseidon_tree *t, const struct tree_shape *shape, fr_t *buffer) {
        int r;

        assert(t && shape);

        *t = (struct poseidon_tree){0};
        r = layout(t, shape);
        if (r < 0)
                return r;
        t->nodes = buffer;
        if (!buffer) {
                t->nodes = big_alloc(t->n_nodes * sizeof(fr_t));
                if (!t->nodes)
                        return -ENOMEM;
                t->owns_nodes = true;
        }
        return 0;
}

void poseidon_tree_done(struct poseidon_tree *t) {
        assert(t);

        if (t->owns_nodes)
                free(t->nodes);
        *t = (struct poseidon_tree){0};
}

void poseidon_tree_build(struct poseidon_tree *t) {
        assert(t && t->nodes);

        for (unsigned j = 0; j < t->n_levels; j++) {
                const struct poseidon_constants *c = poseidon_constants(t->arity[j]);
                const fr_t *children = &t->nodes[t->level_offset[j]];
                fr_t *parents = &t->nodes[t->level_offset[j + 1]];
                const unsigned arity = t->arity[j];
                const int64_t n = (int64_t)t->level_nodes[j + 1];

                /* Arities 2 and 8 always have constants, unless memory ran out. */
                if (!c)
                        abort();
#pragma omp parallel for schedule(static) if (n >= TREE_POSEIDON_PARALLEL_NODES)
                for (int64_t i = 0; i < n; i++)
                        poseidon_hash(c, &children[(uint64_t)i * arity], &parents[i]);
        }
}

void poseidon_tree_root(const struct poseidon_tree *t, fr_t *root) {
        assert(t && t->nodes);
        assert(root);

        *root = t->nodes[t->n_nodes - 1];
}

void poseidon_tree_root_bytes(const struct poseidon_tree *t, uint8_t root[32]) {
        fr_t x;

        poseidon_tree_root(t, &x);
        fr_to_le_bytes(root, &x);
}

int poseidon_tree_path(const struct poseidon_tree *t, uint64_t leaf, struct tree_path *path) {
        uint64_t at = leaf;

        assert(t && t->nodes);
        assert(path);

        if (leaf >= t->level_nodes[0])
                return -ERANGE;
        path->n_levels = t->n_levels;
        for (unsigned j = 0; j < t->n_levels; j++) {
                struct tree_path_element *e = &path->levels[j];
                const uint64_t first = at - at % t->arity[j];

                e->n_hashes = t->arity[j] - 1;
                e->index = at % t->arity[j];
                for (unsigned i = 0, s = 0; i < t->arity[j]; i++)
                        if (i != e->index)
                                fr_to_le_bytes(e->hashes[s++],
                                               &t->nodes[t->level_offset[j] + first + i]);
                at /= t->arity[j];
        }
        return 0;
}

int tree_comm_r(const uint8_t comm_c[32], const uint8_t comm_r_last[32], uint8_t comm_r[32]) {
        uint8_t pair[2][32];

        assert(comm_c && comm_r_last && comm_r);

        memcpy(pair[0], comm_c, 32);
        memcpy(pair[1], comm_r_last, 32);
        return poseidon_hash_bytes(2, (const uint8_t(*)[32])pair, comm_r);
}
