/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzk porep info  (--sector-size SIZE | --registered-proof NAME)
 * cuzk porep setup (--sector-size SIZE | --registered-proof NAME) --params-dir DIR [--seed HEX]
 *
 * The StackedDRG circuit's figures, as the reference's circuitinfo prints
 * them and more, and a Groth16 key pair of our own for it, written where
 * and as the network's parameter files are.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "circuits/pce-file.h"
#include "circuits/porep/params-size.h"
#include "circuits/porep/porep-pce.h"
#include "cli-porep-circuit.h"
#include "cli-porep.h"
#include "cli.h"
#include "common/cleanup.h"
#include "common/parse-number.h"

static const char info_usage[] =
        "Usage: cuzk porep info (--sector-size SIZE | --registered-proof NAME) [--pce-dir DIR]\n"
        "\n"
        "Records the PoRep circuit of one partition and prints its figures: the\n"
        "constraints and public inputs (as rust-fil-proofs' circuitinfo counts them),\n"
        "the rows with bellperson's input rows, the aux variables, the domain, the\n"
        "non-zero entries of A, B and C and the A and B densities. SIZE is 2KiB,\n"
        "8MiB, 512MiB, 32GiB or 64GiB (the V1_1 proof). With --pce-dir the circuit\n"
        "comes from (or goes into) the PCE cache there. See cuzk-porep(1).\n";

static const char setup_usage[] =
        "Usage: cuzk porep setup (--sector-size SIZE | --registered-proof NAME)\n"
        "                        --params-dir DIR [--seed HEX]\n"
        "\n"
        "Generates a Groth16 key pair of OUR OWN for the PoRep circuit (for tests:\n"
        "not the network's parameters) and writes it in bellperson's layout under\n"
        "the network's file names, DIR/v28-stacked-proof-of-replication-...{.params,\n"
        ".vk}, with the circuit's PCE cached beside them. See cuzk-porep(1).\n";

int cli_porep_select(const char *command, const char *sector_size, const char *registered_proof,
                     const struct porep_config **ret) {
        static const struct {
                const char *name;
                uint64_t bytes;
        } sizes[] = {
                {"2KiB", 2048},         {"8MiB", 8ull << 20},   {"512MiB", 512ull << 20},
                {"32GiB", 32ull << 30}, {"64GiB", 64ull << 30},
        };

        if (!!sector_size == !!registered_proof) {
                fprintf(stderr,
                        "cuzk porep %s: expected one of --sector-size and --registered-proof\n",
                        command);
                return -EINVAL;
        }
        if (registered_proof)
                return cli_porep_config(command, registered_proof, ret);
        uint64_t bytes = 0;

        if (parse_unsigned_range(sector_size, 1, UINT64_MAX, 10, &bytes) < 0)
                bytes = 0;
        for (size_t i = 0; i < ELEMENTSOF(sizes); i++)
                if (!strcmp(sector_size, sizes[i].name) || bytes == sizes[i].bytes) {
                        *ret = porep_config_by_sector_bytes(sizes[i].bytes);
                        return 0;
                }
        fprintf(stderr,
                "cuzk porep %s: --sector-size %s: expected 2KiB, 8MiB, 512MiB, 32GiB or 64GiB\n",
                command, sector_size);
        return -EINVAL;
}

static void print_info(const struct porep_config *cfg, const struct pce *pce, double seconds) {
        struct groth16_circuit_counts c;

        groth16_circuit_counts_of_pce(pce, &c);
        printf("registered_proof: %s\n", cfg->name);
        printf("constraints: %" PRIu32 "\n", pce_n_constraints(pce));
        printf("public_inputs: %" PRIu64 "\n", c.inputs);
        printf("rows: %" PRIu32 "\n", pce->n_rows);
        printf("aux: %" PRIu64 "\n", c.aux);
        printf("domain: %" PRIu64 " (2^%u)\n", UINT64_C(1) << c.log_domain, c.log_domain);
        printf("nnz_a: %" PRIu64 "\nnnz_b: %" PRIu64 "\nnnz_c: %" PRIu64 "\n",
               pce->m[PCE_A].n_terms, pce->m[PCE_B].n_terms, pce->m[PCE_C].n_terms);
        printf("a_aux_density: %" PRIu64 "\n", c.a_aux);
        printf("b_aux_density: %" PRIu64 "\n", c.b_aux);
        printf("b_input_density: %" PRIu64 "\n", c.b_inputs);
        printf("pce_bytes: %" PRIu64 "\n", pce_file_bytes(pce));
        printf("params_bytes: %" PRIu64 "\n", groth16_circuit_params_bytes(&c));
        printf("seconds: %.1f\n", seconds);
}

