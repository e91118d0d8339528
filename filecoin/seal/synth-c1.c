/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/seal/synth-c1.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "filecoin/graph/graph.h"
#include "filecoin/porep/challenges.h"
#include "filecoin/porep/ids.h"
#include "filecoin/poseidon/poseidon.h"
#include "filecoin/seal/c1-build.h"
#include "filecoin/seal/labels.h"
#include "filecoin/seal/sparse-tree.h"
#include "filecoin/sha256/sha256.h"

#define SYNTH_MAX_LAYERS 11u

struct synth_column {
        uint64_t node;
        bool challenged;
        uint8_t rows[SYNTH_MAX_LAYERS][32];
};

struct synth {
        const struct porep_config *cfg;
        struct sdr_graph graph;
        struct synth_column *columns; /* sorted by node */
        size_t n_columns;
        uint8_t zero_hash[64][32]; /* zero_hash[j]: a level-j node of the zero tree D */
        struct sparse_tree tree_c, tree_r;
};

static int column_cmp(const void *a, const void *b) {
        uint64_t x = ((const struct synth_column *)a)->node,
                 y = ((const struct synth_column *)b)->node;

        return x < y ? -1 : x > y;
}

static struct synth_column *find_column(const struct synth *s, uint64_t node) {
        struct synth_column key = {.node = node};

        return bsearch(&key, s->columns, s->n_columns, sizeof(key), column_cmp);
}

/* The unchecked label of (node, layer): trim(SHA-256(key ‖ "label" ‖ layer ‖ node)). */
static void derived_label(const uint8_t key[32], unsigned layer, uint64_t node, uint8_t out[32]) {
        uint8_t msg[32 + 5 + 4 + 8];

        memcpy(msg, key, 32);
        memcpy(msg + 32, "label", 5);
        for (unsigned i = 0; i < 4; i++)
                msg[37 + i] = (uint8_t)(layer >> (8 * i));
        for (unsigned i = 0; i < 8; i++)
                msg[41 + i] = (uint8_t)(node >> (8 * i));
        sha256_digest(msg, sizeof(msg), out);
        sha254_trim(out);
}

/* Every challenge of every partition and its 14 parents, one column each. */
static int collect_columns(struct synth *s, const uint8_t replica_id[32], const uint8_t seed[32],
                           const uint8_t key[32]) {
        const struct porep_config *cfg = s->cfg;
        unsigned cpp = cfg->challenges_per_partition;
        size_t max = (size_t)cfg->partitions * cpp * (1 + POREP_TOTAL_PARENTS), n = 0;
        _cleanup_free_ uint64_t *challenges = calloc(cpp, sizeof(uint64_t));
        struct synth_column *cols = calloc(max, sizeof(*cols));
        uint8_t no_comm_r[32] = {0};

        if (!challenges || !cols) {
                free(cols);
                return -ENOMEM;
        }
        for (unsigned k = 0; k < cfg->partitions; k++) {
                int r = porep_challenges(cfg, replica_id, seed, no_comm_r, k, challenges);
                if (r < 0) {
                        free(cols);
                        return r;
                }
                for (unsigned i = 0; i < cpp; i++) {
                        uint32_t parents[POREP_TOTAL_PARENTS];

                        sdr_graph_parents(&s->graph, challenges[i], parents);
                        cols[n++] =
                                (struct synth_column){.node = challenges[i], .challenged = true};
                        for (unsigned j = 0; j < POREP_TOTAL_PARENTS; j++)
                                cols[n++] = (struct synth_column){.node = parents[j]};
                }
        }
        qsort(cols, n, sizeof(*cols), column_cmp);
        s->n_columns = 0;
        for (size_t i = 0; i < n; i++) {
                struct synth_column *last = s->n_columns ? &cols[s->n_columns - 1] : NULL;

                if (last && last->node == cols[i].node) {
                        last->challenged |= cols[i].challenged;
                        continue;
                }
                cols[s->n_columns++] = cols[i];
        }
        for (size_t i = 0; i < s->n_columns; i++)
                for (unsigned l = 1; l <= cfg->layers; l++)
                        derived_label(key, l, cols[i].node, cols[i].rows[l - 1]);
        s->columns = cols;
        return 0;
}

/* Challenged labels from their parents' columns, layer by layer; within a
 * layer in node order, since DRG parents precede their node. */
static void label_challenged(struct synth *s, const uint8_t replica_id[32]) {
        sdr_label_parents parents;

        for (unsigned layer = 1; layer <= s->cfg->layers; layer++)
                for (size_t i = 0; i < s->n_columns; i++) {
                        struct synth_column *c = &s->columns[i];
                        uint32_t idx[POREP_TOTAL_PARENTS];

                        if (!c->challenged)
                                continue;
                        sdr_graph_parents(&s->graph, c->node, idx);
                        for (unsigned j = 0; j < sdr_label_distinct_parents(layer); j++)
                                memcpy(parents[j],
                                       find_column(s, idx[j])
                                               ->rows[sdr_label_parent_layer(layer, j) - 1],
                                       32);
                        sdr_label_expand_parents(layer, parents);
                        sdr_label_hash(replica_id, layer, c->node, (const uint8_t(*)[32])parents,
                                       c->rows[layer - 1]);
                }
}

