/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The MSM (zk/msm.h) against sums computed without it:
 *   - every size 0..4096 (G1) and 0..1024 plus random sizes up to 4096 (G2)
 *     against the naive sum of k_i * P_i (scalar multiplications, prefix
 *     sums kept so that every size costs one addition), with witness-like
 *     scalars (mostly 0, 1 and small); the sizes alternate the scalar form,
 *     and one in four runs on 2..4 threads;
 *   - larger sizes against (sum k_i a_i) * G, for points P_i = a_i * G built
 *     by a walk that keeps track of a_i;
 *   - edge cases: n = 0, all scalars 0, all points at infinity, many
 *     scalars 1 (the batch-addition path) with repeated and opposite points,
 *     canonical scalars from r up to 2^255 - 1, and the same MSM on 1..8,
 *     13 and 40 threads.
 * Scalars mix random full-width values with 0, 1, r - 1, small values,
 * powers of two (and one less) and bit patterns (mostly full-width outside
 * the sweep over every size); points repeat and cancel
 * (P, P, -P), so that buckets see doubling and cancellation.
 *
 * The seed is printed (CUZK_TEST_SEED repeats it); CUZK_TEST_SCALE (default
 * 1.0) scales the sizes; CUZK_TEST_FILTER (a cmocka pattern such as
 * 'test_g2_*') picks tests. The tests are written once for both groups: this
 * file includes itself with TEST_MSM_TEMPLATE defined, once per group.
 */
#ifndef TEST_MSM_TEMPLATE

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cleanup.h"
#include "tests/lib/ref.h"
#include "zk/g1.h"
#include "zk/g2.h"
#include "zk/msm.h"

#define WALK_STEPS 16

static size_t scaled(size_t n) {
        const char *s = getenv("CUZK_TEST_SCALE");
        double scale = s ? atof(s) : 1.0;
        size_t r = (size_t)((double)n * scale);

        return r ? r : 1;
}

static int setup_seed(void **state) {
        const char *s = getenv("CUZK_TEST_SEED");
        uint64_t seed = s ? strtoull(s, NULL, 0) : (uint64_t)time(NULL);

        (void)state;
        printf("test-msm: seed %" PRIu64 " (CUZK_TEST_SEED=%" PRIu64 " repeats it)\n", seed, seed);
        test_rng_seed(seed);
        return 0;
}

/* A canonical value below r from limbs: clears top bits until it fits. */
static void fr_from_limbs_clamped(fr_t *r, uint64_t k[FR_LIMBS]) {
        unsigned top = 63;

        while (!fr_from_canonical(r, k))
                k[FR_LIMBS - 1] &= (UINT64_C(1) << top--) - 1;
}

enum scalar_kind {
        SCALAR_ZERO,
        SCALAR_ONE,
        SCALAR_SMALL,     /* below 2^24 */
        SCALAR_MINUS_ONE, /* r - 1 */
        SCALAR_POWER,     /* 2^b or 2^b - 1 */
        SCALAR_PATTERN,   /* long runs of equal digits in every window width */
        SCALAR_RANDOM,
        SCALAR_KINDS,
};

/*
 * Two mixes, in 32nds. Dense: mostly full-width, for the large and the
 * special tests. Sparse: mostly 0, 1 and small values, like a witness, so
 * that the sweep over every size stays fast; its full-width fifth still
 * reaches every window.
 */
enum scalar_mix { MIX_DENSE, MIX_SPARSE, MIXES };
static const unsigned SCALAR_WEIGHTS[MIXES][SCALAR_KINDS] = {
        [MIX_DENSE] = {6, 4, 2, 2, 2, 2, 14},
        [MIX_SPARSE] = {12, 8, 6, 1, 1, 1, 3},
};

static enum scalar_kind random_scalar_kind(enum scalar_mix mix) {
        unsigned draw = test_rng_u64() % 32;

        for (unsigned kind = 0; kind < SCALAR_KINDS; kind++) {
                if (draw < SCALAR_WEIGHTS[mix][kind])
                        return kind;
                draw -= SCALAR_WEIGHTS[mix][kind];
        }
        fail_msg("scalar weights of mix %d do not add up to 32", mix);
        return SCALAR_RANDOM;
}

