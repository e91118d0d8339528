/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filecoin/c1: what the parser refuses, each with one logged line naming
 * the place: truncations, bytes and numbers out of range, missing, extra
 * and duplicate fields, counts and variants that do not fit the registered
 * proof, misplaced markers, trailing text, the envelope's own errors.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/c1/c1.h"
#include "filecoin/c1/test-c1-util.h"

/* text with the nth (0-based) occurrence of old replaced; NULL when there is none. */
static char *replace_nth(const char *text, size_t len, const char *old, const char *new,
                         unsigned nth, size_t *ret_len) {
        const char *at = text;
        size_t old_len = strlen(old), new_len = strlen(new);
        char *out;

        for (unsigned i = 0;; i++) {
                at = memmem(at, len - (size_t)(at - text), old, old_len);
                if (!at)
                        return NULL;
                if (i == nth)
                        break;
                at++;
        }
        out = malloc(len - old_len + new_len);
        assert_non_null(out);
        memcpy(out, text, (size_t)(at - text));
        memcpy(out + (at - text), new, new_len);
        memcpy(out + (at - text) + new_len, at + old_len, len - (size_t)(at - text) - old_len);
        *ret_len = len - old_len + new_len;
        return out;
}

/* Parsing text fails with rc and exactly one logged line containing want. */
static void expect_refusal(const char *text, size_t len, int rc, const char *want) {
        struct c1_output *c1 = NULL;
        int r;

        test_log_capture_start();
        r = c1_parse_any(text, len, "c1.json", &c1, NULL);
        test_log_capture_stop();
        if (r != rc || test_log_lines() != 1 || !strstr(test_log_last(), want))
                fail_msg("rc %d (expected %d), %u lines, last \"%s\", expected \"%s\"", r, rc,
                         test_log_lines(), test_log_last(), want);
        assert_null(c1);
}

static void expect_edit_refused(const char *text, size_t len, const char *old, const char *new,
                                unsigned nth, const char *want) {
        size_t n = 0;
        char *edited = replace_nth(text, len, old, new, nth, &n);

        assert_non_null(edited);
        expect_refusal(edited, n, -EINVAL, want);
        free(edited);
}

static char *small_text(size_t *len, void (*mutate)(struct c1_output *)) {
        _cleanup_c1_output_ struct c1_output *c1 = test_c1_filled("StackedDrg2KiBV1_1", 1);
        char *text;

        if (mutate)
                mutate(c1);
        assert_int_equal(c1_write_buffer(c1, &text, len), 0);
        return text;
}

static void test_truncated(void **state) {
        size_t len;
        char *text = small_text(&len, NULL);
        unsigned cuts = 0;
        (void)state;

        for (size_t cut = 0; cut < len; cut += 97, cuts++)
                expect_refusal(text, cut, -EINVAL, "c1.json");
        printf("%u truncations of %zu bytes refused\n", cuts, len);
        free(text);
}

/* proofs[1]'s tree-R path element 1, hash 6: bytes 13, 20, ..., 230 (7j + 13). */
static void mark_hash(struct c1_output *c1) {
        uint8_t *h = c1->proofs[1].comm_r_last_proof.base.elements[1].hashes[6];

        for (unsigned j = 0; j < 32; j++)
                h[j] = (uint8_t)(7 * j + 13);
}

static void test_byte_256(void **state) {
        size_t len;
        char *text = small_text(&len, mark_hash);
        (void)state;

        expect_edit_refused(text, len, "223,230]", "223,256]", 0,
                            "c1.json: vanilla_proofs[0][1].comm_r_last_proof.Single.path.path[1]."
                            "hashes[6][31]: 256 is not a byte");
        expect_edit_refused(text, len, "223,230]", "223,-1]", 0, "[31]: -1 is negative");
        expect_edit_refused(text, len, "[13,20,", "[013,20,", 0, "[0]: 013 is not a plain");
        expect_edit_refused(text, len, "223,230]", "223,2.5]", 0, "2.5 is not a plain");
        expect_edit_refused(text, len, "223,230]", "223,230,1]", 0,
                            "hashes[6]: more than 32 bytes, expected 32");
        expect_edit_refused(text, len, "216,223,230]", "216,223]", 0,
                            "hashes[6]: 31 bytes, expected 32");
        free(text);
}

