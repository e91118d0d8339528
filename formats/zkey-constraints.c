/* SPDX-License-Identifier: Apache-2.0 */
/* A .zkey's constraint matrices without its points (see zkey-constraints.h). */
#include "zkey-constraints.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "binfile.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "zkey-internal.h"

void zkey_constraints_free(struct zkey_constraints *cs) {
        if (!cs)
                return;
        sparse_free(&cs->a);
        sparse_free(&cs->b);
        memset(cs, 0, sizeof(*cs));
}

uint64_t zkey_constraints_bytes(uint64_t n_coefs, uint32_t domain_size) {
        return n_coefs * (sizeof(uint32_t) + sizeof(fr_t)) +
               2 * ((uint64_t)domain_size + 1) * sizeof(uint64_t);
}

/*
 * First pass: checks every entry's indices and counts the terms of each row
 * of each matrix into row_start[row + 1], so that the terms can be written
 * to their place directly, without a copy of the coefficients in between.
 */
static int count_rows(const struct zkey *header, const char *path, const uint8_t *entries,
                      uint32_t n_coefs, struct sparse_matrix *m[2]) {
        for (uint32_t i = 0; i < n_coefs; i++) {
                struct zkey_coef c;
                int k;

                k = zkey_coef_decode_indices(header, path, i, entries + (size_t)i * ZKEY_COEF_BYTES,
                                             &c);
                if (k < 0)
                        return k;
                m[c.matrix]->row_start[c.constraint + 1]++;
        }
        return 0;
}

/* Row counts to row starts, and the arrays for the terms. */
static int allocate_terms(const char *path, struct sparse_matrix *m) {
        uint64_t n_terms;

        for (uint32_t row = 0; row < m->n_rows; row++)
                m->row_start[row + 1] += m->row_start[row];
        n_terms = m->row_start[m->n_rows];
        m->col = malloc((n_terms ? n_terms : 1) * sizeof(*m->col));
        m->coeff = malloc((n_terms ? n_terms : 1) * sizeof(*m->coeff));
        if (!m->col || !m->coeff)
                return log_error_errno(ENOMEM, "%s: out of memory for %" PRIu64 " matrix terms",
                                       path, n_terms);
        return 0;
}

/*
 * Second pass: every term goes to its row's next free place, in file order
 * (as sparse_from_triplets() keeps it). row_start[row] serves as that row's
 * cursor, so it ends at the start of row + 1; shifting it back by one row
 * restores the starts.
 */
static int fill_terms(const struct zkey *header, const char *path, const uint8_t *entries,
                      uint32_t n_coefs, struct sparse_matrix *m[2]) {
        for (uint32_t i = 0; i < n_coefs; i++) {
                struct zkey_coef c;
                uint64_t at;
                int k;

                k = zkey_coef_decode(header, path, i, entries + (size_t)i * ZKEY_COEF_BYTES, &c);
                if (k < 0)
                        return k;
                at = m[c.matrix]->row_start[c.constraint]++;
                m[c.matrix]->col[at] = c.signal;
                m[c.matrix]->coeff[at] = c.value;
        }
        for (size_t j = 0; j < 2; j++) {
                memmove(m[j]->row_start + 1, m[j]->row_start,
                        (size_t)(m[j]->n_rows - 1) * sizeof(*m[j]->row_start));
                m[j]->row_start[0] = 0;
        }
        return 0;
}

int zkey_constraints_load(const char *path, struct zkey_constraints *ret) {
        _cleanup_(binfile_closep) struct binfile *bf = NULL;
        _cleanup_(zkey_constraints_free) struct zkey_constraints cs = {0};
        struct sparse_matrix *m[2] = {&cs.a, &cs.b};
        struct zkey header = {0};
        const uint8_t *entries;
        uint32_t n_coefs;
        int k;

        assert(path);
        assert(ret);

        k = zkey_open(path, &header, &bf);
        if (k < 0)
                return k;
        k = zkey_coefs_section(bf, &n_coefs, &entries);
        if (k < 0)
                return k;

        for (size_t j = 0; j < 2; j++) {
                m[j]->n_rows = header.domain_size;
                m[j]->n_cols = header.n_vars;
                m[j]->row_start = calloc((size_t)header.domain_size + 1, sizeof(uint64_t));
                if (!m[j]->row_start)
                        return log_error_errno(ENOMEM,
                                               "%s: out of memory for %" PRIu32 " matrix rows",
                                               path, header.domain_size);
        }
        k = count_rows(&header, path, entries, n_coefs, m);
        if (k < 0)
                return k;
        for (size_t j = 0; j < 2; j++) {
                k = allocate_terms(path, m[j]);
                if (k < 0)
                        return k;
        }
        k = fill_terms(&header, path, entries, n_coefs, m);
        if (k < 0)
                return k;

        cs.n_vars = header.n_vars;
        cs.n_public = header.n_public;
        cs.domain_size = header.domain_size;
        cs.log2_domain_size = header.log2_domain_size;
        *ret = TAKE_GENERIC(cs, struct zkey_constraints, (struct zkey_constraints){0});
        return 0;
}
