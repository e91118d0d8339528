/* SPDX-License-Identifier: Apache-2.0 */
/*
 * SDR labels (rust-fil-proofs create_label/single.rs, labeling_proof.rs;
 * ../shared/POREP.md Part B §4). A label of node v in layer l is
 *
 *   trim(SHA-256(replica_id ‖ l as u32 BE ‖ v as u64 BE ‖ 20 zero bytes ‖
 *                37 parent labels))
 *
 * where the 37 parents are the 6 DRG parents' labels of layer l repeated
 * six times then the first once (layer 1), or the 6 DRG parents' labels of
 * layer l and the 8 expander parents' labels of layer l - 1, repeated as
 * 14 + 14 + 9 (later layers). Node 0 hashes only the first 64 bytes.
 * Layers are numbered from 1; layer l's labels are row l - 1 of a column.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "filecoin/c1/c1.h"
#include "filecoin/graph/graph.h"
#include "filecoin/porep/registered-proof.h"

#define SDR_LABEL_BYTES 32u

/* The 37 parent labels of one label hash, as the labeling proof lists them. */
typedef uint8_t sdr_label_parents[POREP_LABEL_PARENTS][SDR_LABEL_BYTES];

/* Distinct parents a label of layer hashes: 6 DRG in layer 1, then 6 + 8. */
static inline unsigned sdr_label_distinct_parents(uint32_t layer) {
        return layer == 1 ? POREP_DRG_PARENTS : POREP_TOTAL_PARENTS;
}

/* The layer (1-based) parent i of a label in layer reads: DRG parents the
 * same layer, expander parents the one before. */
static inline uint32_t sdr_label_parent_layer(uint32_t layer, unsigned i) {
        return i < POREP_DRG_PARENTS ? layer : layer - 1;
}

/* Repeats out's first sdr_label_distinct_parents(layer) labels until it holds 37. */
void sdr_label_expand_parents(uint32_t layer, sdr_label_parents out);

/* The 37 parents of a challenge's label in layer, from the parent columns
 * of its vanilla proof. */
void sdr_label_parents_from_columns(const struct c1_vanilla_proof *p, uint32_t layer,
                                    sdr_label_parents out);

/* out = the label of node in layer from its 37 parent labels (ignored for
 * node 0, which hashes no parents). */
void sdr_label_hash(const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                    const sdr_label_parents parents, uint8_t out[SDR_LABEL_BYTES]);

/* Fills the 37 parent labels of node in layer (1-based) from labels, which
 * holds layer-major labels of every node (labels + (l - 1) * nodes * 32). */
void sdr_label_gather_parents(const struct sdr_graph *graph, const uint8_t *labels, uint64_t nodes,
                              uint32_t layer, uint64_t node, sdr_label_parents out);

/*
 * Labels every node of `layers` layers into labels (layers * nodes * 32
 * bytes, layer-major). Each layer is sequential (node v needs v - 1).
 * progress, when not NULL, is called after each layer. Returns 0 or -ENOMEM.
 */
int sdr_labels_create(const struct sdr_graph *graph, uint64_t nodes, unsigned layers,
                      const uint8_t replica_id[32], uint8_t *labels,
                      void (*progress)(unsigned layer_done, void *userdata), void *userdata);
