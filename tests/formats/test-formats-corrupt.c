/* SPDX-License-Identifier: Apache-2.0 */
/*
 * formats/ refuses what it must: every truncation of the small fixtures,
 * every byte of their structure flipped, random damage, other curves and
 * protocols (real BN254 and PLONK files made by circom/snarkjs), and
 * malformed JSON. A refusal is a negative errno and one message naming the
 * file; nothing may crash (run under ASan by scripts/check.sh).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "formats/binfile.h"
#include "formats/r1cs.h"
#include "formats/snarkjs-json.h"
#include "formats/wtns.h"
#include "formats/zkey.h"
#include "tests/lib/formats-common.h"
#include "tests/lib/ref.h"
#include "zk/point_encoding.h"

/* BN254's scalar field prime, which circom's default curve uses. */
static const char BN254_R_HEX[] =
        "0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";
static const uint8_t BN254_R_LE[32] = {
        0x01, 0x00, 0x00, 0xf0, 0x93, 0xf5, 0xe1, 0x43, 0x91, 0x70, 0xb9,
        0x79, 0x48, 0xe8, 0x33, 0x28, 0x5d, 0x58, 0x81, 0x81, 0xb6, 0x45,
        0x50, 0xb8, 0x29, 0xa0, 0x31, 0xe1, 0x72, 0x4e, 0x64, 0x30,
};

/* Loaders with one signature: 0 or a negative errno, nothing kept. */
typedef int (*load_fn)(const char *path);

static int load_wtns(const char *path) {
        struct wtns *w = NULL;
        int r = wtns_load(path, &w);
        wtns_free(w);
        return r;
}

static int load_r1cs(const char *path) {
        struct r1cs *cs = NULL;
        int r = r1cs_load(path, &cs);
        r1cs_free(cs);
        return r;
}

static int load_zkey(const char *path) {
        struct zkey *zk = NULL;
        int r = zkey_load(path, &zk);
        zkey_free(zk);
        return r;
}

static int load_proof(const char *path) {
        struct groth16_proof proof;
        return snarkjs_proof_load(path, &proof);
}

static int load_public(const char *path) {
        fr_t *signals = NULL;
        size_t n;
        int r = snarkjs_public_load(path, &signals, &n);
        free(signals);
        return r;
}

static int load_vk(const char *path) {
        struct groth16_vk *vk = NULL;
        int r = snarkjs_vk_load(path, &vk);
        snarkjs_vk_free(vk);
        return r;
}

/* Loads data through a memfd path; the message of a refusal is captured. */
static int load_bytes(load_fn load, const uint8_t *data, size_t size, char path[64]) {
        int fd = memfd_with(data, size, path);
        int r;

        log_capture(true);
        r = load(path);
        close(fd);
        return r;
}

/* A refusal: a negative errno and exactly one message, naming the file. */
static void expect_refused(int r, const char *path, const char *context) {
        if (r >= 0)
                fail_msg("%s: %s was accepted", path, context);
        if (log_message_count() != 1 || !strstr(log_last_message(), path))
                fail_msg("%s: %s: expected one message naming the file, got %zu: \"%s\"", path,
                         context, log_message_count(), log_last_message());
}

static void expect_refused_with(int r, int expected, const char *path, const char *needle) {
        expect_refused(r, path, needle);
        if (r != expected || !strstr(log_last_message(), needle))
                fail_msg("%s: expected %s and \"%s\", got %s: \"%s\"", path, strerror(-expected),
                         needle, strerror(-r), log_last_message());
}

struct blob {
        uint8_t *data;
        size_t size;
};

static struct blob fixture_blob(const char *circuit, const char *ext) {
        _cleanup_free_ char *path = fixture_file(circuit, ext);
        struct blob b;

        b.data = read_whole_file(path, &b.size);
        return b;
}

static void blob_free(struct blob *b) {
        free(b->data);
}

