/* SPDX-License-Identifier: Apache-2.0 */
/* PCE files (layout in pce-file.h): the writer and the checking loader. */
#include "pce-file.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/atomic-file.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "formats/bellperson_io.h"
#include "formats/binfile.h"
#include "pce-crc32c.h"
#include "pce-internal.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "PCE files are mapped as they are: little-endian hosts only"
#endif

#define SECTION_ALIGN 64
#define HEADER_MATRIX_OFFSET 32
#define HEADER_MATRIX_BYTES 48
#define HEADER_FILE_BYTES_OFFSET 176
#define HEADER_BODY_CHECKSUM_OFFSET 184
#define HEADER_AUX_VALUES_OFFSET PCE_FILE_AUX_VALUES_OFFSET
#define HEADER_RESERVED_OFFSET 196
#define HEADER_CHECKSUM_OFFSET 252
#define WRITER_BUFFER_BYTES ((size_t)8 << 20)

static const char *const matrix_names[PCE_N_MATRICES] = {"A", "B", "C"};

/* The file offsets of one matrix's arrays. */
struct matrix_layout {
        uint64_t row_start, col, ids, values;
};

struct layout {
        struct matrix_layout m[PCE_N_MATRICES];
        uint64_t file_bytes;
};

static bool add_section(uint64_t *at, uint64_t count, uint64_t element_bytes,
                        uint64_t *ret_offset) {
        uint64_t bytes;

        *at = (*at + SECTION_ALIGN - 1) / SECTION_ALIGN * SECTION_ALIGN;
        *ret_offset = *at;
        return !__builtin_mul_overflow(count, element_bytes, &bytes) &&
               !__builtin_add_overflow(*at, bytes, at) && *at < UINT64_MAX - SECTION_ALIGN;
}

/* Where everything goes; false when the counts overflow 64 bits. */
static bool compute_layout(uint32_t n_rows, const uint64_t n_terms[PCE_N_MATRICES],
                           const uint32_t n_values[PCE_N_MATRICES],
                           const uint32_t id_bytes[PCE_N_MATRICES], struct layout *ret) {
        uint64_t at = PCE_FILE_HEADER_BYTES;

        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                struct matrix_layout *m = &ret->m[k];
                if (!add_section(&at, (uint64_t)n_rows + 1, sizeof(uint64_t), &m->row_start) ||
                    !add_section(&at, n_terms[k], sizeof(uint32_t), &m->col) ||
                    !add_section(&at, n_terms[k], id_bytes[k], &m->ids) ||
                    !add_section(&at, n_values[k], sizeof(fr_t), &m->values))
                        return false;
        }
        ret->file_bytes = at;
        return true;
}

static void layout_of(const struct pce *pce, struct layout *ret) {
        uint64_t n_terms[PCE_N_MATRICES];
        uint32_t n_values[PCE_N_MATRICES], id_bytes[PCE_N_MATRICES];
        bool ok;

        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                n_terms[k] = pce->m[k].n_terms;
                n_values[k] = pce->m[k].n_values;
                id_bytes[k] = pce->m[k].id_bytes;
        }
        /* Arrays that exist in memory cannot overflow 64 bits. */
        ok = compute_layout(pce->n_rows, n_terms, n_values, id_bytes, ret);
        assert(ok);
        (void)ok;
}

uint64_t pce_file_bytes(const struct pce *pce) {
        struct layout l;

        assert(pce);
        layout_of(pce, &l);
        return l.file_bytes;
}

