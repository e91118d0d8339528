/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/vanilla/merkle-path.h"

#include <assert.h>
#include <errno.h>
#include <string.h>

#include "filecoin/tree/tree-path.h"

/* One level of arity: the children are the siblings with the current hash inserted at index. */
static int path_level(bool poseidon, unsigned arity, const struct c1_path_element *e,
                      uint8_t hash[32]) {
        if (e->n_hashes != arity - 1)
                return -EINVAL;
        return tree_path_hash_level(poseidon, e->n_hashes, (const uint8_t(*)[32])e->hashes,
                                    e->index, hash);
}

/* Folds the path's levels into hash and their indexes into *node (digits of
 * arity, lowest first, scaled by *scale). */
static int path_fold(unsigned arity, const struct c1_path *path, uint8_t hash[32], uint64_t *node,
                     uint64_t *scale) {
        for (uint32_t j = 0; j < path->n_elements; j++) {
                int r = path_level(true, arity, &path->elements[j], hash);

                if (r < 0)
                        return r;
                *node += path->elements[j].index * *scale;
                *scale *= arity;
        }
        return 0;
}

int merkle_path_root_poseidon(const struct porep_config *cfg, const struct c1_merkle_proof *proof,
                              uint8_t root[32], uint64_t *node) {
        uint64_t scale = 1;
        int r;

        assert(cfg);
        assert(proof);
        assert(root);
        assert(node);

        *node = 0;
        memcpy(root, proof->leaf, 32);
        r = path_fold(cfg->base_arity, &proof->base, root, node, &scale);
        if (r < 0)
                return r;
        if (proof->kind >= C1_MERKLE_SUB) {
                r = path_fold(cfg->sub_arity, &proof->sub, root, node, &scale);
                if (r < 0)
                        return r;
        }
        if (proof->kind == C1_MERKLE_TOP)
                r = path_fold(cfg->top_arity, &proof->top, root, node, &scale);
        return r;
}

int merkle_path_root_sha254(const struct c1_merkle_proof *proof, uint8_t root[32], uint64_t *node) {
        assert(proof);
        assert(root);
        assert(node);

        if (proof->kind != C1_MERKLE_SINGLE)
                return -EINVAL;
        *node = 0;
        memcpy(root, proof->leaf, 32);
        for (uint32_t j = 0; j < proof->base.n_elements; j++) {
                const struct c1_path_element *e = &proof->base.elements[j];
                int r = path_level(false, 2, e, root);

                if (r < 0)
                        return r;
                *node |= e->index << j;
        }
        return 0;
}
