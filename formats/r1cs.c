/* SPDX-License-Identifier: Apache-2.0 */
#include "r1cs.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "binfile.h"
#include "common/cleanup.h"
#include "common/log.h"

#define R1CS_MAX_VERSION 1
#define R1CS_SECTION_HEADER 1
#define R1CS_SECTION_CONSTRAINTS 2
#define R1CS_SECTION_WIRE_MAP 3
#define R1CS_SECTION_CUSTOM_GATES_LIST 4
#define R1CS_SECTION_CUSTOM_GATES_USES 5

static const char *const matrix_names[R1CS_N_MATRICES] = {"A", "B", "C"};

struct r1cs *r1cs_free(struct r1cs *cs) {
        if (!cs)
                return NULL;
        for (size_t m = 0; m < R1CS_N_MATRICES; m++)
                sparse_free(&cs->matrices[m]);
        free(cs);
        return NULL;
}

static int r1cs_read_header(struct r1cs *cs, const struct binfile *bf) {
        struct bin_reader r;
        uint64_t n_named;
        int k;

        k = binfile_section(bf, R1CS_SECTION_HEADER, "header", &r);
        if (k < 0)
                return k;
        k = bin_read_prime(&r, BLS12_381_R, FR_LIMBS, "r");
        if (k < 0)
                return k;
        if ((k = bin_read_u32(&r, "nWires", &cs->n_wires)) < 0 ||
            (k = bin_read_u32(&r, "nPubOut", &cs->n_pub_out)) < 0 ||
            (k = bin_read_u32(&r, "nPubIn", &cs->n_pub_in)) < 0 ||
            (k = bin_read_u32(&r, "nPrvIn", &cs->n_prv_in)) < 0 ||
            (k = bin_read_u64(&r, "nLabels", &cs->n_labels)) < 0 ||
            (k = bin_read_u32(&r, "nConstraints", &cs->n_constraints)) < 0)
                return k;
        k = bin_reader_expect_end(&r);
        if (k < 0)
                return k;

        /* 64-bit sum: the counts are u32 and cannot overflow it. */
        n_named = 1 + (uint64_t)cs->n_pub_out + cs->n_pub_in + cs->n_prv_in;
        if (n_named > cs->n_wires)
                return log_error_errno(
                        EBADMSG,
                        "%s: header: nWires is %" PRIu32
                        ", expected at least 1 + nPubOut + nPubIn + nPrvIn = %" PRIu64,
                        bf->path, cs->n_wires, n_named);

        /* The wire -> label map is not needed, but its size pins nWires. */
        if (binfile_has_section(bf, R1CS_SECTION_WIRE_MAP)) {
                k = binfile_section(bf, R1CS_SECTION_WIRE_MAP, "wire map", &r);
                if (k < 0)
                        return k;
                if (r.left != (uint64_t)cs->n_wires * 8)
                        return log_error_errno(EBADMSG,
                                               "%s: wire map section has %" PRIu64
                                               " bytes, expected 8 per wire, nWires = %" PRIu32,
                                               bf->path, r.left, cs->n_wires);
        }

        if (binfile_has_section(bf, R1CS_SECTION_CUSTOM_GATES_LIST) ||
            binfile_has_section(bf, R1CS_SECTION_CUSTOM_GATES_USES))
                return log_error_errno(EOPNOTSUPP,
                                       "%s: uses custom gates (PLONK only), expected a plain R1CS",
                                       bf->path);
        return 0;
}

/*
 * First pass over the constraints: checks every count and wire index
 * against the section and counts the terms of each matrix, so the second
 * pass can fill exactly sized arrays without further checks.
 */
static int r1cs_count_terms(struct r1cs *cs, struct bin_reader r,
                            uint64_t n_terms[R1CS_N_MATRICES]) {
        for (uint32_t c = 0; c < cs->n_constraints; c++)
                for (size_t m = 0; m < R1CS_N_MATRICES; m++) {
                        const uint8_t *terms;
                        uint32_t n;
                        int k;

                        k = bin_read_u32(&r, "term count", &n);
                        if (k < 0)
                                return k;
                        k = bin_read_array(&r, "terms", n, 4 + FR_BYTES, &terms);
                        if (k < 0)
                                return k;
                        for (uint32_t t = 0; t < n; t++) {
                                const uint8_t *p = terms + (size_t)t * (4 + FR_BYTES);
                                uint32_t wire = bin_le32(p);
                                if (wire >= cs->n_wires)
                                        return log_error_errno(
                                                EBADMSG,
                                                "%s: constraint %" PRIu32 ": %s term %" PRIu32
                                                " uses wire %" PRIu32
                                                ", expected < nWires = %" PRIu32,
                                                r.path, c, matrix_names[m], t, wire, cs->n_wires);
                        }
                        n_terms[m] += n;
                }
        return bin_reader_expect_end(&r);
}

