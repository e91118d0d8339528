/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filecoin/c1: serde_json's bytes for pieces written by hand from the serde
 * rules (../shared/POREP.md Part B §7), round trips of 2 KiB, 32 GiB (Sub)
 * and 64 GiB (Top) shaped outputs, the envelope with RFC 4648's base64
 * vectors, and the 32 GiB parse time.
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

/* "[v,v,...,v]": a 32-byte domain of one value, as serde writes it. */
static void append_domain(char *out, size_t size, unsigned v) {
        size_t n = strlen(out);

        for (unsigned i = 0; i < 32; i++)
                n += (size_t)snprintf(out + n, size - n, "%s%u", i ? "," : "[", v);
        snprintf(out + n, size - n, "]");
}

static void append(char *out, size_t size, const char *s) {
        size_t n = strlen(out);

        snprintf(out + n, size - n, "%s", s);
}

static void set_domain(c1_domain d, unsigned v) {
        memset(d, (int)v, 32);
}

static bool contains(const char *text, size_t len, const char *piece) {
        return memmem(text, len, piece, strlen(piece)) != NULL;
}

/* The 2 KiB output with known values where the hand-written pieces look. */
static struct c1_output *small_c1(void) {
        struct c1_output *c1 = test_c1_filled("StackedDrg2KiBV1_1", 1);
        struct c1_vanilla_proof *p = &c1->proofs[0];

        set_domain(p->comm_d_proof.root, 1);
        set_domain(p->comm_d_proof.leaf, 2);
        for (uint32_t e = 0; e < p->comm_d_proof.base.n_elements; e++) {
                set_domain(p->comm_d_proof.base.elements[e].hashes[0], 10 + e);
                p->comm_d_proof.base.elements[e].index = e % 2;
        }
        p->c_x.index = 5;
        set_domain(p->c_x.rows[0], 7);
        set_domain(p->c_x.rows[1], 8);
        for (unsigned i = 0; i < 37; i++)
                set_domain(c1->proofs[1].encoding.parents[i], 3);
        c1->proofs[1].encoding.layer_index = 2;
        c1->proofs[1].encoding.node = 63;
        set_domain(c1->ticket, 255);
        return c1;
}

static void test_small_pieces(void **state) {
        _cleanup_c1_output_ struct c1_output *c1 = small_c1();
        char *text, want[8192] = "";
        size_t len;
        (void)state;

        assert_non_null(c1);
        assert_int_equal(c1->n_partitions, 1);
        assert_int_equal(c1->challenges_per_partition, 2);
        assert_int_equal(c1->proofs[0].comm_d_proof.base.n_elements, 6);
        assert_int_equal(c1->proofs[0].comm_r_last_proof.base.n_elements, 2);
        assert_int_equal(c1->proofs[0].comm_r_last_proof.base.elements[0].n_hashes, 7);
        assert_int_equal(c1->proofs[0].c_x.n_rows, 2);
        assert_int_equal(c1->proofs[0].n_labeling, 2);
        assert_int_equal(c1_write_buffer(c1, &text, &len), 0);

        /* The start, to the first proof. */
        snprintf(want, sizeof(want), "%s",
                 "{\"registered_proof\":\"StackedDrg2KiBV1_1\",\"vanilla_proofs\":{"
                 "\"StackedDrg2KiBV1\":[[{\"comm_d_proofs\":");
        assert_true(len > strlen(want) && memcmp(text, want, strlen(want)) == 0);

        /* comm_d_proofs whole: MerkleProof{data: Single{root, leaf, path: {path: [...]}}}. */
        snprintf(want, sizeof(want), "%s", "\"comm_d_proofs\":{\"data\":{\"Single\":{\"root\":");
        append_domain(want, sizeof(want), 1);
        append(want, sizeof(want), ",\"leaf\":");
        append_domain(want, sizeof(want), 2);
        append(want, sizeof(want), ",\"path\":{\"path\":[");
        for (unsigned e = 0; e < 6; e++) {
                append(want, sizeof(want), e ? ",{\"hashes\":[" : "{\"hashes\":[");
                append_domain(want, sizeof(want), 10 + e);
                append(want, sizeof(want), e % 2 ? "],\"index\":1}" : "],\"index\":0}");
        }
        append(want, sizeof(want), "]}}}},\"comm_r_last_proof\":{\"data\":{\"Single\":{\"root\":");
        assert_true(contains(text, len, want));

        /* A column: {column: {index, rows, _h: null}, inclusion_proof}. */
        snprintf(want, sizeof(want), "%s",
                 "\"replica_column_proofs\":{\"c_x\":{\"column\":{\"index\":5,\"rows\":[");
        append_domain(want, sizeof(want), 7);
        append(want, sizeof(want), ",");
        append_domain(want, sizeof(want), 8);
        append(want, sizeof(want),
               "],\"_h\":null},\"inclusion_proof\":{\"data\":{\"Single\":{\"root\":");
        assert_true(contains(text, len, want));

        /* The last proof's encoding proof, then the commitments. */
        snprintf(want, sizeof(want), "%s", "\"encoding_proof\":{\"parents\":[");
        for (unsigned i = 0; i < 37; i++) {
                if (i)
                        append(want, sizeof(want), ",");
                append_domain(want, sizeof(want), 3);
        }
        append(want, sizeof(want), "],\"layer_index\":2,\"node\":63}}]]},\"comm_r\":");
        assert_true(contains(text, len, want));

        snprintf(want, sizeof(want), "%s", ",\"ticket\":");
        append_domain(want, sizeof(want), 255);
        append(want, sizeof(want), "}");
        assert_true(len > strlen(want) &&
                    memcmp(text + len - strlen(want), want, strlen(want)) == 0);
        assert_null(memchr(text, ' ', len));
        free(text);
}

