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

/* The tables a transform needs: powers of its root, the direct table of
 * a root of size 2^direct_log (0: none), and the scaling applied before
 * the first and after the last pass. */
struct ntt_tables {
        pow_table omega;  /* omega or omega^-1 */
        pow_table direct; /* w^j, j < 2^direct_log, inverse with omega */
        uint32_t direct_log;
        ntt_scale pre;
        ntt_scale post;
};

/* Where pass p finds its roots: the direct table for sub-problems of at
 * most 2^direct_log points, the powers of omega otherwise (ntt_pass_params). */
inline void ntt_pass_roots(ntt_pass_params &p, const ntt_tables &t) {
        const uint32_t log_m = p.log_n - p.s0;
        if (log_m <= t.direct_log) {
                p.tw = t.direct;
                p.tw_shift = t.direct_log - log_m;
        } else {
                p.tw = t.omega;
                p.tw_shift = p.s0;
        }
        if (p.k <= t.direct_log) {
                p.local = t.direct;
                p.local_shift = t.direct_log - p.k;
        } else {
                p.local = t.omega;
                p.local_shift = p.log_n - p.k;
        }
}

/* Chunks of a host-to-host transform's first and last pass, each with its
 * own copy, so that PCIe overlaps the arithmetic (ntt_run). */
#define NTT_HOST_CHUNKS 8

/* Elements as `rows` rows of `width` consecutive elements, `pitch` apart
 * (pitch unused for one row), from `offset`. */
struct ntt_region {
        uint64_t offset, width, pitch;
        uint32_t rows;
};

/*
 * The elements that blocks [b0, b1) of pass p read and write, when they
 * form one region: blocks that cover contiguous ranges (the DIF's last
 * pass, the DIT's first), or the DIF's first pass, where block b holds the
 * consecutive columns [bT, (b+1)T) of the 2^k x S matrix. False otherwise.
 */
inline bool ntt_pass_region(const ntt_pass_params &p, uint64_t b0, uint64_t b1, ntt_region *r) {
        const unsigned log_S = p.log_n - p.s0 - p.k;
        if (log_S == 0 || p.log_cols > log_S) {
                const uint64_t per_block = 1ull << (p.k + p.log_cols);
                *r = {b0 * per_block, (b1 - b0) * per_block, 0, 1};
                return true;
        }
        if (p.s0 == 0) {
                const uint64_t cols = 1ull << p.log_cols;
                *r = {b0 * cols, (b1 - b0) * cols, 1ull << log_S, 1u << p.k};
                return true;
        }
        return false;
}

/*
 * Runs the passes. Backend provides
 *   void pass(const ntt_pass_params &, uint64_t block0, uint64_t blocks,
 *             uint32_t threads);            blocks [block0, block0 + blocks)
 *   void bit_reverse(unsigned log_n);
 *   void input(const ntt_region &, uint32_t chunk);
 *   void output(const ntt_region &, uint32_t chunk);
 * input() comes before the first pass reads a region, output() after the
 * last pass (or the bit reversal) has written it; together they cover the
 * array once each, so a host-to-host transform copies through them. With
 * chunks > 1 the first and last passes run in up to that many launches
 * (a power of two), each with its own input or output region, so that
 * copies overlap the arithmetic; NN's bit reversal leaves one output.
 * Pre and post scaling go to the first and last pass executed.
 */
