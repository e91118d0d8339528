/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a partition reserves, from the headers of the circuit's files only
 * (the supervisor never loads a key or matrices): a .zkey's sections 1 and
 * 2 (protocol, sizes), a .pce's 256-byte header.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "circuits/pce-file.h"
#include "common/log.h"
#include "circuits/pce-compact.h"
#include "daemon/supervisor/job.h"
#include "daemon/supervisor/peer-files.h"
#include "formats/bellperson_params.h"
#include "formats/binfile.h"
#include "zk/groth16_memory.h"

/* The daemon's own file (a PoRep job's PCE and parameters; the tests'), opened as a client's
 * would be: absolute, regular, without blocking (peer-files.h). */
static int open_own(const char *path, struct job_file *ret, char *msg, size_t msg_size) {
        int fd = peer_files_open(NULL, NULL, path, &ret->size, msg, msg_size);

        if (fd < 0)
                return fd;
        ret->path = path;
        ret->fd = fd;
        return 0;
}

static int read_exact(int fd, uint64_t offset, void *buf, size_t size) {
        ssize_t n = pread(fd, buf, size, (off_t)offset);

        if (n < 0)
                return -errno;
        return (size_t)n == size ? 0 : -EBADMSG;
}

void job_shape_split(unsigned log_domain_size, uint64_t partition_bytes, struct job_shape *ret) {
        uint64_t abc = UINT64_C(3) * 32 << log_domain_size;

        assert(ret);
        /* a, b, c are part of the H phase's peak; the figure cannot be below them. */
        ret->abc_bytes = abc < partition_bytes ? abc : partition_bytes;
        ret->rest_bytes = partition_bytes - ret->abc_bytes;
}

/* A compact witness of n_values values (the rest bits), with the memfd's header. */
static uint64_t compact_bytes(uint64_t n_vars, uint64_t n_public, uint64_t n_values) {
        assert(n_vars > n_public);
        return pce_compact_bytes((uint32_t)n_public, n_vars - 1 - n_public, n_values) + 64;
}

/* The prover's part: the bitmaps' rank beside the mapped memfd. */
static uint64_t compact_rank_bytes(uint64_t n_vars, uint64_t n_public) {
        return pce_bitmap_words(n_vars - 1 - n_public) * sizeof(uint64_t);
}

void job_shape_compact(uint64_t n_vars, uint64_t n_public, struct job_shape *ret) {
        /* A .wtns may hold any value in any wire: every aux a value is the most its compact
         * form can be. */
        const uint64_t compact = compact_bytes(n_vars, n_public, n_vars - 1 - n_public);

        /* The worker: the full witness it reads, the compact one it makes of it, and the
         * memfd's copy. */
        ret->compact_abc_bytes = n_vars * sizeof(fr_t) + 2 * compact;
        ret->compact_rest_bytes = compact_rank_bytes(n_vars, n_public);
}

void job_shape_compact_synthesized(struct job_shape *shape) {
        /* The gadgets allocate each aux as a bit or a value whatever its value, so no
         * witness has more values than the circuit's shape counted (PCE_AUX_VALUES); a PCE
         * without the count bounds them by every aux. */
        const uint64_t compact =
                compact_bytes(shape->n_vars, shape->n_public, shape->max_aux_values);

        assert(shape->max_aux_values < shape->n_vars - shape->n_public);
        /* The worker never holds the full witness. Each challenge's part is synthesized
         * apart, then all are joined into the partition's, in arrays that double as they
         * grow (each at most twice what it holds): the parts (2), the joined witness (2)
         * and, while one of its arrays moves, the old copy (1); after that the joined one,
         * the memfd's copy and the rank (at most one: it is smaller than the bitmaps).
         * Freed parts the allocator keeps count as held: six compact witnesses at most. */
        shape->compact_abc_bytes = 6 * compact;
        shape->compact_rest_bytes = compact_rank_bytes(shape->n_vars, shape->n_public);
}

/* gathered: the most scalars the prover gathers for a key in bellperson's
 * layout (0 for a point per wire). */