static void random_scalar(fr_t *s, enum scalar_mix mix) {
        static const uint64_t patterns[] = {0x5555555555555555ULL, 0xaaaaaaaaaaaaaaaaULL,
                                            0x8080808080808080ULL, 0xffffffffffffffffULL,
                                            0x8000800080008000ULL, 0x7fff7fff7fff7fffULL};
        uint64_t k[FR_LIMBS] = {0};
        unsigned bits;

        switch (random_scalar_kind(mix)) {
        case SCALAR_ZERO:
                fr_set_zero(s);
                return;
        case SCALAR_ONE:
                fr_set_one(s);
                return;
        case SCALAR_SMALL:
                bits = 1 + test_rng_u64() % 24;
                fr_from_u64(s, test_rng_u64() & ((UINT64_C(1) << bits) - 1));
                return;
        case SCALAR_MINUS_ONE:
                fr_set_one(s);
                fr_neg(s, s);
                return;
        case SCALAR_POWER:
                bits = 1 + test_rng_u64() % 254;
                if (test_rng_u64() & 1) {
                        k[bits / 64] = UINT64_C(1) << (bits % 64);
                } else {
                        for (unsigned i = 0; i < bits / 64; i++)
                                k[i] = ~UINT64_C(0);
                        k[bits / 64] = (UINT64_C(1) << (bits % 64)) - 1;
                }
                fr_from_limbs_clamped(s, k);
                return;
        case SCALAR_PATTERN:
                for (unsigned i = 0; i < FR_LIMBS; i++)
                        k[i] = patterns[test_rng_u64() % ELEMENTSOF(patterns)];
                fr_from_limbs_clamped(s, k);
                return;
        case SCALAR_RANDOM:
        case SCALAR_KINDS:
                break;
        }
        test_rng_fr(s);
}

static void random_scalars(fr_t *s, uint64_t *limbs, size_t n, enum scalar_mix mix) {
        for (size_t i = 0; i < n; i++) {
                random_scalar(&s[i], mix);
                fr_to_canonical(&limbs[i * FR_LIMBS], &s[i]);
        }
}

static void *xmalloc(size_t size) {
        void *p = malloc(size ? size : 1);

        assert_non_null(p);
        return p;
}

#define TEST_MSM_TEMPLATE
#define G(name) g1_##name
#define AFFINE_T g1_affine_t
#define JAC_T g1_jac_t
#define GENERATOR G1_GENERATOR
#define GROUP_NAME "G1"
#include "test-msm.c"

#define G(name) g2_##name
#define AFFINE_T g2_affine_t
#define JAC_T g2_jac_t
#define GENERATOR G2_GENERATOR
#define GROUP_NAME "G2"
#include "test-msm.c"
#undef TEST_MSM_TEMPLATE

static void test_empty(void **state) {
        g1_jac_t r1;
        g2_jac_t r2;

        (void)state;
        g1_jac_from_affine(&r1, &G1_GENERATOR);
        assert_int_equal(g1_msm_fr(&r1, NULL, NULL, 0, 0), 0);
        assert_true(g1_jac_is_infinity(&r1));
        g1_jac_from_affine(&r1, &G1_GENERATOR);
        assert_int_equal(g1_msm_canonical(&r1, NULL, NULL, 0, 3), 0);
        assert_true(g1_jac_is_infinity(&r1));
        g2_jac_from_affine(&r2, &G2_GENERATOR);
        assert_int_equal(g2_msm_fr(&r2, NULL, NULL, 0, 1), 0);
        assert_true(g2_jac_is_infinity(&r2));
        g2_jac_from_affine(&r2, &G2_GENERATOR);
        assert_int_equal(g2_msm_canonical(&r2, NULL, NULL, 0, 0), 0);
        assert_true(g2_jac_is_infinity(&r2));
}

static void test_g1_nothing_to_add(void **state) {
        (void)state;
        g1_test_nothing_to_add(scaled(2000));
}

static void test_g2_nothing_to_add(void **state) {
        (void)state;
        g2_test_nothing_to_add(scaled(2000));
}

