/* SPDX-License-Identifier: Apache-2.0 */
/*
 * circuits/porep/params-size: the .params size of a PoRep circuit.
 *   - 32 GiB: the recorded counts are POREP.md's published ones, and the size
 *     is its computed 47,373,928,632 bytes (44.12 GiB, what paramfetch
 *     downloads), the verifying key 32,356 bytes;
 *   - 2 KiB, 8 MiB, 512 MiB: the recorded counts equal those of the circuit
 *     synthesised now, so a change of the circuit cannot leave a stale size;
 *   - the .vk part for 40 inputs is POREP.md's 4,708 bytes.
 * The CLI test (tests/cli/test-cli-porep-prove.sh) checks the formula
 * against the size of the 2 KiB file that `cuzk porep setup` writes.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <stdint.h>

#include "circuits/porep/params-size.h"
#include "circuits/porep/porep-pce.h"
#include "common/cleanup.h"

#define VK_BYTES_40_INPUTS 4708u

static void assert_same_counts(const struct groth16_circuit_counts *a,
                               const struct groth16_circuit_counts *b) {
        assert_int_equal(a->log_domain, b->log_domain);
        assert_int_equal(a->inputs, b->inputs);
        assert_int_equal(a->aux, b->aux);
        assert_int_equal(a->a_aux, b->a_aux);
        assert_int_equal(a->b_inputs, b->b_inputs);
        assert_int_equal(a->b_aux, b->b_aux);
}

static void test_32gib_published(void **state) {
        struct groth16_circuit_counts c, changed;

        (void)state;
        assert_int_equal(porep_circuit_counts(porep_config_by_id(8), &c), 0);
        assert_int_equal(c.log_domain, 27);
        assert_int_equal(c.inputs, 328);
        assert_int_equal(c.aux, 130169893);
        assert_int_equal(c.a_aux, 129753292);
        assert_int_equal(c.b_inputs, 1);
        assert_int_equal(c.b_aux, 33112281);
        assert_int_equal(groth16_circuit_params_bytes(&c), UINT64_C(47373928632));
        /* V1 and synthetic proofs use the same circuit and file. */
        assert_int_equal(porep_circuit_counts(porep_config_by_id(3), &changed), 0);
        assert_same_counts(&c, &changed);
        assert_int_equal(porep_circuit_counts(porep_config_by_id(13), &changed), 0);
        assert_same_counts(&c, &changed);
        /* One more B variable: a G1 and a G2 point more. */
        changed.b_aux++;
        assert_int_equal(groth16_circuit_params_bytes(&changed), UINT64_C(47373928632) + 96 + 192);
}

static void test_vk_part(void **state) {
        struct groth16_circuit_counts none = {.log_domain = 0, .inputs = 40};

        (void)state;
        /* An empty circuit's file: its verifying key, five lengths and a's input points. */
        assert_int_equal(groth16_circuit_params_bytes(&none), VK_BYTES_40_INPUTS + 5 * 4 + 40 * 96);
}

static void test_small_sizes_synthesised(void **state) {
        static const unsigned ids[] = {5, 6, 7}; /* 2 KiB, 8 MiB, 512 MiB V1_1 */

        (void)state;
        for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
                _cleanup_(pce_freep) struct pce *pce = NULL;
                const struct porep_config *cfg = porep_config_by_id(ids[i]);
                struct groth16_circuit_counts recorded, synthesised;

                assert_int_equal(porep_circuit_counts(cfg, &recorded), 0);
                assert_int_equal(porep_pce_build(cfg, &pce), 0);
                groth16_circuit_counts_of_pce(pce, &synthesised);
                assert_same_counts(&recorded, &synthesised);
        }
}

static void test_non_interactive_unrecorded(void **state) {
        struct groth16_circuit_counts c;

        (void)state;
        assert_int_equal(porep_circuit_counts(porep_config_by_id(18), &c), -EOPNOTSUPP);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_32gib_published),
                cmocka_unit_test(test_vk_part),
                cmocka_unit_test(test_small_sizes_synthesised),
                cmocka_unit_test(test_non_interactive_unrecorded),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
