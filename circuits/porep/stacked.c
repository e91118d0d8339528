/* SPDX-License-Identifier: Apache-2.0 */
/* The StackedDRG circuit: the global part, then each challenge in order. */
#include "stacked.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/gadgets/poseidon.h"
#include "circuits/gadgets/por.h"
#include "circuits/gadgets/uint64.h"
#include "circuits/porep/create-label.h"
#include "common/cleanup.h"
#include "common/log.h"

#define STACKED_MAX_LAYERS 11u

/* What every challenge shares with the global part. */
struct stacked_globals {
        struct cs_bool replica_id[256];
        struct cs_num comm_d, comm_c, comm_r_last;
};

/* A C1 value as an allocated num; -EINVAL (logged) when it is not below r. */
static int alloc_value(struct cs *cs, const c1_domain bytes, const char *what, unsigned k,
                       struct cs_num *ret) {
        fr_t v;

        if (!fr_from_le_bytes(&v, bytes))
                return log_error_errno(
                        -EINVAL, "C1 partition %u: %s is not below the field modulus", k, what);
        *ret = cs_num_alloc(cs, &v);
        return 0;
}

/* proof.rs l.87: replica_id, comm_d, comm_r, comm_r_last, comm_c, comm_r = H(comm_c, comm_r_last).
 */
static int synthesize_globals(struct cs *cs, const struct c1_output *c1, unsigned k,
                              struct stacked_globals *g) {
        const struct c1_vanilla_proof *first =
                &c1->proofs[(size_t)k * c1->challenges_per_partition];
        const struct poseidon_constants *h2 = poseidon_constants(2);
        struct cs_bool bits[CS_FR_NUM_BITS];
        struct cs_num replica_id, comm_r, pair[2], hash;
        int r;

        if (!h2)
                return -ENOMEM;
        if ((r = alloc_value(cs, c1->replica_id, "replica_id", k, &replica_id)) < 0)
                return r;
        cs_num_inputize(cs, &replica_id);
        cs_num_to_bits_le(cs, &replica_id, bits);
        cs_reverse_bit_numbering(bits, CS_FR_NUM_BITS, g->replica_id);

        if ((r = alloc_value(cs, c1->comm_d, "comm_d", k, &g->comm_d)) < 0)
                return r;
        cs_num_inputize(cs, &g->comm_d);
        if ((r = alloc_value(cs, c1->comm_r, "comm_r", k, &comm_r)) < 0)
                return r;
        cs_num_inputize(cs, &comm_r);
        if ((r = alloc_value(cs, first->comm_r_last_proof.root, "comm_r_last", k,
                             &g->comm_r_last)) < 0 ||
            (r = alloc_value(cs, first->c_x.inclusion.root, "comm_c", k, &g->comm_c)) < 0)
                return r;

        pair[0] = g->comm_c;
        pair[1] = g->comm_r_last;
        hash = cs_poseidon_hash(cs, h2, pair);
        cs_num_enforce_equal(cs, &comm_r, &hash);
        return 0;
}

/* Poseidon over a column of 2 or 11 rows (stacked/circuit/hash.rs). */
static int column_hash(struct cs *cs, const struct cs_num *rows, unsigned n, struct cs_num *ret) {
        const struct poseidon_constants *c = n == 2 || n == 11 ? poseidon_constants(n) : NULL;

        if (!c)
                return log_error_errno(-EINVAL, "a column of %u layers: expected 2 or 11", n);
        *ret = cs_poseidon_hash(cs, c, rows);
        return 0;
}

/* A parent's column: its rows allocated, hashed and opened in tree C. */
static int synthesize_column(struct cs *cs, const struct c1_column_proof *col, unsigned k,
                             const struct stacked_globals *g, struct cs_num *rows) {
        struct cs_num hash;
        int r;

        for (unsigned l = 0; l < col->n_rows; l++)
                if ((r = alloc_value(cs, col->rows[l], "a column row", k, &rows[l])) < 0)
                        return r;
        if ((r = column_hash(cs, rows, col->n_rows, &hash)) < 0)
                return r;
        return cs_por(cs, CS_POR_POSEIDON, &hash, &col->inclusion, &g->comm_c, false);
}

/* to_bits_le then reverse_bit_numbering: a label's 256 hashing-order bits. */
static void label_bits(struct cs *cs, const struct cs_num *x, struct cs_bool out[256]) {
        struct cs_bool bits[CS_FR_NUM_BITS];

        cs_num_to_bits_le(cs, x, bits);
        cs_reverse_bit_numbering(bits, CS_FR_NUM_BITS, out);
}

/* params.rs: layer 1 hashes 6 DRG parents x 6 + the first; later layers
 * the 6 DRG (this layer) and 8 expander (previous layer) parents as 14 + 14 + 9. */
