/* SPDX-License-Identifier: Apache-2.0 */
/*
 * filecoin/graph: ChaCha8 against the published keystream vectors and
 * ChaCha20 against libcrypto, the Feistel round against libcrypto's
 * BLAKE2b-512, the first parents and the parent cache names and digests
 * published by rust-fil-proofs (../shared/POREP.md Part B §3), and the
 * V1_0_0 / V1_1_0 parent orders.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>
#include <errno.h>
#include <ftw.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/clock.h"
#include "common/hex.h"
#include "filecoin/graph/chacha8.h"
#include "filecoin/graph/graph.h"
#include "filecoin/graph/parent-cache.h"
#include "filecoin/sha256/sha256.h"

/* draft-strombergson-chacha-test-vectors, 256-bit key, 8 rounds, zero IV:
 * TC1 all-zero key, TC2 key byte 0 = 1. Two blocks each. */
static const char CHACHA8_TC1[] =
        "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e"
        "984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42"
        "d2aefa0deaa5c151bf0adb6c01f2a5adc0fd581259f9a2aadcf20f8fd566a26b"
        "5032ec38bbc5da98ee0c6f568b872a65a08abf251deb21bb4b56e5d8821e68aa";
static const char CHACHA8_TC2[] =
        "cf5ee9a0494aa9613e05d5ed725b804b12f4a465ee635acc3a311de8740489ea"
        "289d04f43c7518db56eb4433e498a1238cd8464d3763ddbb9222ee3bd8fae3c8"
        "b4355a7d93dd8867089ee643558b95754efa2bd1a8a1e2d75bcdb32015542638"
        "291941feb49965587c4fdfe219cf0ec132a6cd4dc067392e67982fe53278c0b4";

static void porep_id_of(unsigned id, uint8_t out[POREP_ID_BYTES]) {
        memset(out, 0, POREP_ID_BYTES);
        for (unsigned i = 0; i < 8; i++)
                out[i] = (uint8_t)((uint64_t)id >> (8 * i));
}