static int porep_info(int argc, char **argv) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        const char *sector_size = NULL, *registered_proof = NULL, *pce_dir = NULL;
        const struct cli_option options[] = {
                {"sector-size", &sector_size, NULL, false},
                {"registered-proof", &registered_proof, NULL, false},
                {"pce-dir", &pce_dir, NULL, false},
        };
        const struct porep_config *cfg;
        double t0 = cli_now();
        int r;

        if (cli_wants_help(argc, argv, info_usage))
                return EXIT_OK;
        if (cli_parse_options(argc, argv, "porep info", options, ELEMENTSOF(options), info_usage) <
                    0 ||
            cli_porep_select("info", sector_size, registered_proof, &cfg) < 0)
                return EXIT_BAD_INPUT;
        r = pce_dir ? porep_pce_open(cfg, pce_dir, &pce, NULL) : porep_pce_build(cfg, &pce);
        if (r < 0) {
                fprintf(stderr, "cuzk porep info: %s: %s\n", cfg->name, strerror(-r));
                return cli_exit_for_error(r);
        }
        print_info(cfg, pce, cli_now() - t0);
        return EXIT_OK;
}

int cli_porep_params_paths(const struct porep_config *cfg, const char *dir,
                           char params[POREP_PCE_PATH_MAX], char vk[POREP_PCE_PATH_MAX]) {
        int r;

        if ((r = porep_params_file_path(cfg, dir, ".params", params, POREP_PCE_PATH_MAX)) < 0 ||
            (r = porep_params_file_path(cfg, dir, ".vk", vk, POREP_PCE_PATH_MAX)) < 0)
                fprintf(stderr, "cuzk porep: %s: the parameter file names are too long\n", dir);
        return r;
}

static int porep_setup(int argc, char **argv, const struct cli_options *opts) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        const char *sector_size = NULL, *registered_proof = NULL, *dir = NULL, *seed = NULL;
        const struct cli_option options[] = {
                {"sector-size", &sector_size, NULL, false},
                {"registered-proof", &registered_proof, NULL, false},
                {"params-dir", &dir, NULL, true},
                {"seed", &seed, NULL, false},
        };
        char params[POREP_PCE_PATH_MAX], vk[POREP_PCE_PATH_MAX];
        const struct porep_config *cfg;
        int r;

        if (cli_wants_help(argc, argv, setup_usage))
                return EXIT_OK;
        if (cli_parse_options(argc, argv, "porep setup", options, ELEMENTSOF(options),
                              setup_usage) < 0 ||
            cli_porep_select("setup", sector_size, registered_proof, &cfg) < 0 ||
            cli_porep_params_paths(cfg, dir, params, vk) < 0)
                return EXIT_BAD_INPUT;
        if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
                fprintf(stderr, "cuzk porep setup: %s: %s\n", dir, strerror(errno));
                return EXIT_BAD_INPUT;
        }
        r = porep_pce_open(cfg, dir, &pce, NULL);
        if (r < 0)
                return cli_exit_for_error(r);
        fprintf(stderr,
                "cuzk porep setup: %s: a key pair of our own, for tests: NOT the network's "
                "parameters (their proofs do not verify on chain)\n",
                cfg->name);
        r = cli_setup_keys(
                &(struct cli_setup_request){
                        .pce = pce,
                        .pce_name = cfg->name,
                        .seed_hex = seed,
                        .bellperson_layout = true,
                        .params_path = params,
                        .vk_path = vk,
                },
                opts->threads);
        if (r == EXIT_OK)
                printf("%s\n%s\n", params, vk);
        return r;
}

int cmd_porep_circuit(int argc, char **argv, const struct cli_options *opts) {
        if (!strcmp(argv[0], "info"))
                return porep_info(argc, argv);
        return porep_setup(argc, argv, opts);
}