static struct cs_num synthesize_label(struct cs *cs, const struct stacked_globals *g,
                                      struct cs_num drg[][STACKED_MAX_LAYERS],
                                      struct cs_num exp[][STACKED_MAX_LAYERS], unsigned layer,
                                      const struct cs_u64 *node) {
        struct cs_bool parents[POREP_LABEL_PARENTS][256];
        unsigned n = 0;

        for (unsigned i = 0; i < POREP_DRG_PARENTS; i++)
                label_bits(cs, &drg[i][layer - 1], parents[n++]);
        if (layer > 1)
                for (unsigned i = 0; i < POREP_EXP_PARENTS; i++)
                        label_bits(cs, &exp[i][layer - 2], parents[n++]);
        for (unsigned from = 0; n < POREP_LABEL_PARENTS; n++, from++)
                memcpy(parents[n],
                       parents[from % (layer > 1 ? POREP_TOTAL_PARENTS : POREP_DRG_PARENTS)],
                       sizeof(parents[n]));
        return cs_create_label(cs, g->replica_id, (const struct cs_bool(*)[256])parents, layer,
                               node);
}

/* encode.rs: enc = key + value, the row (key + value)·ONE = enc. */
static struct cs_num encode(struct cs *cs, const struct cs_num *key, const struct cs_num *value) {
        struct cs_num enc;
        struct cs_row *row;
        fr_t sum;

        fr_add(&sum, &key->value, &value->value);
        enc = cs_num_alloc(cs, &sum);
        row = cs_row_begin(cs);
        if (row) {
                cs_lc_add(cs, &row->a, key->var, cs_fr_one(cs));
                cs_lc_add(cs, &row->a, value->var, cs_fr_one(cs));
                cs_lc_add(cs, &row->b, CS_ONE, cs_fr_one(cs));
                cs_lc_add(cs, &row->c, enc.var, cs_fr_one(cs));
        }
        cs_row_end(cs);
        return enc;
}

/* The labels of the challenged node, the encoding in tree R, the column in tree C. */
static int synthesize_labels(struct cs *cs, const struct c1_vanilla_proof *p,
                             const struct stacked_globals *g, const struct cs_num *data_leaf,
                             struct cs_num drg[][STACKED_MAX_LAYERS],
                             struct cs_num exp[][STACKED_MAX_LAYERS], unsigned layers) {
        struct cs_num labels[STACKED_MAX_LAYERS], enc, column;
        struct cs_u64 challenge;
        int r;

        cs_u64_alloc(cs, &challenge, p->labeling[0].node);
        cs_u64_pack_into_input(cs, &challenge);
        for (unsigned l = 1; l <= layers; l++)
                labels[l - 1] = synthesize_label(cs, g, drg, exp, l, &challenge);

        enc = encode(cs, &labels[layers - 1], data_leaf);
        if ((r = cs_por(cs, CS_POR_POSEIDON, &enc, &p->comm_r_last_proof, &g->comm_r_last, false)) <
                    0 ||
            (r = column_hash(cs, labels, layers, &column)) < 0)
                return r;
        return cs_por(cs, CS_POR_POSEIDON, &column, &p->c_x.inclusion, &g->comm_c, false);
}

/* params.rs l.99: one challenge's rows. */
static int synthesize_challenge(struct cs *cs, const struct c1_vanilla_proof *p, unsigned k,
                                const struct stacked_globals *g) {
        struct cs_num data_leaf, drg[POREP_DRG_PARENTS][STACKED_MAX_LAYERS],
                exp[POREP_EXP_PARENTS][STACKED_MAX_LAYERS];
        unsigned layers = p->n_labeling;
        int r;

        if (layers == 0 || layers > STACKED_MAX_LAYERS)
                return log_error_errno(-EINVAL, "C1 partition %u: %u layers, expected 1 to %u", k,
                                       layers, STACKED_MAX_LAYERS);
        if ((r = alloc_value(cs, p->comm_d_proof.leaf, "a data leaf", k, &data_leaf)) < 0 ||
            (r = cs_por(cs, CS_POR_SHA256, &data_leaf, &p->comm_d_proof, &g->comm_d, false)) < 0)
                return r;
        for (unsigned i = 0; i < POREP_DRG_PARENTS; i++)
                if ((r = synthesize_column(cs, &p->drg_parents[i], k, g, drg[i])) < 0)
                        return r;
        for (unsigned i = 0; i < POREP_EXP_PARENTS; i++)
                if ((r = synthesize_column(cs, &p->exp_parents[i], k, g, exp[i])) < 0)
                        return r;
        return synthesize_labels(cs, p, g, &data_leaf, drg, exp, layers);
}

int porep_circuit_synthesize(struct cs *cs, const struct c1_output *c1, unsigned k) {
        struct stacked_globals g;
        unsigned cpp;
        int r;

        assert(cs);
        assert(c1);

        cpp = c1->challenges_per_partition;
        if (k >= c1->n_partitions)
                return log_error_errno(-EINVAL, "partition %u: the C1 output has %u", k,
                                       c1->n_partitions);
        if ((r = synthesize_globals(cs, c1, k, &g)) < 0)
                return r;
        for (unsigned i = 0; i < cpp; i++)
                if ((r = synthesize_challenge(cs, &c1->proofs[(size_t)k * cpp + i], k, &g)) < 0)
                        return r;
        return cs_error(cs);
}

