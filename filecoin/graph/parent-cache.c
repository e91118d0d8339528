/* SPDX-License-Identifier: Apache-2.0 */
#include "filecoin/graph/parent-cache.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <string.h>

#include "common/atomic-file.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "filecoin/sha256/sha256.h"

/* Entries are written from memory as they are: u32 LE is the host order. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "parent cache entries are u32 LE");

/* cache.rs VERSION 28, and H::name() of the PoseidonHasher every SDR graph uses. */
#define PARENT_CACHE_PREFIX "v28-sdr-parent-"
static const char HASHER_NAME[] = "poseidon_hasher";

/* Nodes a thread fills at a time, and nodes written (and hashed) per batch:
 * 56 MiB, so the memory use stays flat whatever the sector size. */
#define FILL_CHUNK_NODES 4096u
#define WRITE_BATCH_NODES (UINT64_C(1) << 20)

/* storage-proofs-porep/parent_cache.json at rust-fil-proofs @87348a7. */
static const struct {
        const char *name, *digest;
} MANIFEST[] = {
        {"v28-sdr-parent-3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899",
         "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d"},
        {"v28-sdr-parent-494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b",
         "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97"},
        {"v28-sdr-parent-dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc",
         "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce"},
        {"v28-sdr-parent-5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5",
         "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab"},
        {"v28-sdr-parent-2aa9c77c3e58259481351cc4be2079cc71e1c9af39700866545c043bfa30fb42",
         "3adcc092423aa76d6a7184016893406da44dd974b219a89cd3ece25e4e3018f5"},
        {"v28-sdr-parent-7ba215a1d2345774ab90b8cb1158d296e409d6068819d7b8c7baf0b25d63dc34",
         "b5877d1963793efebc261fd8fde4dd6bc59e6b5c7abf52617a4ee023b8dc173a"},
        {"v28-sdr-parent-e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13",
         "3c4f9841fcc75aed8c695800e58d08480629f25af3a2aefd81904181d75cc0b6"},
        {"v28-sdr-parent-21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117",
         "93deeac5e3052b6927467d4b2641bb782f05491de18d510147c93eeedd8672da"},
        {"v28-sdr-parent-8a99e8d6b6be7ab87a56b632e6739ff201c23ea14e99737c74690f0e265574d6",
         "2778a732ad46a7dc18e0564dfdf59fd321dcde74ab476fd6d3c4e6735d7cd89c"},
        {"v28-sdr-parent-4905486b7af19558ac3649bc6261411858b6add534438878c4ee3b29d8b9de0b",
         "2698b74eb2606b55b98d8b095e18b6320b47f46e00075956d48640ccd1641b03"},
};

static void hex_lower(const uint8_t *bytes, size_t n, char *out) {
        static const char digits[] = "0123456789abcdef";

        for (size_t i = 0; i < n; i++) {
                out[2 * i] = digits[bytes[i] >> 4];
                out[2 * i + 1] = digits[bytes[i] & 15];
        }
        out[2 * n] = 0;
}

void parent_cache_name(const struct sdr_graph *g, char out[PARENT_CACHE_NAME_MAX]) {
        char identifier[256];
        uint8_t keys_le[FEISTEL_KEYS * 8], nodes_le[4], digest[SHA256_DIGEST_BYTES];
        int n;

        assert(g);
        assert(out);

        /* ParameterSetMetadata::identifier() of StackedGraph around BucketGraph. */
        n = snprintf(identifier, sizeof(identifier),
                     "stacked_graph::StackedGraph{expansion_degree: %u base_graph: "
                     "drgraph::BucketGraph{size: %" PRIu64 "; degree: %u; hasher: %s} }",
                     POREP_EXP_PARENTS, g->nodes, POREP_DRG_PARENTS, HASHER_NAME);
        assert(n > 0 && (size_t)n < sizeof(identifier));
        for (unsigned i = 0; i < sizeof(keys_le); i++)
                keys_le[i] = (uint8_t)(g->feistel.keys[i / 8] >> (8 * (i % 8)));
        for (unsigned i = 0; i < sizeof(nodes_le); i++)
                nodes_le[i] = (uint8_t)(g->nodes >> (8 * i));

        const struct sha256_piece pieces[] = {
                {HASHER_NAME, sizeof(HASHER_NAME) - 1},
                {identifier, (size_t)n},
                {keys_le, sizeof(keys_le)},
                {nodes_le, sizeof(nodes_le)},
        };
        sha256_digest_pieces(pieces, ELEMENTSOF(pieces), digest);
        memcpy(out, PARENT_CACHE_PREFIX, strlen(PARENT_CACHE_PREFIX));
        hex_lower(digest, sizeof(digest), out + strlen(PARENT_CACHE_PREFIX));
}

const char *parent_cache_manifest_digest(const char *name) {
        assert(name);

        for (size_t i = 0; i < ELEMENTSOF(MANIFEST); i++)
                if (!strcmp(MANIFEST[i].name, name))
                        return MANIFEST[i].digest;
        return NULL;
}

