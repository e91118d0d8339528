/* SPDX-License-Identifier: Apache-2.0 */
/*
 * NTT against a naive O(n^2) evaluation written here from the definition,
 * plus round trips, order variants, thread counts and the element-wise
 * passes. CUZK_TEST_SCALE (default 1.0) shrinks the sizes.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "common/cleanup.h"
#include "tests/lib/ref.h"
#include "zk/ntt.h"
#include "zk/parallel.h"

/* The 2^32-th roots of unity: ffjavascript's Fr.w[32] = 5^((r-1)/2^32) and
 * ff/blstrs's ROOT_OF_UNITY = 7^((r-1)/2^32). */
static const char *const ROOT_2_32_SNARKJS =
        "0x212d79e5b416b6f0fd56dc8d168d6c0c4024ff270b3e0941b788f500b912f1f";
static const char *const ROOT_2_32_BELLPERSON =
        "0x16a2a19edfe81f20d09b681922c813b4b63683508c2280b93829971f439f0d2b";

static const ntt_roots_t CONVENTIONS[] = {NTT_ROOTS_SNARKJS, NTT_ROOTS_BELLPERSON};
static const ntt_order_t ORDERS[] = {NTT_ORDER_NN, NTT_ORDER_NR, NTT_ORDER_RN};

static double test_scale(void) {
        const char *s = getenv("CUZK_TEST_SCALE");
        double v = s ? atof(s) : 1.0;
        return v > 0 ? v : 1.0;
}

/* The largest size checked against the naive O(n^2) evaluation. */
static unsigned naive_max_log(void) {
        unsigned k = 12;
        /* Its cost grows 4x per size step. */
        for (double s = test_scale(); s < 1.0 && k > 6; s *= 4.0)
                k--;
        return k;
}

static void fr_from_hex(fr_t *r, const char *hex) {
        uint64_t limbs[FR_LIMBS];
        assert_true(ref_hex_to_limbs(limbs, FR_LIMBS, hex));
        assert_true(fr_from_canonical(r, limbs));
}

/* omega_k from the published 2^32-th root by squaring. */
static void expected_root(fr_t *r, unsigned log_size, ntt_roots_t roots) {
        fr_from_hex(r, roots == NTT_ROOTS_SNARKJS ? ROOT_2_32_SNARKJS : ROOT_2_32_BELLPERSON);
        for (unsigned i = log_size; i < 32; i++)
                fr_sqr(r, r);
}

static fr_t *random_vector(size_t n) {
        fr_t *v = malloc(n * sizeof(fr_t));
        assert_non_null(v);
        for (size_t i = 0; i < n; i++)
                test_rng_fr(&v[i]);
        return v;
}

static fr_t *copy_vector(const fr_t *src, size_t n) {
        fr_t *v = malloc(n * sizeof(fr_t));
        assert_non_null(v);
        memcpy(v, src, n * sizeof(fr_t));
        return v;
}

static size_t reverse_bits(size_t i, unsigned bits) {
        size_t r = 0;
        for (unsigned b = 0; b < bits; b++)
                r |= ((i >> b) & 1) << (bits - 1 - b);
        return r;
}

/* out = in permuted to bit-reversed order, out != in. */
static void permute_bitrev(fr_t *out, const fr_t *in, unsigned log_size) {
        for (size_t i = 0; i < ((size_t)1 << log_size); i++)
                out[reverse_bits(i, log_size)] = in[i];
}

/* sum_j a[j] x^j by Horner. */
static void eval_poly(fr_t *r, const fr_t *a, size_t n, const fr_t *x) {
        fr_t acc;
        fr_set_zero(&acc);
        for (size_t j = n; j-- > 0;) {
                fr_mul(&acc, &acc, x);
                fr_add(&acc, &acc, &a[j]);
        }
        *r = acc;
}

/* out[i] = a(shift * omega^i), natural order. */
static void naive_evaluate(fr_t *out, const fr_t *a, size_t n, const fr_t *omega,
                           const fr_t *shift) {
        fr_t x = *shift;
        for (size_t i = 0; i < n; i++) {
                eval_poly(&out[i], a, n, &x);
                fr_mul(&x, &x, omega);
        }
}

