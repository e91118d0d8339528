/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/porep/challenges.h"

#include <assert.h>
#include <errno.h>

#include "filecoin/sha256/sha256.h"

static const char NI_CHALLENGE_TAG[] = "filecoin.io|PoRep|1|NonInteractive|1";

uint64_t porep_challenge_from_le(const uint8_t *bytes, size_t n, uint64_t nodes) {
        uint64_t modulus, rem = 0;

        assert(bytes || n == 0);
        /* challenges.rs keeps sector_nodes below 2^32 (a u32 digit). */
        assert(nodes >= 2 && nodes <= (1ull << 32));

        /* Horner from the most significant byte: rem < 2^32, so rem * 256 fits. */
        modulus = nodes - 1;
        for (size_t i = n; i-- > 0;)
                rem = ((rem << 8) | bytes[i]) % modulus;
        return rem + 1;
}

static void le32(uint32_t v, uint8_t out[4]) {
        for (unsigned i = 0; i < 4; i++)
                out[i] = (uint8_t)(v >> (8 * i));
}

/* challenges.rs takes k as u8 and j as u32; our partitions stay below 256. */
static int check_partition(const struct porep_config *cfg, unsigned k) {
        return k < cfg->partitions && k <= UINT8_MAX ? 0 : -EINVAL;
}

/* out[i] = the node of SHA-256(prefix pieces ‖ j u32 LE), j = cpp · k + i:
 * the interactive and NI kinds differ only in the prefix. */
static int hashed_challenges(const struct porep_config *cfg, const struct sha256_piece *prefix,
                             size_t n_prefix, unsigned k, uint64_t *out) {
        struct sha256_piece pieces[4];
        unsigned cpp;
        uint8_t j[4];

        assert(n_prefix < 4);

        if (check_partition(cfg, k) < 0)
                return -EINVAL;
        for (size_t p = 0; p < n_prefix; p++)
                pieces[p] = prefix[p];
        pieces[n_prefix] = (struct sha256_piece){j, 4};
        cpp = cfg->challenges_per_partition;
        for (unsigned i = 0; i < cpp; i++) {
                uint8_t digest[SHA256_DIGEST_BYTES];

                le32(cpp * k + i, j);
                sha256_digest_pieces(pieces, n_prefix + 1, digest);
                out[i] = porep_challenge_from_le(digest, sizeof(digest), cfg->nodes);
        }
        return 0;
}

int porep_interactive_challenges(const struct porep_config *cfg, const uint8_t replica_id[32],
                                 const uint8_t seed[32], unsigned k, uint64_t *out) {
        const struct sha256_piece prefix[] = {{replica_id, 32}, {seed, 32}};

        assert(cfg && replica_id && seed && out);
        return hashed_challenges(cfg, prefix, 2, k, out);
}

int porep_ni_challenges(const struct porep_config *cfg, const uint8_t replica_id[32],
                        const uint8_t comm_r[32], unsigned k, uint64_t *out) {
        const struct sha256_piece prefix[] = {
                {NI_CHALLENGE_TAG, sizeof(NI_CHALLENGE_TAG) - 1},
                {replica_id, 32},
                {comm_r, 32},
        };

        assert(cfg && replica_id && comm_r && out);
        return hashed_challenges(cfg, prefix, 3, k, out);
}

int porep_synthetic_challenges(const struct porep_config *cfg, const uint8_t replica_id[32],
                               const uint8_t seed[32], const uint8_t comm_r[32], unsigned k,
                               uint64_t *out) {
        unsigned cpp;
        int r;

        assert(cfg);
        assert(replica_id);
        assert(seed);
        assert(comm_r);
        assert(out);

        if (check_partition(cfg, k) < 0)
                return -EINVAL;
        cpp = cfg->challenges_per_partition;
        /* out first holds the selected synthetic indexes, then their challenges. */
        r = porep_synth_select(porep_synth_count(cfg->nodes), replica_id, seed, (uint64_t)k * cpp,
                               cpp, out);
        if (r < 0)
                return r;
        for (unsigned i = 0; i < cpp; i++) {
                r = porep_synth_generate(cfg->nodes, replica_id, comm_r, out[i], 1, &out[i]);
                if (r < 0)
                        return r;
        }
        return 0;
}

int porep_challenges(const struct porep_config *cfg, const uint8_t replica_id[32],
                     const uint8_t seed[32], const uint8_t comm_r[32], unsigned k, uint64_t *out) {
        assert(cfg);
        assert(replica_id);
        assert(out);

        switch (cfg->challenges) {
        case POREP_CHALLENGES_INTERACTIVE:
                if (!seed)
                        return -EINVAL;
                return porep_interactive_challenges(cfg, replica_id, seed, k, out);
        case POREP_CHALLENGES_NON_INTERACTIVE:
                if (!comm_r)
                        return -EINVAL;
                return porep_ni_challenges(cfg, replica_id, comm_r, k, out);
        case POREP_CHALLENGES_SYNTHETIC:
                if (!seed || !comm_r)
                        return -EINVAL;
                return porep_synthetic_challenges(cfg, replica_id, seed, comm_r, k, out);
        }
        return -EINVAL;
}
