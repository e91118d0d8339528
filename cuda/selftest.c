/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Device self-test of the CUDA backend: the GPU's results against zk/'s on
 * the CPU, bit for bit, on inputs from fixed seeds. One PASS/FAIL line per
 * case; exit status 1 on any failure, 77 (meson's skip) without a device.
 *   cuda-selftest          full run: NTT 2^10..2^24, MSM up to 2^24
 *   cuda-selftest --quick  NTT up to 2^16, MSM up to 2^16
 *   cuda-selftest --msm    the full run's MSMs without its NTTs (for MSM
 *                          changes; the NTTs take most of the full run)
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/cleanup.h"
#include "cuda/gpu.h"
#include "cuda/testdata.h"
#include "zk/msm.h"
#include "zk/ntt.h"
#include "zk/parallel.h"

#define EXIT_SKIP 77

static unsigned failures, passes;

static double now_sec(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void report(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(bool ok, const char *fmt, ...) {
        va_list ap;

        printf("%s: ", ok ? "PASS" : "FAIL");
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
        if (ok)
                passes++;
        else
                failures++;
}

/* ---- field multiplication ---- */

#define MUL_COUNT ((size_t)1 << 16)

/* ra: 3 MUL_COUNT elements, pa: 3 MUL_COUNT elements. */
static int test_field_mul(gpu_context_t *ctx, fr_t *ra, fp_t *pa) {
        size_t bad_fr = 0, bad_fp = 0;
        int r;

        fr_t *rb = ra + MUL_COUNT, *rr = rb + MUL_COUNT;
        fp_t *pb = pa + MUL_COUNT, *pr = pb + MUL_COUNT;
        testdata_fr_array(ra, MUL_COUNT, 101);
        testdata_fr_array(rb, MUL_COUNT, 102);
        for (size_t i = 0; i < MUL_COUNT; i++) {
                /* Fp operands from Fr bits: below 2^255 < p, spread enough. */
                uint64_t limbs[FP_LIMBS] = {0};
                memcpy(limbs, &ra[i], sizeof(ra[i]));
                limbs[4] = testdata_u64(103, i);
                limbs[5] = testdata_u64(104, i) >> 4;
                if (!fp_from_canonical(&pa[i], limbs))
                        fp_set_one(&pa[i]);
                memcpy(limbs, &rb[i], sizeof(rb[i]));
                limbs[4] = testdata_u64(105, i);
                limbs[5] = testdata_u64(106, i) >> 4;
                if (!fp_from_canonical(&pb[i], limbs))
                        fp_set_one(&pb[i]);
        }
        /* Edge values: 0, 1, -1 on both sides. */
        fr_set_zero(&ra[0]);
        fr_set_one(&rb[1]);
        fr_set_one(&ra[2]);
        fr_neg(&ra[2], &ra[2]);
        rb[2] = ra[2];
        fp_set_zero(&pa[0]);
        fp_set_one(&pb[1]);
        fp_set_one(&pa[2]);
        fp_neg(&pa[2], &pa[2]);
        pb[2] = pa[2];

        r = gpu_test_fr_mul(ctx, rr, ra, rb, MUL_COUNT);
        if (r < 0)
                return r;
        r = gpu_test_fp_mul(ctx, pr, pa, pb, MUL_COUNT);
        if (r < 0)
                return r;
        for (size_t i = 0; i < MUL_COUNT; i++) {
                fr_t er;
                fp_t ep;
                fr_mul(&er, &ra[i], &rb[i]);
                fp_mul(&ep, &pa[i], &pb[i]);
                bad_fr += !fr_equal(&er, &rr[i]);
                bad_fp += !fp_equal(&ep, &pr[i]);
        }
        report(bad_fr == 0, "fr mul: %zu products, %zu wrong", MUL_COUNT, bad_fr);
        report(bad_fp == 0, "fp mul: %zu products, %zu wrong", MUL_COUNT, bad_fp);
        return 0;
}

/* ---- NTT ---- */

static const char *const kind_names[] = {"forward", "inverse", "coset-forward", "coset-inverse"};
static const char *const order_names[] = {"NN", "NR", "RN"};

static void cpu_ntt(const ntt_domain_t *d, fr_t *a, gpu_ntt_kind_t kind, ntt_order_t order,
                    const fr_t *shift) {
        switch (kind) {
        case GPU_NTT_FORWARD:
                ntt_forward(d, a, order);
                break;
        case GPU_NTT_INVERSE:
                ntt_inverse(d, a, order);
                break;
        case GPU_NTT_COSET_FORWARD:
                ntt_coset_forward(d, a, shift, order);
                break;
        case GPU_NTT_COSET_INVERSE:
                ntt_coset_inverse(d, a, shift, order);
                break;
        }
}

/* Every kind and order of one size and root convention. The shift is
 * each convention's own: 7 for bellperson, Fr.w[k+1] for snarkjs. */
static int test_ntt_size(gpu_context_t *ctx, unsigned log_n, ntt_roots_t roots, fr_t *input,
                         fr_t *cpu, fr_t *gpu) {
        const size_t n = (size_t)1 << log_n;
        _cleanup_ntt_domain_ ntt_domain_t *d = NULL;
        fr_t shift;
        int r;

        r = ntt_domain_new(&d, log_n, roots);
        if (r < 0)
                return r;
        if (roots == NTT_ROOTS_SNARKJS)
                ntt_snarkjs_h_shift(&shift, log_n);
        else
                fr_from_u64(&shift, NTT_COSET_GENERATOR);
        testdata_fr_array(input, n, 1000 + log_n);

        for (int kind = 0; kind < 4; kind++)
                for (int order = 0; order < 3; order++) {
                        double t0, t1, t2;
                        memcpy(cpu, input, n * sizeof(fr_t));
                        memcpy(gpu, input, n * sizeof(fr_t));
                        t0 = now_sec();
                        r = gpu_ntt(ctx, gpu, log_n, roots, (gpu_ntt_kind_t)kind,
                                    (ntt_order_t)order, &shift);
                        t1 = now_sec();
                        if (r < 0) {
                                report(false, "ntt 2^%u %s %s %s: %s", log_n,
                                       roots == NTT_ROOTS_SNARKJS ? "snarkjs" : "bellperson",
                                       kind_names[kind], order_names[order],
                                       gpu_context_last_error(ctx));
                                return r;
                        }
                        cpu_ntt(d, cpu, (gpu_ntt_kind_t)kind, (ntt_order_t)order, &shift);
                        t2 = now_sec();
                        report(memcmp(cpu, gpu, n * sizeof(fr_t)) == 0,
                               "ntt 2^%u %s %s %s (gpu %.2f ms, cpu %.2f ms)", log_n,
                               roots == NTT_ROOTS_SNARKJS ? "snarkjs" : "bellperson",
                               kind_names[kind], order_names[order], (t1 - t0) * 1e3,
                               (t2 - t1) * 1e3);
                }
        return 0;
}

/* ---- MSM ---- */

static const char *const shape_names[] = {"random", "zero-one", "small", "equal"};

/* Compares as affine points: the Jacobian coordinates may differ. */
static bool same_point(const g1_jac_t *a, const g1_jac_t *b) {
        g1_affine_t x, y;
        g1_jac_to_affine(&x, a);
        g1_jac_to_affine(&y, b);
        return memcmp(&x, &y, sizeof(x)) == 0;
}

static int test_msm_case(gpu_context_t *ctx, const g1_affine_t *points, fr_t *scalars, size_t n,
                         testdata_scalars_t shape, const char *note) {
        g1_jac_t expect, got;
        double t0, t1, t2;
        int r;

        testdata_scalar_array(scalars, n, 2000 + n, shape);
        t0 = now_sec();
        r = gpu_g1_msm_fr(ctx, &got, points, scalars, n);
        t1 = now_sec();
        if (r < 0) {
                report(false, "msm n=%zu %s%s: %s", n, shape_names[shape], note,
                       gpu_context_last_error(ctx));
                return r;
        }
        r = g1_msm_fr(&expect, points, scalars, n, 0);
        t2 = now_sec();
        if (r < 0)
                return r;
        report(same_point(&expect, &got), "msm n=%zu %s%s (gpu %.1f ms, cpu %.1f ms)", n,
               shape_names[shape], note, (t1 - t0) * 1e3, (t2 - t1) * 1e3);
        return 0;
}

static int test_msm(gpu_context_t *ctx, unsigned max_log, g1_affine_t *points, fr_t *scalars) {
        const size_t max_n = (size_t)1 << max_log;
        int r;

        r = testdata_g1_points(points, max_n, 3000);
        if (r < 0)
                return r;

        for (unsigned log_n = 10; log_n <= max_log; log_n += 2) {
                r = test_msm_case(ctx, points, scalars, (size_t)1 << log_n, TESTDATA_RANDOM, "");
                if (r < 0)
                        return r;
        }
        /* Sizes that are not powers of two, skewed scalars (huge buckets) and
         * repeated points (the doubling path) with infinity among them. */
        const size_t odd_sizes[] = {1, 3, 1000, 12345, max_n - 77};
        for (size_t i = 0; i < ELEMENTSOF(odd_sizes); i++) {
                r = test_msm_case(ctx, points, scalars, odd_sizes[i], TESTDATA_RANDOM, "");
                if (r < 0)
                        return r;
        }
        for (int shape = TESTDATA_ZERO_ONE; shape <= TESTDATA_EQUAL; shape++) {
                r = test_msm_case(ctx, points, scalars, max_n >> 1, (testdata_scalars_t)shape, "");
                if (r < 0)
                        return r;
        }
        /* Host-to-host input in batches whose copies overlap the work. */
        gpu_set_msm_batch_points(ctx, max_n / 5);
        r = test_msm_case(ctx, points, scalars, max_n, TESTDATA_RANDOM, " (6 batches)");
        if (r >= 0)
                r = test_msm_case(ctx, points, scalars, max_n - 1, TESTDATA_ZERO_ONE,
                                  " (6 batches)");
        gpu_set_msm_batch_points(ctx, 0);
        if (r < 0)
                return r;
        const size_t dup_n = max_n >> 2;
        for (size_t i = 0; i < dup_n; i++)
                if (i % 3 == 2)
                        points[i] = points[i / 3];
        g1_affine_set_infinity(&points[dup_n / 2]);
        r = test_msm_case(ctx, points, scalars, dup_n, TESTDATA_RANDOM,
                          " (repeated points, one at infinity)");
        if (r < 0)
                return r;
        return test_msm_case(ctx, points, scalars, dup_n, TESTDATA_SMALL,
                             " (repeated points, one at infinity)");
}

static bool same_g2_point(const g2_jac_t *a, const g2_jac_t *b) {
        g2_affine_t x, y;
        g2_jac_to_affine(&x, a);
        g2_jac_to_affine(&y, b);
        return memcmp(&x, &y, sizeof(x)) == 0;
}

static int test_g2_msm_case(gpu_context_t *ctx, const g2_affine_t *points, fr_t *scalars, size_t n,
                            testdata_scalars_t shape) {
        g2_jac_t expect, got;
        double t0, t1, t2;
        int r;

        testdata_scalar_array(scalars, n, 5000 + n, shape);
        t0 = now_sec();
        r = gpu_g2_msm_fr(ctx, &got, points, scalars, n);
        t1 = now_sec();
        if (r < 0) {
                report(false, "g2 msm n=%zu %s: %s", n, shape_names[shape],
                       gpu_context_last_error(ctx));
                return r;
        }
        r = g2_msm_fr(&expect, points, scalars, n, 0);
        t2 = now_sec();
        if (r < 0)
                return r;
        report(same_g2_point(&expect, &got), "g2 msm n=%zu %s (gpu %.1f ms, cpu %.1f ms)", n,
               shape_names[shape], (t1 - t0) * 1e3, (t2 - t1) * 1e3);
        return 0;
}

/* G2: the same steps over Fp2; powers of two, an odd size and a witness-like
 * shape. */
static int test_g2_msm(gpu_context_t *ctx, unsigned max_log, fr_t *scalars) {
        const size_t max_n = (size_t)1 << max_log;
        _cleanup_free_ g2_affine_t *points = malloc(max_n * sizeof(g2_affine_t));
        int r;

        if (!points)
                return -ENOMEM;
        r = testdata_g2_points(points, max_n, 4000);
        for (unsigned log_n = 10; r >= 0 && log_n <= max_log; log_n += 2)
                r = test_g2_msm_case(ctx, points, scalars, (size_t)1 << log_n, TESTDATA_RANDOM);
        if (r >= 0)
                r = test_g2_msm_case(ctx, points, scalars, max_n - 3, TESTDATA_RANDOM);
        if (r >= 0)
                r = test_g2_msm_case(ctx, points, scalars, max_n, TESTDATA_ZERO_ONE);
        return r;
}

static void *xmalloc(size_t bytes) {
        void *p = malloc(bytes);
        if (!p) {
                printf("FAIL: out of memory (%zu bytes)\n", bytes);
                abort();
        }
        return p;
}

int main(int argc, char **argv) {
        _cleanup_gpu_context_ gpu_context_t *ctx = NULL;
        gpu_device_info_t info;
        const char *mode = argc > 1 ? argv[1] : "";
        bool quick = !strcmp(mode, "--quick"), msm_only = !strcmp(mode, "--msm");
        unsigned ntt_max = quick ? 16 : msm_only ? 0 : 24, msm_max = quick ? 16 : 24;
        double start = now_sec();
        int r;

        if (*mode && !quick && !msm_only) {
                fprintf(stderr, "cuda-selftest: unknown argument '%s', expected --quick or --msm\n",
                        mode);
                return EXIT_FAILURE;
        }
        r = gpu_context_new(&ctx, 0);
        if (r == -ENODEV) {
                printf("SKIP: no CUDA device\n");
                return EXIT_SKIP;
        }
        if (r < 0) {
                printf("FAIL: cannot open the CUDA device: %s\n", strerror(-r));
                return EXIT_FAILURE;
        }
        gpu_context_info(ctx, &info);
        printf("device: %s, compute %d.%d, %d SMs, %.1f GiB; %u CPU threads for the references\n",
               info.name, info.compute_major, info.compute_minor, info.multiprocessors,
               (double)info.memory_bytes / (1 << 30), zk_thread_count());

        /* Buffers for the largest case of each part, reused by the smaller. */
        const size_t ntt_n = (size_t)1 << ntt_max, msm_n = (size_t)1 << msm_max;
        size_t fr_count = 3 * (ntt_n > MUL_COUNT ? ntt_n : MUL_COUNT);
        fr_count = fr_count > msm_n ? fr_count : msm_n;
        fr_t *fr_buf = xmalloc(fr_count * sizeof(fr_t));
        fp_t *fp_buf = xmalloc(3 * MUL_COUNT * sizeof(fp_t));
        g1_affine_t *points = xmalloc(msm_n * sizeof(g1_affine_t));

        r = test_field_mul(ctx, fr_buf, fp_buf);
        for (unsigned log_n = 10; r >= 0 && log_n <= ntt_max; log_n++)
                for (int roots = 0; r >= 0 && roots < 2; roots++)
                        r = test_ntt_size(ctx, log_n, (ntt_roots_t)roots, fr_buf, fr_buf + ntt_n,
                                          fr_buf + 2 * ntt_n);
        if (r >= 0)
                r = test_msm(ctx, msm_max, points, fr_buf);
        if (r >= 0)
                r = test_g2_msm(ctx, quick ? 14 : 18, fr_buf);
        if (r < 0)
                report(false, "stopped: %s %s", strerror(-r), gpu_context_last_error(ctx));

        printf("%s: %u passed, %u failed (%.1f s)\n", failures ? "FAIL" : "PASS", passes, failures,
               now_sec() - start);
        free(fr_buf);
        free(fp_buf);
        free(points);
        return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}