/* write, parse, equal, write again: the same bytes. */
static void round_trip(const struct c1_output *c1, double *write_s, double *parse_s,
                       size_t *json_len) {
        _cleanup_c1_output_ struct c1_output *back = NULL;
        char *text, *again;
        size_t len, len2;
        double t0, t1, t2;

        t0 = test_seconds_now();
        assert_int_equal(c1_write_buffer(c1, &text, &len), 0);
        t1 = test_seconds_now();
        assert_int_equal(c1_parse(text, len, "round-trip.json", &back), 0);
        t2 = test_seconds_now();
        assert_true(test_c1_equal(c1, back));
        assert_int_equal(c1_write_buffer(back, &again, &len2), 0);
        assert_int_equal(len, len2);
        assert_memory_equal(text, again, len);
        if (write_s)
                *write_s = t1 - t0;
        if (parse_s)
                *parse_s = t2 - t1;
        if (json_len)
                *json_len = len;
        free(text);
        free(again);
}

static void test_small_round_trip(void **state) {
        _cleanup_c1_output_ struct c1_output *c1 = small_c1();
        _cleanup_c1_output_ struct c1_output *other = small_c1();
        (void)state;

        round_trip(c1, NULL, NULL, NULL);
        /* The comparison sees a one-bit change. */
        assert_true(test_c1_equal(c1, other));
        other->proofs[1].exp_parents[7].inclusion.base.elements[1].hashes[6][31] ^= 1;
        assert_false(test_c1_equal(c1, other));
        c1->synthetic_c1 = true;
        round_trip(c1, NULL, NULL, NULL);
}

static void test_synthetic_marker(void **state) {
        _cleanup_c1_output_ struct c1_output *c1 = small_c1(), *back = NULL;
        char *text;
        size_t len;
        const char *tail = ",\"cuzk_synthetic_c1\":true}";
        (void)state;

        c1->synthetic_c1 = true;
        assert_int_equal(c1_write_buffer(c1, &text, &len), 0);
        assert_memory_equal(text + len - strlen(tail), tail, strlen(tail));
        assert_int_equal(c1_parse(text, len, "synthetic.json", &back), 0);
        assert_true(back->synthetic_c1);
        free(text);
}

/* RFC 4648 §10's vectors inside the envelope, in Go's field order. */
static void test_envelope_base64(void **state) {
        static const char *const plain[] = {"", "f", "fo", "foo", "foob", "fooba", "foobar"};
        static const char *const b64[] = {"",         "Zg==",     "Zm8=",    "Zm9v",
                                          "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"};
        (void)state;

        for (size_t i = 0; i < 7; i++) {
                char want[128], *text, *out;
                uint64_t num, size;
                size_t len, n;

                snprintf(want, sizeof(want),
                         "{\"SectorNum\":7,\"Phase1Out\":\"%s\",\"SectorSize\":2048}", b64[i]);
                assert_int_equal(
                        c1_envelope_write_buffer(7, plain[i], strlen(plain[i]), 2048, &text, &len),
                        0);
                assert_int_equal(len, strlen(want));
                assert_memory_equal(text, want, len);
                assert_int_equal(c1_envelope_parse(text, len, "env.json", &num, &size, &out, &n),
                                 0);
                assert_int_equal(num, 7);
                assert_int_equal(size, 2048);
                assert_int_equal(n, strlen(plain[i]));
                assert_memory_equal(out, plain[i], n);
                free(out);
                free(text);
        }
}

