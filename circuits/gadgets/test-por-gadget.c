/* SPDX-License-Identifier: Apache-2.0 */
/*
 * circuits/gadgets/por (with insertion, poseidon and sha256-node): the
 * counts of storage-proofs-core tests/por_circuit.rs (root public: 272,295
 * for SHA-256 binary over 64 leaves, 1,063 Poseidon 8-ary over 64, 1,593
 * 8-8, 1,907 8-8-2; 3 inputs with ONE) on real trees built natively, the
 * packed path input equal to the leaf's node number, the computed root
 * equal to the native root, every row satisfied, the same rows for a blank
 * proof, and a changed sibling, index, leaf or root caught. Also insert
 * (insertion.rs): 2 rows for arity 2, 22 for arity 8, every index.
 *
 * por_circuit.rs allocates the root after the path (Root::Val); cs_por
 * takes it allocated (Root::Var, as StackedCircuit passes it), so here the
 * root is allocated before the path: the same rows and counts, one aux
 * moved.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/cs/cs.h"
#include "circuits/test-rng.h"
#include "circuits/test-shape.h"
#include "circuits/gadgets/insertion.h"
#include "circuits/gadgets/por.h"
#include "filecoin/tree/tree-d.h"
#include "filecoin/tree/tree-poseidon.h"

/* A random 32-byte Fr repr below 2^254 (a trimmed Sha256Domain, an Fr). */
static void fr_of(fr_t *out, const uint8_t repr[32]) {
        assert_true(fr_from_le_bytes(out, repr));
}

/* A tree of either kind, its leaves as reprs, and a way to its paths. */
struct test_tree {
        enum cs_por_hash hash;
        enum c1_merkle_kind kind;
        uint64_t leaves;
        uint8_t (*leaf)[32];
        uint8_t root[32];
        struct tree_d d;
        struct poseidon_tree p;
};

static void tree_build(struct test_tree *t, enum cs_por_hash hash, const struct tree_shape *shape) {
        memset(t, 0, sizeof(*t));
        t->hash = hash;
        if (hash == CS_POR_SHA256) {
                t->kind = C1_MERKLE_SINGLE;
                t->leaves = 64;
                assert_int_equal(tree_d_init(&t->d, t->leaves, NULL), 0);
                for (uint64_t i = 0; i < t->leaves; i++)
                        test_rng_repr(t->d.nodes[i]);
                tree_d_build(&t->d);
                tree_d_root(&t->d, t->root);
                t->leaf = t->d.nodes;
                return;
        }
        t->kind = shape->top_arity   ? C1_MERKLE_TOP
                  : shape->sub_arity ? C1_MERKLE_SUB
                                     : C1_MERKLE_SINGLE;
        t->leaves = shape->base_count * shape->base_leaves;
        assert_int_equal(poseidon_tree_init(&t->p, shape, NULL), 0);
        t->leaf = calloc(t->leaves, 32);
        assert_non_null(t->leaf);
        for (uint64_t i = 0; i < t->leaves; i++) {
                test_rng_repr(t->leaf[i]);
                fr_of(&t->p.nodes[i], t->leaf[i]);
        }
        poseidon_tree_build(&t->p);
        poseidon_tree_root_bytes(&t->p, t->root);
}

static void tree_done(struct test_tree *t) {
        if (t->hash == CS_POR_SHA256) {
                tree_d_done(&t->d);
                return;
        }
        free(t->leaf);
        poseidon_tree_done(&t->p);
}

/* The native path of leaf, checked natively (node number and root). */
static void tree_path(const struct test_tree *t, uint64_t leaf, struct tree_path *path) {
        uint8_t root[32];
        uint64_t node = 0;

        if (t->hash == CS_POR_SHA256) {
                assert_int_equal(tree_d_path(&t->d, leaf, path), 0);
                assert_int_equal(tree_path_root_sha254(t->leaf[leaf], path, root, &node), 0);
        } else {
                assert_int_equal(poseidon_tree_path(&t->p, leaf, path), 0);
                assert_int_equal(tree_path_root_poseidon(t->leaf[leaf], path, root, &node), 0);
        }
        assert_int_equal(node, leaf);
        assert_memory_equal(root, t->root, 32);
}

/* A C1 MerkleProof over path (its hashes shared): the last level is the
 * top path of a Top proof, the one below it the sub path. */
