/* SPDX-License-Identifier: Apache-2.0 */
/*
 * circuits/porep/stacked: the one-challenge circuits of rust-fil-proofs'
 * storage-proofs-porep/tests/stacked_circuit.rs, row for row (8 nodes per
 * base tree, 2 layers: base 8 1,199,620, base 2 1,206,212, 8-4 1,296,576,
 * 8-4-2 1,346,982, 22 inputs with ONE); a genuine 2 KiB sector from our
 * sealer satisfies every row with the public inputs the verifier derives,
 * and a changed parent label (a column value), data leaf or path element
 * breaks a row. (The labeling proofs' parents and c_x's rows are not in the
 * circuit: it recomputes them.)
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
#include "circuits/pce-compact.h"
#include "circuits/porep/public-inputs.h"
#include "circuits/porep/stacked.h"
#include "filecoin/porep/ids.h"
#include "filecoin/seal/seal.h"

/* The test shape of stacked_circuit.rs: 8 leaves per base tree. */
static struct porep_config test_shape(unsigned base, unsigned sub, unsigned top) {
        struct porep_config cfg = *porep_config_by_name("StackedDrg2KiBV1_1");
        unsigned trees = (sub ? sub : 1) * (top ? top : 1);

        cfg.nodes = 8u * trees;
        cfg.sector_bytes = cfg.nodes * 32;
        cfg.layers = 2;
        cfg.partitions = 1;
        cfg.challenges_per_partition = 1;
        cfg.base_arity = base;
        cfg.sub_arity = sub;
        cfg.top_arity = top;
        cfg.tree_d_depth = 0;
        for (uint64_t n = cfg.nodes; n > 1; n /= 2)
                cfg.tree_d_depth++;
        return cfg;
}

static void check_test_shape(unsigned base, unsigned sub, unsigned top, uint64_t rows) {
        struct porep_config cfg = test_shape(base, sub, top);
        struct cs *cs = NULL;

        assert_int_equal(cs_new(CS_SHAPE, &cs), 0);
        assert_int_equal(porep_circuit_shape(cs, &cfg), 0);
        print_message("%u-%u-%u: %llu rows, %u inputs, %llu aux\n", base, sub, top,
                      (unsigned long long)cs_n_rows(cs), cs_n_inputs(cs),
                      (unsigned long long)cs_n_aux(cs));
        assert_int_equal(cs_n_rows(cs), rows);
        assert_int_equal(cs_n_inputs(cs) + 1, 22);
        cs_free(cs);
}

static void test_reference_shapes(void **state) {
        (void)state;
        check_test_shape(8, 0, 0, 1199620);
        check_test_shape(2, 0, 0, 1206212);
        check_test_shape(8, 4, 0, 1296576);
        check_test_shape(8, 4, 2, 1346982);
}

/* lotus-bench simple.go's 2 KiB sector (V1_1, t01000, sector 1, zero data). */
static struct c1_output *seal_2k(void) {
        struct seal_inputs in = {.cfg = porep_config_by_name("StackedDrg2KiBV1_1"), .sector_id = 1};
        struct c1_output *c1 = NULL;

        assert_non_null(in.cfg);
        memset(in.seed, 7, 32);
        assert_true(porep_prover_id_from_miner(1000, in.prover_id) > 0);
        assert_int_equal(porep_seal(&in, &c1), 0);
        return c1;
}

/* a, b, c from the compact witness equal those from the full one, and the
 * compact form expands to the full one. */
static void check_compact_evaluation(const struct cs *cs, const struct pce *pce, const fr_t *w,
                                     size_t n) {
        unsigned log = pce_log_domain_size(pce);
        size_t domain = (size_t)1 << log;
        fr_t *full = malloc(3 * domain * sizeof(fr_t)),
             *compact = malloc(3 * domain * sizeof(fr_t));
        fr_t *expanded = malloc(n * sizeof(fr_t));
        struct pce_compact_witness cw;
        uint64_t *rank = NULL;

        assert_non_null(full);
        assert_non_null(compact);
        assert_non_null(expanded);
        assert_int_equal(cs_witness_compact(cs, &cw, &rank), 0);
        assert_int_equal(pce_evaluate(pce, w, n, log, full, full + domain, full + 2 * domain), 0);
        assert_int_equal(pce_evaluate_compact(pce, &cw, log, compact, compact + domain,
                                              compact + 2 * domain),
                         0);
        assert_memory_equal(full, compact, 3 * domain * sizeof(fr_t));
        pce_compact_expand(&cw, expanded);
        assert_memory_equal(expanded, w, n * sizeof(fr_t));
        cw.n_aux--;
        assert_int_equal(pce_evaluate_compact(pce, &cw, log, compact, compact + domain,
                                              compact + 2 * domain),
                         -EINVAL);
        free(rank);
        free(full);
        free(compact);
        free(expanded);
}

/* Synthesises c1's partition 0 with shape and values; returns the first
 * unsatisfied row or UINT64_MAX. The inputs must be the verifier's. */
