/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzk porep: Filecoin PoRep from the command line.
 *   cuzk porep seal --registered-proof NAME --out C1 [...]
 *   cuzk porep synth-c1 --registered-proof NAME --out C1 [...]
 *   cuzk porep verify-c1 C1
 *   cuzk porep parents (--registered-proof NAME | --sector-size SIZE) [--out DIR]
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli-porep-circuit.h"
#include "cli-porep.h"
#include "common/atomic-file.h"
#include "common/cleanup.h"
#include "common/hex.h"
#include "common/log.h"
#include "common/parse-number.h"
#include "filecoin/vanilla/verify.h"

static const char usage[] =
        "Usage: cuzk porep COMMAND ...\n"
        "\n"
        "  seal --registered-proof NAME --out C1.json [--envelope FILE] [--miner ID]\n"
        "       [--sector N] [--ticket HEX] [--seed HEX] [--data FILE]\n"
        "                            seal a 2 KiB, 8 MiB or 512 MiB sector, write its C1 output\n"
        "  synth-c1 --registered-proof NAME --out C1.json [--envelope FILE] [--miner ID]\n"
        "       [--sector N] [--ticket HEX] [--seed HEX] [--key HEX]\n"
        "                            a synthetic C1 (zero sector, sparse trees) of any size\n"
        "  verify-c1 C1.json         check a C1 output (bare or in Curio's envelope)\n"
        "  parents (--registered-proof NAME | --sector-size SIZE) [--out DIR]\n"
        "                            write the SDR parent cache file, print its SHA-256\n"
        "  info (--sector-size SIZE | --registered-proof NAME) [--pce-dir DIR]\n"
        "                            the circuit's constraints, inputs, rows, nnz, densities\n"
        "  setup (--sector-size SIZE | --registered-proof NAME) --params-dir DIR [--seed HEX]\n"
        "                            a Groth16 key pair of our own (tests), network file names\n"
        "  prove C1.json --params-dir DIR --out PROOF\n"
        "                            PoRep C2 on the CPU: 192 bytes a partition\n"
        "  verify C1.json PROOF --params-dir DIR\n"
        "                            check the proof with the inputs a verifier derives\n"
        "  snarkjs C1.json PROOF --params-dir DIR --out-dir OUT\n"
        "                            vk.json, public-K.json, proof-K.json for snarkjs\n"
        "\n"
        "See cuzk-porep(1).\n";

int cli_porep_config(const char *command, const char *value, const struct porep_config **ret) {
        uint64_t id;

        *ret = porep_config_by_name(value);
        if (!*ret && parse_unsigned_range(value, 0, POREP_N_REGISTERED - 1, 10, &id) == 0)
                *ret = porep_config_by_id((unsigned)id);
        if (*ret)
                return 0;
        fprintf(stderr,
                "cuzk porep %s: --registered-proof %s: expected a RegisteredSealProof name "
                "(e.g. StackedDrg2KiBV1_1) or number 0-19\n",
                command, value);
        return -EINVAL;
}

int cli_porep_hex32(const char *command, const char *option, const char *value, uint8_t out[32]) {
        if (!value)
                return 0;
        if (strlen(hex_skip_prefix(value)) != 64 ||
            hex_decode(hex_skip_prefix(value), 32, out, NULL) < 0) {
                fprintf(stderr, "cuzk porep %s: --%s %s: expected 64 hex digits\n", command, option,
                        value);
                return -EINVAL;
        }
        return 0;
}

int cli_porep_save_c1(const struct c1_output *c1, uint64_t sector_id, const char *path,
                      const char *envelope_path) {
        _cleanup_free_ char *text = NULL, *envelope = NULL;
        size_t n = 0, m = 0;
        int r = c1_write_buffer(c1, &text, &n);

        if (r < 0)
                return log_error_errno(r, "%s: %m", path);
        r = atomic_file_write(path, text, n, 0644);
        if (r < 0)
                return log_error_errno(r, "%s: %m", path);
        if (!envelope_path)
                return 0;
        r = c1_envelope_write_buffer(sector_id, text, n, c1->cfg->sector_bytes, &envelope, &m);
        if (r == 0)
                r = atomic_file_write(envelope_path, envelope, m, 0644);
        return r < 0 ? log_error_errno(r, "%s: %m", envelope_path) : 0;
}

static int porep_verify_c1(int argc, char **argv) {
        static const char verify_usage[] = "Usage: cuzk porep verify-c1 C1.json\n";
        _cleanup_(c1_output_freep) struct c1_output *c1 = NULL;
        int r;

        if (!cli_arguments_ok(argc, argv, 1, "porep verify-c1", verify_usage, &r))
                return r;
        r = c1_load_file(argv[1], &c1);
        if (r < 0)
                return cli_exit_for_error(r);
        r = vanilla_verify(c1, argv[1]);
        if (r == -EBADMSG) {
                puts("INVALID");
                return EXIT_INVALID_PROOF;
        }
        if (r < 0)
                return cli_exit_for_error(r);
        printf("OK%s\n", c1->synthetic_c1 ? " (synthetic C1: not a sealed sector)" : "");
        return EXIT_OK;
}

int cmd_porep(int argc, char **argv, const struct cli_options *opts) {
        if (argc >= 2 && !strcmp(argv[1], "seal"))
                return cmd_porep_seal(argc - 1, argv + 1, opts);
        if (argc >= 2 && !strcmp(argv[1], "synth-c1"))
                return cmd_porep_synth_c1(argc - 1, argv + 1, opts);
        if (argc >= 2 && !strcmp(argv[1], "verify-c1"))
                return porep_verify_c1(argc - 1, argv + 1);
        if (argc >= 2 && (!strcmp(argv[1], "info") || !strcmp(argv[1], "setup")))
                return cmd_porep_circuit(argc - 1, argv + 1, opts);
        if (argc >= 2 && (!strcmp(argv[1], "prove") || !strcmp(argv[1], "verify") ||
                          !strcmp(argv[1], "snarkjs")))
                return cmd_porep_proof(argc - 1, argv + 1, opts);
        if (argc >= 2 && !strcmp(argv[1], "parents"))
                return cmd_porep_parents(argc - 1, argv + 1, opts);
        if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
                fputs(usage, stdout);
                return EXIT_OK;
        }
        if (argc >= 2)
                fprintf(stderr,
                        "cuzk porep: unknown command '%s'; expected seal, synth-c1, verify-c1, "
                        "parents, info, setup, prove, verify or snarkjs\n",
                        argv[1]);
        fputs(usage, stderr);
        return EXIT_BAD_INPUT;
}
