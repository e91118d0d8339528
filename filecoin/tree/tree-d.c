/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/tree/tree-d.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/sha256/sha256.h"
#include "zk/big_alloc.h"

/* Levels narrower than this are hashed by one thread: the fork costs more. */
#define TREE_D_PARALLEL_NODES 4096

static bool is_power_of_two(uint64_t x) {
        return x != 0 && (x & (x - 1)) == 0;
}

uint64_t tree_d_node_count(uint64_t leaves) {
        assert(leaves >= 1);
        return 2 * leaves - 1;
}

int tree_d_init(struct tree_d *t, uint64_t leaves, uint8_t (*buffer)[32]) {
        assert(t);

        *t = (struct tree_d){0};
        /* 2^40 leaves would already be 64 TiB of nodes. */
        if (!is_power_of_two(leaves) || leaves > (UINT64_C(1) << 40))
                return -EINVAL;
        t->leaves = leaves;
        t->depth = (unsigned)__builtin_ctzll(leaves);
        t->nodes = buffer;
        if (!buffer) {
                t->nodes = big_alloc(tree_d_node_count(leaves) * 32);
                if (!t->nodes)
                        return -ENOMEM;
                t->owns_nodes = true;
        }
        return 0;
}

void tree_d_done(struct tree_d *t) {
        assert(t);

        if (t->owns_nodes)
                free(t->nodes);
        *t = (struct tree_d){0};
}

void tree_d_build(struct tree_d *t) {
        uint64_t below = 0, width;

        assert(t && t->nodes);

        width = t->leaves;
        while (width > 1) {
                uint8_t(*children)[32] = &t->nodes[below];
                uint8_t(*parents)[32] = &t->nodes[below + width];
                int64_t n = (int64_t)(width / 2);

#pragma omp parallel for schedule(static) if (n >= TREE_D_PARALLEL_NODES)
                for (int64_t i = 0; i < n; i++)
                        sha254_pair(children[2 * i], children[2 * i + 1], parents[i]);
                below += width;
                width /= 2;
        }
}

int tree_d_build_from_data(struct tree_d *t, const void *data, uint64_t bytes) {
        int r;

        assert(t);
        assert(data);

        if (bytes % 32 != 0)
                return -EINVAL;
        r = tree_d_init(t, bytes / 32, NULL);
        if (r < 0)
                return r;
        memcpy(t->nodes, data, bytes);
        tree_d_build(t);
        return 0;
}

void tree_d_root(const struct tree_d *t, uint8_t root[32]) {
        assert(t && t->nodes);
        assert(root);

        memcpy(root, t->nodes[tree_d_node_count(t->leaves) - 1], 32);
}

int tree_d_path(const struct tree_d *t, uint64_t leaf, struct tree_path *path) {
        uint64_t below = 0, width, at = leaf;

        assert(t && t->nodes);
        assert(path);

        width = t->leaves;
        if (leaf >= t->leaves)
                return -ERANGE;
        path->n_levels = t->depth;
        for (unsigned j = 0; j < t->depth; j++) {
                struct tree_path_element *e = &path->levels[j];

                e->n_hashes = 1;
                e->index = at & 1;
                memcpy(e->hashes[0], t->nodes[below + (at ^ 1)], 32);
                below += width;
                width /= 2;
                at /= 2;
        }
        return 0;
}

int tree_d_zero_comm_d(uint64_t sector_bytes, uint8_t comm_d[32]) {
        uint8_t node[32] = {0};

        assert(comm_d);

        if (!is_power_of_two(sector_bytes) || sector_bytes < 32)
                return -EINVAL;
        for (uint64_t width = sector_bytes / 32; width > 1; width /= 2)
                sha254_pair(node, node, node);
        memcpy(comm_d, node, 32);
        return 0;
}
