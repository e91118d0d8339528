/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Benchmarks of the BLS12-381 core on the CPU. Prints markdown tables:
 * field and curve operations in ns, G1/G2 MSM per point for 1 thread and all
 * threads, NTT times, pairing times.
 *
 * Usage: bench-zk [--max-msm-log N] [--max-g2-log N] [--max-ntt-log N] [--quick]
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-util.h"
#include "common/cleanup.h"
#include "zk/cpu.h"
#include "zk/fp.h"
#include "zk/fr.h"
#include "zk/g1.h"
#include "zk/g2.h"
#include "zk/msm.h"
#include "zk/ntt.h"
#include "zk/pairing.h"
#include "zk/parallel.h"

/* Keeps results alive so the compiler cannot drop the timed loops. */
static volatile uint64_t sink;

static void bench_ops(void) {
        const size_t iters = 2000000;
        fp_t a, b;
        fr_t x, y;
        g1_jac_t j1, j2;
        g1_xyzz_t z1;
        g1_affine_t p1;
        g2_xyzz_t z2;
        g2_affine_t p2;

        bench_random_fp(&a);
        bench_random_fp(&b);
        bench_random_fr(&x);
        bench_random_fr(&y);

        printf("| operation | ns |\n|---|---|\n");
        printf("| Fp mul (%s) | %.1f |\n", zk_arith_name(),
               BENCH_NS_PER_OP(iters, fp_mul(&a, &a, &b)));
        printf("| Fp sqr | %.1f |\n", BENCH_NS_PER_OP(iters, fp_sqr(&a, &a)));
        printf("| Fr mul | %.1f |\n", BENCH_NS_PER_OP(iters, fr_mul(&x, &x, &y)));
        printf("| Fp inv | %.1f |\n", BENCH_NS_PER_OP(iters / 100, fp_inv(&a, &a)));
        sink = a.l[0] ^ x.l[0];

        g1_jac_from_affine(&j1, &G1_GENERATOR);
        g1_jac_dbl(&j2, &j1);
        printf("| G1 add (Jacobian) | %.1f |\n",
               BENCH_NS_PER_OP(iters / 10, g1_jac_add(&j2, &j2, &j1)));
        printf("| G1 dbl (Jacobian) | %.1f |\n", BENCH_NS_PER_OP(iters / 10, g1_jac_dbl(&j2, &j2)));
        sink = j2.x.l[0];

        p1 = G1_GENERATOR;
        g1_xyzz_from_affine(&z1, &p1);
        g1_xyzz_dbl(&z1, &z1);
        printf("| G1 add mixed (XYZZ + affine) | %.1f |\n",
               BENCH_NS_PER_OP(iters / 10, g1_xyzz_add_affine(&z1, &z1, &p1)));
        sink = z1.x.l[0];

        p2 = G2_GENERATOR;
        g2_xyzz_from_affine(&z2, &p2);
        g2_xyzz_dbl(&z2, &z2);
        printf("| G2 add mixed (XYZZ + affine) | %.1f |\n",
               BENCH_NS_PER_OP(iters / 30, g2_xyzz_add_affine(&z2, &z2, &p2)));
        sink = z2.x.c0.l[0];
        printf("\n");
}

/* Seconds of the fastest of a few MSMs of n points (one for large n). */
static double time_msm(bool g2, const void *points, const fr_t *scalars, size_t n,
                       unsigned threads) {
        struct bench_timing t;

        bench_time_msm(g2, points, scalars, n, threads, n <= (1u << 14) ? 3 : 1, 0, &t);
        return t.best_sec;
}

static fr_t *random_scalars(size_t n) {
        fr_t *s = malloc(n * sizeof(*s));
        if (!s)
                return NULL;
        for (size_t i = 0; i < n; i++)
                bench_random_fr(&s[i]);
        return s;
}

static int bench_msm(unsigned max_g1_log, unsigned max_g2_log, unsigned step) {
        unsigned all = zk_thread_count();
        size_t max_n = (size_t)1 << (max_g1_log > max_g2_log ? max_g1_log : max_g2_log);
        _cleanup_free_ fr_t *s = random_scalars(max_n);
        _cleanup_free_ g1_affine_t *p1 = malloc(sizeof(g1_affine_t) << max_g1_log);
        _cleanup_free_ g2_affine_t *p2 = malloc(sizeof(g2_affine_t) << max_g2_log);

        if (!s || !p1 || !p2 || bench_random_g1_points(p1, (size_t)1 << max_g1_log) < 0 ||
            bench_random_g2_points(p2, (size_t)1 << max_g2_log) < 0) {
                fprintf(stderr, "bench: out of memory for MSM inputs\n");
                return -1;
        }
        printf("MSM, random full-width scalars, us per point (total ms)\n\n");
        printf("| group | points | 1 thread | %u threads | speed-up |\n|---|---|---|---|---|\n",
               all);
        for (unsigned lg = 12; lg <= max_g1_log; lg += step) {
                size_t n = (size_t)1 << lg;
                double t1 = time_msm(false, p1, s, n, 1), ta = time_msm(false, p1, s, n, all);
                printf("| G1 | 2^%u | %.2f (%.1f) | %.2f (%.1f) | %.2fx |\n", lg,
                       t1 * 1e6 / (double)n, t1 * 1e3, ta * 1e6 / (double)n, ta * 1e3, t1 / ta);
                fflush(stdout);
        }
        for (unsigned lg = 12; lg <= max_g2_log; lg += step) {
                size_t n = (size_t)1 << lg;
                double t1 = time_msm(true, p2, s, n, 1), ta = time_msm(true, p2, s, n, all);
                printf("| G2 | 2^%u | %.2f (%.1f) | %.2f (%.1f) | %.2fx |\n", lg,
                       t1 * 1e6 / (double)n, t1 * 1e3, ta * 1e6 / (double)n, ta * 1e3, t1 / ta);
                fflush(stdout);
        }
        printf("\n");
        return 0;
}

