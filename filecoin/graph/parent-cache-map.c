/* SPDX-License-Identifier: Apache-2.0 */
/* Mapping parent cache files, and finding or making the one of a graph. */
#include "filecoin/graph/parent-cache.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "filecoin/sha256/sha256.h"

int parent_cache_map(const char *path, uint64_t nodes, struct parent_cache *ret) {
        _cleanup_close_ int fd = -EBADF;
        uint64_t expected = nodes * PARENT_CACHE_ENTRY_BYTES;
        struct stat st;
        void *p;

        assert(path);
        assert(nodes > 0);
        assert(ret);

        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return log_error_errno(errno, "%s: cannot open the parent cache: %m", path);
        if (fstat(fd, &st) < 0)
                return log_error_errno(errno, "%s: cannot stat the parent cache: %m", path);
        if (!S_ISREG(st.st_mode) || (uint64_t)st.st_size != expected)
                return log_error_errno(EBADMSG,
                                       "%s: parent cache of %" PRIu64 " bytes, expected %" PRIu64
                                       " (%" PRIu64 " nodes x %zu)",
                                       path, (uint64_t)st.st_size, expected, nodes,
                                       (size_t)PARENT_CACHE_ENTRY_BYTES);
        p = mmap(NULL, expected, PROT_READ, MAP_SHARED, fd, 0);
        if (p == MAP_FAILED)
                return log_error_errno(errno, "%s: cannot map the parent cache: %m", path);
        *ret = (struct parent_cache){.entries = p, .nodes = nodes, .bytes = expected};
        return 0;
}

void parent_cache_unmap(struct parent_cache *pc) {
        assert(pc);

        if (pc->entries)
                (void)munmap((void *)pc->entries, pc->bytes);
        *pc = (struct parent_cache){0};
}

int parent_cache_open(const struct sdr_graph *g, const char *dir, bool verify,
                      struct parent_cache *ret) {
        _cleanup_(parent_cache_unmap) struct parent_cache pc = {0};
        char name[PARENT_CACHE_NAME_MAX], path[PATH_MAX];
        struct stat st;
        bool generated = false;
        int r, n;

        assert(g);
        assert(dir);
        assert(ret);

        parent_cache_name(g, name);
        n = snprintf(path, sizeof(path), "%s/%s" PARENT_CACHE_SUFFIX, dir, name);
        if (n < 0 || (size_t)n >= sizeof(path))
                return log_error_errno(ENAMETOOLONG, "%s: parent cache directory name too long",
                                       dir);
        if (stat(path, &st) < 0 || (uint64_t)st.st_size != g->nodes * PARENT_CACHE_ENTRY_BYTES) {
                /* Missing, or cut short by a writer of another program:
                 * ours only ever renames complete files into place. */
                r = parent_cache_generate(g, path, NULL);
                if (r < 0)
                        return r;
                generated = true; /* and checked against the manifest */
        }
        r = parent_cache_map(path, g->nodes, &pc);
        if (r < 0)
                return r;
        if (verify && !generated) {
                uint8_t digest[SHA256_DIGEST_BYTES];

                sha256_digest(pc.entries, pc.bytes, digest);
                r = parent_cache_check_manifest(path, name, digest);
                if (r < 0)
                        return r;
        }
        *ret = pc;
        pc = (struct parent_cache){0};
        return 0;
}
