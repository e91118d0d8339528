/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The C1 output's JSON, read in one pass into the block c1_output_new()
 * shaped for its registered proof. Every array must have the length that
 * shape gives it, so a C1 of another size, layer count or tree is refused
 * where it first differs.
 */
#include <assert.h>
#include <errno.h>
#include <string.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "filecoin/c1/c1-internal.h"
#include "filecoin/c1/c1.h"

struct c1_parser {
        struct c1_cursor c;
        const struct porep_config *cfg;
        struct c1_output *c1;
};

#define FIELDS(names_, required_) \
        { .names = (names_), .n_names = ELEMENTSOF(names_), .required = (required_) }
#define ALL(n) ((uint32_t)((1ull << (n)) - 1))

/* Reads the value of field `which` (f->names[which]) of an object into out. */
typedef int (*field_fn)(struct c1_parser *ps, int which, void *out);
/* Reads element i of an array into out. */
typedef int (*element_fn)(struct c1_parser *ps, uint32_t i, void *out);

/* An object of f's fields, each value read by parse_field: every object of the C1 output but
 * its outermost, which checks the order of its fields (parse_output). */
static int parse_object(struct c1_parser *ps, struct c1_fields *f, field_fn parse_field,
                        void *out) {
        int which, r;

        r = c1_cursor_expect(&ps->c, '{');
        if (r < 0)
                return r;
        while ((r = c1_cursor_field(&ps->c, f, &which)) > 0) {
                r = parse_field(ps, which, out);
                if (r < 0)
                        return r;
        }
        return r;
}

/* An array of exactly n elements (what names them in messages), each read by
 * parse_element. */
static int parse_array(struct c1_parser *ps, uint32_t n, const char *what, element_fn parse_element,
                       void *out) {
        int r;

        r = c1_cursor_expect(&ps->c, '[');
        if (r < 0)
                return r;
        for (uint32_t i = 0; (r = c1_cursor_array_next(&ps->c, i, n, what)) > 0; i++) {
                r = parse_element(ps, i, out);
                if (r < 0)
                        return r;
                c1_cursor_pop(&ps->c);
        }
        return r;
}

static int domain_element(struct c1_parser *ps, uint32_t i, void *out) {
        return c1_cursor_domain(&ps->c, ((c1_domain *)out)[i]);
}

static int parse_domains(struct c1_parser *ps, c1_domain *out, uint32_t n, const char *what) {
        return parse_array(ps, n, what, domain_element, out);
}

static int path_element_field(struct c1_parser *ps, int which, void *out) {
        struct c1_path_element *e = out;

        if (which == 0)
                return parse_domains(ps, e->hashes, e->n_hashes, "hashes");
        /* the position of the proven node among the arity children */
        return c1_cursor_u64(&ps->c, 0, e->n_hashes, &e->index);
}

static int path_element(struct c1_parser *ps, uint32_t i, void *out) {
        static const char *const names[] = {"hashes", "index"};
        struct c1_fields f = FIELDS(names, ALL(2));

        return parse_object(ps, &f, path_element_field, &((struct c1_path *)out)->elements[i]);
}

static int path_field(struct c1_parser *ps, int which, void *out) {
        struct c1_path *path = out;

        assert(which == 0);
        return parse_array(ps, path->n_elements, "path elements", path_element, path);
}

/* An InclusionPath: {"path":[elements]}. */
static int parse_path(struct c1_parser *ps, struct c1_path *path) {
        static const char *const names[] = {"path"};
        struct c1_fields f = FIELDS(names, ALL(1));

        return parse_object(ps, &f, path_field, path);
}

/* The fields of a Single, Sub or Top proof, in serde's order. */
static const char *const single_names[] = {"root", "leaf", "path"};
static const char *const sub_names[] = {"base_proof", "sub_proof", "root", "leaf"};
static const char *const top_names[] = {"base_proof", "sub_proof", "top_proof", "root", "leaf"};