static void encode_header(const struct pce *pce, const struct layout *l, uint32_t body_checksum,
                          uint8_t out[PCE_FILE_HEADER_BYTES]) {
        memset(out, 0, PCE_FILE_HEADER_BYTES);
        memcpy(out, PCE_FILE_MAGIC, 8);
        bin_put_le32(out + 8, PCE_FILE_VERSION);
        bin_put_le32(out + 12, PCE_FILE_HEADER_BYTES);
        bin_put_le32(out + 16, pce->flags);
        bin_put_le32(out + 20, pce->n_public);
        bin_put_le32(out + 24, pce->n_rows);
        bin_put_le32(out + 28, pce->n_cols);
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                uint8_t *p = out + HEADER_MATRIX_OFFSET + HEADER_MATRIX_BYTES * k;
                bin_put_le64(p, pce->m[k].n_terms);
                bin_put_le32(p + 8, pce->m[k].n_values);
                bin_put_le32(p + 12, pce->m[k].id_bytes);
                bin_put_le64(p + 16, l->m[k].row_start);
                bin_put_le64(p + 24, l->m[k].col);
                bin_put_le64(p + 32, l->m[k].ids);
                bin_put_le64(p + 40, l->m[k].values);
        }
        bin_put_le64(out + HEADER_FILE_BYTES_OFFSET, l->file_bytes);
        bin_put_le32(out + HEADER_BODY_CHECKSUM_OFFSET, body_checksum);
        if (pce->flags & PCE_AUX_VALUES)
                bin_put_le64(out + HEADER_AUX_VALUES_OFFSET, pce->n_aux_values);
        bin_put_le32(out + HEADER_CHECKSUM_OFFSET, pce_crc32c(0, out, HEADER_CHECKSUM_OFFSET));
}

/* The writer: the body streams into a temporary file while its checksum
 * is computed; the header goes in last, then the file gets its name. */
struct writer {
        const char *path;
        struct atomic_file file; /* deleted unless renamed */
        uint8_t *buf;
        size_t used;
        uint64_t offset; /* of the next byte */
        struct pce_checksum checksum;
};

static void writer_done(struct writer *w) {
        atomic_file_close(&w->file);
        free(w->buf);
}

/* At the file position: the body goes out in order. */
static int write_all(struct writer *w, const void *data, size_t n) {
        int r = atomic_file_append(&w->file, data, n);

        if (r < 0)
                return log_error_errno(r, "%s: cannot write %s: %m", w->path, w->file.tmp_name);
        return 0;
}

static int writer_flush(struct writer *w) {
        int r;

        pce_checksum_update(&w->checksum, w->buf, w->used);
        r = write_all(w, w->buf, w->used);
        w->used = 0;
        return r;
}

static int writer_put(struct writer *w, const void *data, uint64_t n) {
        int r;

        if (n >= WRITER_BUFFER_BYTES) {
                /* Large arrays go out as they are, without a copy. */
                r = writer_flush(w);
                if (r < 0)
                        return r;
                pce_checksum_update(&w->checksum, data, n);
                r = write_all(w, data, (size_t)n);
                w->offset += n;
                return r;
        }
        if (WRITER_BUFFER_BYTES - w->used < n) {
                r = writer_flush(w);
                if (r < 0)
                        return r;
        }
        memcpy(w->buf + w->used, data, (size_t)n);
        w->used += (size_t)n;
        w->offset += n;
        return 0;
}

static int writer_put_at(struct writer *w, uint64_t offset, const void *data, uint64_t n) {
        static const uint8_t zeros[SECTION_ALIGN];

        assert(offset >= w->offset && offset - w->offset < SECTION_ALIGN);
        if (offset > w->offset) {
                int r = writer_put(w, zeros, offset - w->offset);
                if (r < 0)
                        return r;
        }
        return writer_put(w, data, n);
}

static int write_matrix(struct writer *w, const struct pce *pce, const struct pce_matrix *m,
                        const struct matrix_layout *l) {
        int r;

        if ((r = writer_put_at(w, l->row_start, m->row_start,
                               ((uint64_t)pce->n_rows + 1) * sizeof(uint64_t))) < 0 ||
            (r = writer_put_at(w, l->col, m->col, m->n_terms * sizeof(uint32_t))) < 0 ||
            (r = writer_put_at(w, l->ids, m->coeff_id, m->n_terms * m->id_bytes)) < 0 ||
            (r = writer_put_at(w, l->values, m->values, (uint64_t)m->n_values * sizeof(fr_t))) < 0)
                return r;
        return 0;
}

