/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/c1/test-c1-util.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/log.h"

static uint8_t next_byte(uint64_t *state) {
        *state = *state * 6364136223846793005ull + 1442695040888963407ull;
        return (uint8_t)(*state >> 56);
}

static uint64_t next_below(uint64_t *state, uint64_t bound) {
        uint64_t v = 0;

        for (unsigned i = 0; i < 8; i++)
                v = v << 8 | next_byte(state);
        return v % bound;
}

static void fill_domains(c1_domain *d, uint32_t n, uint64_t *state) {
        for (uint32_t i = 0; i < n; i++)
                for (unsigned j = 0; j < 32; j++)
                        d[i][j] = next_byte(state);
}

static void fill_path(struct c1_path *path, uint64_t *state) {
        for (uint32_t i = 0; i < path->n_elements; i++) {
                struct c1_path_element *e = &path->elements[i];

                fill_domains(e->hashes, e->n_hashes, state);
                e->index = next_below(state, e->n_hashes + 1);
        }
}

static void fill_merkle(struct c1_merkle_proof *m, uint64_t *state) {
        fill_domains(&m->root, 1, state);
        fill_domains(&m->leaf, 1, state);
        fill_path(&m->base, state);
        fill_path(&m->sub, state); /* empty (0 elements) for Single */
        fill_path(&m->top, state);
}

static void fill_column(struct c1_column_proof *col, uint64_t nodes, uint64_t *state) {
        col->index = (uint32_t)next_below(state, nodes);
        fill_domains(col->rows, col->n_rows, state);
        fill_merkle(&col->inclusion, state);
}

static void fill_labeling(struct c1_labeling_proof *lp, uint32_t layer, uint64_t nodes,
                          uint64_t *state) {
        fill_domains(lp->parents, lp->n_parents, state);
        lp->layer_index = layer;
        lp->node = next_below(state, nodes);
}

struct c1_output *test_c1_filled(const char *proof_name, uint64_t seed) {
        const struct porep_config *cfg = porep_config_by_name(proof_name);
        struct c1_output *c1 = NULL;
        uint64_t state = seed, nodes;

        assert(cfg);
        if (c1_output_new(cfg, &c1) < 0)
                return NULL;
        nodes = cfg->nodes;
        for (size_t i = 0; i < (size_t)c1->n_partitions * c1->challenges_per_partition; i++) {
                struct c1_vanilla_proof *p = &c1->proofs[i];

                fill_merkle(&p->comm_d_proof, &state);
                fill_merkle(&p->comm_r_last_proof, &state);
                fill_column(&p->c_x, nodes, &state);
                for (unsigned j = 0; j < POREP_DRG_PARENTS; j++)
                        fill_column(&p->drg_parents[j], nodes, &state);
                for (unsigned j = 0; j < POREP_EXP_PARENTS; j++)
                        fill_column(&p->exp_parents[j], nodes, &state);
                for (uint32_t j = 0; j < p->n_labeling; j++)
                        fill_labeling(&p->labeling[j], j + 1, nodes, &state);
                fill_labeling(&p->encoding, cfg->layers, nodes, &state);
        }
        fill_domains(&c1->comm_r, 1, &state);
        fill_domains(&c1->comm_d, 1, &state);
        fill_domains(&c1->replica_id, 1, &state);
        fill_domains(&c1->seed, 1, &state);
        fill_domains(&c1->ticket, 1, &state);
        return c1;
}

static bool path_equal(const struct c1_path *a, const struct c1_path *b) {
        if (a->n_elements != b->n_elements)
                return false;
        for (uint32_t i = 0; i < a->n_elements; i++) {
                const struct c1_path_element *x = &a->elements[i], *y = &b->elements[i];

                if (x->n_hashes != y->n_hashes || x->index != y->index ||
                    memcmp(x->hashes, y->hashes, x->n_hashes * sizeof(c1_domain)) != 0)
                        return false;
        }
        return true;
}

static bool merkle_equal(const struct c1_merkle_proof *a, const struct c1_merkle_proof *b) {
        return a->kind == b->kind && memcmp(a->root, b->root, 32) == 0 &&
               memcmp(a->leaf, b->leaf, 32) == 0 && path_equal(&a->base, &b->base) &&
               path_equal(&a->sub, &b->sub) && path_equal(&a->top, &b->top);
}

static bool column_equal(const struct c1_column_proof *a, const struct c1_column_proof *b) {
        return a->index == b->index && a->n_rows == b->n_rows &&
               memcmp(a->rows, b->rows, a->n_rows * sizeof(c1_domain)) == 0 &&
               merkle_equal(&a->inclusion, &b->inclusion);
}

static bool labeling_equal(const struct c1_labeling_proof *a, const struct c1_labeling_proof *b) {
        return a->n_parents == b->n_parents && a->layer_index == b->layer_index &&
               a->node == b->node &&
               memcmp(a->parents, b->parents, a->n_parents * sizeof(c1_domain)) == 0;
}

static bool proof_equal(const struct c1_vanilla_proof *a, const struct c1_vanilla_proof *b) {
        if (!merkle_equal(&a->comm_d_proof, &b->comm_d_proof) ||
            !merkle_equal(&a->comm_r_last_proof, &b->comm_r_last_proof) ||
            !column_equal(&a->c_x, &b->c_x) || a->n_labeling != b->n_labeling ||
            !labeling_equal(&a->encoding, &b->encoding))
                return false;
        for (unsigned j = 0; j < POREP_DRG_PARENTS; j++)
                if (!column_equal(&a->drg_parents[j], &b->drg_parents[j]))
                        return false;
        for (unsigned j = 0; j < POREP_EXP_PARENTS; j++)
                if (!column_equal(&a->exp_parents[j], &b->exp_parents[j]))
                        return false;
        for (uint32_t j = 0; j < a->n_labeling; j++)
                if (!labeling_equal(&a->labeling[j], &b->labeling[j]))
                        return false;
        return true;
}

bool test_c1_equal(const struct c1_output *a, const struct c1_output *b) {
        if (a->cfg != b->cfg || a->n_partitions != b->n_partitions ||
            a->challenges_per_partition != b->challenges_per_partition ||
            a->synthetic_c1 != b->synthetic_c1 || memcmp(a->comm_r, b->comm_r, 32) != 0 ||
            memcmp(a->comm_d, b->comm_d, 32) != 0 || memcmp(a->replica_id, b->replica_id, 32) ||
            memcmp(a->seed, b->seed, 32) != 0 || memcmp(a->ticket, b->ticket, 32) != 0)
                return false;
        for (size_t i = 0; i < (size_t)a->n_partitions * a->challenges_per_partition; i++)
                if (!proof_equal(&a->proofs[i], &b->proofs[i]))
                        return false;
        return true;
}

static unsigned log_lines;
static char log_last[1024];

static void capture(int level, const char *message, void *userdata) {
        (void)level;
        (void)userdata;
        log_lines++;
        snprintf(log_last, sizeof(log_last), "%s", message);
}

void test_log_capture_start(void) {
        log_lines = 0;
        log_last[0] = '\0';
        log_set_sink(capture, NULL);
}

void test_log_capture_stop(void) {
        log_set_sink(NULL, NULL);
}

unsigned test_log_lines(void) {
        return log_lines;
}

const char *test_log_last(void) {
        return log_last;
}

double test_seconds_now(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
