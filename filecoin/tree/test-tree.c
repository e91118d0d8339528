/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filecoin/tree: zero-data comm_d (go-commp-utils), curio's one-byte tree D
 * roots (lib/proof/treed_build_test.go) and its 32 GiB tree-R top
 * (lib/proof/tree_r_last_comm_test.go), comm_r, and every path of small
 * random trees verifying, then failing after one changed bit.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/hex.h"
#include "filecoin/poseidon/poseidon.h"
#include "filecoin/tree/tree-d.h"
#include "filecoin/tree/tree-poseidon.h"

static void from_hex(uint8_t out[32], const char *hex) {
        assert_int_equal(hex_decode(hex, 32, out, NULL), 0);
}

static void test_zero_comm_d(void **state) {
        static const struct {
                uint64_t bytes;
                const char *comm_d;
        } sizes[] = {
                {UINT64_C(2) << 10,
                 "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833"},
                {UINT64_C(8) << 20,
                 "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c"},
                {UINT64_C(512) << 20,
                 "39560e7b13a93b07a243fd2720ffa7cb3e1d2e505ab3629e79f46313512cda06"},
                {UINT64_C(32) << 30,
                 "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e"},
                {UINT64_C(64) << 30,
                 "e64005a6bfe3777953b8ad6ef93f0fca1049b2041654f2a411f7702799cece02"},
        };
        uint8_t got[32], expected[32];
        (void)state;

        for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
                from_hex(expected, sizes[i].comm_d);
                assert_int_equal(tree_d_zero_comm_d(sizes[i].bytes, got), 0);
                assert_memory_equal(got, expected, 32);
                /* One size bit more is another tree. */
                assert_int_equal(tree_d_zero_comm_d(sizes[i].bytes << 1, got), 0);
                assert_memory_not_equal(got, expected, 32);
        }
        assert_int_equal(tree_d_zero_comm_d(3 << 10, got), -EINVAL);
        assert_int_equal(tree_d_zero_comm_d(16, got), -EINVAL);
}

/* A built 2 KiB zero tree, and curio's treed_build_test.go with data[0] = 1. */
static void check_tree_d_root(uint64_t bytes, uint8_t first_byte, const char *root_hex) {
        uint8_t *data = calloc(bytes, 1), root[32], expected[32];
        struct tree_d t;

        assert_non_null(data);
        data[0] = first_byte;
        assert_int_equal(tree_d_build_from_data(&t, data, bytes), 0);
        assert_int_equal(t.depth, __builtin_ctzll(bytes / 32));
        tree_d_root(&t, root);
        from_hex(expected, root_hex);
        assert_memory_equal(root, expected, 32);
        tree_d_done(&t);

        data[0] ^= 2;
        assert_int_equal(tree_d_build_from_data(&t, data, bytes), 0);
        tree_d_root(&t, root);
        assert_memory_not_equal(root, expected, 32);
        tree_d_done(&t);
        free(data);
}

static void test_tree_d_roots(void **state) {
        (void)state;

        check_tree_d_root(2048, 0,
                          "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833");
        check_tree_d_root(2048, 1,
                          "ea995c54784720b449fc92b070adb6cf6635c2619a7a5e0054a24e88f252ec0d");
        check_tree_d_root(UINT64_C(8) << 20, 1,
                          "23404a8880f9cbc72039cb8614359c2834845570fe95190bbd4d934142e8252c");
}

/* The 8 tree-r-last roots of curio's tree_r_last_comm_test.go (its hexdump
 * of u16 words turned into bytes), p_aux's comm_c and comm_r_last. */
static const char *const golden_roots[8] = {
        "924a00c61658322995d9fc493f8aec72365b30a50197e59537df246ca39ffd1b",
        "d7958d6ff26877091592ea9b51de5ca3b0ad57af34fefd102291a4db1aec543a",
        "fafb11646c07d01cbf63facc266b46dd1ab00cd3e30560ef18cf50fd40f32d73",
        "dcb8d1b4bd3e672ad98c29e5cd05dc2e09a76ef00883a487e163fe4e719fe663",
        "d846e93787fe6c14f26f49ee610f434d021cc0d1ada562695e08af4d5af63357",
        "5aaef4e9777d3b31d74dad2075ddd584578c9379e7ef38152cc919fa27d1c629",
        "406728684d7fc85e050f31db99752b552a2f9d608709f0eaa2d6c66afc96e46b",
        "9cb01c337f13b4bbf4a4ae0296bdd927dbb52479e8875bd31374c9e567735f2c",
};
#define GOLDEN_COMM_C "9941e59d24a2a05877558ac5fa1aab256bd12a3e88ef51ee79f58b8d80adb94e"
#define GOLDEN_COMM_R_LAST "f56b7f7f318d88ac4d72e5d94efd7de7f1df501b98b01a8564fa4cb4983b9e4b"
#define ESTIMATED_COMM_R "df691086e3c673c95a45908713d4c5938e5ced43f21b888bd9bc6e181c9f326b"