/* Thread CPU time: the test machine may be shared. */
static double cpu_seconds(void) {
        struct timespec ts;

        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void rng_keystream(const uint8_t seed[32], uint8_t out[128]) {
        struct chacha8_rng rng;

        chacha8_rng_init(&rng, seed);
        /* u64 reads: the low word's bytes come first in the keystream. */
        for (unsigned i = 0; i < 16; i++) {
                uint64_t v = chacha8_next_u64(&rng);

                for (unsigned b = 0; b < 8; b++)
                        out[8 * i + b] = (uint8_t)(v >> (8 * b));
        }
}

static void test_chacha8_vectors(void **state) {
        uint8_t seed[32] = {0}, expected[128], got[128];
        (void)state;

        assert_int_equal(hex_decode(CHACHA8_TC1, sizeof(expected), expected, NULL), 0);
        rng_keystream(seed, got);
        assert_memory_equal(got, expected, sizeof(expected));

        /* One key bit: the TC2 stream, not TC1's. */
        seed[0] = 1;
        assert_int_equal(hex_decode(CHACHA8_TC2, sizeof(expected), expected, NULL), 0);
        rng_keystream(seed, got);
        assert_memory_equal(got, expected, sizeof(expected));
}

/* The same block function with 20 rounds is OpenSSL's ChaCha20, whose IV is
 * the 32-bit counter and a 96-bit nonce: words 12..15 either way. */
static void test_chacha20_against_libcrypto(void **state) {
        uint8_t key[32], iv[16], zeros[64] = {0}, expected[64];
        uint32_t key_words[8], block[16];
        uint64_t counter = 7, stream = 0x0123456789abcdefu;
        EVP_CIPHER_CTX *ctx = EVP_CIPHER_CTX_new();
        int len = 0;
        (void)state;

        for (unsigned i = 0; i < 32; i++)
                key[i] = (uint8_t)(i * 37 + 1);
        memcpy(key_words, key, sizeof(key));
        for (unsigned i = 0; i < 8; i++) {
                iv[i] = (uint8_t)(counter >> (8 * i));
                iv[8 + i] = (uint8_t)(stream >> (8 * i));
        }
        assert_non_null(ctx);
        assert_int_equal(EVP_EncryptInit_ex(ctx, EVP_chacha20(), NULL, key, iv), 1);
        assert_int_equal(EVP_EncryptUpdate(ctx, expected, &len, zeros, 64), 1);
        EVP_CIPHER_CTX_free(ctx);

        chacha_block(key_words, counter, stream, 20, block);
        assert_memory_equal(block, expected, 64);
        chacha_block(key_words, counter + 1, stream, 20, block);
        assert_memory_not_equal(block, expected, 64);
}

static uint64_t feistel_round_evp(EVP_MD_CTX *ctx, uint64_t right, uint64_t key, uint64_t mask) {
        uint8_t msg[16], digest[64];
        uint64_t v = 0;

        for (unsigned i = 0; i < 8; i++) {
                msg[i] = (uint8_t)(right >> (56 - 8 * i));
                msg[8 + i] = (uint8_t)(key >> (56 - 8 * i));
        }
        assert_int_equal(EVP_DigestInit_ex(ctx, EVP_blake2b512(), NULL), 1);
        assert_int_equal(EVP_DigestUpdate(ctx, msg, sizeof(msg)), 1);
        assert_int_equal(EVP_DigestFinal_ex(ctx, digest, NULL), 1);
        for (unsigned i = 0; i < 8; i++)
                v = v << 8 | digest[i];
        return v & mask;
}

static void test_feistel_round_against_blake2b(void **state) {
        EVP_MD_CTX *ctx = EVP_MD_CTX_new();
        uint64_t x = 0x9e3779b97f4a7c15u, evp_total = 0, ours_total = 0;
        const unsigned n = 20000;
        double t0, t1, t2;
        (void)state;

        assert_non_null(ctx);
        for (unsigned i = 0; i < 1000; i++) {
                uint64_t right = x * (i + 1), key = x ^ ((uint64_t)i << 40);
                uint64_t mask = i % 2 ? ~UINT64_C(0) : (UINT64_C(1) << (i % 33)) - 1;

                assert_int_equal(feistel_round(right, key, mask),
                                 feistel_round_evp(ctx, right, key, mask));
        }
        /* The measurement behind feistel.c's own compression. */
        t0 = cpu_seconds();
        for (unsigned i = 0; i < n; i++)
                evp_total += feistel_round_evp(ctx, i, x, ~UINT64_C(0));
        t1 = cpu_seconds();
        for (unsigned i = 0; i < n; i++)
                ours_total += feistel_round(i, x, ~UINT64_C(0));
        t2 = cpu_seconds();
        assert_int_equal(evp_total, ours_total);
        printf("# BLAKE2b-512 round function: EVP %.0f ns, ours %.0f ns\n", (t1 - t0) * 1e9 / n,
               (t2 - t1) * 1e9 / n);
        EVP_MD_CTX_free(ctx);
}

static void test_feistel_is_a_permutation(void **state) {
        static const unsigned sizes[] = {8, 64 * 8, 1000, 4096};
        uint8_t porep_id[32];
        (void)state;

        porep_id_of(5, porep_id);
        for (size_t s = 0; s < ELEMENTSOF(sizes); s++) {
                unsigned n = sizes[s];
                uint8_t *seen = calloc(n, 1);
                struct feistel f;

                assert_non_null(seen);
                feistel_init(&f, porep_id, n);
                for (unsigned i = 0; i < n; i++) {
                        uint64_t p = feistel_permute(&f, i);

                        assert_true(p < n);
                        assert_false(seen[p]);
                        seen[p] = 1;
                }
                free(seen);
        }
}

/* The lanes of feistel_permute_range() against one index at a time. */
static void test_feistel_range(void **state) {
        static const uint64_t sizes[] = {8 * 64, UINT64_C(8) << 18, UINT64_C(8) << 30,
                                         UINT64_C(8) << 31};
        uint64_t ranged[37];
        uint8_t porep_id[32];
        (void)state;

        porep_id_of(3, porep_id);
        for (size_t s = 0; s < ELEMENTSOF(sizes); s++) {
                struct feistel f;
                uint64_t first = sizes[s] - 100;

                feistel_init(&f, porep_id, sizes[s]);
                for (size_t count = 0; count <= ELEMENTSOF(ranged); count += 9) {
                        feistel_permute_range(&f, first, count, ranged);
                        for (size_t j = 0; j < count; j++)
                                assert_int_equal(ranged[j], feistel_permute(&f, first + j));
                }
        }
}

/* POREP.md §3: porep_id 5 (StackedDrg2KiBV1_1), 64 nodes. */
static void test_first_parents(void **state) {
        static const uint32_t node2[14] = {1, 1, 1, 0, 1, 0, 30, 28, 55, 63, 63, 36, 37, 36};
        static const uint32_t node3[14] = {2, 1, 1, 2, 2, 2, 10, 46, 59, 7, 43, 29, 9, 16};
        uint8_t porep_id[32];
        struct sdr_graph g;
        uint32_t parents[14];
        (void)state;

        porep_id_of(5, porep_id);
        assert_int_equal(sdr_graph_init_raw(&g, 64, POREP_API_V1_1_0, porep_id), 0);
        sdr_graph_parents(&g, 2, parents);
        assert_memory_equal(parents, node2, sizeof(node2));
        sdr_graph_parents(&g, 3, parents);
        assert_memory_equal(parents, node3, sizeof(node3));

        /* The registered proof gives the same graph. */
        assert_int_equal(sdr_graph_init(&g, porep_config_by_id(5)), 0);
        sdr_graph_parents(&g, 3, parents);
        assert_memory_equal(parents, node3, sizeof(node3));

        /* One bit of porep_id: other parents. */
        porep_id[31] ^= 0x80;
        assert_int_equal(sdr_graph_init_raw(&g, 64, POREP_API_V1_1_0, porep_id), 0);
        sdr_graph_parents(&g, 3, parents);
        assert_memory_not_equal(parents, node3, sizeof(node3));

        assert_int_equal(sdr_graph_init_raw(&g, 1, POREP_API_V1_1_0, porep_id), -EINVAL);
        assert_int_equal(sdr_graph_init_raw(&g, UINT64_C(1) << 32, POREP_API_V1_1_0, porep_id),
                         -EINVAL);
}

/* drgraph.rs's own checks, and V1_0_0 = V1_1_0 with the predecessor moved. */
static void test_api_order(void **state) {
        uint8_t porep_id[32];
        struct sdr_graph old, new;
        (void)state;

        porep_id_of(0, porep_id);
        assert_int_equal(sdr_graph_init_raw(&old, 2048, POREP_API_V1_0_0, porep_id), 0);
        assert_int_equal(sdr_graph_init_raw(&new, 2048, POREP_API_V1_1_0, porep_id), 0);
        for (uint32_t v = 0; v < 2048; v++) {
                uint32_t a[14], b[14];

                sdr_graph_parents(&old, v, a);
                sdr_graph_parents(&new, v, b);
                if (v < 2) {
                        for (unsigned i = 0; i < 6; i++)
                                assert_true(a[i] == 0 && b[i] == 0);
                } else {
                        assert_int_equal(a[5], v - 1);
                        assert_int_equal(b[0], v - 1);
                        assert_memory_equal(a, b + 1, 5 * sizeof(uint32_t));
                        for (unsigned i = 0; i < 6; i++)
                                assert_true(a[i] < v);
                }
                /* Below 2^32 / 8 nodes the u32 truncation changes nothing. */
                assert_memory_equal(a + 6, b + 6, 8 * sizeof(uint32_t));
                for (unsigned i = 6; i < 14; i++)
                        assert_true(a[i] < 2048);
        }
}

/* Two names from parent_cache.json per size (POREP.md §3's table). */
static void test_cache_names(void **state) {
        static const struct {
                unsigned id;
                const char *name;
        } cases[] = {
                {0,
                 "v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899"},
                {5,
                 "v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b"},
                {1,
                 "v28-sdr-parent-dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc"},
                {6,
                 "v28-sdr-parent-5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5"},
                {3,
                 "v28-sdr-parent-e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13"},
                {8,
                 "v28-sdr-parent-21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117"},
        };
        char name[PARENT_CACHE_NAME_MAX];
        struct sdr_graph g;
        (void)state;

        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                assert_int_equal(sdr_graph_init(&g, porep_config_by_id(cases[i].id)), 0);
                parent_cache_name(&g, name);
                assert_string_equal(name, cases[i].name);
                g.feistel.keys[3] ^= 1; /* every key enters the name */
                parent_cache_name(&g, name);
                assert_string_not_equal(name, cases[i].name);
        }
}

