/* SPDX-License-Identifier: Apache-2.0 */
/*
 * api-wire.c: a string field with a NUL byte is found in a request's encoding, at any
 * depth, with the field's name; bytes fields and unknown fields may hold NULs; and bytes
 * that are not a message (truncated or overlong varints, lengths past the end of the
 * message or of the message around them, groups, field number 0) are -EBADMSG, never read
 * past their end, whatever they hold.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "api/api-wire.h"
#include "api/cuzk.pb-c.h"

/* Field numbers of api/cuzk.proto. */
enum {
        SUBMIT_REQUEST_ID = 1,
        SUBMIT_PROOF_KIND = 2,
        SUBMIT_ZKEY_PATH = 100,
        SUBMIT_WTNS_PATH = 101,
        SUBMIT_WTNS = 102,
        SUBMIT_PCE_PATH = 110,
        PROVE_SUBMIT = 1,
        PRELOAD_CIRCUIT_ID = 1,
};

struct buf {
        uint8_t data[512];
        size_t length;
};

static void put_byte(struct buf *b, uint8_t byte) {
        assert_true(b->length < sizeof(b->data));
        b->data[b->length++] = byte;
}

static void put_varint(struct buf *b, uint64_t value) {
        while (value >= 0x80) {
                put_byte(b, (uint8_t)(value | 0x80));
                value >>= 7;
        }
        put_byte(b, (uint8_t)value);
}

static void put_bytes(struct buf *b, unsigned number, const void *value, size_t length) {
        put_varint(b, (uint64_t)number << 3 | 2);
        put_varint(b, length);
        assert_true(length <= sizeof(b->data) - b->length);
        memcpy(b->data + b->length, value, length);
        b->length += length;
}

static void put_uint(struct buf *b, unsigned number, uint64_t value) {
        put_varint(b, (uint64_t)number << 3);
        put_varint(b, value);
}

/* A SubmitProofRequest like cuzkctl's, with zkey as its zkey_path (zkey_length bytes). */
static void submit_request(struct buf *b, const char *zkey, size_t zkey_length) {
        static const char wtns[] = "\0\0wtns bytes\0";

        put_bytes(b, SUBMIT_REQUEST_ID, "req-1", 5);
        put_uint(b, SUBMIT_PROOF_KIND, 100);
        put_bytes(b, SUBMIT_ZKEY_PATH, zkey, zkey_length);
        put_bytes(b, SUBMIT_WTNS, wtns, sizeof(wtns)); /* bytes: NULs are fine */
}

static int find(const ProtobufCMessageDescriptor *d, const struct buf *b,
                struct api_wire_nul *ret) {
        return api_wire_find_nul_string(d, b->data, b->length, ret);
}

static void test_clean_requests(void **state) {
        struct api_wire_nul nul;
        struct buf b = {0};
        (void)state;

        assert_int_equal(api_wire_find_nul_string(&cuzk__v1__submit_proof_request__descriptor, NULL,
                                                  0, &nul),
                         0);
        submit_request(&b, "/tmp/x.zkey", 11);
        assert_int_equal(find(&cuzk__v1__submit_proof_request__descriptor, &b, &nul), 0);
        /* Unknown fields of every wire type, NULs in them: skipped. */
        put_bytes(&b, 999, "a\0b", 3);
        put_varint(&b, 998u << 3 | 1);
        for (int i = 0; i < 8; i++)
                put_byte(&b, 0);
        put_varint(&b, 997u << 3 | 5);
        for (int i = 0; i < 4; i++)
                put_byte(&b, 0);
        put_uint(&b, 996, UINT64_MAX);
        assert_int_equal(find(&cuzk__v1__submit_proof_request__descriptor, &b, &nul), 0);
        /* A string field sent as a varint is not a string: protobuf-c refuses it. */
        b.length = 0;
        put_uint(&b, SUBMIT_ZKEY_PATH, 0);
        assert_int_equal(find(&cuzk__v1__submit_proof_request__descriptor, &b, &nul), 0);
}

static void test_nul_in_path(void **state) {
        static const char path[] = "/tmp/x\0/etc/shadow";
        struct api_wire_nul nul;
        struct buf b = {0};
        (void)state;

        submit_request(&b, path, sizeof(path) - 1);
        assert_int_equal(find(&cuzk__v1__submit_proof_request__descriptor, &b, &nul), 1);
        assert_string_equal(nul.field, "SubmitProofRequest.zkey_path");
        assert_int_equal(nul.offset, 6);
        /* protobuf-c would have handed the handler "/tmp/x". */
        Cuzk__V1__SubmitProofRequest *decoded =
                cuzk__v1__submit_proof_request__unpack(NULL, b.length, b.data);
        assert_non_null(decoded);
        assert_string_equal(decoded->zkey_path, "/tmp/x");
        cuzk__v1__submit_proof_request__free_unpacked(decoded, NULL);

        /* A NUL at the very end, and the first of two bad fields is named. */
        b.length = 0;
        put_bytes(&b, SUBMIT_WTNS_PATH, "/w.wtns\0", 8);
        put_bytes(&b, SUBMIT_REQUEST_ID, "\0", 1);
        assert_int_equal(find(&cuzk__v1__submit_proof_request__descriptor, &b, &nul), 1);
        assert_string_equal(nul.field, "SubmitProofRequest.wtns_path");
        assert_int_equal(nul.offset, 7);
}

