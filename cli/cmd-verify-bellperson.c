/* SPDX-License-Identifier: Apache-2.0 */
/* cuzk verify VK PUBLIC_JSON PROOF with a bellperson .vk (from `cuzk setup`). */
#include <assert.h>
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
 * .params file starts with one and goes on with its five sections (at least
 * their counts); a JSON key is text.
 */
enum cli_bellperson_kind cli_bellperson_kind(const uint8_t *data, size_t size) {
        size_t marker = bellperson_timing_only_marker_bytes(data, size);
        uint64_t vk_bytes;
        uint32_t n_ic;

        /* alpha_g1 comes first, uncompressed: its compression flag is clear. */
        if (size < marker + BELLPERSON_VK_FIXED_BYTES || (data[marker] & 0x80))
                return CLI_BELLPERSON_NONE;
        n_ic = bellperson_be32(data + marker + BELLPERSON_VK_FIXED_BYTES - 4);
        if (n_ic == 0)
                return CLI_BELLPERSON_NONE;
        vk_bytes = marker + bellperson_vk_bytes(n_ic - 1);
        if (size == vk_bytes)
                return CLI_BELLPERSON_VK;
        if (size >= vk_bytes + 5 * 4)
                return CLI_BELLPERSON_PARAMS;
        return CLI_BELLPERSON_NONE;
}

bool cli_is_bellperson_vk(const char *path) {
        struct bellperson_map map;
        bool is_vk;

        if (bellperson_map_file(path, &map) < 0)
                return false;
        is_vk = cli_bellperson_kind(map.data, map.size) == CLI_BELLPERSON_VK;
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
        int r;

        (void)opts;
        assert(argc == 4); /* cmd_verify() counted them */
        r = bellperson_vk_load(argv[1], &vk);
        if (r < 0)
                return cli_exit_for_error(r);
        if (vk->timing_only) {
                fprintf(stderr, "%s: %s\n", argv[1], BELLPERSON_TIMING_ONLY_REFUSAL);
                return EXIT_BAD_INPUT;
        }
        return cli_verify_with_key(&vk->vk, argv[1], argv[2], argv[3], load_proof);
}
