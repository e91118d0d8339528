/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzk pce from-r1cs R1CS OUT.pce
 * cuzk pce synth --rows N --seed S [--aux N] [--public N] OUT.pce OUT.wtns
 * cuzk pce info FILE
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/pce-file.h"
#include "circuits/synthetic.h"
#include "cli.h"
#include "common/cleanup.h"
#include "common/parse-number.h"
#include "formats/r1cs.h"
#include "formats/wtns-save.h"

static const char usage[] =
        "Usage: cuzk pce COMMAND ARGS...\n"
        "\n"
        "Precompiled constraints (PCE): a circuit's matrices A, B, C in the form the\n"
        "prover evaluates them, as files `cuzk setup` and `cuzk prove --pce` take.\n"
        "\n"
        "Commands:\n"
        "  from-r1cs R1CS OUT.pce                 the PCE of a circom .r1cs\n"
        "  synth --rows N --seed S [--aux N] [--public N] OUT.pce OUT.wtns\n"
        "                                         a PoRep-shaped circuit and its witness\n"
        "  info FILE                              check a PCE file and print its counts\n"
        "\n"
        "`cuzk pce COMMAND --help` for a command.\n";

static const char usage_from_r1cs[] =
        "Usage: cuzk pce from-r1cs R1CS OUT.pce\n"
        "\n"
        "Writes the PCE of the circom constraint system R1CS (BLS12-381). The PCE\n"
        "ends with one input row per public signal and the constant wire (A = w[s],\n"
        "as snarkjs's setup and bellperson's prover add them), so that it evaluates\n"
        "to the same a, b, c as the snarkjs .zkey of the circuit.\n";

static const char usage_synth[] =
        "Usage: cuzk pce synth --rows N --seed S [--aux N] [--public N] OUT.pce OUT.wtns\n"
        "\n"
        "Generates a satisfiable circuit shaped like a Filecoin PoRep partition\n"
        "(terms per row, 0/1 witness values, A and B densities) and its witness, the\n"
        "same for the same arguments on any machine and thread count.\n"
        "\n"
        "  --rows N     all rows, the public input rows included; 2^k - 2^k/128 fills a\n"
        "               domain of 2^k as PoRep does\n"
        "  --seed S     the seed (decimal or 0x hex)\n"
        "  --aux N      private wires (default: rows less 1/1024, as PoRep)\n"
        "  --public N   public inputs besides the constant (default: 327, at most\n"
        "               rows/1024)\n"
        "\n"
        "OUT.wtns is a snarkjs witness file (version 2), readable by `cuzk prove`.\n";

static const char usage_info[] =
        "Usage: cuzk pce info FILE\n"
        "\n"
        "Checks the PCE file FILE fully (checksums, every column and coefficient id)\n"
        "and prints its sizes and statistics as `key: value` lines.\n";

static int parse_u64(const char *option, const char *s, uint64_t max, uint64_t *ret) {
        if (parse_unsigned_range(s, 0, max, 0, ret) < 0) {
                fprintf(stderr, "cuzk pce synth: %s %s: expected a number from 0 to %" PRIu64 "\n",
                        option, s, max);
                return -EINVAL;
        }
        return 0;
}

static int pce_from_r1cs(int argc, char **argv, const struct cli_options *opts) {
        _cleanup_(r1cs_freep) struct r1cs *cs = NULL;
        _cleanup_(pce_freep) struct pce *pce = NULL;
        const struct sparse_matrix *m;
        double t0 = cli_now();
        int r;

        if (cli_wants_help(argc, argv, usage_from_r1cs))
                return EXIT_OK;
        if (argc != 3) {
                fprintf(stderr, "cuzk pce from-r1cs: expected 2 arguments, got %d\n%s", argc - 1,
                        usage_from_r1cs);
                return EXIT_BAD_INPUT;
        }
        r = r1cs_load(argv[1], &cs);
        if (r < 0)
                return cli_exit_for_error(r);
        m = cs->matrices;
        r = pce_from_sparse(&m[R1CS_A], &m[R1CS_B], &m[R1CS_C], r1cs_n_public(cs), PCE_INPUT_ROWS,
                            &pce);
        if (r == -EINVAL) {
                fprintf(stderr, "%s: %u constraints and %u public signals are too many rows\n",
                        argv[1], cs->n_constraints, r1cs_n_public(cs));
                return EXIT_BAD_INPUT;
        }
        if (r < 0) {
                fprintf(stderr, "%s: cannot build the PCE: %s\n", argv[1], strerror(-r));
                return EXIT_INTERNAL;
        }
        r = pce_save(pce, argv[2]);
        if (r < 0)
                return EXIT_INTERNAL;
        if (opts->verbose)
                fprintf(stderr, "cuzk pce: %s -> %s (%u rows, %" PRIu64 " bytes) in %.3f s\n",
                        argv[1], argv[2], pce->n_rows, pce_file_bytes(pce), cli_now() - t0);
        return EXIT_OK;
}

