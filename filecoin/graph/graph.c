/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/graph/graph.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "common/log.h"

int sdr_graph_init_raw(struct sdr_graph *g, uint64_t nodes, enum porep_api_version api,
                       const uint8_t porep_id[POREP_ID_BYTES]) {
        assert(g);
        assert(porep_id);

        /* The reference keeps node indexes in u32 (StackedGraph::new). */
        if (nodes < 2 || nodes > UINT32_MAX)
                return log_error_errno(EINVAL, "SDR graph: %" PRIu64 " nodes, expected 2..2^32-1",
                                       nodes);

        *g = (struct sdr_graph){.nodes = nodes, .api = api};
        memcpy(g->porep_id, porep_id, POREP_ID_BYTES);
        drg_init(&g->drg, porep_id, api);
        feistel_init(&g->feistel, porep_id, nodes * POREP_EXP_PARENTS);
        return 0;
}

int sdr_graph_init(struct sdr_graph *g, const struct porep_config *cfg) {
        uint8_t porep_id[POREP_ID_BYTES];

        assert(g);
        assert(cfg);

        porep_id_bytes(cfg, porep_id);
        return sdr_graph_init_raw(g, cfg->nodes, cfg->api, porep_id);
}

/* Expander parents from permuted indexes: V1_0_0 `transformed as u32 / 8`,
 * which differs from the u64 division once 8 * nodes exceeds 2^32 (sectors
 * over 16 GiB); V1_1_0 and later divide the u64. */
static uint32_t expander_parent(enum porep_api_version api, uint64_t permuted) {
        if (api == POREP_API_V1_0_0)
                return (uint32_t)permuted / POREP_EXP_PARENTS;
        return (uint32_t)(permuted / POREP_EXP_PARENTS);
}

void sdr_graph_expander_parents(const struct sdr_graph *g, uint64_t node,
                                uint32_t out[POREP_EXP_PARENTS]) {
        uint64_t permuted[POREP_EXP_PARENTS];

        assert(g);
        assert(node < g->nodes);
        assert(out);

        feistel_permute_range(&g->feistel, node * POREP_EXP_PARENTS, POREP_EXP_PARENTS, permuted);
        for (unsigned i = 0; i < POREP_EXP_PARENTS; i++)
                out[i] = expander_parent(g->api, permuted[i]);
}

void sdr_graph_parents(const struct sdr_graph *g, uint64_t node,
                       uint32_t out[POREP_TOTAL_PARENTS]) {
        assert(g);
        assert(node < g->nodes);
        assert(out);

        drg_parents(&g->drg, (uint32_t)node, out);
        sdr_graph_expander_parents(g, node, out + POREP_DRG_PARENTS);
}

/* Nodes whose expander indexes are permuted in one run: enough to keep the
 * lanes busy through the cycle walking, small enough for the stack. */
#define RANGE_RUN_NODES 64u

void sdr_graph_parents_range(const struct sdr_graph *g, uint64_t first, uint64_t count,
                             uint32_t *out) {
        uint64_t permuted[RANGE_RUN_NODES * POREP_EXP_PARENTS];

        assert(g);
        assert(out || count == 0);
        assert(first <= g->nodes && count <= g->nodes - first);

        for (uint64_t done = 0; done < count; done += RANGE_RUN_NODES) {
                uint64_t run = count - done < RANGE_RUN_NODES ? count - done : RANGE_RUN_NODES;

                feistel_permute_range(&g->feistel, (first + done) * POREP_EXP_PARENTS,
                                      run * POREP_EXP_PARENTS, permuted);
                for (uint64_t i = 0; i < run; i++) {
                        uint32_t *entry = out + (done + i) * POREP_TOTAL_PARENTS;

                        drg_parents(&g->drg, (uint32_t)(first + done + i), entry);
                        for (unsigned j = 0; j < POREP_EXP_PARENTS; j++)
                                entry[POREP_DRG_PARENTS + j] = expander_parent(
                                        g->api, permuted[i * POREP_EXP_PARENTS + j]);
                }
        }
}