static void test_envelope_round_trip(void **state) {
        _cleanup_c1_output_ struct c1_output *c1 = small_c1(), *back = NULL, *bare = NULL;
        struct c1_envelope_info info;
        char *text, *env, *phase1;
        size_t len, env_len, n;
        uint64_t num, size;
        FILE *f;
        (void)state;

        assert_int_equal(c1_write_buffer(c1, &text, &len), 0);
        assert_int_equal(c1_envelope_write_buffer(1234, text, len, 2048, &env, &env_len), 0);
        /* The FILE form writes the same bytes. */
        f = tmpfile();
        assert_non_null(f);
        assert_int_equal(c1_envelope_write(f, 1234, text, len, 2048), 0);
        assert_int_equal(ftell(f), (long)env_len);
        fclose(f);

        assert_int_equal(c1_envelope_parse(env, env_len, "c1.json", &num, &size, &phase1, &n), 0);
        assert_int_equal(n, len);
        assert_memory_equal(phase1, text, len);
        free(phase1);
        assert_int_equal(c1_parse_any(env, env_len, "c1.json", &back, &info), 0);
        assert_true(info.present);
        assert_int_equal(info.sector_num, 1234);
        assert_int_equal(info.sector_size, 2048);
        assert_true(test_c1_equal(c1, back));
        /* A bare C1 through the same door. */
        assert_int_equal(c1_parse_any(text, len, "c1.json", &bare, &info), 0);
        assert_false(info.present);
        assert_true(test_c1_equal(c1, bare));
        free(env);
        free(text);
}

/* 32 GiB: Sub proofs (9 base elements of 7 hashes, 1 sub element), 11 rows, 10 x 18. */
static void test_32gib(void **state) {
        _cleanup_c1_output_ struct c1_output *c1 = test_c1_filled("StackedDrg32GiBV1_1", 3);
        struct c1_merkle_proof *m;
        double write_s, parse_s;
        char *text, want[4096] = "";
        size_t len;
        (void)state;

        assert_non_null(c1);
        m = &c1->proofs[0].comm_r_last_proof;
        assert_int_equal(m->kind, C1_MERKLE_SUB);
        assert_int_equal(m->base.n_elements, 9);
        assert_int_equal(m->sub.n_elements, 1);
        assert_int_equal(m->sub.elements[0].n_hashes, 7);
        assert_int_equal(c1->proofs[0].comm_d_proof.base.n_elements, 30);
        assert_int_equal(c1->proofs[0].c_x.n_rows, 11);
        assert_int_equal(c1->proofs[0].n_labeling, 11);

        for (unsigned i = 0; i < 7; i++)
                set_domain(m->sub.elements[0].hashes[i], 9);
        m->sub.elements[0].index = 3;
        set_domain(m->root, 4);
        set_domain(m->leaf, 5);
        append(want, sizeof(want), "]},\"sub_proof\":{\"path\":[{\"hashes\":[");
        for (unsigned i = 0; i < 7; i++) {
                if (i)
                        append(want, sizeof(want), ",");
                append_domain(want, sizeof(want), 9);
        }
        append(want, sizeof(want), "],\"index\":3}]},\"root\":");
        append_domain(want, sizeof(want), 4);
        append(want, sizeof(want), ",\"leaf\":");
        append_domain(want, sizeof(want), 5);
        append(want, sizeof(want), "}}},\"replica_column_proofs\":{\"c_x\":");
        assert_int_equal(c1_write_buffer(c1, &text, &len), 0);
        assert_true(contains(text, len,
                             "\"comm_r_last_proof\":{\"data\":{\"Sub\":{\"base_proof\":"
                             "{\"path\":[{\"hashes\":[["));
        assert_true(contains(text, len, want));
        free(text);

        round_trip(c1, &write_s, &parse_s, &len);
        printf("32 GiB C1: %zu bytes of JSON, written in %.3f s, parsed in %.3f s (%.0f MB/s)\n",
               len, write_s, parse_s, (double)len / parse_s / 1e6);
        assert_true(len > 35000000 && len < 45000000);
        assert_true(parse_s < 1.0);
}

/* 64 GiB: Top proofs, whose top element has one hash. */
static void test_64gib(void **state) {
        _cleanup_c1_output_ struct c1_output *c1 = test_c1_filled("StackedDrg64GiBV1_1", 4);
        struct c1_merkle_proof *m;
        char *text, want[256] = "";
        size_t len;
        (void)state;

        assert_non_null(c1);
        m = &c1->proofs[179].exp_parents[7].inclusion;
        assert_int_equal(m->kind, C1_MERKLE_TOP);
        assert_int_equal(m->base.n_elements, 9);
        assert_int_equal(m->top.n_elements, 1);
        assert_int_equal(m->top.elements[0].n_hashes, 1);
        set_domain(m->top.elements[0].hashes[0], 6);
        m->top.elements[0].index = 1;
        append(want, sizeof(want), "]},\"top_proof\":{\"path\":[{\"hashes\":[");
        append_domain(want, sizeof(want), 6);
        append(want, sizeof(want), "],\"index\":1}]},\"root\":");
        assert_int_equal(c1_write_buffer(c1, &text, &len), 0);
        assert_true(contains(text, len, want));
        free(text);
        round_trip(c1, NULL, NULL, NULL);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_small_pieces),
                cmocka_unit_test(test_small_round_trip),
                cmocka_unit_test(test_synthetic_marker),
                cmocka_unit_test(test_envelope_base64),
                cmocka_unit_test(test_envelope_round_trip),
                cmocka_unit_test(test_32gib),
                cmocka_unit_test(test_64gib),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
