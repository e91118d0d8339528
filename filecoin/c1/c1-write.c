/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The C1 output as serde_json::to_vec writes it: compact (no blanks),
 * struct fields in declaration order, enums externally tagged
 * ({"Sub":{...}}), PhantomData in Column as null, the others skipped,
 * integers in plain decimal.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/cleanup.h"
#include "filecoin/c1/c1-internal.h"
#include "filecoin/c1/c1.h"

bool c1_buffer_reserve(struct c1_buffer *b, size_t n) {
        size_t cap;
        char *data;

        if (b->failed)
                return false;
        if (b->cap - b->len >= n)
                return true;
        cap = b->cap ? b->cap : 4096;
        while (cap - b->len < n)
                cap *= 2;
        data = realloc(b->data, cap);
        if (!data) {
                b->failed = true;
                return false;
        }
        b->data = data;
        b->cap = cap;
        return true;
}

void c1_buffer_add(struct c1_buffer *b, const void *bytes, size_t n) {
        if (!c1_buffer_reserve(b, n))
                return;
        memcpy(b->data + b->len, bytes, n);
        b->len += n;
}

void c1_buffer_add_str(struct c1_buffer *b, const char *s) {
        c1_buffer_add(b, s, strlen(s));
}

void c1_buffer_add_u64(struct c1_buffer *b, uint64_t v) {
        char digits[20];
        size_t n = 0;

        do {
                digits[sizeof(digits) - ++n] = (char)('0' + v % 10);
                v /= 10;
        } while (v);
        c1_buffer_add(b, digits + sizeof(digits) - n, n);
}

int c1_buffer_finish(struct c1_buffer *b, char **ret, size_t *ret_len) {
        if (b->failed) {
                free(b->data);
                *b = (struct c1_buffer){0};
                return -ENOMEM;
        }
        *ret = b->data;
        *ret_len = b->len;
        *b = (struct c1_buffer){0};
        return 0;
}

int c1_fwrite_all(FILE *f, const char *buf, size_t len) {
        if (len && fwrite(buf, 1, len, f) != len)
                return -EIO;
        return fflush(f) == 0 ? 0 : -EIO;
}

/* [b0,b1,...,b31]: the hot loop of a 40 MB write, so no per-byte calls. */
static void write_domain(struct c1_buffer *b, const c1_domain d) {
        char *out;

        if (!c1_buffer_reserve(b, 2 + 32 * 4))
                return;
        out = b->data + b->len;
        *out++ = '[';
        for (unsigned i = 0; i < 32; i++) {
                unsigned v = d[i];

                if (i)
                        *out++ = ',';
                if (v >= 100)
                        *out++ = (char)('0' + v / 100);
                if (v >= 10)
                        *out++ = (char)('0' + v / 10 % 10);
                *out++ = (char)('0' + v % 10);
        }
        *out++ = ']';
        b->len = (size_t)(out - b->data);
}

static void write_domains(struct c1_buffer *b, const c1_domain *d, uint32_t n) {
        c1_buffer_add_str(b, "[");
        for (uint32_t i = 0; i < n; i++) {
                if (i)
                        c1_buffer_add_str(b, ",");
                write_domain(b, d[i]);
        }
        c1_buffer_add_str(b, "]");
}

static void write_path(struct c1_buffer *b, const struct c1_path *path) {
        c1_buffer_add_str(b, "{\"path\":[");
        for (uint32_t i = 0; i < path->n_elements; i++) {
                const struct c1_path_element *e = &path->elements[i];

                c1_buffer_add_str(b, i ? ",{\"hashes\":" : "{\"hashes\":");
                write_domains(b, e->hashes, e->n_hashes);
                c1_buffer_add_str(b, ",\"index\":");
                c1_buffer_add_u64(b, e->index);
                c1_buffer_add_str(b, "}");
        }
        c1_buffer_add_str(b, "]}");
}

static void write_root_leaf(struct c1_buffer *b, const struct c1_merkle_proof *proof) {
        c1_buffer_add_str(b, "\"root\":");
        write_domain(b, proof->root);
        c1_buffer_add_str(b, ",\"leaf\":");
        write_domain(b, proof->leaf);
}

/* {"data":{"Single":{root,leaf,path}}}, or {"Sub":{base_proof,sub_proof,root,leaf}},
 * or {"Top":{base_proof,sub_proof,top_proof,root,leaf}}. */
static void write_merkle(struct c1_buffer *b, const struct c1_merkle_proof *proof) {
        assert(proof->kind <= C1_MERKLE_TOP);

        c1_buffer_add_str(b, "{\"data\":{\"");
        c1_buffer_add_str(b, c1_merkle_kind_names[proof->kind]);
        c1_buffer_add_str(b, "\":{");
        if (proof->kind == C1_MERKLE_SINGLE) {
                write_root_leaf(b, proof);
                c1_buffer_add_str(b, ",\"path\":");
                write_path(b, &proof->base);
        } else {
                c1_buffer_add_str(b, "\"base_proof\":");
                write_path(b, &proof->base);
                c1_buffer_add_str(b, ",\"sub_proof\":");
                write_path(b, &proof->sub);
                if (proof->kind == C1_MERKLE_TOP) {
                        c1_buffer_add_str(b, ",\"top_proof\":");
                        write_path(b, &proof->top);
                }
                c1_buffer_add_str(b, ",");
                write_root_leaf(b, proof);
        }
        c1_buffer_add_str(b, "}}}");
}