static char tmp_dir[] = "/tmp/test-graph-XXXXXX";

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw) {
        (void)st;
        (void)flag;
        (void)ftw;
        return remove(path);
}

static void digest_hex(const uint8_t d[32], char out[65]) {
        for (unsigned i = 0; i < 32; i++)
                snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* Generates the cache of a registered proof in tmp_dir, maps it back, and
 * returns its digest as hex. */
static void generate_and_map(unsigned id, char hex[65]) {
        const struct porep_config *cfg = porep_config_by_id(id);
        struct parent_cache pc = {0};
        char path[512];
        uint8_t digest[32], mapped_digest[32];
        uint32_t parents[14];
        struct sdr_graph g;
        double t0, t1;

        assert_non_null(cfg);
        assert_int_equal(sdr_graph_init(&g, cfg), 0);
        snprintf(path, sizeof(path), "%s/cache-%u", tmp_dir, id);
        t0 = clock_now_seconds();
        assert_int_equal(parent_cache_generate(&g, path, digest), 0);
        t1 = clock_now_seconds();
        printf("# %s parent cache (%llu nodes): %.2f s\n", cfg->name,
               (unsigned long long)cfg->nodes, t1 - t0);

        assert_int_equal(parent_cache_map(path, cfg->nodes, &pc), 0);
        sha256_digest(pc.entries, pc.bytes, mapped_digest);
        assert_memory_equal(digest, mapped_digest, 32);
        sdr_graph_parents(&g, cfg->nodes - 1, parents);
        assert_memory_equal(parent_cache_node(&pc, cfg->nodes - 1), parents, sizeof(parents));
        parent_cache_unmap(&pc);
        assert_null(pc.entries);

        /* A graph of another size does not fit this file. */
        assert_int_equal(parent_cache_map(path, cfg->nodes + 1, &pc), -EBADMSG);
        digest_hex(digest, hex);
}

/* The digests of parent_cache.json (POREP.md §3's table). */
static void test_cache_digests(void **state) {
        static const struct {
                unsigned id;
                const char *digest;
        } cases[] = {
                {0, "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d"},
                {5, "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97"},
                {1, "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce"},
                {6, "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab"},
        };
        char hex[65];
        (void)state;

        for (size_t i = 0; i < ELEMENTSOF(cases); i++) {
                generate_and_map(cases[i].id, hex);
                assert_string_equal(hex, cases[i].digest);
        }
}

/* One bit of porep_id changes the 2 KiB cache; parent_cache_open() makes the
 * file once and maps it afterwards. */
static void test_cache_one_bit_and_open(void **state) {
        uint8_t porep_id[32], digest[32];
        uint32_t entries[64 * 14];
        struct parent_cache pc = {0}, again = {0};
        struct sdr_graph g;
        char hex[65];
        (void)state;

        porep_id_of(5, porep_id);
        porep_id[0] ^= 0x02; /* id 7 */
        assert_int_equal(sdr_graph_init_raw(&g, 64, POREP_API_V1_1_0, porep_id), 0);
        parent_cache_fill(&g, 0, 64, entries);
        sha256_digest(entries, sizeof(entries), digest);
        digest_hex(digest, hex);
        assert_string_not_equal(hex,
                                "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97");

        assert_int_equal(parent_cache_open(&g, tmp_dir, true, &pc), 0);
        assert_memory_equal(pc.entries, entries, sizeof(entries));
        assert_int_equal(parent_cache_open(&g, tmp_dir, true, &again), 0);
        assert_memory_equal(again.entries, entries, sizeof(entries));
        parent_cache_unmap(&pc);
        parent_cache_unmap(&again);
}

/* Time per node of the parents, on one thread, at the 32 GiB graph. */
#define RANGE_NODES 20000u
static void test_bench_parents(void **state) {
        static uint32_t range[RANGE_NODES * 14];
        const unsigned n = 20000;
        uint32_t parents[14], sum = 0;
        struct sdr_graph g;
        double t0, t1, t2, t3;
        (void)state;

        assert_int_equal(sdr_graph_init(&g, porep_config_by_id(8)), 0);
        t0 = cpu_seconds();
        for (unsigned i = 0; i < n; i++) {
                drg_parents(&g.drg, 1000000000u + i, parents);
                sum += parents[3];
        }
        t1 = cpu_seconds();
        for (unsigned i = 0; i < n; i++) {
                sdr_graph_expander_parents(&g, 1000000000u + i, parents);
                sum += parents[3];
        }
        t2 = cpu_seconds();
        sdr_graph_parents_range(&g, 1000000000u, RANGE_NODES, range);
        t3 = cpu_seconds();
        for (unsigned i = 0; i < RANGE_NODES; i += 997) {
                sdr_graph_parents(&g, 1000000000u + i, parents);
                assert_memory_equal(range + 14 * i, parents, sizeof(parents));
        }
        assert_true(sum != 0);
        printf("# 32 GiB graph, per node, thread CPU time: DRG %.0f ns, expander %.0f ns; "
               "in runs (the parent cache): %.0f ns the 14 parents\n",
               (t1 - t0) * 1e9 / n, (t2 - t1) * 1e9 / n, (t3 - t2) * 1e9 / RANGE_NODES);
}

static int setup(void **state) {
        (void)state;
        return mkdtemp(tmp_dir) ? 0 : -1;
}

static int teardown(void **state) {
        (void)state;
        return nftw(tmp_dir, remove_entry, 8, FTW_DEPTH | FTW_PHYS);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_chacha8_vectors),
                cmocka_unit_test(test_chacha20_against_libcrypto),
                cmocka_unit_test(test_feistel_round_against_blake2b),
                cmocka_unit_test(test_feistel_is_a_permutation),
                cmocka_unit_test(test_feistel_range),
                cmocka_unit_test(test_first_parents),
                cmocka_unit_test(test_api_order),
                cmocka_unit_test(test_cache_names),
                cmocka_unit_test(test_cache_digests),
                cmocka_unit_test(test_cache_one_bit_and_open),
                cmocka_unit_test(test_bench_parents),
        };

        return cmocka_run_group_tests(tests, setup, teardown);
}