int parent_cache_check_manifest(const char *path, const char *name, const uint8_t digest[32]) {
        const char *expected;
        char hex[2 * SHA256_DIGEST_BYTES + 1];

        assert(path);
        assert(name);
        assert(digest);

        expected = parent_cache_manifest_digest(name);
        if (!expected)
                return 0;
        hex_lower(digest, SHA256_DIGEST_BYTES, hex);
        if (strcmp(expected, hex))
                return log_error_errno(EBADMSG, "%s: parent cache %s has digest %s, expected %s",
                                       path, name, hex, expected);
        return 0;
}

void parent_cache_fill(const struct sdr_graph *g, uint64_t first_node, uint64_t count,
                       uint32_t *out) {
        uint64_t chunks = (count + FILL_CHUNK_NODES - 1) / FILL_CHUNK_NODES;

        assert(g);
        assert(out || count == 0);
        assert(first_node <= g->nodes && count <= g->nodes - first_node);

#pragma omp parallel for schedule(dynamic, 1)
        for (uint64_t c = 0; c < chunks; c++) {
                uint64_t begin = c * FILL_CHUNK_NODES;
                uint64_t end = begin + FILL_CHUNK_NODES < count ? begin + FILL_CHUNK_NODES : count;

                sdr_graph_parents_range(g, first_node + begin, end - begin,
                                        out + begin * POREP_TOTAL_PARENTS);
        }
}

static void evp_md_ctx_freep(EVP_MD_CTX **ctx) {
        EVP_MD_CTX_free(*ctx);
}

/* Fills and writes the entries batch by batch through buf, hashing them on the way. */
static int write_batches(const struct sdr_graph *g, struct atomic_file *f, EVP_MD_CTX *ctx,
                         uint32_t *buf, uint64_t batch, const struct parent_cache_progress *p,
                         uint8_t digest[SHA256_DIGEST_BYTES]) {
        unsigned digest_len = 0;
        int r;

        /* libcrypto's digest calls fail only on allocation. */
        if (EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) != 1)
                return -ENOMEM;
        for (uint64_t first = 0; first < g->nodes; first += batch) {
                uint64_t count = g->nodes - first < batch ? g->nodes - first : batch;
                size_t bytes = count * PARENT_CACHE_ENTRY_BYTES;

                parent_cache_fill(g, first, count, buf);
                if (EVP_DigestUpdate(ctx, buf, bytes) != 1)
                        return -ENOMEM;
                r = atomic_file_append(f, buf, bytes);
                if (r < 0)
                        return r;
                if (p && p->done)
                        p->done(first + count, g->nodes, p->userdata);
        }
        if (EVP_DigestFinal_ex(ctx, digest, &digest_len) != 1 || digest_len != SHA256_DIGEST_BYTES)
                return -ENOMEM;
        return 0;
}

int parent_cache_append(const struct sdr_graph *g, struct atomic_file *f,
                        const struct parent_cache_progress *progress,
                        uint8_t digest[SHA256_DIGEST_BYTES]) {
        _cleanup_(evp_md_ctx_freep) EVP_MD_CTX *ctx = EVP_MD_CTX_new();
        uint64_t batch = g->nodes < WRITE_BATCH_NODES ? g->nodes : WRITE_BATCH_NODES;
        _cleanup_free_ uint32_t *buf = malloc(batch * PARENT_CACHE_ENTRY_BYTES);

        assert(g && f && digest);

        if (!ctx || !buf)
                // cppcheck-suppress memleak ; freed by _cleanup_
                return -ENOMEM;
        // cppcheck-suppress memleak ; freed by _cleanup_
        return write_batches(g, f, ctx, buf, batch, progress, digest);
}

int parent_cache_generate(const struct sdr_graph *g, const char *path, uint8_t ret_digest[32]) {
        _cleanup_(atomic_file_close) struct atomic_file f = {.fd = -EBADF, .dir_fd = -EBADF};
        uint8_t digest[SHA256_DIGEST_BYTES];
        char name[PARENT_CACHE_NAME_MAX];
        int r;

        assert(g);
        assert(path);

        r = atomic_file_open(path, 0644, &f);
        if (r < 0)
                return log_error_errno(r, "%s: cannot create the parent cache: %m", path);
        r = parent_cache_append(g, &f, NULL, digest);
        if (r < 0)
                return log_error_errno(r, "%s: cannot write the parent cache: %m", path);

        /* As cache.rs does: a production graph must give the published file. */
        parent_cache_name(g, name);
        r = parent_cache_check_manifest(path, name, digest);
        if (r < 0)
                return r;

        r = atomic_file_commit(&f);
        if (r < 0)
                return log_error_errno(r, "%s: cannot commit the parent cache: %m", path);
        if (ret_digest)
                memcpy(ret_digest, digest, sizeof(digest));
        return 0;
}
