/* SPDX-License-Identifier: Apache-2.0 */
/* snarkjs .zkey files written as zkey_new.js writes them (see zkey-write.h). */
#include "zkey-write.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/atomic-file.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "zk/point_encoding.h"
#include "zkey-internal.h"

enum {
        ZKEY_FILE_VERSION = 1, /* what zkey_new.js writes */
        ZKEY_N_SECTIONS = 10,
        ZKEY_PROTOCOL_GROTH16 = 1,
        ZKEY_SECTION_HEAD_BYTES = 12, /* type u32, size u64 */
};

/* Points encoded per write: 6 MiB of G1, 12 MiB of G2. */
#define POINTS_PER_BATCH ((size_t)1 << 16)

uint32_t zkey_log2_domain_size(const struct r1cs *cs) {
        uint64_t rows;
        uint32_t log = 1;

        assert(cs);
        rows = (uint64_t)cs->n_constraints + r1cs_n_public(cs) + 1;
        while (log < 63 && (UINT64_C(1) << log) < rows)
                log++;
        return log;
}

/* Appends row `row` of m to coefs as entries of matrix. */
static uint32_t append_row(struct zkey_coef *coefs, uint32_t n, const struct sparse_matrix *m,
                           uint32_t row, uint32_t matrix) {
        for (uint64_t k = m->row_start[row]; k < m->row_start[row + 1]; k++)
                coefs[n++] = (struct zkey_coef){
                        .matrix = matrix,
                        .constraint = row,
                        .signal = m->col[k],
                        .value = m->coeff[k],
                };
        return n;
}

int zkey_new_from_r1cs(const struct r1cs *cs, const char *origin, struct zkey **ret) {
        _cleanup_(zkey_freep) struct zkey *zk = NULL;
        const struct sparse_matrix *a, *b;
        uint64_t n_coefs;
        uint32_t log, n;

        assert(cs);
        assert(origin);
        assert(ret);
        a = &cs->matrices[R1CS_A];
        b = &cs->matrices[R1CS_B];

        log = zkey_log2_domain_size(cs);
        if (log > NTT_MAX_LOG_SIZE)
                return log_error_errno(
                        EINVAL,
                        "%s: %" PRIu32 " constraints and %" PRIu32
                        " public signals need a domain of 2^%" PRIu32 ", expected at most 2^%d",
                        origin, cs->n_constraints, r1cs_n_public(cs), log, NTT_MAX_LOG_SIZE);
        if ((uint64_t)r1cs_n_public(cs) + 1 > cs->n_wires)
                return log_error_errno(EINVAL,
                                       "%s: %" PRIu32 " wires, expected at least the %" PRIu32
                                       " public signals and the constant",
                                       origin, cs->n_wires, r1cs_n_public(cs));
        n_coefs = sparse_n_terms(a) + sparse_n_terms(b) + r1cs_n_public(cs) + 1;
        if (n_coefs > UINT32_MAX)
                return log_error_errno(EINVAL,
                                       "%s: %" PRIu64 " A and B terms, expected at most %" PRIu32
                                       " (a u32 count)",
                                       origin, n_coefs, UINT32_MAX);

        zk = calloc(1, sizeof(*zk));
        if (!zk)
                return log_error_errno(ENOMEM, "%s: out of memory for a proving key", origin);
        zk->n_vars = cs->n_wires;
        zk->n_public = r1cs_n_public(cs);
        zk->log2_domain_size = log;
        zk->domain_size = UINT32_C(1) << log;
        zk->n_coefs = (uint32_t)n_coefs;
        zk->coefs = malloc(n_coefs * sizeof(*zk->coefs));
        if (!zk->coefs)
                // cppcheck-suppress memleak ; freed by _cleanup_
                return log_error_errno(ENOMEM, "%s: out of memory for %" PRIu64 " coefficients",
                                       origin, n_coefs);

        /* zkey_new.js's order: per constraint its A terms, then its B terms. */
        n = 0;
        for (uint32_t row = 0; row < cs->n_constraints; row++) {
                n = append_row(zk->coefs, n, a, row, ZKEY_MATRIX_A);
                n = append_row(zk->coefs, n, b, row, ZKEY_MATRIX_B);
        }
        /* Binding rows: A has w[s] at row nConstraints + s, so that the
         * proof depends on each public signal (and the constant). */
        for (uint32_t s = 0; s <= zk->n_public; s++) {
                zk->coefs[n] = (struct zkey_coef){
                        .matrix = ZKEY_MATRIX_A,
                        .constraint = cs->n_constraints + s,
                        .signal = s,
                };
                fr_set_one(&zk->coefs[n++].value);
        }
        assert(n == n_coefs);
        *ret = TAKE_PTR(zk);
        return 0;
}

