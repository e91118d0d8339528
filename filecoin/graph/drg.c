/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/graph/drg.h"

#include <assert.h>
#include <string.h>

#include "filecoin/graph/chacha8.h"
#include "filecoin/sha256/sha256.h"

static const char DRSAMPLE_DST[] = "Filecoin_DRSample";

/* Each node's predecessor, plus this many sampled parents. */
#define DRG_SAMPLED_PARENTS (POREP_DRG_PARENTS - 1)

void drg_init(struct drg *d, const uint8_t porep_id[POREP_ID_BYTES], enum porep_api_version api) {
        const struct sha256_piece pieces[] = {
                {DRSAMPLE_DST, sizeof(DRSAMPLE_DST) - 1},
                {porep_id, POREP_ID_BYTES},
        };
        uint8_t digest[SHA256_DIGEST_BYTES];

        assert(d);
        assert(porep_id);

        sha256_digest_pieces(pieces, 2, digest);
        memcpy(d->seed, digest, DRG_SEED_BYTES);
        d->api = api;
}

/*
 * ceil(log2(x)) for x >= 2. The reference computes (x as f64).log2().ceil():
 * below 2^34 (5 * the nodes of a 64 GiB sector) that double is exact, and
 * log2 of a non-power of two lies more than 2^-35 from any integer, far
 * beyond log2's rounding error, so the two always agree.
 */
static uint64_t ceil_log2(uint64_t x) {
        return 64 - (uint64_t)__builtin_clzll(x - 1);
}

static uint32_t sample_parent(struct chacha8_rng *rng, uint32_t node, uint64_t metagraph_node,
                              uint64_t n_buckets) {
        uint64_t bucket = chacha8_next_u64(rng) % n_buckets + 1;
        uint64_t largest =
                metagraph_node < (UINT64_C(1) << bucket) ? metagraph_node : UINT64_C(1) << bucket;
        uint64_t smallest = largest >> 1 > 2 ? largest >> 1 : 2;
        uint64_t distance = smallest + chacha8_next_u64(rng) % (largest - smallest + 1);
        uint32_t parent = (uint32_t)((metagraph_node - distance) / DRG_SAMPLED_PARENTS);

        /* Several metagraph nodes map onto node itself: use its predecessor. */
        return parent == node ? node - 1 : parent;
}

void drg_parents(const struct drg *d, uint32_t node, uint32_t out[POREP_DRG_PARENTS]) {
        uint8_t seed[CHACHA_KEY_BYTES];
        struct chacha8_rng rng;
        uint64_t metagraph_node, n_buckets;
        uint32_t *sampled;

        assert(d);
        assert(out);

        if (node < 2) {
                memset(out, 0, POREP_DRG_PARENTS * sizeof(uint32_t));
                return;
        }

        memcpy(seed, d->seed, DRG_SEED_BYTES);
        for (unsigned i = 0; i < 4; i++)
                seed[DRG_SEED_BYTES + i] = (uint8_t)(node >> (8 * i));
        chacha8_rng_init(&rng, seed);

        metagraph_node = (uint64_t)node * DRG_SAMPLED_PARENTS;
        n_buckets = ceil_log2(metagraph_node);
        if (d->api == POREP_API_V1_0_0) {
                sampled = out;
                out[DRG_SAMPLED_PARENTS] = node - 1;
        } else {
                sampled = out + 1;
                out[0] = node - 1;
        }
        for (unsigned i = 0; i < DRG_SAMPLED_PARENTS; i++)
                sampled[i] = sample_parent(&rng, node, metagraph_node, n_buckets);
}