/* The fixture's section of this type (the first). */
static struct fixture_section find_section(const struct blob *b, uint32_t type) {
        struct fixture_section s[16];
        size_t n = fixture_sections(b->data, b->size, s);

        for (size_t i = 0; i < n; i++)
                if (s[i].type == type)
                        return s[i];
        fail_msg("fixture has no section %u", type);
        return (struct fixture_section){0};
}

static bool in_range(size_t offset, size_t start, size_t length) {
        return offset >= start && offset < start + length;
}

/* A section the reader does not use: its type may change unnoticed. */
static bool in_unused_section(const struct blob *b, uint32_t type, size_t offset) {
        struct fixture_section s = find_section(b, type);
        return in_range(offset, s.header, 4) || in_range(offset, s.offset, s.size);
}

/* The low 31 bytes of a 32-byte field element: flipped, it may stay below r. */
static bool in_field_value(size_t offset, size_t value_start) {
        return in_range(offset, value_start, 31);
}

/* Bytes of edge.zkey whose flip (xor 0xff) may leave a valid key. */
static bool zkey_flip_may_pass(const struct blob *b, size_t offset) {
        struct fixture_section coefs = find_section(b, 4);

        if (in_unused_section(b, 10, offset))
                return true;
        if (offset >= coefs.offset + 4 && offset < coefs.offset + coefs.size) {
                size_t entry = (offset - coefs.offset - 4) / 44;
                return in_field_value(offset, coefs.offset + 4 + entry * 44 + 12);
        }
        return false;
}

static bool r1cs_flip_may_pass(const struct blob *b, size_t offset) {
        struct fixture_section header = find_section(b, 1), constraints = find_section(b, 2);
        uint32_t n_constraints = bin_le32(b->data + header.offset + 4 + 32 + 4 * 4 + 8);
        size_t pos = constraints.offset;

        if (in_unused_section(b, 3, offset))
                return true;
        /* nLabels is not used. */
        if (in_range(offset, header.offset + 4 + 32 + 4 * 4, 8))
                return true;
        for (uint32_t c = 0; c < n_constraints; c++)
                for (int m = 0; m < 3; m++) {
                        uint32_t n = bin_le32(b->data + pos);
                        pos += 4;
                        for (uint32_t t = 0; t < n; t++, pos += 36)
                                if (in_field_value(offset, pos + 4))
                                        return true;
                }
        return false;
}

static bool wtns_flip_may_pass(const struct blob *b, size_t offset) {
        struct fixture_section values = find_section(b, 2);

        return offset >= values.offset && offset < values.offset + values.size &&
               in_field_value(offset, offset - (offset - values.offset) % 32);
}

struct flip_case {
        const char *ext;
        load_fn load;
        bool (*may_pass)(const struct blob *b, size_t offset);
};

static const struct flip_case binary_cases[] = {
        {"wtns", load_wtns, wtns_flip_may_pass},
        {"r1cs", load_r1cs, r1cs_flip_may_pass},
        {"zkey", load_zkey, zkey_flip_may_pass},
};

static size_t stride(void) {
        return (size_t)(1.0 / test_scale() + 0.5);
}

static void test_truncated(void **state) {
        static const struct {
                const char *circuit, *ext;
                load_fn load;
        } cases[] = {
                {"edge", "wtns", load_wtns},        {"edge", "r1cs", load_r1cs},
                {"edge", "zkey", load_zkey},        {"pubinputs", "zkey", load_zkey},
                {"edge", "proof.json", load_proof}, {"edge", "public.json", load_public},
                {"edge", "vk.json", load_vk},
        };

        (void)state;
        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                struct blob b = fixture_blob(cases[i].circuit, cases[i].ext);
                char path[64], what[64];

                /* The whole file loads: the truncations are what fail. */
                assert_int_equal(load_bytes(cases[i].load, b.data, b.size, path), 0);
                for (size_t len = 0; len < b.size; len += len < 64 ? 1 : stride()) {
                        snprintf(what, sizeof(what), "%s.%s cut to %zu bytes", cases[i].circuit,
                                 cases[i].ext, len);
                        expect_refused(load_bytes(cases[i].load, b.data, len, path), path, what);
                }
                blob_free(&b);
        }
        log_capture(false);
}