/* A copy of n elements of size bytes each (at least one byte allocated). */
static void *memdup_array(const void *p, size_t n, size_t size) {
        void *q = malloc(n ? n * size : 1);

        if (q && n)
                memcpy(q, p, n * size);
        return q;
}

int zkey_set_keys(struct zkey *zk, const struct groth16_pk *pk, const struct groth16_vk *vk) {
        size_t n_vars;

        assert(zk);
        assert(pk);
        assert(vk);
        n_vars = zk->n_vars;

        if (pk->h_convention != GROTH16_H_SNARKJS || pk->n_vars != zk->n_vars ||
            pk->n_public != zk->n_public || vk->n_public != zk->n_public ||
            pk->log_domain_size != zk->log2_domain_size)
                return log_error_errno(EINVAL,
                                       "key of %zu wires, %zu public, domain 2^%u%s; expected "
                                       "%" PRIu32 ", %" PRIu32 ", 2^%" PRIu32 " in snarkjs's "
                                       "convention",
                                       pk->n_vars, pk->n_public, pk->log_domain_size,
                                       pk->h_convention == GROTH16_H_SNARKJS ? "" : " (bellperson)",
                                       zk->n_vars, zk->n_public, zk->log2_domain_size);
        /* A .zkey holds a point per wire, infinity included. */
        if (pk->a_density || pk->b_density)
                return log_error_errno(EINVAL,
                                       "key with A or B points for some wires only (a density); "
                                       "a .zkey needs one per wire");
        zk->alpha1 = pk->alpha1;
        zk->beta1 = pk->beta1;
        zk->delta1 = pk->delta1;
        zk->beta2 = pk->beta2;
        zk->gamma2 = vk->gamma2;
        zk->delta2 = pk->delta2;

        zkey_points_free(zk);
        zk->ic = memdup_array(vk->ic, (size_t)zk->n_public + 1, sizeof(g1_affine_t));
        zk->a = memdup_array(pk->a, n_vars, sizeof(g1_affine_t));
        zk->b1 = memdup_array(pk->b1, n_vars, sizeof(g1_affine_t));
        zk->b2 = memdup_array(pk->b2, n_vars, sizeof(g2_affine_t));
        zk->c = memdup_array(pk->l, zkey_n_private(zk), sizeof(g1_affine_t));
        zk->h = memdup_array(pk->h, zk->domain_size, sizeof(g1_affine_t));
        if (!zk->ic || !zk->a || !zk->b1 || !zk->b2 || !zk->c || !zk->h)
                return log_error_errno(ENOMEM, "out of memory for a key of %zu wires", n_vars);
        return 0;
}

/* The file being written, with a buffer for encoding. */
struct zkey_writer {
        const char *path;
        struct atomic_file file;
        uint8_t *buf; /* POINTS_PER_BATCH G2 points */
};

static int write_bytes(struct zkey_writer *w, const void *data, size_t size) {
        int r = atomic_file_append(&w->file, data, size);

        if (r < 0)
                return log_error_errno(r, "%s: write: %m", w->path);
        return 0;
}

static int section_start(struct zkey_writer *w, uint32_t type, uint64_t size) {
        uint8_t head[ZKEY_SECTION_HEAD_BYTES];

        bin_put_le32(head, type);
        bin_put_le64(head + 4, size);
        return write_bytes(w, head, sizeof(head));
}

static int write_u32(struct zkey_writer *w, uint32_t v) {
        uint8_t b[4];

        bin_put_le32(b, v);
        return write_bytes(w, b, sizeof(b));
}

