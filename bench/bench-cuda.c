/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GPU primitives against TARGETS.md's reference figures (sppark on the same
 * H200 host): G1 MSM and NTT, host-to-host from pinned memory with the
 * transfers included, and device-resident (data already on the GPU, only
 * the kernels and the MSM's final host combination timed). Best of 3 after
 * a warm-up run. Prints a markdown table.
 * Usage: bench-cuda [--window=C] [--profile]
 *                   [msm_min_log msm_max_log [ntt_min_log ntt_max_log]]
 *        (defaults 20 26 20 27; an MSM range past 0 0 skips nothing);
 *        --window fixes the MSMs' window bits, --profile prints each MSM's
 *        steps' times on stderr (bench-gpu-args.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench-gpu-args.h"
#include "cuda/gpu.h"
#include "cuda/testdata.h"

#define REPEATS 3
/* Device-to-device copy bandwidth measured on this workplace's H200s
 * (bytes read plus written): the floor of a memory-bound pass. */
#define H200_COPY_BYTES_PER_SEC 4.3e12

static double now_sec(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* TARGETS.md, sppark host-to-host in ms, by log2 size; 0 where none. */
static double target_ms(const char *what, unsigned log_n) {
        static const struct {
                const char *what;
                unsigned log_n;
                double ms;
        } targets[] = {
                {"msm", 20, 22.8},   {"msm", 22, 55.9},   {"msm", 24, 167},    {"msm", 26, 599},
                {"fwd", 20, 1.7},    {"fwd", 22, 6.5},    {"fwd", 24, 26.2},   {"fwd", 26, 110},
                {"fwd", 27, 215},    {"icoset", 20, 1.7}, {"icoset", 22, 6.8}, {"icoset", 24, 27.1},
                {"icoset", 26, 111}, {"icoset", 27, 219},
        };
        for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++)
                if (strcmp(targets[i].what, what) == 0 && targets[i].log_n == log_n)
                        return targets[i].ms;
        return 0;
}

static void print_row(const char *name, unsigned log_n, double h2h_ms, double dev_ms, double target,
                      const char *note) {
        char h2h[32] = "-", ratio[32] = "-", tgt[32] = "-";

        if (h2h_ms > 0)
                snprintf(h2h, sizeof(h2h), "%.2f ms", h2h_ms);
        if (target > 0) {
                snprintf(tgt, sizeof(tgt), "%.1f ms", target);
                if (h2h_ms > 0)
                        snprintf(ratio, sizeof(ratio), "%.2fx", h2h_ms / target);
        }
        printf("| %s | 2^%u | %s | %.2f ms | %s | %s | %s |\n", name, log_n, h2h, dev_ms, tgt,
               ratio, note);
}

static int fail(gpu_context_t *ctx, int r, const char *what) {
        fprintf(stderr, "bench-cuda: %s: %s %s\n", what, strerror(-r),
                ctx ? gpu_context_last_error(ctx) : "");
        return r;
}

static int bench_msm(gpu_context_t *ctx, unsigned log_n) {
        const size_t n = (size_t)1 << log_n;
        g1_affine_t *points = NULL, *d_points = NULL;
        fr_t *scalars = NULL, *d_scalars = NULL;
        double best_h2h = 1e30, best_dev = 1e30;
        g1_jac_t r1, r2;
        int r;

        r = gpu_host_alloc(ctx, (void **)&points, n * sizeof(g1_affine_t));
        if (r >= 0)
                r = gpu_host_alloc(ctx, (void **)&scalars, n * sizeof(fr_t));
        if (r >= 0)
                r = testdata_g1_points(points, n, 77);
        if (r >= 0) {
                testdata_scalar_array(scalars, n, 78, TESTDATA_RANDOM);
                r = gpu_g1_msm_fr(ctx, &r1, points, scalars, n); /* warm-up */
        }
        for (int i = 0; r >= 0 && i < REPEATS; i++) {
                double t = now_sec();
                r = gpu_g1_msm_fr(ctx, &r1, points, scalars, n);
                t = now_sec() - t;
                best_h2h = t < best_h2h ? t : best_h2h;
        }
        if (r >= 0)
                r = gpu_alloc(ctx, (void **)&d_points, n * sizeof(g1_affine_t));
        if (r >= 0)
                r = gpu_alloc(ctx, (void **)&d_scalars, n * sizeof(fr_t));
        if (r >= 0)
                r = gpu_copy_to_device(ctx, d_points, points, n * sizeof(g1_affine_t));
        if (r >= 0)
                r = gpu_copy_to_device(ctx, d_scalars, scalars, n * sizeof(fr_t));
        for (int i = 0; r >= 0 && i < REPEATS; i++) {
                double t = now_sec();
                r = gpu_g1_msm_fr_device(ctx, &r2, d_points, d_scalars, n);
                t = now_sec() - t;
                best_dev = t < best_dev ? t : best_dev;
        }
        if (r >= 0 && !g1_jac_equal(&r1, &r2))
                r = -EIO; /* the two paths must agree */
        gpu_free(ctx, d_points);
        gpu_free(ctx, d_scalars);
        gpu_host_free(ctx, points);
        gpu_host_free(ctx, scalars);
        if (r < 0)
                return fail(ctx, r, "msm");
        print_row("G1 MSM, random scalars", log_n, best_h2h * 1e3, best_dev * 1e3,
                  target_ms("msm", log_n), "");
        return 0;
}

/* Passes over memory: ceil(log_n / 10) radix passes, plus one for the
 * bit reversal of natural-order output. */
static double ntt_floor_ms(unsigned log_n, bool natural_out) {
        const unsigned passes = (log_n + 9) / 10 + (natural_out ? 1 : 0);
        const double bytes = 2.0 * passes * (double)((size_t)32 << log_n);
        return bytes / H200_COPY_BYTES_PER_SEC * 1e3;
}

static int bench_ntt_one(gpu_context_t *ctx, fr_t *host, fr_t *dev, unsigned log_n,
                         gpu_ntt_kind_t kind, ntt_order_t order, bool host_to_host,
                         const char *name, const char *target_key) {
        const size_t bytes = ((size_t)32) << log_n;
        double best_h2h = 0, best_dev = 1e30;
        fr_t shift;
        int r = 0;

        fr_from_u64(&shift, NTT_COSET_GENERATOR);
        if (host_to_host) {
                best_h2h = 1e30;
                r = gpu_ntt(ctx, host, log_n, NTT_ROOTS_BELLPERSON, kind, order, &shift);
                for (int i = 0; r >= 0 && i < REPEATS; i++) {
                        double t = now_sec();
                        r = gpu_ntt(ctx, host, log_n, NTT_ROOTS_BELLPERSON, kind, order, &shift);
                        t = now_sec() - t;
                        best_h2h = t < best_h2h ? t : best_h2h;
                }
        }
        if (r >= 0)
                r = gpu_copy_to_device(ctx, dev, host, bytes);
        if (r >= 0)
                r = gpu_ntt_device(ctx, dev, log_n, NTT_ROOTS_BELLPERSON, kind, order, &shift);
        if (r >= 0)
                r = gpu_synchronize(ctx);
        for (int i = 0; r >= 0 && i < REPEATS; i++) {
                double t = now_sec();
                r = gpu_ntt_device(ctx, dev, log_n, NTT_ROOTS_BELLPERSON, kind, order, &shift);
                if (r >= 0)
                        r = gpu_synchronize(ctx);
                t = now_sec() - t;
                best_dev = t < best_dev ? t : best_dev;
        }
        if (r < 0)
                return fail(ctx, r, name);
        char note[64];
        snprintf(note, sizeof(note), "DRAM floor %.2f ms",
                 ntt_floor_ms(log_n, order == NTT_ORDER_NN));
        print_row(name, log_n, best_h2h * 1e3, best_dev * 1e3,
                  target_key ? target_ms(target_key, log_n) : 0, note);
        return 0;
}

static int bench_ntt(gpu_context_t *ctx, unsigned log_n) {
        const size_t bytes = ((size_t)32) << log_n;
        fr_t *host = NULL, *dev = NULL;
        int r;

        r = gpu_host_alloc(ctx, (void **)&host, bytes);
        if (r >= 0)
                r = gpu_alloc(ctx, (void **)&dev, bytes);
        if (r >= 0) {
                testdata_fr_array(host, (size_t)1 << log_n, 79);
                r = bench_ntt_one(ctx, host, dev, log_n, GPU_NTT_FORWARD, NTT_ORDER_NN, true,
                                  "NTT forward, NN", "fwd");
        }
        if (r >= 0)
                r = bench_ntt_one(ctx, host, dev, log_n, GPU_NTT_COSET_INVERSE, NTT_ORDER_NN, true,
                                  "NTT coset inverse, NN", "icoset");
        if (r >= 0)
                r = bench_ntt_one(ctx, host, dev, log_n, GPU_NTT_FORWARD, NTT_ORDER_NR, false,
                                  "NTT forward, NR (prover order)", NULL);
        gpu_free(ctx, dev);
        gpu_host_free(ctx, host);
        return r;
}

int main(int argc, char **argv) {
        gpu_context_t *ctx = NULL;
        gpu_device_info_t info;
        unsigned msm_min = 20, msm_max = 26, ntt_min = 20, ntt_max = 27;
        struct gpu_tuning tuning;
        bool profile = false;
        int r;

        gpu_tuning_defaults(&tuning);
        while (argc > 1 && (r = bench_gpu_option("bench-cuda", argv[1], &tuning, &profile)) != 0) {
                if (r < 0 || strncmp(argv[1], "--lanes=", 8) == 0 ||
                    strncmp(argv[1], "--srs=", 6) == 0) {
                        fprintf(stderr, "bench-cuda: only --window= and --profile apply\n");
                        return 2;
                }
                argc--, argv++;
        }
        if (argc > 2) {
                msm_min = (unsigned)atoi(argv[1]);
                msm_max = (unsigned)atoi(argv[2]);
        }
        if (argc > 4) {
                ntt_min = (unsigned)atoi(argv[3]);
                ntt_max = (unsigned)atoi(argv[4]);
        }
        if (ntt_max > NTT_MAX_LOG_SIZE || msm_max > 30) {
                fprintf(stderr, "bench-cuda: sizes up to 2^%d (NTT) and 2^30 (MSM)\n",
                        NTT_MAX_LOG_SIZE);
                return EXIT_FAILURE;
        }
        r = gpu_context_new(&ctx, 0);
        if (r < 0) {
                fprintf(stderr, "bench-cuda: no usable CUDA device (%s)\n", strerror(-r));
                return r == -ENODEV ? 77 : EXIT_FAILURE;
        }
        gpu_set_msm_window_bits(ctx, tuning.msm_window_bits);
        gpu_set_msm_profile(ctx, profile);
        gpu_context_info(ctx, &info);
        printf("device: %s, %d SMs, %.1f GiB\n\n", info.name, info.multiprocessors,
               (double)info.memory_bytes / (1 << 30));
        printf("| primitive | size | host-to-host, best of %d | device-resident | sppark "
               "(TARGETS.md) | ratio | note |\n",
               REPEATS);
        printf("|---|---|---|---|---|---|---|\n");
        for (unsigned log_n = ntt_min; r >= 0 && log_n <= ntt_max; log_n++)
                r = bench_ntt(ctx, log_n);
        for (unsigned log_n = msm_min; r >= 0 && msm_max && log_n <= msm_max; log_n += 2)
                r = bench_msm(ctx, log_n);
        gpu_context_free(ctx);
        return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