/* The 8-8-0 top: 8 base trees reduced to their roots (base_leaves 1). */
static void golden_top(bool flip_a_bit, uint8_t comm_r_last[32]) {
        const struct tree_shape shape = {.base_count = 8, .base_leaves = 1, .sub_arity = 8};
        struct poseidon_tree t;

        assert_int_equal(poseidon_tree_init(&t, &shape, NULL), 0);
        assert_int_equal(t.n_levels, 1);
        for (unsigned i = 0; i < 8; i++) {
                uint8_t root[32];
                from_hex(root, golden_roots[i]);
                if (flip_a_bit && i == 3)
                        root[5] ^= 0x10;
                assert_true(fr_from_le_bytes(&t.nodes[i], root));
        }
        poseidon_tree_build(&t);
        poseidon_tree_root_bytes(&t, comm_r_last);
        poseidon_tree_done(&t);
}

static void test_tree_r_top_32gib(void **state) {
        uint8_t got[32], expected[32], comm_c[32], comm_r[32];
        (void)state;

        from_hex(expected, GOLDEN_COMM_R_LAST);
        golden_top(false, got);
        assert_memory_equal(got, expected, 32);
        golden_top(true, got);
        assert_memory_not_equal(got, expected, 32);

        from_hex(comm_c, GOLDEN_COMM_C);
        from_hex(expected, ESTIMATED_COMM_R);
        from_hex(got, GOLDEN_COMM_R_LAST);
        assert_int_equal(tree_comm_r(comm_c, got, comm_r), 0);
        assert_memory_equal(comm_r, expected, 32);
        comm_c[0] ^= 1;
        assert_int_equal(tree_comm_r(comm_c, got, comm_r), 0);
        assert_memory_not_equal(comm_r, expected, 32);
}

/* A path verifies, names its leaf, and fails after one bit of the leaf, of
 * a sibling hash or of an index changes. */
static void check_path(bool poseidon, const uint8_t leaf[32], uint64_t node,
                       const struct tree_path *path, const uint8_t root[32]) {
        int (*verify)(const uint8_t *, const struct tree_path *, const uint8_t *) =
                poseidon ? merkle_poseidon_verify : merkle_sha254_verify;
        struct tree_path *bad = malloc(sizeof(*bad));
        uint8_t leaf_bad[32], got[32];
        uint64_t at = UINT64_MAX;
        unsigned level = (unsigned)(node % path->n_levels);

        assert_non_null(bad);
        assert_int_equal(verify(leaf, path, root), 0);
        assert_int_equal(
                (poseidon ? tree_path_root_poseidon : tree_path_root_sha254)(leaf, path, got, &at),
                0);
        assert_memory_equal(got, root, 32);
        assert_int_equal(at, node);

        memcpy(leaf_bad, leaf, 32);
        leaf_bad[node % 31] ^= 1;
        assert_int_equal(verify(leaf_bad, path, root), -EBADMSG);

        *bad = *path;
        bad->levels[level].hashes[0][3] ^= 0x20;
        assert_int_equal(verify(leaf, bad, root), -EBADMSG);

        *bad = *path;
        bad->levels[level].index ^= 1;
        assert_int_equal(verify(leaf, bad, root), -EBADMSG);
        bad->levels[level].index = bad->levels[level].n_hashes + 1;
        assert_int_equal(verify(leaf, bad, root), -EINVAL);
        free(bad);
}

static void random_bytes(uint8_t *out, size_t n) {
        for (size_t i = 0; i < n; i++)
                out[i] = (uint8_t)(rand() >> 7);
}

static void test_tree_d_paths(void **state) {
        struct tree_path path;
        struct tree_d t;
        uint8_t root[32];
        (void)state;

        srand(7);
        assert_int_equal(tree_d_init(&t, 64, NULL), 0);
        for (uint64_t leaf = 0; leaf < 64; leaf++)
                random_bytes(t.nodes[leaf], 32);
        tree_d_build(&t);
        tree_d_root(&t, root);
        for (uint64_t leaf = 0; leaf < 64; leaf++) {
                assert_int_equal(tree_d_path(&t, leaf, &path), 0);
                assert_int_equal(path.n_levels, 6);
                check_path(false, t.nodes[leaf], leaf, &path, root);
        }
        assert_int_equal(tree_d_path(&t, 64, &path), -ERANGE);
        tree_d_done(&t);
        assert_int_equal(tree_d_init(&t, 48, NULL), -EINVAL);
}

static void random_leaves(fr_t *leaves, uint64_t n) {
        for (uint64_t i = 0; i < n; i++) {
                uint8_t b[32];
                random_bytes(b, 32);
                b[31] &= 0x3f;
                assert_true(fr_from_le_bytes(&leaves[i], b));
        }
}

