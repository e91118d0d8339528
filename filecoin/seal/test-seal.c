/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filecoin/seal: the create_labels vectors (rust-fil-proofs
 * create_label/multi.rs), the lotus-bench 2 KiB sector's comm_r, the native
 * verifier on sealed and synthetic C1s, and one-byte mutations refused.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/hex.h"
#include "common/log.h"
#include "filecoin/c1/c1.h"
#include "filecoin/graph/graph.h"
#include "filecoin/porep/ids.h"
#include "filecoin/seal/labels.h"
#include "filecoin/seal/seal.h"
#include "filecoin/seal/synth-c1.h"
#include "filecoin/vanilla/verify.h"

static void check_last_label(uint64_t sector_bytes, uint8_t porep_byte, enum porep_api_version api,
                             const uint64_t expected[4], bool flip) {
        uint64_t nodes = sector_bytes / 32;
        uint8_t porep_id[32], replica_id[32];
        uint8_t *labels = malloc(11 * nodes * 32);
        struct sdr_graph graph;
        uint64_t limbs[4];

        memset(porep_id, porep_byte, 32);
        memset(replica_id, 9, 32);
        replica_id[0] ^= flip;
        assert_non_null(labels);
        assert_int_equal(sdr_graph_init_raw(&graph, nodes, api, porep_id), 0);
        assert_int_equal(sdr_labels_create(&graph, nodes, 11, replica_id, labels, NULL, NULL), 0);
        memcpy(limbs, labels + (11 * nodes - 1) * 32, 32);
        if (flip)
                assert_memory_not_equal(limbs, expected, 32);
        else
                assert_memory_equal(limbs, expected, 32);
        free(labels);
}

static void test_create_labels(void **state) {
        static const uint64_t v10_2k[4] = {0xd3faa96b9a0fba04, 0xea81a283d106485e,
                                           0xe3d51b9afa5ac2b3, 0x0462f4f4f1a68d37};
        static const uint64_t v10_4k[4] = {0x7e191e52c4a8da86, 0x5ae8a1c9e6fac148,
                                           0xce239f3b88a894b8, 0x234c00d1dc1d53be};
        static const uint64_t v11_2k[4] = {0xabb3f38bb70defcf, 0x777a2e4d7769119f,
                                           0x3448959d495490bc, 0x06021188c7a71cb5};
        static const uint64_t v11_4k[4] = {0x22ab81cf68c4676d, 0x7a77a82fc7c9c189,
                                           0xc6c03d32c1e42d23, 0x0f777c18cc2c55bd};
        (void)state;

        check_last_label(2048, 0, POREP_API_V1_0_0, v10_2k, false);
        check_last_label(4096, 0, POREP_API_V1_0_0, v10_4k, false);
        check_last_label(2048, 123, POREP_API_V1_1_0, v11_2k, false);
        check_last_label(4096, 123, POREP_API_V1_1_0, v11_4k, false);
        check_last_label(2048, 123, POREP_API_V1_1_0, v11_2k, true);
}

/* lotus-bench simple.go's 2 KiB sector: V1_1, t01000, sector 1, zero ticket and data. */
static struct c1_output *seal_lotus_bench(uint8_t ticket0) {
        struct seal_inputs in = {.cfg = porep_config_by_name("StackedDrg2KiBV1_1"), .sector_id = 1};
        struct c1_output *c1 = NULL;

        assert_non_null(in.cfg);
        in.ticket[0] = ticket0;
        memset(in.seed, 7, 32);
        assert_true(porep_prover_id_from_miner(1000, in.prover_id) > 0);
        assert_int_equal(porep_seal(&in, &c1), 0);
        return c1;
}

static void test_lotus_bench_sector(void **state) {
        uint8_t expected[32];
        struct c1_output *c1 = seal_lotus_bench(0), *other = seal_lotus_bench(1);
        char *a = NULL, *b = NULL;
        size_t na = 0, nb = 0;
        (void)state;

        assert_int_equal(
                hex_decode("c647b998c78282296cfd1160714228d43f3b054dfbbb77172b68115ba3c3b762", 32,
                           expected, NULL),
                0);
        assert_memory_equal(c1->comm_r, expected, 32);
        assert_memory_not_equal(other->comm_r, expected, 32);
        assert_int_equal(vanilla_verify(c1, "lotus-bench"), 0);
        assert_int_equal(vanilla_verify(other, "ticket 1"), 0);
        c1_output_free(other);
        other = seal_lotus_bench(0);
        assert_int_equal(c1_write_buffer(c1, &a, &na), 0);
        assert_int_equal(c1_write_buffer(other, &b, &nb), 0);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, na);
        free(a);
        free(b);
        c1_output_free(c1);
        c1_output_free(other);
}

/* 50 random one-byte changes of a 2 KiB C1: each refused, by the parser or the verifier. */
static void test_mutations_refused(void **state) {
        struct c1_output *c1 = seal_lotus_bench(0);
        char *text = NULL;
        size_t n = 0;
        unsigned refused = 0;
        (void)state;

        assert_int_equal(c1_write_buffer(c1, &text, &n), 0);
        srand(20261204);
        log_set_max_level(LOG_CRIT); /* 50 refusals: their lines are not the test */
        for (unsigned i = 0; i < 50; i++) {
                char *copy = malloc(n);
                struct c1_output *m = NULL;
                size_t at;

                assert_non_null(copy);
                memcpy(copy, text, n);
                /* A digit or a letter changes to another one, so the text stays plausible. */
                do
                        at = (size_t)rand() % n;
                while (copy[at] < '0' || copy[at] > '9');
                copy[at] = copy[at] == '9' ? '0' : (char)(copy[at] + 1);
                if (c1_parse(copy, n, "mutated", &m) < 0 || vanilla_verify(m, "mutated") < 0)
                        refused++;
                c1_output_free(m);
                free(copy);
        }
        log_set_max_level(LOG_INFO);
        assert_int_equal(refused, 50);
        free(text);
        c1_output_free(c1);
}

static void test_synth_c1(void **state) {
        struct synth_c1_inputs in = {.cfg = porep_config_by_name("StackedDrg2KiBV1_1"),
                                     .sector_id = 3};
        struct c1_output *c1 = NULL;
        (void)state;

        memset(in.key, 5, 32);
        memset(in.seed, 1, 32);
        assert_int_equal(synth_c1_create(&in, &c1), 0);
        assert_true(c1->synthetic_c1);
        assert_int_equal(vanilla_verify(c1, "synthetic"), 0);
        c1->proofs[1].labeling[1].parents[3][0] ^= 1;
        log_set_max_level(LOG_CRIT);
        assert_int_equal(vanilla_verify(c1, "synthetic"), -EBADMSG);
        log_set_max_level(LOG_INFO);
        c1_output_free(c1);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_create_labels),
                cmocka_unit_test(test_lotus_bench_sector),
                cmocka_unit_test(test_mutations_refused),
                cmocka_unit_test(test_synth_c1),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