static void shape_from_sizes(unsigned log_domain_size, uint64_t n_vars, uint64_t n_public,
                             uint64_t gathered, unsigned threads, struct job_shape *ret) {
        struct groth16_partition_shape shape = {
                .log_domain_size = log_domain_size,
                .n_vars = n_vars,
                .n_public = n_public,
                /* Any witness: every wire may go through the windows. */
                .g1_windowed = n_vars,
                .g2_windowed = n_vars,
                .evaluate_bytes = 0, /* sparse matrices evaluate in place */
                .gathered = gathered,
                .threads = threads,
        };

        job_shape_split(log_domain_size, groth16_partition_bytes(&shape), ret);
        ret->n_vars = n_vars;
}

/* Finds section `type` of a binfile-format file: its offset and size. */
static int zkey_find_section(int fd, uint64_t file_size, uint32_t type, uint64_t *ret_offset,
                             uint64_t *ret_size) {
        uint8_t header[12], sect[12];
        uint64_t pos = 12;
        uint32_t n_sections;
        int r;

        r = read_exact(fd, 0, header, sizeof(header));
        if (r < 0)
                return r;
        if (memcmp(header, "zkey", 4) != 0)
                return -EBADMSG;
        n_sections = bin_le32(header + 8);
        for (uint32_t i = 0; i < n_sections; i++) {
                uint64_t size;

                r = read_exact(fd, pos, sect, sizeof(sect));
                if (r < 0)
                        return r;
                size = bin_le64(sect + 4);
                if (size > file_size - pos - 12)
                        return -EBADMSG;
                if (bin_le32(sect) == type) {
                        *ret_offset = pos + 12;
                        *ret_size = size;
                        return 0;
                }
                pos += 12 + size;
        }
        return -EBADMSG;
}

int job_shape_snarkjs_file(const struct job_file *zkey, unsigned prover_threads,
                           struct job_shape *ret, char *msg, size_t msg_size) {
        const char *zkey_path;
        uint64_t file_size, offset, size, q_end;
        int fd;
        uint8_t buf[8 + 64 + 12];
        uint32_t protocol, n8q, n8r, n_vars, n_public, domain_size;
        unsigned log_domain = 0;
        int r;

        assert(zkey);
        assert(zkey->fd >= 0);
        assert(ret);
        zkey_path = zkey->path;
        fd = zkey->fd;
        file_size = zkey->size;
        r = zkey_find_section(fd, file_size, 1, &offset, &size);
        if (r >= 0 && size >= 4)
                r = read_exact(fd, offset, buf, 4);
        if (r < 0 || size < 4) {
                snprintf(msg, msg_size, "%s: not a snarkjs .zkey (no readable header section)",
                         zkey_path);
                return -EINVAL;
        }
        protocol = bin_le32(buf);
        if (protocol != 1) {
                snprintf(msg, msg_size, "%s: protocol %" PRIu32 ", expected 1 (Groth16)", zkey_path,
                         protocol);
                return -EINVAL;
        }
        r = zkey_find_section(fd, file_size, 2, &offset, &size);
        if (r >= 0)
                r = read_exact(fd, offset, buf, 4);
        n8q = r >= 0 ? bin_le32(buf) : 0;
        q_end = 4 + (uint64_t)n8q;
        if (r >= 0 && n8q == 48 && size >= q_end + 4 + 32 + 12)
                r = read_exact(fd, offset + q_end, buf, 4 + 32 + 12);
        else
                r = -EBADMSG;
        if (r < 0) {
                snprintf(msg, msg_size,
                         "%s: the Groth16 header section is missing or short, or its base field "
                         "is not BLS12-381's (48-byte elements)",
                         zkey_path);
                return -EINVAL;
        }
        n8r = bin_le32(buf);
        n_vars = bin_le32(buf + 36);
        n_public = bin_le32(buf + 40);
        domain_size = bin_le32(buf + 44);
        while (log_domain < 32 && (UINT64_C(1) << log_domain) < domain_size)
                log_domain++;
        if (n8r != 32 || n_vars == 0 || n_public >= n_vars || domain_size == 0 ||
            (UINT64_C(1) << log_domain) != domain_size) {
                snprintf(msg, msg_size,
                         "%s: header says %" PRIu32 "-byte scalars, %" PRIu32 " wires, %" PRIu32
                         " public, domain %" PRIu32
                         "; expected 32-byte scalars, more wires than public signals and a "
                         "power-of-two domain",
                         zkey_path, n8r, n_vars, n_public, domain_size);
                return -EINVAL;
        }
        shape_from_sizes(log_domain, n_vars, n_public, 0, prover_threads, ret);
        ret->shared_bytes = ret->key_bytes = file_size;
        snprintf(ret->circuit_id, sizeof(ret->circuit_id), "%s", zkey_path);
        return 0;
}

