/* SPDX-License-Identifier: Apache-2.0 */
/* Recomputing a root from a leaf and its inclusion path. */
#include "filecoin/tree/tree-path.h"

#include <assert.h>
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "filecoin/poseidon/poseidon.h"
#include "filecoin/sha256/sha256.h"

int tree_path_hash_level(bool poseidon, unsigned n_hashes, const uint8_t (*hashes)[32],
                         uint64_t index, uint8_t hash[32]) {
        uint8_t children[TREE_PATH_MAX_ARITY][32];
        unsigned arity = n_hashes + 1;

        assert(hashes && hash);

        if (n_hashes < 1 || arity > TREE_PATH_MAX_ARITY || index >= arity ||
            (!poseidon && arity != 2))
                return -EINVAL;
        for (unsigned i = 0, s = 0; i < arity; i++)
                memcpy(children[i], i == index ? hash : hashes[s++], 32);
        if (!poseidon) {
                sha254_pair(children[0], children[1], hash);
                return 0;
        }
        return poseidon_hash_bytes(arity, (const uint8_t(*)[32])children, hash) < 0 ? -EINVAL : 0;
}

static int path_root(const uint8_t leaf[32], const struct tree_path *path, bool poseidon,
                     uint8_t root[32], uint64_t *ret_node) {
        uint8_t hash[32];
        uint64_t node = 0, scale = 1;

        assert(leaf && path && root);

        if (path->n_levels > TREE_PATH_MAX_LEVELS)
                return -EINVAL;
        memcpy(hash, leaf, 32);
        for (unsigned j = 0; j < path->n_levels; j++) {
                const struct tree_path_element *e = &path->levels[j];
                int r = tree_path_hash_level(poseidon, e->n_hashes, (const uint8_t(*)[32])e->hashes,
                                             e->index, hash);

                if (r < 0)
                        return r;
                node += e->index * scale;
                scale *= e->n_hashes + 1;
        }
        memcpy(root, hash, 32);
        if (ret_node)
                *ret_node = node;
        return 0;
}

int tree_path_root_sha254(const uint8_t leaf[32], const struct tree_path *path, uint8_t root[32],
                          uint64_t *ret_node) {
        return path_root(leaf, path, false, root, ret_node);
}

int tree_path_root_poseidon(const uint8_t leaf[32], const struct tree_path *path, uint8_t root[32],
                            uint64_t *ret_node) {
        return path_root(leaf, path, true, root, ret_node);
}

static int verify(const uint8_t leaf[32], const struct tree_path *path, bool poseidon,
                  const uint8_t root[32]) {
        uint8_t got[32];
        int r;

        assert(root);

        r = path_root(leaf, path, poseidon, got, NULL);
        if (r < 0)
                return r;
        return memcmp(got, root, 32) == 0 ? 0 : -EBADMSG;
}

int merkle_sha254_verify(const uint8_t leaf[32], const struct tree_path *path,
                         const uint8_t root[32]) {
        return verify(leaf, path, false, root);
}

int merkle_poseidon_verify(const uint8_t leaf[32], const struct tree_path *path,
                           const uint8_t root[32]) {
        return verify(leaf, path, true, root);
}
