/* SPDX-License-Identifier: Apache-2.0 */
/* cuzk info FILE: what a file is, its curve, sizes and counts. */
#include <errno.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "circuits/pce-file.h"
#include "cli.h"
#include "common/cleanup.h"
#include "formats/bellperson_io.h"
#include "formats/bellperson_params.h"
#include "formats/bellperson_vk.h"
#include "formats/filecoin_proof.h"
#include "formats/r1cs.h"
#include "formats/snarkjs-json.h"
#include "formats/wtns.h"
#include "formats/zkey.h"

static const char usage[] =
        "Usage: cuzk info FILE\n"
        "\n"
        "Says what FILE is (snarkjs .zkey, .wtns, circom .r1cs, proof.json,\n"
        "public.json, vk.json, a PCE file, bellperson .params or .vk, a 192-byte\n"
        "Filecoin proof), checks it, and prints its curve, sizes and counts as\n"
        "`key: value` lines.\n";

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

void cli_print_pce_info(const struct pce *pce) {
        static const char *const names[PCE_N_MATRICES] = {"A", "B", "C"};

        printf("type: cuzk precompiled constraints (.pce)\nversion: %d\ncurve: bls12381\n",
               PCE_FILE_VERSION);
        printf("memory_bytes: %" PRIu64 "\n", pce_memory_bytes(pce));
        printf("rows: %" PRIu32 "\nconstraints: %" PRIu32 "\ninput_rows: %s\n", pce->n_rows,
               pce_n_constraints(pce), pce->flags & PCE_INPUT_ROWS ? "yes" : "no");
        printf("domain_size: %" PRIu64 " (2^%u)\n", (uint64_t)1 << pce_log_domain_size(pce),
               pce_log_domain_size(pce));
        printf("wires: %" PRIu32 "\npublic_inputs: %" PRIu32 "\nprivate_wires: %" PRIu32 "\n",
               pce->n_cols, pce->n_public, pce->n_cols - pce->n_public - 1);
        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                printf("terms_%s: %" PRIu64 " (%.4f per row), %" PRIu32
                       " distinct coefficients, %" PRIu32 "-byte ids\n",
                       names[k], pce->m[k].n_terms,
                       pce->n_rows ? (double)pce->m[k].n_terms / pce->n_rows : 0.0,
                       pce->m[k].n_values, pce->m[k].id_bytes);
        printf("a_density: %.4f (%" PRIu64 " of %" PRIu32 " wires)\n", pce_a_density(pce),
               pce->density_count[0], pce->n_cols);
        printf("b_aux_density: %.4f\n", pce_b_aux_density(pce));
}

static int info_pce(const char *path) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        int r = pce_load(path, &pce);
        if (r < 0)
                return cli_exit_for_error(r);
        cli_print_pce_info(pce);
        return EXIT_OK;
}

static void print_timing_only(bool timing_only) {
        printf("timing_only: %s\n",
               timing_only ? "yes (random points: no proof made with this key verifies)" : "no");
}

static int info_bellperson_vk(const char *path) {
        _cleanup_(bellperson_vk_freep) struct bellperson_vk *vk = NULL;
        int r = bellperson_vk_load(path, &vk);
        if (r < 0)
                return cli_exit_for_error(r);
        printf("type: bellperson verifying key (.vk)\nprotocol: groth16\ncurve: bls12381\n");
        print_timing_only(vk->timing_only);
        printf("public_inputs: %u\nic_points: %u\n", vk->vk.n_public, vk->vk.n_public + 1);
        printf("expected_bytes: %" PRIu64 "\n",
               (vk->timing_only ? BELLPERSON_TIMING_ONLY_MARKER_BYTES : 0) +
                       bellperson_vk_bytes(vk->vk.n_public));
        return EXIT_OK;
}