static void assert_vectors_equal(const fr_t *x, const fr_t *y, size_t n, const char *what) {
        for (size_t i = 0; i < n; i++)
                if (!fr_equal(&x[i], &y[i]))
                        fail_msg("%s: element %zu of %zu differs", what, i, n);
}

/* The input a transform of the given order expects, from natural a. */
static void input_in_order(fr_t *buf, const fr_t *a, unsigned log_size, ntt_order_t order) {
        if (order == NTT_ORDER_RN)
                permute_bitrev(buf, a, log_size);
        else
                memcpy(buf, a, ((size_t)1 << log_size) * sizeof(fr_t));
}

/* Checks buf, in the output order of `order`, against natural `expect`. */
static void assert_output_in_order(const fr_t *buf, const fr_t *expect, unsigned log_size,
                                   ntt_order_t order, const char *what) {
        const size_t n = (size_t)1 << log_size;
        _cleanup_free_ fr_t *natural = malloc(n * sizeof(fr_t));

        assert_non_null(natural);
        if (order == NTT_ORDER_NR)
                permute_bitrev(natural, buf, log_size); /* an involution */
        else
                memcpy(natural, buf, n * sizeof(fr_t));
        assert_vectors_equal(natural, expect, n, what);
}

static void test_roots(void **state) {
        (void)state;
        for (size_t c = 0; c < ELEMENTSOF(CONVENTIONS); c++) {
                fr_t w, expect, t, minus_one;

                fr_set_one(&minus_one);
                fr_neg(&minus_one, &minus_one);
                ntt_root_of_unity(&w, 32, CONVENTIONS[c]);
                expected_root(&expect, 32, CONVENTIONS[c]);
                assert_true(fr_equal(&w, &expect));

                for (unsigned k = 0; k <= 32; k++) {
                        ntt_root_of_unity(&w, k, CONVENTIONS[c]);
                        t = w;
                        for (unsigned i = 0; i < k; i++) {
                                /* t = w^(2^i); w^(2^(k-1)) must be -1, so w is primitive */
                                if (i + 1 == k)
                                        assert_true(fr_equal(&t, &minus_one));
                                fr_sqr(&t, &t);
                        }
                        assert_true(fr_is_one(&t));
                }
        }

        /* snarkjs's shift is a primitive 2n-th root: shift^n = -1. */
        for (unsigned k = 0; k <= NTT_MAX_LOG_SIZE; k++) {
                fr_t s, expect, one;

                ntt_snarkjs_h_shift(&s, k);
                expected_root(&expect, k + 1, NTT_ROOTS_SNARKJS);
                assert_true(fr_equal(&s, &expect));
                for (unsigned i = 0; i < k; i++)
                        fr_sqr(&s, &s);
                fr_set_one(&one);
                fr_add(&s, &s, &one);
                assert_true(fr_is_zero(&s));
        }
}

static void test_domain_fields(void **state) {
        (void)state;
        for (size_t c = 0; c < ELEMENTSOF(CONVENTIONS); c++)
                for (unsigned k = 0; k <= 10; k++) {
                        _cleanup_ntt_domain_ ntt_domain_t *d = NULL;
                        fr_t t, n_fr, expect;

                        assert_int_equal(ntt_domain_new(&d, k, CONVENTIONS[c]), 0);
                        assert_int_equal(d->size, (size_t)1 << k);
                        assert_int_equal(d->log_size, k);
                        expected_root(&expect, k, CONVENTIONS[c]);
                        assert_true(fr_equal(&d->omega, &expect));
                        fr_mul(&t, &d->omega, &d->omega_inv);
                        assert_true(fr_is_one(&t));
                        fr_from_u64(&n_fr, d->size);
                        fr_mul(&t, &n_fr, &d->size_inv);
                        assert_true(fr_is_one(&t));
                        fr_set_one(&t);
                        for (size_t i = 0; i < d->size / 2; i++) {
                                assert_true(fr_equal(&d->twiddles[i], &t));
                                fr_mul(&t, &t, &d->omega);
                        }
                }
}

