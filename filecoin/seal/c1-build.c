/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/seal/c1-build.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "filecoin/graph/graph.h"
#include "filecoin/porep/challenges.h"
#include "filecoin/seal/labels.h"
#include "filecoin/tree/tree-poseidon.h"

/* Copies an opened path into a proof already shaped by c1_output_new: the
 * base levels, then the sub level, then the top level. */
static int fill_merkle(struct c1_merkle_proof *m, const uint8_t leaf[32],
                       const struct c1_build_path *path, const uint8_t root[32]) {
        struct c1_path *parts[3] = {&m->base, &m->sub, &m->top};
        unsigned level = 0;

        memcpy(m->leaf, leaf, 32);
        memcpy(m->root, root, 32);
        for (unsigned p = 0; p <= (unsigned)m->kind; p++)
                for (uint32_t e = 0; e < parts[p]->n_elements; e++, level++) {
                        struct c1_path_element *el = &parts[p]->elements[e];

                        if (level >= path->n_levels || el->n_hashes != path->arity[level] - 1)
                                return -EINVAL;
                        memcpy(el->hashes, path->siblings[level], (size_t)el->n_hashes * 32);
                        el->index = path->index[level];
                }
        return level == path->n_levels ? 0 : -EINVAL;
}

static int fill_column(const struct c1_build_source *src, uint64_t node,
                       struct c1_column_proof *col) {
        struct c1_build_path path;
        uint8_t leaf[32];
        int r;

        col->index = (uint32_t)node;
        src->column(src->userdata, node, col->rows);
        r = src->open_c(src->userdata, node, leaf, &path);
        return r < 0 ? r : fill_merkle(&col->inclusion, leaf, &path, src->comm_c);
}

/* The labeling proof of layer from the parents' column rows (prove_layers_generate). */
static void fill_label_proof(const struct c1_vanilla_proof *p, uint32_t layer, uint64_t node,
                             struct c1_labeling_proof *lp) {
        lp->layer_index = layer;
        lp->node = node;
        sdr_label_parents_from_columns(p, layer, (uint8_t(*)[SDR_LABEL_BYTES])lp->parents);
}

static int fill_challenge(const struct c1_build_inputs *in, const struct c1_build_source *src,
                          const struct sdr_graph *graph, uint64_t challenge,
                          struct c1_vanilla_proof *p) {
        uint32_t parents[POREP_TOTAL_PARENTS];
        struct c1_build_path path;
        uint8_t leaf[32];
        int r;

        r = src->open_d(src->userdata, challenge, leaf, &path);
        if (r == 0)
                r = fill_merkle(&p->comm_d_proof, leaf, &path, src->comm_d);
        if (r == 0)
                r = src->open_r(src->userdata, challenge, leaf, &path);
        if (r == 0)
                r = fill_merkle(&p->comm_r_last_proof, leaf, &path, src->comm_r_last);
        if (r == 0)
                r = fill_column(src, challenge, &p->c_x);
        sdr_graph_parents(graph, challenge, parents);
        for (unsigned j = 0; r == 0 && j < POREP_DRG_PARENTS; j++)
                r = fill_column(src, parents[j], &p->drg_parents[j]);
        for (unsigned j = 0; r == 0 && j < POREP_EXP_PARENTS; j++)
                r = fill_column(src, parents[POREP_DRG_PARENTS + j], &p->exp_parents[j]);
        for (uint32_t l = 1; r == 0 && l <= in->cfg->layers; l++)
                fill_label_proof(p, l, challenge, &p->labeling[l - 1]);
        if (r == 0)
                fill_label_proof(p, in->cfg->layers, challenge, &p->encoding);
        return r;
}

int c1_build(const struct c1_build_inputs *in, const struct c1_build_source *src,
             struct c1_output **ret) {
        const struct porep_config *cfg;
        _cleanup_free_ uint64_t *challenges = NULL;
        struct c1_output *c1 = NULL;
        struct sdr_graph graph;
        int r;

        assert(in && in->cfg);
        assert(src);
        assert(ret);

        cfg = in->cfg;
        r = sdr_graph_init(&graph, cfg);
        if (r == 0)
                r = c1_output_new(cfg, &c1);
        if (r < 0)
                return r;
        memcpy(c1->comm_d, src->comm_d, 32);
        memcpy(c1->replica_id, in->replica_id, 32);
        memcpy(c1->seed, in->seed, 32);
        memcpy(c1->ticket, in->ticket, 32);
        tree_comm_r(src->comm_c, src->comm_r_last, c1->comm_r);
        challenges = calloc(cfg->challenges_per_partition, sizeof(uint64_t));
        if (!challenges)
                r = -ENOMEM;
        for (unsigned k = 0; r == 0 && k < cfg->partitions; k++) {
                r = porep_challenges(cfg, c1->replica_id, c1->seed, c1->comm_r, k, challenges);
                for (unsigned i = 0; r == 0 && i < cfg->challenges_per_partition; i++)
                        r = fill_challenge(
                                in, src, &graph, challenges[i],
                                &c1->proofs[(size_t)k * cfg->challenges_per_partition + i]);
        }
        if (r < 0) {
                c1_output_free(c1);
                return r;
        }
        *ret = c1;
        return 0;
}
