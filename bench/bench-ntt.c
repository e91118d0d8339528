/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Prints the time of the NTT variants per size and thread count.
 * Usage: bench-ntt [min_log [max_log [threads,threads,...]]]
 *        (defaults: 12 22 1,<all CPUs>)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-util.h"
#include "common/cleanup.h"
#include "zk/cpu.h"
#include "zk/ntt.h"
#include "zk/parallel.h"

/* Small sizes repeat until a measurement takes at least this long. */
#define MIN_MEASURE_SEC 0.2

enum variant { FORWARD_NR, INVERSE_RN, FORWARD_NN, COSET_FORWARD_NR, VARIANTS };
static const char *const VARIANT_NAMES[VARIANTS] = {"fwd NR", "inv RN", "fwd NN", "coset NR"};

struct ntt_run {
        const ntt_domain_t *d;
        fr_t *a;
        enum variant v;
};

static void run_variant(void *userdata) {
        const struct ntt_run *run = userdata;
        const fr_t shift = {{7}};

        switch (run->v) {
        case FORWARD_NR:
                ntt_forward(run->d, run->a, NTT_ORDER_NR);
                break;
        case INVERSE_RN:
                ntt_inverse(run->d, run->a, NTT_ORDER_RN);
                break;
        case FORWARD_NN:
                ntt_forward(run->d, run->a, NTT_ORDER_NN);
                break;
        case COSET_FORWARD_NR:
                ntt_coset_forward(run->d, run->a, &shift, NTT_ORDER_NR);
                break;
        case VARIANTS:
                break;
        }
}

/* Milliseconds per call. */
static double measure(const ntt_domain_t *d, fr_t *a, enum variant v) {
        struct ntt_run run = {.d = d, .a = a, .v = v};
        struct bench_timing t;

        bench_repeat(run_variant, &run, 1, MIN_MEASURE_SEC, &t);
        return t.mean_sec * 1e3;
}

int main(int argc, char **argv) {
        unsigned min_log = argc > 1 ? (unsigned)atoi(argv[1]) : 12;
        unsigned max_log = argc > 2 ? (unsigned)atoi(argv[2]) : 22;
        unsigned threads[16] = {1, zk_thread_count()};
        size_t thread_counts = threads[1] > 1 ? 2 : 1;

        if (argc > 3 && bench_parse_thread_list(argv[3], threads, 16, &thread_counts) < 0) {
                fprintf(stderr, "bench-ntt: bad thread list '%s', expected e.g. 1,2,8\n", argv[3]);
                return 1;
        }
        if (max_log > NTT_MAX_LOG_SIZE || min_log > max_log) {
                fprintf(stderr, "bench-ntt: sizes 2^%u..2^%u, expected 0 <= min <= max <= %d\n",
                        min_log, max_log, NTT_MAX_LOG_SIZE);
                return 1;
        }

        printf("# field arithmetic: %s\n", zk_arith_name());
        printf("%-6s %-8s", "log n", "threads");
        for (int v = 0; v < VARIANTS; v++)
                printf(" %12s", VARIANT_NAMES[v]);
        printf("   (ms per call)\n");

        for (unsigned k = min_log; k <= max_log; k++) {
                _cleanup_ntt_domain_ ntt_domain_t *d = NULL;
                _cleanup_free_ fr_t *a = NULL;
                int r;

                zk_set_thread_count(0);
                r = ntt_domain_new(&d, k, NTT_ROOTS_BELLPERSON);
                if (r < 0) {
                        fprintf(stderr, "bench-ntt: domain 2^%u: %s\n", k, strerror(-r));
                        return 1;
                }
                a = malloc(d->size * sizeof(fr_t));
                if (!a) {
                        fprintf(stderr, "bench-ntt: cannot allocate 2^%u elements\n", k);
                        return 1;
                }
                for (size_t i = 0; i < d->size; i++)
                        fr_from_u64(&a[i], i * 0x9e3779b97f4a7c15ULL);

                for (size_t t = 0; t < thread_counts; t++) {
                        zk_set_thread_count(threads[t]);
                        printf("%-6u %-8u", k, threads[t]);
                        for (int v = 0; v < VARIANTS; v++)
                                printf(" %12.3f", measure(d, a, (enum variant)v));
                        printf("\n");
                        fflush(stdout);
                }
        }
        return 0;
}
