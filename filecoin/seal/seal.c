/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/seal/seal.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "filecoin/graph/graph.h"
#include "filecoin/porep/ids.h"
#include "filecoin/poseidon/poseidon.h"
#include "filecoin/seal/c1-build.h"
#include "filecoin/seal/labels.h"
#include "filecoin/tree/tree-d.h"
#include "filecoin/tree/tree-poseidon.h"

/* Everything sealing holds: the sizes 512 MiB needs fit in memory here. */
#define SEAL_MAX_SECTOR_BYTES (512ull << 20)

struct sealer {
        const struct porep_config *cfg;
        const uint8_t *data; /* NULL: zeros */
        uint8_t *labels;     /* layers x nodes x 32, layer-major */
        struct tree_d tree_d;
        struct poseidon_tree tree_c, tree_r;
};

static void stage(const struct seal_inputs *in, const char *what) {
        if (in->progress)
                in->progress(what, in->userdata);
}

static void data_node(const struct sealer *s, uint64_t node, uint8_t out[32]) {
        if (s->data)
                memcpy(out, s->data + node * 32, 32);
        else
                memset(out, 0, 32);
}

static void path_from_tree(const struct tree_path *tp, struct c1_build_path *out) {
        out->n_levels = tp->n_levels;
        for (unsigned j = 0; j < tp->n_levels; j++) {
                out->arity[j] = tp->levels[j].n_hashes + 1;
                out->index[j] = (unsigned)tp->levels[j].index;
                memcpy(out->siblings[j], tp->levels[j].hashes, (size_t)tp->levels[j].n_hashes * 32);
        }
}

static void source_column(void *userdata, uint64_t node, uint8_t (*rows)[32]) {
        const struct sealer *s = userdata;

        for (unsigned l = 0; l < s->cfg->layers; l++)
                memcpy(rows[l], s->labels + ((uint64_t)l * s->cfg->nodes + node) * 32, 32);
}

static int source_open_d(void *userdata, uint64_t node, uint8_t leaf[32],
                         struct c1_build_path *path) {
        const struct sealer *s = userdata;
        struct tree_path tp;
        int r = tree_d_path(&s->tree_d, node, &tp);

        if (r < 0)
                return r;
        data_node(s, node, leaf);
        path_from_tree(&tp, path);
        return 0;
}

static int open_poseidon(const struct poseidon_tree *t, uint64_t node, uint8_t leaf[32],
                         struct c1_build_path *path) {
        struct tree_path tp;
        int r = poseidon_tree_path(t, node, &tp);

        if (r < 0)
                return r;
        fr_to_le_bytes(leaf, &t->nodes[t->level_offset[0] + node]);
        path_from_tree(&tp, path);
        return 0;
}

static int source_open_c(void *userdata, uint64_t node, uint8_t leaf[32],
                         struct c1_build_path *path) {
        return open_poseidon(&((struct sealer *)userdata)->tree_c, node, leaf, path);
}

static int source_open_r(void *userdata, uint64_t node, uint8_t leaf[32],
                         struct c1_build_path *path) {
        return open_poseidon(&((struct sealer *)userdata)->tree_r, node, leaf, path);
}

/* Tree C leaves: Poseidon of each column; tree R leaves: last label + data. */
static int fill_trees(struct sealer *s) {
        const struct porep_config *cfg = s->cfg;
        const struct poseidon_constants *pc = poseidon_constants(cfg->layers);
        struct tree_shape shape;
        int r, bad = 0;

        if (!pc)
                return -ENOMEM;
        tree_shape_from_config(cfg, &shape);
        r = poseidon_tree_init(&s->tree_c, &shape, NULL);
        if (r == 0)
                r = poseidon_tree_init(&s->tree_r, &shape, NULL);
        if (r < 0)
                return r;
#pragma omp parallel for schedule(static) reduction(| : bad)
        for (uint64_t node = 0; node < cfg->nodes; node++) {
                fr_t column[11], d;
                uint8_t rows[11][32], data[32];

                source_column(s, node, rows);
                for (unsigned l = 0; l < cfg->layers; l++)
                        bad |= !fr_from_le_bytes(&column[l], rows[l]);
                poseidon_hash(pc, column, &s->tree_c.nodes[s->tree_c.level_offset[0] + node]);
                data_node(s, node, data);
                bad |= !fr_from_le_bytes(&d, data);
                fr_add(&s->tree_r.nodes[s->tree_r.level_offset[0] + node], &column[cfg->layers - 1],
                       &d);
        }
        if (bad)
                return -EINVAL;
        poseidon_tree_build(&s->tree_c);
        poseidon_tree_build(&s->tree_r);
        return 0;
}

static void sealer_done(struct sealer *s) {
        free(s->labels);
        tree_d_done(&s->tree_d);
        poseidon_tree_done(&s->tree_c);
        poseidon_tree_done(&s->tree_r);
}

static int seal_layers(const struct seal_inputs *in, struct sealer *s,
                       struct c1_build_inputs *build, struct c1_build_source *src) {
        const struct porep_config *cfg = in->cfg;
        uint8_t *zeros = NULL;
        struct sdr_graph graph;
        uint8_t porep_id[32];
        int r;

        stage(in, "tree D");
        if (!in->data && !(zeros = calloc(1, cfg->sector_bytes)))
                return -ENOMEM;
        r = tree_d_build_from_data(&s->tree_d, in->data ? in->data : zeros, cfg->sector_bytes);
        free(zeros);
        if (r < 0)
                return r;
        tree_d_root(&s->tree_d, src->comm_d);
        porep_id_bytes(cfg, porep_id);
        porep_replica_id(in->prover_id, in->sector_id, in->ticket, src->comm_d, porep_id,
                         build->replica_id);
        stage(in, "labels");
        r = sdr_graph_init(&graph, cfg);
        if (r < 0)
                return r;
        s->labels = malloc((size_t)cfg->layers * cfg->nodes * 32);
        if (!s->labels)
                return -ENOMEM;
        r = sdr_labels_create(&graph, cfg->nodes, cfg->layers, build->replica_id, s->labels, NULL,
                              NULL);
        if (r < 0)
                return r;
        stage(in, "trees C and R");
        r = fill_trees(s);
        if (r < 0)
                return r;
        poseidon_tree_root_bytes(&s->tree_c, src->comm_c);
        poseidon_tree_root_bytes(&s->tree_r, src->comm_r_last);
        return 0;
}

int porep_seal(const struct seal_inputs *in, struct c1_output **ret) {
        struct sealer s = {0};
        struct c1_build_inputs build = {0};
        struct c1_build_source src = {.userdata = &s,
                                      .column = source_column,
                                      .open_d = source_open_d,
                                      .open_c = source_open_c,
                                      .open_r = source_open_r};
        int r;

        assert(in && in->cfg);
        assert(ret);

        s.cfg = build.cfg = in->cfg;
        s.data = in->data;
        if (in->cfg->sector_bytes > SEAL_MAX_SECTOR_BYTES || in->cfg->layers > 11)
                return -EINVAL;
        for (uint64_t node = 0; in->data && node < in->cfg->nodes; node++)
                if (in->data[node * 32 + 31] & 0xc0)
                        return -EINVAL; /* not Fr32-padded */
        memcpy(build.seed, in->seed, 32);
        memcpy(build.ticket, in->ticket, 32);
        r = seal_layers(in, &s, &build, &src);
        if (r == 0) {
                stage(in, "vanilla proofs");
                r = c1_build(&build, &src, ret);
        }
        sealer_done(&s);
        return r;
}