static void test_flipped_bytes(void **state) {
        (void)state;
        for (size_t i = 0; i < ELEMENTSOF(binary_cases); i++) {
                const struct flip_case *fc = &binary_cases[i];
                struct blob b = fixture_blob("edge", fc->ext);
                size_t checked = 0;

                for (size_t offset = 0; offset < b.size; offset++) {
                        bool may_pass = fc->may_pass(&b, offset);
                        char path[64], what[64];
                        int r;

                        if (may_pass && offset % stride() != 0)
                                continue;
                        b.data[offset] ^= 0xff;
                        r = load_bytes(fc->load, b.data, b.size, path);
                        b.data[offset] ^= 0xff;
                        snprintf(what, sizeof(what), "edge.%s with byte %zu flipped", fc->ext,
                                 offset);
                        /* A flip that may pass is still refused properly if it is refused. */
                        if (!may_pass || r < 0)
                                expect_refused(r, path, what);
                        checked += !may_pass;
                }
                assert_true(checked > 0);
                blob_free(&b);
        }
        log_capture(false);
}

/* Random damage anywhere: refused with a message, or accepted; never a crash. */
static void test_random_damage(void **state) {
        (void)state;
        test_rng_seed(7);
        for (size_t i = 0; i < ELEMENTSOF(binary_cases); i++) {
                const struct flip_case *fc = &binary_cases[i];
                struct blob b = fixture_blob("pubinputs", fc->ext);
                uint8_t *copy = malloc(b.size);
                size_t rounds = (size_t)(2000 * test_scale()) + 1;

                assert_non_null(copy);
                for (size_t round = 0; round < rounds; round++) {
                        size_t n = 1 + test_rng_u64() % 4;
                        char path[64];
                        int r;

                        memcpy(copy, b.data, b.size);
                        for (size_t k = 0; k < n; k++)
                                copy[test_rng_u64() % b.size] = (uint8_t)test_rng_u64();
                        r = load_bytes(fc->load, copy, b.size, path);
                        if (r < 0)
                                expect_refused(r, path, "damaged file");
                }
                free(copy);
                blob_free(&b);
        }
        log_capture(false);
}

static void test_other_curve(void **state) {
        _cleanup_free_ char *r1cs_path = fixture_path("edge-bn128.r1cs");
        _cleanup_free_ char *wtns_path = fixture_path("edge-bn128.wtns");
        struct blob wtns = fixture_blob("edge", "wtns"), r1cs = fixture_blob("edge", "r1cs");
        struct blob zkey = fixture_blob("edge", "zkey");
        struct fixture_section s;
        char path[64];

        (void)state;
        /* Files circom and snarkjs made for BN254. */
        log_capture(true);
        expect_refused_with(load_r1cs(r1cs_path), -EOPNOTSUPP, r1cs_path, BN254_R_HEX);
        log_capture(true);
        expect_refused_with(load_wtns(wtns_path), -EOPNOTSUPP, wtns_path, BN254_R_HEX);

        /* BLS12-381 files with BN254's prime swapped in. */
        s = find_section(&wtns, 1);
        memcpy(wtns.data + s.offset + 4, BN254_R_LE, 32);
        expect_refused_with(load_bytes(load_wtns, wtns.data, wtns.size, path), -EOPNOTSUPP, path,
                            BN254_R_HEX);
        s = find_section(&r1cs, 1);
        memcpy(r1cs.data + s.offset + 4, BN254_R_LE, 32);
        expect_refused_with(load_bytes(load_r1cs, r1cs.data, r1cs.size, path), -EOPNOTSUPP, path,
                            BN254_R_HEX);
        /* The zkey's Fr prime (after n8q, q and n8r), then its base field size. */
        s = find_section(&zkey, 2);
        memcpy(zkey.data + s.offset + 4 + 48 + 4, BN254_R_LE, 32);
        expect_refused_with(load_bytes(load_zkey, zkey.data, zkey.size, path), -EOPNOTSUPP, path,
                            BN254_R_HEX);
        bin_put_le32(zkey.data + s.offset, 32);
        expect_refused_with(load_bytes(load_zkey, zkey.data, zkey.size, path), -EOPNOTSUPP, path,
                            "size is 32 bytes, expected 48");

        blob_free(&wtns);
        blob_free(&r1cs);
        blob_free(&zkey);
        log_capture(false);
}