static void test_nul_in_nested_and_other_methods(void **state) {
        struct api_wire_nul nul;
        struct buf inner = {0}, b = {0};
        (void)state;

        put_bytes(&inner, SUBMIT_PCE_PATH, "/p.pce\0x", 8);
        put_bytes(&b, PROVE_SUBMIT, inner.data, inner.length);
        assert_int_equal(find(&cuzk__v1__prove_request__descriptor, &b, &nul), 1);
        assert_string_equal(nul.field, "ProveRequest.submit.pce_path");
        assert_int_equal(nul.offset, 6);

        b.length = 0;
        put_bytes(&b, PRELOAD_CIRCUIT_ID, "/k.zkey\0", 8);
        assert_int_equal(find(&cuzk__v1__preload_srs_request__descriptor, &b, &nul), 1);
        assert_string_equal(nul.field, "PreloadSrsRequest.circuit_id");
        b.length = 0;
        put_bytes(&b, 1, "job-1\0job-2", 11);
        assert_int_equal(find(&cuzk__v1__await_proof_request__descriptor, &b, &nul), 1);
        assert_string_equal(nul.field, "AwaitProofRequest.job_id");
}

static void expect_bad(const ProtobufCMessageDescriptor *d, const struct buf *b) {
        struct api_wire_nul nul;
        /* A copy of exactly its length, so that a read past the end is one for ASan. */
        uint8_t *copy = malloc(b->length ? b->length : 1);

        assert_non_null(copy);
        memcpy(copy, b->data, b->length);
        assert_int_equal(api_wire_find_nul_string(d, copy, b->length, &nul), -EBADMSG);
        free(copy);
}

static void test_malformed(void **state) {
        const ProtobufCMessageDescriptor *submit = &cuzk__v1__submit_proof_request__descriptor;
        struct buf b = {0}, inner = {0};
        (void)state;

        put_byte(&b, 0x80); /* a tag cut short */
        expect_bad(submit, &b);
        b.length = 0;
        for (int i = 0; i < 5; i++)
                put_byte(&b, 0xff); /* a tag of 6 bytes */
        put_byte(&b, 0x01);
        expect_bad(submit, &b);
        b.length = 0;
        put_varint(&b, 2u << 3); /* a varint value cut short */
        put_byte(&b, 0x80);
        expect_bad(submit, &b);
        b.length = 0;
        put_varint(&b, 2u << 3); /* a varint value of 11 bytes */
        for (int i = 0; i < 10; i++)
                put_byte(&b, 0x80);
        put_byte(&b, 0x00);
        expect_bad(submit, &b);
        b.length = 0;
        put_varint(&b, SUBMIT_ZKEY_PATH << 3 | 2); /* a length past the end */
        put_varint(&b, 50);
        put_byte(&b, '/');
        expect_bad(submit, &b);
        b.length = 0;
        put_varint(&b, SUBMIT_ZKEY_PATH << 3 | 2); /* a length that would wrap around */
        put_varint(&b, UINT64_MAX);
        put_byte(&b, '/');
        expect_bad(submit, &b);
        b.length = 0;
        put_varint(&b, SUBMIT_ZKEY_PATH << 3 | 2); /* a length with no value */
        expect_bad(submit, &b);
        b.length = 0;
        put_varint(&b, 998u << 3 | 1); /* fixed64 and fixed32 cut short */
        put_byte(&b, 0);
        expect_bad(submit, &b);
        b.length = 0;
        put_varint(&b, 997u << 3 | 5);
        put_byte(&b, 0);
        expect_bad(submit, &b);
        b.length = 0;
        put_varint(&b, 5u << 3 | 3); /* a group */
        expect_bad(submit, &b);
        b.length = 0;
        put_varint(&b, 0u << 3 | 2); /* field number 0 */
        put_varint(&b, 0);
        expect_bad(submit, &b);

        /* A nested length past the end of the message around it (though not past the
         * buffer): the inner walk stops at its own end. */
        b.length = 0;
        put_varint(&inner, SUBMIT_ZKEY_PATH << 3 | 2);
        put_varint(&inner, 10);
        put_bytes(&b, PROVE_SUBMIT, inner.data, inner.length);
        put_bytes(&b, 99, "/tmp/x\0/etc/shadow", 18);
        expect_bad(&cuzk__v1__prove_request__descriptor, &b);
}

/* Every prefix of a good request, and random bytes: an answer, within the buffer. */
static void test_arbitrary_bytes(void **state) {
        struct api_wire_nul nul;
        struct buf inner = {0}, b = {0};
        (void)state;

        submit_request(&inner, "/tmp/x\0/etc/shadow", 18);
        put_bytes(&b, PROVE_SUBMIT, inner.data, inner.length);
        for (size_t n = 0; n <= b.length; n++) {
                uint8_t *copy = malloc(n ? n : 1);
                int r;

                assert_non_null(copy);
                memcpy(copy, b.data, n);
                r = api_wire_find_nul_string(&cuzk__v1__prove_request__descriptor, copy, n, &nul);
                assert_true(r == 0 || r == 1 || r == -EBADMSG);
                assert_int_equal(r, n == b.length ? 1 : n == 0 ? 0 : -EBADMSG);
                free(copy);
        }
        srandom(24);
        for (int round = 0; round < 20000; round++) {
                size_t n = (size_t)random() % 64;
                uint8_t *copy = malloc(n ? n : 1);
                int r;

                assert_non_null(copy);
                for (size_t i = 0; i < n; i++)
                        copy[i] = (uint8_t)random();
                r = api_wire_find_nul_string(&cuzk__v1__prove_request__descriptor, copy, n, &nul);
                assert_true(r == 0 || r == 1 || r == -EBADMSG);
                free(copy);
        }
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_clean_requests),
                cmocka_unit_test(test_nul_in_path),
                cmocka_unit_test(test_nul_in_nested_and_other_methods),
                cmocka_unit_test(test_malformed),
                cmocka_unit_test(test_arbitrary_bytes),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
