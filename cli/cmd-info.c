/* SPDX-License-Identifier: Apache-2.0 */
/* cuzk info FILE: what a file is, its curve, sizes and counts. */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "common/cleanup.h"
#include "formats/r1cs.h"
#include "formats/snarkjs-json.h"
#include "formats/wtns.h"
#include "formats/zkey.h"

static const char usage[] =
        "Usage: cuzk info FILE\n"
        "\n"
        "Says what FILE is (snarkjs .zkey, .wtns, circom .r1cs, proof.json,\n"
        "public.json, vk.json), checks it fully, and prints its curve, sizes and\n"
        "counts as `key: value` lines.\n";

static int info_zkey(const char *path) {
        _cleanup_(zkey_freep) struct zkey *zk = NULL;
        int r = zkey_load(path, &zk);
        if (r < 0)
                return cli_exit_for_error(r);
        printf("type: snarkjs proving key (.zkey)\nprotocol: groth16\ncurve: bls12381\n");
        printf("wires: %u\npublic_signals: %u\nprivate_wires: %u\n", zk->n_vars, zk->n_public,
               zkey_n_private(zk));
        printf("domain_size: %u (2^%u)\ncoefficients: %u\n", zk->domain_size, zk->log2_domain_size,
               zk->n_coefs);
        printf("points: A %u, B1 %u, B2 %u, C %u, H %u, IC %u\n", zk->n_vars, zk->n_vars,
               zk->n_vars, zkey_n_private(zk), zk->domain_size, zk->n_public + 1);
        return EXIT_OK;
}

static int info_wtns(const char *path) {
        _cleanup_(wtns_freep) struct wtns *w = NULL;
        int r = wtns_load(path, &w);
        if (r < 0)
                return cli_exit_for_error(r);
        printf("type: snarkjs witness (.wtns)\ncurve: bls12381\nvalues: %u\n", w->n_values);
        return EXIT_OK;
}

static int info_r1cs(const char *path) {
        _cleanup_(r1cs_freep) struct r1cs *cs = NULL;
        int r = r1cs_load(path, &cs);
        if (r < 0)
                return cli_exit_for_error(r);
        printf("type: circom constraint system (.r1cs)\ncurve: bls12381\n");
        printf("wires: %u\nconstraints: %u\npublic_outputs: %u\npublic_inputs: %u\n"
               "private_inputs: %u\nlabels: %llu\n",
               cs->n_wires, cs->n_constraints, cs->n_pub_out, cs->n_pub_in, cs->n_prv_in,
               (unsigned long long)cs->n_labels);
        printf("nonzero_terms: A %llu, B %llu, C %llu\n",
               (unsigned long long)sparse_n_terms(&cs->matrices[R1CS_A]),
               (unsigned long long)sparse_n_terms(&cs->matrices[R1CS_B]),
               (unsigned long long)sparse_n_terms(&cs->matrices[R1CS_C]));
        return EXIT_OK;
}

static int info_json(const char *path) {
        json_error_t err;
        _cleanup_(json_decrefp) json_t *root = json_load_file(path, 0, &err);
        int r;

        if (!root) {
                fprintf(stderr, "%s:%d: not valid JSON: %s\n", path, err.line, err.text);
                return EXIT_BAD_INPUT;
        }
        if (json_is_array(root)) {
                _cleanup_free_ fr_t *pub = NULL;
                size_t n;
                r = snarkjs_public_from_json(root, path, &pub, &n);
                if (r < 0)
                        return cli_exit_for_error(r);
                printf("type: snarkjs public signals (public.json)\ncurve: bls12381\nsignals: "
                       "%zu\n",
                       n);
                return EXIT_OK;
        }
        if (json_object_get(root, "pi_a")) {
                struct groth16_proof proof;
                r = snarkjs_proof_from_json(root, path, &proof);
                if (r < 0)
                        return cli_exit_for_error(r);
                printf("type: snarkjs proof (proof.json)\nprotocol: groth16\ncurve: bls12381\n");
                return EXIT_OK;
        }
        if (json_object_get(root, "vk_alpha_1")) {
                _cleanup_(snarkjs_vk_freep) struct groth16_vk *vk = NULL;
                r = snarkjs_vk_from_json(root, path, &vk);
                if (r < 0)
                        return cli_exit_for_error(r);
                printf("type: snarkjs verification key (vk.json)\nprotocol: groth16\ncurve: "
                       "bls12381\npublic_signals: %u\n",
                       vk->n_public);
                return EXIT_OK;
        }
        fprintf(stderr, "%s: JSON, but neither a proof, a verification key nor public signals\n",
                path);
        return EXIT_BAD_INPUT;
}

int cmd_info(int argc, char **argv, const struct cli_options *opts) {
        _cleanup_fclose_ FILE *f = NULL;
        char magic[4] = {0};
        struct stat st;
        size_t got;
        int c;

        (void)opts;
        if (cli_wants_help(argc, argv, usage))
                return EXIT_OK;
        if (argc != 2) {
                fprintf(stderr, "cuzk info: expected 1 argument, got %d\n%s", argc - 1, usage);
                return EXIT_BAD_INPUT;
        }

        f = fopen(argv[1], "re");
        if (!f || fstat(fileno(f), &st) < 0) {
                fprintf(stderr, "%s: %s\n", argv[1], strerror(errno));
                return EXIT_BAD_INPUT;
        }
        printf("file: %s\nsize_bytes: %llu\n", argv[1], (unsigned long long)st.st_size);
        got = fread(magic, 1, sizeof(magic), f);
        if (got == sizeof(magic) && !memcmp(magic, "zkey", 4))
                return info_zkey(argv[1]);
        if (got == sizeof(magic) && !memcmp(magic, "wtns", 4))
                return info_wtns(argv[1]);
        if (got == sizeof(magic) && !memcmp(magic, "r1cs", 4))
                return info_r1cs(argv[1]);

        /* JSON starts with '{' or '[' after optional white space. */
        rewind(f);
        while ((c = fgetc(f)) == ' ' || c == '\n' || c == '\t' || c == '\r')
                ;
        if (c == '{' || c == '[')
                return info_json(argv[1]);

        fprintf(stderr,
                "%s: unknown file type (expected a .zkey, .wtns, .r1cs or snarkjs JSON file)\n",
                argv[1]);
        return EXIT_BAD_INPUT;
}
