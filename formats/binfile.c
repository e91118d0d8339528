/* SPDX-License-Identifier: Apache-2.0 */
#include "binfile.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"

#define BINFILE_HEADER_BYTES 12
#define BINFILE_SECTION_HEADER_BYTES 12
/* Large enough for the modulus of any curve snarkjs knows. */
#define BINFILE_MAX_PRIME_BYTES 64

static void magic_to_string(char out[4 * 4 + 1], const uint8_t *magic) {
        char *q = out;
        for (size_t i = 0; i < 4; i++) {
                if (magic[i] >= 0x20 && magic[i] < 0x7f && magic[i] != '\\')
                        *q++ = (char)magic[i];
                else
                        q += sprintf(q, "\\x%02x", magic[i]);
        }
        *q = 0;
}

struct binfile *binfile_close(struct binfile *bf) {
        if (!bf)
                return NULL;
        if (bf->data && bf->size > 0)
                munmap((void *)bf->data, bf->size);
        free(bf->sections);
        free(bf->path);
        free(bf);
        return NULL;
}

static int binfile_map(struct binfile *bf) {
        _cleanup_close_ int fd = -EBADF;
        struct stat st;
        void *p;

        fd = open(bf->path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return log_error_errno(errno, "%s: cannot open: %m", bf->path);
        if (fstat(fd, &st) < 0)
                return log_error_errno(errno, "%s: cannot stat: %m", bf->path);
        if (S_ISDIR(st.st_mode))
                return log_error_errno(EISDIR, "%s: is a directory, expected a file", bf->path);
        if (!S_ISREG(st.st_mode))
                return log_error_errno(EBADF, "%s: not a regular file", bf->path);
        if ((uint64_t)st.st_size < BINFILE_HEADER_BYTES)
                return log_error_errno(EBADMSG,
                                       "%s: truncated: %" PRIu64 " bytes, a header needs %d",
                                       bf->path, (uint64_t)st.st_size, BINFILE_HEADER_BYTES);
        if ((uint64_t)st.st_size > SIZE_MAX)
                return log_error_errno(EFBIG, "%s: %" PRIu64 " bytes do not fit in memory",
                                       bf->path, (uint64_t)st.st_size);

        p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED)
                return log_error_errno(errno, "%s: cannot map %" PRIu64 " bytes: %m", bf->path,
                                       (uint64_t)st.st_size);
        bf->data = p;
        bf->size = (size_t)st.st_size;
        return 0;
}

static int binfile_read_sections(struct binfile *bf) {
        uint64_t pos = BINFILE_HEADER_BYTES;

        /* Each section needs at least its 12-byte header: bounds the allocation. */
        if (bf->n_sections > (bf->size - BINFILE_HEADER_BYTES) / BINFILE_SECTION_HEADER_BYTES)
                return log_error_errno(EBADMSG,
                                       "%s: corrupt: %" PRIu32 " sections cannot fit in %zu bytes",
                                       bf->path, bf->n_sections, bf->size);

        bf->sections = calloc(bf->n_sections ? bf->n_sections : 1, sizeof(*bf->sections));
        if (!bf->sections)
                return log_error_errno(ENOMEM, "%s: out of memory", bf->path);

        for (uint32_t i = 0; i < bf->n_sections; i++) {
                struct binfile_section *s = &bf->sections[i];

                if (bf->size - pos < BINFILE_SECTION_HEADER_BYTES)
                        return log_error_errno(
                                EBADMSG,
                                "%s: truncated: section %" PRIu32 " header at offset %" PRIu64
                                " needs %d bytes, file has %zu",
                                bf->path, i, pos, BINFILE_SECTION_HEADER_BYTES, bf->size);
                s->type = bin_le32(bf->data + pos);
                s->size = bin_le64(bf->data + pos + 4);
                s->offset = pos + BINFILE_SECTION_HEADER_BYTES;
                if (s->size > bf->size - s->offset)
                        return log_error_errno(EBADMSG,
                                               "%s: truncated: section %" PRIu32 " (type %" PRIu32
                                               ") at offset %" PRIu64 " claims %" PRIu64
                                               " bytes, only %" PRIu64 " remain",
                                               bf->path, i, s->type, s->offset, s->size,
                                               bf->size - s->offset);
                pos = s->offset + s->size;
        }
        if (pos != bf->size)
                return log_error_errno(EBADMSG,
                                       "%s: corrupt: %" PRIu64
                                       " bytes after the last section, expected none",
                                       bf->path, bf->size - pos);
        return 0;
}

int binfile_open(const char *path, const char magic[4], uint32_t max_version,
                 struct binfile **ret) {
        _cleanup_(binfile_closep) struct binfile *bf = NULL;
        _cleanup_free_ char *path_copy = NULL;
        char expected[4 * 4 + 1];
        int r;

        assert(path);
        assert(magic);
        assert(ret);

        path_copy = strdup(path);
        bf = calloc(1, sizeof(*bf));
        if (!path_copy || !bf)
                return log_error_errno(ENOMEM, "%s: out of memory", path);
        bf->path = TAKE_PTR(path_copy);

        r = binfile_map(bf);
        if (r < 0)
                return r;

        /* The file's own bytes stay out of the message: a daemon that opened it for a
         * client must not tell the client what a file it could not read begins with. */
        if (memcmp(bf->data, magic, 4) != 0) {
                magic_to_string(expected, (const uint8_t *)magic);
                return log_error_errno(EBADMSG, "%s: not a %s file, expected \"%s\" at its start",
                                       path, expected, expected);
        }
        bf->version = bin_le32(bf->data + 4);
        if (bf->version > max_version) {
                magic_to_string(expected, (const uint8_t *)magic);
                return log_error_errno(EOPNOTSUPP,
                                       "%s: %s version %" PRIu32
                                       " is not supported, expected <= %" PRIu32,
                                       path, expected, bf->version, max_version);
        }
        bf->n_sections = bin_le32(bf->data + 8);

        r = binfile_read_sections(bf);
        if (r < 0)
                return r;

        *ret = TAKE_PTR(bf);
        return 0;
}

