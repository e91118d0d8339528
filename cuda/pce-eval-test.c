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
 * --prove: then the partition through the split prover (gpu-prove.h) twice,
 * from the host's a, b, c and witness and from the compact witness
 * (gpu_prove_start_compact), with a key made here for the PCE in
 * bellperson's layout (seeded, for tests only; --timing-only: random
 * points, no verification; --params FILE: the key of that .params file in
 * bellperson's layout, such as bench/porep-32g-daemon.sh's timing-only SRS,
 * verified unless it is timing-only): the MSMs' results equal bit for bit,
 * the compact path's proof verifies (groth16_verify), and each path's GPU
 * stage with its parts and host-to-device bytes printed. --profile: the
 * compact path's second partition with each MSM's steps timed (stderr; the
 * profiled MSMs wait for their results, so that stage is slower).
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
#include "circuits/pce-setup.h"
#include "circuits/porep/porep-pce.h"
#include "circuits/porep/stacked.h"
#include "common/cleanup.h"
#include "cuda/gpu-prove.h"
#include "cuda/pce-eval.h"
#include "filecoin/seal/synth-c1.h"
#include "formats/bellperson_params.h"
#include "zk/big_alloc.h"
#include "zk/groth16_pack.h"
#include "zk/groth16_setup.h"

#define EXIT_SKIP 77

struct options {
        const char *pce_dir, *params;
        unsigned partition, runs;
        bool prove, timing_only, profile;
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

/* A key for pce in bellperson's layout (a, b1, b2 packed to the wires A
 * and B use), as a PoRep .params file holds it. */
struct test_key {
        struct groth16_keys *keys;        /* made here */
        struct bellperson_params *params; /* or loaded (--params) */
        struct wire_density *a_density, *b_density;
        struct groth16_packed_arrays arrays;
        struct groth16_pk pk;
};

/* The key's verifying key, or NULL where its proofs are not to be verified. */
static const struct groth16_vk *test_key_vk(const struct test_key *k) {
        if (k->params)
                return k->params->timing_only ? NULL : &k->params->vk->vk;
        return k->keys->timing_only ? NULL : &k->keys->vk;
}

/* --params: the file's key, with the densities of pce. */
static int test_key_load(const char *path, const struct pce *pce, struct test_key *ret) {
        const double t0 = now_sec();
        int r = bellperson_params_load(path, false, &ret->params);

        if (r < 0 ||
            (r = pce_params_densities(pce, ret->params, &ret->a_density, &ret->b_density)) < 0 ||
            (r = bellperson_params_to_pk(ret->params, ret->a_density, ret->b_density, &ret->pk)) <
                    0)
                return r;
        printf("%s%s loaded in %.1f s\n", path, ret->params->timing_only ? " (timing-only)" : "",
               now_sec() - t0);
        return 0;
}

static void test_key_free(struct test_key *k) {
        bellperson_params_free(k->params);
        groth16_packed_arrays_free(&k->arrays);
        wire_density_free(k->a_density);
        wire_density_free(k->b_density);
        groth16_keys_free(k->keys);
}

static int test_key_make(const struct options *o, const struct pce *pce, struct test_key *ret) {
        const struct groth16_setup_circuit timing = {
                .n_vars = pce->n_cols,
                .n_public = pce->n_public,
                .log_domain_size = pce_log_domain_size(pce),
                .a_columns = pce->density[PCE_A],
                .b_columns = pce->density[PCE_B],
        };
        static const uint8_t seed[] = "cuda-pce-eval-test: a key for tests only";
        struct groth16_toxic_waste tw;
        const double t0 = now_sec();
        int r;

        if (o->params)
                return test_key_load(o->params, pce, ret);
        groth16_toxic_waste_from_seed(&tw, seed, sizeof(seed));
        r = o->timing_only ? groth16_setup_timing_only(&timing, NULL, &ret->keys)
                           : pce_groth16_setup(pce, &tw, NULL, &ret->keys);
        if (r < 0 || (r = pce_wire_density(pce, PCE_A, &ret->a_density)) < 0 ||
            (r = pce_wire_density(pce, PCE_B, &ret->b_density)) < 0 ||
            (r = groth16_pk_pack(&ret->keys->pk, ret->a_density, ret->b_density, &ret->arrays,
                                 &ret->pk)) < 0)
                return r;
        printf("%s key made in %.1f s\n", o->timing_only ? "timing-only" : "seeded",
               now_sec() - t0);
        return 0;
}

/* One partition through a fresh prover: from the host's witness and a, b,
 * c (w set), or from the compact witness on pce (its second run's MSMs
 * profiled with profile). */
static int prove_once(const struct groth16_pk *pk, const fr_t *w, fr_t *abc, const struct pce *pce,
                      const struct pce_compact_witness *cw, bool profile,
                      struct groth16_msm_results *msm, struct groth16_proof *proof) {
        _cleanup_(gpu_pce_freep) gpu_pce_t *dp = NULL;
        const size_t domain = (size_t)1 << pk->log_domain_size;
        gpu_prove_partial_t *partial = NULL;
        gpu_prove_timings_t t;
        gpu_prover_t *prover = NULL;
        int r;

