/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzk porep prove   C1 --params-dir DIR --out PROOF
 * cuzk porep verify  C1 PROOF --params-dir DIR
 * cuzk porep snarkjs C1 PROOF --params-dir DIR --out-dir OUT
 *
 * PoRep C2 on the CPU: each partition's witness from the C1 output, its
 * a, b, c from the cached PCE, the Groth16 proof with the parameters of
 * `cuzk porep setup` (or the network's, same layout and names); the
 * verification with the public inputs the verifier derives (never taken
 * from the prover); the same key, inputs and proofs in snarkjs's JSON for
 * an independent verifier.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "circuits/cs/cs.h"
#include "circuits/pce-setup.h"
#include "circuits/porep/porep-pce.h"
#include "circuits/porep/public-inputs.h"
#include "circuits/porep/stacked.h"
#include "cli-porep-circuit.h"
#include "cli-porep.h"
#include "cli.h"
#include "common/atomic-file.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "formats/bellperson_io.h"
#include "formats/bellperson_params.h"
#include "formats/bellperson_vk.h"
#include "formats/filecoin_proof.h"
#include "formats/snarkjs-json.h"
#include "zk/groth16_partition.h"

static const char prove_usage[] =
        "Usage: cuzk porep prove C1.json --params-dir DIR --out PROOF\n"
        "\n"
        "Proves every partition of the C1 output (bare or in Curio's envelope) on\n"
        "the CPU with DIR's parameter files and writes the 192-byte proofs,\n"
        "concatenated, to PROOF. See cuzk-porep(1).\n";
static const char verify_usage[] =
        "Usage: cuzk porep verify C1.json PROOF --params-dir DIR\n"
        "\n"
        "Verifies PROOF (192 bytes a partition) with DIR's verifying key and the\n"
        "public inputs derived from the C1's replica_id, comm_d, comm_r and seed.\n"
        "Prints OK (exit 0) or INVALID (exit 1). See cuzk-porep(1).\n";
static const char snarkjs_usage[] =
        "Usage: cuzk porep snarkjs C1.json PROOF --params-dir DIR --out-dir OUT\n"
        "\n"
        "Writes OUT/vk.json and, for each partition K, OUT/public-K.json and\n"
        "OUT/proof-K.json in snarkjs's format, for `snarkjs groth16 verify`.\n";

/* argv[0] is the subcommand, then n_files positional files, then options. */
static int parse_positional(int argc, char **argv, int n_files, const char *command,
                            const char *usage, const struct cli_option *options, size_t n_options) {
        if (argc < 1 + n_files || argv[1][0] == '-' || (n_files > 1 && argv[2][0] == '-')) {
                fprintf(stderr, "cuzk porep %s: expected %d file%s first\n%s", command, n_files,
                        n_files > 1 ? "s" : "", usage);
                return -EINVAL;
        }
        /* getopt reads from argv[1]: the last file stands in for the command name. */
        return cli_parse_options(argc - n_files, argv + n_files, command, options, n_options,
                                 usage);
}

/* The proving key of cfg in dir, with the densities of pce. */
struct porep_key {
        struct bellperson_params *params;
        struct wire_density *a_density, *b_density;
        struct groth16_pk pk;
};

static void porep_key_free(struct porep_key *k) {
        bellperson_params_free(k->params);
        wire_density_free(k->a_density);
        wire_density_free(k->b_density);
}

static int load_key(const char *params_path, const struct pce *pce, struct porep_key *ret) {
        int r;

        if ((r = bellperson_params_load(params_path, false, &ret->params)) < 0)
                return r;
        if (ret->params->timing_only)
                return log_error_errno(-EINVAL, "%s: a timing-only key: no proof would verify",
                                       params_path);
        r = pce_params_densities(pce, ret->params, &ret->a_density, &ret->b_density);
        if (r == -EINVAL)
                return log_error_errno(r, "%s: not a key for this circuit (%" PRIu32 " wires)",
                                       params_path, pce->n_cols);
        if (r < 0)
                return r;
        return bellperson_params_to_pk(ret->params, ret->a_density, ret->b_density, &ret->pk);
}

static int evaluate_pce(void *userdata, const fr_t *w, size_t n_vars, unsigned log_domain_size,
                        fr_t *a, fr_t *b, fr_t *c) {
        return pce_evaluate(userdata, w, n_vars, log_domain_size, a, b, c);
}

/* Partition k's proof: witness, then a, b, c and the MSMs. */
static int prove_partition(const struct c1_output *c1, unsigned k, const struct pce *pce,
                           const struct groth16_pk *pk, unsigned threads,
                           struct groth16_proof *ret) {
        _cleanup_(cs_freep) struct cs *cs = NULL;
        _cleanup_free_ fr_t *w = NULL;
        double t0 = cli_now(), t1;
        size_t n = 0;
        int r;

        if ((r = porep_circuit_witness(c1, k, &cs)) < 0 || (r = cs_witness_full(cs, &w, &n)) < 0)
                return r;
        if (n != pce->n_cols)
                return log_error_errno(-EINVAL,
                                       "partition %u: %zu witness values, the circuit "
                                       "has %" PRIu32,
                                       k, n, pce->n_cols);
        t1 = cli_now();
        r = groth16_prove_partition(pk, evaluate_pce, (void *)pce, w, ret, threads);
        if (r == 0)
                fprintf(stderr, "cuzk porep prove: partition %u: witness %.2f s, proof %.2f s\n", k,
                        t1 - t0, cli_now() - t1);
        return r;
}

static int write_proofs(const char *path, const struct groth16_proof *proofs, size_t n) {
        size_t bytes = n * FILECOIN_PROOF_BYTES;
        _cleanup_free_ uint8_t *out = malloc(bytes);
        int r;

        if (!out)
                return -ENOMEM;
        filecoin_proofs_encode(out, bytes, proofs, n);
        r = atomic_file_write(path, out, bytes, 0644);
        return r < 0 ? log_error_errno(r, "%s: cannot write the proof: %m", path) : 0;
}

static int porep_prove(int argc, char **argv, const struct cli_options *opts) {
        _cleanup_(c1_output_freep) struct c1_output *c1 = NULL;
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_(porep_key_free) struct porep_key key = {0};
        _cleanup_free_ struct groth16_proof *proofs = NULL;
        const char *dir = NULL, *out = NULL;
        const struct cli_option options[] = {
                {"params-dir", &dir, NULL, true},
                {"out", &out, NULL, true},
        };
        char params[POREP_PCE_PATH_MAX], vk[POREP_PCE_PATH_MAX];
        int r;

        if (cli_wants_help(argc, argv, prove_usage))
                return EXIT_OK;
        if (parse_positional(argc, argv, 1, "prove", prove_usage, options, ELEMENTSOF(options)) < 0)
                return EXIT_BAD_INPUT;
        if ((r = c1_load_file(argv[1], &c1)) < 0)
                return cli_exit_for_error(r);
        if (c1->synthetic_c1)
                fprintf(stderr,
                        "cuzk porep prove: %s is a synthetic C1, not a sealed sector: "
                        "its proof proves nothing about any sector\n",
                        argv[1]);
        if (cli_porep_params_paths(c1->cfg, dir, params, vk) < 0)
                return EXIT_BAD_INPUT;
        if ((r = porep_pce_open(c1->cfg, dir, &pce, NULL)) < 0 ||
            (r = load_key(params, pce, &key)) < 0)
                return cli_exit_for_error(r);
        proofs = calloc(c1->n_partitions, sizeof(*proofs));
        if (!proofs)
                return EXIT_INTERNAL;
        for (unsigned k = 0; k < c1->n_partitions; k++)
                if ((r = prove_partition(c1, k, pce, &key.pk, opts->threads, &proofs[k])) < 0) {
                        fprintf(stderr, "cuzk porep prove: partition %u: %s\n", k, strerror(-r));
                        return cli_exit_for_error(r);
                }
        if ((r = write_proofs(out, proofs, c1->n_partitions)) < 0)
                return cli_exit_for_error(r);
        return EXIT_OK;
}

/* The C1, the verifying key and the proofs, one per partition. */
struct porep_claim {
        struct c1_output *c1;
        struct bellperson_vk *vk;
        struct groth16_proof *proofs;
        size_t n_proofs;
        fr_t *inputs; /* n_partitions rows of porep_public_input_count() */
        size_t n_inputs;
};

static void porep_claim_free(struct porep_claim *c) {
        c1_output_free(c->c1);
        bellperson_vk_free(c->vk);
        free(c->proofs);
        free(c->inputs);
}

static int load_claim(const char *c1_path, const char *proof_path, const char *dir,
                      struct porep_claim *ret) {
        char params[POREP_PCE_PATH_MAX], vk[POREP_PCE_PATH_MAX];
        struct bellperson_map map;
        int r;

        if ((r = c1_load_file(c1_path, &ret->c1)) < 0 ||
            (r = cli_porep_params_paths(ret->c1->cfg, dir, params, vk)) < 0 ||
            (r = bellperson_vk_load(vk, &ret->vk)) < 0 ||
            (r = bellperson_map_file(proof_path, &map)) < 0)
                return r;
        r = filecoin_proofs_decode(map.data, map.size, proof_path, &ret->proofs, &ret->n_proofs);
        bellperson_unmap_file(&map);
        if (r < 0)
                return r;
        if (ret->n_proofs != ret->c1->n_partitions)
                return log_error_errno(-EINVAL, "%s: %zu proofs, %s has %u partitions", proof_path,
                                       ret->n_proofs, c1_path, ret->c1->n_partitions);
        ret->n_inputs = porep_public_input_count(ret->c1->cfg);
        if (ret->vk->vk.n_public != ret->n_inputs)
                return log_error_errno(-EINVAL, "%s: %zu public inputs, the circuit has %zu", vk,
                                       (size_t)ret->vk->vk.n_public, ret->n_inputs);
        ret->inputs = calloc(ret->n_proofs * ret->n_inputs, sizeof(fr_t));
        if (!ret->inputs)
                return -ENOMEM;
        for (unsigned k = 0; k < ret->c1->n_partitions; k++) {
                const struct c1_output *c1 = ret->c1;
                r = porep_public_inputs(c1->cfg, c1->replica_id, c1->comm_d, c1->comm_r, c1->seed,
                                        k, ret->inputs + k * ret->n_inputs);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int porep_verify(int argc, char **argv) {
        _cleanup_(porep_claim_free) struct porep_claim claim = {0};
        const char *dir = NULL;
        const struct cli_option options[] = {{"params-dir", &dir, NULL, true}};
        int r;

        if (cli_wants_help(argc, argv, verify_usage))
                return EXIT_OK;
        if (parse_positional(argc, argv, 2, "verify", verify_usage, options, ELEMENTSOF(options)) <
            0)
                return EXIT_BAD_INPUT;
        if ((r = load_claim(argv[1], argv[2], dir, &claim)) < 0)
                return cli_exit_for_error(r);
        for (size_t k = 0; k < claim.n_proofs; k++) {
                r = groth16_verify(&claim.vk->vk, claim.inputs + k * claim.n_inputs,
                                   &claim.proofs[k]);
                if (r < 0)
                        return cli_exit_for_error(r);
                if (r == 0) {
                        printf("INVALID (partition %zu)\n", k);
                        return EXIT_INVALID_PROOF;
                }
        }
        printf("OK\n");
        return EXIT_OK;
}

static int porep_snarkjs(int argc, char **argv) {
        _cleanup_(porep_claim_free) struct porep_claim claim = {0};
        const char *dir = NULL, *out = NULL;
        const struct cli_option options[] = {
                {"params-dir", &dir, NULL, true},
                {"out-dir", &out, NULL, true},
        };
        char path[POREP_PCE_PATH_MAX];
        int r;

        if (cli_wants_help(argc, argv, snarkjs_usage))
                return EXIT_OK;
        if (parse_positional(argc, argv, 2, "snarkjs", snarkjs_usage, options,
                             ELEMENTSOF(options)) < 0)
                return EXIT_BAD_INPUT;
        if ((r = load_claim(argv[1], argv[2], dir, &claim)) < 0)
                return cli_exit_for_error(r);
        if (mkdir(out, 0755) < 0 && errno != EEXIST)
                return cli_exit_for_error(log_error_errno(-errno, "%s: %m", out));
        snprintf(path, sizeof(path), "%s/vk.json", out);
        if ((r = snarkjs_vk_save(path, &claim.vk->vk)) < 0)
                return cli_exit_for_error(r);
        for (size_t k = 0; k < claim.n_proofs; k++) {
                snprintf(path, sizeof(path), "%s/public-%zu.json", out, k);
                if ((r = snarkjs_public_save(path, claim.inputs + k * claim.n_inputs,
                                             claim.n_inputs)) < 0)
                        return cli_exit_for_error(r);
                snprintf(path, sizeof(path), "%s/proof-%zu.json", out, k);
                if ((r = snarkjs_proof_save(path, &claim.proofs[k])) < 0)
                        return cli_exit_for_error(r);
        }
        return EXIT_OK;
}

int cmd_porep_proof(int argc, char **argv, const struct cli_options *opts) {
        if (!strcmp(argv[0], "prove"))
                return porep_prove(argc, argv, opts);
        if (!strcmp(argv[0], "verify"))
                return porep_verify(argc, argv);
        return porep_snarkjs(argc, argv);
}
