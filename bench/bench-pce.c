/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Prints a markdown table for synthetic PoRep-shaped circuits of 2^k
 * domains (rows = 2^k - 2^k/128): PCE bytes in memory and on disk against
 * the plain CSR of zk/sparse.h, generation time, and the time of a, b, c
 * (pce_evaluate) on 1 thread and on all, beside the plain CSR's
 * sparse_mul_vector on all threads.
 * Usage: bench-pce [--min-log K] [--max-log K] [--seed S]
 *        (defaults: 16, 22, 1; --max-log up to 27)
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-util.h"
#include "circuits/pce-file.h"
#include "circuits/synthetic.h"
#include "common/cleanup.h"
#include "zk/cpu.h"
#include "zk/parallel.h"

/* Measurements repeat until they took this long and ran MIN_RUNS times;
 * the best run counts. */
#define MIN_MEASURE_SEC 0.3
#define MIN_RUNS 3

struct pce_run {
        const struct pce *pce;
        const fr_t *w;
        fr_t *abc;
        const struct sparse_matrix *plain; /* or NULL: pce_evaluate() */
};

static void run_products(void *userdata) {
        const struct pce_run *run = userdata;
        unsigned log = pce_log_domain_size(run->pce);
        size_t n = (size_t)1 << log;

        if (run->plain) {
                for (size_t k = 0; k < PCE_N_MATRICES; k++)
                        sparse_mul_vector(&run->plain[k], run->w, run->abc + k * n);
                return;
        }
        if (pce_evaluate(run->pce, run->w, run->pce->n_cols, log, run->abc, run->abc + n,
                         run->abc + 2 * n) < 0)
                abort();
}

/* Seconds per pce_evaluate() on threads threads (best of the runs). */
static double time_pce(const struct pce *pce, const fr_t *w, fr_t *abc, unsigned threads) {
        struct pce_run run = {.pce = pce, .w = w, .abc = abc};
        struct bench_timing t;

        zk_set_thread_count(threads);
        bench_repeat(run_products, &run, MIN_RUNS, MIN_MEASURE_SEC, &t);
        zk_set_thread_count(0);
        return t.best_sec;
}

/* The same products with the plain CSR (fr_t coefficients), all threads. */
static double time_plain(const struct pce *pce, const struct sparse_matrix m[PCE_N_MATRICES],
                         const fr_t *w, fr_t *abc) {
        struct pce_run run = {.pce = pce, .w = w, .abc = abc, .plain = m};
        struct bench_timing t;

        bench_repeat(run_products, &run, MIN_RUNS, MIN_MEASURE_SEC, &t);
        return t.best_sec;
}

static uint64_t plain_bytes(const struct sparse_matrix m[PCE_N_MATRICES]) {
        uint64_t bytes = 0;
        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                bytes += ((uint64_t)m[k].n_rows + 1) * sizeof(uint64_t) +
                         sparse_n_terms(&m[k]) * (sizeof(uint32_t) + sizeof(fr_t));
        return bytes;
}

static void sparse_free_all(struct sparse_matrix m[PCE_N_MATRICES]) {
        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                sparse_free(&m[k]);
}

static int bench_one(unsigned log, uint64_t seed) {
        struct synthetic_params p = {.seed = seed,
                                     .n_rows = (1u << log) - (1u << log) / 128,
                                     .n_aux = SYNTHETIC_DEFAULT,
                                     .n_public = SYNTHETIC_DEFAULT};
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_free_ fr_t *w = NULL, *abc = NULL;
        struct sparse_matrix plain[PCE_N_MATRICES];
        size_t n = (size_t)1 << log;
        double gen, one, all, plain_all;
        int r;

        gen = bench_now_sec();
        r = synthetic_generate(&p, &pce, &w);
        if (r < 0)
                return r;
        gen = bench_now_sec() - gen;
        abc = malloc(3 * n * sizeof(fr_t));
        if (!abc)
                return -ENOMEM;
        /* Page faults are not the evaluation's cost: touch the output first. */
        memset(abc, 0, 3 * n * sizeof(fr_t));
        one = time_pce(pce, w, abc, 1);
        all = time_pce(pce, w, abc, 0);
        r = pce_to_sparse(pce, plain);
        if (r < 0)
                return r;
        plain_all = time_plain(pce, plain, w, abc);

        printf("| 2^%u | %u | %.1f | %.1f | %.1f | %.1f | %.2f | %.3f | %.3f | %.3f |\n", log,
               pce->n_rows, pce_memory_bytes(pce) / 1048576.0, pce_file_bytes(pce) / 1048576.0,
               plain_bytes(plain) / 1048576.0, (double)pce_memory_bytes(pce) / pce->n_rows, gen,
               one, all, plain_all);
        fflush(stdout);
        sparse_free_all(plain);
        return 0;
}

int main(int argc, char **argv) {
        static const struct option options[] = {
                {"min-log", required_argument, NULL, 'm'},
                {"max-log", required_argument, NULL, 'M'},
                {"seed", required_argument, NULL, 's'},
                {0, 0, 0, 0},
        };
        unsigned min_log = 16, max_log = 22;
        uint64_t seed = 1;
        int c, r;

        while ((c = getopt_long(argc, argv, "", options, NULL)) >= 0) {
                switch (c) {
                case 'm':
                        min_log = (unsigned)atoi(optarg);
                        break;
                case 'M':
                        max_log = (unsigned)atoi(optarg);
                        break;
                case 's':
                        seed = strtoull(optarg, NULL, 0);
                        break;
                default:
                        fprintf(stderr, "usage: %s [--min-log K] [--max-log K] [--seed S]\n",
                                argv[0]);
                        return 2;
                }
        }
        if (min_log < 8 || max_log > 27 || min_log > max_log) {
                fprintf(stderr, "%s: logs from 8 to 27, min <= max\n", argv[0]);
                return 2;
        }

        printf("PCE of synthetic PoRep-shaped circuits, %u threads, %s field arithmetic, "
               "seed %llu\n\n",
               zk_thread_count(), zk_arith_name(), (unsigned long long)seed);
        printf("| domain | rows | PCE MiB (memory) | PCE MiB (file) | plain CSR MiB | PCE "
               "bytes/row | generate s | pce_evaluate 1 thread s | pce_evaluate all s | plain "
               "CSR SpMV all s |\n");
        printf("|---|---|---|---|---|---|---|---|---|---|\n");
        for (unsigned log = min_log; log <= max_log; log++) {
                r = bench_one(log, seed);
                if (r < 0) {
                        fprintf(stderr, "bench-pce: 2^%u: %s\n", log, strerror(-r));
                        return 1;
                }
        }
        return 0;
}
