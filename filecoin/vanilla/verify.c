/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/vanilla/verify.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "filecoin/graph/graph.h"
#include "filecoin/porep/challenges.h"
#include "filecoin/poseidon/poseidon.h"
#include "filecoin/seal/labels.h"
#include "filecoin/vanilla/merkle-path.h"
#include "zk/fr.h"

#define VANILLA_MAX_CHALLENGES 18u

/* What one challenge's check needs; failures are written into `reason`. */
struct challenge_check {
        const struct c1_output *c1;
        const struct sdr_graph *graph;
        const uint8_t *comm_c, *comm_r_last;
        uint64_t challenge;
        char reason[192];
};

#define FAIL(chk, ...)                                                       \
        ({                                                                   \
                snprintf((chk)->reason, sizeof((chk)->reason), __VA_ARGS__); \
                -EBADMSG;                                                    \
        })

/* A tree C opening: the column hashes to the leaf, the path to comm_c at node. */
static int check_column(struct challenge_check *chk, const struct c1_column_proof *col,
                        uint64_t node, const char *name) {
        const struct porep_config *cfg = chk->c1->cfg;
        uint8_t hash[32], root[32];
        uint64_t at;

        if (col->index != node)
                return FAIL(chk, "%s.column.index: %u, expected node %llu", name, col->index,
                            (unsigned long long)node);
        if (col->n_rows != cfg->layers ||
            poseidon_hash_bytes(cfg->layers, (const uint8_t(*)[32])col->rows, hash) < 0)
                return FAIL(chk, "%s.column.rows: not %u field elements", name, cfg->layers);
        if (memcmp(hash, col->inclusion.leaf, 32) != 0)
                return FAIL(chk, "%s.inclusion_proof.leaf: not the column's hash", name);
        if (merkle_path_root_poseidon(cfg, &col->inclusion, root, &at) < 0)
                return FAIL(chk, "%s.inclusion_proof: path not of the tree's shape", name);
        if (memcmp(root, col->inclusion.root, 32) != 0 || memcmp(root, chk->comm_c, 32) != 0)
                return FAIL(chk, "%s.inclusion_proof: path does not lead to comm_c", name);
        if (at != node)
                return FAIL(chk, "%s.inclusion_proof: path opens node %llu, expected %llu", name,
                            (unsigned long long)at, (unsigned long long)node);
        return 0;
}

static int check_columns(struct challenge_check *chk, const struct c1_vanilla_proof *p,
                         const uint32_t parents[]) {
        char name[64];
        int r = check_column(chk, &p->c_x, chk->challenge, "replica_column_proofs.c_x");

        for (unsigned j = 0; r == 0 && j < POREP_DRG_PARENTS; j++) {
                snprintf(name, sizeof(name), "replica_column_proofs.drg_parents[%u]", j);
                r = check_column(chk, &p->drg_parents[j], parents[j], name);
        }
        for (unsigned j = 0; r == 0 && j < POREP_EXP_PARENTS; j++) {
                snprintf(name, sizeof(name), "replica_column_proofs.exp_parents[%u]", j);
                r = check_column(chk, &p->exp_parents[j], parents[POREP_DRG_PARENTS + j], name);
        }
        return r;
}

static int check_label_proof(struct challenge_check *chk, const struct c1_labeling_proof *lp,
                             uint32_t layer, const sdr_label_parents expected, uint8_t label[32],
                             const char *name) {
        if (lp->layer_index != layer || lp->node != chk->challenge)
                return FAIL(chk, "%s: layer %u node %llu, expected layer %u node %llu", name,
                            lp->layer_index, (unsigned long long)lp->node, layer,
                            (unsigned long long)chk->challenge);
        if (lp->n_parents != POREP_LABEL_PARENTS ||
            memcmp(lp->parents, expected, sizeof(sdr_label_parents)) != 0)
                return FAIL(chk, "%s.parents: not the parents' column rows", name);
        sdr_label_hash(chk->c1->replica_id, layer, lp->node, (const uint8_t(*)[32])lp->parents,
                       label);
        return 0;
}

