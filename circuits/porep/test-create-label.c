/* SPDX-License-Identifier: Apache-2.0 */
/*
 * circuits/porep/create-label: the reference's test_create_label count
 * 532,025 with its own setup (create_label.rs: 37 parents and replica_id as
 * 9,728 allocated bits, a constant node, layer 3, node 22 of a 64-node
 * V1_1_0 graph), the 522,269 rows of the gadget as the StackedCircuit uses
 * it (../shared/POREP.md Part B §2, §8: to_bits_le inputs, an allocated
 * node), labels equal to the native sdr_label_hash (Part B §4), every row
 * satisfied, a flipped parent bit caught, a flipped input bit followed.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/cs/cs.h"
#include "circuits/test-rng.h"
#include "circuits/gadgets/num.h"
#include "circuits/porep/create-label.h"
#include "filecoin/graph/graph.h"
#include "filecoin/seal/labels.h"

/* A random Fr repr, as fr_into_bytes(Fr::random) gives (below 2^254 here). */
/* bytes_into_boolean_vec_be: allocated bits, most significant first per byte. */
static void alloc_bytes_be(struct cs *cs, const uint8_t bytes[32], struct cs_bool bits[256]) {
        for (unsigned i = 0; i < 256; i++)
                bits[i] = cs_bit_alloc(cs, (bytes[i / 8] >> (7 - i % 8)) & 1);
}

/* The circuit's way: a num, to_bits_le (bit 255 a constant false), then
 * reverse_bit_numbering, which yields the bytes' bits in hashing order. */
static void alloc_num_bits(struct cs *cs, const uint8_t bytes[32], struct cs_bool bits[256]) {
        struct cs_bool le[CS_FR_NUM_BITS];
        struct cs_num num;
        fr_t value;

        assert_true(fr_from_le_bytes(&value, bytes));
        num = cs_num_alloc(cs, &value);
        cs_num_to_bits_le(cs, &num, le);
        assert_int_equal(cs_reverse_bit_numbering(le, CS_FR_NUM_BITS, bits), 256);
}

static void flip_witness(fr_t *w) {
        fr_is_zero(w) ? fr_set_one(w) : fr_set_zero(w);
}

/* Records the shape and values of a synthesis; checks every row holds and,
 * when flip_col is not 0, that the flipped value breaks a row at or after
 * first_gadget_row. */
static void check_rows(struct cs *cs, size_t flip_col, uint64_t first_gadget_row) {
        struct pce *pce = NULL;
        fr_t *w = NULL;
        size_t n = 0;
        uint64_t row = 0;

        assert_int_equal(cs_error(cs), 0);
        assert_int_equal(cs_to_pce(cs, &pce), 0);
        assert_int_equal(cs_witness_full(cs, &w, &n), 0);
        assert_int_equal(cs_pce_check(pce, w, n, &row), 0);
        if (flip_col) {
                flip_witness(&w[flip_col]);
                assert_int_equal(cs_pce_check(pce, w, n, &row), 1);
                assert_true(row >= first_gadget_row);
                assert_true(row < cs_n_rows(cs));
        }
        free(w);
        pce_free(pce);
}

/* The label as a num, compared with the native label of the same bytes. */
static void assert_label(const struct cs_num *label, const uint8_t expected[32]) {
        uint8_t got[32];

        fr_to_le_bytes(got, &label->value);
        assert_memory_equal(got, expected, 32);
}

/* create_label.rs test_create_label: layer 3, node 22, parents from a
 * 64-node graph with porep_id [32; 32] (V1_1_0), data of 2 x 64 random
 * nodes, the DRG parents' in the first half, the expander parents' in the
 * second. Returns the label bytes; flip_byte >= 0 flips bit 0 of that byte of
 * parent 0's data. */
static void reference_test(int flip_byte, uint8_t label_out[32]) {
        enum { SIZE = 64, LAYER = 3, NODE = 22 };
        uint8_t porep_id[32], id[32], data[2 * SIZE][32], expected[32];
        sdr_label_parents parents;
        struct cs_bool parent_bits[POREP_LABEL_PARENTS][256], id_bits[256];
        uint32_t graph_parents[POREP_TOTAL_PARENTS];
        struct sdr_graph graph;
        struct cs *cs = NULL;
        struct cs_u64 node;
        struct cs_num label;

        test_rng_seed(532025);
        memset(porep_id, 32, sizeof(porep_id));
        assert_int_equal(sdr_graph_init_raw(&graph, SIZE, POREP_API_V1_1_0, porep_id), 0);
        test_rng_repr(id);
        for (unsigned i = 0; i < 2 * SIZE; i++)
                test_rng_repr(data[i]);
        sdr_graph_parents(&graph, NODE, graph_parents);
        if (flip_byte >= 0)
                data[graph_parents[0]][flip_byte] ^= 1;
        for (unsigned i = 0; i < POREP_TOTAL_PARENTS; i++)
                memcpy(parents[i], data[(i < POREP_DRG_PARENTS ? 0 : SIZE) + graph_parents[i]], 32);
        sdr_label_expand_parents(LAYER, parents); /* 14 + 14 + 9 */

        assert_int_equal(cs_new(CS_CHECK, &cs), 0);
        for (unsigned i = 0; i < POREP_LABEL_PARENTS; i++)
                alloc_bytes_be(cs, parents[i], parent_bits[i]);
        alloc_bytes_be(cs, id, id_bits);
        assert_int_equal(cs_n_rows(cs), 9728);
        for (unsigned i = 0; i < 64; i++) /* UInt64::constant */
                node.bits[i] = cs_bool_constant(((uint64_t)NODE >> i) & 1);
        node.value = NODE;
        label = cs_create_label(cs, id_bits, (const struct cs_bool(*)[256])parent_bits, LAYER,
                                &node);
        assert_int_equal(cs_n_rows(cs), 532025);
        assert_int_equal(cs_n_inputs(cs), 0);

        sdr_label_hash(id, LAYER, NODE, (const uint8_t(*)[32])parents, expected);
        assert_label(&label, expected);
        memcpy(label_out, expected, 32);

        /* Parent 3's bit 100 (an allocated bit: booleanity still holds). */
        check_rows(cs, 1 + parent_bits[3][100].var, 9728);
        cs_free(cs);
}