static void test_other_protocol(void **state) {
        _cleanup_free_ char *plonk_path = fixture_path("edge.plonk.zkey");
        struct blob zkey = fixture_blob("edge", "zkey");
        struct fixture_section s = find_section(&zkey, 1);
        char path[64];

        (void)state;
        log_capture(true);
        expect_refused_with(load_zkey(plonk_path), -EPROTONOSUPPORT, plonk_path, "(plonk)");
        bin_put_le32(zkey.data + s.offset, 10);
        expect_refused_with(load_bytes(load_zkey, zkey.data, zkey.size, path), -EPROTONOSUPPORT,
                            path, "(fflonk)");
        blob_free(&zkey);
        log_capture(false);
}

static void test_wrong_file(void **state) {
        _cleanup_free_ char *wtns_path = fixture_file("edge", "wtns");
        _cleanup_free_ char *missing = fixture_path("no-such-file.zkey");
        _cleanup_free_ char *dir = fixture_path("");
        struct blob wtns = fixture_blob("edge", "wtns"), r1cs = fixture_blob("edge", "r1cs");
        char path[64];

        (void)state;
        log_capture(true);
        expect_refused_with(load_zkey(wtns_path), -EBADMSG, wtns_path,
                            "not a zkey file, expected \"zkey\"");
        log_capture(true);
        expect_refused_with(load_zkey(missing), -ENOENT, missing, "No such file");
        log_capture(true);
        expect_refused(load_zkey(dir), dir, "a directory");

        bin_put_le32(wtns.data + 4, 3);
        expect_refused_with(load_bytes(load_wtns, wtns.data, wtns.size, path), -EOPNOTSUPP, path,
                            "version 3");
        bin_put_le32(r1cs.data + 4, 2);
        expect_refused_with(load_bytes(load_r1cs, r1cs.data, r1cs.size, path), -EOPNOTSUPP, path,
                            "version 2");
        blob_free(&wtns);
        blob_free(&r1cs);
        log_capture(false);
}

/* A copy of b with extra bytes appended and, when new_sections, the section count raised. */
static struct blob blob_append(const struct blob *b, const uint8_t *extra, size_t n,
                               uint32_t new_sections) {
        struct blob c = {.data = malloc(b->size + n), .size = b->size + n};

        assert_non_null(c.data);
        memcpy(c.data, b->data, b->size);
        memcpy(c.data + b->size, extra, n);
        bin_put_le32(c.data + 8, bin_le32(c.data + 8) + new_sections);
        return c;
}

