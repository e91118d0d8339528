/* SPDX-License-Identifier: Apache-2.0 */
/*
 * a = A w, b = B w, c = C w from a PCE (circuits/pce.h) and a compact
 * witness (circuits/pce-compact.h) as data-parallel steps, the same
 * arithmetic as pce_evaluate_compact(): a witness bit adds its
 * coefficient (no product), ids 0 and 1 (+1, -1) add or subtract, any
 * other id costs one product.
 *
 * Rows are short (PoRep: 1 to 3 terms mostly, a few hundred at most), so
 * a thread takes a row; rows longer than long_terms would hold their
 * warp back, so those go to a list and a warp each (pce-eval.cu), whose
 * lanes sum every 32nd term and add their partial sums. Field additions
 * are exact, so any order gives zk/'s value bit for bit.
 */
#pragma once

#include <stdint.h>

#include "cuda/field.cuh"
#include "cuda/memory.cuh"

namespace cuzk {

/* Rows of more terms than this go to a warp each. */
#define PCE_LONG_TERMS 8u
#define PCE_WARP_LANES 32u

/* 64 aux wires of the compact witness in one 32-byte sector: which are
 * bits, those bits, and the non-bit values before them (the rank). A term
 * that meets an aux wire reads one sector instead of three arrays. */
struct alignas(32) pce_witness_word {
        uint64_t is_bit, bit_value, rank, unused;
};

/* *p += 1, returning the old value: atomic on the device, plain in the
 * emulation (one thread). */
CUZK_HD uint32_t pce_fetch_inc(uint32_t *p) {
#ifdef __CUDA_ARCH__
        return atomicAdd(p, 1u);
#else
        return (*p)++;
#endif
}

/* The row offsets as 32 bits (a matrix of fewer than 2^32 terms): half
 * the bytes a thread reads per row. */
struct pce_narrow_step {
        static constexpr unsigned block_threads = 256;
        const uint64_t *wide;
        uint32_t *narrow;

        CUZK_HD void operator()(uint64_t i) const {
                narrow[i] = (uint32_t)wide[i];
        }
};

/* Rows of more than long_terms terms: counted in *count, and listed
 * (unordered) when list is set. */
struct pce_long_rows_step {
        static constexpr unsigned block_threads = 256;
        const uint32_t *row_start;
        uint32_t long_terms;
        uint32_t *count;
        uint32_t *list; /* may be null: count only */

        CUZK_HD void operator()(uint64_t i) const {
                if (row_start[i + 1] - row_start[i] <= long_terms)
                        return;
                const uint32_t at = pce_fetch_inc(count);
                if (list)
                        list[at] = (uint32_t)i;
        }
};

/* The words of the compact witness from its two bitmaps and rank. */
struct pce_pack_words_step {
        static constexpr unsigned block_threads = 256;
        const uint64_t *is_bit, *bit_value, *rank;
        pce_witness_word *words;

        CUZK_HD void operator()(uint64_t k) const {
                words[k] = pce_witness_word{is_bit[k], bit_value[k], rank[k], 0};
        }
};

/* The full witness from the compact one, for the MSMs: ONE and the inputs
 * as they are, a bit aux as 0 or 1 (inputs[0] is ONE in the same form),
 * any other aux its value among nums. */
struct pce_expand_step {
        static constexpr unsigned block_threads = 256;
        const fr_dev *inputs; /* ONE and the public inputs: columns below first_aux */
        const pce_witness_word *words;
        const fr_dev *nums;
        uint32_t first_aux;
        fr_dev *out;

        CUZK_HD void operator()(uint64_t i) const {
                if (i < first_aux) {
                        store_wide(&out[i], load_wide(&inputs[i]));
                        return;
                }
                const uint64_t j = i - first_aux;
                const pce_witness_word w = load_wide(&words[j / 64]);
                const uint64_t mask = (uint64_t)1 << (j % 64);
                if (w.is_bit & mask)
                        store_wide(&out[i],
                                   w.bit_value & mask ? load_wide(&inputs[0]) : fr_dev::zero());
                else
                        store_wide(&out[i],
                                   load_wide(&nums[w.rank +
                                                   (uint64_t)popcount64(~w.is_bit & (mask - 1))]));
        }
};

/* coeff x, called rather than inlined: products are rare (most terms are
 * +1 or -1), and one copy keeps the kernels small. */
template <class F> CUZK_HD_NOINLINE F pce_coeff_mul(F coeff, F x) {
        return coeff * x;
}

/* One matrix's rows over the compact witness; Id is the coefficient ids'
 * width (uint8_t, uint16_t or uint32_t, as the PCE stores them). */
template <class Id> struct pce_row_step {
        static constexpr unsigned block_threads = 256;
        const uint32_t *row_start; /* n_rows + 1 */
        const uint32_t *col;
        const Id *ids;
        const fr_dev *values; /* the coefficient table */
        const fr_dev *inputs; /* ONE and the public inputs: columns below first_aux */
        const pce_witness_word *words;
        const fr_dev *nums;  /* the aux that are not bits, in order */
        uint32_t first_aux;  /* 1 + n_inputs */
        uint32_t long_terms; /* longer rows are left to pce_long_row */
        fr_dev *out;

        /* acc += coefficient id times the witness at column c. */
        CUZK_HD void add_term(fr_dev &acc, uint64_t k) const {
                const uint32_t c = col[k], id = ids[k];
                fr_dev x;
                if (c >= first_aux) {
                        const uint32_t j = c - first_aux;
                        const pce_witness_word w = load_wide(&words[j / 64]);
                        const uint64_t mask = (uint64_t)1 << (j % 64);
                        if (w.is_bit & mask) {
                                if (w.bit_value & mask)
                                        acc = acc + load_wide(&values[id]);
                                return;
                        }
                        x = load_wide(&nums[w.rank + (uint64_t)popcount64(~w.is_bit & (mask - 1))]);
                } else {
                        x = load_wide(&inputs[c]);
                }
                if (id == 0) /* PCE_COEFF_ID_ONE */
                        acc = acc + x;
                else if (id == 1) /* PCE_COEFF_ID_MINUS_ONE */
                        acc = acc - x;
                else
                        acc = acc + pce_coeff_mul(load_wide(&values[id]), x);
        }

        /* Terms first + lane, first + lane + lanes, ... of row i. */
        CUZK_HD fr_dev partial(uint64_t i, uint32_t lane, uint32_t lanes) const {
                fr_dev acc = fr_dev::zero();
                const uint32_t end = row_start[i + 1];
                for (uint32_t k = row_start[i] + lane; k < end; k += lanes)
                        add_term(acc, k);
                return acc;
        }

        /* A short row, whole; a long one is its warp's. */
        CUZK_HD void operator()(uint64_t i) const {
                if (row_start[i + 1] - row_start[i] > long_terms)
                        return;
                store_wide(&out[i], partial(i, 0, 1));
        }
};

} // namespace cuzk