static int write_prime(struct zkey_writer *w, const uint64_t *limbs, size_t n_limbs) {
        uint8_t b[8 * FP_LIMBS];
        int r;

        assert(n_limbs <= FP_LIMBS);
        r = write_u32(w, (uint32_t)(8 * n_limbs));
        if (r < 0)
                return r;
        for (size_t i = 0; i < n_limbs; i++)
                bin_put_le64(b + 8 * i, limbs[i]);
        return write_bytes(w, b, 8 * n_limbs);
}

static int write_g1(struct zkey_writer *w, const g1_affine_t *points, size_t n) {
        for (size_t start = 0; start < n; start += POINTS_PER_BATCH) {
                const size_t count = n - start < POINTS_PER_BATCH ? n - start : POINTS_PER_BATCH;
                int r;

#pragma omp parallel for schedule(static) if (count >= 4096)
                for (size_t i = 0; i < count; i++)
                        g1_encode(w->buf + i * G1_SNARKJS_BYTES, G1_SNARKJS_BYTES,
                                  &points[start + i], POINT_FORMAT_SNARKJS);
                r = write_bytes(w, w->buf, count * G1_SNARKJS_BYTES);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int write_g2(struct zkey_writer *w, const g2_affine_t *points, size_t n) {
        for (size_t start = 0; start < n; start += POINTS_PER_BATCH) {
                const size_t count = n - start < POINTS_PER_BATCH ? n - start : POINTS_PER_BATCH;
                int r;

#pragma omp parallel for schedule(static) if (count >= 2048)
                for (size_t i = 0; i < count; i++)
                        g2_encode(w->buf + i * G2_SNARKJS_BYTES, G2_SNARKJS_BYTES,
                                  &points[start + i], POINT_FORMAT_SNARKJS);
                r = write_bytes(w, w->buf, count * G2_SNARKJS_BYTES);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int write_g1_section(struct zkey_writer *w, uint32_t type, const g1_affine_t *points,
                            size_t n) {
        int r = section_start(w, type, (uint64_t)n * G1_SNARKJS_BYTES);

        return r < 0 ? r : write_g1(w, points, n);
}

static int write_header_sections(struct zkey_writer *w, const struct zkey *zk) {
        const uint64_t header_bytes =
                2 * 4 + FP_BYTES + FR_BYTES + 3 * 4 + 3 * G1_SNARKJS_BYTES + 3 * G2_SNARKJS_BYTES;
        uint8_t preamble[12];
        int r;

        memcpy(preamble, "zkey", 4);
        bin_put_le32(preamble + 4, ZKEY_FILE_VERSION);
        bin_put_le32(preamble + 8, ZKEY_N_SECTIONS);
        if ((r = write_bytes(w, preamble, sizeof(preamble))) < 0 ||
            (r = section_start(w, 1, 4)) < 0 || (r = write_u32(w, ZKEY_PROTOCOL_GROTH16)) < 0)
                return r;

        if ((r = section_start(w, 2, header_bytes)) < 0 ||
            (r = write_prime(w, BLS12_381_P, FP_LIMBS)) < 0 ||
            (r = write_prime(w, BLS12_381_R, FR_LIMBS)) < 0 || (r = write_u32(w, zk->n_vars)) < 0 ||
            (r = write_u32(w, zk->n_public)) < 0 || (r = write_u32(w, zk->domain_size)) < 0 ||
            (r = write_g1(w, &zk->alpha1, 1)) < 0 || (r = write_g1(w, &zk->beta1, 1)) < 0 ||
            (r = write_g2(w, &zk->beta2, 1)) < 0 || (r = write_g2(w, &zk->gamma2, 1)) < 0 ||
            (r = write_g1(w, &zk->delta1, 1)) < 0 || (r = write_g2(w, &zk->delta2, 1)) < 0)
                return r;
        return 0;
}

/* Section 4: values as value * R^2 mod r, the inverse of zkey_coef_decode(). */
static int write_coefs(struct zkey_writer *w, const struct zkey *zk) {
        const size_t per_batch = POINTS_PER_BATCH * G2_SNARKJS_BYTES / ZKEY_COEF_BYTES;
        static const fr_t r_inverse = {{1, 0, 0, 0}}; /* Montgomery limbs 1: R^-1 */
        fr_t r_value;
        int r;

        fr_inv(&r_value, &r_inverse);
        r = section_start(w, 4, 4 + (uint64_t)zk->n_coefs * ZKEY_COEF_BYTES);
        if (r < 0)
                return r;
        r = write_u32(w, zk->n_coefs);
        for (size_t start = 0; r >= 0 && start < zk->n_coefs; start += per_batch) {
                const size_t count =
                        zk->n_coefs - start < per_batch ? zk->n_coefs - start : per_batch;

#pragma omp parallel for schedule(static) if (count >= 65536)
                for (size_t i = 0; i < count; i++) {
                        const struct zkey_coef *c = &zk->coefs[start + i];
                        uint8_t *p = w->buf + i * ZKEY_COEF_BYTES;
                        fr_t v;

                        bin_put_le32(p, c->matrix);
                        bin_put_le32(p + 4, c->constraint);
                        bin_put_le32(p + 8, c->signal);
                        fr_mul(&v, &c->value, &r_value);
                        fr_to_mont_le_bytes(p + 12, &v);
                }
                r = write_bytes(w, w->buf, count * ZKEY_COEF_BYTES);
        }
        return r;
}

static int write_contributions(struct zkey_writer *w, const uint8_t *cs_hash) {
        static const uint8_t zeros[ZKEY_CS_HASH_BYTES];
        int r;

        if ((r = section_start(w, 10, ZKEY_CS_HASH_BYTES + 4)) < 0 ||
            (r = write_bytes(w, cs_hash ? cs_hash : zeros, ZKEY_CS_HASH_BYTES)) < 0)
                return r;
        return write_u32(w, 0); /* no contributions */
}

static int write_sections(struct zkey_writer *w, const struct zkey *zk, const uint8_t *cs_hash) {
        int r;

        if ((r = write_header_sections(w, zk)) < 0 || (r = write_coefs(w, zk)) < 0 ||
            (r = write_g1_section(w, 3, zk->ic, (size_t)zk->n_public + 1)) < 0 ||
            (r = write_g1_section(w, 9, zk->h, zk->domain_size)) < 0 ||
            (r = write_g1_section(w, 8, zk->c, zkey_n_private(zk))) < 0 ||
            (r = write_g1_section(w, 5, zk->a, zk->n_vars)) < 0 ||
            (r = write_g1_section(w, 6, zk->b1, zk->n_vars)) < 0)
                return r;
        if ((r = section_start(w, 7, (uint64_t)zk->n_vars * G2_SNARKJS_BYTES)) < 0 ||
            (r = write_g2(w, zk->b2, zk->n_vars)) < 0)
                return r;
        return write_contributions(w, cs_hash);
}

int zkey_save(const char *path, const struct zkey *zk, const uint8_t *cs_hash) {
        _cleanup_free_ uint8_t *buf = NULL;
        struct zkey_writer w = {
                .path = path,
                .file = {.fd = -EBADF, .dir_fd = -EBADF},
        };
        int r;

        assert(path);
        assert(zk);
        assert(zk->ic && zk->a && zk->b1 && zk->b2 && zk->c && zk->h);
        assert(zk->coefs || zk->n_coefs == 0);

        buf = malloc(POINTS_PER_BATCH * G2_SNARKJS_BYTES);
        if (!buf)
                return log_error_errno(ENOMEM, "%s: out of memory", path);
        w.buf = buf;
        r = atomic_file_open(path, 0644, &w.file);
        if (r < 0)
                return log_error_errno(r, "%s: cannot create a temporary file beside it: %m", path);
        r = write_sections(&w, zk, cs_hash);
        if (r >= 0) {
                r = atomic_file_commit(&w.file);
                if (r < 0)
                        log_error_errno(r, "%s: cannot complete the file: %m", path);
        }
        atomic_file_close(&w.file);
        return r;
}
