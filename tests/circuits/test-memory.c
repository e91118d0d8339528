/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The partition memory function (zk/groth16_memory.h) against the peak RSS
 * of a real proof: a PoRep-shaped synthetic circuit (circuits/synthetic.h)
 * of 2^16 and 2^18 rows, a timing-only key with the circuit's densities,
 * groth16_prove_partition() with the PCE evaluator; predicted bytes within
 * 10% of the measured peak (VmHWM after /proc/self/clear_refs), and the
 * bound for any witness (every MSM scalar windowed) not below it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/synthetic.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "zk/groth16_memory.h"
#include "zk/groth16_partition.h"
#include "zk/groth16_setup.h"

/* AddressSanitizer's shadow memory and quarantine make RSS meaningless. */
#if defined(__SANITIZE_ADDRESS__)
#define RSS_MEANINGFUL false
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RSS_MEANINGFUL false
#endif
#endif
#ifndef RSS_MEANINGFUL
#define RSS_MEANINGFUL true
#endif

static int evaluate_pce(void *userdata, const fr_t *w, size_t n_vars, unsigned log_domain_size,
                        fr_t *a, fr_t *b, fr_t *c) {
        return pce_evaluate(userdata, w, n_vars, log_domain_size, a, b, c);
}

/* Returns false when the RSS comparison cannot be made here (the caller
 * skips then, after this function's cleanups have run: cmocka's skip()
 * jumps out of the frame, which would leak what the cleanups free). */
static bool measure(unsigned log_n) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_(groth16_keys_freep) struct groth16_keys *k = NULL;
        _cleanup_free_ fr_t *w = NULL, *w_copy = NULL;
        const uint32_t n = UINT32_C(1) << log_n;
        struct synthetic_params params = {
                .seed = log_n,
                .n_rows = n - n / 128,
                .n_aux = SYNTHETIC_DEFAULT,
                .n_public = SYNTHETIC_DEFAULT,
        };
        struct groth16_partition_shape shape, bound;
        struct groth16_proof proof;
        size_t predicted, baseline, peak, measured, witness_bytes;
        double error;

        assert_int_equal(synthetic_params_resolve(&params), 0);
        assert_int_equal(synthetic_generate(&params, &pce, &w), 0);
        assert_int_equal(pce_log_domain_size(pce), log_n);
        struct groth16_setup_circuit c = {
                .n_vars = pce->n_cols,
                .n_public = pce->n_public,
                .log_domain_size = log_n,
                .a_columns = pce->density[0],
                .b_columns = pce->density[1],
        };
        assert_int_equal(groth16_setup_timing_only(&c, NULL, &k), 0);

        groth16_partition_shape_from_witness(&shape, &k->pk, w, 0);
        predicted = groth16_partition_bytes(&shape);
        bound = shape;
        bound.g1_windowed = bound.g2_windowed = shape.n_vars;
        assert_true(groth16_partition_bytes(&bound) >= predicted);
        /* PoRep's shape: most of the witness is 0 or 1, B is sparse */
        assert_true(shape.g2_windowed < shape.n_vars / 4);

        if (!RSS_MEANINGFUL)
                return false;
        /* The witness counts: a fresh copy, made after the peak is reset. */
        witness_bytes = pce->n_cols * sizeof(fr_t);
        malloc_trim(0);
        if (process_peak_rss_reset(&baseline) < 0)
                return false;
        w_copy = malloc(witness_bytes);
        assert_non_null(w_copy);
        memcpy(w_copy, w, witness_bytes);
        assert_int_equal(groth16_prove_partition(&k->pk, evaluate_pce, pce, w_copy, &proof, 0), 0);
        assert_int_equal(process_peak_rss_bytes(&peak), 0);
        measured = peak - baseline;

        error = ((double)predicted - (double)measured) / (double)measured;
        print_message("2^%u rows: predicted %zu bytes, measured %zu bytes (%+.1f%%)\n", log_n,
                      predicted, measured, 100 * error);
        assert_true(error < 0.10 && error > -0.10);
        return true;
}

static void test_memory_2_16(void **state) {
        (void)state;
        if (!measure(16))
                skip();
}

static void test_memory_2_18(void **state) {
        (void)state;
        if (!measure(18))
                skip();
}

/* Sizes the function must get right without measuring: the H phase at scale. */
static void test_memory_large(void **state) {
        struct groth16_partition_shape s = {
                .log_domain_size = 27,
                .n_vars = 130278869 - 327,
                .n_public = 327,
                .g1_windowed = 130278869 - 327,
                .g2_windowed = 130278869 - 327,
                .threads = 16,
        };
        const size_t n = (size_t)1 << 27;
        size_t bytes = groth16_partition_bytes(&s);
        size_t h_phase = s.n_vars * 32 + 3 * n * 32 + ntt_domain_bytes(27);

        (void)state;
        /* 2^27: a, b, c (12.9 GB) dominate; MSM scratch is capped by the window width */
        assert_true(bytes == h_phase);
        assert_true(groth16_msm_scratch_bytes(n, n, 16, true) < (size_t)400 << 20);
        s.evaluate_bytes = 1000;
        assert_int_equal(groth16_partition_bytes(&s), h_phase + 1000);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_memory_large),
                cmocka_unit_test(test_memory_2_16),
                cmocka_unit_test(test_memory_2_18),
        };

        /* Big buffers from and back to the kernel, as in cuzk prove --pce. */
        mallopt(M_MMAP_THRESHOLD, 128 * 1024);
        log_set_max_level(LOG_WARNING);
        return cmocka_run_group_tests(tests, NULL, NULL);
}