static int info_bellperson_params(const char *path) {
        _cleanup_(bellperson_params_freep) struct bellperson_params *p = NULL;
        uint32_t n_public;
        uint64_t wires, domain_size;
        int r;

        /* All the checks the prover makes, and the subgroup checks it skips. */
        r = bellperson_params_load(path, true, &p);
        if (r < 0)
                return cli_exit_for_error(r);
        n_public = p->vk->vk.n_public;
        wires = bellperson_params_wires(p);
        domain_size = (uint64_t)p->n_h + 1;

        printf("type: bellperson Groth16 parameters (.params)\nprotocol: groth16\ncurve: "
               "bls12381\n");
        print_timing_only(p->timing_only);
        printf("wires: %" PRIu64 "\npublic_inputs: %u\nprivate_wires: %u\n", wires, n_public,
               p->n_l);
        if (domain_size & (domain_size - 1))
                printf("domain_size: %" PRIu64 " (not a power of two: no prover takes it)\n",
                       domain_size);
        else
                printf("domain_size: %" PRIu64 " (2^%d)\n", domain_size,
                       __builtin_ctzll(domain_size));
        printf("points: h %u, l %u, a %u, b_g1 %u, b_g2 %u, ic %u\n", p->n_h, p->n_l, p->n_a,
               p->n_b_g1, p->n_b_g2, n_public + 1);
        printf("points_per_wire: %s\n",
               bellperson_params_point_per_wire(p)
                       ? "one (cuzk setup)"
                       : "fewer (bellperson layout: the points at infinity left out)");
        printf("expected_bytes: %" PRIu64 "\n",
               (p->timing_only ? BELLPERSON_TIMING_ONLY_MARKER_BYTES : 0) +
                       bellperson_params_bytes(n_public, p->n_h, p->n_l, p->n_a, p->n_b_g1,
                                               p->n_b_g2));
        return EXIT_OK;
}

static int info_filecoin_proof(const char *path, const uint8_t *data, size_t size) {
        _cleanup_free_ struct groth16_proof *proofs = NULL;
        size_t n;
        int r = filecoin_proofs_decode(data, size, path, &proofs, &n);
        if (r < 0)
                return cli_exit_for_error(r);
        printf("type: Filecoin Groth16 proof (bellperson, %d bytes a partition)\nprotocol: "
               "groth16\ncurve: bls12381\npartitions: %zu\n",
               FILECOIN_PROOF_BYTES, n);
        return EXIT_OK;
}

static bool starts_with(const uint8_t *data, size_t size, const char *magic) {
        size_t n = strlen(magic);
        return size >= n && !memcmp(data, magic, n);
}

/* JSON starts with '{' or '[' after optional white space. */
static bool looks_like_json(const uint8_t *data, size_t size) {
        size_t i = 0;

        while (i < size &&
               (data[i] == ' ' || data[i] == '\n' || data[i] == '\t' || data[i] == '\r'))
                i++;
        return i < size && (data[i] == '{' || data[i] == '[');
}

/* A file of whole proofs whose first point, A, is compressed. */
static bool looks_like_filecoin_proof(const uint8_t *data, size_t size) {
        return size > 0 && size % FILECOIN_PROOF_BYTES == 0 && (data[0] & 0x80);
}

static int describe(const char *path, const uint8_t *data, size_t size) {
        if (starts_with(data, size, "zkey"))
                return info_zkey(path);
        if (starts_with(data, size, "wtns"))
                return info_wtns(path);
        if (starts_with(data, size, "r1cs"))
                return info_r1cs(path);
        if (starts_with(data, size, PCE_FILE_MAGIC))
                return info_pce(path);
        if (looks_like_json(data, size))
                return info_json(path);
        switch (cli_bellperson_kind(data, size)) {
        case CLI_BELLPERSON_VK:
                return info_bellperson_vk(path);
        case CLI_BELLPERSON_PARAMS:
                return info_bellperson_params(path);
        case CLI_BELLPERSON_NONE:
                break;
        }
        if (looks_like_filecoin_proof(data, size))
                return info_filecoin_proof(path, data, size);

        fprintf(stderr,
                "%s: unknown file type (expected a .zkey, .wtns, .r1cs, snarkjs JSON, PCE, "
                "bellperson .params or .vk, or %d-byte Filecoin proof file)\n",
                path, FILECOIN_PROOF_BYTES);
        return EXIT_BAD_INPUT;
}

int cmd_info(int argc, char **argv, const struct cli_options *opts) {
        _cleanup_(bellperson_unmap_file) struct bellperson_map map = {0};
        int r;

        (void)opts;
        if (!cli_arguments_ok(argc, argv, 1, "info", usage, &r))
                return r;

        /* Mapped, not read: a .params file can be tens of GB. */
        r = bellperson_map_file(argv[1], &map);
        if (r < 0)
                return cli_exit_for_error(r);
        printf("file: %s\nsize_bytes: %zu\n", argv[1], map.size);
        return describe(argv[1], map.data, map.size);
}