/* Trees C and R: arity 8 over each base tree, then the sub and top levels. */
static void tree_shape(const struct porep_config *cfg, struct sparse_tree *t, const uint8_t key[32],
                       uint8_t tag) {
        unsigned n = 0;

        for (uint64_t leaves = porep_tree_base_leaves(cfg); leaves > 1; leaves /= cfg->base_arity)
                t->arity[n++] = cfg->base_arity;
        if (cfg->sub_arity)
                t->arity[n++] = cfg->sub_arity;
        if (cfg->top_arity)
                t->arity[n++] = cfg->top_arity;
        t->n_levels = n;
        t->hash = SPARSE_TREE_POSEIDON;
        memcpy(t->filler_key, key, 32);
        t->filler_key[0] ^= tag; /* trees C and R get different fillers */
}

static int build_trees(struct synth *s, const uint8_t key[32]) {
        const struct porep_config *cfg = s->cfg;
        _cleanup_free_ struct sparse_tree_node *c = calloc(s->n_columns, sizeof(*c));
        _cleanup_free_ struct sparse_tree_node *r = calloc(s->n_columns, sizeof(*r));
        size_t n_r = 0;
        int ret;

        if (!c || !r)
                return -ENOMEM;
        for (size_t i = 0; i < s->n_columns; i++) {
                c[i].index = s->columns[i].node;
                if (poseidon_hash_bytes(cfg->layers, (const uint8_t(*)[32])s->columns[i].rows,
                                        c[i].hash) < 0)
                        return -EINVAL;
                if (!s->columns[i].challenged)
                        continue;
                /* The sector is zeros: the replica node is the last layer's label. */
                r[n_r].index = s->columns[i].node;
                memcpy(r[n_r++].hash, s->columns[i].rows[cfg->layers - 1], 32);
        }
        tree_shape(cfg, &s->tree_c, key, 'C');
        tree_shape(cfg, &s->tree_r, key, 'R');
        ret = sparse_tree_build(&s->tree_c, c, s->n_columns);
        if (ret == 0)
                ret = sparse_tree_build(&s->tree_r, r, n_r);
        return ret;
}

static void source_column(void *userdata, uint64_t node, uint8_t (*rows)[32]) {
        const struct synth *s = userdata;
        const struct synth_column *c = find_column(s, node);

        assert(c);
        memcpy(rows, c->rows, (size_t)s->cfg->layers * 32);
}

static int open_sparse(const struct sparse_tree *t, uint64_t node, uint8_t leaf[32],
                       struct c1_build_path *path) {
        int r = sparse_tree_path(t, node, path->siblings, path->index);

        if (r < 0)
                return r;
        path->n_levels = t->n_levels;
        memcpy(path->arity, t->arity, sizeof(path->arity));
        sparse_tree_node_hash(t, 0, node, leaf);
        return 0;
}

static int source_open_c(void *userdata, uint64_t node, uint8_t leaf[32],
                         struct c1_build_path *path) {
        return open_sparse(&((struct synth *)userdata)->tree_c, node, leaf, path);
}

static int source_open_r(void *userdata, uint64_t node, uint8_t leaf[32],
                         struct c1_build_path *path) {
        return open_sparse(&((struct synth *)userdata)->tree_r, node, leaf, path);
}

/* Tree D of a zero sector: every sibling is the zero subtree of its level. */
static int source_open_d(void *userdata, uint64_t node, uint8_t leaf[32],
                         struct c1_build_path *path) {
        const struct synth *s = userdata;

        memset(leaf, 0, 32);
        path->n_levels = s->cfg->tree_d_depth;
        for (unsigned j = 0; j < path->n_levels; j++) {
                path->arity[j] = 2;
                path->index[j] = (unsigned)((node >> j) & 1);
                memcpy(path->siblings[j][0], s->zero_hash[j], 32);
        }
        return 0;
}

static void synth_done(struct synth *s) {
        sparse_tree_free(&s->tree_c);
        sparse_tree_free(&s->tree_r);
        free(s->columns);
}

int synth_c1_create(const struct synth_c1_inputs *in, struct c1_output **ret) {
        struct c1_build_source src = {.column = source_column,
                                      .open_c = source_open_c,
                                      .open_r = source_open_r,
                                      .open_d = source_open_d};
        struct c1_build_inputs build = {0};
        struct synth s = {0};
        uint8_t porep_id[32];
        int r;

        assert(in && in->cfg);
        assert(ret);

        build.cfg = s.cfg = in->cfg;

        if (in->cfg->challenges != POREP_CHALLENGES_INTERACTIVE ||
            in->cfg->layers > SYNTH_MAX_LAYERS)
                return -EOPNOTSUPP;
        r = sdr_graph_init(&s.graph, in->cfg);
        if (r < 0)
                return r;
        for (unsigned j = 0; j < in->cfg->tree_d_depth; j++)
                sha254_pair(s.zero_hash[j], s.zero_hash[j], s.zero_hash[j + 1]);
        memcpy(src.comm_d, s.zero_hash[in->cfg->tree_d_depth], 32);
        porep_id_bytes(in->cfg, porep_id);
        porep_replica_id(in->prover_id, in->sector_id, in->ticket, src.comm_d, porep_id,
                         build.replica_id);
        memcpy(build.seed, in->seed, 32);
        memcpy(build.ticket, in->ticket, 32);
        r = collect_columns(&s, build.replica_id, in->seed, in->key);
        if (r == 0) {
                label_challenged(&s, build.replica_id);
                r = build_trees(&s, in->key);
        }
        if (r == 0) {
                sparse_tree_root(&s.tree_c, src.comm_c);
                sparse_tree_root(&s.tree_r, src.comm_r_last);
                src.userdata = &s;
                r = c1_build(&build, &src, ret);
        }
        if (r == 0)
                (*ret)->synthetic_c1 = true;
        synth_done(&s);
        return r;
}