/* Each challenge into a witness of its own, in parallel; then joined in order. */
static int challenge_witnesses(const struct c1_output *c1, unsigned k,
                               const struct stacked_globals *g, struct cs *all) {
        unsigned cpp = c1->challenges_per_partition;
        struct cs **pieces = calloc(cpp, sizeof(*pieces));
        int r = 0;

        if (!pieces)
                return -ENOMEM;
#pragma omp parallel for schedule(dynamic, 1)
        for (unsigned i = 0; i < cpp; i++) {
                int ri = cs_new(CS_WITNESS, &pieces[i]);
                if (ri == 0)
                        ri = synthesize_challenge(pieces[i], &c1->proofs[(size_t)k * cpp + i], k,
                                                  g);
                if (ri == 0)
                        ri = cs_error(pieces[i]);
                if (ri < 0) {
#pragma omp critical(stacked_error)
                        if (r == 0)
                                r = ri;
                }
        }
        for (unsigned i = 0; i < cpp; i++) {
                if (r == 0)
                        r = cs_witness_append(all, pieces[i]);
                cs_free(pieces[i]);
        }
        free(pieces);
        return r;
}

int porep_circuit_witness(const struct c1_output *c1, unsigned k, struct cs **ret) {
        _cleanup_(cs_freep) struct cs *cs = NULL;
        struct stacked_globals g;
        int r;

        assert(c1);
        assert(ret);

        if (k >= c1->n_partitions)
                return log_error_errno(-EINVAL, "partition %u: the C1 output has %u", k,
                                       c1->n_partitions);
        if ((r = cs_new(CS_WITNESS, &cs)) < 0 || (r = synthesize_globals(cs, c1, k, &g)) < 0 ||
            (r = challenge_witnesses(c1, k, &g, cs)) < 0)
                return r;
        *ret = TAKE_PTR(cs);
        return 0;
}

/* Challenge i checked with the global part before it, in a CS_VERIFY of its own. */
static int check_challenge(const struct c1_output *c1, unsigned k, unsigned i,
                           uint64_t *ret_global_rows, uint64_t *ret_rows, uint64_t *ret_bad) {
        _cleanup_(cs_freep) struct cs *cs = NULL;
        struct stacked_globals g;
        int r;

        if ((r = cs_new(CS_VERIFY, &cs)) < 0 || (r = synthesize_globals(cs, c1, k, &g)) < 0)
                return r;
        *ret_global_rows = cs_n_rows(cs);
        r = synthesize_challenge(cs, &c1->proofs[(size_t)k * c1->challenges_per_partition + i], k,
                                 &g);
        if (r == 0)
                r = cs_error(cs);
        *ret_rows = cs_n_rows(cs) - *ret_global_rows;
        *ret_bad = cs_first_unsatisfied(cs);
        return r;
}

int porep_circuit_check(const struct c1_output *c1, unsigned k, uint64_t *ret_row) {
        unsigned cpp;
        _cleanup_free_ uint64_t *rows = NULL, *bad = NULL, *global = NULL;
        uint64_t at;
        int r = 0;

        assert(c1 && ret_row);

        cpp = c1->challenges_per_partition;
        if (k >= c1->n_partitions)
                return log_error_errno(-EINVAL, "partition %u: the C1 output has %u", k,
                                       c1->n_partitions);
        rows = calloc(cpp, sizeof(*rows));
        bad = calloc(cpp, sizeof(*bad));
        global = calloc(cpp, sizeof(*global));
        if (!rows || !bad || !global)
                return -ENOMEM;
#pragma omp parallel for schedule(dynamic, 1)
        for (unsigned i = 0; i < cpp; i++) {
                int ri = check_challenge(c1, k, i, &global[i], &rows[i], &bad[i]);
                if (ri < 0) {
#pragma omp critical(stacked_check_error)
                        if (r == 0)
                                r = ri;
                }
        }
        if (r < 0)
                return r;
        /* Rows in the whole partition's numbering: the global part, then each challenge. */
        *ret_row = UINT64_MAX;
        at = global[0];
        for (unsigned i = 0; i < cpp && *ret_row == UINT64_MAX; at += rows[i], i++)
                if (bad[i] != UINT64_MAX)
                        *ret_row = bad[i] < global[i] ? bad[i] : at + bad[i] - global[i];
        return 0;
}

int porep_circuit_shape(struct cs *cs, const struct porep_config *cfg) {
        _cleanup_c1_output_ struct c1_output *blank = NULL;
        int r;

        assert(cs);
        assert(cfg);

        if ((r = c1_output_new(cfg, &blank)) < 0)
                return r;
        return porep_circuit_synthesize(cs, blank, 0);
}
