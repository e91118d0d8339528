/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The sequence of passes of one GPU NTT, written once for the device
 * (ntt.cu, whose backend launches kernels) and the host emulation
 * (emu-test.cu, whose backend runs the same block functions in a loop).
 * Host code only.
 */
#pragma once

#include <stdint.h>

#include "ntt_pass.cuh"

extern "C" {
#include "zk/fr.h"
#include "zk/ntt.h"
}

namespace cuzk {

enum ntt_kind {
        NTT_KIND_FORWARD,
        NTT_KIND_INVERSE,
        NTT_KIND_COSET_FORWARD,
        NTT_KIND_COSET_INVERSE,
};

/* Input/output orders as in zk/ntt.h. */
enum ntt_dev_order {
        NTT_DEV_NN,
        NTT_DEV_NR,
        NTT_DEV_RN,
};

#define NTT_MAX_PASSES 16

struct ntt_plan {
        uint32_t passes;
        uint32_t k[NTT_MAX_PASSES];  /* stages of each pass, in DIF order */
        uint32_t s0[NTT_MAX_PASSES]; /* stages before it, in DIF order */
};

/* As few passes of at most max_k stages as possible, stages spread evenly
 * (2^27 = 9 + 9 + 9 with max_k = NTT_PASS_MAX_K). The emulation test passes
 * a smaller max_k to reach many passes at small sizes. */
inline ntt_plan ntt_make_plan(unsigned log_n, unsigned max_k) {
        ntt_plan plan = {};
        plan.passes = (log_n + max_k - 1) / max_k;
        uint32_t s0 = 0;
        for (uint32_t i = 0; i < plan.passes; i++) {
                plan.k[i] = log_n / plan.passes + (i < log_n % plan.passes ? 1 : 0);
                plan.s0[i] = s0;
                s0 += plan.k[i];
        }
        return plan;
}

/* Launch geometry of a pass: groups per block (log) and thread count. */
inline uint32_t ntt_pass_log_cols(unsigned log_n, unsigned k) {
        const unsigned by_block = NTT_BLOCK_LOG - k, by_size = log_n - k;
        return by_block < by_size ? by_block : by_size;
}

inline uint32_t ntt_pass_threads(unsigned k, unsigned log_cols) {
        const uint32_t butterflies = 1u << (k + log_cols - 1);
        return butterflies < NTT_BLOCK_THREADS_MAX ? butterflies : NTT_BLOCK_THREADS_MAX;
}

/* The tables a transform needs: powers of its root, and the scaling
 * applied before the first and after the last pass. */
struct ntt_tables {
        pow_table omega; /* omega or omega^-1 */
        ntt_scale pre;
        ntt_scale post;
};

/*
 * Runs the passes. Backend provides
 *   void pass(const ntt_pass_params &, uint64_t blocks, uint32_t threads);
 *   void bit_reverse(unsigned log_n);
 * Pre and post scaling go to the first and last pass executed.
 */
template <class Backend>
void ntt_run(Backend &backend, unsigned log_n, ntt_dev_order order, const ntt_tables &tables,
             unsigned max_k = NTT_PASS_MAX_K) {
        const ntt_plan plan = ntt_make_plan(log_n, max_k);
        const bool dif = order != NTT_DEV_RN;

        for (uint32_t i = 0; i < plan.passes; i++) {
                const uint32_t pass = dif ? i : plan.passes - 1 - i;
                ntt_pass_params p = {};
                p.log_n = log_n;
                p.s0 = plan.s0[pass];
                p.k = plan.k[pass];
                p.log_cols = ntt_pass_log_cols(log_n, p.k);
                p.dif = dif;
                p.omega = tables.omega;
                p.pre.mode = NTT_SCALE_NONE;
                p.post.mode = NTT_SCALE_NONE;
                if (i == 0)
                        p.pre = tables.pre;
                if (i + 1 == plan.passes)
                        p.post = tables.post;
                backend.pass(p, 1ull << (log_n - p.k - p.log_cols),
                             ntt_pass_threads(p.k, p.log_cols));
        }
        if (order == NTT_DEV_NN)
                backend.bit_reverse(log_n);
}

/* Scale modes of a transform (the tables' contents are the caller's). */
inline ntt_scale_mode ntt_pre_mode(ntt_kind kind, ntt_dev_order order) {
        if (kind != NTT_KIND_COSET_FORWARD)
                return NTT_SCALE_NONE;
        /* coefficient i times shift^i; RN input holds coefficient rev(p) at p */
        return order == NTT_DEV_RN ? NTT_SCALE_BITREV : NTT_SCALE_NATURAL;
}

inline ntt_scale_mode ntt_post_mode(ntt_kind kind, ntt_dev_order order) {
        switch (kind) {
        case NTT_KIND_FORWARD:
        case NTT_KIND_COSET_FORWARD:
                return NTT_SCALE_NONE;
        case NTT_KIND_INVERSE:
                return NTT_SCALE_CONST;
        case NTT_KIND_COSET_INVERSE:
                /* The passes' output is bit-reversed for NR and NN (NN reverses
                 * after the scaling) and natural for RN. */
                return order == NTT_DEV_RN ? NTT_SCALE_NATURAL : NTT_SCALE_BITREV;
        }
        return NTT_SCALE_NONE;
}

/* What a pow_table over exponents < 2^log_n holds: c g^j for j < lo_count,
 * then g_step^j for j < hi_count. Computed on the host with zk/. */
struct pow_spec {
        fr_t c, g, g_step;
        uint32_t lo_bits, lo_count, hi_count;

