/* SPDX-License-Identifier: Apache-2.0 */
#include "pce-compact.h"
#include "pce-internal.h"

#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SPMV_CHUNK_ROWS 4096

static const fr_t fr_zero_value;

/* The aux of bitmap word k that are not bits (none of the bits past n_aux). */
static uint64_t nums_in_word(const uint64_t *is_bit, uint64_t n_aux, size_t k) {
        const uint64_t valid =
                (k + 1) * 64 <= n_aux ? UINT64_MAX : (UINT64_C(1) << (n_aux % 64)) - 1;
        return (uint64_t)__builtin_popcountll(~is_bit[k] & valid);
}

int pce_compact_rank(const uint64_t *is_bit, uint64_t n_aux, uint64_t **ret) {
        size_t words = pce_bitmap_words(n_aux);
        uint64_t *rank = malloc((words ? words : 1) * sizeof(uint64_t)), at = 0;

        assert(is_bit || n_aux == 0);
        assert(ret);

        if (!rank)
                return -ENOMEM;
        for (size_t k = 0; k < words; k++) {
                rank[k] = at;
                at += nums_in_word(is_bit, n_aux, k);
        }
        *ret = rank;
        return 0;
}

const fr_t *pce_compact_aux(const struct pce_compact_witness *w, uint64_t j) {
        uint64_t word = j / 64, mask = UINT64_C(1) << (j % 64);

        if (w->is_bit[word] & mask)
                return w->bit_value[word] & mask ? &w->inputs[0] : &fr_zero_value;
        return &w->nums[w->rank[word] +
                        (uint64_t)__builtin_popcountll(~w->is_bit[word] & (mask - 1))];
}

/* The 64 bits of bits[] (words words) from bit `first` on, 0 past the end. */
static uint64_t bits_from(const uint64_t *bits, size_t words, uint64_t first) {
        const size_t k = first / 64;
        const unsigned shift = first % 64;
        uint64_t v;

        if (k >= words)
                return 0;
        v = bits[k] >> shift;
        if (shift && k + 1 < words)
                v |= bits[k + 1] << (64 - shift);
        return v;
}

void pce_compact_count_aux(const struct pce_compact_witness *w, const struct wire_density *const *d,
                           size_t n_d, uint64_t *ret_one, uint64_t *ret_big) {
        uint64_t base, words;

        assert(w && (d || n_d == 0) && (ret_one || n_d == 0) && (ret_big || n_d == 0));
        base = 1 + (uint64_t)w->n_inputs;
        words = pce_bitmap_words(w->n_aux);
        for (size_t i = 0; i < n_d; i++) {
                assert(!d[i] || d[i]->n_wires == base + w->n_aux);
                ret_one[i] = ret_big[i] = 0;
        }
        for (uint64_t k = 0; k < words; k++) {
                const uint64_t valid = (k + 1) * 64 <= w->n_aux
                                               ? UINT64_MAX
                                               : (UINT64_C(1) << (w->n_aux % 64)) - 1;
                const uint64_t nums = ~w->is_bit[k] & valid;
                uint64_t ones = w->is_bit[k] & w->bit_value[k] & valid, bigs = 0;
                const fr_t *x = &w->nums[w->rank[k]];

                /* the nums in order: each one's value says which mask it joins */
                for (uint64_t left = nums; left; left &= left - 1, x++) {
                        const uint64_t bit = left & -left;
                        if (fr_is_one(x))
                                ones |= bit;
                        else if (!fr_is_zero(x))
                                bigs |= bit;
                }
                for (size_t i = 0; i < n_d; i++) {
                        const uint64_t in = d[i] ? bits_from(d[i]->bits, (d[i]->n_wires + 63) / 64,
                                                             base + k * 64)
                                                 : UINT64_MAX;
                        ret_one[i] += (uint64_t)__builtin_popcountll(ones & in);
                        ret_big[i] += (uint64_t)__builtin_popcountll(bigs & in);
                }
        }
}

/* Row i of m: a set bit adds its coefficient, a clear one nothing; other
 * values as pce_evaluate() does. */
static inline __attribute__((always_inline)) void row_compact(const struct pce_matrix *m,
                                                              const uint32_t id_bytes, uint64_t i,
                                                              const struct pce_compact_witness *w,
                                                              fr_t *ret) {
        uint32_t first_aux = w->n_inputs + 1;
        fr_t acc;

        fr_set_zero(&acc);
        for (uint64_t k = m->row_start[i]; k < m->row_start[i + 1]; k++) {
                uint32_t c = m->col[k];
                uint32_t id = pce_id_at(m->coeff_id, id_bytes, k);
                const fr_t *x;

                if (c >= first_aux) {
                        uint64_t j = c - first_aux, word = j / 64, mask = UINT64_C(1) << (j % 64);
                        if (w->is_bit[word] & mask) {
                                if (w->bit_value[word] & mask)
                                        fr_add(&acc, &acc, &m->values[id]);
                                continue;
                        }
                        x = &w->nums[w->rank[word] +
                                     (uint64_t)__builtin_popcountll(~w->is_bit[word] & (mask - 1))];
                } else {
                        x = &w->inputs[c];
                }
                pce_term_add(&acc, m->values, id, x);
        }
        *ret = acc;
}

static inline __attribute__((always_inline)) void fused_compact(const struct pce *pce,
                                                                const uint32_t id_bytes,
                                                                const struct pce_compact_witness *w,
                                                                fr_t *const out[3]) {
#pragma omp parallel for schedule(static, SPMV_CHUNK_ROWS)
        for (int64_t i = 0; i < (int64_t)pce->n_rows; i++)
                for (size_t k = 0; k < PCE_N_MATRICES; k++)
                        row_compact(&pce->m[k], id_bytes, (uint64_t)i, w, &out[k][i]);
}