int pce_save(const struct pce *pce, const char *path) {
        _cleanup_(writer_done) struct writer w = {
                .path = path,
                .file = {.fd = -EBADF, .dir_fd = -EBADF},
        };
        uint8_t header[PCE_FILE_HEADER_BYTES];
        struct layout l;
        int r;

        assert(pce);
        assert(path);

        layout_of(pce, &l);
        w.buf = malloc(WRITER_BUFFER_BYTES);
        if (!w.buf)
                return log_error_errno(ENOMEM, "%s: out of memory", path);
        /* Constraint systems are public data. */
        r = atomic_file_open(path, 0644, &w.file);
        if (r < 0)
                return log_error_errno(r, "%s: cannot create a temporary file beside it: %m", path);

        /* The body first, after room for the header. */
        if (lseek(w.file.fd, PCE_FILE_HEADER_BYTES, SEEK_SET) < 0)
                return log_error_errno(errno, "%s: cannot seek in %s: %m", path, w.file.tmp_name);
        pce_checksum_init(&w.checksum);
        w.offset = PCE_FILE_HEADER_BYTES;
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                r = write_matrix(&w, pce, &pce->m[k], &l.m[k]);
                if (r < 0)
                        return r;
        }
        r = writer_flush(&w);
        if (r < 0)
                return r;
        assert(w.offset == l.file_bytes);

        encode_header(pce, &l, pce_checksum_final(&w.checksum), header);
        if (lseek(w.file.fd, 0, SEEK_SET) < 0)
                return log_error_errno(errno, "%s: cannot seek in %s: %m", path, w.file.tmp_name);
        r = write_all(&w, header, sizeof(header));
        if (r < 0)
                return r;
        r = atomic_file_commit(&w.file);
        if (r < 0)
                return log_error_errno(r, "%s: cannot sync and rename %s to it: %m", path,
                                       w.file.tmp_name);
        return 0;
}

/* The header's values as read, before they are trusted. */
struct header {
        uint32_t flags, n_public, n_rows, n_cols;
        uint64_t n_aux_values; /* PCE_AUX_VALUES */
        uint64_t n_terms[PCE_N_MATRICES];
        uint32_t n_values[PCE_N_MATRICES], id_bytes[PCE_N_MATRICES];
        struct layout layout;
        uint32_t body_checksum;
};

int pce_header_check(const uint8_t *header, size_t size, char *why, size_t why_size) {
        uint32_t version, header_bytes, stored, computed;

        assert(header || size == 0);
        assert(why || why_size == 0);

        if (size < PCE_FILE_HEADER_BYTES) {
                snprintf(why, why_size, "%zu bytes, too short for the %d-byte PCE header", size,
                         PCE_FILE_HEADER_BYTES);
                return -EBADMSG;
        }
        if (memcmp(header, PCE_FILE_MAGIC, 8)) {
                snprintf(why, why_size, "not a PCE file: magic is not \"%s\"", PCE_FILE_MAGIC);
                return -EBADMSG;
        }
        version = bin_le32(header + 8);
        if (version != PCE_FILE_VERSION) {
                snprintf(why, why_size, "PCE version %" PRIu32 ", expected %d", version,
                         PCE_FILE_VERSION);
                return -EOPNOTSUPP;
        }
        header_bytes = bin_le32(header + 12);
        if (header_bytes != PCE_FILE_HEADER_BYTES) {
                snprintf(why, why_size, "header size %" PRIu32 ", expected %d", header_bytes,
                         PCE_FILE_HEADER_BYTES);
                return -EBADMSG;
        }
        stored = bin_le32(header + HEADER_CHECKSUM_OFFSET);
        computed = pce_crc32c(0, header, HEADER_CHECKSUM_OFFSET);
        if (stored != computed) {
                snprintf(why, why_size,
                         "header checksum is 0x%08" PRIx32 ", expected 0x%08" PRIx32
                         " (corrupt header)",
                         stored, computed);
                return -EBADMSG;
        }
        return 0;
}

uint64_t pce_header_file_bytes(const uint8_t *header) {
        return bin_le64(header + HEADER_FILE_BYTES_OFFSET);
}