        uint32_t entries() const {
                return lo_count + hi_count;
        }
};

inline pow_spec make_pow_spec(const fr_t &c, const fr_t &g, unsigned log_n) {
        pow_spec s;
        s.c = c;
        s.g = g;
        s.lo_bits = (log_n + 1) / 2;
        s.lo_count = 1u << s.lo_bits;
        s.hi_count = 1u << (log_n - s.lo_bits);
        s.g_step = g;
        for (uint32_t i = 0; i < s.lo_bits; i++)
                fr_sqr(&s.g_step, &s.g_step);
        return s;
}

/* The constant c alone (NTT_SCALE_CONST reads lo[0] only). */
inline pow_spec make_const_spec(const fr_t &c) {
        pow_spec s;
        s.c = c;
        fr_set_one(&s.g);
        s.g_step = s.g;
        s.lo_bits = 0;
        s.lo_count = 1;
        s.hi_count = 0;
        return s;
}

/* Everything a transform's tables hold, from zk/'s conventions. */
struct ntt_specs {
        pow_spec omega;
        ntt_scale_mode pre_mode, post_mode;
        pow_spec pre, post; /* meaningful when the mode is not NONE */
};

inline bool ntt_kind_is_inverse(ntt_kind kind) {
        return kind == NTT_KIND_INVERSE || kind == NTT_KIND_COSET_INVERSE;
}

inline ntt_specs ntt_make_specs(unsigned log_n, ntt_roots_t roots, ntt_kind kind,
                                ntt_dev_order order, const fr_t *shift) {
        ntt_specs s;
        fr_t omega, one, size_inv, shift_inv;

        fr_set_one(&one);
        ntt_root_of_unity(&omega, log_n, roots);
        if (ntt_kind_is_inverse(kind))
                fr_inv(&omega, &omega);
        s.omega = make_pow_spec(one, omega, log_n);
        s.pre_mode = ntt_pre_mode(kind, order);
        s.post_mode = ntt_post_mode(kind, order);
        s.pre = make_const_spec(one);
        s.post = make_const_spec(one);
        if (s.pre_mode != NTT_SCALE_NONE)
                s.pre = make_pow_spec(one, *shift, log_n);
        if (s.post_mode != NTT_SCALE_NONE) {
                fr_from_u64(&size_inv, 1ull << log_n);
                fr_inv(&size_inv, &size_inv);
                if (s.post_mode == NTT_SCALE_CONST) {
                        s.post = make_const_spec(size_inv);
                } else {
                        fr_inv(&shift_inv, shift);
                        s.post = make_pow_spec(size_inv, shift_inv, log_n);
                }
        }
        return s;
}

} // namespace cuzk
