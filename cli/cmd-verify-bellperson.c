/* SPDX-License-Identifier: Apache-2.0 */
/* cuzk verify VK PUBLIC_JSON PROOF with a bellperson .vk (from `cuzk setup`). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "common/cleanup.h"
#include "formats/bellperson_io.h"
#include "formats/bellperson_vk.h"
#include "formats/filecoin_proof.h"
#include "formats/snarkjs-json.h"
#include "zk/groth16.h"

/*
 * A bellperson .vk is binary and exactly as long as its IC count says (the
 * count sits at a fixed offset, after the timing-only marker if any); a
 * JSON key is text. Decides without logging anything.
 */
bool cli_is_bellperson_vk(const char *path) {
        struct bellperson_map map;
        size_t marker;
        bool is_vk = false;

        if (bellperson_map_file(path, &map) < 0)
                return false;
        marker = bellperson_timing_only_marker_bytes(map.data, map.size);
        if (map.size >= marker + BELLPERSON_VK_FIXED_BYTES) {
                uint32_t n_ic = bellperson_be32(map.data + marker + BELLPERSON_VK_FIXED_BYTES - 4);

                is_vk = n_ic > 0 && map.size == marker + bellperson_vk_bytes(n_ic - 1);
        }
        bellperson_unmap_file(&map);
        return is_vk;
}

/* A 192-byte Filecoin proof, or snarkjs's proof.json. */
static int load_proof(const char *path, struct groth16_proof *ret) {
        struct bellperson_map map;
        int r;

        r = bellperson_map_file(path, &map);
        if (r < 0)
                return r;
        if (map.size == FILECOIN_PROOF_BYTES)
                r = filecoin_proof_decode(map.data, map.size, path, ret);
        else
                r = 1; /* not the binary form */
        bellperson_unmap_file(&map);
        return r <= 0 ? r : snarkjs_proof_load(path, ret);
}

int cmd_verify_bellperson(int argc, char **argv, const struct cli_options *opts) {
        _cleanup_(bellperson_vk_freep) struct bellperson_vk *vk = NULL;
        _cleanup_free_ fr_t *pub = NULL;
        struct groth16_proof proof;
        size_t n_pub;
        int r;

        (void)opts;
        if (argc != 4) {
                fprintf(stderr, "cuzk verify: expected 3 arguments, got %d\n", argc - 1);
                return EXIT_BAD_INPUT;
        }
        r = bellperson_vk_load(argv[1], &vk);
        if (r < 0)
                return cli_exit_for_error(r);
        if (vk->timing_only) {
                fprintf(stderr, "%s: %s\n", argv[1], BELLPERSON_TIMING_ONLY_REFUSAL);
                return EXIT_BAD_INPUT;
        }
        r = snarkjs_public_load(argv[2], &pub, &n_pub);
        if (r < 0)
                return cli_exit_for_error(r);
        r = load_proof(argv[3], &proof);
        if (r < 0)
                return cli_exit_for_error(r);
        if (n_pub != vk->vk.n_public) {
                fprintf(stderr, "%s: %zu public inputs, the verifying key %s expects %u\n", argv[2],
                        n_pub, argv[1], vk->vk.n_public);
                return EXIT_BAD_INPUT;
        }

        r = groth16_verify(&vk->vk, pub, &proof);
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