static double time_ntt(const ntt_domain_t *d, fr_t *a, unsigned threads) {
        double t;
        zk_set_thread_count(threads);
        t = bench_now_sec();
        ntt_forward(d, a, NTT_ORDER_NR);
        return bench_now_sec() - t;
}

static int bench_ntt(unsigned max_log, unsigned step) {
        unsigned all = zk_thread_count();
        _cleanup_free_ fr_t *a = random_scalars((size_t)1 << max_log);

        if (!a) {
                fprintf(stderr, "bench: out of memory for NTT inputs\n");
                return -1;
        }
        printf("NTT forward (natural in, bit-reversed out), ms\n\n");
        printf("| size | 1 thread | %u threads | speed-up |\n|---|---|---|---|\n", all);
        for (unsigned lg = 12; lg <= max_log; lg += step) {
                _cleanup_ntt_domain_ ntt_domain_t *d = NULL;
                int r = ntt_domain_new(&d, lg, NTT_ROOTS_SNARKJS);
                if (r < 0) {
                        fprintf(stderr, "bench: NTT domain 2^%u: %s\n", lg, strerror(-r));
                        return r;
                }
                double t1 = time_ntt(d, a, 1), ta = time_ntt(d, a, all);
                printf("| 2^%u | %.2f | %.2f | %.2fx |\n", lg, t1 * 1e3, ta * 1e3, t1 / ta);
                fflush(stdout);
        }
        zk_set_thread_count(all);
        printf("\n");
        return 0;
}

static void bench_pairing(void) {
        g1_affine_t p[4];
        g2_affine_t q[4];
        fp12_t e;
        const int reps = 20;

        for (int i = 0; i < 4; i++) {
                p[i] = G1_GENERATOR;
                q[i] = G2_GENERATOR;
        }
        g1_affine_neg(&p[1], &p[1]);
        g1_affine_neg(&p[3], &p[3]);
        printf("| pairing | ms |\n|---|---|\n");
        printf("| one pairing | %.2f |\n", BENCH_NS_PER_OP(reps, pairing(&e, &p[0], &q[0])) * 1e-6);
        printf("| product of 4 pairings == 1 | %.2f |\n\n",
               BENCH_NS_PER_OP(reps, sink = pairing_product_is_one(p, q, 4)) * 1e-6);
}

int main(int argc, char **argv) {
        unsigned max_msm = 20, max_g2 = 20, max_ntt = 24, step = 2;
        static const struct option opts[] = {
                {"max-msm-log", required_argument, NULL, 'm'},
                {"max-g2-log", required_argument, NULL, 'g'},
                {"max-ntt-log", required_argument, NULL, 'n'},
                {"every-size", no_argument, NULL, 'e'},
                {"quick", no_argument, NULL, 'q'},
                {"help", no_argument, NULL, 'h'},
                {0, 0, 0, 0},
        };
        int c;

        while ((c = getopt_long(argc, argv, "h", opts, NULL)) >= 0) {
                switch (c) {
                case 'm':
                        max_msm = (unsigned)atoi(optarg);
                        break;
                case 'g':
                        max_g2 = (unsigned)atoi(optarg);
                        break;
                case 'n':
                        max_ntt = (unsigned)atoi(optarg);
                        break;
                case 'e':
                        step = 1;
                        break;
                case 'q':
                        max_msm = max_g2 = 12;
                        max_ntt = 14;
                        break;
                case 'h':
                        printf("usage: %s [--max-msm-log N] [--max-g2-log N] [--max-ntt-log N] "
                               "[--every-size] [--quick]\n",
                               argv[0]);
                        return 0;
                default:
                        return 2;
                }
        }
        if (max_msm < 12 || max_msm > 26 || max_g2 < 12 || max_g2 > 24 || max_ntt < 12 ||
            max_ntt > 27) {
                fprintf(stderr,
                        "bench-zk: sizes out of range (MSM 12..26, G2 12..24, NTT 12..27)\n");
                return 2;
        }

        printf("# cuzk zk/ benchmark: arithmetic %s, %u threads\n\n", zk_arith_name(),
               zk_thread_count());
        bench_ops();
        bench_pairing();
        if (bench_msm(max_msm, max_g2, step) < 0 || bench_ntt(max_ntt, step) < 0)
                return 1;
        return 0;
}
