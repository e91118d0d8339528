/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A witness in compact form, and a, b, c evaluated from it. Most of a PoRep
 * witness is SHA-256 bits: a 32 GiB partition's 130M values are 4.2 GB as
 * Fr, 87 MB as two bitmaps and the 2.6M other values. Evaluating from the
 * compact form reads that instead of the 4.2 GB (a bit is a test and, when
 * set, the coefficient added; no multiplication), and never materialises
 * the full witness.
 *
 * Columns follow the PCE: 0 is ONE, 1 .. n_inputs the inputs, then aux j in
 * column 1 + n_inputs + j. Aux j is a bit when bit j of is_bit is set (its
 * value bit j of bit_value), else the next of nums in allocation order.
 */
#pragma once

#include <stdint.h>

#include "pce.h"

struct pce_compact_witness {
        uint32_t n_inputs;  /* ONE excluded */
        const fr_t *inputs; /* n_inputs + 1, inputs[0] = 1 */
        uint64_t n_aux;
        const uint64_t *is_bit;    /* pce_bitmap_words(n_aux) words */
        const uint64_t *bit_value; /* the same */
        const fr_t *nums;          /* the aux that are not bits, in order */
        /* rank[k]: nums before aux 64k (pce_compact_rank); owned by the caller */
        const uint64_t *rank;
};

/* rank[k] = aux below 64k that are not bits, k < pce_bitmap_words(n_aux);
 * malloc'ed. Returns 0 or -ENOMEM. */
int pce_compact_rank(const uint64_t *is_bit, uint64_t n_aux, uint64_t **ret);

/* Aux j's value (a pointer into w, or to one or zero). */
const fr_t *pce_compact_aux(const struct pce_compact_witness *w, uint64_t j);

/* For each of the n_d densities d[i] (NULL: every aux; else covering the witness's
 * 1 + n_inputs + n_aux wires), how many of the aux whose wires (1 + n_inputs + j) it
 * holds are 1 (ret_one[i]) and how many neither 0 nor 1 (ret_big[i]): what an MSM over
 * those wires needs to set its 0s and 1s apart. Word by word over the bitmaps, each num
 * looked at once (a num may be 0 or 1 too). */
void pce_compact_count_aux(const struct pce_compact_witness *w, const struct wire_density *const *d,
                           size_t n_d, uint64_t *ret_one, uint64_t *ret_big);

/* pce_evaluate() from the compact witness. Returns 0 or -EINVAL (a domain
 * smaller than the rows, or a witness of another shape). */
int pce_evaluate_compact(const struct pce *pce, const struct pce_compact_witness *w,
                         unsigned log_domain_size, fr_t *a, fr_t *b, fr_t *c);

/* The full witness (1 + n_inputs + n_aux values) into out; multi-threaded. */
void pce_compact_expand(const struct pce_compact_witness *w, fr_t *out);

/* The aux of w that are not bits (w->nums' length), from its rank and last word. */
uint64_t pce_compact_nums(const struct pce_compact_witness *w);

/* The bytes of a compact witness's arrays (inputs with ONE, both bitmaps, n_nums values);
 * 0 when that overflows or n_nums > n_aux. */
size_t pce_compact_bytes(uint32_t n_inputs, uint64_t n_aux, uint64_t n_nums);

/* A compact witness with the memory it owns (pce_compact_from_full). */
struct pce_compact_owned {
        struct pce_compact_witness w;
        uint64_t *bitmaps; /* is_bit, then bit_value */
        uint64_t *rank;
        fr_t *nums;
};

/* The compact form of a full witness (1 + n_inputs + n_aux values, w[0] ONE): every aux
 * equal to 0 or 1 becomes a bit. ret->w borrows w's inputs. Returns 0 or -ENOMEM. */
int pce_compact_from_full(const fr_t *w, uint32_t n_inputs, uint64_t n_aux,
                          struct pce_compact_owned *ret);
void pce_compact_owned_free(struct pce_compact_owned *c);