static void test_g1_ones(void **state) {
        (void)state;
        /* past one full batch of 1024 and a flush even when scaled down */
        g1_test_ones(scaled(5000) > 2500 ? scaled(5000) : 2500);
}

static void test_g2_ones(void **state) {
        (void)state;
        g2_test_ones(scaled(3000) > 2500 ? scaled(3000) : 2500);
}

static void test_g1_canonical_above_r(void **state) {
        (void)state;
        g1_test_canonical_above_r(scaled(3000) > 300 ? scaled(3000) : 300);
}

static void test_g2_canonical_above_r(void **state) {
        (void)state;
        g2_test_canonical_above_r(scaled(1000) > 300 ? scaled(1000) : 300);
}

static void test_g1_thread_counts(void **state) {
        (void)state;
        /* enough windowed points for affine buckets, also when scaled down */
        g1_test_thread_counts(scaled(4000) > 3500 ? scaled(4000) : 3500);
}

static void test_g2_thread_counts(void **state) {
        (void)state;
        g2_test_thread_counts(scaled(1000));
}

static void test_g1_every_size(void **state) {
        (void)state;
        g1_test_sizes(scaled(4096), 0, 0);
}

static void test_g2_every_size(void **state) {
        (void)state;
        g2_test_sizes(scaled(1024), scaled(4096), 12);
}

static void test_g1_large(void **state) {
        (void)state;
        /* at least 4096 points, so that the reduced sanitizer runs reach the
         * affine buckets too */
        g1_test_large(scaled(1 << 14) > 4096 ? scaled(1 << 14) : 4096);
        g1_test_large(scaled(1 << 16));
        g1_test_large(scaled(1 << 16) + 1 + test_rng_u64() % scaled(1 << 14));
}

static void test_g2_large(void **state) {
        (void)state;
        g2_test_large(scaled(1 << 14) > 4096 ? scaled(1 << 14) : 4096);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_empty),
                cmocka_unit_test(test_g1_nothing_to_add),
                cmocka_unit_test(test_g2_nothing_to_add),
                cmocka_unit_test(test_g1_ones),
                cmocka_unit_test(test_g2_ones),
                cmocka_unit_test(test_g1_canonical_above_r),
                cmocka_unit_test(test_g2_canonical_above_r),
                cmocka_unit_test(test_g1_thread_counts),
                cmocka_unit_test(test_g2_thread_counts),
                cmocka_unit_test(test_g1_every_size),
                cmocka_unit_test(test_g2_every_size),
                cmocka_unit_test(test_g1_large),
                cmocka_unit_test(test_g2_large),
        };
        const char *filter = getenv("CUZK_TEST_FILTER");

        /* e.g. CUZK_TEST_FILTER='test_g1_*' runs the G1 tests only */
        if (filter)
                cmocka_set_test_filter(filter);
        return cmocka_run_group_tests(tests, setup_seed, NULL);
}

#else /* TEST_MSM_TEMPLATE: the tests of one group */

/* r = k * P for an affine P, with the curve's own scalar multiplication. */
static void G(test_mul)(JAC_T *r, const AFFINE_T *p, const fr_t *k) {
        JAC_T t;

        G(jac_from_affine)(&t, p);
        G(jac_mul_fr)(r, &t, k);
}

/*
 * n points P_i = a_i * G from a walk with random steps, and their logarithms
 * a_i (0 for the point at infinity). About one point in 32 is the point at
 * infinity, one in 32 repeats an earlier point and one in 32 is the negation
 * of an earlier point. logs may be NULL.
 */