static void write_column_proof(struct c1_buffer *b, const struct c1_column_proof *col) {
        c1_buffer_add_str(b, "{\"column\":{\"index\":");
        c1_buffer_add_u64(b, col->index);
        c1_buffer_add_str(b, ",\"rows\":");
        write_domains(b, col->rows, col->n_rows);
        c1_buffer_add_str(b, ",\"_h\":null},\"inclusion_proof\":");
        write_merkle(b, &col->inclusion);
        c1_buffer_add_str(b, "}");
}

static void write_column_array(struct c1_buffer *b, const struct c1_column_proof *cols,
                               unsigned n) {
        c1_buffer_add_str(b, "[");
        for (unsigned i = 0; i < n; i++) {
                if (i)
                        c1_buffer_add_str(b, ",");
                write_column_proof(b, &cols[i]);
        }
        c1_buffer_add_str(b, "]");
}

static void write_labeling(struct c1_buffer *b, const struct c1_labeling_proof *lp) {
        c1_buffer_add_str(b, "{\"parents\":");
        write_domains(b, lp->parents, lp->n_parents);
        c1_buffer_add_str(b, ",\"layer_index\":");
        c1_buffer_add_u64(b, lp->layer_index);
        c1_buffer_add_str(b, ",\"node\":");
        c1_buffer_add_u64(b, lp->node);
        c1_buffer_add_str(b, "}");
}

static void write_vanilla_proof(struct c1_buffer *b, const struct c1_vanilla_proof *p) {
        c1_buffer_add_str(b, "{\"comm_d_proofs\":");
        write_merkle(b, &p->comm_d_proof);
        c1_buffer_add_str(b, ",\"comm_r_last_proof\":");
        write_merkle(b, &p->comm_r_last_proof);
        c1_buffer_add_str(b, ",\"replica_column_proofs\":{\"c_x\":");
        write_column_proof(b, &p->c_x);
        c1_buffer_add_str(b, ",\"drg_parents\":");
        write_column_array(b, p->drg_parents, POREP_DRG_PARENTS);
        c1_buffer_add_str(b, ",\"exp_parents\":");
        write_column_array(b, p->exp_parents, POREP_EXP_PARENTS);
        c1_buffer_add_str(b, "},\"labeling_proofs\":[");
        for (uint32_t i = 0; i < p->n_labeling; i++) {
                if (i)
                        c1_buffer_add_str(b, ",");
                write_labeling(b, &p->labeling[i]);
        }
        c1_buffer_add_str(b, "],\"encoding_proof\":");
        write_labeling(b, &p->encoding);
        c1_buffer_add_str(b, "}");
}

static void write_output(struct c1_buffer *b, const struct c1_output *c1) {
        const struct {
                const char *key;
                const uint8_t *value;
        } tail[] = {{",\"comm_r\":", c1->comm_r},
                    {",\"comm_d\":", c1->comm_d},
                    {",\"replica_id\":", c1->replica_id},
                    {",\"seed\":", c1->seed},
                    {",\"ticket\":", c1->ticket}};

        c1_buffer_add_str(b, "{\"registered_proof\":\"");
        c1_buffer_add_str(b, c1->cfg->name);
        c1_buffer_add_str(b, "\",\"vanilla_proofs\":{\"");
        c1_buffer_add_str(b, c1->cfg->v1_name);
        c1_buffer_add_str(b, "\":[");
        for (uint32_t k = 0; k < c1->n_partitions; k++) {
                c1_buffer_add_str(b, k ? ",[" : "[");
                for (uint32_t i = 0; i < c1->challenges_per_partition; i++) {
                        if (i)
                                c1_buffer_add_str(b, ",");
                        write_vanilla_proof(
                                b, &c1->proofs[(size_t)k * c1->challenges_per_partition + i]);
                }
                c1_buffer_add_str(b, "]");
        }
        c1_buffer_add_str(b, "]}");
        for (size_t i = 0; i < ELEMENTSOF(tail); i++) {
                c1_buffer_add_str(b, tail[i].key);
                write_domain(b, tail[i].value);
        }
        if (c1->synthetic_c1)
                c1_buffer_add_str(b, ",\"cuzk_synthetic_c1\":true");
        c1_buffer_add_str(b, "}");
}

int c1_write_buffer(const struct c1_output *c1, char **ret, size_t *ret_len) {
        struct c1_buffer b = {0};

        assert(c1 && c1->cfg);
        assert(ret);
        assert(ret_len);

        /* ~56 KB of JSON per challenge at 32 GiB, ~220 KB with the labels: start big. */
        if (!c1_buffer_reserve(&b, (size_t)c1->n_partitions * c1->challenges_per_partition *
                                           (c1->cfg->layers > 2 ? 240000 : 32768)))
                return -ENOMEM;
        write_output(&b, c1);
        return c1_buffer_finish(&b, ret, ret_len);
}

int c1_write(const struct c1_output *c1, FILE *f) {
        _cleanup_free_ char *buf = NULL;
        size_t len;
        int r;

        assert(c1);
        assert(f);

        r = c1_write_buffer(c1, &buf, &len);
        if (r < 0)
                return r;
        return c1_fwrite_all(f, buf, len);
}