static void check_poseidon_shape(const struct tree_shape *shape, unsigned levels) {
        const uint64_t n_leaves = shape->base_leaves * shape->base_count;
        struct poseidon_tree t;
        struct tree_path path;
        uint8_t root[32];

        assert_int_equal(poseidon_tree_init(&t, shape, NULL), 0);
        assert_int_equal(t.n_levels, levels);
        random_leaves(t.nodes, n_leaves);
        poseidon_tree_build(&t);
        poseidon_tree_root_bytes(&t, root);
        for (uint64_t leaf = 0; leaf < n_leaves; leaf++) {
                uint8_t leaf_bytes[32];
                assert_int_equal(poseidon_tree_path(&t, leaf, &path), 0);
                fr_to_le_bytes(leaf_bytes, &t.nodes[leaf]);
                check_path(true, leaf_bytes, leaf, &path, root);
        }
        assert_int_equal(poseidon_tree_path(&t, n_leaves, &path), -ERANGE);
        poseidon_tree_done(&t);
}

static void test_poseidon_paths(void **state) {
        const struct tree_shape single = {.base_count = 1, .base_leaves = 64};
        const struct tree_shape sub = {.base_count = 8, .base_leaves = 8, .sub_arity = 8};
        const struct tree_shape top = {
                .base_count = 16, .base_leaves = 8, .sub_arity = 8, .top_arity = 2};
        (void)state;

        srand(11);
        check_poseidon_shape(&single, 2);
        check_poseidon_shape(&sub, 2);
        check_poseidon_shape(&top, 3);
}

/* 8-8-2 is H2(H8(base roots 0..7), H8(base roots 8..15)), as curio's
 * CommRLastFromTreeRLastRoots reduces 16 roots. */
static void test_poseidon_top_structure(void **state) {
        const struct tree_shape top = {
                .base_count = 16, .base_leaves = 8, .sub_arity = 8, .top_arity = 2};
        const struct poseidon_constants *h8 = poseidon_constants(8), *h2 = poseidon_constants(2);
        struct poseidon_tree t;
        fr_t base_roots[16], subs[2], expected, got;
        (void)state;

        srand(13);
        assert_int_equal(poseidon_tree_init(&t, &top, NULL), 0);
        random_leaves(t.nodes, 128);
        poseidon_tree_build(&t);
        for (unsigned b = 0; b < 16; b++)
                poseidon_hash(h8, &t.nodes[b * 8], &base_roots[b]);
        poseidon_hash(h8, &base_roots[0], &subs[0]);
        poseidon_hash(h8, &base_roots[8], &subs[1]);
        poseidon_hash(h2, subs, &expected);
        poseidon_tree_root(&t, &got);
        assert_true(fr_equal(&got, &expected));
        poseidon_tree_done(&t);
}

static void test_shapes(void **state) {
        static const struct {
                uint64_t sector_bytes;
                unsigned base_count;
                uint64_t base_leaves;
                unsigned levels;
        } cases[] = {
                {UINT64_C(2) << 10, 1, 64, 2},
                {UINT64_C(512) << 20, 1, UINT64_C(1) << 24, 8},
                {UINT64_C(32) << 30, 8, UINT64_C(1) << 27, 10},
                {UINT64_C(64) << 30, 16, UINT64_C(1) << 27, 11},
        };
        const struct tree_shape bad[] = {
                {.base_count = 1, .base_leaves = 16},
                {.base_count = 2, .base_leaves = 8},
                {.base_count = 8, .base_leaves = 8, .sub_arity = 4},
                {.base_count = 2, .base_leaves = 8, .top_arity = 2},
                {.base_count = 1, .base_leaves = 0},
        };
        (void)state;

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                const struct porep_config *cfg =
                        porep_config_by_sector_bytes(cases[i].sector_bytes);
                unsigned arity[TREE_PATH_MAX_LEVELS];
                struct tree_shape shape;
                uint64_t leaves;

                assert_non_null(cfg);
                tree_shape_from_config(cfg, &shape);
                assert_int_equal(shape.base_count, cases[i].base_count);
                assert_int_equal(shape.base_leaves, cases[i].base_leaves);
                leaves = shape.base_leaves * shape.base_count;
                assert_int_equal(leaves, cfg->nodes);
                /* Levels: the arity-8 levels of base and sub, then the top. */
                assert_int_equal(tree_shape_levels(&shape, arity), cases[i].levels);
                assert_int_equal(cases[i].levels,
                                 porep_tree_arity8_levels(cfg) + (shape.top_arity ? 1 : 0));
                for (unsigned j = 0; j < cases[i].levels; j++)
                        assert_int_equal(arity[j],
                                         j + 1 == cases[i].levels && shape.top_arity ? 2 : 8);
                assert_int_not_equal(poseidon_tree_node_count(&shape), 0);
        }
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
                unsigned arity[TREE_PATH_MAX_LEVELS];
                assert_int_equal(tree_shape_levels(&bad[i], arity), -EINVAL);
                assert_int_equal(poseidon_tree_node_count(&bad[i]), 0);
        }
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_zero_comm_d),
                cmocka_unit_test(test_tree_d_roots),
                cmocka_unit_test(test_tree_r_top_32gib),
                cmocka_unit_test(test_tree_d_paths),
                cmocka_unit_test(test_poseidon_paths),
                cmocka_unit_test(test_poseidon_top_structure),
                cmocka_unit_test(test_shapes),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
