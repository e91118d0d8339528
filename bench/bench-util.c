/* SPDX-License-Identifier: Apache-2.0 */
#include "bench-util.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cleanup.h"
#include "zk/msm.h"

#define WALK_STEPS 16

double bench_now_sec(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t random_state = 0x243f6a8885a308d3ULL;

uint64_t bench_random_u64(void) {
        uint64_t z = (random_state += 0x9e3779b97f4a7c15ULL);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
}

/* Full-width values below the modulus: clear the bits above it, retry the
 * few that are still too large. */
void bench_random_fr(fr_t *r) {
        uint64_t l[FR_LIMBS];

        assert(r);
        do {
                for (size_t i = 0; i < FR_LIMBS; i++)
                        l[i] = bench_random_u64();
                l[FR_LIMBS - 1] &= (UINT64_C(1) << 63) - 1;
        } while (!fr_from_canonical(r, l));
}

void bench_random_fp(fp_t *r) {
        uint64_t l[FP_LIMBS];

        assert(r);
        do {
                for (size_t i = 0; i < FP_LIMBS; i++)
                        l[i] = bench_random_u64();
                l[FP_LIMBS - 1] &= (UINT64_C(1) << 61) - 1;
        } while (!fp_from_canonical(r, l));
}

#define DEFINE_RANDOM_POINTS(G, AFFINE_T, JAC_T, GENERATOR)                                       \
        int bench_random_##G##_points(AFFINE_T *points, size_t n) {                               \
                _cleanup_free_ JAC_T *jac = malloc((n ? n : 1) * sizeof(JAC_T));                  \
                JAC_T steps[WALK_STEPS], g, current;                                              \
                fr_t k;                                                                           \
                                                                                                  \
                assert(points || n == 0);                                                         \
                if (!jac)                                                                         \
                        return -ENOMEM;                                                           \
                G##_jac_from_affine(&g, &GENERATOR);                                              \
                for (unsigned s = 0; s < WALK_STEPS; s++) {                                       \
                        bench_random_fr(&k);                                                      \
                        G##_jac_mul_fr(&steps[s], &g, &k);                                        \
                }                                                                                 \
                current = steps[0];                                                               \
                for (size_t i = 0; i < n; i++) {                                                  \
                        G##_jac_add(&current, &current, &steps[bench_random_u64() % WALK_STEPS]); \
                        jac[i] = current;                                                         \
                }                                                                                 \
                G##_jac_batch_to_affine(points, jac, n);                                          \
                return 0;                                                                         \
        }
DEFINE_RANDOM_POINTS(g1, g1_affine_t, g1_jac_t, G1_GENERATOR)
DEFINE_RANDOM_POINTS(g2, g2_affine_t, g2_jac_t, G2_GENERATOR)

void bench_repeat(void (*run)(void *userdata), void *userdata, unsigned min_runs, double min_sec,
                  struct bench_timing *ret) {
        struct bench_timing t = {.best_sec = 1e30};
        double total = 0;

        assert(run);
        assert(ret);

        do {
                double start = bench_now_sec(), elapsed;

                run(userdata);
                elapsed = bench_now_sec() - start;
                total += elapsed;
                if (elapsed < t.best_sec)
                        t.best_sec = elapsed;
                t.runs++;
        } while (t.runs < min_runs || total < min_sec);
        t.mean_sec = total / t.runs;
        *ret = t;
}

/* Keeps results alive so the compiler cannot drop the timed work. */
static volatile uint64_t sink;

struct msm {
        bool g2;
        const void *points;
        const fr_t *scalars;
        size_t n;
        unsigned threads;
};

static void msm_run(void *userdata) {
        const struct msm *m = userdata;
        int r;

        assert(m);
        if (m->g2) {
                g2_jac_t out;
                r = g2_msm_fr(&out, m->points, m->scalars, m->n, m->threads);
                sink = out.x.c0.l[0];
        } else {
                g1_jac_t out;
                r = g1_msm_fr(&out, m->points, m->scalars, m->n, m->threads);
                sink = out.x.l[0];
        }
        if (r < 0) {
                fprintf(stderr, "bench: %s MSM of %zu points failed: %s\n", m->g2 ? "G2" : "G1",
                        m->n, strerror(-r));
                exit(EXIT_FAILURE);
        }
}

void bench_time_msm(bool g2, const void *points, const fr_t *scalars, size_t n, unsigned threads,
                    unsigned min_runs, double min_sec, struct bench_timing *ret) {
        struct msm m = {.g2 = g2, .points = points, .scalars = scalars, .n = n, .threads = threads};

        assert(points || n == 0);
        assert(scalars || n == 0);
        bench_repeat(msm_run, &m, min_runs, min_sec, ret);
}

int bench_parse_thread_list(const char *arg, unsigned *threads, size_t max, size_t *ret_count) {
        _cleanup_free_ char *copy = NULL;
        char *save = NULL, *end;
        size_t count = 0;

        assert(arg);
        assert(threads);
        assert(ret_count);

        copy = strdup(arg);
        if (!copy)
                return -ENOMEM;
        for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                unsigned long v;

                errno = 0;
                v = strtoul(tok, &end, 10);
                if (count == max || errno || *end || v == 0 || v > 65536 || tok[0] == '-')
                        return -EINVAL;
                threads[count++] = (unsigned)v;
        }
        if (count == 0)
                return -EINVAL;
        *ret_count = count;
        return 0;
}