static uint64_t first_bad_row(const struct c1_output *c1) {
        struct cs *cs = NULL;
        struct pce *pce = NULL;
        fr_t *w = NULL, expected[64];
        size_t n = 0, n_inputs = porep_public_input_count(c1->cfg);
        uint64_t row = UINT64_MAX;
        int r;

        assert_true(n_inputs <= 64);
        assert_int_equal(cs_new(CS_CHECK, &cs), 0);
        assert_int_equal(porep_circuit_synthesize(cs, c1, 0), 0);
        assert_int_equal(cs_n_inputs(cs), n_inputs);
        assert_int_equal(cs_to_pce(cs, &pce), 0);
        assert_int_equal(cs_witness_full(cs, &w, &n), 0);
        assert_int_equal(porep_public_inputs(c1->cfg, c1->replica_id, c1->comm_d, c1->comm_r,
                                             c1->seed, 0, expected),
                         0);
        for (size_t i = 0; i < n_inputs; i++)
                assert_true(fr_equal(&w[1 + i], &expected[i]));
        check_compact_evaluation(cs, pce, w, n);
        r = cs_pce_check(pce, w, n, &row);
        assert_true(r == 0 || r == 1);
        if (r == 0)
                row = UINT64_MAX;
        /* the row-by-row check without a PCE finds the same row */
        uint64_t checked = 0;
        assert_int_equal(porep_circuit_check(c1, 0, &checked), 0);
        assert_int_equal(checked, row);
        free(w);
        pce_free(pce);
        cs_free(cs);
        return row;
}

/* The parallel witness equals the one a sequential synthesis records. */
static void check_parallel_witness(const struct c1_output *c1) {
        struct cs *seq = NULL, *par = NULL;
        fr_t *w1 = NULL, *w2 = NULL;
        size_t n1 = 0, n2 = 0;

        assert_int_equal(cs_new(CS_WITNESS, &seq), 0);
        assert_int_equal(porep_circuit_synthesize(seq, c1, 0), 0);
        assert_int_equal(porep_circuit_witness(c1, 0, &par), 0);
        assert_int_equal(cs_n_rows(par), cs_n_rows(seq));
        assert_int_equal(cs_witness_full(seq, &w1, &n1), 0);
        assert_int_equal(cs_witness_full(par, &w2, &n2), 0);
        assert_int_equal(n1, n2);
        assert_memory_equal(w1, w2, n1 * sizeof(fr_t));
        free(w1);
        free(w2);
        cs_free(seq);
        cs_free(par);
}

/* The count of value (non-bit) aux that the PCE records from the blank shape is what
 * admission sizes a PoRep worker's compact witness by: a real sector's witness of every
 * partition has exactly that many values. */
static void check_aux_values_bound(const struct cs *shape, const struct c1_output *c1) {
        struct pce *pce = NULL;

        assert_int_equal(cs_to_pce(shape, &pce), 0);
        assert_true(pce->flags & PCE_AUX_VALUES);
        for (unsigned k = 0; k < c1->n_partitions; k++) {
                struct cs *w = NULL;

                assert_int_equal(porep_circuit_witness(c1, k, &w), 0);
                print_message("2 KiB partition %u: %llu of %llu aux are values\n", k,
                              (unsigned long long)cs_witness(w)->n_nums,
                              (unsigned long long)cs_n_aux(w));
                assert_int_equal(cs_witness(w)->n_nums, pce->n_aux_values);
                assert_true(pce->n_aux_values < cs_n_aux(w) / 10);
                cs_free(w);
        }
        pce_free(pce);
}

static void test_sealed_2k_satisfies(void **state) {
        struct c1_output *c1 = seal_2k();
        struct cs *shape = NULL;

        (void)state;
        assert_int_equal(first_bad_row(c1), UINT64_MAX);
        check_parallel_witness(c1);

        /* the blank shape has the same rows and variables */
        assert_int_equal(cs_new(CS_SHAPE, &shape), 0);
        assert_int_equal(porep_circuit_shape(shape, c1->cfg), 0);
        print_message("2 KiB: %llu rows, %u inputs, %llu aux\n",
                      (unsigned long long)cs_n_rows(shape), cs_n_inputs(shape),
                      (unsigned long long)cs_n_aux(shape));
        assert_int_equal(cs_n_inputs(shape), 39);
        check_aux_values_bound(shape, c1);
        cs_free(shape);
        c1_output_free(c1);
}

static void test_sealed_2k_mutations(void **state) {
        struct c1_output *c1 = seal_2k();
        struct c1_vanilla_proof *p = &c1->proofs[1];
        uint8_t *targets[] = {
                p->comm_d_proof.leaf,                            /* the data leaf */
                p->comm_r_last_proof.base.elements[0].hashes[2], /* a tree-R sibling */
                p->drg_parents[4].rows[1],                       /* a parent's label */
                p->comm_d_proof.base.elements[3].hashes[0],      /* a tree-D sibling */
                p->exp_parents[7].rows[0],
        };

        (void)state;
        for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
                targets[i][5] ^= 0x10;
                assert_int_not_equal(first_bad_row(c1), UINT64_MAX);
                targets[i][5] ^= 0x10;
        }
        assert_int_equal(first_bad_row(c1), UINT64_MAX);
        c1_output_free(c1);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_reference_shapes),
                cmocka_unit_test(test_sealed_2k_satisfies),
                cmocka_unit_test(test_sealed_2k_mutations),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