static void test_structure(void **state) {
        struct blob wtns = fixture_blob("edge", "wtns"), r1cs = fixture_blob("edge", "r1cs");
        struct blob zkey = fixture_blob("edge", "zkey");
        struct fixture_section s;
        struct blob c;
        uint8_t empty_section[12] = {0};
        char path[64];

        (void)state;
        /* Section 1 again at the end. */
        s = find_section(&wtns, 1);
        c = blob_append(&wtns, wtns.data + s.header, 12 + s.size, 1);
        expect_refused_with(load_bytes(load_wtns, c.data, c.size, path), -EBADMSG, path,
                            "appears twice");
        blob_free(&c);
        /* Bytes after the last section. */
        c = blob_append(&wtns, (const uint8_t *)"junk", 4, 0);
        expect_refused_with(load_bytes(load_wtns, c.data, c.size, path), -EBADMSG, path,
                            "after the last section");
        blob_free(&c);
        /* A PLONK custom gates section. */
        bin_put_le32(empty_section, 4);
        c = blob_append(&r1cs, empty_section, sizeof(empty_section), 1);
        expect_refused_with(load_bytes(load_r1cs, c.data, c.size, path), -EOPNOTSUPP, path,
                            "custom gates");
        blob_free(&c);

        /* A witness without values: the header, then an empty values section. */
        s = find_section(&wtns, 1);
        {
                uint8_t empty_values[12] = {2};
                struct blob head = {.data = wtns.data, .size = s.offset + s.size};
                c = blob_append(&head, empty_values, sizeof(empty_values), 0);
                bin_put_le32(c.data + s.offset + s.size - 4, 0);
                expect_refused_with(load_bytes(load_wtns, c.data, c.size, path), -EBADMSG, path,
                                    "no values");
                blob_free(&c);
        }

        /* Witness value 0 must be the constant 1. */
        s = find_section(&wtns, 2);
        wtns.data[s.offset] = 2;
        expect_refused_with(load_bytes(load_wtns, wtns.data, wtns.size, path), -EBADMSG, path,
                            "constant wire");

        /* More public signals than wires. */
        s = find_section(&r1cs, 1);
        bin_put_le32(r1cs.data + s.offset + 4 + 32 + 4, 100);
        expect_refused_with(load_bytes(load_r1cs, r1cs.data, r1cs.size, path), -EBADMSG, path,
                            "nWires is 9");

        /* domainSize (after n8q, q, n8r, r, nVars, nPublic) not a power of two. */
        s = find_section(&zkey, 2);
        bin_put_le32(zkey.data + s.offset + 4 + 48 + 4 + 32 + 8, 12);
        expect_refused_with(load_bytes(load_zkey, zkey.data, zkey.size, path), -EBADMSG, path,
                            "power of two");
        bin_put_le32(zkey.data + s.offset + 4 + 48 + 4 + 32 + 8, 16);
        assert_int_equal(load_bytes(load_zkey, zkey.data, zkey.size, path), 0);

        blob_free(&wtns);
        blob_free(&r1cs);
        blob_free(&zkey);
        log_capture(false);
}

/* On the curve, outside the order-r subgroup (almost every curve point is). */
static void g1_outside_subgroup(g1_affine_t *p) {
        for (uint64_t x = 1;; x++) {
                fp_t fx;
                fp_from_u64(&fx, x);
                if (g1_affine_from_x(p, &fx, false) && !g1_affine_in_subgroup(p))
                        return;
        }
}

static void g2_outside_subgroup(g2_affine_t *p) {
        for (uint64_t x = 1;; x++) {
                fp2_t fx;
                fp_from_u64(&fx.c0, x);
                fp_set_one(&fx.c1);
                if (g2_affine_from_x(p, &fx, false) && !g2_affine_in_subgroup(p))
                        return;
        }
}

/* The verification-key points of a zkey must be in the subgroup. */
static void test_zkey_subgroup(void **state) {
        struct blob zkey = fixture_blob("edge", "zkey");
        struct fixture_section s = find_section(&zkey, 2);
        size_t alpha1 = s.offset + 4 + 48 + 4 + 32 + 12;
        g1_affine_t p;
        char path[64];

        (void)state;
        g1_outside_subgroup(&p);
        g1_encode(zkey.data + alpha1, G1_SNARKJS_BYTES, &p, POINT_FORMAT_SNARKJS);
        expect_refused_with(load_bytes(load_zkey, zkey.data, zkey.size, path), -EBADMSG, path,
                            "alpha1 point 0 of 1: not in the prime-order subgroup");
        blob_free(&zkey);
        log_capture(false);
}

static json_t *fixture_json(const char *circuit, const char *ext) {
        _cleanup_free_ char *path = fixture_file(circuit, ext);
        json_error_t error;
        json_t *root = json_load_file(path, 0, &error);

        assert_non_null(root);
        return root;
}