static void test_fields(void **state) {
        size_t len;
        char *text = small_text(&len, NULL);
        (void)state;

        expect_edit_refused(text, len, ",\"_h\":null", "", 0,
                            "vanilla_proofs[0][0].replica_column_proofs.c_x.column: missing "
                            "field \"_h\"");
        expect_edit_refused(text, len, "\"_h\":null", "\"_h\":null,\"x\":1", 3,
                            "vanilla_proofs[0][0].replica_column_proofs.drg_parents[2].column: "
                            "unknown field \"x\"");
        expect_edit_refused(text, len, "\"_h\":null", "\"_h\":null,\"_h\":null", 0,
                            "duplicate field \"_h\"");
        expect_edit_refused(text, len, "\"_h\":null", "\"_h\":0", 0, "expected null");
        expect_edit_refused(text, len, "{\"registered_proof\"", "{\"extra\":1,\"registered_proof\"",
                            0, "c1.json: unknown field \"extra\"");
        expect_edit_refused(text, len, "\"StackedDrg2KiBV1_1\"", "\"StackedDrg3KiBV1_1\"", 0,
                            "unknown registered proof \"StackedDrg3KiBV1_1\"");
        expect_edit_refused(text, len, "\"layer_index\":1,", "\"layer_index\":3,", 0,
                            "labeling_proofs[0].layer_index: 3 is out of range 1..2");
        free(text);
}

static void test_wrong_shape(void **state) {
        size_t len;
        char *text = small_text(&len, NULL);
        (void)state;

        expect_edit_refused(text, len, "]]},\"comm_r\"", "],[]]},\"comm_r\"", 0,
                            "c1.json: vanilla_proofs: more than 1 partitions, expected 1");
        expect_edit_refused(text, len, "\"comm_r_last_proof\":{\"data\":{\"Single\"",
                            "\"comm_r_last_proof\":{\"data\":{\"Sub\"", 0,
                            "vanilla_proofs[0][0].comm_r_last_proof: variant \"Sub\", expected "
                            "\"Single\" for StackedDrg2KiBV1_1");
        expect_edit_refused(text, len, "{\"StackedDrg2KiBV1\"", "{\"StackedDrg32GiBV1\"", 0,
                            "variant \"StackedDrg32GiBV1\", expected \"StackedDrg2KiBV1\"");
        /* 2 KiB proofs under an 8 MiB name: tree D is 18 levels there, not 6. */
        {
                size_t n, n2;
                char *a = replace_nth(text, len, "StackedDrg2KiBV1_1", "StackedDrg8MiBV1_1", 0, &n);
                char *b = replace_nth(a, n, "StackedDrg2KiBV1", "StackedDrg8MiBV1", 0, &n2);

                expect_refusal(b, n2, -EINVAL,
                               "vanilla_proofs[0][0].comm_d_proofs.Single.path.path: 6 path "
                               "elements, expected 18");
                free(a);
                free(b);
        }
        free(text);
}

static void short_rows(struct c1_output *c1) {
        c1->proofs[1].exp_parents[3].n_rows = 1;
}
static void short_labels(struct c1_output *c1) {
        c1->proofs[0].n_labeling = 1;
}
static void short_hashes(struct c1_output *c1) {
        c1->proofs[0].drg_parents[5].inclusion.base.elements[1].n_hashes = 6;
}
static void big_index(struct c1_output *c1) {
        c1->proofs[1].c_x.inclusion.base.elements[0].index = 8;
}
static void big_column(struct c1_output *c1) {
        c1->proofs[1].c_x.index = 64;
}
static void short_parents(struct c1_output *c1) {
        c1->proofs[0].encoding.n_parents = 36;
}

static void test_wrong_counts(void **state) {
        static const struct {
                void (*mutate)(struct c1_output *);
                const char *want;
        } cases[] = {
                {short_rows, "vanilla_proofs[0][1].replica_column_proofs.exp_parents[3].column."
                             "rows: 1 rows, expected 2"},
                {short_labels, "vanilla_proofs[0][0].labeling_proofs: 1 labeling proofs "
                               "(layers), expected 2"},
                {short_hashes, "drg_parents[5].inclusion_proof.Single.path.path[1].hashes: 6 "
                               "hashes, expected 7"},
                {big_index, "c_x.inclusion_proof.Single.path.path[0].index: 8 is out of range "
                            "0..7"},
                {big_column, "c_x.column.index: 64 is out of range 0..63"},
                {short_parents, "vanilla_proofs[0][0].encoding_proof.parents: 36 parents, "
                                "expected 37"},
        };
        (void)state;

        for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
                size_t len;
                char *text = small_text(&len, cases[i].mutate);

                expect_refusal(text, len, -EINVAL, cases[i].want);
                free(text);
        }
}