int job_shape_pce_files(const struct job_file *pce, const struct job_file *params,
                        unsigned prover_threads, struct job_shape *ret, char *msg,
                        size_t msg_size) {
        uint8_t header[PCE_FILE_HEADER_BYTES];
        const char *pce_path, *params_path;
        uint64_t pce_size, params_size;
        struct pce_file_shape s;
        int r;

        assert(pce && pce->fd >= 0);
        assert(params && params->fd >= 0);
        assert(ret);
        pce_path = pce->path;
        params_path = params->path;
        pce_size = pce->size;
        params_size = params->size;
        r = read_exact(pce->fd, 0, header, sizeof(header));
        if (r < 0 || memcmp(header, PCE_FILE_MAGIC, 8) != 0 ||
            bin_le32(header + 8) != PCE_FILE_VERSION) {
                snprintf(msg, msg_size, "%s: not a version %d cuzk PCE file", pce_path,
                         PCE_FILE_VERSION);
                return -EINVAL;
        }
        if (pce_header_shape(header, &s) < 0) {
                snprintf(msg, msg_size,
                         "%s: header says %" PRIu32 " rows, %" PRIu32 " columns, %" PRIu32
                         " public inputs; expected rows, and more columns than public inputs",
                         pce_path, s.n_rows, s.n_cols, s.n_public);
                return -EINVAL;
        }
        /* A file smaller than a point per wire is in bellperson's layout: the
         * prover gathers the scalars of A's (B's) wires, at most all of them. */
        const uint64_t per_wire = bellperson_params_bytes(
                s.n_public, (uint32_t)((UINT64_C(1) << s.log_domain_size) - 1),
                s.n_cols - s.n_public - 1, s.n_cols, s.n_cols, s.n_cols);
        shape_from_sizes(s.log_domain_size, s.n_cols, s.n_public,
                         params_size < per_wire ? s.n_cols : 0, prover_threads, ret);
        job_shape_compact(s.n_cols, s.n_public, ret);
        ret->n_public = s.n_public;
        ret->max_aux_values = s.max_aux_values;
        ret->shared_bytes = pce_size + params_size;
        ret->key_bytes = params_size;
        snprintf(ret->circuit_id, sizeof(ret->circuit_id), "%s+%s", pce_path, params_path);
        return 0;
}

int job_shape_snarkjs(const char *zkey_path, unsigned prover_threads, struct job_shape *ret,
                      char *msg, size_t msg_size) {
        struct job_file zkey;
        int r;

        assert(zkey_path);
        r = open_own(zkey_path, &zkey, msg, msg_size);
        if (r < 0)
                return r;
        r = job_shape_snarkjs_file(&zkey, prover_threads, ret, msg, msg_size);
        close(zkey.fd);
        return r;
}

int job_shape_pce(const char *pce_path, const char *params_path, unsigned prover_threads,
                  struct job_shape *ret, char *msg, size_t msg_size) {
        struct job_file pce, params;
        int r;

        assert(pce_path);
        assert(params_path);
        r = open_own(pce_path, &pce, msg, msg_size);
        if (r < 0)
                return r;
        r = open_own(params_path, &params, msg, msg_size);
        if (r >= 0) {
                r = job_shape_pce_files(&pce, &params, prover_threads, ret, msg, msg_size);
                close(params.fd);
        }
        close(pce.fd);
        return r;
}

int job_circuit_key(const char *circuit_id, enum job_kind *ret_kind, char *ret_key, size_t size) {
        const char *plus = strchr(circuit_id, '+');
        const char *key = plus ? plus + 1 : circuit_id;

        assert(ret_kind);
        assert(ret_key);
        if (strlen(key) >= size)
                return -ENAMETOOLONG;
        /* PoRep jobs' circuits are PCE+PARAMS too, and load the same kind of key. */
        *ret_kind = plus ? JOB_SYNTHETIC_PCE : JOB_GROTH16_SNARKJS;
        memcpy(ret_key, key, strlen(key) + 1);
        return 0;
}