static int parse_synth(int argc, char **argv, struct synthetic_params *p) {
        static const struct option options[] = {
                {"rows", required_argument, NULL, 'r'},
                {"seed", required_argument, NULL, 's'},
                {"aux", required_argument, NULL, 'a'},
                {"public", required_argument, NULL, 'p'},
                {0, 0, 0, 0},
        };
        bool have_rows = false, have_seed = false;
        uint64_t v;
        int c;

        *p = (struct synthetic_params){.n_aux = SYNTHETIC_DEFAULT, .n_public = SYNTHETIC_DEFAULT};
        optind = 0; /* the main parser used getopt already: start afresh */
        while ((c = getopt_long(argc, argv, "", options, NULL)) >= 0) {
                switch (c) {
                case 'r':
                        if (parse_u64("--rows", optarg, UINT32_MAX, &v) < 0)
                                return -EINVAL;
                        p->n_rows = (uint32_t)v;
                        have_rows = true;
                        break;
                case 's':
                        if (parse_u64("--seed", optarg, UINT64_MAX, &p->seed) < 0)
                                return -EINVAL;
                        have_seed = true;
                        break;
                case 'a':
                        if (parse_u64("--aux", optarg, UINT32_MAX - 1, &v) < 0)
                                return -EINVAL;
                        p->n_aux = (uint32_t)v;
                        break;
                case 'p':
                        if (parse_u64("--public", optarg, UINT32_MAX - 1, &v) < 0)
                                return -EINVAL;
                        p->n_public = (uint32_t)v;
                        break;
                default:
                        fprintf(stderr, "%s", usage_synth);
                        return -EINVAL;
                }
        }
        if (!have_rows || !have_seed || argc - optind != 2) {
                fprintf(stderr, "cuzk pce synth: expected --rows, --seed, OUT.pce and OUT.wtns\n%s",
                        usage_synth);
                return -EINVAL;
        }
        return 0;
}

static int pce_synth(int argc, char **argv, const struct cli_options *opts) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_free_ fr_t *w = NULL;
        struct synthetic_params p;
        double t0 = cli_now();
        int r;

        if (cli_wants_help(argc, argv, usage_synth))
                return EXIT_OK;
        if (parse_synth(argc, argv, &p) < 0)
                return EXIT_BAD_INPUT;
        r = synthetic_params_resolve(&p);
        if (r < 0) {
                fprintf(stderr,
                        "cuzk pce synth: --rows %" PRIu32 " leaves no constraint row besides the "
                        "%" PRIu64 " input rows, or --aux is 0, or the wires exceed 2^32 - 1\n",
                        p.n_rows, (uint64_t)p.n_public + 1);
                return EXIT_BAD_INPUT;
        }
        r = synthetic_generate(&p, &pce, &w);
        if (r < 0) {
                fprintf(stderr, "cuzk pce synth: cannot generate %" PRIu32 " rows: %s\n", p.n_rows,
                        strerror(-r));
                return EXIT_INTERNAL;
        }
        if (opts->verbose)
                fprintf(stderr,
                        "cuzk pce synth: %" PRIu32 " rows, %" PRIu32 " aux, %" PRIu32
                        " public, seed %" PRIu64 " in %.3f s\n",
                        p.n_rows, p.n_aux, p.n_public, p.seed, cli_now() - t0);
        r = pce_save(pce, argv[optind]);
        if (r < 0)
                return EXIT_INTERNAL;
        r = wtns_save(argv[optind + 1], w, pce->n_cols);
        if (r < 0)
                return EXIT_INTERNAL;
        if (opts->verbose)
                fprintf(stderr, "cuzk pce synth: wrote %s and %s, %.3f s in all\n", argv[optind],
                        argv[optind + 1], cli_now() - t0);
        return EXIT_OK;
}

static int pce_info(int argc, char **argv, const struct cli_options *opts) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        int r;

        (void)opts;
        if (cli_wants_help(argc, argv, usage_info))
                return EXIT_OK;
        if (argc != 2) {
                fprintf(stderr, "cuzk pce info: expected 1 argument, got %d\n%s", argc - 1,
                        usage_info);
                return EXIT_BAD_INPUT;
        }
        r = pce_load(argv[1], &pce);
        if (r < 0)
                return cli_exit_for_error(r);

        printf("file: %s\nsize_bytes: %" PRIu64 "\n", argv[1], pce_file_bytes(pce));
        cli_print_pce_info(pce);
        return EXIT_OK;
}

int cmd_pce(int argc, char **argv, const struct cli_options *opts) {
        if (argc >= 2 && !strcmp(argv[1], "from-r1cs"))
                return pce_from_r1cs(argc - 1, argv + 1, opts);
        if (argc >= 2 && !strcmp(argv[1], "synth"))
                return pce_synth(argc - 1, argv + 1, opts);
        if (argc >= 2 && !strcmp(argv[1], "info"))
                return pce_info(argc - 1, argv + 1, opts);
        if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
                fputs(usage, stdout);
                return EXIT_OK;
        }
        if (argc >= 2)
                fprintf(stderr,
                        "cuzk pce: unknown command '%s'; expected from-r1cs, synth or info\n",
                        argv[1]);
        fputs(usage, stderr);
        return EXIT_BAD_INPUT;
}
