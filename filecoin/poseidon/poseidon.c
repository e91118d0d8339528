/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The Poseidon permutation in neptune's two forms: the optimised schedule
 * (compressed constants, sparse partial-round matrices) that trees and the
 * circuit use, and the plain one that checks it. Nothing is allocated per
 * hash: the state lives on the stack, at most 37 elements.
 */
#include <assert.h>
#include <errno.h>

#include "filecoin/poseidon/poseidon.h"

static inline void quintic(fr_t *x) {
        fr_t x2, x4;

        fr_sqr(&x2, x);
        fr_sqr(&x4, &x2);
        fr_mul(x, x, &x4);
}

static void add_constants(fr_t *s, const fr_t *k, unsigned t) {
        for (unsigned i = 0; i < t; i++)
                fr_add(&s[i], &s[i], &k[i]);
}

/* s = s * a, a row-major t x t. */
static void mix_dense(fr_t *s, const fr_t *a, unsigned t) {
        fr_t out[POSEIDON_MAX_WIDTH];

        for (unsigned j = 0; j < t; j++) {
                fr_t term;
                fr_mul(&out[j], &s[0], &a[j]);
                for (unsigned i = 1; i < t; i++) {
                        fr_mul(&term, &s[i], &a[i * t + j]);
                        fr_add(&out[j], &out[j], &term);
                }
        }
        for (unsigned j = 0; j < t; j++)
                s[j] = out[j];
}

/* s'[0] = sum w_hat[i] s[i]; s'[j] = s[j] + v[j-1] s[0]. */
static void mix_sparse(fr_t *s, const struct poseidon_sparse *m, unsigned t) {
        fr_t first, term;

        fr_mul(&first, &s[0], &m->w_hat[0]);
        for (unsigned i = 1; i < t; i++) {
                fr_mul(&term, &s[i], &m->w_hat[i]);
                fr_add(&first, &first, &term);
        }
        for (unsigned j = 1; j < t; j++) {
                fr_mul(&term, &s[0], &m->v[j - 1]);
                fr_add(&s[j], &s[j], &term);
        }
        s[0] = first;
}

static void load_state(const struct poseidon_constants *c, const fr_t *in, fr_t *s) {
        s[0] = c->domain_tag;
        for (unsigned i = 0; i < c->arity; i++)
                s[i + 1] = in[i];
}

void poseidon_hash(const struct poseidon_constants *c, const fr_t *in, fr_t *out) {
        unsigned t, half;
        const fr_t *k;
        fr_t s[POSEIDON_MAX_WIDTH];

        assert(c);
        assert(in && out);

        t = c->width;
        half = c->full_rounds / 2;
        k = c->compressed;

        load_state(c, in, s);
        add_constants(s, k, t);
        k += t;
        for (unsigned r = 0; r < half; r++) {
                for (unsigned i = 0; i < t; i++)
                        quintic(&s[i]);
                add_constants(s, k, t);
                k += t;
                mix_dense(s, r + 1 == half ? c->pre_sparse : c->mds, t);
        }
        for (unsigned p = 0; p < c->partial_rounds; p++) {
                quintic(&s[0]);
                fr_add(&s[0], &s[0], k++);
                mix_sparse(s, &c->sparse[p], t);
        }
        for (unsigned r = 0; r < half; r++) {
                for (unsigned i = 0; i < t; i++)
                        quintic(&s[i]);
                /* The last full round has no constant after its S-boxes. */
                if (r + 1 < half) {
                        add_constants(s, k, t);
                        k += t;
                }
                mix_dense(s, c->mds, t);
        }
        assert(k == c->compressed + c->n_compressed);
        *out = s[1];
}

void poseidon_hash_reference(const struct poseidon_constants *c, const fr_t *in, fr_t *out) {
        unsigned t, half, rounds;
        fr_t s[POSEIDON_MAX_WIDTH];

        assert(c);
        assert(in && out);

        t = c->width;
        half = c->full_rounds / 2;
        rounds = c->full_rounds + c->partial_rounds;

        load_state(c, in, s);
        for (unsigned r = 0; r < rounds; r++) {
                bool full = r < half || r >= half + c->partial_rounds;

                add_constants(s, &c->round_constants[(size_t)r * t], t);
                for (unsigned i = 0; i < (full ? t : 1); i++)
                        quintic(&s[i]);
                mix_dense(s, c->mds, t);
        }
        *out = s[1];
}

int poseidon_hash_bytes(unsigned arity, const uint8_t (*in)[32], uint8_t out[32]) {
        const struct poseidon_constants *c = poseidon_constants(arity);
        fr_t x[POSEIDON_MAX_ARITY], h;

        assert(in && out);

        if (!c)
                return -EOPNOTSUPP;
        for (unsigned i = 0; i < arity; i++)
                if (!fr_from_le_bytes(&x[i], in[i]))
                        return -EINVAL;
        poseidon_hash(c, x, &h);
        fr_to_le_bytes(out, &h);
        return 0;
}
