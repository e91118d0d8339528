/* SPDX-License-Identifier: Apache-2.0 */
#include "zkey.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "binfile.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "points.h"
#include "zk/big_alloc.h"
#include "zkey-internal.h"

enum {
        ZKEY_SECTION_PROTOCOL = 1,
        ZKEY_SECTION_GROTH16_HEADER = 2,
        ZKEY_SECTION_IC = 3,
        ZKEY_SECTION_COEFS = 4,
        ZKEY_SECTION_A = 5,
        ZKEY_SECTION_B1 = 6,
        ZKEY_SECTION_B2 = 7,
        ZKEY_SECTION_C = 8,
        ZKEY_SECTION_H = 9,
};

/* snarkjs's protocol ids (zkey_constants.js). */
enum {
        ZKEY_PROTOCOL_GROTH16 = 1,
        ZKEY_PROTOCOL_PLONK = 2,
        ZKEY_PROTOCOL_FFLONK = 10,
};

/*
 * The Fr element whose Montgomery limbs are 1 has the value R^-1 (R = 2^256):
 * multiplying by it turns the file's value * R^2 into our value * R, the
 * Montgomery form of value.
 */
static const fr_t FR_R_INVERSE = {{1, 0, 0, 0}};

void zkey_points_free(struct zkey *zk) {
        assert(zk);

        free(zk->ic);
        free(zk->a);
        free(zk->b1);
        free(zk->b2);
        free(zk->c);
        free(zk->h);
        zk->ic = zk->a = zk->b1 = zk->c = zk->h = NULL;
        zk->b2 = NULL;
}

struct zkey *zkey_free(struct zkey *zk) {
        if (!zk)
                return NULL;
        zkey_points_free(zk);
        free(zk->coefs);
        free(zk);
        return NULL;
}

static const char *protocol_name(uint32_t id) {
        switch (id) {
        case ZKEY_PROTOCOL_GROTH16:
                return "groth16";
        case ZKEY_PROTOCOL_PLONK:
                return "plonk";
        case ZKEY_PROTOCOL_FFLONK:
                return "fflonk";
        }
        return "unknown";
}

static int zkey_read_protocol(const struct binfile *bf) {
        struct bin_reader r;
        uint32_t protocol;
        int k;

        k = binfile_section(bf, ZKEY_SECTION_PROTOCOL, "protocol", &r);
        if (k < 0)
                return k;
        k = bin_read_u32(&r, "protocol id", &protocol);
        if (k < 0)
                return k;
        if (protocol != ZKEY_PROTOCOL_GROTH16)
                return log_error_errno(
                        EPROTONOSUPPORT, "%s: protocol is %" PRIu32 " (%s), expected %d (groth16)",
                        bf->path, protocol, protocol_name(protocol), ZKEY_PROTOCOL_GROTH16);
        return bin_reader_expect_end(&r);
}

/* Section 2 (see zkey_open). */
static int read_header(struct zkey *zk, const struct binfile *bf) {
        struct bin_reader r;
        int k;

        k = binfile_section(bf, ZKEY_SECTION_GROTH16_HEADER, "groth16 header", &r);
        if (k < 0)
                return k;
        if ((k = bin_read_prime(&r, BLS12_381_P, FP_LIMBS, "p")) < 0 ||
            (k = bin_read_prime(&r, BLS12_381_R, FR_LIMBS, "r")) < 0 ||
            (k = bin_read_u32(&r, "nVars", &zk->n_vars)) < 0 ||
            (k = bin_read_u32(&r, "nPublic", &zk->n_public)) < 0 ||
            (k = bin_read_u32(&r, "domainSize", &zk->domain_size)) < 0 ||
            (k = bin_read_g1_points(&r, "alpha1", 1, true, &zk->alpha1)) < 0 ||
            (k = bin_read_g1_points(&r, "beta1", 1, true, &zk->beta1)) < 0 ||
            (k = bin_read_g2_points(&r, "beta2", 1, true, &zk->beta2)) < 0 ||
            (k = bin_read_g2_points(&r, "gamma2", 1, true, &zk->gamma2)) < 0 ||
            (k = bin_read_g1_points(&r, "delta1", 1, true, &zk->delta1)) < 0 ||
            (k = bin_read_g2_points(&r, "delta2", 1, true, &zk->delta2)) < 0)
                return k;
        k = bin_reader_expect_end(&r);
        if (k < 0)
                return k;

        if ((uint64_t)zk->n_public + 1 > zk->n_vars)
                return log_error_errno(EBADMSG,
                                       "%s: nVars is %" PRIu32
                                       ", expected at least nPublic + 1 = %" PRIu64,
                                       bf->path, zk->n_vars, (uint64_t)zk->n_public + 1);
        if (zk->domain_size == 0 || (zk->domain_size & (zk->domain_size - 1)) != 0)
                return log_error_errno(EBADMSG,
                                       "%s: domainSize is %" PRIu32 ", expected a power of two",
                                       bf->path, zk->domain_size);
        zk->log2_domain_size = (uint32_t)__builtin_ctz(zk->domain_size);
        return 0;
}