static void test_domain_errors(void **state) {
        ntt_domain_t *d = NULL;
        (void)state;

        assert_int_equal(ntt_domain_new(&d, NTT_MAX_LOG_SIZE + 1, NTT_ROOTS_SNARKJS), -EINVAL);
        assert_null(d);
        assert_int_equal(ntt_domain_new(&d, 4, (ntt_roots_t)7), -EINVAL);
        assert_null(d);
        assert_true(ntt_domain_bytes(20) >= ((size_t)1 << 19) * sizeof(fr_t));
        ntt_domain_free(NULL);
}

/* Forward and inverse, every order, against the naive DFT. */
static void test_matches_naive(void **state) {
        (void)state;
        test_rng_seed(10);
        for (size_t c = 0; c < ELEMENTSOF(CONVENTIONS); c++)
                for (unsigned k = 0; k <= naive_max_log(); k++) {
                        const size_t n = (size_t)1 << k;
                        _cleanup_ntt_domain_ ntt_domain_t *d = NULL;
                        _cleanup_free_ fr_t *a = random_vector(n);
                        _cleanup_free_ fr_t *expect = malloc(n * sizeof(fr_t));
                        _cleanup_free_ fr_t *buf = malloc(n * sizeof(fr_t));
                        fr_t omega, one;

                        assert_non_null(expect);
                        assert_non_null(buf);
                        assert_int_equal(ntt_domain_new(&d, k, CONVENTIONS[c]), 0);
                        expected_root(&omega, k, CONVENTIONS[c]);
                        fr_set_one(&one);
                        naive_evaluate(expect, a, n, &omega, &one);

                        for (size_t o = 0; o < ELEMENTSOF(ORDERS); o++) {
                                input_in_order(buf, a, k, ORDERS[o]);
                                ntt_forward(d, buf, ORDERS[o]);
                                assert_output_in_order(buf, expect, k, ORDERS[o], "forward");

                                /* inverse: evaluations (natural) -> coefficients */
                                input_in_order(buf, expect, k, ORDERS[o]);
                                ntt_inverse(d, buf, ORDERS[o]);
                                assert_output_in_order(buf, a, k, ORDERS[o], "inverse");
                        }
                }
}

static void coset_shifts(fr_t shifts[3], unsigned log_size) {
        fr_from_u64(&shifts[0], NTT_COSET_GENERATOR);
        ntt_snarkjs_h_shift(&shifts[1], log_size);
        test_rng_fr(&shifts[2]);
}

static void test_coset_matches_naive(void **state) {
        (void)state;
        test_rng_seed(11);
        for (size_t c = 0; c < ELEMENTSOF(CONVENTIONS); c++)
                for (unsigned k = 0; k + 1 <= naive_max_log(); k++) {
                        const size_t n = (size_t)1 << k;
                        _cleanup_ntt_domain_ ntt_domain_t *d = NULL;
                        _cleanup_free_ fr_t *a = random_vector(n);
                        _cleanup_free_ fr_t *expect = malloc(n * sizeof(fr_t));
                        _cleanup_free_ fr_t *buf = malloc(n * sizeof(fr_t));
                        fr_t omega, shifts[3];

                        assert_non_null(expect);
                        assert_non_null(buf);
                        assert_int_equal(ntt_domain_new(&d, k, CONVENTIONS[c]), 0);
                        expected_root(&omega, k, CONVENTIONS[c]);
                        coset_shifts(shifts, k);
                        for (size_t s = 0; s < ELEMENTSOF(shifts); s++) {
                                naive_evaluate(expect, a, n, &omega, &shifts[s]);
                                for (size_t o = 0; o < ELEMENTSOF(ORDERS); o++) {
                                        input_in_order(buf, a, k, ORDERS[o]);
                                        ntt_coset_forward(d, buf, &shifts[s], ORDERS[o]);
                                        assert_output_in_order(buf, expect, k, ORDERS[o],
                                                               "coset forward");

                                        input_in_order(buf, expect, k, ORDERS[o]);
                                        ntt_coset_inverse(d, buf, &shifts[s], ORDERS[o]);
                                        assert_output_in_order(buf, a, k, ORDERS[o],
                                                               "coset inverse");
                                }
                        }
                }
}