static void test_order_and_tail(void **state) {
        _cleanup_c1_output_ struct c1_output *c1 = NULL,
                                             *want = test_c1_filled("StackedDrg2KiBV1_1", 1);
        size_t len, n = 0, n2 = 0;
        char *text = small_text(&len, NULL), *a, *b, *deep;
        (void)state;

        /* Go's field order (registered_proof later) is read the same. */
        a = replace_nth(text, len, "{\"registered_proof\":\"StackedDrg2KiBV1_1\",", "{", 0, &n);
        b = replace_nth(a, n, ",\"ticket\"",
                        ",\"registered_proof\":\"StackedDrg2KiBV1_1\",\"ticket\"", 0, &n2);
        assert_int_equal(c1_parse(b, n2, "go-order.json", &c1), 0);
        assert_true(test_c1_equal(c1, want));
        free(a);
        free(b);

        a = replace_nth(text, len, "{\"registered_proof\"", " {\"registered_proof\"", 0, &n);
        b = realloc(a, n + 2);
        memcpy(b + n, "x\n", 2);
        expect_refusal(b, n + 2, -EINVAL, "c1.json: trailing text after the C1 output");
        free(b);

        expect_edit_refused(text, len, "{\"registered_proof\"",
                            "{\"cuzk_synthetic_c1\":true,\"registered_proof\"", 0,
                            "\"cuzk_synthetic_c1\" must come last");
        /* The final '}' becomes ",\"cuzk_synthetic_c1\":false}". */
        b = malloc(len + 32);
        memcpy(b, text, len - 1);
        memcpy(b + len - 1, ",\"cuzk_synthetic_c1\":false}", 27);
        expect_refusal(b, len + 26, -EINVAL, "cuzk_synthetic_c1: expected true");
        free(b);

        /* Nesting while looking for registered_proof is bounded. */
        deep = calloc(1, 300);
        strcpy(deep, "{\"comm_r\":");
        memset(deep + strlen(deep), '[', 100);
        expect_refusal(deep, strlen(deep), -EINVAL, "comm_r: nested deeper than 64");
        free(deep);
        expect_refusal("", 0, -EINVAL, "expected '{', found the end of the input");
        /* The length alone is refused: nothing past the buffer is read. */
        test_log_capture_start();
        assert_int_equal(c1_parse_any(text, C1_JSON_MAX_BYTES + 1, "huge.json", &c1, NULL), -E2BIG);
        test_log_capture_stop();
        assert_non_null(strstr(test_log_last(), "huge.json: 1073741825 bytes, more than"));
        free(text);
}

static void test_envelope_refusals(void **state) {
        size_t len, env_len;
        char *text = small_text(&len, NULL), *env;
        (void)state;

        assert_int_equal(c1_envelope_write_buffer(5, text, len, 2048, &env, &env_len), 0);
        expect_edit_refused(env, env_len, "\"SectorSize\":2048", "\"SectorSize\":4096", 0,
                            "c1.json: SectorSize 4096, but StackedDrg2KiBV1_1 is a proof of "
                            "2048-byte sectors");
        expect_edit_refused(env, env_len, "\"Phase1Out\":\"ey", "\"Phase1Out\":\"e!", 0,
                            "Phase1Out: character 1 of the base64 (0x21)");
        expect_edit_refused(env, env_len, ",\"SectorSize\":2048", "", 0,
                            "missing field \"SectorSize\"");
        expect_edit_refused(env, env_len, "\"SectorNum\":5", "\"SectorNum\":-5", 0,
                            "SectorNum: -5 is negative");
        /* The C1 inside is named as such. */
        {
                size_t n;
                char *broken = replace_nth(text, len, "\"_h\":null", "\"_h\":nul", 0, &n), *e;
                size_t e_len;

                assert_int_equal(c1_envelope_write_buffer(5, broken, n, 2048, &e, &e_len), 0);
                expect_refusal(e, e_len, -EINVAL,
                               "c1.json: Phase1Out: vanilla_proofs[0][0].replica_column_proofs."
                               "c_x.column._h: expected null");
                free(e);
                free(broken);
        }
        free(env);
        free(text);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_truncated),
                cmocka_unit_test(test_byte_256),
                cmocka_unit_test(test_fields),
                cmocka_unit_test(test_wrong_shape),
                cmocka_unit_test(test_wrong_counts),
                cmocka_unit_test(test_order_and_tail),
                cmocka_unit_test(test_envelope_refusals),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
