/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SDR graph of one registered proof: per node, 6 DRG parents (drg.h)
 * followed by 8 expander parents (feistel.h), the order of a parent cache
 * entry and of the labelling (../shared/POREP.md Part B §3).
 *
 * Expander parent i of node v is permute(8v + i) / 8 over a domain of
 * 8 * nodes; API V1_0_0 truncates the permuted value to u32 before dividing.
 *
 * A struct sdr_graph is read-only once initialised: any number of threads
 * may ask for parents at once.
 */
#pragma once

#include <stdint.h>

#include "filecoin/graph/drg.h"
#include "filecoin/graph/feistel.h"
#include "filecoin/porep/registered-proof.h"

struct sdr_graph {
        uint64_t nodes;
        enum porep_api_version api;
        uint8_t porep_id[POREP_ID_BYTES];
        struct drg drg;
        struct feistel feistel; /* over nodes * POREP_EXP_PARENTS */
};

/* The graph of a registered proof (its nodes, API version and porep_id). */
int sdr_graph_init(struct sdr_graph *g, const struct porep_config *cfg);
/* The same from plain values, for test graphs of any size: nodes in [2, 2^32);
 * -EINVAL otherwise. */
int sdr_graph_init_raw(struct sdr_graph *g, uint64_t nodes, enum porep_api_version api,
                       const uint8_t porep_id[POREP_ID_BYTES]);

/* out = the 6 DRG then the 8 expander parents of node (< g->nodes). */
void sdr_graph_parents(const struct sdr_graph *g, uint64_t node, uint32_t out[POREP_TOTAL_PARENTS]);
/* The entries of nodes [first, first + count) one after the other, 14 each:
 * the same values as sdr_graph_parents(), faster for runs of nodes. */
void sdr_graph_parents_range(const struct sdr_graph *g, uint64_t first, uint64_t count,
                             uint32_t *out);
/* Only the 8 expander parents. */
void sdr_graph_expander_parents(const struct sdr_graph *g, uint64_t node,
                                uint32_t out[POREP_EXP_PARENTS]);
