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
#include <time.h>

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

static double now_sec(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Deterministic filler for benchmark inputs (not for anything secret). */
static uint64_t bench_state = 0x853c49e6748fea9bULL;
static uint64_t bench_u64(void) {
        bench_state ^= bench_state << 13;
        bench_state ^= bench_state >> 7;
        bench_state ^= bench_state << 17;
        return bench_state;
}

static void bench_fr(fr_t *r) {
        uint64_t l[FR_LIMBS];
        do {
                for (int i = 0; i < FR_LIMBS; i++)
                        l[i] = bench_u64();
                l[FR_LIMBS - 1] &= (1ULL << 63) - 1;
        } while (!fr_from_canonical(r, l));
}

static void bench_fp(fp_t *r) {
        uint64_t l[FP_LIMBS];
        do {
                for (int i = 0; i < FP_LIMBS; i++)
                        l[i] = bench_u64();
                l[FP_LIMBS - 1] &= (1ULL << 61) - 1;
        } while (!fp_from_canonical(r, l));
}

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
        double t;

        bench_fp(&a);
        bench_fp(&b);
        bench_fr(&x);
        bench_fr(&y);

        printf("| operation | ns |\n|---|---|\n");

        t = now_sec();
        for (size_t i = 0; i < iters; i++)
                fp_mul(&a, &a, &b);
        printf("| Fp mul (%s) | %.1f |\n", zk_arith_name(), (now_sec() - t) * 1e9 / (double)iters);
        sink = a.l[0];

        t = now_sec();
        for (size_t i = 0; i < iters; i++)
                fp_sqr(&a, &a);
        printf("| Fp sqr | %.1f |\n", (now_sec() - t) * 1e9 / (double)iters);
        sink = a.l[0];

        t = now_sec();
        for (size_t i = 0; i < iters; i++)
                fr_mul(&x, &x, &y);
        printf("| Fr mul | %.1f |\n", (now_sec() - t) * 1e9 / (double)iters);
        sink = x.l[0];

        t = now_sec();
        for (size_t i = 0; i < iters / 100; i++)
                fp_inv(&a, &a);
        printf("| Fp inv | %.1f |\n", (now_sec() - t) * 1e9 / (double)(iters / 100));
        sink = a.l[0];

        g1_jac_from_affine(&j1, &G1_GENERATOR);
        g1_jac_dbl(&j2, &j1);
        t = now_sec();
        for (size_t i = 0; i < iters / 10; i++)
                g1_jac_add(&j2, &j2, &j1);
        printf("| G1 add (Jacobian) | %.1f |\n", (now_sec() - t) * 1e9 / (double)(iters / 10));
        sink = j2.x.l[0];

        t = now_sec();
        for (size_t i = 0; i < iters / 10; i++)
                g1_jac_dbl(&j2, &j2);
        printf("| G1 dbl (Jacobian) | %.1f |\n", (now_sec() - t) * 1e9 / (double)(iters / 10));
        sink = j2.x.l[0];

        p1 = G1_GENERATOR;
        g1_xyzz_from_affine(&z1, &p1);
        g1_xyzz_dbl(&z1, &z1);
        t = now_sec();
        for (size_t i = 0; i < iters / 10; i++)
                g1_xyzz_add_affine(&z1, &z1, &p1);
        printf("| G1 add mixed (XYZZ + affine) | %.1f |\n",
               (now_sec() - t) * 1e9 / (double)(iters / 10));
        sink = z1.x.l[0];

        p2 = G2_GENERATOR;
        g2_xyzz_from_affine(&z2, &p2);
        g2_xyzz_dbl(&z2, &z2);
        t = now_sec();
        for (size_t i = 0; i < iters / 30; i++)
                g2_xyzz_add_affine(&z2, &z2, &p2);
        printf("| G2 add mixed (XYZZ + affine) | %.1f |\n",
               (now_sec() - t) * 1e9 / (double)(iters / 30));
        sink = z2.x.c0.l[0];
        printf("\n");
}

/* n distinct points: a random multiple of the generator, then consecutive
 * additions of the generator, normalized with one batch inversion. */
static g1_affine_t *g1_points(size_t n) {
        _cleanup_free_ g1_jac_t *jac = malloc(n * sizeof(*jac));
        g1_affine_t *aff = malloc(n * sizeof(*aff));
        g1_jac_t g;
        fr_t k;

        if (!jac || !aff) {
                free(aff);
                return NULL;
        }
        bench_fr(&k);
        g1_jac_from_affine(&g, &G1_GENERATOR);
        g1_jac_mul_fr(&jac[0], &g, &k);
        for (size_t i = 1; i < n; i++)
                g1_jac_add_affine(&jac[i], &jac[i - 1], &G1_GENERATOR);
        g1_jac_batch_to_affine(aff, jac, n);
        return aff;
}