static void proof_from_path(enum c1_merkle_kind kind, struct tree_path *path,
                            const uint8_t leaf[32], const uint8_t root[32],
                            struct c1_path_element els[TREE_PATH_MAX_LEVELS],
                            struct c1_merkle_proof *proof) {
        unsigned upper = kind == C1_MERKLE_TOP ? 2 : kind == C1_MERKLE_SUB ? 1 : 0;
        unsigned n_base = path->n_levels - upper;

        memset(proof, 0, sizeof(*proof));
        proof->kind = kind;
        memcpy(proof->leaf, leaf, 32);
        memcpy(proof->root, root, 32);
        for (unsigned l = 0; l < path->n_levels; l++)
                els[l] = (struct c1_path_element){.n_hashes = path->levels[l].n_hashes,
                                                  .hashes = path->levels[l].hashes,
                                                  .index = path->levels[l].index};
        proof->base = (struct c1_path){.n_elements = n_base, .elements = els};
        if (upper >= 1)
                proof->sub = (struct c1_path){.n_elements = 1, .elements = &els[n_base]};
        if (upper == 2)
                proof->top = (struct c1_path){.n_elements = 1, .elements = &els[n_base + 1]};
}

/* The test's circuit: leaf and root allocated, the PoR with the root public. */
static void synthesize(struct cs *cs, enum cs_por_hash hash, const struct c1_merkle_proof *proof) {
        struct cs_num leaf, root;
        fr_t v;

        fr_of(&v, proof->leaf);
        leaf = cs_num_alloc(cs, &v);
        fr_of(&v, proof->root);
        root = cs_num_alloc(cs, &v);
        assert_int_equal(cs_por(cs, hash, &leaf, proof, &root, true), 0);
        assert_int_equal(cs_error(cs), 0);
}

static void witness_of(enum cs_por_hash hash, const struct c1_merkle_proof *proof, fr_t **w,
                       size_t *n) {
        struct cs *cs = NULL;

        assert_int_equal(cs_new(CS_WITNESS, &cs), 0);
        synthesize(cs, hash, proof);
        assert_int_equal(cs_witness_full(cs, w, n), 0);
        cs_free(cs);
}

/* 1 when some row of pce fails for proof's witness, 0 when all hold. */
static int unsatisfied(const struct pce *pce, enum cs_por_hash hash,
                       const struct c1_merkle_proof *proof) {
        fr_t *w = NULL;
        size_t n = 0;
        uint64_t row = 0;
        int r;

        witness_of(hash, proof, &w, &n);
        assert_int_equal(n, pce->n_cols);
        r = cs_pce_check(pce, w, n, &row);
        free(w);
        return r;
}

/* The shape of a blank proof: the same levels, every value zero. */
static struct pce *blank_shape(enum cs_por_hash hash, const struct tree_path *path,
                               enum c1_merkle_kind kind) {
        struct tree_path *blank = calloc(1, sizeof(*blank));
        struct c1_path_element els[TREE_PATH_MAX_LEVELS];
        struct c1_merkle_proof proof;
        static const uint8_t zero[32];
        struct cs *cs = NULL;
        struct pce *pce = NULL;

        assert_non_null(blank);
        blank->n_levels = path->n_levels;
        for (unsigned l = 0; l < path->n_levels; l++)
                blank->levels[l].n_hashes = path->levels[l].n_hashes;
        proof_from_path(kind, blank, zero, zero, els, &proof);
        assert_int_equal(cs_new(CS_SHAPE, &cs), 0);
        synthesize(cs, hash, &proof);
        assert_int_equal(cs_to_pce(cs, &pce), 0);
        cs_free(cs);
        free(blank);
        return pce;
}

/* The computed root: the last aux (the top hash; the packing allocates an
 * input, the root and leaf were allocated first). */
static const fr_t *computed_root(const fr_t *w, size_t n) {
        return &w[n - 1];
}

static void check_mutations(const struct pce *pce, enum cs_por_hash hash, struct tree_path *path,
                            struct c1_path_element *els, struct c1_merkle_proof *proof) {
        unsigned top = path->n_levels - 1;
        uint64_t index = els[0].index;
        fr_t *w = NULL, root;
        size_t n = 0;

        assert_int_equal(unsatisfied(pce, hash, proof), 0);

        /* A sibling of the top level (shared with the proof). */
        path->levels[top].hashes[0][0] ^= 1;
        assert_int_equal(unsatisfied(pce, hash, proof), 1);
        path->levels[top].hashes[0][0] ^= 1;

        /* Another index at the lowest level. */
        els[0].index = (index + 1) % (els[0].n_hashes + 1);
        assert_int_equal(unsatisfied(pce, hash, proof), 1);
        els[0].index = index;

        /* Another leaf: another computed root. */
        proof->leaf[0] ^= 1;
        assert_int_equal(unsatisfied(pce, hash, proof), 1);
        witness_of(hash, proof, &w, &n);
        fr_of(&root, proof->root);
        assert_false(fr_equal(computed_root(w, n), &root));
        free(w);
        proof->leaf[0] ^= 1;

        /* Another root. */
        proof->root[0] ^= 1;
        assert_int_equal(unsatisfied(pce, hash, proof), 1);
        proof->root[0] ^= 1;
}

