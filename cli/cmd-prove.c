/* SPDX-License-Identifier: Apache-2.0 */
/* cuzk prove ZKEY WTNS PROOF_JSON PUBLIC_JSON */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/cleanup.h"
#include "formats/snarkjs-json.h"
#include "formats/wtns.h"
#include "formats/zkey.h"
#include "zk/groth16.h"

static const char usage[] =
        "Usage: cuzk prove ZKEY WTNS PROOF_JSON PUBLIC_JSON\n"
        "\n"
        "Proves the witness WTNS (snarkjs .wtns) with the Groth16 proving key ZKEY\n"
        "(snarkjs .zkey, BLS12-381) and writes the proof and the public signals as\n"
        "snarkjs writes them. The argument order is snarkjs's and rapidsnark's.\n";

int cmd_prove(int argc, char **argv, const struct cli_options *opts) {
        _cleanup_(zkey_freep) struct zkey *zk = NULL;
        _cleanup_(wtns_freep) struct wtns *w = NULL;
        _cleanup_(sparse_freep) struct sparse_matrix a = {0};
        _cleanup_(sparse_freep) struct sparse_matrix b = {0};
        struct groth16_constraints cs = {.a = &a, .b = &b, .c = NULL};
        struct groth16_pk pk;
        struct groth16_proof proof;
        double t0 = cli_now();
        int r;

        if (cli_prove_wants_pce(argc, argv))
                return cmd_prove_pce(argc, argv, opts);
        if (cli_wants_help(argc, argv, usage))
                return EXIT_OK;
        if (argc != 5) {
                fprintf(stderr, "cuzk prove: expected 4 arguments, got %d\n%s", argc - 1, usage);
                return EXIT_BAD_INPUT;
        }

        r = zkey_load(argv[1], &zk);
        if (r < 0)
                return cli_exit_for_error(r);
        r = wtns_load(argv[2], &w);
        if (r < 0)
                return cli_exit_for_error(r);
        if (w->n_values != zk->n_vars) {
                fprintf(stderr, "%s: the witness has %u values, the proving key %s expects %u\n",
                        argv[2], w->n_values, argv[1], zk->n_vars);
                return EXIT_BAD_INPUT;
        }
        if (opts->verbose)
                fprintf(stderr, "cuzk prove: loaded %s (%u wires, domain 2^%u) and %s in %.3f s\n",
                        argv[1], zk->n_vars, zk->log2_domain_size, argv[2], cli_now() - t0);

        zkey_to_groth16_pk(zk, &pk);
        r = zkey_to_groth16_matrices(zk, &a, &b);
        if (r < 0) {
                fprintf(stderr, "%s: cannot build the constraint matrices: %s\n", argv[1],
                        strerror(-r));
                return cli_exit_for_error(r);
        }

        t0 = cli_now();
        r = groth16_prove(&pk, &cs, w->values, &proof, opts->threads);
        if (r < 0) {
                fprintf(stderr, "cuzk prove: proving failed: %s\n", strerror(-r));
                return r == -EINVAL ? EXIT_BAD_INPUT : EXIT_INTERNAL;
        }
        if (opts->verbose)
                fprintf(stderr, "cuzk prove: proved in %.3f s\n", cli_now() - t0);

        r = snarkjs_proof_save(argv[3], &proof);
        if (r < 0)
                return EXIT_INTERNAL;
        r = snarkjs_public_save(argv[4], w->values + 1, zk->n_public);
        if (r < 0)
                return EXIT_INTERNAL;
        return EXIT_OK;
}