        /* the tail on the GPU in both: the compact path has no host witness */
        if ((r = gpu_prover_new(0, 0, GPU_G2_GPU, &prover)) < 0)
                return r;
        r = gpu_prover_register_pk(prover, pk);
        if (r >= 0 && !w)
                r = gpu_prover_upload_pce(prover, pce, &dp);
        /* twice: the second run's figures, past the first's allocations */
        for (int run = 0; run < 2 && r >= 0; run++) {
                gpu_prover_set_msm_profile(prover, profile && !w && run == 1);
                r = w ? gpu_prove_start(prover, pk, w, abc, abc + domain, abc + 2 * domain,
                                        &partial)
                      : gpu_prove_start_compact(prover, pk, dp, cw, &partial);
                if (r >= 0)
                        r = run == 0 ? gpu_prove_finish_msm(prover, partial, msm, &t)
                                     : gpu_prove_finish(prover, partial, proof, &t);
        }
        if (r >= 0) {
                char split[192];

                gpu_stage_split_format(&t.split, split, sizeof(split));
                printf("%s: GPU stage %.3f s (%s), B_G2 on the GPU %.3f s, %.1f MB host to "
                       "device\n",
                       w ? "from host a, b, c and witness" : "from the compact witness",
                       (double)t.gpu_stage_usec / 1e6, split, (double)t.g2_usec / 1e6,
                       (double)t.upload_bytes / 1e6);
                const uint64_t peak = gpu_prover_scratch_peak(prover),
                               set_aside = gpu_prover_partition_bytes(pk);
                report(peak > 0 && peak <= set_aside,
                       "GPU lane scratch %.2f GiB within the %.2f GiB set aside a partition",
                       (double)peak / (1u << 30), (double)set_aside / (1u << 30));
        }
        gpu_pce_free(TAKE_PTR(dp));
        gpu_prover_unregister_pk(prover, pk);
        gpu_prover_free(prover);
        return r;
}

static bool msm_equal(const struct groth16_msm_results *x, const struct groth16_msm_results *y) {
        return g1_jac_equal(&x->h, &y->h) && g1_jac_equal(&x->a, &y->a) &&
               g1_jac_equal(&x->b1, &y->b1) && g1_jac_equal(&x->l, &y->l) &&
               g2_jac_equal(&x->b2, &y->b2);
}

/* The partition proven both ways (abc: the CPU's a, b, c, overwritten). */
static int prove_both(const struct options *o, const char *name, const struct pce *pce,
                      const struct pce_compact_witness *cw, fr_t *abc) {
        _cleanup_(test_key_free) struct test_key key = {0};
        _cleanup_free_ fr_t *w = NULL;
        struct groth16_msm_results host_msm, compact_msm;
        struct groth16_proof proof;
        int r;

        if ((r = test_key_make(o, pce, &key)) < 0)
                return r;
        w = big_alloc(pce->n_cols * sizeof(fr_t));
        if (!w)
                return -ENOMEM;
        pce_compact_expand(cw, w);
        if ((r = prove_once(&key.pk, w, abc, pce, cw, false, &host_msm, &proof)) < 0 ||
            (r = prove_once(&key.pk, NULL, NULL, pce, cw, o->profile, &compact_msm, &proof)) < 0)
                return r;
        report(msm_equal(&host_msm, &compact_msm),
               "%s: the MSMs from the compact witness equal those from the host's", name);
        if (test_key_vk(&key))
                report(groth16_verify(test_key_vk(&key), cw->inputs + 1, &proof) == 1,
                       "%s: the proof from the compact witness verifies", name);
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
        return o->prove ? prove_both(o, c1->cfg->name, pce, &cw, want) : 0;
}

static int parse(int argc, char **argv, struct options *o) {
        static const struct option long_options[] = {
                {"pce-dir", required_argument, NULL, 'd'},
                {"partition", required_argument, NULL, 'k'},
                {"runs", required_argument, NULL, 'n'},
                {"prove", no_argument, NULL, 'p'},
                {"timing-only", no_argument, NULL, 't'},
                {"params", required_argument, NULL, 'P'},
                {"profile", no_argument, NULL, 'f'},
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
                case 'p':
                        o->prove = true;
                        break;
                case 't':
                        o->timing_only = o->prove = true;
                        break;
                case 'P':
                        o->params = optarg;
                        o->prove = true;
                        break;
                case 'f':
                        o->profile = o->prove = true;
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
                      "[--prove] [--timing-only | --params FILE] [--profile] "
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
