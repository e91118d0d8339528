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
#include <time.h>

#include "zk/cpu.h"
#include "zk/fp.h"
#include "zk/fp2.h"
#include "zk/fr.h"

/* Many short runs: the minimum is what the code costs when nothing else
 * competes for the core. */
#define REPEATS 40

static double now_sec(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

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

/* Each bench function runs `iters` operations and returns ns per operation. */
static double bench_fp_mul_chain(long iters) {
        fp_t a, b;
        sample_fp(&a, 3);
        sample_fp(&b, 5);
        double t = now_sec();
        for (long i = 0; i < iters; i++)
                fp_mul(&a, &a, &b);
        t = now_sec() - t;
        if (fp_is_zero(&a))
                puts("");
        return t * 1e9 / (double)iters;
}

static double bench_fp_mul_indep(long iters) {
        fp_t a[4], b;
        for (int k = 0; k < 4; k++)
                sample_fp(&a[k], 7 + (uint64_t)k);
        sample_fp(&b, 5);
        double t = now_sec();
        for (long i = 0; i < iters / 4; i++)
                for (int k = 0; k < 4; k++)
                        fp_mul(&a[k], &a[k], &b);
        t = now_sec() - t;
        if (fp_is_zero(&a[0]) || fp_is_zero(&a[3]))
                puts("");
        return t * 1e9 / (double)(iters / 4 * 4);
}

static double bench_fp_sqr_chain(long iters) {
        fp_t a;
        sample_fp(&a, 3);
        double t = now_sec();
        for (long i = 0; i < iters; i++)
                fp_sqr(&a, &a);
        t = now_sec() - t;
        if (fp_is_zero(&a))
                puts("");
        return t * 1e9 / (double)iters;
}

static double bench_fr_mul_chain(long iters) {
        fr_t a, b;
        sample_fr(&a, 3);
        sample_fr(&b, 5);
        double t = now_sec();
        for (long i = 0; i < iters; i++)
                fr_mul(&a, &a, &b);
        t = now_sec() - t;
        if (fr_is_zero(&a))
                puts("");
        return t * 1e9 / (double)iters;
}

static double bench_fr_mul_indep(long iters) {
        fr_t a[4], b;
        for (int k = 0; k < 4; k++)
                sample_fr(&a[k], 7 + (uint64_t)k);
        sample_fr(&b, 5);
        double t = now_sec();
        for (long i = 0; i < iters / 4; i++)
                for (int k = 0; k < 4; k++)
                        fr_mul(&a[k], &a[k], &b);
        t = now_sec() - t;
        if (fr_is_zero(&a[0]) || fr_is_zero(&a[3]))
                puts("");
        return t * 1e9 / (double)(iters / 4 * 4);
}

static double bench_fr_sqr_chain(long iters) {
        fr_t a;
        sample_fr(&a, 3);
        double t = now_sec();
        for (long i = 0; i < iters; i++)
                fr_sqr(&a, &a);
        t = now_sec() - t;
        if (fr_is_zero(&a))
                puts("");
        return t * 1e9 / (double)iters;
}

static double bench_fp2_mul_chain(long iters) {
        fp2_t a, b;
        sample_fp(&a.c0, 3);
        sample_fp(&a.c1, 4);
        sample_fp(&b.c0, 5);
        sample_fp(&b.c1, 6);
        iters /= 3;
        double t = now_sec();
        for (long i = 0; i < iters; i++)
                fp2_mul(&a, &a, &b);
        t = now_sec() - t;
        if (fp2_is_zero(&a))
                puts("");
        return t * 1e9 / (double)iters;
}

static double bench_fp_add_chain(long iters) {
        fp_t a, b;
        sample_fp(&a, 3);
        sample_fp(&b, 5);
        double t = now_sec();
        for (long i = 0; i < iters; i++)
                fp_add(&a, &a, &b);
        t = now_sec() - t;
        if (fp_is_zero(&a))
                puts("");
        return t * 1e9 / (double)iters;
}

static double bench_fp_sub_chain(long iters) {
        fp_t a, b;
        sample_fp(&a, 3);
        sample_fp(&b, 5);
        double t = now_sec();
        for (long i = 0; i < iters; i++)
                fp_sub(&a, &a, &b);
        t = now_sec() - t;
        if (fp_is_zero(&a))
                puts("");
        return t * 1e9 / (double)iters;
}

static double bench_fp_legendre(long iters) {
        fp_t a, one;
        int sum = 0;
        sample_fp(&a, 3);
        fp_set_one(&one);
        iters /= 200;
        double t = now_sec();
        for (long i = 0; i < iters; i++) {
                sum += fp_legendre(&a);
                fp_add(&a, &a, &one);
        }
        t = now_sec() - t;
        if (sum == 12345)
                puts("");
        return t * 1e9 / (double)iters;
}

static double bench_fp2_sqrt(long iters) {
        fp2_t a, r;
        fp_t one;
        sample_fp(&a.c0, 3);
        sample_fp(&a.c1, 4);
        fp_set_one(&one);
        iters /= 1000;
        double t = now_sec();
        for (long i = 0; i < iters; i++) {
                fp2_sqr(&a, &a); /* a square: the full cost */
                if (fp2_sqrt(&r, &a))
                        a = r;
                fp_add(&a.c0, &a.c0, &one);
        }
        t = now_sec() - t;
        if (fp2_is_zero(&a))
                puts("");
        return t * 1e9 / (double)iters;
}

static double bench_fp_inv(long iters) {
        fp_t a, one;
        sample_fp(&a, 3);
        fp_set_one(&one);
        iters /= 200;
        double t = now_sec();
        for (long i = 0; i < iters; i++) {
                fp_inv(&a, &a);
                fp_add(&a, &a, &one);
        }
        t = now_sec() - t;
        if (fp_is_zero(&a))
                puts("");
        return t * 1e9 / (double)iters;
}

static double bench_fr_inv(long iters) {
        fr_t a, one;
        sample_fr(&a, 3);
        fr_set_one(&one);
        iters /= 200;
        double t = now_sec();
        for (long i = 0; i < iters; i++) {
                fr_inv(&a, &a);
                fr_add(&a, &a, &one);
        }
        t = now_sec() - t;
        if (fr_is_zero(&a))
                puts("");
        return t * 1e9 / (double)iters;
}

static double bench_fp_sqrt(long iters) {
        fp_t a, one, r;
        sample_fp(&a, 3);
        fp_set_one(&one);
        iters /= 500;
        double t = now_sec();
        for (long i = 0; i < iters; i++) {
                if (fp_sqrt(&r, &a))
                        a = r;
                fp_add(&a, &a, &one);
        }
        t = now_sec() - t;
        if (fp_is_zero(&a))
                puts("");
        return t * 1e9 / (double)iters;
}

static double bench_fr_sqrt(long iters) {
        fr_t a, one, r;
        sample_fr(&a, 3);
        fr_set_one(&one);
        iters /= 300;
        double t = now_sec();
        for (long i = 0; i < iters; i++) {
                if (fr_sqrt(&r, &a))
                        a = r;
                fr_add(&a, &a, &one);
        }
        t = now_sec() - t;
        if (fr_is_zero(&a))
                puts("");
        return t * 1e9 / (double)iters;
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