static int check_labels(struct challenge_check *chk, const struct c1_vanilla_proof *p) {
        unsigned layers = chk->c1->cfg->layers;
        sdr_label_parents expected;
        uint8_t label[32];
        char name[64];
        int r;

        if (p->n_labeling != layers)
                return FAIL(chk, "labeling_proofs: %u proofs, expected %u", p->n_labeling, layers);
        for (uint32_t layer = 1; layer <= layers; layer++) {
                snprintf(name, sizeof(name), "labeling_proofs[%u]", layer - 1);
                sdr_label_parents_from_columns(p, layer, expected);
                r = check_label_proof(chk, &p->labeling[layer - 1], layer, expected, label, name);
                if (r < 0)
                        return r;
                if (memcmp(label, p->c_x.rows[layer - 1], 32) != 0)
                        return FAIL(chk,
                                    "%s: label does not hash to row %u of the challenged column",
                                    name, layer - 1);
        }
        return 0;
}

/* encoded = key + data, the key being the last layer's label. */
static int check_encoding(struct challenge_check *chk, const struct c1_vanilla_proof *p) {
        unsigned layers = chk->c1->cfg->layers;
        sdr_label_parents expected;
        uint8_t key[32], encoded[32];
        fr_t k, d;
        int r;

        sdr_label_parents_from_columns(p, layers, expected);
        r = check_label_proof(chk, &p->encoding, layers, expected, key, "encoding_proof");
        if (r < 0)
                return r;
        if (!fr_from_le_bytes(&k, key) || !fr_from_le_bytes(&d, p->comm_d_proof.leaf))
                return FAIL(chk, "comm_d_proofs.leaf: not a field element");
        fr_add(&k, &k, &d);
        fr_to_le_bytes(encoded, &k);
        if (memcmp(encoded, p->comm_r_last_proof.leaf, 32) != 0)
                return FAIL(chk, "comm_r_last_proof.leaf: not the encoding of the data leaf");
        return 0;
}

static int check_trees(struct challenge_check *chk, const struct c1_vanilla_proof *p) {
        const struct c1_output *c1 = chk->c1;
        uint8_t root[32];
        uint64_t at;

        if (merkle_path_root_sha254(&p->comm_d_proof, root, &at) < 0 ||
            p->comm_d_proof.base.n_elements != c1->cfg->tree_d_depth)
                return FAIL(chk, "comm_d_proofs: path not of tree D's shape");
        if (memcmp(root, p->comm_d_proof.root, 32) != 0 || memcmp(root, c1->comm_d, 32) != 0)
                return FAIL(chk, "comm_d_proofs: path does not lead to comm_d");
        if (at != chk->challenge)
                return FAIL(chk, "comm_d_proofs: path opens node %llu, expected %llu",
                            (unsigned long long)at, (unsigned long long)chk->challenge);
        if (merkle_path_root_poseidon(c1->cfg, &p->comm_r_last_proof, root, &at) < 0)
                return FAIL(chk, "comm_r_last_proof: path not of the tree's shape");
        if (memcmp(root, p->comm_r_last_proof.root, 32) != 0 ||
            memcmp(root, chk->comm_r_last, 32) != 0)
                return FAIL(chk, "comm_r_last_proof: path does not lead to comm_r_last");
        if (at != chk->challenge)
                return FAIL(chk, "comm_r_last_proof: path opens node %llu, expected %llu",
                            (unsigned long long)at, (unsigned long long)chk->challenge);
        return 0;
}