/* Runs every transform on a copy of a with the given thread count. */
static void all_transforms(fr_t *out[8], const ntt_domain_t *d, const fr_t *a, unsigned threads) {
        const fr_t shift = {{7, 0, 0, 0}}; /* any non-zero element */
        unsigned idx = 0;

        zk_set_thread_count(threads);
        for (size_t o = 0; o < ELEMENTSOF(ORDERS); o++) {
                out[idx] = copy_vector(a, d->size);
                ntt_forward(d, out[idx++], ORDERS[o]);
                out[idx] = copy_vector(a, d->size);
                ntt_inverse(d, out[idx++], ORDERS[o]);
        }
        out[idx] = copy_vector(a, d->size);
        ntt_coset_forward(d, out[idx++], &shift, NTT_ORDER_NR);
        out[idx] = copy_vector(a, d->size);
        ntt_coset_inverse(d, out[idx++], &shift, NTT_ORDER_RN);
        zk_set_thread_count(0);
}

static void test_threads_agree(void **state) {
        static const unsigned sizes[] = {13, 14, 16, 17};
        (void)state;

        test_rng_seed(12);
        for (size_t i = 0; i < ELEMENTSOF(sizes); i++) {
                _cleanup_ntt_domain_ ntt_domain_t *d = NULL;
                _cleanup_free_ fr_t *a = NULL;
                fr_t *one_thread[8], *many_threads[8];

                if (sizes[i] > 14 && test_scale() < 0.5)
                        continue;
                assert_int_equal(ntt_domain_new(&d, sizes[i], NTT_ROOTS_BELLPERSON), 0);
                a = random_vector(d->size);
                all_transforms(one_thread, d, a, 1);
                all_transforms(many_threads, d, a, 4);
                for (size_t t = 0; t < ELEMENTSOF(one_thread); t++) {
                        assert_vectors_equal(one_thread[t], many_threads[t], d->size,
                                             "1 thread vs 4 threads");
                        free(one_thread[t]);
                        free(many_threads[t]);
                }
        }
}

/* Checks a few random outputs of a transform of size 2^k, stored in the
 * output order of `order`, against a(shift * omega^i) by Horner. */
static void probe_outputs(const fr_t *buf, const fr_t *a, unsigned k, const fr_t *omega,
                          const fr_t *shift, ntt_order_t order, int probes) {
        const size_t n = (size_t)1 << k;

        for (int probe = 0; probe < probes; probe++) {
                size_t i = test_rng_u64() & (n - 1);
                uint64_t e = i;
                fr_t x, v;

                fr_pow(&x, omega, &e, 1);
                fr_mul(&x, &x, shift);
                eval_poly(&v, a, n, &x);
                if (!fr_equal(&buf[order == NTT_ORDER_NR ? reverse_bits(i, k) : i], &v))
                        fail_msg("size 2^%u, order %d: output %zu is not a(x)", k, (int)order, i);
        }
}

/* Every order (or only NR, the prover's), plain and on snarkjs's coset:
 * probes outputs, round trips. */
static void check_large(unsigned k, ntt_roots_t roots, int probes, bool all_orders) {
        const size_t n = (size_t)1 << k;
        _cleanup_ntt_domain_ ntt_domain_t *d = NULL;
        _cleanup_free_ fr_t *a = random_vector(n);
        _cleanup_free_ fr_t *buf = malloc(n * sizeof(fr_t));
        fr_t omega, shift, one;

        assert_non_null(buf);
        assert_int_equal(ntt_domain_new(&d, k, roots), 0);
        expected_root(&omega, k, roots);
        fr_set_one(&one);
        ntt_snarkjs_h_shift(&shift, k);

        for (size_t o = 0; o < ELEMENTSOF(ORDERS); o++) {
                if (!all_orders && ORDERS[o] != NTT_ORDER_NR)
                        continue;
                const ntt_order_t back = ORDERS[o] == NTT_ORDER_NR   ? NTT_ORDER_RN
                                         : ORDERS[o] == NTT_ORDER_RN ? NTT_ORDER_NR
                                                                     : NTT_ORDER_NN;
                /* The round trip gives back the input's order. */
                const ntt_order_t round_trip_order =
                        ORDERS[o] == NTT_ORDER_RN ? NTT_ORDER_NR : NTT_ORDER_NN;

                input_in_order(buf, a, k, ORDERS[o]);
                ntt_forward(d, buf, ORDERS[o]);
                probe_outputs(buf, a, k, &omega, &one, ORDERS[o], probes);
                ntt_inverse(d, buf, back);
                assert_output_in_order(buf, a, k, round_trip_order, "forward then inverse");

                input_in_order(buf, a, k, ORDERS[o]);
                ntt_coset_forward(d, buf, &shift, ORDERS[o]);
                probe_outputs(buf, a, k, &omega, &shift, ORDERS[o], probes);
                ntt_coset_inverse(d, buf, &shift, back);
                assert_output_in_order(buf, a, k, round_trip_order, "coset forward then inverse");
        }
}

