/* SPDX-License-Identifier: Apache-2.0 */
/* storage-proofs-core PoRCircuit::synthesize with the leaf and root given as
 * allocated nums (Root::Var, as StackedCircuit passes them). */
#include <assert.h>
#include <errno.h>

#include "common/log.h"
#include "insertion.h"
#include "por.h"
#include "poseidon.h"
#include "sha256-node.h"

/* Index bits one PoR can pack: enough for any Filecoin tree (tree D of a
 * 64 GiB sector has 31 levels). */
#define POR_MAX_INDEX_BITS 256u
#define POR_MAX_ARITY 8u

static const char *const path_names[] = {"base", "sub", "top"};

/* The paths proof's kind has: base, then sub, then top. */
static unsigned proof_paths(const struct c1_merkle_proof *proof, const struct c1_path *paths[3]) {
        paths[0] = &proof->base;
        paths[1] = &proof->sub;
        paths[2] = &proof->top;
        switch (proof->kind) {
        case C1_MERKLE_SINGLE:
                return 1;
        case C1_MERKLE_SUB:
                return 2;
        default:
                return 3;
        }
}

static unsigned log2_arity(unsigned arity) {
        return arity == 2 ? 1 : arity == 4 ? 2 : arity == 8 ? 3 : 0;
}

/* A level the hash has: arity 2 for SHA-256, 2, 4 or 8 for Poseidon (the
 * powers of two insert handles), the index below the arity, every sibling
 * an Fr repr below r. */
static int check_level(enum cs_por_hash hash, const struct c1_path_element *el, const char *path,
                       unsigned level) {
        unsigned arity = el->n_hashes + 1;
        fr_t v;

        if (hash == CS_POR_SHA256 ? arity != 2
                                  : log2_arity(arity) == 0 || !poseidon_constants(arity))
                return log_error_errno(-EINVAL, "PoR %s path level %u: arity %u, expected %s", path,
                                       level, arity, hash == CS_POR_SHA256 ? "2" : "2, 4 or 8");
        if (el->index >= arity)
                return log_error_errno(-EINVAL,
                                       "PoR %s path level %u: index %llu, expected below %u", path,
                                       level, (unsigned long long)el->index, arity);
        for (unsigned i = 0; i < el->n_hashes; i++)
                if (!fr_from_le_bytes(&v, el->hashes[i]))
                        return log_error_errno(-EINVAL,
                                               "PoR %s path level %u: sibling %u is not below r",
                                               path, level, i);
        return 0;
}

static int check_proof(enum cs_por_hash hash, const struct c1_merkle_proof *proof) {
        const struct c1_path *paths[3];
        unsigned n_paths = proof_paths(proof, paths), n_bits = 0;
        int r;

        for (unsigned p = 0; p < n_paths; p++)
                for (unsigned l = 0; l < paths[p]->n_elements; l++) {
                        const struct c1_path_element *el = &paths[p]->elements[l];
                        if ((r = check_level(hash, el, path_names[p], l)) < 0)
                                return r;
                        n_bits += log2_arity(el->n_hashes + 1);
                        if (n_bits > POR_MAX_INDEX_BITS)
                                return log_error_errno(-EINVAL, "PoR path: more than %u index bits",
                                                       POR_MAX_INDEX_BITS);
                }
        return 0;
}

/* SubPath::synthesize for one level: index bits, siblings, insert, hash. */
static void synthesize_level(struct cs *cs, enum cs_por_hash hash, const struct c1_path_element *el,
                             struct cs_num *cur, struct cs_bool *bits) {
        unsigned arity = el->n_hashes + 1, n_bits = log2_arity(arity);
        struct cs_num siblings[POR_MAX_ARITY - 1], inserted[POR_MAX_ARITY];

        for (unsigned i = 0; i < n_bits; i++)
                bits[i] = cs_bit_alloc(cs, (el->index >> i) & 1);
        for (unsigned i = 0; i < el->n_hashes; i++) {
                fr_t v;
                bool ok = fr_from_le_bytes(&v, el->hashes[i]);
                assert(ok); /* check_level */
                (void)ok;
                siblings[i] = cs_num_alloc(cs, &v);
        }
        cs_insert(cs, cur, bits, n_bits, siblings, inserted);
        if (hash == CS_POR_SHA256)
                *cur = cs_sha256_node(cs, &inserted[0], &inserted[1]);
        else
                *cur = cs_poseidon_hash(cs, poseidon_constants(arity), inserted);
}

int cs_por(struct cs *cs, enum cs_por_hash hash, const struct cs_num *leaf,
           const struct c1_merkle_proof *proof, const struct cs_num *root, bool public_root) {
        struct cs_bool bits[POR_MAX_INDEX_BITS];
        const struct c1_path *paths[3];
        unsigned n_paths, n_bits = 0;
        struct cs_num cur;
        int r;

        assert(cs && leaf && proof && root);
        assert(hash == CS_POR_SHA256 || hash == CS_POR_POSEIDON);

        if ((r = check_proof(hash, proof)) < 0)
                return r;
        n_paths = proof_paths(proof, paths);
        cur = *leaf;
        for (unsigned p = 0; p < n_paths; p++)
                for (unsigned l = 0; l < paths[p]->n_elements; l++) {
                        const struct c1_path_element *el = &paths[p]->elements[l];
                        synthesize_level(cs, hash, el, &cur, &bits[n_bits]);
                        n_bits += log2_arity(el->n_hashes + 1);
                }

        /* The index bits, lowest level first, are the leaf's node number. */
        cs_pack_into_inputs(cs, bits, n_bits);
        cs_num_enforce_equal(cs, &cur, root);
        if (public_root)
                cs_num_inputize(cs, root);
        return 0;
}