/* The canonical value of n limbs as a decimal JSON string, by GMP. */
static json_t *decimal_json(const uint64_t *limbs, size_t n) {
        mpz_t z;
        char *digits;
        json_t *v;

        mpz_init(z);
        mpz_import(z, n, -1, sizeof(uint64_t), 0, 0, limbs);
        digits = mpz_get_str(NULL, 10, z);
        v = json_string(digits);
        free(digits);
        mpz_clear(z);
        return v;
}

static void g1_to_json_array(json_t *array, const g1_affine_t *p) {
        uint64_t limbs[FP_LIMBS];

        fp_to_canonical(limbs, &p->x);
        json_array_set_new(array, 0, decimal_json(limbs, FP_LIMBS));
        fp_to_canonical(limbs, &p->y);
        json_array_set_new(array, 1, decimal_json(limbs, FP_LIMBS));
}

static void g2_to_json_array(json_t *array, const g2_affine_t *p) {
        const fp_t *coords[4] = {&p->x.c0, &p->x.c1, &p->y.c0, &p->y.c1};
        uint64_t limbs[FP_LIMBS];

        for (size_t i = 0; i < 4; i++) {
                fp_to_canonical(limbs, coords[i]);
                json_array_set_new(json_array_get(array, i / 2), i % 2,
                                   decimal_json(limbs, FP_LIMBS));
        }
}

/* Runs from_json on a mutated proof and expects a refusal mentioning needle. */
static void expect_proof_refused(json_t *root, int expected, const char *needle) {
        struct groth16_proof proof;

        log_capture(true);
        expect_refused_with(snarkjs_proof_from_json(root, "mutated.proof.json", &proof), expected,
                            "mutated.proof.json", needle);
        log_capture(false);
}

static void test_json_proof(void **state) {
        json_t *pi_a;
        g1_affine_t p1;
        g2_affine_t p2;

        (void)state;
#define MUTATE(stmt, expected, needle)                                  \
        do {                                                            \
                json_auto_t *root = fixture_json("edge", "proof.json"); \
                stmt;                                                   \
                expect_proof_refused(root, expected, needle);           \
        } while (0)

        MUTATE(json_object_set_new(root, "protocol", json_string("plonk")), -EOPNOTSUPP,
               "\"protocol\" is \"plonk\", expected \"groth16\"");
        MUTATE(json_object_set_new(root, "curve", json_string("bn128")), -EOPNOTSUPP,
               "\"curve\" is \"bn128\", expected \"bls12381\"");
        MUTATE(json_object_del(root, "pi_c"), -EBADMSG, "\"pi_c\" is missing");
        MUTATE(json_object_set_new(root, "pi_a", json_string("1")), -EBADMSG,
               "pi_a is not an array");
        MUTATE(json_array_set_new(json_object_get(root, "pi_a"), 0, json_string("12x")), -EBADMSG,
               "pi_a[0] is \"12x\"");
        MUTATE(json_array_set_new(json_object_get(root, "pi_a"), 0, json_integer(12)), -EBADMSG,
               "pi_a[0] is not a string");
        MUTATE(json_array_set_new(json_object_get(root, "pi_a"), 0,
                                  decimal_json(BLS12_381_P, FP_LIMBS)),
               -EBADMSG, "expected a value below p");
        MUTATE(json_array_set_new(json_object_get(root, "pi_a"), 2, json_string("2")), -EBADMSG,
               "expected an affine point");
        MUTATE(json_array_set_new(json_object_get(root, "pi_a"), 1, json_string("5")), -EBADMSG,
               "pi_a: not on the curve");
        MUTATE(json_array_set_new(json_array_get(json_object_get(root, "pi_b"), 0), 1,
                                  json_string("5")),
               -EBADMSG, "pi_b: not on the curve");
        MUTATE(json_array_remove(json_array_get(json_object_get(root, "pi_b"), 0), 1), -EBADMSG,
               "pi_b[0] is not an array of 2");

        g1_outside_subgroup(&p1);
        MUTATE(g1_to_json_array(json_object_get(root, "pi_c"), &p1), -EBADMSG,
               "pi_c: not in the prime-order subgroup");
        g2_outside_subgroup(&p2);
        MUTATE(g2_to_json_array(json_object_get(root, "pi_b"), &p2), -EBADMSG,
               "pi_b: not in the prime-order subgroup");
#undef MUTATE

        /* Infinity is [0, 1, 0]; (0, 0) with z = 1 is not a point. */
        {
                json_auto_t *root = fixture_json("edge", "proof.json");
                struct groth16_proof proof;
                pi_a = json_object_get(root, "pi_a");
                json_array_set_new(pi_a, 0, json_string("0"));
                json_array_set_new(pi_a, 1, json_string("1"));
                json_array_set_new(pi_a, 2, json_string("0"));
                assert_int_equal(snarkjs_proof_from_json(root, "infinity.json", &proof), 0);
                assert_true(g1_affine_is_infinity(&proof.a));
                json_array_set_new(pi_a, 1, json_string("0"));
                json_array_set_new(pi_a, 2, json_string("1"));
                expect_proof_refused(root, -EBADMSG, "pi_a: not on the curve");
        }
}