/*
 * Sizes past the naive range, where the wide stages run as sweeps (2^13 ..
 * 2^17 cover sweeps of 1, 2, 3, 3+1 and 3+2 stages), and 2^20 (NR only).
 * CUZK_NTT_LARGE_LOG=k adds one size up to 2^28 (memory: about 4.5 * 32 * 2^k
 * bytes), for a one-off check of the largest domains.
 */
static void test_large(void **state) {
        static const unsigned sizes[] = {13, 14, 15, 16, 17, 20};
        const char *extra = getenv("CUZK_NTT_LARGE_LOG");
        (void)state;

        test_rng_seed(13);
        for (size_t s = 0; s < ELEMENTSOF(sizes); s++) {
                if (sizes[s] > 16 && test_scale() < 0.5)
                        continue;
                check_large(sizes[s], CONVENTIONS[s % 2], 4, sizes[s] <= 17);
        }
        if (extra) {
                int k = atoi(extra);
                if (k <= 20 || k > NTT_MAX_LOG_SIZE)
                        fail_msg("CUZK_NTT_LARGE_LOG=%s: expected 21..%d", extra, NTT_MAX_LOG_SIZE);
                check_large((unsigned)k, NTT_ROOTS_BELLPERSON, 1, true);
        }
}

static void test_bit_reverse(void **state) {
        static const unsigned sizes[] = {0, 1, 2, 5, 13, 14, 15, 18};
        (void)state;

        test_rng_seed(14);
        for (size_t s = 0; s < ELEMENTSOF(sizes); s++) {
                const unsigned k = sizes[s];
                const size_t n = (size_t)1 << k;
                _cleanup_free_ fr_t *a = random_vector(n);
                _cleanup_free_ fr_t *buf = copy_vector(a, n);
                _cleanup_free_ fr_t *expect = malloc(n * sizeof(fr_t));

                assert_non_null(expect);
                permute_bitrev(expect, a, k);
                ntt_bit_reverse(buf, k);
                assert_vectors_equal(buf, expect, n, "bit reversal");
        }
}

static void test_mul_by_powers(void **state) {
        static const unsigned sizes[] = {0, 1, 3, 12, 13, 15};
        (void)state;

        test_rng_seed(15);
        for (size_t s = 0; s < ELEMENTSOF(sizes); s++) {
                const unsigned k = sizes[s];
                const size_t n = (size_t)1 << k;
                _cleanup_free_ fr_t *a = random_vector(n);
                _cleanup_free_ fr_t *expect = copy_vector(a, n);
                _cleanup_free_ fr_t *buf = copy_vector(a, n);
                _cleanup_free_ fr_t *reversed = malloc(n * sizeof(fr_t));
                fr_t c, g, p;

                assert_non_null(reversed);
                test_rng_fr(&c);
                test_rng_fr(&g);
                p = c;
                for (size_t i = 0; i < n; i++) {
                        fr_mul(&expect[i], &expect[i], &p);
                        fr_mul(&p, &p, &g);
                }
                ntt_mul_by_powers(buf, k, &c, &g, false);
                assert_vectors_equal(buf, expect, n, "natural powers");

                permute_bitrev(reversed, a, k);
                ntt_mul_by_powers(reversed, k, &c, &g, true);
                permute_bitrev(buf, reversed, k);
                assert_vectors_equal(buf, expect, n, "bit-reversed powers");
        }
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_roots),
                cmocka_unit_test(test_domain_fields),
                cmocka_unit_test(test_domain_errors),
                cmocka_unit_test(test_bit_reverse),
                cmocka_unit_test(test_mul_by_powers),
                cmocka_unit_test(test_matches_naive),
                cmocka_unit_test(test_coset_matches_naive),
                cmocka_unit_test(test_threads_agree),
                cmocka_unit_test(test_large),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