static void G(test_points)(AFFINE_T *points, fr_t *logs, size_t n) {
        _cleanup_free_ JAC_T *jac = xmalloc(n * sizeof(JAC_T));
        _cleanup_free_ fr_t *a = xmalloc(n * sizeof(fr_t));
        JAC_T steps[WALK_STEPS], g, current;
        fr_t step_logs[WALK_STEPS], current_log;

        G(jac_from_affine)(&g, &GENERATOR);
        for (size_t s = 0; s < WALK_STEPS; s++) {
                test_rng_fr(&step_logs[s]);
                G(jac_mul_fr)(&steps[s], &g, &step_logs[s]);
        }
        test_rng_fr(&current_log);
        G(jac_mul_fr)(&current, &g, &current_log);
        for (size_t i = 0; i < n; i++) {
                unsigned kind = test_rng_u64() % 32;
                size_t earlier = i ? test_rng_u64() % i : 0;

                if (kind == 0) {
                        G(jac_set_infinity)(&jac[i]);
                        fr_set_zero(&a[i]);
                } else if (kind == 1 && i > 0) {
                        jac[i] = jac[earlier];
                        a[i] = a[earlier];
                } else if (kind == 2 && i > 0) {
                        G(jac_neg)(&jac[i], &jac[earlier]);
                        fr_neg(&a[i], &a[earlier]);
                } else {
                        size_t s = test_rng_u64() % WALK_STEPS;

                        G(jac_add)(&current, &current, &steps[s]);
                        fr_add(&current_log, &current_log, &step_logs[s]);
                        jac[i] = current;
                        a[i] = current_log;
                }
        }
        G(jac_batch_to_affine)(points, jac, n);
        if (logs)
                memcpy(logs, a, n * sizeof(fr_t));
}

/* expected[m] = sum over i < m of k_i * P_i, for every m <= n. */
static void G(test_naive_prefix_sums)(JAC_T *expected, const AFFINE_T *points, const fr_t *k,
                                      size_t n) {
        G(jac_set_infinity)(&expected[0]);
        for (size_t i = 0; i < n; i++) {
                JAC_T t;

                G(test_mul)(&t, &points[i], &k[i]);
                G(jac_add)(&expected[i + 1], &expected[i], &t);
        }
}

static void G(check_msm)(const AFFINE_T *points, const fr_t *k, const uint64_t *limbs, size_t n,
                         unsigned threads, bool canonical, const JAC_T *expected) {
        JAC_T r;
        int ret = canonical ? G(msm_canonical)(&r, points, limbs, n, threads)
                            : G(msm_fr)(&r, points, k, n, threads);

        assert_int_equal(ret, 0);
        assert_true(G(jac_is_on_curve)(&r));
        if (!G(jac_equal)(&r, expected))
                fail_msg("%s MSM of %zu points (%s scalars, %u threads) differs from the "
                         "expected sum",
                         GROUP_NAME, n, canonical ? "canonical" : "Fr", threads);
}

/* Every size 0..max_every, then `random_count` random sizes up to max_random. */
static void G(test_sizes)(size_t max_every, size_t max_random, size_t random_count) {
        size_t n = max_every > max_random ? max_every : max_random;
        _cleanup_free_ AFFINE_T *points = xmalloc(n * sizeof(AFFINE_T));
        _cleanup_free_ fr_t *k = xmalloc(n * sizeof(fr_t));
        _cleanup_free_ uint64_t *limbs = xmalloc(n * FR_LIMBS * sizeof(uint64_t));
        _cleanup_free_ JAC_T *expected = xmalloc((n + 1) * sizeof(JAC_T));

        G(test_points)(points, NULL, n);
        random_scalars(k, limbs, n, MIX_SPARSE);
        G(test_naive_prefix_sums)(expected, points, k, n);
        /* One size in four on 2..4 threads, after the others: idle OpenMP
         * threads spin for a while after each parallel region, which would
         * slow down the single-threaded sizes on a small shared machine. */
        for (size_t m = 0; m <= max_every; m++)
                if (m % 4 != 3)
                        G(check_msm)(points, k, limbs, m, 1, m % 2, &expected[m]);
        for (size_t m = 3; m <= max_every; m += 4) {
                unsigned threads = 2 + (unsigned)(m / 4) % 3;

                G(check_msm)(points, k, limbs, m, threads, m % 2, &expected[m]);
        }
        for (size_t i = 0; i < random_count; i++) {
                size_t m = test_rng_u64() % (max_random + 1);

                G(check_msm)(points, k, limbs, m, 1 + i % 4, i % 2, &expected[m]);
        }
}