template <class Backend>
void ntt_run(Backend &backend, unsigned log_n, ntt_dev_order order, const ntt_tables &tables,
             unsigned max_k = NTT_PASS_MAX_K, uint32_t chunks = 1) {
        const ntt_plan plan = ntt_make_plan(log_n, max_k);
        const bool dif = order != NTT_DEV_RN;
        const ntt_region whole = {0, 1ull << log_n, 0, 1};

        if (plan.passes == 0)
                backend.input(whole, 0);
        for (uint32_t i = 0; i < plan.passes; i++) {
                const uint32_t pass = dif ? i : plan.passes - 1 - i;
                ntt_pass_params p = {};
                p.log_n = log_n;
                p.s0 = plan.s0[pass];
                p.k = plan.k[pass];
                p.log_cols = ntt_pass_log_cols(log_n, p.k);
                p.dif = dif;
                ntt_pass_roots(p, tables);
                p.pre.mode = NTT_SCALE_NONE;
                p.post.mode = NTT_SCALE_NONE;
                const bool first = i == 0, last = i + 1 == plan.passes;
                if (first)
                        p.pre = tables.pre;
                if (last)
                        p.post = tables.post;
                const uint64_t blocks = 1ull << (log_n - p.k - p.log_cols);
                const uint32_t threads = ntt_pass_threads(p.k, p.log_cols);
                const bool copy_out = last && order != NTT_DEV_NN;
                uint64_t c = chunks < blocks ? chunks : blocks;
                ntt_region r;
                if (!(first || copy_out) || !ntt_pass_region(p, 0, blocks / (c ? c : 1), &r))
                        c = 1;
                if (c <= 1) {
                        if (first)
                                backend.input(whole, 0);
                        backend.pass(p, 0, blocks, threads);
                        if (copy_out)
                                backend.output(whole, 0);
                        continue;
                }
                for (uint64_t j = 0; j < c; j++) {
                        const uint64_t b0 = j * blocks / c, b1 = (j + 1) * blocks / c;
                        ntt_pass_region(p, b0, b1, &r);
                        if (first)
                                backend.input(r, (uint32_t)j);
                        backend.pass(p, b0, b1 - b0, threads);
                        if (copy_out)
                                backend.output(r, (uint32_t)j);
                }
        }
        if (order == NTT_DEV_NN) {
                backend.bit_reverse(log_n);
                backend.output(whole, 0);
        } else if (plan.passes == 0) {
                backend.output(whole, 0);
        }
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

/* The direct table of w = the root of size 2^log_d in the convention, or its
 * inverse (c = 1, one hi entry: every exponent below 2^log_d reads lo
 * alone). zk/'s roots form one chain (the root of size 2^m is the square of
 * that of 2^(m+1)), so the table serves every smaller sub-problem. */
inline pow_spec ntt_direct_spec(ntt_roots_t roots, bool inverse, unsigned log_d) {
        pow_spec s;
        ntt_root_of_unity(&s.g, log_d, roots);
        if (inverse)
                fr_inv(&s.g, &s.g);
        fr_set_one(&s.c);
        s.g_step = s.g;
        s.lo_bits = log_d;
        s.lo_count = 1u << log_d;
        s.hi_count = 1;
        return s;
}

/* Everything a transform's tables hold, from zk/'s conventions. */
struct ntt_specs {
        pow_spec omega;
        pow_spec direct; /* w_2^direct_log or its inverse, with omega */
        ntt_scale_mode pre_mode, post_mode;
        pow_spec pre, post; /* meaningful when the mode is not NONE */
};

inline bool ntt_kind_is_inverse(ntt_kind kind) {
        return kind == NTT_KIND_INVERSE || kind == NTT_KIND_COSET_INVERSE;
}

/* direct_log: the direct table's size (log), 0 for none. factor (NULL: 1)
 * multiplies the result, folded into the scaling the transform has anyway
 * (an inverse's 1/n, a coset's powers); a constant scaling that comes out
 * as 1 is dropped (an inverse with factor n costs no product). */
inline ntt_specs ntt_make_specs(unsigned log_n, ntt_roots_t roots, ntt_kind kind,
                                ntt_dev_order order, const fr_t *shift, unsigned direct_log,
                                const fr_t *factor = nullptr) {
        ntt_specs s;
        fr_t omega, one, size_inv, shift_inv, c;

        fr_set_one(&one);
        ntt_root_of_unity(&omega, log_n, roots);
        if (ntt_kind_is_inverse(kind))
                fr_inv(&omega, &omega);
        s.omega = make_pow_spec(one, omega, log_n);
        s.direct = ntt_direct_spec(roots, ntt_kind_is_inverse(kind), direct_log);
        s.pre_mode = ntt_pre_mode(kind, order);
        s.post_mode = ntt_post_mode(kind, order);
        s.pre = make_const_spec(one);
        s.post = make_const_spec(one);
        c = factor ? *factor : one;
        if (s.pre_mode != NTT_SCALE_NONE) {
                s.pre = make_pow_spec(c, *shift, log_n);
                return s;
        }
        if (s.post_mode == NTT_SCALE_NONE)
                s.post_mode = NTT_SCALE_CONST; /* a forward transform's factor */
        if (ntt_kind_is_inverse(kind)) {
                fr_from_u64(&size_inv, 1ull << log_n);
                fr_inv(&size_inv, &size_inv);
                fr_mul(&c, &c, &size_inv);
        }
        if (s.post_mode == NTT_SCALE_CONST) {
                s.post = make_const_spec(c);
                if (fr_is_one(&c))
                        s.post_mode = NTT_SCALE_NONE;
        } else {
                fr_inv(&shift_inv, shift);
                s.post = make_pow_spec(c, shift_inv, log_n);
        }
        return s;
}

} // namespace cuzk