static g2_affine_t *g2_points(size_t n) {
        _cleanup_free_ g2_jac_t *jac = malloc(n * sizeof(*jac));
        g2_affine_t *aff = malloc(n * sizeof(*aff));
        g2_jac_t g;
        fr_t k;

        if (!jac || !aff) {
                free(aff);
                return NULL;
        }
        bench_fr(&k);
        g2_jac_from_affine(&g, &G2_GENERATOR);
        g2_jac_mul_fr(&jac[0], &g, &k);
        for (size_t i = 1; i < n; i++)
                g2_jac_add_affine(&jac[i], &jac[i - 1], &G2_GENERATOR);
        g2_jac_batch_to_affine(aff, jac, n);
        return aff;
}

static double time_g1_msm(const g1_affine_t *pts, const fr_t *s, size_t n, unsigned threads) {
        double best = 1e30;
        int reps = n <= (1u << 14) ? 3 : 1;
        for (int r = 0; r < reps; r++) {
                g1_jac_t out;
                double t = now_sec();
                if (g1_msm_fr(&out, pts, s, n, threads) < 0) {
                        fprintf(stderr, "bench: G1 MSM of %zu points failed\n", n);
                        exit(1);
                }
                t = now_sec() - t;
                sink = out.x.l[0];
                if (t < best)
                        best = t;
        }
        return best;
}

static double time_g2_msm(const g2_affine_t *pts, const fr_t *s, size_t n, unsigned threads) {
        double best = 1e30;
        int reps = n <= (1u << 14) ? 3 : 1;
        for (int r = 0; r < reps; r++) {
                g2_jac_t out;
                double t = now_sec();
                if (g2_msm_fr(&out, pts, s, n, threads) < 0) {
                        fprintf(stderr, "bench: G2 MSM of %zu points failed\n", n);
                        exit(1);
                }
                t = now_sec() - t;
                sink = out.x.c0.l[0];
                if (t < best)
                        best = t;
        }
        return best;
}

static fr_t *random_scalars(size_t n) {
        fr_t *s = malloc(n * sizeof(*s));
        if (!s)
                return NULL;
        for (size_t i = 0; i < n; i++)
                bench_fr(&s[i]);
        return s;
}

static int bench_msm(unsigned max_g1_log, unsigned max_g2_log, unsigned step) {
        unsigned all = zk_thread_count();
        size_t max_n = (size_t)1 << (max_g1_log > max_g2_log ? max_g1_log : max_g2_log);
        _cleanup_free_ fr_t *s = random_scalars(max_n);
        _cleanup_free_ g1_affine_t *p1 = g1_points((size_t)1 << max_g1_log);
        _cleanup_free_ g2_affine_t *p2 = g2_points((size_t)1 << max_g2_log);

        if (!s || !p1 || !p2) {
                fprintf(stderr, "bench: out of memory for MSM inputs\n");
                return -1;
        }
        printf("MSM, random full-width scalars, us per point (total ms)\n\n");
        printf("| group | points | 1 thread | %u threads | speed-up |\n|---|---|---|---|---|\n",
               all);
        for (unsigned lg = 12; lg <= max_g1_log; lg += step) {
                size_t n = (size_t)1 << lg;
                double t1 = time_g1_msm(p1, s, n, 1), ta = time_g1_msm(p1, s, n, all);
                printf("| G1 | 2^%u | %.2f (%.1f) | %.2f (%.1f) | %.2fx |\n", lg,
                       t1 * 1e6 / (double)n, t1 * 1e3, ta * 1e6 / (double)n, ta * 1e3, t1 / ta);
                fflush(stdout);
        }
        for (unsigned lg = 12; lg <= max_g2_log; lg += step) {
                size_t n = (size_t)1 << lg;
                double t1 = time_g2_msm(p2, s, n, 1), ta = time_g2_msm(p2, s, n, all);
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
        t = now_sec();
        ntt_forward(d, a, NTT_ORDER_NR);
        t = now_sec() - t;
        return t;
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
        double t;
        const int reps = 20;

        for (int i = 0; i < 4; i++) {
                p[i] = G1_GENERATOR;
                q[i] = G2_GENERATOR;
        }
        g1_affine_neg(&p[1], &p[1]);
        g1_affine_neg(&p[3], &p[3]);
        printf("| pairing | ms |\n|---|---|\n");
        t = now_sec();
        for (int i = 0; i < reps; i++)
                pairing(&e, &p[0], &q[0]);
        printf("| one pairing | %.2f |\n", (now_sec() - t) * 1e3 / reps);
        t = now_sec();
        for (int i = 0; i < reps; i++)
                sink = pairing_product_is_one(p, q, 4);
        printf("| product of 4 pairings == 1 | %.2f |\n\n", (now_sec() - t) * 1e3 / reps);
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
