/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Device test of pce-eval.h: a PoRep partition's a, b, c evaluated on the
 * GPU from its PCE and compact witness, against pce_evaluate_compact() on
 * the CPU, bit for bit. Prints PASS/FAIL per vector, the bytes that cross
 * to the device (the PCE once, the witness per partition) and the device
 * time of the uploads and of the evaluation. Exit status 1 on any
 * failure, 77 (meson's skip) without a device, 2 for bad arguments.
 *   cuda-pce-eval-test [--pce-dir DIR] [--partition K] [--runs N] INPUT...
 * INPUT: a C1 output (JSON, from `cuzk porep seal`) or a registered proof
 * name (StackedDrg2KiBV1_1, StackedDrg8MiBV1_1), for which a synthetic C1
 * is made here (filecoin/seal/synth-c1.h). --pce-dir: where the PCE cache
 * is read or saved (porep-pce.h); without it the PCE is built.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "circuits/cs/cs.h"
#include "circuits/porep/porep-pce.h"
#include "circuits/porep/stacked.h"
#include "common/cleanup.h"
#include "cuda/pce-eval.h"
#include "filecoin/seal/synth-c1.h"
#include "zk/big_alloc.h"

#define EXIT_SKIP 77

struct options {
        const char *pce_dir;
        unsigned partition, runs;
};

static unsigned failures;

static void report(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void report(bool ok, const char *fmt, ...) {
        va_list ap;

        printf("%s: ", ok ? "PASS" : "FAIL");
        va_start(ap, fmt);
        vprintf(fmt, ap);
        va_end(ap);
        printf("\n");
        if (!ok)
                failures++;
}

static double now_sec(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* A C1 output from a file, or a synthetic one for a registered proof's
 * name (fixed inputs: the same C1 every run). */
static int load_c1(const char *input, struct c1_output **ret) {
        const struct porep_config *cfg = porep_config_by_name(input);
        struct synth_c1_inputs in = {.cfg = cfg, .sector_id = 1};

        if (!cfg)
                return c1_load_file(input, ret) < 0 ? -EINVAL : 0;
        for (size_t i = 0; i < 32; i++) {
                in.prover_id[i] = (uint8_t)i;
                in.ticket[i] = (uint8_t)(0x40 + i);
                in.seed[i] = (uint8_t)(0x80 + i);
                in.key[i] = (uint8_t)(0xc0 + i);
        }
        return synth_c1_create(&in, ret);
}

/* The first row where the device's vector differs from the CPU's. */
static void compare(const char *name, const char *vector, const fr_t *want, const fr_t *got,
                    size_t n) {
        size_t i = 0;

        while (i < n && !memcmp(&want[i], &got[i], sizeof(fr_t)))
                i++;
        if (i == n)
                report(true, "%s: %s, %zu values bit for bit", name, vector, n);
        else
                report(false, "%s: %s differs first at row %zu of %zu", name, vector, i, n);
}

/* The device side: the PCE uploaded once, then the witness and the
 * evaluation `runs` times (the last run's times printed); a, b, c back
 * into got. */
static int run_device(gpu_context_t *ctx, const struct options *o, const struct pce *pce,
                      const struct pce_compact_witness *cw, unsigned log, fr_t *got) {
        _cleanup_(gpu_pce_freep) gpu_pce_t *dp = NULL;
        _cleanup_(gpu_pce_witness_freep) gpu_pce_witness_t *dw = NULL;
        const size_t domain = (size_t)1 << log;
        double t0, upload_ms = 0, evaluate_ms = 0;
        uint64_t witness_bytes = 0;
        void *d_abc = NULL;
        int r;

        t0 = now_sec();
        if ((r = gpu_pce_upload(ctx, pce, &dp)) < 0)
                return r;
        printf("PCE upload: %.1f MB host to device (%.1f MB resident), %.1f ms wall; long rows "
               "(a warp each) %" PRIu64 "/%" PRIu64 "/%" PRIu64 "\n",
               (double)gpu_pce_upload_bytes(dp) / 1e6, (double)gpu_pce_device_bytes(dp) / 1e6,
               (now_sec() - t0) * 1e3, gpu_pce_long_rows(dp, PCE_A), gpu_pce_long_rows(dp, PCE_B),
               gpu_pce_long_rows(dp, PCE_C));
        if ((r = gpu_pce_witness_new(ctx, &dw)) < 0 ||
            (r = gpu_alloc(ctx, &d_abc, 3 * domain * sizeof(fr_t))) < 0)
                return r;
        fr_t *d_a = d_abc, *d_b = d_a + domain, *d_c = d_b + domain;
        for (unsigned run = 0; run < o->runs && r >= 0; run++)
                if ((r = gpu_pce_witness_upload(dw, cw, &witness_bytes)) >= 0 &&
                    (r = gpu_pce_evaluate(dw, dp, log, d_a, d_b, d_c)) >= 0)
                        r = gpu_pce_witness_times(dw, &upload_ms, &evaluate_ms);
        if (r >= 0)
                r = gpu_copy_to_host(ctx, got, d_abc, 3 * domain * sizeof(fr_t));
        gpu_free(ctx, d_abc);
        if (r < 0)
                return r;
        printf("witness upload: %.2f MB host to device, %.3f ms device; a, b, c of 2^%u: %.3f ms "
               "device (run %u of %u)\n",
               (double)witness_bytes / 1e6, upload_ms, log, evaluate_ms, o->runs, o->runs);
        return 0;
}

static int check_input(gpu_context_t *ctx, const struct options *o, const char *input) {
        _cleanup_(c1_output_freep) struct c1_output *c1 = NULL;
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_(cs_freep) struct cs *cs = NULL;
        _cleanup_free_ uint64_t *rank = NULL;
        _cleanup_free_ fr_t *abc = NULL;
        struct pce_compact_witness cw;
        int r;

        if ((r = load_c1(input, &c1)) < 0)
                return r;
        r = o->pce_dir ? porep_pce_open(c1->cfg, o->pce_dir, &pce, NULL)
                       : porep_pce_build(c1->cfg, &pce);
        if (r < 0 || (r = porep_circuit_witness(c1, o->partition, &cs)) < 0 ||
            (r = cs_witness_compact(cs, &cw, &rank)) < 0)
                return r;
        const unsigned log = pce_log_domain_size(pce);
        const size_t domain = (size_t)1 << log;
        printf("%s%s, partition %u: %u rows, %u columns, %" PRIu64 " aux\n", c1->cfg->name,
               c1->synthetic_c1 ? " (synthetic C1)" : "", o->partition, pce->n_rows, pce->n_cols,
               cw.n_aux);
        abc = big_alloc(6 * domain * sizeof(fr_t));
        if (!abc)
                return -ENOMEM;
        fr_t *want = abc, *got = abc + 3 * domain;
        const double t0 = now_sec();
        if ((r = pce_evaluate_compact(pce, &cw, log, want, want + domain, want + 2 * domain)) < 0)
                return r;
        printf("CPU: a, b, c in %.1f ms\n", (now_sec() - t0) * 1e3);
        memset(got, 0xa5, 3 * domain * sizeof(fr_t)); /* nothing left from the CPU side */
        if ((r = run_device(ctx, o, pce, &cw, log, got)) < 0)
                return r;
        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                compare(c1->cfg->name, (const char *[]){"a", "b", "c"}[k], want + k * domain,
                        got + k * domain, domain);
        return 0;
}

static int parse(int argc, char **argv, struct options *o) {
        static const struct option long_options[] = {
                {"pce-dir", required_argument, NULL, 'd'},
                {"partition", required_argument, NULL, 'k'},
                {"runs", required_argument, NULL, 'n'},
                {0},
        };
        int c;

        o->runs = 3;
        while ((c = getopt_long(argc, argv, "", long_options, NULL)) != -1)
                switch (c) {
                case 'd':
                        o->pce_dir = optarg;
                        break;
                case 'k':
                        o->partition = (unsigned)strtoul(optarg, NULL, 10);
                        break;
                case 'n':
                        o->runs = (unsigned)strtoul(optarg, NULL, 10);
                        break;
                default:
                        return -EINVAL;
                }
        return optind < argc && o->runs > 0 ? 0 : -EINVAL;
}

int main(int argc, char **argv) {
        _cleanup_gpu_context_ gpu_context_t *ctx = NULL;
        struct options o = {0};
        int r;

        if (parse(argc, argv, &o) < 0) {
                fputs("usage: cuda-pce-eval-test [--pce-dir DIR] [--partition K] [--runs N] "
                      "C1.json|REGISTERED-PROOF...\n",
                      stderr);
                return 2;
        }
        if (gpu_device_count() < 0 || gpu_context_new(&ctx, 0) < 0) {
                printf("SKIP: no CUDA device\n");
                return EXIT_SKIP;
        }
        for (int i = optind; i < argc; i++)
                if ((r = check_input(ctx, &o, argv[i])) < 0)
                        report(false, "%s: %s (%s)", argv[i], strerror(-r),
                               gpu_context_last_error(ctx));
        printf("%s: %u failure(s)\n", failures ? "FAIL" : "PASS", failures);
        return failures ? 1 : 0;
}