static void check_leaf(const struct test_tree *t, uint64_t leaf, uint64_t expected_rows,
                       const struct pce *blank) {
        struct tree_path *path = calloc(1, sizeof(*path));
        struct c1_path_element els[TREE_PATH_MAX_LEVELS];
        struct c1_merkle_proof proof;
        const struct cs_witness *cw;
        struct cs *both = NULL;
        struct pce *pce = NULL;
        fr_t *w = NULL, *w2 = NULL, v;
        size_t n = 0, n2 = 0;
        uint64_t row = 0;

        assert_non_null(path);
        tree_path(t, leaf, path);
        proof_from_path(t->kind, path, t->leaf[leaf], t->root, els, &proof);

        assert_int_equal(cs_new(CS_CHECK, &both), 0);
        synthesize(both, t->hash, &proof);
        assert_int_equal(cs_n_rows(both), expected_rows);
        assert_int_equal(cs_n_inputs(both), 2); /* the path, the root */

        /* The packed path bits are the leaf's node number, as the verifier's
         * PoRCompound::generate_public_inputs gives it; then the root. */
        cw = cs_witness(both);
        fr_from_u64(&v, leaf);
        assert_true(fr_equal(&cw->inputs[1], &v));
        fr_of(&v, t->root);
        assert_true(fr_equal(&cw->inputs[2], &v));

        assert_int_equal(cs_witness_full(both, &w, &n), 0);
        assert_true(fr_equal(computed_root(w, n), &v));
        assert_int_equal(cs_to_pce(both, &pce), 0);
        assert_int_equal(pce->n_cols, n);
        assert_int_equal(cs_pce_check(pce, w, n, &row), 0);
        assert_same_shape(pce, blank);

        witness_of(t->hash, &proof, &w2, &n2);
        assert_int_equal(n2, n);
        assert_memory_equal(w, w2, n * sizeof(fr_t));

        check_mutations(pce, t->hash, path, els, &proof);

        free(w);
        free(w2);
        pce_free(pce);
        cs_free(both);
        free(path);
}

static void check_tree(enum cs_por_hash hash, const struct tree_shape *shape, uint64_t seed,
                       uint64_t leaf_step, uint64_t expected_rows) {
        struct tree_path *path = calloc(1, sizeof(*path));
        struct test_tree t;
        struct pce *blank;

        assert_non_null(path);
        test_rng_seed(seed);
        tree_build(&t, hash, shape);
        tree_path(&t, 0, path);
        blank = blank_shape(hash, path, t.kind);
        assert_int_equal(blank->n_rows, expected_rows + 3); /* + the input rows */
        printf("# %" PRIu64 " leaves: rows %" PRIu64 ", nnz A %llu B %llu C %llu\n", t.leaves,
               expected_rows, (unsigned long long)blank->m[PCE_A].n_terms,
               (unsigned long long)blank->m[PCE_B].n_terms,
               (unsigned long long)blank->m[PCE_C].n_terms);

        for (uint64_t leaf = 0; leaf < t.leaves; leaf += leaf_step)
                check_leaf(&t, leaf, expected_rows, blank);
        check_leaf(&t, t.leaves - 1, expected_rows, blank);

        pce_free(blank);
        tree_done(&t);
        free(path);
}

static void test_sha256_base_2(void **state) {
        (void)state;
        check_tree(CS_POR_SHA256, NULL, 1, 41, 272295);
}

static void test_poseidon_base_8(void **state) {
        const struct tree_shape shape = {.base_count = 1, .base_leaves = 64};
        (void)state;
        check_tree(CS_POR_POSEIDON, &shape, 2, 1, 1063);
}

static void test_poseidon_sub_8_8(void **state) {
        const struct tree_shape shape = {.base_count = 8, .base_leaves = 64, .sub_arity = 8};
        (void)state;
        check_tree(CS_POR_POSEIDON, &shape, 3, 29, 1593);
}