bool binfile_has_section(const struct binfile *bf, uint32_t type) {
        assert(bf);
        for (uint32_t i = 0; i < bf->n_sections; i++)
                if (bf->sections[i].type == type)
                        return true;
        return false;
}

int binfile_section(const struct binfile *bf, uint32_t type, const char *name,
                    struct bin_reader *ret) {
        const struct binfile_section *found = NULL;

        assert(bf);
        assert(name);
        assert(ret);

        for (uint32_t i = 0; i < bf->n_sections; i++) {
                if (bf->sections[i].type != type)
                        continue;
                if (found)
                        return log_error_errno(EBADMSG,
                                               "%s: corrupt: %s section (type %" PRIu32
                                               ") appears twice, expected once",
                                               bf->path, name, type);
                found = &bf->sections[i];
        }
        if (!found)
                return log_error_errno(EBADMSG,
                                       "%s: corrupt: %s section (type %" PRIu32 ") is missing",
                                       bf->path, name, type);

        *ret = (struct bin_reader){
                .path = bf->path,
                .section = name,
                .p = bf->data + found->offset,
                .left = found->size,
                .offset = found->offset,
        };
        return 0;
}

int bin_read_bytes(struct bin_reader *r, const char *what, uint64_t n, const uint8_t **ret) {
        assert(r);
        assert(what);
        assert(ret);

        if (n > r->left)
                return log_error_errno(EBADMSG,
                                       "%s: %s section too short: %s at offset %" PRIu64
                                       " needs %" PRIu64 " bytes, %" PRIu64 " left",
                                       r->path, r->section, what, r->offset, n, r->left);
        *ret = r->p;
        r->p += n;
        r->left -= n;
        r->offset += n;
        return 0;
}

int bin_read_array(struct bin_reader *r, const char *what, uint64_t count, uint64_t element_size,
                   const uint8_t **ret) {
        assert(r);
        assert(element_size > 0);

        if (count > r->left / element_size)
                return log_error_errno(EBADMSG,
                                       "%s: %s section too short: %" PRIu64 " %s of %" PRIu64
                                       " bytes at offset %" PRIu64 ", %" PRIu64 " bytes left",
                                       r->path, r->section, count, what, element_size, r->offset,
                                       r->left);
        return bin_read_bytes(r, what, count * element_size, ret);
}

int bin_read_u32(struct bin_reader *r, const char *what, uint32_t *ret) {
        const uint8_t *p;
        int k;

        assert(ret);
        k = bin_read_bytes(r, what, 4, &p);
        if (k < 0)
                return k;
        *ret = bin_le32(p);
        return 0;
}

int bin_read_u64(struct bin_reader *r, const char *what, uint64_t *ret) {
        const uint8_t *p;
        int k;

        assert(ret);
        k = bin_read_bytes(r, what, 8, &p);
        if (k < 0)
                return k;
        *ret = bin_le64(p);
        return 0;
}

int bin_reader_expect_end(const struct bin_reader *r) {
        assert(r);
        if (r->left != 0)
                return log_error_errno(EBADMSG,
                                       "%s: %s section has %" PRIu64
                                       " unexpected bytes at its end (offset %" PRIu64 ")",
                                       r->path, r->section, r->left, r->offset);
        return 0;
}

static void le_bytes_to_hex(char *out, const uint8_t *p, size_t n) {
        size_t top = n;
        char *q = out;

        while (top > 1 && p[top - 1] == 0)
                top--;
        q += sprintf(q, "0x");
        for (size_t i = top; i-- > 0;)
                q += sprintf(q, "%02x", p[i]);
}

int bin_read_prime(struct bin_reader *r, const uint64_t *modulus, size_t n_limbs,
                   const char *field_name) {
        uint8_t expected[BINFILE_MAX_PRIME_BYTES];
        char found_hex[2 * BINFILE_MAX_PRIME_BYTES + 3],
                expected_hex[2 * BINFILE_MAX_PRIME_BYTES + 3];
        const uint8_t *prime;
        uint32_t n8;
        int k;

        assert(r);
        assert(modulus);
        assert(n_limbs * 8 <= BINFILE_MAX_PRIME_BYTES);

        k = bin_read_u32(r, "field size n8", &n8);
        if (k < 0)
                return k;
        for (size_t i = 0; i < n_limbs; i++)
                for (size_t b = 0; b < 8; b++)
                        expected[i * 8 + b] = (uint8_t)(modulus[i] >> (8 * b));
        le_bytes_to_hex(expected_hex, expected, n_limbs * 8);

        if (n8 != n_limbs * 8)
                return log_error_errno(EOPNOTSUPP,
                                       "%s: %s field element size is %" PRIu32
                                       " bytes, expected %zu (BLS12-381 %s %s)",
                                       r->path, r->section, n8, n_limbs * 8, field_name,
                                       expected_hex);
        k = bin_read_bytes(r, "prime", n8, &prime);
        if (k < 0)
                return k;
        if (memcmp(prime, expected, n8) != 0) {
                le_bytes_to_hex(found_hex, prime, n8);
                return log_error_errno(EOPNOTSUPP, "%s: %s prime is %s, expected BLS12-381 %s %s",
                                       r->path, r->section, found_hex, field_name, expected_hex);
        }
        return 0;
}
