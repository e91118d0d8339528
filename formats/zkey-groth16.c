/* SPDX-License-Identifier: Apache-2.0 */
/* A loaded .zkey as the inputs of zk/groth16.h's prover. */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>

#include "common/cleanup.h"
#include "zk/big_alloc.h"
#include "zkey.h"

void zkey_to_groth16_pk(const struct zkey *zk, struct groth16_pk *ret) {
        assert(zk);
        assert(ret);

        *ret = (struct groth16_pk){
                .h_convention = GROTH16_H_SNARKJS,
                .n_vars = zk->n_vars,
                .n_public = zk->n_public,
                .log_domain_size = zk->log2_domain_size,
                .alpha1 = zk->alpha1,
                .beta1 = zk->beta1,
                .delta1 = zk->delta1,
                .beta2 = zk->beta2,
                .delta2 = zk->delta2,
                .a = zk->a,
                .b1 = zk->b1,
                .b2 = zk->b2,
                .l = zk->c,
                .h = zk->h,
        };
}

static int zkey_matrix(const struct zkey *zk, uint32_t matrix, struct sparse_matrix *ret) {
        _cleanup_free_ uint32_t *rows = NULL, *cols = NULL;
        _cleanup_free_ fr_t *coeffs = NULL;
        size_t n = 0;

        rows = big_alloc((zk->n_coefs ? zk->n_coefs : 1) * sizeof(*rows));
        cols = big_alloc((zk->n_coefs ? zk->n_coefs : 1) * sizeof(*cols));
        coeffs = big_alloc((zk->n_coefs ? zk->n_coefs : 1) * sizeof(*coeffs));
        if (!rows || !cols || !coeffs)
                return -ENOMEM;
        for (uint32_t i = 0; i < zk->n_coefs; i++) {
                if (zk->coefs[i].matrix != matrix)
                        continue;
                rows[n] = zk->coefs[i].constraint;
                cols[n] = zk->coefs[i].signal;
                coeffs[n] = zk->coefs[i].value;
                n++;
        }
        /* zkey_load() checked every row and column against the sizes. */
        return sparse_from_triplets(ret, zk->domain_size, zk->n_vars, rows, cols, coeffs, n);
}

int zkey_to_groth16_matrices(const struct zkey *zk, struct sparse_matrix *a,
                             struct sparse_matrix *b) {
        int k;

        assert(zk);
        assert(a);
        assert(b);

        k = zkey_matrix(zk, ZKEY_MATRIX_A, a);
        if (k < 0)
                return k;
        k = zkey_matrix(zk, ZKEY_MATRIX_B, b);
        if (k < 0) {
                sparse_free(a);
                return k;
        }
        return 0;
}
