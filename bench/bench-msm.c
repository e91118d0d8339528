/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Prints the time per point of the CPU MSM (zk/msm.h) for G1 and G2, per
 * size and thread count, with random full-width scalars (the worst case: no
 * 0 or 1 to skip).
 * Usage: bench-msm [g1_min_log [g1_max_log [g2_max_log [threads,threads,...]]]]
 *        (defaults: 12 16 14 1,2; G2 starts at g1_min_log)
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cleanup.h"
#include "zk/msm.h"
#include "zk/parallel.h"

/* Small sizes repeat until a measurement takes at least this long. */
#define MIN_MEASURE_SEC 0.3
#define MAX_THREAD_COUNTS 16

static double now_sec(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* splitmix64: the inputs only need to look random to the MSM. */
static uint64_t rng_state = 0x243f6a8885a308d3ULL;
static uint64_t rng_u64(void) {
        uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
}

static void random_fr(fr_t *r) {
        uint64_t k[FR_LIMBS];
        do {
                for (unsigned i = 0; i < FR_LIMBS; i++)
                        k[i] = rng_u64();
                k[FR_LIMBS - 1] &= (UINT64_C(1) << 63) - 1;
        } while (!fr_from_canonical(r, k));
}

/* Points from a walk P_{i+1} = P_i + S_j over a few random steps: one
 * addition each instead of one scalar multiplication. */
#define DEFINE_RANDOM_POINTS(G, AFFINE_T, JAC_T, GENERATOR)                      \
        static int G##_random_points(AFFINE_T *points, size_t n) {               \
                _cleanup_free_ JAC_T *jac = malloc(n * sizeof(JAC_T));           \
                JAC_T steps[16], g, current;                                     \
                fr_t k;                                                          \
                                                                                 \
                if (!jac)                                                        \
                        return -ENOMEM;                                          \
                G##_jac_from_affine(&g, &GENERATOR);                             \
                for (unsigned s = 0; s < 16; s++) {                              \
                        random_fr(&k);                                           \
                        G##_jac_mul_fr(&steps[s], &g, &k);                       \
                }                                                                \
                current = steps[0];                                              \
                for (size_t i = 0; i < n; i++) {                                 \
                        G##_jac_add(&current, &current, &steps[rng_u64() % 16]); \
                        jac[i] = current;                                        \
                }                                                                \
                G##_jac_batch_to_affine(points, jac, n);                         \
                return 0;                                                        \
        }
DEFINE_RANDOM_POINTS(g1, g1_affine_t, g1_jac_t, G1_GENERATOR)
DEFINE_RANDOM_POINTS(g2, g2_affine_t, g2_jac_t, G2_GENERATOR)

/* Microseconds per point of one MSM. */
static double measure(const void *points, const fr_t *scalars, size_t n, unsigned threads,
                      bool g2) {
        unsigned reps = 0;
        double start = now_sec(), elapsed;

        do {
                int r;
                if (g2) {
                        g2_jac_t out;
                        r = g2_msm_fr(&out, points, scalars, n, threads);
                } else {
                        g1_jac_t out;
                        r = g1_msm_fr(&out, points, scalars, n, threads);
                }
                if (r < 0) {
                        fprintf(stderr, "bench-msm: MSM of %zu points failed: %s\n", n,
                                strerror(-r));
                        exit(EXIT_FAILURE);
                }
                reps++;
                elapsed = now_sec() - start;
        } while (elapsed < MIN_MEASURE_SEC);
        return elapsed * 1e6 / reps / (double)n;
}

static int parse_threads(unsigned *threads, size_t max, const char *arg, size_t *count) {
        _cleanup_free_ char *copy = strdup(arg);
        char *save = NULL;

        if (!copy)
                return -ENOMEM;
        *count = 0;
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                if (*count == max || atoi(tok) <= 0)
                        return -EINVAL;
                threads[(*count)++] = (unsigned)atoi(tok);
        }
        return *count ? 0 : -EINVAL;
}

int main(int argc, char **argv) {
        unsigned min_log = argc > 1 ? (unsigned)atoi(argv[1]) : 12;
        unsigned g1_max_log = argc > 2 ? (unsigned)atoi(argv[2]) : 16;
        unsigned g2_max_log = argc > 3 ? (unsigned)atoi(argv[3]) : 14;
        unsigned threads[MAX_THREAD_COUNTS] = {1, 2};
        size_t thread_counts = 2, n_max;
        _cleanup_free_ fr_t *scalars = NULL;
        _cleanup_free_ g1_affine_t *g1_points = NULL;
        _cleanup_free_ g2_affine_t *g2_points = NULL;

        if (argc > 4 && parse_threads(threads, MAX_THREAD_COUNTS, argv[4], &thread_counts) < 0) {
                fprintf(stderr, "bench-msm: bad thread list '%s' (expected e.g. 1,2,16)\n",
                        argv[4]);
                return EXIT_FAILURE;
        }
        if (min_log > 30 || g1_max_log > 30 || g2_max_log > 30) {
                fprintf(stderr, "bench-msm: sizes are log2 of the point count, at most 30\n");
                return EXIT_FAILURE;
        }
        n_max = (size_t)1 << (g1_max_log > g2_max_log ? g1_max_log : g2_max_log);
        scalars = malloc(n_max * sizeof(fr_t));
        g1_points = malloc(((size_t)1 << g1_max_log) * sizeof(g1_affine_t));
        g2_points = malloc(((size_t)1 << g2_max_log) * sizeof(g2_affine_t));
        if (!scalars || !g1_points || !g2_points) {
                fprintf(stderr, "bench-msm: out of memory for 2^%u points\n",
                        g1_max_log > g2_max_log ? g1_max_log : g2_max_log);
                return EXIT_FAILURE;
        }
        for (size_t i = 0; i < n_max; i++)
                random_fr(&scalars[i]);
        if (g1_random_points(g1_points, (size_t)1 << g1_max_log) < 0 ||
            g2_random_points(g2_points, (size_t)1 << g2_max_log) < 0) {
                fprintf(stderr, "bench-msm: out of memory for the points\n");
                return EXIT_FAILURE;
        }

        printf("MSM, random full-width scalars, microseconds per point\n");
        printf("%-6s %-6s", "group", "log n");
        for (size_t t = 0; t < thread_counts; t++)
                printf(" %9u thr", threads[t]);
        printf("\n");
        for (int g2 = 0; g2 <= 1; g2++) {
                unsigned max_log = g2 ? g2_max_log : g1_max_log;

                for (unsigned log = min_log; log <= max_log; log++) {
                        printf("%-6s %-6u", g2 ? "G2" : "G1", log);
                        for (size_t t = 0; t < thread_counts; t++) {
                                const void *points =
                                        g2 ? (const void *)g2_points : (const void *)g1_points;
                                printf(" %13.3f",
                                       measure(points, scalars, (size_t)1 << log, threads[t], g2));
                                fflush(stdout);
                        }
                        printf("\n");
                }
        }
        return EXIT_SUCCESS;
}
