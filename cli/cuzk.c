/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzk: offline Groth16 proving and verification on BLS12-381.
 *   cuzk prove ZKEY WTNS PROOF_JSON PUBLIC_JSON
 *   cuzk verify VK_JSON PUBLIC_JSON PROOF_JSON
 *   cuzk info FILE
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>

#include "cli-porep.h"
#include "cli.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/parse-number.h"
#include "zk/parallel.h"

static const char usage[] =
        "Usage: cuzk [OPTIONS] COMMAND ARGS...\n"
        "\n"
        "Groth16 proofs on BLS12-381, interoperable with snarkjs.\n"
        "\n"
        "Commands:\n"
        "  prove ZKEY WTNS PROOF_JSON PUBLIC_JSON   prove a witness with a snarkjs proving key\n"
        "  verify VK_JSON PUBLIC_JSON PROOF_JSON    verify a proof\n"
        "  info FILE                                describe a snarkjs, bellperson, PCE or\n"
        "                                           proof file\n"
        "  setup --pce FILE --params OUT --vk OUT   make a bellperson key for a PCE\n"
        "  setup --r1cs FILE --zkey OUT [--vk OUT]  make a snarkjs key (tests, benchmarks)\n"
        "  pce from-r1cs|synth|info ...             precompiled constraints (PCE files)\n"
        "  porep seal|synth-c1|verify-c1|parents|info|setup|prove|verify|snarkjs ...\n"
        "                                           Filecoin PoRep: sectors, C1, the C2 proof\n"
        "\n"
        "Options:\n"
        "  -t, --threads=N   threads for the MSMs and NTTs (default: all CPUs)\n"
        "  -v, --verbose     progress and timings on stderr\n"
        "  -h, --help        this help; `cuzk COMMAND --help` for a command\n"
        "      --version     the version\n"
        "\n"
        "Exit status: 0 success, 1 invalid proof, 2 bad input, 3 internal error.\n"
        "See cuzk(1).\n";

double cli_now(void) {
        return clock_now_seconds();
}

bool cli_wants_help(int argc, char **argv, const char *text) {
        for (int i = 1; i < argc; i++)
                if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
                        fputs(text, stdout);
                        return true;
                }
        return false;
}

int cli_exit_for_error(int r) {
        r = abs(r);
        return r == ENOMEM || r == EIO || r == ENOSPC ? EXIT_INTERNAL : EXIT_BAD_INPUT;
}

static int parse_threads(const char *s, unsigned *ret) {
        uint64_t v;

        if (parse_unsigned_range(s, 0, 4096, 10, &v) < 0) {
                fprintf(stderr, "cuzk: --threads=%s: expected a number from 0 to 4096\n", s);
                return -EINVAL;
        }
        *ret = (unsigned)v;
        return 0;
}

int main(int argc, char **argv) {
        static const struct option options[] = {
                {"threads", required_argument, NULL, 't'},
                {"verbose", no_argument, NULL, 'v'},
                {"help", no_argument, NULL, 'h'},
                {"version", no_argument, NULL, 'V'},
                {0, 0, 0, 0},
        };
        struct cli_options opts = {0};
        const char *command;
        int c;

        /* '+': stop at the command name, whose own options follow it */
        while ((c = getopt_long(argc, argv, "+t:vh", options, NULL)) >= 0) {
                switch (c) {
                case 't':
                        if (parse_threads(optarg, &opts.threads) < 0)
                                return EXIT_BAD_INPUT;
                        break;
                case 'v':
                        opts.verbose = true;
                        break;
                case 'h':
                        fputs(usage, stdout);
                        return EXIT_OK;
                case 'V':
                        printf("cuzk %s\n", CUZK_VERSION);
                        return EXIT_OK;
                default:
                        fputs("Try 'cuzk --help'.\n", stderr);
                        return EXIT_BAD_INPUT;
                }
        }
        if (optind >= argc) {
                fputs(usage, stderr);
                return EXIT_BAD_INPUT;
        }
        log_set_max_level(opts.verbose ? LOG_DEBUG : LOG_WARNING);
        if (opts.threads)
                zk_set_thread_count(opts.threads);

        command = argv[optind];
        argc -= optind;
        argv += optind;
        if (!strcmp(command, "prove"))
                return cmd_prove(argc, argv, &opts);
        if (!strcmp(command, "verify"))
                return cmd_verify(argc, argv, &opts);
        if (!strcmp(command, "info"))
                return cmd_info(argc, argv, &opts);
        if (!strcmp(command, "setup"))
                return cmd_setup(argc, argv, &opts);
        if (!strcmp(command, "pce"))
                return cmd_pce(argc, argv, &opts);
        if (!strcmp(command, "porep"))
                return cmd_porep(argc, argv, &opts);
        fprintf(stderr,
                "cuzk: unknown command '%s'; expected prove, verify, info, setup, pce or porep\n",
                command);
        return EXIT_BAD_INPUT;
}