static void test_json_vk_public(void **state) {
        struct groth16_vk *vk = NULL;
        fr_t *signals = NULL;
        size_t n;

        (void)state;
        {
                json_auto_t *root = fixture_json("edge", "vk.json");
                json_object_set_new(root, "nPublic", json_integer(3));
                log_capture(true);
                expect_refused_with(snarkjs_vk_from_json(root, "vk", &vk), -EBADMSG, "vk",
                                    "IC is not an array of nPublic + 1 = 4 points");
                json_object_set_new(root, "nPublic", json_string("2"));
                log_capture(true);
                expect_refused_with(snarkjs_vk_from_json(root, "vk", &vk), -EBADMSG, "vk",
                                    "nPublic is not an integer");
        }
        {
                json_auto_t *root = fixture_json("edge", "vk.json");
                json_t *ab = json_array_get(
                        json_array_get(json_object_get(root, "vk_alphabeta_12"), 1), 2);
                json_array_set_new(ab, 0, json_string("7"));
                log_capture(true);
                expect_refused_with(snarkjs_vk_from_json(root, "vk", &vk), -EBADMSG, "vk",
                                    "vk_alphabeta_12 is not e(vk_alpha_1, vk_beta_2)");
                /* Without it the key loads, and is written without it. */
                json_object_del(root, "vk_alphabeta_12");
                assert_int_equal(snarkjs_vk_from_json(root, "vk", &vk), 0);
                assert_false(vk->has_alphabeta);
                {
                        json_auto_t *out = snarkjs_vk_to_json(vk);
                        assert_true(json_equal(out, root));
                }
                vk = snarkjs_vk_free(vk);
        }
        {
                json_auto_t *root = fixture_json("edge", "public.json");
                json_array_set_new(root, 0, decimal_json(BLS12_381_R, FR_LIMBS));
                log_capture(true);
                expect_refused_with(snarkjs_public_from_json(root, "pub", &signals, &n), -EBADMSG,
                                    "pub", "signal 0 is");
                log_capture(true);
                expect_refused_with(snarkjs_public_from_json(json_true(), "pub", &signals, &n),
                                    -EBADMSG, "pub", "not a JSON array");
        }
        log_capture(false);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_truncated),      cmocka_unit_test(test_flipped_bytes),
                cmocka_unit_test(test_random_damage),  cmocka_unit_test(test_other_curve),
                cmocka_unit_test(test_other_protocol), cmocka_unit_test(test_wrong_file),
                cmocka_unit_test(test_structure),      cmocka_unit_test(test_zkey_subgroup),
                cmocka_unit_test(test_json_proof),     cmocka_unit_test(test_json_vk_public),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
