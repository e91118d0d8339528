/* SPDX-License-Identifier: Apache-2.0 */
/* The SHA-256 gadget, in bellperson's order of rows and variables. */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>

#include "common/cleanup.h"
#include "filecoin/sha256/compress.h"
#include "sha256.h"

void cs_sha256_iv(struct cs_u32 iv[8]) {
        for (unsigned i = 0; i < 8; i++)
                cs_u32_constant(&iv[i], SHA256_IV[i]);
}

/* x ⋙ r1 ⊕ x ⋙ r2 ⊕ (x ⋙ r3, or x >> r3 when shift): two xors, in that order. */
static void sigma(struct cs *cs, struct cs_u32 *r, const struct cs_u32 *x, unsigned r1, unsigned r2,
                  unsigned r3, bool shift) {
        struct cs_u32 a, b, t;

        cs_u32_rotr(&a, x, r1);
        cs_u32_rotr(&b, x, r2);
        cs_u32_xor(cs, &t, &a, &b);
        if (shift)
                cs_u32_shr(&b, x, r3);
        else
                cs_u32_rotr(&b, x, r3);
        cs_u32_xor(cs, r, &t, &b);
}

/* The reference's Maybe: a concrete word, or operands of a deferred addmany. */
struct maybe_word {
        struct cs_u32 ops[8];
        size_t n; /* 0: concrete, ops[0] is the word */
};

/* The word; a deferred one gets `other` (if any) appended to its operands.
 * A concrete word ignores `other`, as the reference does. */
static void maybe_compute(struct cs_multieq *m, struct maybe_word *x, const struct cs_u32 *other,
                          struct cs_u32 *out) {
        if (x->n == 0) {
                *out = x->ops[0];
                return;
        }
        if (other)
                x->ops[x->n++] = *other;
        cs_u32_addmany(m, out, x->ops, x->n);
}

static void message_schedule(struct cs_multieq *m, struct cs_u32 w[64]) {
        for (unsigned i = 16; i < 64; i++) {
                struct cs_u32 ops[4];
                ops[0] = w[i - 16];
                sigma(m->cs, &ops[1], &w[i - 15], 7, 18, 3, true);
                ops[2] = w[i - 7];
                sigma(m->cs, &ops[3], &w[i - 2], 17, 19, 10, true);
                cs_u32_addmany(m, &w[i], ops, 4);
        }
}

struct round_state {
        struct maybe_word a, e;
        struct cs_u32 b, c, d, f, g, h;
};

static void compression_round(struct cs_multieq *m, struct round_state *s, unsigned i,
                              const struct cs_u32 *w) {
        struct cs_u32 new_e, new_a, s1, ch, s0, maj, k;

        maybe_compute(m, &s->e, NULL, &new_e);
        sigma(m->cs, &s1, &new_e, 6, 11, 25, false);
        cs_u32_sha256_ch(m->cs, &ch, &new_e, &s->f, &s->g);
        cs_u32_constant(&k, SHA256_ROUND_CONSTANTS[i]);

        maybe_compute(m, &s->a, NULL, &new_a);
        sigma(m->cs, &s0, &new_a, 2, 13, 22, false);
        cs_u32_sha256_maj(m->cs, &maj, &new_a, &s->b, &s->c);

        /* e = d + temp1, a = temp1 + temp2, temp1 = h + S1 + ch + K + w. */
        s->e.ops[0] = s->h;
        s->e.ops[1] = s1;
        s->e.ops[2] = ch;
        s->e.ops[3] = k;
        s->e.ops[4] = *w;
        s->a.ops[0] = s->h;
        s->a.ops[1] = s1;
        s->a.ops[2] = ch;
        s->a.ops[3] = k;
        s->a.ops[4] = *w;
        s->a.ops[5] = s0;
        s->a.ops[6] = maj;
        s->a.n = 7;
        s->h = s->g;
        s->g = s->f;
        s->f = new_e;
        s->e.ops[5] = s->d;
        s->e.n = 6;
        s->d = s->c;
        s->c = s->b;
        s->b = new_a;
}

void cs_sha256_compression(struct cs *cs, const struct cs_bool input[512],
                           const struct cs_u32 current[8], struct cs_u32 out[8]) {
        struct cs_u32 w[64], pair[2];
        struct round_state s = {0};
        struct cs_multieq m;

        assert(cs && input && current && out);

        for (unsigned i = 0; i < 16; i++)
                cs_u32_from_bits_be(&w[i], &input[32 * i]);
        /* Created after the words, as the reference does (no row either way). */
        cs_multieq_init(&m, cs);
        message_schedule(&m, w);

        s.a.ops[0] = current[0];
        s.b = current[1];
        s.c = current[2];
        s.d = current[3];
        s.e.ops[0] = current[4];
        s.f = current[5];
        s.g = current[6];
        s.h = current[7];
        for (unsigned i = 0; i < 64; i++)
                compression_round(&m, &s, i, &w[i]);

        maybe_compute(&m, &s.a, &current[0], &out[0]);
        const struct cs_u32 *rest[] = {&s.b, &s.c, &s.d, NULL, &s.f, &s.g, &s.h};
        for (unsigned i = 1; i < 8; i++) {
                if (i == 4) {
                        maybe_compute(&m, &s.e, &current[4], &out[4]);
                        continue;
                }
                pair[0] = current[i];
                pair[1] = *rest[i - 1];
                cs_u32_addmany(&m, &out[i], pair, 2);
        }
        /* The reference's MultiEq is dropped here: its last row. */
        cs_multieq_finish(&m);
}

static void words_to_bits_be(const struct cs_u32 h[8], struct cs_bool out[256]) {
        for (unsigned i = 0; i < 8; i++)
                cs_u32_to_bits_be(&h[i], &out[32 * i]);
}

void cs_sha256_block_no_padding(struct cs *cs, const struct cs_bool input[512],
                                struct cs_bool out[256]) {
        struct cs_u32 iv[8], h[8];

        cs_sha256_iv(iv);
        cs_sha256_compression(cs, input, iv, h);
        words_to_bits_be(h, out);
}

int cs_sha256(struct cs *cs, const struct cs_bool *input, size_t n_bits, struct cs_bool out[256]) {
        _cleanup_free_ struct cs_bool *padded = NULL;
        struct cs_u32 cur[8], next[8];
        size_t n = n_bits;

        assert(cs && (input || n_bits == 0) && out);

        if (n_bits % 8 != 0)
                return -EINVAL;
        padded = malloc((n_bits + 1024) * sizeof(*padded));
        if (!padded)
                return -ENOMEM;
        for (size_t i = 0; i < n_bits; i++)
                padded[i] = input[i];
        padded[n++] = cs_bool_constant(true);
        while ((n + 64) % 512 != 0)
                padded[n++] = cs_bool_constant(false);
        for (int i = 63; i >= 0; i--)
                padded[n++] = cs_bool_constant(((uint64_t)n_bits >> i) & 1);

        cs_sha256_iv(cur);
        for (size_t block = 0; block < n / 512; block++) {
                cs_sha256_compression(cs, &padded[512 * block], cur, next);
                for (unsigned i = 0; i < 8; i++)
                        cur[i] = next[i];
        }
        words_to_bits_be(cur, out);
        return 0;
}
