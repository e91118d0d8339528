/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/seal/labels.h"

#include <assert.h>
#include <errno.h>
#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/sha256/sha256.h"

/* replica_id ‖ layer ‖ node ‖ zeros: the 64 bytes every label hash starts with. */
static void label_prefix(const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                         uint8_t out[64]) {
        memcpy(out, replica_id, 32);
        memset(out + 32, 0, 32);
        for (unsigned i = 0; i < 4; i++)
                out[32 + i] = (uint8_t)(layer >> (24 - 8 * i));
        for (unsigned i = 0; i < 8; i++)
                out[36 + i] = (uint8_t)(node >> (56 - 8 * i));
}

/* The hash with a reusable context: one allocation per layer, not per label. */
static void label_hash_ctx(EVP_MD_CTX *ctx, const uint8_t replica_id[32], uint32_t layer,
                           uint64_t node, const sdr_label_parents parents,
                           uint8_t out[SDR_LABEL_BYTES]) {
        uint8_t prefix[64];
        unsigned len = 0;

        label_prefix(replica_id, layer, node, prefix);
        /* libcrypto fails here only on allocation, which a reused context does not do. */
        if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1 ||
            EVP_DigestUpdate(ctx, prefix, sizeof(prefix)) != 1)
                abort();
        if (node > 0 && EVP_DigestUpdate(ctx, parents, sizeof(sdr_label_parents)) != 1)
                abort();
        if (EVP_DigestFinal_ex(ctx, out, &len) != 1)
                abort();
        sha254_trim(out);
}

void sdr_label_hash(const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                    const sdr_label_parents parents, uint8_t out[SDR_LABEL_BYTES]) {
        EVP_MD_CTX *ctx = EVP_MD_CTX_new();

        assert(replica_id);
        assert(parents || node == 0);
        assert(out);

        if (!ctx)
                abort();
        label_hash_ctx(ctx, replica_id, layer, node, parents, out);
        EVP_MD_CTX_free(ctx);
}

void sdr_label_expand_parents(uint32_t layer, sdr_label_parents out) {
        unsigned distinct = sdr_label_distinct_parents(layer);

        for (unsigned i = distinct; i < POREP_LABEL_PARENTS; i++)
                memcpy(out[i], out[i % distinct], SDR_LABEL_BYTES);
}

void sdr_label_parents_from_columns(const struct c1_vanilla_proof *p, uint32_t layer,
                                    sdr_label_parents out) {
        assert(p);
        assert(layer >= 1);

        for (unsigned i = 0; i < sdr_label_distinct_parents(layer); i++) {
                const struct c1_column_proof *col =
                        i < POREP_DRG_PARENTS ? &p->drg_parents[i]
                                              : &p->exp_parents[i - POREP_DRG_PARENTS];
                memcpy(out[i], col->rows[sdr_label_parent_layer(layer, i) - 1], SDR_LABEL_BYTES);
        }
        sdr_label_expand_parents(layer, out);
}

void sdr_label_gather_parents(const struct sdr_graph *graph, const uint8_t *labels, uint64_t nodes,
                              uint32_t layer, uint64_t node, sdr_label_parents out) {
        uint32_t parents[POREP_TOTAL_PARENTS];

        assert(graph);
        assert(labels);
        assert(layer >= 1);

        sdr_graph_parents(graph, node, parents);
        for (unsigned i = 0; i < sdr_label_distinct_parents(layer); i++) {
                uint64_t at = (uint64_t)(sdr_label_parent_layer(layer, i) - 1) * nodes + parents[i];
                memcpy(out[i], labels + at * SDR_LABEL_BYTES, SDR_LABEL_BYTES);
        }
        sdr_label_expand_parents(layer, out);
}

int sdr_labels_create(const struct sdr_graph *graph, uint64_t nodes, unsigned layers,
                      const uint8_t replica_id[32], uint8_t *labels,
                      void (*progress)(unsigned layer_done, void *userdata), void *userdata) {
        EVP_MD_CTX *ctx = EVP_MD_CTX_new();
        sdr_label_parents parents;

        assert(graph);
        assert(replica_id);
        assert(labels);
        assert(nodes >= 2 && layers >= 1);

        if (!ctx)
                return -ENOMEM;
        for (unsigned layer = 1; layer <= layers; layer++) {
                uint8_t *row = labels + (uint64_t)(layer - 1) * nodes * SDR_LABEL_BYTES;

                for (uint64_t node = 0; node < nodes; node++) {
                        if (node > 0)
                                sdr_label_gather_parents(graph, labels, nodes, layer, node,
                                                         parents);
                        label_hash_ctx(ctx, replica_id, layer, node, parents,
                                       row + node * SDR_LABEL_BYTES);
                }
                if (progress)
                        progress(layer, userdata);
        }
        EVP_MD_CTX_free(ctx);
        return 0;
}