static int check_matrix_counts(const char *path, const struct header *h, size_t k,
                               const uint8_t *p) {
        const struct matrix_layout *expected = &h->layout.m[k];
        static const char *const array_names[4] = {"row starts", "columns", "coefficient ids",
                                                   "coefficients"};
        const uint64_t want[4] = {expected->row_start, expected->col, expected->ids,
                                  expected->values};

        if (h->id_bytes[k] != pce_id_bytes_for(h->n_values[k]))
                return log_error_errno(EBADMSG,
                                       "%s: matrix %s: ids of %" PRIu32 " bytes, expected %" PRIu32
                                       " for %" PRIu32 " coefficients",
                                       path, matrix_names[k], h->id_bytes[k],
                                       pce_id_bytes_for(h->n_values[k]), h->n_values[k]);
        for (size_t a = 0; a < 4; a++) {
                uint64_t got = bin_le64(p + 16 + 8 * a);
                if (got != want[a])
                        return log_error_errno(EBADMSG,
                                               "%s: matrix %s: %s at offset %" PRIu64
                                               ", expected %" PRIu64,
                                               path, matrix_names[k], array_names[a], got, want[a]);
        }
        return 0;
}

static int parse_header(const char *path, const uint8_t *p, size_t size, struct header *h) {
        uint64_t file_bytes;
        char why[128];
        int r;

        r = pce_header_check(p, size, why, sizeof(why));
        if (r < 0)
                return log_error_errno(r, "%s: %s", path, why);

        h->flags = bin_le32(p + 16);
        h->n_public = bin_le32(p + 20);
        h->n_rows = bin_le32(p + 24);
        h->n_cols = bin_le32(p + 28);
        if (h->flags & ~PCE_KNOWN_FLAGS)
                return log_error_errno(EOPNOTSUPP, "%s: flags 0x%" PRIx32 ", expected only 0x%x",
                                       path, h->flags, PCE_KNOWN_FLAGS);
        if ((uint64_t)h->n_public + 1 > h->n_cols)
                return log_error_errno(EBADMSG,
                                       "%s: %" PRIu32 " columns, expected at least n_public + 1 = "
                                       "%" PRIu64,
                                       path, h->n_cols, (uint64_t)h->n_public + 1);
        h->n_aux_values = bin_le64(p + HEADER_AUX_VALUES_OFFSET);
        if (!(h->flags & PCE_AUX_VALUES) && h->n_aux_values)
                return log_error_errno(EBADMSG,
                                       "%s: %" PRIu64 " aux values counted without flag 0x%x, "
                                       "expected 0",
                                       path, h->n_aux_values, PCE_AUX_VALUES);
        if (h->n_aux_values > h->n_cols - 1 - h->n_public)
                return log_error_errno(EBADMSG,
                                       "%s: %" PRIu64 " aux allocated as values, expected at most "
                                       "the %" PRIu32 " aux",
                                       path, h->n_aux_values, h->n_cols - 1 - h->n_public);
        if ((h->flags & PCE_INPUT_ROWS) && (uint64_t)h->n_public + 1 > h->n_rows)
                return log_error_errno(EBADMSG,
                                       "%s: %" PRIu32 " rows, expected at least the %" PRIu64
                                       " input rows",
                                       path, h->n_rows, (uint64_t)h->n_public + 1);

        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                const uint8_t *m = p + HEADER_MATRIX_OFFSET + HEADER_MATRIX_BYTES * k;
                h->n_terms[k] = bin_le64(m);
                h->n_values[k] = bin_le32(m + 8);
                h->id_bytes[k] = bin_le32(m + 12);
                if (h->n_values[k] < 2)
                        return log_error_errno(EBADMSG,
                                               "%s: matrix %s: %" PRIu32
                                               " coefficients, expected at least +1 and -1",
                                               path, matrix_names[k], h->n_values[k]);
        }
        if (!compute_layout(h->n_rows, h->n_terms, h->n_values, h->id_bytes, &h->layout))
                return log_error_errno(EBADMSG,
                                       "%s: term counts %" PRIu64 ", %" PRIu64 ", %" PRIu64
                                       " overflow a file size",
                                       path, h->n_terms[0], h->n_terms[1], h->n_terms[2]);
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                r = check_matrix_counts(path, h, k,
                                        p + HEADER_MATRIX_OFFSET + HEADER_MATRIX_BYTES * k);
                if (r < 0)
                        return r;
        }

        file_bytes = pce_header_file_bytes(p);
        if (file_bytes != h->layout.file_bytes)
                return log_error_errno(
                        EBADMSG, "%s: header says %" PRIu64 " bytes, its counts need %" PRIu64,
                        path, file_bytes, h->layout.file_bytes);
        if (file_bytes != size)
                return log_error_errno(EBADMSG,
                                       "%s: %zu bytes, expected %" PRIu64
                                       " from the header (truncated or extended file)",
                                       path, size, file_bytes);
        for (size_t i = HEADER_RESERVED_OFFSET; i < HEADER_CHECKSUM_OFFSET; i++)
                if (p[i])
                        return log_error_errno(EBADMSG, "%s: header byte %zu is 0x%02x, expected 0",
                                               path, i, p[i]);
        h->body_checksum = bin_le32(p + HEADER_BODY_CHECKSUM_OFFSET);
        return 0;
}

