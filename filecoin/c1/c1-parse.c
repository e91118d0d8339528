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

static int parse_domains(struct c1_cursor *c, c1_domain *out, uint32_t n, const char *what) {
        int r;

        r = c1_cursor_expect(c, '[');
        if (r < 0)
                return r;
        for (uint32_t i = 0; (r = c1_cursor_array_next(c, i, n, what)) > 0; i++) {
                r = c1_cursor_domain(c, out[i]);
                if (r < 0)
                        return r;
                c1_cursor_pop(c);
        }
        return r;
}

static int parse_path_element(struct c1_cursor *c, struct c1_path_element *e) {
        static const char *const names[] = {"hashes", "index"};
        struct c1_fields f = FIELDS(names, ALL(2));
        int which, r;

        r = c1_cursor_expect(c, '{');
        if (r < 0)
                return r;
        while ((r = c1_cursor_field(c, &f, &which)) > 0) {
                if (which == 0)
                        r = parse_domains(c, e->hashes, e->n_hashes, "hashes");
                else /* the position of the proven node among the arity children */
                        r = c1_cursor_u64(c, 0, e->n_hashes, &e->index);
                if (r < 0)
                        return r;
        }
        return r;
}

/* An InclusionPath: {"path":[elements]}. */
static int parse_path(struct c1_cursor *c, struct c1_path *path) {
        static const char *const names[] = {"path"};
        struct c1_fields f = FIELDS(names, ALL(1));
        int which, r;

        r = c1_cursor_expect(c, '{');
        if (r < 0)
                return r;
        while ((r = c1_cursor_field(c, &f, &which)) > 0) {
                r = c1_cursor_expect(c, '[');
                for (uint32_t i = 0; r >= 0 && (r = c1_cursor_array_next(c, i, path->n_elements,
                                                                         "path elements")) > 0;
                     i++) {
                        r = parse_path_element(c, &path->elements[i]);
                        if (r < 0)
                                return r;
                        c1_cursor_pop(c);
                }
                if (r < 0)
                        return r;
        }
        return r;
}

/* The fields of a Single, Sub or Top proof, in serde's order. */
static const char *const single_names[] = {"root", "leaf", "path"};
static const char *const sub_names[] = {"base_proof", "sub_proof", "root", "leaf"};
static const char *const top_names[] = {"base_proof", "sub_proof", "top_proof", "root", "leaf"};

static int parse_proof_data(struct c1_cursor *c, struct c1_merkle_proof *proof) {
        struct c1_fields single = FIELDS(single_names, ALL(3)), sub = FIELDS(sub_names, ALL(4)),
                         top = FIELDS(top_names, ALL(5));
        struct c1_fields *f = proof->kind == C1_MERKLE_SINGLE ? &single
                              : proof->kind == C1_MERKLE_SUB  ? &sub
                                                              : &top;
        int which, r;

        r = c1_cursor_expect(c, '{');
        if (r < 0)
                return r;
        while ((r = c1_cursor_field(c, f, &which)) > 0) {
                const char *name = f->names[which];

                if (strcmp(name, "root") == 0)
                        r = c1_cursor_domain(c, proof->root);
                else if (strcmp(name, "leaf") == 0)
                        r = c1_cursor_domain(c, proof->leaf);
                else if (strcmp(name, "sub_proof") == 0)
                        r = parse_path(c, &proof->sub);
                else if (strcmp(name, "top_proof") == 0)
                        r = parse_path(c, &proof->top);
                else /* "path" of Single, "base_proof" of Sub and Top */
                        r = parse_path(c, &proof->base);
                if (r < 0)
                        return r;
        }
        return r;
}

/* A MerkleProof: {"data":{"<variant>":{...}}}; the variant must be the tree's. */
static int parse_merkle(struct c1_parser *ps, struct c1_merkle_proof *proof) {
        static const char *const names[] = {"data"};
        struct c1_fields f = FIELDS(names, ALL(1));
        struct c1_cursor *c = &ps->c;
        const char *expected = c1_merkle_kind_names[proof->kind], *variant;
        size_t len;
        int which, r;

        r = c1_cursor_expect(c, '{');
        if (r < 0)
                return r;
        while ((r = c1_cursor_field(c, &f, &which)) > 0) {
                c1_cursor_hide_top(c);
                r = c1_cursor_variant(c, &variant, &len);
                if (r < 0)
                        return r;
                if (strlen(expected) != len || memcmp(variant, expected, len) != 0)
                        return c1_cursor_fail(c, "variant \"%.*s\", expected \"%s\" for %s",
                                              (int)(len < 32 ? len : 32), variant, expected,
                                              ps->cfg->name);
                c1_cursor_push_key(c, expected);
                r = parse_proof_data(c, proof);
                if (r < 0)
                        return r;
                c1_cursor_pop(c);
                r = c1_cursor_variant_end(c);
                if (r < 0)
                        return r;
        }
        return r;
}

static int parse_column(struct c1_parser *ps, struct c1_column_proof *col) {
        static const char *const names[] = {"index", "rows", "_h"};
        struct c1_fields f = FIELDS(names, ALL(3));
        struct c1_cursor *c = &ps->c;
        int which, r;

        r = c1_cursor_expect(c, '{');
        if (r < 0)
                return r;
        while ((r = c1_cursor_field(c, &f, &which)) > 0) {
                if (which == 0)
                        r = c1_cursor_u32(c, 0, (uint32_t)(ps->cfg->nodes - 1), &col->index);
                else if (which == 1)
                        r = parse_domains(c, col->rows, col->n_rows, "rows");
                else /* PhantomData, which serde writes as unit */
                        r = c1_cursor_literal(c, "null");
                if (r < 0)
                        return r;
        }
        return r;
}