int pce_evaluate_compact(const struct pce *pce, const struct pce_compact_witness *w,
                         unsigned log_domain_size, fr_t *a, fr_t *b, fr_t *c) {
        fr_t *const out[PCE_N_MATRICES] = {a, b, c};
        uint32_t id_bytes;
        size_t domain_size;

        assert(pce && w);
        assert(a && b && c);

        if (log_domain_size >= 64 || ((uint64_t)1 << log_domain_size) < pce->n_rows ||
            w->n_inputs != pce->n_public || 1 + (uint64_t)w->n_inputs + w->n_aux != pce->n_cols)
                return -EINVAL;
        domain_size = (size_t)1 << log_domain_size;
        id_bytes = pce->m[PCE_A].id_bytes;
        if (pce->m[PCE_B].id_bytes != id_bytes || pce->m[PCE_C].id_bytes != id_bytes)
                id_bytes = 0;
        if (id_bytes == 1)
                fused_compact(pce, 1, w, out);
        else if (id_bytes == 2)
                fused_compact(pce, 2, w, out);
        else if (id_bytes == 4)
                fused_compact(pce, 4, w, out);
        else
#pragma omp parallel for schedule(static, SPMV_CHUNK_ROWS)
                for (int64_t i = 0; i < (int64_t)pce->n_rows; i++)
                        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                                row_compact(&pce->m[k], pce->m[k].id_bytes, (uint64_t)i, w,
                                            &out[k][i]);
        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                memset(out[k] + pce->n_rows, 0, (domain_size - pce->n_rows) * sizeof(fr_t));
        return 0;
}

void pce_compact_expand(const struct pce_compact_witness *w, fr_t *out) {
        size_t base, words;

        assert(w && out);

        base = 1 + (size_t)w->n_inputs;
        words = pce_bitmap_words(w->n_aux);

        memcpy(out, w->inputs, base * sizeof(fr_t));
        /* One bitmap word (64 values) per iteration, its nums from the rank. */
#pragma omp parallel for schedule(static, 1024)
        for (size_t k = 0; k < words; k++) {
                uint64_t end = (k + 1) * 64 < w->n_aux ? (k + 1) * 64 : w->n_aux;
                uint64_t next = w->rank[k];
                for (uint64_t j = k * 64; j < end; j++) {
                        uint64_t mask = UINT64_C(1) << (j % 64);
                        if (w->is_bit[k] & mask)
                                out[base + j] =
                                        w->bit_value[k] & mask ? w->inputs[0] : fr_zero_value;
                        else
                                out[base + j] = w->nums[next++];
                }
        }
}

uint64_t pce_compact_nums(const struct pce_compact_witness *w) {
        const size_t words = pce_bitmap_words(w->n_aux);

        assert(w->rank || words == 0);
        return words ? w->rank[words - 1] + nums_in_word(w->is_bit, w->n_aux, words - 1) : 0;
}

size_t pce_compact_bytes(uint32_t n_inputs, uint64_t n_aux, uint64_t n_nums) {
        if (n_aux > PTRDIFF_MAX / 4 / sizeof(fr_t) || n_nums > n_aux)
                return 0;
        return ((size_t)n_inputs + 1) * sizeof(fr_t) +
               2 * pce_bitmap_words(n_aux) * sizeof(uint64_t) + (size_t)n_nums * sizeof(fr_t);
}

void pce_compact_owned_free(struct pce_compact_owned *c) {
        if (!c)
                return;
        free(c->bitmaps);
        free(c->rank);
        free(c->nums);
        *c = (struct pce_compact_owned){0};
}

int pce_compact_from_full(const fr_t *w, uint32_t n_inputs, uint64_t n_aux,
                          struct pce_compact_owned *ret) {
        const uint64_t words = pce_bitmap_words(n_aux);
        const fr_t *aux;
        uint64_t *is_bit, *bit_value, n_nums = 0;
        int r;

        assert(w && ret);
        aux = w + 1 + n_inputs;
        *ret = (struct pce_compact_owned){0};
        if (n_aux > PTRDIFF_MAX / sizeof(fr_t))
                return -ENOMEM;
        ret->bitmaps = calloc(2 * (words ? words : 1), sizeof(uint64_t));
        ret->nums = malloc((n_aux ? n_aux : 1) * sizeof(fr_t));
        if (!ret->bitmaps || !ret->nums) {
                pce_compact_owned_free(ret);
                return -ENOMEM;
        }
        is_bit = ret->bitmaps;
        bit_value = is_bit + words;
        for (uint64_t j = 0; j < n_aux; j++) {
                const bool one = fr_is_one(&aux[j]);
                if (one || fr_is_zero(&aux[j])) {
                        is_bit[j / 64] |= (uint64_t)1 << (j % 64);
                        bit_value[j / 64] |= (uint64_t)one << (j % 64);
                } else
                        ret->nums[n_nums++] = aux[j];
        }
        r = pce_compact_rank(is_bit, n_aux, &ret->rank);
        if (r < 0) {
                pce_compact_owned_free(ret);
                return r;
        }
        ret->w = (struct pce_compact_witness){.n_inputs = n_inputs,
                                              .inputs = w,
                                              .n_aux = n_aux,
                                              .is_bit = is_bit,
                                              .bit_value = bit_value,
                                              .nums = ret->nums,
                                              .rank = ret->rank};
        return 0;
}
