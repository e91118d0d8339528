/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the CPU benchmarks share: the clock, deterministic pseudo-random
 * inputs, repeated timed runs, MSM runs and the thread-list argument.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zk/fp.h"
#include "zk/fr.h"
#include "zk/g1.h"
#include "zk/g2.h"

/* Seconds on the monotonic clock. */
double bench_now_sec(void);

/* Nanoseconds per run of stmt, run iters times in a loop (a macro: a call
 * through a pointer would cost more than the operations it times). */
#define BENCH_NS_PER_OP(iters, stmt)                               \
        ({                                                         \
                const long iters_ = (long)(iters);                 \
                double start_ = bench_now_sec();                   \
                for (long i_ = 0; i_ < iters_; i_++) {             \
                        stmt;                                      \
                }                                                  \
                (bench_now_sec() - start_) * 1e9 / (double)iters_; \
        })

/* splitmix64 from a fixed seed: inputs that only need to look random to the
 * code measured, the same on every run. Not for anything secret. */
uint64_t bench_random_u64(void);
void bench_random_fr(fr_t *r);
void bench_random_fp(fp_t *r);
/* n distinct points from a walk P_{i+1} = P_i + S_j over 16 random multiples
 * of the generator: one addition each instead of a scalar multiplication.
 * 0 or -ENOMEM. */
int bench_random_g1_points(g1_affine_t *points, size_t n);
int bench_random_g2_points(g2_affine_t *points, size_t n);

struct bench_timing {
        double best_sec; /* the fastest run */
        double mean_sec; /* all runs' time over their count */
        unsigned runs;
};
/* Runs run(userdata) at least min_runs times (1 if 0) and until the runs
 * took min_sec seconds in all. */
void bench_repeat(void (*run)(void *userdata), void *userdata, unsigned min_runs, double min_sec,
                  struct bench_timing *ret);

/* Times MSMs of n points (g2: points are g2_affine_t, else g1_affine_t) on
 * threads threads (0: all) with bench_repeat(); the process exits with a
 * message if an MSM fails. */
void bench_time_msm(bool g2, const void *points, const fr_t *scalars, size_t n, unsigned threads,
                    unsigned min_runs, double min_sec, struct bench_timing *ret);

/* Parses a thread list such as "1,2,16" (each at least 1) into threads (at
 * most max). 0, -EINVAL or -ENOMEM. */
int bench_parse_thread_list(const char *arg, unsigned *threads, size_t max, size_t *ret_count);
