/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Nanoseconds per field operation, for the assembly and the portable path.
 * "chain" feeds each result into the next operation (latency); "indep" runs
 * four independent chains side by side (throughput). Usage:
 *   bench-field [thousands of multiplications per run, default 200]
 * The minimum over REPEATS runs is printed.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench-util.h"
#include "zk/cpu.h"
#include "zk/fp.h"
#include "zk/fp2.h"
#include "zk/fr.h"

/* Many short runs: the minimum is what the code costs when nothing else
 * competes for the core. */
#define REPEATS 40

/* A fixed non-trivial element: from_u64 then a few squarings. */
static void sample_fp(fp_t *r, uint64_t seed) {
        fp_from_u64(r, seed);
        for (int i = 0; i < 5; i++)
                fp_sqr(r, r);
}

static void sample_fr(fr_t *r, uint64_t seed) {
        fr_from_u64(r, seed);
        for (int i = 0; i < 5; i++)
                fr_sqr(r, r);
}

/*
 * Each bench function runs about `iters` operations and returns ns per
 * operation. A chain feeds each result into the next operation; its
 * element is `a`, `b` a second sample, `one` the field's 1 and `r` a
 * scratch value. The result is printed if it is zero so that the compiler
 * keeps the loop.
 */
#define BENCH_CHAIN(NAME, F, DIVISOR, OP)                                  \
        static double NAME(long iters) {                                   \
                F##_t a, b, one, r;                                        \
                double ns;                                                 \
                                                                           \
                sample_##F(&a, 3);                                         \
                sample_##F(&b, 5);                                         \
                F##_set_one(&one);                                         \
                r = one;                                                   \
                ns = BENCH_NS_PER_OP(iters / (DIVISOR), OP);               \
                if (F##_is_zero(&a) || F##_is_zero(&r) || F##_is_zero(&b)) \
                        puts("");                                          \
                return ns;                                                 \
        }

BENCH_CHAIN(bench_fp_add_chain, fp, 1, fp_add(&a, &a, &b))
BENCH_CHAIN(bench_fp_sub_chain, fp, 1, fp_sub(&a, &a, &b))
BENCH_CHAIN(bench_fp_mul_chain, fp, 1, fp_mul(&a, &a, &b))
BENCH_CHAIN(bench_fp_sqr_chain, fp, 1, fp_sqr(&a, &a))
BENCH_CHAIN(bench_fr_mul_chain, fr, 1, fr_mul(&a, &a, &b))
BENCH_CHAIN(bench_fr_sqr_chain, fr, 1, fr_sqr(&a, &a))
/* Inversions and square roots of a, a + 1, a + 2, ... */
BENCH_CHAIN(bench_fp_inv, fp, 200, fp_inv(&a, &a); fp_add(&a, &a, &one))
BENCH_CHAIN(bench_fr_inv, fr, 200, fr_inv(&a, &a); fr_add(&a, &a, &one))
BENCH_CHAIN(bench_fp_sqrt, fp, 500, if (fp_sqrt(&r, &a)) a = r; fp_add(&a, &a, &one))
BENCH_CHAIN(bench_fr_sqrt, fr, 300, if (fr_sqrt(&r, &a)) a = r; fr_add(&a, &a, &one))

/* Four independent chains side by side: throughput instead of latency. */
#define BENCH_INDEP(NAME, F, OP)                                                         \
        static double NAME(long iters) {                                                 \
                F##_t a[4], b;                                                           \
                double ns;                                                               \
                                                                                         \
                for (int k = 0; k < 4; k++)                                              \
                        sample_##F(&a[k], 7 + (uint64_t)k);                              \
                sample_##F(&b, 5);                                                       \
                ns = BENCH_NS_PER_OP(iters / 4,                                          \
                                     for (int k = 0; k < 4; k++) OP(&a[k], &a[k], &b)) / \
                     4;                                                                  \
                if (F##_is_zero(&a[0]) || F##_is_zero(&a[3]))                            \
                        puts("");                                                        \
                return ns;                                                               \
        }

BENCH_INDEP(bench_fp_mul_indep, fp, fp_mul)
BENCH_INDEP(bench_fr_mul_indep, fr, fr_mul)

static void sample_fp2(fp2_t *r, uint64_t seed) {
        sample_fp(&r->c0, seed);
        sample_fp(&r->c1, seed + 1);
}

static double bench_fp2_mul_chain(long iters) {
        fp2_t a, b;
        double ns;

        sample_fp2(&a, 3);
        sample_fp2(&b, 5);
        ns = BENCH_NS_PER_OP(iters / 3, fp2_mul(&a, &a, &b));
        if (fp2_is_zero(&a))
                puts("");
        return ns;
}

static double bench_fp_legendre(long iters) {
        fp_t a, one;
        int sum = 0;
        double ns;

        sample_fp(&a, 3);
        fp_set_one(&one);
        ns = BENCH_NS_PER_OP(iters / 200, sum += fp_legendre(&a); fp_add(&a, &a, &one));
        if (sum == 12345)
                puts("");
        return ns;
}

static double bench_fp2_sqrt(long iters) {
        fp2_t a, r;
        fp_t one;
        double ns;

        sample_fp2(&a, 3);
        fp_set_one(&one);
        /* a square each time: the full cost */
        ns = BENCH_NS_PER_OP(iters / 1000, fp2_sqr(&a, &a); if (fp2_sqrt(&r, &a)) a = r;
                             fp_add(&a.c0, &a.c0, &one));
        if (fp2_is_zero(&a))
                puts("");
        return ns;
}

static const struct {
        const char *name;
        double (*run)(long iters);
} benches[] = {
        {"fp_add chain", bench_fp_add_chain},
        {"fp_sub chain", bench_fp_sub_chain},
        {"fp_mul chain", bench_fp_mul_chain},
        {"fp_mul indep", bench_fp_mul_indep},
        {"fp_sqr chain", bench_fp_sqr_chain},
        {"fr_mul chain", bench_fr_mul_chain},
        {"fr_mul indep", bench_fr_mul_indep},
        {"fr_sqr chain", bench_fr_sqr_chain},
        {"fp2_mul chain", bench_fp2_mul_chain},
        {"fp_inv", bench_fp_inv},
        {"fr_inv", bench_fr_inv},
        {"fp_sqrt", bench_fp_sqrt},
        {"fr_sqrt", bench_fr_sqrt},
        {"fp_legendre", bench_fp_legendre},
        {"fp2_sqrt", bench_fp2_sqrt},
};

static double best_of(double (*run)(long), long iters) {
        double best = run(iters);
        for (int k = 1; k < REPEATS; k++) {
                double t = run(iters);
                if (t < best)
                        best = t;
        }
        return best;
}

int main(int argc, char **argv) {
        long thousands = argc > 1 ? atol(argv[1]) : 200;
        long iters = thousands > 0 ? thousands * 1000 : 200000;
        bool have_fast = zk_cpu_has_bmi2_adx();

        printf("%-16s %14s %14s\n", "operation", "x86_64-adx ns", "portable ns");
        for (size_t i = 0; i < sizeof(benches) / sizeof(benches[0]); i++) {
                double fast = 0, portable;
                if (have_fast) {
                        zk_arith_force_portable(false);
                        fast = best_of(benches[i].run, iters);
                }
                zk_arith_force_portable(true);
                portable = best_of(benches[i].run, iters);
                if (have_fast)
                        printf("%-16s %14.1f %14.1f\n", benches[i].name, fast, portable);
                else
                        printf("%-16s %14s %14.1f\n", benches[i].name, "-", portable);
        }
        zk_arith_force_portable(false);
        return 0;
}