/* All scalars 0, then all points at infinity: the MSM is the point at infinity. */
static void G(test_nothing_to_add)(size_t n) {
        _cleanup_free_ AFFINE_T *points = xmalloc(n * sizeof(AFFINE_T));
        _cleanup_free_ fr_t *k = xmalloc(n * sizeof(fr_t));
        _cleanup_free_ uint64_t *limbs = xmalloc(n * FR_LIMBS * sizeof(uint64_t));
        JAC_T infinity;

        G(jac_set_infinity)(&infinity);
        G(test_points)(points, NULL, n);
        memset(k, 0, n * sizeof(fr_t));
        memset(limbs, 0, n * FR_LIMBS * sizeof(uint64_t));
        G(check_msm)(points, k, limbs, n, 2, false, &infinity);
        G(check_msm)(points, k, limbs, n, 1, true, &infinity);
        for (size_t i = 0; i < n; i++) {
                G(affine_set_infinity)(&points[i]);
                test_rng_fr(&k[i]);
                fr_to_canonical(&limbs[i * FR_LIMBS], &k[i]);
        }
        G(check_msm)(points, k, limbs, n, 3, false, &infinity);
        G(check_msm)(points, k, limbs, n, 1, true, &infinity);
}

/*
 * Mostly scalars 1 (a few 0 and 2), over points that repeat and cancel: the
 * batch additions meet P + P and P + (-P). Enough ones per thread to fill
 * and flush the batches.
 */
static void G(test_ones)(size_t n) {
        _cleanup_free_ AFFINE_T *points = xmalloc(n * sizeof(AFFINE_T));
        _cleanup_free_ fr_t *k = xmalloc(n * sizeof(fr_t));
        _cleanup_free_ uint64_t *limbs = xmalloc(n * FR_LIMBS * sizeof(uint64_t));
        _cleanup_free_ JAC_T *expected = xmalloc((n + 1) * sizeof(JAC_T));

        G(test_points)(points, NULL, n);
        for (size_t i = 0; i < n; i++) {
                unsigned kind = test_rng_u64() % 16;

                /* whole runs of one point and of its negation */
                if (i > 0 && kind < 3)
                        points[i] = points[i - 1];
                else if (i > 0 && kind == 3)
                        G(affine_neg)(&points[i], &points[i - 1]);
                fr_from_u64(&k[i], kind == 4 ? 0 : kind == 5 ? 2 : 1);
                fr_to_canonical(&limbs[i * FR_LIMBS], &k[i]);
        }
        G(test_naive_prefix_sums)(expected, points, k, n);
        G(check_msm)(points, k, limbs, n, 1, false, &expected[n]);
        G(check_msm)(points, k, limbs, n, 3, true, &expected[n]);
        G(check_msm)(points, k, limbs, n / 2, 2, false, &expected[n / 2]);
}

/*
 * Canonical scalars k + r and k + j * 2^254 style values up to 2^255 - 1 act
 * as themselves: the MSM equals the one of their residues mod r.
 */
