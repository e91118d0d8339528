/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The iden3 binary container shared by snarkjs's .zkey and .wtns and
 * circom's .r1cs files:
 *
 *   magic[4] ("zkey", "wtns", "r1cs")   version u32   n_sections u32
 *   n_sections times: type u32, size u64, size bytes of data
 *
 * All integers are little-endian. binfile_open() maps the file read-only and
 * checks the section table against the file size; readers then take each
 * section through a bin_reader, whose every read is bounds-checked. Errors are
 * logged with the file name and returned as negative errno:
 *   -EBADMSG  truncated, inconsistent or corrupt data
 *   -EOPNOTSUPP  a version, field or curve this code does not handle
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct binfile_section {
        uint32_t type;
        uint64_t offset; /* of the data, from the start of the file */
        uint64_t size;
};

struct binfile {
        char *path;
        const uint8_t *data; /* the whole file, mapped read-only */
        size_t size;
        uint32_t version;
        uint32_t n_sections;
        struct binfile_section *sections; /* in file order */
};

/* A bounds-checked cursor over one section. */
struct bin_reader {
        const char *path;
        const char *section; /* its name, for messages */
        const uint8_t *p;
        uint64_t left;
        uint64_t offset; /* of p in the file, for messages */
};

static inline uint32_t bin_le32(const uint8_t *p) {
        return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t bin_le64(const uint8_t *p) {
        return (uint64_t)bin_le32(p) | (uint64_t)bin_le32(p + 4) << 32;
}

/* The writers' side, for every file cuzk writes little-endian (.zkey, .wtns, .pce). */
static inline void bin_put_le32(uint8_t *p, uint32_t v) {
        for (int i = 0; i < 4; i++)
                p[i] = (uint8_t)(v >> (8 * i));
}

static inline void bin_put_le64(uint8_t *p, uint64_t v) {
        for (int i = 0; i < 8; i++)
                p[i] = (uint8_t)(v >> (8 * i));
}

/* Maps path and checks its magic, version (<= max_version) and section table. */
int binfile_open(const char *path, const char magic[4], uint32_t max_version, struct binfile **ret);
struct binfile *binfile_close(struct binfile *bf);
static inline void binfile_closep(struct binfile **bf) {
        binfile_close(*bf);
}

bool binfile_has_section(const struct binfile *bf, uint32_t type);
/* A reader over the only section of this type; refuses a missing or repeated one. */
int binfile_section(const struct binfile *bf, uint32_t type, const char *name,
                    struct bin_reader *ret);

int bin_read_u32(struct bin_reader *r, const char *what, uint32_t *ret);
int bin_read_u64(struct bin_reader *r, const char *what, uint64_t *ret);
/* Points *ret at the next n bytes of the mapping and skips them. */
int bin_read_bytes(struct bin_reader *r, const char *what, uint64_t n, const uint8_t **ret);
/* Like bin_read_bytes for count elements of element_size bytes, overflow-safe. */
int bin_read_array(struct bin_reader *r, const char *what, uint64_t count, uint64_t element_size,
                   const uint8_t **ret);
/* Refuses bytes left over at the end of a section. */
int bin_reader_expect_end(const struct bin_reader *r);

/*
 * Reads a field description, n8 (u32) then the prime as n8 little-endian
 * bytes, and refuses any field but the expected BLS12-381 one.
 * field_name names it in messages ("Fr", "Fp").
 */
int bin_read_prime(struct bin_reader *r, const uint64_t *modulus, size_t n_limbs,
                   const char *field_name);