static int proof_data_field(struct c1_parser *ps, int which, void *out) {
        struct c1_merkle_proof *proof = out;
        const char *name = proof->kind == C1_MERKLE_SINGLE ? single_names[which]
                           : proof->kind == C1_MERKLE_SUB  ? sub_names[which]
                                                           : top_names[which];

        if (strcmp(name, "root") == 0)
                return c1_cursor_domain(&ps->c, proof->root);
        if (strcmp(name, "leaf") == 0)
                return c1_cursor_domain(&ps->c, proof->leaf);
        if (strcmp(name, "sub_proof") == 0)
                return parse_path(ps, &proof->sub);
        if (strcmp(name, "top_proof") == 0)
                return parse_path(ps, &proof->top);
        /* "path" of Single, "base_proof" of Sub and Top */
        return parse_path(ps, &proof->base);
}

static int parse_proof_data(struct c1_parser *ps, struct c1_merkle_proof *proof) {
        struct c1_fields single = FIELDS(single_names, ALL(3)), sub = FIELDS(sub_names, ALL(4)),
                         top = FIELDS(top_names, ALL(5));

        return parse_object(ps,
                            proof->kind == C1_MERKLE_SINGLE ? &single
                            : proof->kind == C1_MERKLE_SUB  ? &sub
                                                            : &top,
                            proof_data_field, proof);
}

/* {"<variant>":{...}}; the variant must be the tree's. */
static int merkle_field(struct c1_parser *ps, int which, void *out) {
        struct c1_merkle_proof *proof = out;
        struct c1_cursor *c = &ps->c;
        const char *expected = c1_merkle_kind_names[proof->kind], *variant;
        size_t len;
        int r;

        assert(which == 0);
        c1_cursor_hide_top(c);
        r = c1_cursor_variant(c, &variant, &len);
        if (r < 0)
                return r;
        if (strlen(expected) != len || memcmp(variant, expected, len) != 0)
                return c1_cursor_fail(c, "variant \"%.*s\", expected \"%s\" for %s",
                                      (int)(len < 32 ? len : 32), variant, expected, ps->cfg->name);
        c1_cursor_push_key(c, expected);
        r = parse_proof_data(ps, proof);
        if (r < 0)
                return r;
        c1_cursor_pop(c);
        return c1_cursor_variant_end(c);
}

/* A MerkleProof: {"data":{"<variant>":{...}}}. */
static int parse_merkle(struct c1_parser *ps, struct c1_merkle_proof *proof) {
        static const char *const names[] = {"data"};
        struct c1_fields f = FIELDS(names, ALL(1));

        return parse_object(ps, &f, merkle_field, proof);
}

static int column_field(struct c1_parser *ps, int which, void *out) {
        struct c1_column_proof *col = out;

        if (which == 0)
                return c1_cursor_u32(&ps->c, 0, (uint32_t)(ps->cfg->nodes - 1), &col->index);
        if (which == 1)
                return parse_domains(ps, col->rows, col->n_rows, "rows");
        /* PhantomData, which serde writes as unit */
        return c1_cursor_literal(&ps->c, "null");
}

static int column_proof_field(struct c1_parser *ps, int which, void *out) {
        static const char *const names[] = {"index", "rows", "_h"};
        struct c1_fields f = FIELDS(names, ALL(3));
        struct c1_column_proof *col = out;

        if (which == 0)
                return parse_object(ps, &f, column_field, col);
        return parse_merkle(ps, &col->inclusion);
}

static int parse_column_proof(struct c1_parser *ps, struct c1_column_proof *col) {
        static const char *const names[] = {"column", "inclusion_proof"};
        struct c1_fields f = FIELDS(names, ALL(2));

        return parse_object(ps, &f, column_proof_field, col);
}

static int column_proof_element(struct c1_parser *ps, uint32_t i, void *out) {
        return parse_column_proof(ps, &((struct c1_column_proof *)out)[i]);
}

static int replica_columns_field(struct c1_parser *ps, int which, void *out) {
        struct c1_vanilla_proof *p = out;

        if (which == 0)
                return parse_column_proof(ps, &p->c_x);
        if (which == 1)
                return parse_array(ps, POREP_DRG_PARENTS, "drg_parents", column_proof_element,
                                   p->drg_parents);
        return parse_array(ps, POREP_EXP_PARENTS, "exp_parents", column_proof_element,
                           p->exp_parents);
}