static int r1cs_alloc_matrix(struct sparse_matrix *mat, uint32_t n_rows, uint32_t n_cols,
                             uint64_t n_terms) {
        mat->n_rows = n_rows;
        mat->n_cols = n_cols;
        mat->row_start = malloc(((size_t)n_rows + 1) * sizeof(uint64_t));
        /* At least one element each, so that an empty matrix is not confused with a failure. */
        mat->col = malloc((n_terms ? n_terms : 1) * sizeof(uint32_t));
        mat->coeff = malloc((n_terms ? n_terms : 1) * sizeof(fr_t));
        if (!mat->row_start || !mat->col || !mat->coeff)
                return -ENOMEM;
        mat->row_start[0] = 0;
        return 0;
}

static int r1cs_fill(struct r1cs *cs, struct bin_reader r) {
        uint64_t pos[R1CS_N_MATRICES] = {0};

        for (uint32_t c = 0; c < cs->n_constraints; c++)
                for (size_t m = 0; m < R1CS_N_MATRICES; m++) {
                        struct sparse_matrix *mat = &cs->matrices[m];
                        const uint8_t *terms;
                        uint32_t n;

                        /* Counts and bounds were checked by r1cs_count_terms(). */
                        if (bin_read_u32(&r, "term count", &n) < 0 ||
                            bin_read_array(&r, "terms", n, 4 + FR_BYTES, &terms) < 0)
                                return -EBADMSG;
                        for (uint32_t t = 0; t < n; t++, pos[m]++) {
                                const uint8_t *p = terms + (size_t)t * (4 + FR_BYTES);
                                mat->col[pos[m]] = bin_le32(p);
                                if (!fr_from_le_bytes(&mat->coeff[pos[m]], p + 4))
                                        return log_error_errno(EBADMSG,
                                                               "%s: constraint %" PRIu32
                                                               ": %s term %" PRIu32
                                                               " has a coefficient >= r",
                                                               r.path, c, matrix_names[m], t);
                        }
                        mat->row_start[c + 1] = pos[m];
                }
        return 0;
}

int r1cs_load(const char *path, struct r1cs **ret) {
        _cleanup_(binfile_closep) struct binfile *bf = NULL;
        _cleanup_(r1cs_freep) struct r1cs *cs = NULL;
        uint64_t n_terms[R1CS_N_MATRICES] = {0};
        struct bin_reader r;
        int k;

        assert(path);
        assert(ret);

        k = binfile_open(path, "r1cs", R1CS_MAX_VERSION, &bf);
        if (k < 0)
                return k;
        cs = calloc(1, sizeof(*cs));
        if (!cs)
                return log_error_errno(ENOMEM, "%s: out of memory", path);

        k = r1cs_read_header(cs, bf);
        if (k < 0)
                return k;

        k = binfile_section(bf, R1CS_SECTION_CONSTRAINTS, "constraints", &r);
        if (k < 0)
                return k;
        /* Each constraint takes at least its three term counts. */
        if (cs->n_constraints > r.left / 12)
                return log_error_errno(EBADMSG,
                                       "%s: header: nConstraints is %" PRIu32
                                       ", but the constraints section has only %" PRIu64 " bytes",
                                       path, cs->n_constraints, r.left);
        k = r1cs_count_terms(cs, r, n_terms);
        if (k < 0)
                return k;

        for (size_t m = 0; m < R1CS_N_MATRICES; m++)
                if (r1cs_alloc_matrix(&cs->matrices[m], cs->n_constraints, cs->n_wires,
                                      n_terms[m]) < 0)
                        return log_error_errno(ENOMEM, "%s: out of memory for %" PRIu64 " %s terms",
                                               path, n_terms[m], matrix_names[m]);
        k = r1cs_fill(cs, r);
        if (k < 0)
                return k;

        *ret = TAKE_PTR(cs);
        return 0;
}
