/* SPDX-License-Identifier: Apache-2.0 */
/* cuzk verify VK_JSON PUBLIC_JSON PROOF_JSON */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/cleanup.h"
#include "formats/snarkjs-json.h"
#include "zk/groth16.h"

static const char usage[] = "Usage: cuzk verify VK_JSON PUBLIC_JSON PROOF_JSON\n"
                            "\n"
                            "Verifies a Groth16 proof (snarkjs proof.json) for the public signals\n"
                            "(public.json) against the verification key (vk.json), with the same\n"
                            "argument order as `snarkjs groth16 verify`. Prints OK or INVALID.\n"
                            "VK_JSON may also be a bellperson .vk (cuzk setup), and PROOF_JSON\n"
                            "then a 192-byte Filecoin proof.\n"
                            "Exit status: 0 valid, 1 invalid, 2 bad input.\n";

int cli_verify_with_key(const struct groth16_vk *vk, const char *vk_path, const char *public_path,
                        const char *proof_path, cli_proof_loader_fn load_proof) {
        _cleanup_free_ fr_t *pub = NULL;
        struct groth16_proof proof;
        size_t n_pub;
        int r;

        assert(vk);
        assert(vk_path);
        assert(public_path);
        assert(proof_path);
        assert(load_proof);

        r = snarkjs_public_load(public_path, &pub, &n_pub);
        if (r < 0)
                return cli_exit_for_error(r);
        r = load_proof(proof_path, &proof);
        if (r < 0)
                return cli_exit_for_error(r);
        if (n_pub != vk->n_public) {
                fprintf(stderr, "%s: %zu public inputs, the verification key %s expects %u\n",
                        public_path, n_pub, vk_path, vk->n_public);
                return EXIT_BAD_INPUT;
        }

        r = groth16_verify(vk, pub, &proof);
        if (r < 0) {
                fprintf(stderr, "cuzk verify: %s\n", strerror(-r));
                return EXIT_INTERNAL;
        }
        if (!r) {
                puts("INVALID");
                return EXIT_INVALID_PROOF;
        }
        puts("OK");
        return EXIT_OK;
}

int cmd_verify(int argc, char **argv, const struct cli_options *opts) {
        _cleanup_(snarkjs_vk_freep) struct groth16_vk *vk = NULL;
        int r;

        if (!cli_arguments_ok(argc, argv, 3, "verify", usage, &r))
                return r;
        /* A binary bellperson .vk (cuzk setup) instead of vk.json. */
        if (cli_is_bellperson_vk(argv[1]))
                return cmd_verify_bellperson(argc, argv, opts);

        r = snarkjs_vk_load(argv[1], &vk);
        if (r < 0)
                return cli_exit_for_error(r);
        return cli_verify_with_key(vk, argv[1], argv[2], argv[3], snarkjs_proof_load);
}