/* The mapped file's arrays, once the header and the checksums hold. */
static void point_into(struct pce *pce, const uint8_t *base, const struct header *h) {
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                const struct matrix_layout *l = &h->layout.m[k];
                pce->m[k] = (struct pce_matrix){
                        .n_terms = h->n_terms[k],
                        .n_values = h->n_values[k],
                        .id_bytes = h->id_bytes[k],
                        .row_start = (const uint64_t *)(base + l->row_start),
                        .col = (const uint32_t *)(base + l->col),
                        .coeff_id = base + l->ids,
                        .values = (const fr_t *)(base + l->values),
                };
        }
}

static bool fr_is_canonical(const fr_t *v) {
        for (size_t i = FR_LIMBS; i-- > 0;)
                if (v->l[i] != BLS12_381_R[i])
                        return v->l[i] < BLS12_381_R[i];
        return false;
}

static int check_values(const char *path, const struct pce_matrix *m, const char *name) {
        fr_t one, minus_one;

        fr_set_one(&one);
        pce_minus_one(&minus_one);
        if (!fr_equal(&m->values[PCE_COEFF_ID_ONE], &one) ||
            !fr_equal(&m->values[PCE_COEFF_ID_MINUS_ONE], &minus_one))
                return log_error_errno(EBADMSG,
                                       "%s: matrix %s: coefficients 0 and 1 are not +1 and -1",
                                       path, name);
        for (uint32_t i = 0; i < m->n_values; i++)
                if (!fr_is_canonical(&m->values[i]))
                        return log_error_errno(EBADMSG,
                                               "%s: matrix %s: coefficient %" PRIu32
                                               " is not below the field prime r",
                                               path, name, i);
        return 0;
}

/* Rows never go back and end at n_terms; columns and ids are in range. */
static int check_structure(const char *path, const struct pce *pce, const struct pce_matrix *m,
                           const char *name) {
        uint64_t bad_row = UINT64_MAX, bad_term = UINT64_MAX;

        if (m->row_start[0] != 0 || m->row_start[pce->n_rows] != m->n_terms)
                return log_error_errno(
                        EBADMSG,
                        "%s: matrix %s: rows start at %" PRIu64 " and end at %" PRIu64
                        ", expected 0 and %" PRIu64 " (the terms)",
                        path, name, m->row_start[0], m->row_start[pce->n_rows], m->n_terms);
#pragma omp parallel for schedule(static) reduction(min : bad_row) if (pce->n_rows >= 65536)
        for (uint64_t i = 0; i < pce->n_rows; i++)
                if (i < bad_row && m->row_start[i] > m->row_start[i + 1])
                        bad_row = i;
        if (bad_row != UINT64_MAX)
                return log_error_errno(EBADMSG,
                                       "%s: matrix %s: row %" PRIu64 " starts at term %" PRIu64
                                       ", after the next row's start %" PRIu64,
                                       path, name, bad_row, m->row_start[bad_row],
                                       m->row_start[bad_row + 1]);

#pragma omp parallel for schedule(static) reduction(min : bad_term) if (m->n_terms >= 65536)
        for (uint64_t t = 0; t < m->n_terms; t++)
                if ((m->col[t] >= pce->n_cols || pce_coeff_id(m, t) >= m->n_values) && t < bad_term)
                        bad_term = t;
        if (bad_term == UINT64_MAX)
                return 0;
        if (m->col[bad_term] >= pce->n_cols)
                return log_error_errno(EBADMSG,
                                       "%s: matrix %s: term %" PRIu64 " has column %" PRIu32
                                       ", expected below %" PRIu32,
                                       path, name, bad_term, m->col[bad_term], pce->n_cols);
        return log_error_errno(EBADMSG,
                               "%s: matrix %s: term %" PRIu64 " has coefficient id %" PRIu32
                               ", expected below %" PRIu32,
                               path, name, bad_term, pce_coeff_id(m, bad_term), m->n_values);
}