int zkey_open(const char *path, struct zkey *header, struct binfile **ret) {
        _cleanup_(binfile_closep) struct binfile *bf = NULL;
        int k;

        assert(path);
        assert(header);
        assert(ret);

        k = binfile_open(path, "zkey", ZKEY_MAX_VERSION, &bf);
        if (k < 0)
                return k;
        k = zkey_read_protocol(bf);
        if (k < 0)
                return k;
        k = read_header(header, bf);
        if (k < 0)
                return k;
        *ret = TAKE_PTR(bf);
        return 0;
}

/* Reads a section of exactly n points of G1 (or G2 when g2) into a new array. */
static int zkey_read_point_section(const struct binfile *bf, uint32_t type, const char *name,
                                   uint64_t n, bool g2, bool check_subgroup, void **ret) {
        const size_t in_size = g2 ? G2_SNARKJS_BYTES : G1_SNARKJS_BYTES;
        const size_t out_size = g2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t);
        _cleanup_free_ void *points = NULL;
        struct bin_reader r;
        int k;

        k = binfile_section(bf, type, name, &r);
        if (k < 0)
                return k;
        if (r.left / in_size != n || r.left % in_size != 0)
                return log_error_errno(EBADMSG,
                                       "%s: %s section has %" PRIu64 " bytes, expected %" PRIu64
                                       " %s points of %zu bytes",
                                       bf->path, name, r.left, n, g2 ? "G2" : "G1", in_size);
        /* n * in_size fits in the file and out_size == in_size: no overflow. */
        points = big_alloc((n ? n : 1) * out_size);
        if (!points)
                return log_error_errno(ENOMEM, "%s: out of memory for %" PRIu64 " %s points",
                                       bf->path, n, name);
        k = g2 ? bin_read_g2_points(&r, name, n, check_subgroup, points)
               : bin_read_g1_points(&r, name, n, check_subgroup, points);
        if (k < 0)
                return k;
        *ret = TAKE_PTR(points);
        return 0;
}

static int zkey_read_g1_section(const struct binfile *bf, uint32_t type, const char *name,
                                uint64_t n, bool check_subgroup, g1_affine_t **ret) {
        void *points = NULL;
        int k = zkey_read_point_section(bf, type, name, n, false, check_subgroup, &points);
        *ret = points;
        return k;
}

static int zkey_read_g2_section(const struct binfile *bf, uint32_t type, const char *name,
                                uint64_t n, g2_affine_t **ret) {
        void *points = NULL;
        int k = zkey_read_point_section(bf, type, name, n, true, false, &points);
        *ret = points;
        return k;
}

int zkey_coefs_section(const struct binfile *bf, uint32_t *ret_n_coefs,
                       const uint8_t **ret_entries) {
        struct bin_reader r;
        uint32_t n_coefs;
        int k;

        k = binfile_section(bf, ZKEY_SECTION_COEFS, "coefficients", &r);
        if (k < 0)
                return k;
        k = bin_read_u32(&r, "coefficient count", &n_coefs);
        if (k < 0)
                return k;
        if (r.left / ZKEY_COEF_BYTES != n_coefs || r.left % ZKEY_COEF_BYTES != 0)
                return log_error_errno(EBADMSG,
                                       "%s: coefficients section has %" PRIu64
                                       " bytes after the count, expected %" PRIu32
                                       " entries of %d bytes",
                                       bf->path, r.left, n_coefs, ZKEY_COEF_BYTES);
        k = bin_read_array(&r, "coefficients", n_coefs, ZKEY_COEF_BYTES, ret_entries);
        if (k < 0)
                return k;
        *ret_n_coefs = n_coefs;
        return 0;
}

