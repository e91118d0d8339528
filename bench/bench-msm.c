/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Prints the time per point of the CPU MSM (zk/msm.h) for G1 and G2, per
 * size and thread count, with random full-width scalars (the worst case: no
 * 0 or 1 to skip).
 * Usage: bench-msm [g1_min_log [g1_max_log [g2_max_log [threads,threads,...]]]]
 *        (defaults: 12 16 14 1,2; G2 starts at g1_min_log)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench-util.h"
#include "common/cleanup.h"

/* Small sizes repeat until a measurement takes at least this long. */
#define MIN_MEASURE_SEC 0.3
#define MAX_THREAD_COUNTS 16

/* Microseconds per point of one MSM. */
static double measure(const void *points, const fr_t *scalars, size_t n, unsigned threads,
                      bool g2) {
        struct bench_timing t;

        bench_time_msm(g2, points, scalars, n, threads, 1, MIN_MEASURE_SEC, &t);
        return t.mean_sec * 1e6 / (double)n;
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

        if (argc > 4 &&
            bench_parse_thread_list(argv[4], threads, MAX_THREAD_COUNTS, &thread_counts) < 0) {
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
                bench_random_fr(&scalars[i]);
        if (bench_random_g1_points(g1_points, (size_t)1 << g1_max_log) < 0 ||
            bench_random_g2_points(g2_points, (size_t)1 << g2_max_log) < 0) {
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