static int parse_column_proof(struct c1_parser *ps, struct c1_column_proof *col) {
        static const char *const names[] = {"column", "inclusion_proof"};
        struct c1_fields f = FIELDS(names, ALL(2));
        int which, r;

        r = c1_cursor_expect(&ps->c, '{');
        if (r < 0)
                return r;
        while ((r = c1_cursor_field(&ps->c, &f, &which)) > 0) {
                r = which == 0 ? parse_column(ps, col) : parse_merkle(ps, &col->inclusion);
                if (r < 0)
                        return r;
        }
        return r;
}

static int parse_column_array(struct c1_parser *ps, struct c1_column_proof *cols, uint32_t n,
                              const char *what) {
        int r;

        r = c1_cursor_expect(&ps->c, '[');
        if (r < 0)
                return r;
        for (uint32_t i = 0; (r = c1_cursor_array_next(&ps->c, i, n, what)) > 0; i++) {
                r = parse_column_proof(ps, &cols[i]);
                if (r < 0)
                        return r;
                c1_cursor_pop(&ps->c);
        }
        return r;
}

static int parse_replica_columns(struct c1_parser *ps, struct c1_vanilla_proof *p) {
        static const char *const names[] = {"c_x", "drg_parents", "exp_parents"};
        struct c1_fields f = FIELDS(names, ALL(3));
        int which, r;

        r = c1_cursor_expect(&ps->c, '{');
        if (r < 0)
                return r;
        while ((r = c1_cursor_field(&ps->c, &f, &which)) > 0) {
                if (which == 0)
                        r = parse_column_proof(ps, &p->c_x);
                else if (which == 1)
                        r = parse_column_array(ps, p->drg_parents, POREP_DRG_PARENTS,
                                               "drg_parents");
                else
                        r = parse_column_array(ps, p->exp_parents, POREP_EXP_PARENTS,
                                               "exp_parents");
                if (r < 0)
                        return r;
        }
        return r;
}

/* A LabelingProof or EncodingProof: its node is a challenge, its layer 1..layers. */
static int parse_labeling(struct c1_parser *ps, struct c1_labeling_proof *lp) {
        static const char *const names[] = {"parents", "layer_index", "node"};
        struct c1_fields f = FIELDS(names, ALL(3));
        struct c1_cursor *c = &ps->c;
        int which, r;

        r = c1_cursor_expect(c, '{');
        if (r < 0)
                return r;
        while ((r = c1_cursor_field(c, &f, &which)) > 0) {
                if (which == 0)
                        r = parse_domains(c, lp->parents, lp->n_parents, "parents");
                else if (which == 1)
                        r = c1_cursor_u32(c, 1, ps->cfg->layers, &lp->layer_index);
                else
                        r = c1_cursor_u64(c, 0, ps->cfg->nodes - 1, &lp->node);
                if (r < 0)
                        return r;
        }
        return r;
}

static int parse_labeling_array(struct c1_parser *ps, struct c1_vanilla_proof *p) {
        int r;

        r = c1_cursor_expect(&ps->c, '[');
        if (r < 0)
                return r;
        for (uint32_t i = 0;
             (r = c1_cursor_array_next(&ps->c, i, p->n_labeling, "labeling proofs (layers)")) > 0;
             i++) {
                r = parse_labeling(ps, &p->labeling[i]);
                if (r < 0)
                        return r;
                c1_cursor_pop(&ps->c);
        }
        return r;
}

static int parse_vanilla_proof(struct c1_parser *ps, struct c1_vanilla_proof *p) {
        static const char *const names[] = {"comm_d_proofs", "comm_r_last_proof",
                                            "replica_column_proofs", "labeling_proofs",
                                            "encoding_proof"};
        struct c1_fields f = FIELDS(names, ALL(5));
        int which, r;

        r = c1_cursor_expect(&ps->c, '{');
        if (r < 0)
                return r;
        while ((r = c1_cursor_field(&ps->c, &f, &which)) > 0) {
                switch (which) {
                case 0:
                        r = parse_merkle(ps, &p->comm_d_proof);
                        break;
                case 1:
                        r = parse_merkle(ps, &p->comm_r_last_proof);
                        break;
                case 2:
                        r = parse_replica_columns(ps, p);
                        break;
                case 3:
                        r = parse_labeling_array(ps, p);
                        break;
                default:
                        r = parse_labeling(ps, &p->encoding);
                }
                if (r < 0)
                        return r;
        }
        return r;
}

/* [[Proof x challenges] x partitions] */
static int parse_partitions(struct c1_parser *ps) {
        struct c1_output *c1 = ps->c1;
        struct c1_cursor *c = &ps->c;
        int r;

        r = c1_cursor_expect(c, '[');
        for (uint32_t k = 0;
             r >= 0 && (r = c1_cursor_array_next(c, k, c1->n_partitions, "partitions")) > 0; k++) {
                struct c1_vanilla_proof *proofs =
                        c1->proofs + (size_t)k * c1->challenges_per_partition;

                r = c1_cursor_expect(c, '[');
                for (uint32_t i = 0;
                     r >= 0 && (r = c1_cursor_array_next(c, i, c1->challenges_per_partition,
                                                         "challenges in the partition")) > 0;
                     i++) {
                        r = parse_vanilla_proof(ps, &proofs[i]);
                        if (r < 0)
                                return r;
                        c1_cursor_pop(c);
                }
                if (r < 0)
                        return r;
                c1_cursor_pop(c);
        }
        return r;
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

        if (len > C1_JSON_MAX_BYTES)
                return log_error_errno(E2BIG,
                                       "%s: %zu bytes, more than the %llu a C1 output may "
                                       "have",
                                       what, len, C1_JSON_MAX_BYTES);
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
