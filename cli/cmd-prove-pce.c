/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzk prove --pce FILE.pce --params FILE.params --witness W.wtns --proof OUT
 *            [--format filecoin|snarkjs] [--public OUT.json]
 */
#include <errno.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/pce-file.h"
#include "circuits/pce-setup.h"
#include "cli.h"
#include "common/cleanup.h"
#include "formats/bellperson_params.h"
#include "formats/filecoin_proof.h"
#include "formats/snarkjs-json.h"
#include "formats/wtns.h"
#include "zk/groth16_memory.h"
#include "zk/groth16_partition.h"

static const char usage[] =
        "Usage: cuzk prove --pce FILE.pce --params FILE.params --witness W.wtns\n"
        "                  --proof OUT [--format filecoin|snarkjs] [--public OUT.json]\n"
        "\n"
        "Proves the witness W.wtns of the constraint system FILE.pce with the\n"
        "bellperson parameters FILE.params (from `cuzk setup`), as one partition:\n"
        "a, b, c by sparse matrix-vector products, H by NTTs, then the MSMs.\n"
        "Writes a 192-byte Filecoin proof (default) or snarkjs proof.json, and\n"
        "with --public the public inputs as public.json. With -v: stage times and\n"
        "the partition's memory, predicted (groth16_partition_bytes) and measured.\n";

enum proof_format {
        PROOF_FILECOIN,
        PROOF_SNARKJS,
};

struct prove_args {
        const char *pce_path, *params_path, *witness_path, *proof_path, *public_path;
        enum proof_format format;
};

static int parse_args(int argc, char **argv, struct prove_args *ret) {
        const char *format = NULL;
        struct prove_args a = {.format = PROOF_FILECOIN};
        const struct cli_option options[] = {
                {"pce", &a.pce_path, NULL, true},         {"params", &a.params_path, NULL, true},
                {"witness", &a.witness_path, NULL, true}, {"proof", &a.proof_path, NULL, true},
                {"format", &format, NULL, false},         {"public", &a.public_path, NULL, false},
        };
        int r;

        r = cli_parse_options(argc, argv, "prove", options, ELEMENTSOF(options), usage);
        if (r < 0)
                return r;
        if (format && !strcmp(format, "snarkjs"))
                a.format = PROOF_SNARKJS;
        else if (format && strcmp(format, "filecoin")) {
                fprintf(stderr, "cuzk prove: --format %s: expected filecoin or snarkjs\n", format);
                return -EINVAL;
        }
        *ret = a;
        return 0;
}

bool cli_prove_wants_pce(int argc, char **argv) {
        for (int i = 1; i < argc; i++)
                if (!strcmp(argv[i], "--pce") || !strncmp(argv[i], "--pce=", 6))
                        return true;
        return false;
}

/* The key must be for this constraint system. */
static int check_sizes(const struct prove_args *args, const struct pce *pce,
                       const struct groth16_pk *pk, uint32_t n_values) {
        if (pk->n_vars != pce->n_cols || pk->n_public != pce->n_public ||
            pce->n_rows > (UINT64_C(1) << pk->log_domain_size)) {
                fprintf(stderr,
                        "%s: %zu wires, %zu public inputs, domain 2^%u; %s has %" PRIu32
                        " wires, %" PRIu32 " public inputs, %" PRIu32 " rows: not its key\n",
                        args->params_path, pk->n_vars, pk->n_public, pk->log_domain_size,
                        args->pce_path, pce->n_cols, pce->n_public, pce->n_rows);
                return -EINVAL;
        }
        if (n_values != pk->n_vars) {
                fprintf(stderr, "%s: the witness has %" PRIu32 " values, %s expects %zu\n",
                        args->witness_path, n_values, args->pce_path, pk->n_vars);
                return -EINVAL;
        }
        return 0;
}

struct pce_evaluator {
        const struct pce *pce;
        double seconds;
};

static int evaluate_pce(void *userdata, const fr_t *w, size_t n_vars, unsigned log_domain_size,
                        fr_t *a, fr_t *b, fr_t *c) {
        struct pce_evaluator *e = userdata;
        double t0 = cli_now();
        int r = pce_evaluate(e->pce, w, n_vars, log_domain_size, a, b, c);

        e->seconds = cli_now() - t0;
        return r;
}

static int write_filecoin_proof(const char *path, const struct groth16_proof *proof) {
        uint8_t bytes[FILECOIN_PROOF_BYTES];
        FILE *f;
        bool ok;

        filecoin_proof_encode(bytes, proof);
        f = fopen(path, "we");
        if (!f) {
                fprintf(stderr, "%s: cannot create the proof file: %m\n", path);
                return -EIO;
        }
        ok = fwrite(bytes, 1, sizeof(bytes), f) == sizeof(bytes);
        /* fclose() reports the write errors that buffering delayed. */
        if (fclose(f) != 0 || !ok) {
                fprintf(stderr, "%s: cannot write the proof: %m\n", path);
                return -EIO;
        }
        return 0;
}

static int write_outputs(const struct prove_args *args, const struct groth16_proof *proof,
                         const fr_t *w, size_t n_public) {
        int r;

        r = args->format == PROOF_FILECOIN ? write_filecoin_proof(args->proof_path, proof)
                                           : snarkjs_proof_save(args->proof_path, proof);
        if (r < 0)
                return r;
        if (args->public_path)
                return snarkjs_public_save(args->public_path, w + 1, n_public);
        return 0;
}