/* With PCE_INPUT_ROWS, input row s is A = w[s] and nothing in B and C. */
static int check_input_rows(const char *path, const struct pce *pce) {
        uint32_t first = pce->n_rows - pce->n_public - 1;

        if (!(pce->flags & PCE_INPUT_ROWS))
                return 0;
        for (uint32_t s = 0; s <= pce->n_public; s++) {
                uint64_t row = (uint64_t)first + s, k = pce->m[PCE_A].row_start[row];
                bool ok = pce->m[PCE_A].row_start[row + 1] == k + 1 && pce->m[PCE_A].col[k] == s &&
                          pce_coeff_id(&pce->m[PCE_A], k) == PCE_COEFF_ID_ONE;
                for (size_t j = PCE_B; j <= PCE_C; j++)
                        ok = ok && pce->m[j].row_start[row] == pce->m[j].row_start[row + 1];
                if (!ok)
                        return log_error_errno(EBADMSG,
                                               "%s: input row %" PRIu64 " is not A = w[%" PRIu32
                                               "] with B and C empty",
                                               path, row, s);
        }
        return 0;
}

int pce_load(const char *path, struct pce **ret) {
        _cleanup_(bellperson_unmap_file) struct bellperson_map map = {0};
        _cleanup_(pce_freep) struct pce *pce = NULL;
        const uint8_t *data;
        struct header h = {0};
        uint32_t checksum;
        int r;

        assert(path);
        assert(ret);

        r = bellperson_map_file(path, &map);
        if (r < 0)
                return r;
        r = parse_header(path, map.data, map.size, &h);
        if (r < 0)
                return r;
        pce = pce_new(h.n_rows, h.n_cols, h.n_public, h.flags);
        if (!pce)
                return log_error_errno(ENOMEM, "%s: out of memory", path);
        pce->n_aux_values = h.n_aux_values;
        /* From here pce_free() unmaps. */
        pce->mapping_bytes = map.size;
        data = TAKE_PTR(map.data);
        pce->mapping = (void *)data;

        checksum = pce_checksum_of(data + PCE_FILE_HEADER_BYTES,
                                   pce->mapping_bytes - PCE_FILE_HEADER_BYTES);
        if (checksum != h.body_checksum)
                return log_error_errno(EBADMSG,
                                       "%s: body checksum is 0x%08" PRIx32
                                       ", the header expects 0x%08" PRIx32 " (corrupt data)",
                                       path, checksum, h.body_checksum);

        point_into(pce, data, &h);
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                if ((r = check_values(path, &pce->m[k], matrix_names[k])) < 0 ||
                    (r = check_structure(path, pce, &pce->m[k], matrix_names[k])) < 0)
                        return r;
        }
        r = check_input_rows(path, pce);
        if (r < 0)
                return r;
        r = pce_compute_density(pce);
        if (r < 0)
                return log_error_errno(r, "%s: out of memory", path);

        *ret = TAKE_PTR(pce);
        return 0;
}
