/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/seal/sparse-tree.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/poseidon/poseidon.h"
#include "filecoin/sha256/sha256.h"

static int node_cmp(const void *a, const void *b) {
        uint64_t x = ((const struct sparse_tree_node *)a)->index;
        uint64_t y = ((const struct sparse_tree_node *)b)->index;

        return x < y ? -1 : x > y;
}

static const struct sparse_tree_node *find_node(const struct sparse_tree *t, unsigned level,
                                                uint64_t index) {
        struct sparse_tree_node key = {.index = index};

        return bsearch(&key, t->nodes[level], t->n_nodes[level], sizeof(key), node_cmp);
}

/* A filler is trim(SHA-256(key ‖ level ‖ index)): below 2^254, so a canonical
 * Fr for the Poseidon trees as well. */
static void filler(const struct sparse_tree *t, unsigned level, uint64_t index, uint8_t out[32]) {
        uint8_t msg[32 + 4 + 8];

        memcpy(msg, t->filler_key, 32);
        for (unsigned i = 0; i < 4; i++)
                msg[32 + i] = (uint8_t)(level >> (8 * i));
        for (unsigned i = 0; i < 8; i++)
                msg[36 + i] = (uint8_t)(index >> (8 * i));
        sha256_digest(msg, sizeof(msg), out);
        sha254_trim(out);
}

void sparse_tree_node_hash(const struct sparse_tree *t, unsigned level, uint64_t index,
                           uint8_t out[32]) {
        const struct sparse_tree_node *n = find_node(t, level, index);

        if (n)
                memcpy(out, n->hash, 32);
        else
                filler(t, level, index, out);
}

static void hash_children(const struct sparse_tree *t, unsigned arity,
                          const uint8_t (*children)[32], uint8_t out[32]) {
        if (t->hash == SPARSE_TREE_SHA254) {
                sha254_pair(children[0], children[1], out);
                return;
        }
        /* Fillers and hashes are canonical: poseidon_hash_bytes cannot refuse them. */
        if (poseidon_hash_bytes(arity, children, out) < 0)
                abort();
}

/* Level j + 1 from level j: one parent for each distinct index / arity. */
static int build_level(struct sparse_tree *t, unsigned j) {
        unsigned arity = t->arity[j];
        size_t n = 0;
        struct sparse_tree_node *up = calloc(t->n_nodes[j] ? t->n_nodes[j] : 1, sizeof(*up));

        if (!up)
                return -ENOMEM;
        for (size_t i = 0; i < t->n_nodes[j]; i++) {
                uint64_t parent = t->nodes[j][i].index / arity;
                uint8_t children[SPARSE_TREE_MAX_ARITY][32];

                if (n > 0 && up[n - 1].index == parent)
                        continue;
                for (unsigned c = 0; c < arity; c++)
                        sparse_tree_node_hash(t, j, parent * arity + c, children[c]);
                up[n].index = parent;
                hash_children(t, arity, (const uint8_t(*)[32])children, up[n].hash);
                n++;
        }
        t->nodes[j + 1] = up;
        t->n_nodes[j + 1] = n;
        return 0;
}

/* Sorts the leaves and drops repeats; -EINVAL when a repeat differs. */
static int unique_leaves(struct sparse_tree *t, const struct sparse_tree_node *leaves, size_t n) {
        struct sparse_tree_node *copy = malloc((n ? n : 1) * sizeof(*copy));
        size_t m = 0;

        if (!copy)
                return -ENOMEM;
        memcpy(copy, leaves, n * sizeof(*copy));
        qsort(copy, n, sizeof(*copy), node_cmp);
        for (size_t i = 0; i < n; i++) {
                if (m > 0 && copy[m - 1].index == copy[i].index) {
                        if (memcmp(copy[m - 1].hash, copy[i].hash, 32) != 0) {
                                free(copy);
                                return -EINVAL;
                        }
                        continue;
                }
                copy[m++] = copy[i];
        }
        t->nodes[0] = copy;
        t->n_nodes[0] = m;
        return 0;
}

int sparse_tree_build(struct sparse_tree *t, const struct sparse_tree_node *leaves, size_t n) {
        int r;

        assert(t);
        assert(leaves || n == 0);
        assert(t->n_levels <= SPARSE_TREE_MAX_LEVELS);

        memset(t->nodes, 0, sizeof(t->nodes));
        memset(t->n_nodes, 0, sizeof(t->n_nodes));
        r = unique_leaves(t, leaves, n);
        for (unsigned j = 0; r == 0 && j < t->n_levels; j++) {
                assert(t->arity[j] >= 2 && t->arity[j] <= SPARSE_TREE_MAX_ARITY);
                r = build_level(t, j);
        }
        if (r < 0)
                sparse_tree_free(t);
        return r;
}

void sparse_tree_free(struct sparse_tree *t) {
        if (!t)
                return;
        for (unsigned j = 0; j <= SPARSE_TREE_MAX_LEVELS; j++) {
                free(t->nodes[j]);
                t->nodes[j] = NULL;
                t->n_nodes[j] = 0;
        }
}

void sparse_tree_root(const struct sparse_tree *t, uint8_t out[32]) {
        assert(t);
        assert(out);
        sparse_tree_node_hash(t, t->n_levels, 0, out);
}

int sparse_tree_path(const struct sparse_tree *t, uint64_t leaf,
                     uint8_t (*siblings)[SPARSE_TREE_MAX_ARITY - 1][32], unsigned *index) {
        uint64_t at = leaf;

        assert(t);
        assert(siblings);
        assert(index);

        if (!find_node(t, 0, leaf))
                return -ENOENT;
        for (unsigned j = 0; j < t->n_levels; j++) {
                unsigned arity = t->arity[j], s = 0;
                uint64_t first = at / arity * arity;

                index[j] = (unsigned)(at % arity);
                for (unsigned c = 0; c < arity; c++)
                        if (first + c != at)
                                sparse_tree_node_hash(t, j, first + c, siblings[j][s++]);
                at /= arity;
        }
        return 0;
}
