/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SDR parent cache: for every node its 14 parents (6 DRG, then 8
 * expander) as u32 LE, 56 bytes a node, the file rust-fil-proofs writes to
 * $FIL_PROOFS_PARENT_CACHE/v28-sdr-parent-<hex>.cache (vanilla/cache.rs,
 * ../shared/POREP.md Part B §3). <hex> is SHA-256 of "poseidon_hasher" ||
 * the StackedGraph identifier || the 4 Feistel keys u64 LE || nodes u32 LE;
 * parent_cache.json publishes the SHA-256 of the whole file for the
 * production sizes, and generation checks against it as the reference does.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "filecoin/graph/graph.h"

#define PARENT_CACHE_ENTRY_BYTES (POREP_TOTAL_PARENTS * sizeof(uint32_t))
/* "v28-sdr-parent-" + 64 hex digits + NUL */
#define PARENT_CACHE_NAME_MAX 80u
#define PARENT_CACHE_SUFFIX ".cache"

/* The cache's name without ".cache": the key of parent_cache.json. */
void parent_cache_name(const struct sdr_graph *g, char out[PARENT_CACHE_NAME_MAX]);

/* The published SHA-256 (64 hex digits) for a name from parent_cache_name(),
 * or NULL for a graph the manifest does not list (test sizes, synthetic and
 * non-interactive PoRep). */
const char *parent_cache_manifest_digest(const char *name);
/* 0 when the manifest lists name with this digest, or does not list name;
 * -EBADMSG, logged with path, when it lists another digest. */
int parent_cache_check_manifest(const char *path, const char *name, const uint8_t digest[32]);

/* Writes the entries of nodes [first_node, first_node + count) to out
 * (count * 14 u32, host order = LE), on all OpenMP threads. */
void parent_cache_fill(const struct sdr_graph *g, uint64_t first_node, uint64_t count,
                       uint32_t *out);

struct atomic_file;

/* Called after each batch of nodes written (at most every 2^20 nodes). */
struct parent_cache_progress {
        void (*done)(uint64_t nodes_done, uint64_t nodes, void *userdata);
        void *userdata;
};

/* Appends every entry of g to f, hashing them into digest on the way.
 * progress may be NULL. Returns 0, -ENOMEM or the write's error. */
int parent_cache_append(const struct sdr_graph *g, struct atomic_file *f,
                        const struct parent_cache_progress *progress, uint8_t digest[32]);

/*
 * Writes the whole cache to path through a temporary file renamed over it
 * once complete and synced, and returns its SHA-256 in ret_digest (may be
 * NULL). -EBADMSG when the manifest lists the graph with another digest
 * (then nothing is left at path); other negative errno on I/O failures.
 */
int parent_cache_generate(const struct sdr_graph *g, const char *path, uint8_t ret_digest[32]);

/* A cache file mapped read-only. */
struct parent_cache {
        const uint32_t *entries; /* node v's parents: entries[14 v .. 14 v + 14) */
        uint64_t nodes;
        size_t bytes;
};

/* Maps path read-only; -EBADMSG when its size is not nodes * 56 bytes. */
int parent_cache_map(const char *path, uint64_t nodes, struct parent_cache *ret);
/* Unmaps (no-op on a zeroed struct), for use with _cleanup_(). */
void parent_cache_unmap(struct parent_cache *pc);

/*
 * The cache of g in directory dir (dir/<name>.cache): mapped when a file of
 * the right size is there, generated first otherwise. For a graph in the
 * manifest, a mapped file is also checked against its digest when verify is
 * set (a full read: ~30 s for 32 GiB sectors); -EBADMSG when it differs.
 */
int parent_cache_open(const struct sdr_graph *g, const char *dir, bool verify,
                      struct parent_cache *ret);

static inline const uint32_t *parent_cache_node(const struct parent_cache *pc, uint64_t node) {
        return pc->entries + node * POREP_TOTAL_PARENTS;
}