static void test_poseidon_top_8_8_2(void **state) {
        const struct tree_shape shape = {
                .base_count = 16, .base_leaves = 64, .sub_arity = 8, .top_arity = 2};
        (void)state;
        check_tree(CS_POR_POSEIDON, &shape, 4, 53, 1907);
}

/* Paths the hashes do not have are refused before any row. */
static void test_refusals(void **state) {
        uint8_t hashes[7][32] = {{0}};
        struct c1_path_element el = {.n_hashes = 2, .hashes = hashes, .index = 0};
        struct c1_merkle_proof proof = {.kind = C1_MERKLE_SINGLE,
                                        .base = {.n_elements = 1, .elements = &el}};
        struct cs_num leaf, root;
        struct cs *cs = NULL;
        fr_t zero = {{0}};
        (void)state;

        assert_int_equal(cs_new(CS_CHECK, &cs), 0);
        leaf = cs_num_alloc(cs, &zero);
        root = cs_num_alloc(cs, &zero);
        /* arity 3: neither hash has it */
        assert_int_equal(cs_por(cs, CS_POR_POSEIDON, &leaf, &proof, &root, false), -EINVAL);
        /* arity 8 is not SHA-256's */
        el.n_hashes = 7;
        assert_int_equal(cs_por(cs, CS_POR_SHA256, &leaf, &proof, &root, false), -EINVAL);
        /* an index beyond the arity */
        el.index = 8;
        assert_int_equal(cs_por(cs, CS_POR_POSEIDON, &leaf, &proof, &root, false), -EINVAL);
        /* a sibling not below r */
        el.index = 7;
        memset(hashes[3], 0xff, 32);
        assert_int_equal(cs_por(cs, CS_POR_POSEIDON, &leaf, &proof, &root, false), -EINVAL);
        assert_int_equal(cs_n_rows(cs), 0);
        assert_int_equal(cs_n_aux(cs), 2);
        /* and once all is well: 530 rows + pack + equality */
        hashes[3][31] = 0x0f;
        assert_int_equal(cs_por(cs, CS_POR_POSEIDON, &leaf, &proof, &root, false), 0);
        assert_int_equal(cs_n_rows(cs), 532);
        cs_free(cs);
}

/* insert_2/4/8 for every index: rows, and the element at its place. */
static void test_insert(void **state) {
        static const uint64_t picks[4] = {0, 2, 8, 22};
        (void)state;

        for (unsigned n_bits = 1; n_bits <= 3; n_bits++) {
                unsigned size = 1u << n_bits;
                for (unsigned index = 0; index < size; index++) {
                        struct cs_num element, siblings[7], out[8];
                        struct cs_bool bits[3];
                        struct cs *cs = NULL;
                        struct pce *pce = NULL;
                        fr_t v, *w = NULL;
                        size_t n = 0;
                        uint64_t row = 0, before;

                        assert_int_equal(cs_new(CS_CHECK, &cs), 0);
                        fr_from_u64(&v, 100);
                        element = cs_num_alloc(cs, &v);
                        for (unsigned i = 0; i < n_bits; i++)
                                bits[i] = cs_bit_alloc(cs, (index >> i) & 1);
                        for (unsigned i = 0; i + 1 < size; i++) {
                                fr_from_u64(&v, i + 1);
                                siblings[i] = cs_num_alloc(cs, &v);
                        }
                        before = cs_n_rows(cs);
                        cs_insert(cs, &element, bits, n_bits, siblings, out);
                        assert_int_equal(cs_n_rows(cs) - before, picks[n_bits]);
                        for (unsigned pos = 0; pos < size; pos++) {
                                uint64_t expected = pos < index    ? pos + 1
                                                    : pos == index ? 100
                                                                   : pos;
                                fr_from_u64(&v, expected);
                                assert_true(fr_equal(&out[pos].value, &v));
                        }
                        assert_int_equal(cs_to_pce(cs, &pce), 0);
                        assert_int_equal(cs_witness_full(cs, &w, &n), 0);
                        assert_int_equal(cs_pce_check(pce, w, n, &row), 0);
                        /* a wrong output is caught */
                        fr_add(&w[n - 1], &w[n - 1], cs_fr_one(cs));
                        assert_int_equal(cs_pce_check(pce, w, n, &row), 1);
                        free(w);
                        pce_free(pce);
                        cs_free(cs);
                }
        }
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_insert),
                cmocka_unit_test(test_refusals),
                cmocka_unit_test(test_poseidon_base_8),
                cmocka_unit_test(test_poseidon_sub_8_8),
                cmocka_unit_test(test_poseidon_top_8_8_2),
                cmocka_unit_test(test_sha256_base_2),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