/* A LabelingProof or EncodingProof: its node is a challenge, its layer 1..layers. */
static int labeling_field(struct c1_parser *ps, int which, void *out) {
        struct c1_labeling_proof *lp = out;

        if (which == 0)
                return parse_domains(ps, lp->parents, lp->n_parents, "parents");
        if (which == 1)
                return c1_cursor_u32(&ps->c, 1, ps->cfg->layers, &lp->layer_index);
        return c1_cursor_u64(&ps->c, 0, ps->cfg->nodes - 1, &lp->node);
}

static int parse_labeling(struct c1_parser *ps, struct c1_labeling_proof *lp) {
        static const char *const names[] = {"parents", "layer_index", "node"};
        struct c1_fields f = FIELDS(names, ALL(3));

        return parse_object(ps, &f, labeling_field, lp);
}

static int labeling_element(struct c1_parser *ps, uint32_t i, void *out) {
        return parse_labeling(ps, &((struct c1_labeling_proof *)out)[i]);
}

static int vanilla_proof_field(struct c1_parser *ps, int which, void *out) {
        static const char *const names[] = {"c_x", "drg_parents", "exp_parents"};
        struct c1_fields f = FIELDS(names, ALL(3));
        struct c1_vanilla_proof *p = out;

        switch (which) {
        case 0:
                return parse_merkle(ps, &p->comm_d_proof);
        case 1:
                return parse_merkle(ps, &p->comm_r_last_proof);
        case 2:
                return parse_object(ps, &f, replica_columns_field, p);
        case 3:
                return parse_array(ps, p->n_labeling, "labeling proofs (layers)", labeling_element,
                                   p->labeling);
        default:
                return parse_labeling(ps, &p->encoding);
        }
}

static int parse_vanilla_proof(struct c1_parser *ps, struct c1_vanilla_proof *p) {
        static const char *const names[] = {"comm_d_proofs", "comm_r_last_proof",
                                            "replica_column_proofs", "labeling_proofs",
                                            "encoding_proof"};
        struct c1_fields f = FIELDS(names, ALL(5));

        return parse_object(ps, &f, vanilla_proof_field, p);
}

static int challenge_element(struct c1_parser *ps, uint32_t i, void *out) {
        return parse_vanilla_proof(ps, &((struct c1_vanilla_proof *)out)[i]);
}

static int partition_element(struct c1_parser *ps, uint32_t k, void *out) {
        struct c1_output *c1 = ps->c1;

        (void)out;
        return parse_array(ps, c1->challenges_per_partition, "challenges in the partition",
                           challenge_element,
                           c1->proofs + (size_t)k * c1->challenges_per_partition);
}

/* [[Proof x challenges] x partitions] */
static int parse_partitions(struct c1_parser *ps) {
        return parse_array(ps, ps->c1->n_partitions, "partitions", partition_element, NULL);
}

/* {"StackedDrg32GiBV1":[...]}: the V1 name of the registered proof's size. */
static int parse_vanilla_proofs(struct c1_parser *ps) {
        struct c1_cursor *c = &ps->c;
        const char *variant;
        size_t len;
        int r;

        r = c1_cursor_variant(c, &variant, &len);
        if (r < 0)
                return r;
        if (strlen(ps->cfg->v1_name) != len || memcmp(variant, ps->cfg->v1_name, len) != 0)
                return c1_cursor_fail(c, "variant \"%.*s\", expected \"%s\" for %s",
                                      (int)(len < 64 ? len : 64), variant, ps->cfg->v1_name,
                                      ps->cfg->name);
        r = parse_partitions(ps);
        if (r < 0)
                return r;
        return c1_cursor_variant_end(c);
}

static int registered_proof(struct c1_cursor *c, const struct porep_config **ret) {
        char name[64];
        const char *s;
        size_t len;
        int r;

        r = c1_cursor_string(c, &s, &len);
        if (r < 0)
                return r;
        if (len >= sizeof(name))
                return c1_cursor_fail(c, "registered proof name of %zu bytes, not one known", len);
        memcpy(name, s, len);
        name[len] = '\0';
        *ret = porep_config_by_name(name);
        if (!*ret)
                return c1_cursor_fail(c, "unknown registered proof \"%s\"", name);
        return 0;
}

