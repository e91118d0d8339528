/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Whole PoRep-shaped partitions on the GPU (the split prover, cuda/gpu-prove.h),
 * against SupraSeal C2's figures in TARGETS.md: for each domain 2^k a
 * synthetic circuit (circuits/synthetic.h: rows = 2^k - 2^k/128, PoRep's
 * densities, 3 of 4 aux values 0 or 1), its a, b, c by the PCE SpMV, and a
 * timing-only SRS in bellperson's layout, as Filecoin's parameters and
 * SupraSeal's benchmark have it: A, B_G1 and B_G2 hold points for the
 * wires A (B) uses only, matched by the circuit's densities (random
 * points: one G1 array shared by A, B_G1, L and H, which the timing cannot
 * tell apart, and one G2 array), pinned with cudaHostRegister. Then six
 * partitions of one AUTO prover:
 *   1, 2  one at a time: the first tail runs on the CPU, the second on the
 *         GPU (AUTO tries each place once);
 *   3..8  pipelined as the daemon runs them: each start before the
 *         previous partition's finish, so that with two lanes (cuda/
 *         gpu-prove.h) one partition's copies and transforms overlap the
 *         previous one's MSMs.
 * Prints a markdown table: GPU stage (timed on the GPU's stream), tail and
 * where, overlap, the partition's wall time from prove_start to its proof,
 * and for 3..8 the time per partition: over all six, and steady (from
 * 3's proof to 8's, five proofs, past the second lane's first use).
 * With --compact, every partition starts from the compact witness instead
 * (gpu_prove_start_compact: its 0/1 aux as two bitmaps, the rest as values,
 * a, b, c and the full witness made on the device from the PCE, uploaded
 * once): the tails then all run on the GPU.
 * Usage: bench-gpu-prove [--lanes=N] [--srs=auto|device|host] [--window=C]
 *                        [--compact] [log_domain ...]   (default 24 26)
 * The options are the prover's tuning (cuda/gpu-tuning.h, bench-gpu-args.h),
 * by default the daemon's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "bench/bench-gpu-args.h"
#include "circuits/pce-compact.h"
#include "circuits/pce.h"
#include "circuits/synthetic.h"
#include "common/cleanup.h"
#include "cuda/gpu-prove.h"
#include "cuda/testdata.h"
#include "zk/parallel.h"

static double now_sec(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* SupraSeal C2 on the H200 host (TARGETS.md), seconds, best of its range. */
static double supraseal_sec(unsigned k) {
        return k == 24 ? 4.0 : k == 26 ? 16.0 : 0;
}

/* Anonymous memory, faulted in by the caller's writes. */
static void *big_alloc(size_t bytes) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? NULL : p;
}

/* 2 one at a time, then 6 pipelined. */
#define PARTITIONS 8

struct partition_run {
        char label[32];
        gpu_prove_timings_t t;
        double wall;
};

/* sec against SupraSeal's time at 2^k, or "-" where TARGETS.md has none. */
static void ratio_text(char *buf, size_t size, unsigned k, double sec) {
        const double ref = supraseal_sec(k);
        if (ref > 0)
                snprintf(buf, size, "%.2fx", sec / ref);
        else
                snprintf(buf, size, "-");
}

static void print_row(unsigned k, const struct partition_run *run) {
        char ratio[32];
        ratio_text(ratio, sizeof(ratio), k, run->wall);
        printf("| 2^%u | %s | %.3f s | %.3f s | %s | %.3f s | %.3f s | %s |\n", k, run->label,
               run->t.gpu_stage_usec / 1e6, run->t.g2_usec / 1e6, run->t.g2_on_gpu ? "GPU" : "CPU",
               run->t.overlap_usec / 1e6, run->wall, ratio);
        fflush(stdout);
}

/* What a partition starts from: the host's witness and a, b, c, or (pce
 * set) the compact witness with the PCE on the card. */
struct partition_input {
        const fr_t *w;
        fr_t *const *abc;
        const struct pce *pce;
        const struct pce_compact_witness *cw;
        gpu_pce_t *d_pce; /* uploaded by run_partitions */
};

static int start_partition(gpu_prover_t *prover, const struct groth16_pk *pk,
                           const struct partition_input *in, gpu_prove_partial_t **ret) {
        if (in->d_pce)
                return gpu_prove_start_compact(prover, pk, in->d_pce, in->cw, ret);
        return gpu_prove_start(prover, pk, in->w, in->abc[0], in->abc[1], in->abc[2], ret);
}

/* The eight partitions of pk through one prover of this tuning, and their
 * table rows. */
static int run_partitions(unsigned k, const struct groth16_pk *pk, struct partition_input *in,
                          const struct gpu_tuning *tuning) {
        gpu_prove_partial_t *partial[PARTITIONS] = {NULL};
        struct partition_run runs[PARTITIONS] = {{"1: auto, first (CPU tail)", {0}, 0},
                                                 {"2: auto, second (GPU tail)", {0}, 0}};
        double start[PARTITIONS];
        gpu_prover_t *prover = NULL;
        struct groth16_proof proof;
        int r;

        for (int p = 2; p < PARTITIONS; p++)
                snprintf(runs[p].label, sizeof(runs[p].label), "%d: pipelined", p + 1);
        /* One AUTO prover: it tries the CPU for the first tail and the GPU for
         * the second, then places 3 and 4 by the rates it measured. */
        r = gpu_prover_new_tuned(0, 0, GPU_G2_AUTO, tuning, &prover);
        if (r < 0)
                return r;
        r = gpu_prover_register_pk(prover, pk);
        if (r >= 0 && in->pce)
                r = gpu_prover_upload_pce(prover, in->pce, &in->d_pce);
        if (r < 0) {
                gpu_prover_free(prover);
                return r;
        }
        for (int p = 0; p < 2 && r >= 0; p++) {
                start[p] = now_sec();
                r = start_partition(prover, pk, in, &partial[p]);
                if (r >= 0)
                        r = gpu_prove_finish(prover, partial[p], &proof, &runs[p].t);
                runs[p].wall = now_sec() - start[p];
                if (r >= 0)
                        print_row(k, &runs[p]);
        }
        if (r >= 0) {
                char split[192];

                gpu_stage_split_format(&runs[1].t.split, split, sizeof(split));
                fprintf(stderr, "2^%u: the second partition's GPU stage: %s\n", k, split);
        }
        /* 3..8 pipelined: start p, then finish p - 1 (its GPU work overlaps
         * p's copies and transforms on another lane, and a CPU tail p's GPU
         * stage); each wall time runs from its start to its proof. */
        const double first = now_sec();
        int started = 2, finished = 2;
        for (int p = 2; p < PARTITIONS && r >= 0; p++) {
                start[p] = now_sec();
                r = start_partition(prover, pk, in, &partial[p]);
                if (r < 0)
                        break;
                started++;
                if (p > 2) {
                        r = gpu_prove_finish(prover, partial[p - 1], &proof, &runs[p - 1].t);
                        runs[p - 1].wall = now_sec() - start[p - 1];
                        finished++;
                }
        }
        if (r >= 0) {
                r = gpu_prove_finish(prover, partial[PARTITIONS - 1], &proof,
                                     &runs[PARTITIONS - 1].t);
                runs[PARTITIONS - 1].wall = now_sec() - start[PARTITIONS - 1];
                finished++;
        }
        const double last = now_sec(), first_proof = start[2] + runs[2].wall;
        for (int p = finished; p < started; p++)
                gpu_prove_partial_free(partial[p]);
        if (r >= 0) {
                const double all = last - first, per = all / (PARTITIONS - 2);
                const double steady = (last - first_proof) / (PARTITIONS - 3);
                char ratio[32], steady_ratio[32];
                ratio_text(ratio, sizeof(ratio), k, per);
                ratio_text(steady_ratio, sizeof(steady_ratio), k, steady);
                for (int p = 2; p < PARTITIONS; p++)
                        print_row(k, &runs[p]);
                printf("| 2^%u | 3 to %d, %u lanes | | | | | %.3f s for %d | %.3f s per "
                       "partition (%s); steady %.3f s (%s) |\n",
                       k, PARTITIONS, gpu_prover_lanes(prover), all, PARTITIONS - 2, per, ratio,
                       steady, steady_ratio);
                fprintf(stderr, "2^%u: %.1f MB host to device a partition (%s)\n", k,
                        (double)runs[PARTITIONS - 1].t.upload_bytes / 1e6,
                        in->pce ? "the compact witness" : "a, b, c and the witness");
                fprintf(stderr, "2^%u: GPU lane scratch %.2f GiB, %.2f GiB set aside a partition\n",
                        k, (double)gpu_prover_scratch_peak(prover) / (1u << 30),
                        (double)gpu_prover_partition_bytes(pk) / (1u << 30));
        }

        gpu_pce_free(in->d_pce);
        in->d_pce = NULL;
        gpu_prover_unregister_pk(prover, pk);
        gpu_prover_free(prover);
        return r;
}

static int bench_size(unsigned k, const struct gpu_tuning *tuning, bool compact) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_free_ fr_t *w = NULL;
        _cleanup_(wire_density_freep) struct wire_density *a_density = NULL, *b_density = NULL;
        struct synthetic_params params = {
                .seed = 1, .n_aux = SYNTHETIC_DEFAULT, .n_public = SYNTHETIC_DEFAULT};
        const size_t n = (size_t)1 << k;
        fr_t *abc[3] = {NULL};
        double t0;
        int r;

        params.n_rows = (uint32_t)(n - n / 128);
        t0 = now_sec();
        r = synthetic_generate(&params, &pce, &w);
        if (r < 0) {
                fprintf(stderr, "bench-gpu-prove: synthetic circuit 2^%u: %s\n", k, strerror(-r));
                return r;
        }
        fprintf(stderr, "2^%u: circuit %u rows, %u wires in %.1f s\n", k, pce->n_rows, pce->n_cols,
                now_sec() - t0);

        /* The SRS: random points; A, B_G1, L and H share one array, B_G2
         * has a point for each wire of B. */
        const size_t n_vars = pce->n_cols;
        if ((r = pce_wire_density(pce, PCE_A, &a_density)) < 0 ||
            (r = pce_wire_density(pce, PCE_B, &b_density)) < 0)
                return r;
        const size_t g1_points = n_vars > n ? n_vars : n, g2_points = b_density->count;
        g1_affine_t *g1 = big_alloc(g1_points * sizeof(g1_affine_t));
        g2_affine_t *g2 = big_alloc((g2_points ? g2_points : 1) * sizeof(g2_affine_t));
        if (!g1 || !g2)
                return -ENOMEM;
        t0 = now_sec();
        r = testdata_g1_points(g1, g1_points, 11);
        if (r >= 0)
                r = testdata_g2_points(g2, g2_points, 12);
        if (r < 0)
                return r;
        fprintf(stderr,
                "2^%u: timing-only SRS (%zu G1, %zu G2 points; A uses %zu of %zu wires, B %zu) "
                "in %.1f s\n",
                k, g1_points, g2_points, a_density->count, n_vars, b_density->count,
                now_sec() - t0);
        struct groth16_pk pk = {
                .h_convention = GROTH16_H_BELLPERSON,
                .n_vars = n_vars,
                .n_public = pce->n_public,
                .log_domain_size = k,
                .alpha1 = g1[0],
                .beta1 = g1[1],
                .delta1 = g1[2],
                .beta2 = g2[0],
                .delta2 = g2[1],
                .a = g1,
                .b1 = g1,
                .b2 = g2,
                .l = g1,
                .h = g1,
                .a_density = a_density,
                .b_density = b_density,
        };

        /* a, b, c: the GPU stage only reads them, so all partitions share one set. */
        t0 = now_sec();
        for (int m = 0; m < 3; m++)
                if (!(abc[m] = big_alloc(n * sizeof(fr_t))))
                        return -ENOMEM;
        r = pce_evaluate(pce, w, n_vars, k, abc[0], abc[1], abc[2]);
        if (r < 0)
                return r;
        fprintf(stderr, "2^%u: SpMV (a, b, c) in %.2f s\n", k, now_sec() - t0);

        _cleanup_(pce_compact_owned_free) struct pce_compact_owned cw = {0};
        struct partition_input in = {.w = w, .abc = abc};
        if (compact) {
                if ((r = pce_compact_from_full(w, pce->n_public, n_vars - 1 - pce->n_public, &cw)) <
                    0)
                        return r;
                in.pce = pce;
                in.cw = &cw.w;
        }
        r = run_partitions(k, &pk, &in, tuning);
        for (int m = 0; m < 3; m++)
                munmap(abc[m], n * sizeof(fr_t));
        munmap(g1, g1_points * sizeof(g1_affine_t));
        munmap(g2, (g2_points ? g2_points : 1) * sizeof(g2_affine_t));
        return r;
}

int main(int argc, char **argv) {
        unsigned sizes[8] = {24, 26};
        int n_sizes = 2, r = 0;
        struct gpu_tuning tuning;
        bool profile = false, compact = false;

        gpu_tuning_defaults(&tuning);
        while (argc > 1 &&
               ((strcmp(argv[1], "--compact") == 0 && (compact = true)) ||
                (r = bench_gpu_option("bench-gpu-prove", argv[1], &tuning, &profile)))) {
                if (r < 0 || profile) {
                        if (profile)
                                fprintf(stderr, "bench-gpu-prove: --profile is bench-cuda's\n");
                        return 2;
                }
                argc--, argv++;
        }
        if (argc > 1) {
                n_sizes = 0;
                for (int i = 1; i < argc && n_sizes < 8; i++) {
                        char *end;
                        unsigned long k = strtoul(argv[i], &end, 10);
                        if (*end || k < 10 || k > 27) {
                                fprintf(stderr,
                                        "bench-gpu-prove: '%s' is not a log2 domain "
                                        "size from 10 to 27\n",
                                        argv[i]);
                                return 2;
                        }
                        sizes[n_sizes++] = (unsigned)k;
                }
        }
        if (gpu_device_count() <= 0) {
                printf("bench-gpu-prove: no CUDA device\n");
                return 77;
        }
        printf("Whole PoRep-shaped partitions, split GPU prover, %u CPU threads\n\n",
               zk_thread_count());
        printf("| domain | partition | GPU stage | B_G2 tail | tail on | overlap | wall | vs "
               "SupraSeal |\n|---|---|---|---|---|---|---|---|\n");
        for (int i = 0; i < n_sizes; i++) {
                r = bench_size(sizes[i], &tuning, compact);
                if (r < 0) {
                        printf("bench-gpu-prove: 2^%u failed: %s\n", sizes[i], strerror(-r));
                        return 1;
                }
        }
        return 0;
}