int zkey_coef_decode_indices(const struct zkey *zk, const char *path, uint32_t i,
                             const uint8_t *entry, struct zkey_coef *ret) {
        assert(zk);
        assert(path);
        assert(entry);
        assert(ret);

        ret->matrix = bin_le32(entry);
        ret->constraint = bin_le32(entry + 4);
        ret->signal = bin_le32(entry + 8);
        if (ret->matrix > ZKEY_MATRIX_B)
                return log_error_errno(EBADMSG,
                                       "%s: coefficient %" PRIu32 ": matrix is %" PRIu32
                                       ", expected 0 (A) or 1 (B)",
                                       path, i, ret->matrix);
        if (ret->constraint >= zk->domain_size)
                return log_error_errno(EBADMSG,
                                       "%s: coefficient %" PRIu32 ": constraint is %" PRIu32
                                       ", expected < domainSize = %" PRIu32,
                                       path, i, ret->constraint, zk->domain_size);
        if (ret->signal >= zk->n_vars)
                return log_error_errno(EBADMSG,
                                       "%s: coefficient %" PRIu32 ": signal is %" PRIu32
                                       ", expected < nVars = %" PRIu32,
                                       path, i, ret->signal, zk->n_vars);
        return 0;
}

int zkey_coef_decode(const struct zkey *zk, const char *path, uint32_t i, const uint8_t *entry,
                     struct zkey_coef *ret) {
        int k;

        k = zkey_coef_decode_indices(zk, path, i, entry, ret);
        if (k < 0)
                return k;
        if (!fr_from_mont_le_bytes(&ret->value, entry + 12))
                return log_error_errno(EBADMSG, "%s: coefficient %" PRIu32 ": value is not below r",
                                       path, i);
        fr_mul(&ret->value, &ret->value, &FR_R_INVERSE);
        return 0;
}

static int zkey_read_coefs(struct zkey *zk, const struct binfile *bf) {
        const uint8_t *in;
        int k;

        k = zkey_coefs_section(bf, &zk->n_coefs, &in);
        if (k < 0)
                return k;

        zk->coefs = big_alloc((zk->n_coefs ? zk->n_coefs : 1) * sizeof(*zk->coefs));
        if (!zk->coefs)
                return log_error_errno(ENOMEM, "%s: out of memory for %" PRIu32 " coefficients",
                                       bf->path, zk->n_coefs);

        for (uint32_t i = 0; i < zk->n_coefs; i++) {
                k = zkey_coef_decode(zk, bf->path, i, in + (size_t)i * ZKEY_COEF_BYTES,
                                     &zk->coefs[i]);
                if (k < 0)
                        return k;
        }
        return 0;
}

int zkey_load(const char *path, struct zkey **ret) {
        _cleanup_(binfile_closep) struct binfile *bf = NULL;
        _cleanup_(zkey_freep) struct zkey *zk = NULL;
        int k;

        assert(path);
        assert(ret);

        zk = calloc(1, sizeof(*zk));
        if (!zk)
                return log_error_errno(ENOMEM, "%s: out of memory", path);
        k = zkey_open(path, zk, &bf);
        if (k < 0)
                return k;
        k = zkey_read_coefs(zk, bf);
        if (k < 0)
                return k;

        if ((k = zkey_read_g1_section(bf, ZKEY_SECTION_IC, "IC", (uint64_t)zk->n_public + 1, true,
                                      &zk->ic)) < 0 ||
            (k = zkey_read_g1_section(bf, ZKEY_SECTION_A, "A", zk->n_vars, false, &zk->a)) < 0 ||
            (k = zkey_read_g1_section(bf, ZKEY_SECTION_B1, "B1", zk->n_vars, false, &zk->b1)) < 0 ||
            (k = zkey_read_g2_section(bf, ZKEY_SECTION_B2, "B2", zk->n_vars, &zk->b2)) < 0 ||
            (k = zkey_read_g1_section(bf, ZKEY_SECTION_C, "C", zkey_n_private(zk), false, &zk->c)) <
                    0 ||
            (k = zkey_read_g1_section(bf, ZKEY_SECTION_H, "H", zk->domain_size, false, &zk->h)) < 0)
                return k;

        *ret = TAKE_PTR(zk);
        return 0;
}