/* The circuit's A and B densities where the file is in bellperson's
 * layout (pce_params_densities), with the message for a foreign key. */
static int key_densities(const struct prove_args *args, const struct pce *pce,
                         const struct bellperson_params *params, struct wire_density **ret_a,
                         struct wire_density **ret_b) {
        int r = pce_params_densities(pce, params, ret_a, ret_b);

        if (r == -EINVAL)
                fprintf(stderr, "%s: %" PRIu64 " wires; %s has %" PRIu32 " wires: not its key\n",
                        args->params_path, bellperson_params_wires(params), args->pce_path,
                        pce->n_cols);
        return r;
}

/* Predicted and measured partition bytes (measured 0 where the kernel
 * cannot reset the peak). */
struct partition_memory {
        size_t predicted, baseline, measured;
        bool measurable;
};

static void print_stages(const struct pce_evaluator *evaluator, double t_prove,
                         const struct partition_memory *mem) {
        fprintf(stderr, "cuzk prove: evaluation (SpMV) %.3f s, whole proof %.3f s\n",
                evaluator->seconds, t_prove);
        if (mem->measurable)
                fprintf(stderr,
                        "cuzk prove: partition memory: predicted %zu bytes, measured "
                        "%zu bytes (%+.1f%%)\n",
                        mem->predicted, mem->measured,
                        100.0 * ((double)mem->predicted - (double)mem->measured) /
                                (double)mem->measured);
        else
                fprintf(stderr,
                        "cuzk prove: partition memory: predicted %zu bytes (the peak "
                        "cannot be measured here)\n",
                        mem->predicted);
}

int cmd_prove_pce(int argc, char **argv, const struct cli_options *opts) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_(bellperson_params_freep) struct bellperson_params *params = NULL;
        _cleanup_(wtns_freep) struct wtns *w = NULL;
        _cleanup_(wire_density_freep) struct wire_density *a_density = NULL, *b_density = NULL;
        struct pce_evaluator evaluator = {0};
        struct groth16_partition_shape shape;
        struct partition_memory mem = {0};
        struct groth16_proof proof;
        struct groth16_pk pk;
        struct prove_args args;
        double t0 = cli_now(), t_prove;
        int r;

        if (cli_wants_help(argc, argv, usage))
                return EXIT_OK;
        if (parse_args(argc, argv, &args) < 0)
                return EXIT_BAD_INPUT;
        /* Large buffers straight from and back to the kernel (no growing
         * mmap threshold), so that RSS follows what the prover holds. */
        mallopt(M_MMAP_THRESHOLD, 128 * 1024);

        r = pce_load(args.pce_path, &pce);
        if (r < 0)
                return cli_exit_for_error(r);
        /* Points from our own setup: the subgroup checks would double the load time. */
        r = bellperson_params_load(args.params_path, false, &params);
        if (r < 0)
                return cli_exit_for_error(r);
        r = key_densities(&args, pce, params, &a_density, &b_density);
        if (r < 0)
                return cli_exit_for_error(r);
        r = bellperson_params_to_pk(params, a_density, b_density, &pk);
        if (r < 0)
                return cli_exit_for_error(r);
        r = wtns_load(args.witness_path, &w);
        if (r < 0)
                return cli_exit_for_error(r);
        if (check_sizes(&args, pce, &pk, w->n_values) < 0)
                return EXIT_BAD_INPUT;
        if (params->timing_only)
                fprintf(stderr, "cuzk prove: %s is a timing-only SRS: the proof will not verify\n",
                        args.params_path);
        if (opts->verbose)
                fprintf(stderr,
                        "cuzk prove: loaded %s (%" PRIu32 " rows, %" PRIu64
                        " bytes in memory), %s, %s in %.3f s\n",
                        args.pce_path, pce->n_rows, pce_memory_bytes(pce), args.params_path,
                        args.witness_path, cli_now() - t0);

        groth16_partition_shape_from_witness(&shape, &pk, w->values, opts->threads);
        mem.predicted = groth16_partition_bytes(&shape);
        malloc_trim(0);
        mem.measurable = process_peak_rss_reset(&mem.baseline) == 0;

        evaluator.pce = pce;
        t0 = cli_now();
        r = groth16_prove_partition(&pk, evaluate_pce, &evaluator, w->values, &proof,
                                    opts->threads);
        t_prove = cli_now() - t0;
        if (r < 0) {
                fprintf(stderr, "cuzk prove: proving failed: %s\n", strerror(-r));
                return r == -EINVAL ? EXIT_BAD_INPUT : EXIT_INTERNAL;
        }
        if (mem.measurable && process_peak_rss_bytes(&mem.measured) == 0)
                /* The witness was resident before the reset; it is part of the partition. */
                mem.measured = mem.measured - mem.baseline + shape.n_vars * sizeof(fr_t);
        else
                mem.measurable = false;

        if (opts->verbose)
                print_stages(&evaluator, t_prove, &mem);
        r = write_outputs(&args, &proof, w->values, pk.n_public);
        return r < 0 ? EXIT_INTERNAL : EXIT_OK;
}