/*
 * The shape depends on registered_proof, which serde writes first; another
 * writer may put it later, so look it up before reading anything else.
 */
static int find_registered_proof(const struct c1_cursor *start, const struct porep_config **ret) {
        static const char *const names[] = {"registered_proof", "vanilla_proofs",   "comm_r",
                                            "comm_d",           "replica_id",       "seed",
                                            "ticket",           "cuzk_synthetic_c1"};
        struct c1_fields f = FIELDS(names, 1u);
        struct c1_cursor c = *start;
        int which, r;

        r = c1_cursor_expect(&c, '{');
        if (r < 0)
                return r;
        while ((r = c1_cursor_field(&c, &f, &which)) > 0) {
                if (which == 0)
                        return registered_proof(&c, ret);
                r = c1_cursor_skip_value(&c);
                if (r < 0)
                        return r;
        }
        return r < 0 ? r : -EINVAL;
}

static const char *const output_names[] = {"registered_proof", "vanilla_proofs",   "comm_r",
                                           "comm_d",           "replica_id",       "seed",
                                           "ticket",           "cuzk_synthetic_c1"};
enum { FIELD_REGISTERED_PROOF, FIELD_VANILLA_PROOFS, FIELD_TICKET = 6, FIELD_SYNTHETIC };

static int parse_output_field(struct c1_parser *ps, int which) {
        struct c1_output *c1 = ps->c1;
        uint8_t *const domains[] = {c1->comm_r, c1->comm_d, c1->replica_id, c1->seed, c1->ticket};
        const struct porep_config *cfg;
        int r;

        switch (which) {
        case FIELD_REGISTERED_PROOF: /* already found by find_registered_proof() */
                return registered_proof(&ps->c, &cfg);
        case FIELD_VANILLA_PROOFS:
                return parse_vanilla_proofs(ps);
        case FIELD_SYNTHETIC:
                r = c1_cursor_literal(&ps->c, "true");
                if (r < 0)
                        return r;
                c1->synthetic_c1 = true;
                return 0;
        default:
                return c1_cursor_domain(&ps->c, domains[which - 2]);
        }
}

static int parse_output(struct c1_parser *ps) {
        struct c1_fields f = FIELDS(output_names, ALL(FIELD_SYNTHETIC));
        struct c1_cursor *c = &ps->c;
        int which, last = -1, r;

        r = c1_cursor_expect(c, '{');
        if (r < 0)
                return r;
        while ((r = c1_cursor_field(c, &f, &which)) > 0) {
                /* cuzk's own marker: only last, after "ticket", as the writer puts it. */
                if (last == FIELD_SYNTHETIC)
                        return c1_cursor_fail(c, "a field after \"cuzk_synthetic_c1\", which "
                                                 "must come last");
                if (which == FIELD_SYNTHETIC &&
                    (last != FIELD_TICKET || f.seen != ALL(FIELD_SYNTHETIC + 1)))
                        return c1_cursor_fail(c, "\"cuzk_synthetic_c1\" must come last, "
                                                 "right after \"ticket\"");
                r = parse_output_field(ps, which);
                if (r < 0)
                        return r;
                last = which;
        }
        if (r < 0)
                return r;
        c1_cursor_skip_ws(c);
        if (c->p != c->end)
                return c1_cursor_fail(c, "trailing text after the C1 output");
        return 0;
}

int c1_parse(const char *json, size_t len, const char *what, struct c1_output **ret) {
        _cleanup_c1_output_ struct c1_output *c1 = NULL;
        struct c1_parser ps = {0};
        int r;

        assert(json || len == 0);
        assert(ret);

        r = c1_check_json_size(len, C1_JSON_MAX_BYTES, what, "a C1 output");
        if (r < 0)
                return r;
        c1_cursor_init(&ps.c, json, len, what);
        r = find_registered_proof(&ps.c, &ps.cfg);
        if (r < 0)
                return r;
        r = c1_output_new(ps.cfg, &c1);
        if (r < 0)
                return log_error_errno(r, "%s: cannot allocate the C1 output of %s: %m", what,
                                       ps.cfg->name);
        ps.c1 = c1;
        r = parse_output(&ps);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(c1);
        return 0;
}