static void G(test_canonical_above_r)(size_t n) {
        _cleanup_free_ AFFINE_T *points = xmalloc(n * sizeof(AFFINE_T));
        _cleanup_free_ fr_t *k = xmalloc(n * sizeof(fr_t));
        _cleanup_free_ uint64_t *limbs = xmalloc(n * FR_LIMBS * sizeof(uint64_t));
        _cleanup_free_ JAC_T *expected = xmalloc((n + 1) * sizeof(JAC_T));

        G(test_points)(points, NULL, n);
        for (size_t i = 0; i < n; i++) {
                uint64_t *l = &limbs[i * FR_LIMBS];
                uint64_t carry = 0;

                if (i % 3 == 0) {
                        /* 2^255 - 1 - j for a small j: from 2^255 - 1 down */
                        for (unsigned j = 0; j < FR_LIMBS; j++)
                                l[j] = ~UINT64_C(0);
                        l[FR_LIMBS - 1] >>= 1;
                        l[0] -= test_rng_u64() % 1000;
                } else {
                        /* k + r for k < 2^255 - r (about 2^251.6) */
                        for (unsigned j = 0; j < FR_LIMBS; j++)
                                l[j] = test_rng_u64();
                        l[FR_LIMBS - 1] &= (UINT64_C(1) << 59) - 1;
                        for (unsigned j = 0; j < FR_LIMBS; j++) {
                                unsigned __int128 s =
                                        (unsigned __int128)l[j] + BLS12_381_R[j] + carry;
                                l[j] = (uint64_t)s;
                                carry = (uint64_t)(s >> 64);
                        }
                }
                assert_true(l[FR_LIMBS - 1] >> 63 == 0);
                /* the residue: subtract r (once or twice) */
                {
                        uint64_t t[FR_LIMBS];

                        memcpy(t, l, sizeof(t));
                        while (!fr_from_canonical(&k[i], t)) {
                                uint64_t borrow = 0;
                                for (unsigned j = 0; j < FR_LIMBS; j++) {
                                        unsigned __int128 d =
                                                (unsigned __int128)t[j] - BLS12_381_R[j] - borrow;
                                        t[j] = (uint64_t)d;
                                        borrow = (uint64_t)(d >> 64) & 1;
                                }
                        }
                }
        }
        G(test_naive_prefix_sums)(expected, points, k, n);
        /* several sizes, so several window widths meet the largest top digit */
        for (size_t m = n; m > 8; m /= 3) {
                G(check_msm)(points, k, limbs, m, 1, true, &expected[m]);
                G(check_msm)(points, k, limbs, m, 2, true, &expected[m]);
        }
        G(check_msm)(points, k, limbs, n, 2, false, &expected[n]);
}

/* One MSM on 1..8, 13 and 40 threads (more threads than cores is allowed;
 * many threads mean many magnitude splits per window, some of them empty in
 * the top window), and on the default count. */
static void G(test_thread_counts)(size_t n) {
        _cleanup_free_ AFFINE_T *points = xmalloc(n * sizeof(AFFINE_T));
        _cleanup_free_ fr_t *k = xmalloc(n * sizeof(fr_t));
        _cleanup_free_ uint64_t *limbs = xmalloc(n * FR_LIMBS * sizeof(uint64_t));
        _cleanup_free_ JAC_T *expected = xmalloc((n + 1) * sizeof(JAC_T));

        G(test_points)(points, NULL, n);
        random_scalars(k, limbs, n, MIX_DENSE);
        G(test_naive_prefix_sums)(expected, points, k, n);
        for (unsigned threads = 1; threads <= 8; threads++)
                G(check_msm)(points, k, limbs, n, threads, threads % 2, &expected[n]);
        G(check_msm)(points, k, limbs, n, 13, true, &expected[n]);
        G(check_msm)(points, k, limbs, n, 40, false, &expected[n]);
        G(check_msm)(points, k, limbs, n, 0, false, &expected[n]);
}

/*
 * n points with known logarithms: the MSM must be (sum k_i a_i) * G, which
 * costs one scalar multiplication however large n is.
 */
static void G(test_large)(size_t n) {
        _cleanup_free_ AFFINE_T *points = xmalloc(n * sizeof(AFFINE_T));
        _cleanup_free_ fr_t *a = xmalloc(n * sizeof(fr_t));
        _cleanup_free_ fr_t *k = xmalloc(n * sizeof(fr_t));
        _cleanup_free_ uint64_t *limbs = xmalloc(n * FR_LIMBS * sizeof(uint64_t));
        JAC_T expected;
        fr_t e, t;

        G(test_points)(points, a, n);
        random_scalars(k, limbs, n, MIX_DENSE);
        fr_set_zero(&e);
        for (size_t i = 0; i < n; i++) {
                fr_mul(&t, &k[i], &a[i]);
                fr_add(&e, &e, &t);
        }
        G(test_mul)(&expected, &GENERATOR, &e);
        G(check_msm)(points, k, limbs, n, 1, false, &expected);
        G(check_msm)(points, k, limbs, n, 2, true, &expected);
        G(check_msm)(points, k, limbs, n, 5, false, &expected);
}

#undef G
#undef AFFINE_T
#undef JAC_T
#undef GENERATOR
#undef GROUP_NAME

#endif /* TEST_MSM_TEMPLATE */