static int check_challenge(struct challenge_check *chk, const struct c1_vanilla_proof *p) {
        uint32_t parents[POREP_TOTAL_PARENTS];
        int r;

        if (memcmp(p->c_x.inclusion.root, chk->comm_c, 32) != 0)
                return FAIL(chk, "replica_column_proofs.c_x.inclusion_proof.root: not the first "
                                 "proof's comm_c");
        if (memcmp(p->comm_r_last_proof.root, chk->comm_r_last, 32) != 0)
                return FAIL(chk, "comm_r_last_proof.root: not the first proof's comm_r_last");
        sdr_graph_parents(chk->graph, chk->challenge, parents);
        r = check_trees(chk, p);
        if (r == 0)
                r = check_columns(chk, p, parents);
        if (r == 0)
                r = check_labels(chk, p);
        if (r == 0)
                r = check_encoding(chk, p);
        return r;
}

/* comm_r = H2(comm_c, comm_r_last) from the first proof of the partition. */
static int check_comm_r(const struct c1_output *c1, const struct c1_vanilla_proof *first) {
        uint8_t pair[2][32], comm_r[32];

        memcpy(pair[0], first->c_x.inclusion.root, 32);
        memcpy(pair[1], first->comm_r_last_proof.root, 32);
        if (poseidon_hash_bytes(2, (const uint8_t(*)[32])pair, comm_r) < 0)
                return -EBADMSG;
        return memcmp(comm_r, c1->comm_r, 32) == 0 ? 0 : -EBADMSG;
}

static int verify_partition(const struct c1_output *c1, const struct sdr_graph *graph, unsigned k,
                            const char *what) {
        const struct c1_vanilla_proof *proofs =
                c1->proofs + (size_t)k * c1->challenges_per_partition;
        unsigned cpp = c1->challenges_per_partition;
        /* 18 challenges a partition at most (32 and 64 GiB): on the stack. */
        uint64_t challenges[VANILLA_MAX_CHALLENGES];
        struct challenge_check checks[VANILLA_MAX_CHALLENGES];
        int r;

        if (cpp > VANILLA_MAX_CHALLENGES)
                return log_error_errno(EINVAL, "%s: %u challenges a partition, at most %u expected",
                                       what, cpp, VANILLA_MAX_CHALLENGES);
        if (check_comm_r(c1, &proofs[0]) < 0)
                return log_error_errno(
                        EBADMSG,
                        "%s: vanilla_proofs[%u]: comm_r is not Poseidon2(comm_c, comm_r_last)",
                        what, k);
        r = porep_challenges(c1->cfg, c1->replica_id, c1->seed, c1->comm_r, k, challenges);
        if (r < 0)
                return log_error_errno(r, "%s: partition %u: cannot derive its challenges: %m",
                                       what, k);
#pragma omp parallel for schedule(dynamic, 1)
        for (unsigned i = 0; i < cpp; i++) {
                checks[i] = (struct challenge_check){
                        .c1 = c1,
                        .graph = graph,
                        .comm_c = proofs[0].c_x.inclusion.root,
                        .comm_r_last = proofs[0].comm_r_last_proof.root,
                        .challenge = challenges[i],
                };
                if (check_challenge(&checks[i], &proofs[i]) == 0)
                        checks[i].reason[0] = '\0';
        }
        for (unsigned i = 0; i < cpp; i++)
                if (checks[i].reason[0])
                        return log_error_errno(
                                EBADMSG, "%s: vanilla_proofs[%u][%u] (challenge %llu).%s", what, k,
                                i, (unsigned long long)challenges[i], checks[i].reason);
        return 0;
}

int vanilla_verify(const struct c1_output *c1, const char *what) {
        struct sdr_graph graph;
        int r;

        assert(c1);
        assert(c1->cfg);
        assert(what);

        r = sdr_graph_init(&graph, c1->cfg);
        if (r < 0)
                return log_error_errno(r, "%s: %s: cannot build the SDR graph: %m", what,
                                       c1->cfg->name);
        for (unsigned k = 0; k < c1->n_partitions; k++) {
                r = verify_partition(c1, &graph, k, what);
                if (r < 0)
                        break;
        }

        return r;
}