static void test_reference_count(void **state) {
        uint8_t label[32], flipped[32];
        (void)state;

        reference_test(-1, label);
        reference_test(7, flipped);
        assert_memory_not_equal(label, flipped, 32);
}

/* The label of node in layer as the StackedCircuit computes it: replica_id
 * and each distinct parent label decomposed once, the 37 parents repeated
 * from them, the node an allocated UInt64. Checks 522,269 rows for the
 * gadget and, with values, the native label, which it returns. */
static void circuit_label(enum cs_mode mode, uint64_t seed, uint32_t layer, uint64_t node,
                          int flip_id_byte, uint8_t label_out[32]) {
        unsigned distinct = sdr_label_distinct_parents(layer);
        uint8_t id[32], expected[32];
        sdr_label_parents parents;
        struct cs_bool id_bits[256], distinct_bits[POREP_TOTAL_PARENTS][256];
        struct cs_bool parent_bits[POREP_LABEL_PARENTS][256];
        struct cs *cs = NULL;
        struct cs_u64 node_word;
        struct cs_num label;
        uint64_t before;

        test_rng_seed(seed);
        test_rng_repr(id);
        if (flip_id_byte >= 0)
                id[flip_id_byte] ^= 0x10;
        for (unsigned i = 0; i < distinct; i++)
                test_rng_repr(parents[i]);
        sdr_label_expand_parents(layer, parents);

        assert_int_equal(cs_new(mode, &cs), 0);
        alloc_num_bits(cs, id, id_bits);
        for (unsigned i = 0; i < distinct; i++)
                alloc_num_bits(cs, parents[i], distinct_bits[i]);
        /* 6 x 6 + p0 and 14 + 14 + 9 both repeat the distinct ones in turn. */
        for (unsigned i = 0; i < POREP_LABEL_PARENTS; i++)
                memcpy(parent_bits[i], distinct_bits[i % distinct], sizeof(parent_bits[i]));
        cs_u64_alloc(cs, &node_word, node);

        before = cs_n_rows(cs);
        label = cs_create_label(cs, id_bits, (const struct cs_bool(*)[256])parent_bits, layer,
                                &node_word);
        assert_int_equal(cs_n_rows(cs) - before, 522269);

        assert_int_equal(cs_error(cs), 0);
        if (mode & CS_WITNESS) {
                sdr_label_hash(id, layer, node, (const uint8_t(*)[32])parents, expected);
                assert_label(&label, expected);
                memcpy(label_out, expected, 32);
        }
        if (mode == CS_CHECK)
                check_rows(cs, 0, 0);
        cs_free(cs);
}

static void test_first_layer(void **state) {
        uint8_t label[32], flipped[32];
        (void)state;

        circuit_label(CS_CHECK, 1, 1, 37, -1, label);
        circuit_label(CS_WITNESS, 1, 1, 37, 9, flipped);
        assert_memory_not_equal(label, flipped, 32);
}

static void test_later_layer(void **state) {
        uint8_t label[32], other_node[32];
        (void)state;

        circuit_label(CS_CHECK, 2, 11, UINT64_C(0x3ffffffe), -1, label);
        circuit_label(CS_WITNESS, 2, 11, UINT64_C(0x3ffffffe) ^ 4, -1, other_node);
        assert_memory_not_equal(label, other_node, 32);
        circuit_label(CS_CHECK, 3, 2, 63, -1, label);
}

/* Witness-only and shape-only synthesis count the same rows; the witness
 * run computes the same label. */
static void test_modes(void **state) {
        uint8_t label[32], witness_label[32];
        (void)state;

        circuit_label(CS_CHECK, 4, 2, 5, -1, label);
        circuit_label(CS_WITNESS, 4, 2, 5, -1, witness_label);
        assert_memory_equal(label, witness_label, 32);
        circuit_label(CS_SHAPE, 4, 2, 5, -1, NULL);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_reference_count),
                cmocka_unit_test(test_first_layer),
                cmocka_unit_test(test_later_layer),
                cmocka_unit_test(test_modes),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
