/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One pass of the GPU NTT over Fr, written once for the device kernel
 * (ntt.cu) and the host emulation (emu-test.cu).
 *
 * A transform of n = 2^L points runs as a few passes of k <= NTT_PASS_MAX_K
 * radix-2 stages each. With s0 stages done before a pass, the sub-problems
 * have N = 2^(L - s0) points and the pass splits each into 2^k-point
 * groups of stride S = N / 2^k: group g = (hi, lo) holds the elements
 * hi N + m S + lo for m < 2^k. Decimation in frequency (natural order in,
 * bit-reversed out, the NR order of zk/ntt.h) does per group a local 2^k
 * point DIF, whose output at local position m is frequency f = rev_k(m),
 * and multiplies it by w_N^(lo f): the four-step factorisation
 *   X[f + 2^k f'] = sum_lo w_S^(lo f') w_N^(lo f) sum_m x[m S + lo] w_2^k^(m f).
 * Composed over the passes, position p ends up holding X[rev_L(p)].
 * Decimation in time (bit-reversed in, natural out: RN) is the transpose,
 * F P = (P F)^T: the same passes in reverse order, each multiplying by the
 * same twiddles first and then running a local 2^k-point DIT.
 *
 * Field arithmetic is exact, so any correct factorisation gives zk/'s
 * values bit for bit. Coset shifts and the 1/n scaling fold into the first
 * and last pass (pre/post multiplication by c g^e, e = the element's
 * coefficient index).
 *
 * A block holds T = 2^log_cols groups (consecutive g) in shared memory,
 * [m][t], in two planes of halves (ntt_shared); loads and stores walk
 * memory order so that a warp's accesses are contiguous. Work is written
 * as `for (i = tid; i < count; i += nthreads)` between barriers, so one
 * host thread with nthreads = 1 runs it exactly.
 */
#pragma once

#include <stdint.h>

#include "field.cuh"
#include "memory.cuh"

namespace cuzk {

#define NTT_PASS_MAX_K 10
/* The direct twiddle table holds w^j for j < 2^NTT_DIRECT_LOG (8 MiB), w a
 * root of that size: a pass whose sub-problems have at most that many points
 * reads its twiddles there with no product (the two-level table costs one
 * product a twiddle). At 2^27 (passes of 9 stages) the second and third
 * passes and every pass's local twiddles read it; only the first pass's
 * inter-group twiddles, over 2^27 exponents, still pay the product. */
#define NTT_DIRECT_LOG 18
/* Elements per block: 2^10 (32 KiB) plus up to 2^9 local twiddles (16 KiB)
 * stay within the default 48 KiB of shared memory. */
#define NTT_BLOCK_LOG 10
/* 128 threads, each with two groups of four elements between syncs: a
 * 2^27 transform (NR) took 42.97 ms, against 44.05 with 256 threads and
 * 45.14 / 46.06 with one butterfly a stage (H100); 512 threads 53.8. */
#define NTT_BLOCK_THREADS_MAX 128

/* c * g^e, from two tables: lo[j] = c g^j (j < 2^lo_bits) and
 * hi[j] = g^(j 2^lo_bits); one multiplication per value with e >= 2^lo_bits,
 * none below (a direct table is one whose exponents all stay below). */
struct pow_table {
        const fr_dev *lo;
        const fr_dev *hi;
        uint32_t lo_bits;

        CUZK_HD fr_dev at(uint64_t e) const {
                const uint64_t h = e >> lo_bits;
                const fr_dev l = load_wide(&lo[e & ((1ull << lo_bits) - 1)]);
                return h ? l * load_wide(&hi[h]) : l;
        }
};

/* Entry idx of the array behind a pow_table: lo (c g^j) first, then hi
 * (g_step^j with g_step = g^(2^lo_bits)). */
CUZK_HD fr_dev pow_table_entry(const fr_dev &c, const fr_dev &g, const fr_dev &g_step,
                               uint32_t lo_count, uint32_t idx) {
        return idx < lo_count ? c * g.pow_u64(idx) : g_step.pow_u64(idx - lo_count);
}

/* How a pass scales elements around its butterflies. */
enum ntt_scale_mode : uint32_t {
        NTT_SCALE_NONE,
        NTT_SCALE_CONST,   /* c (exponent 0) */
        NTT_SCALE_NATURAL, /* c g^p at position p */
        NTT_SCALE_BITREV,  /* c g^rev_L(p) at position p */
};

struct ntt_scale {
        ntt_scale_mode mode;
        pow_table table;
};

struct ntt_pass_params {
        uint32_t log_n;    /* L */
        uint32_t s0;       /* stages before this pass */
        uint32_t k;        /* stages in this pass */
        uint32_t log_cols; /* log2 of the groups per block */
        uint32_t dif;      /* 1: DIF (NR), 0: DIT (RN) */
        /* Roots of unity as tw.at(y << tw_shift) = w_M^y, M = 2^(L - s0) the
         * sub-problems' size, and local.at(j << local_shift) = w_2^k^j: each
         * the direct table where it reaches, else the powers of omega. */
        pow_table tw;
        uint32_t tw_shift;
        pow_table local;
        uint32_t local_shift;
        ntt_scale pre;  /* applied to the pass's input */
        ntt_scale post; /* applied to the pass's output */
};

CUZK_HD uint32_t bit_reverse32(uint32_t x, unsigned bits) {
#ifdef __CUDA_ARCH__
        return bits ? __brev(x) >> (32 - bits) : 0;
#else
        uint32_t r = 0;
        for (unsigned i = 0; i < bits; i++)
                r |= ((x >> i) & 1) << (bits - 1 - i);
        return r;
#endif
}

CUZK_HD uint64_t bit_reverse64(uint64_t x, unsigned bits) {
#ifdef __CUDA_ARCH__
        return bits ? __brevll(x) >> (64 - bits) : 0;
#else
        uint64_t r = 0;
        for (unsigned i = 0; i < bits; i++)
                r |= ((x >> i) & 1) << (bits - 1 - i);
        return r;
#endif
}

CUZK_HD fr_dev ntt_apply_scale(const ntt_scale &s, const fr_dev &x, uint64_t pos, unsigned log_n) {
        switch (s.mode) {
        case NTT_SCALE_NONE:
                return x;
        case NTT_SCALE_CONST:
                return x * load_wide(&s.table.lo[0]);
        case NTT_SCALE_NATURAL:
                return x * s.table.at(pos);
        case NTT_SCALE_BITREV:
                return x * s.table.at(bit_reverse64(pos, log_n));
        }
        return x;
}

/* Where element e (memory order within the block) of a block lives: its
 * global index and its group-local coordinates (m, t). */
struct ntt_slot {
        uint64_t addr;
        uint32_t m, t;
};

CUZK_HD ntt_slot ntt_pass_slot(const ntt_pass_params &p, uint64_t block, uint32_t e) {
        const unsigned log_N = p.log_n - p.s0, log_S = log_N - p.k;
        const uint64_t g0 = block << p.log_cols;
        ntt_slot s;

        if (p.log_cols <= log_S) {
                /* The block's groups share hi and have consecutive lo. */
                s.m = e >> p.log_cols;
                s.t = e & ((1u << p.log_cols) - 1);
                const uint64_t g = g0 + s.t;
                s.addr = ((g >> log_S) << log_N) + ((uint64_t)s.m << log_S) +
                         (g & ((1ull << log_S) - 1));
        } else {
                /* The block covers whole sub-problems: one contiguous range. */
                const uint32_t hi_local = e >> log_N, rem = e & ((1u << log_N) - 1);
                s.m = rem >> log_S;
                s.t = (hi_local << log_S) | (rem & ((1u << log_S) - 1));
                s.addr = ((g0 >> log_S) << log_N) + e;
        }
        return s;
}

/* The exponent y of w_N^y = w_N^(lo rev_k(m)) for the slot. */
CUZK_HD uint64_t ntt_twiddle_exponent(const ntt_pass_params &p, uint64_t block, const ntt_slot &s) {
        const unsigned log_S = p.log_n - p.s0 - p.k;
        const uint64_t g = (block << p.log_cols) + s.t;
        const uint64_t lo = g & ((1ull << log_S) - 1);
        return lo * bit_reverse32(s.m, p.k);
}

/*
 * A block's elements in shared memory as two planes of 16-byte halves
 * (element i's first half at piece i, its second at piece elems + i): a
 * warp's accesses to consecutive elements then fall in distinct banks,
 * where whole 32-byte elements side by side conflicted two ways. Nsight
 * Compute, one pass at 2^27 on an H100: 9.6 wavefronts a shared load (4
 * without conflicts) before, 7.2 in planes (the stages of short pairs still
 * conflict); a 2^27 transform (NR) 42.96 -> 42.53 ms.
 */
struct ntt_shared {
        uint4 *pieces;
        uint32_t elems;

        CUZK_HD fr_dev load(uint32_t i) const {
                const uint4 v[2] = {pieces[i], pieces[elems + i]};
                fr_dev r;
                memcpy(&r, v, sizeof(r));
                return r;
        }
        CUZK_HD void store(uint32_t i, const fr_dev &x) const {
                uint4 v[2];
                memcpy(v, &x, sizeof(v));
                pieces[i] = v[0];
                pieces[elems + i] = v[1];
        }
};

/* One butterfly on x and y with local twiddle widx (none for 0): DIF
 * (x + y, (x - y) w), DIT (x + y w, x - y w). */
CUZK_HD void ntt_butterfly(bool dif, fr_dev &x, fr_dev &y, const fr_dev *sh_tw, uint32_t widx) {
        if (dif) {
                const fr_dev d = x - y;
                x = x + y;
                y = widx ? d * load_wide(&sh_tw[widx]) : d;
        } else {
                const fr_dev yw = widx ? y * load_wide(&sh_tw[widx]) : y;
                y = x - yw;
                x = x + yw;
        }
}

/* Stage st's butterfly bf of column t in shared memory. DIF: half-size
 * 2^(k-1-st), twiddle step 2^st; DIT: 2^st, 2^(k-1-st). */
CUZK_HD void ntt_radix2(const ntt_pass_params &p, const ntt_shared &sh, const fr_dev *sh_tw,
                        uint32_t st, uint32_t t, uint32_t bf) {
        const uint32_t log_h = p.dif ? p.k - 1 - st : st;
        const uint32_t log_step = p.dif ? st : p.k - 1 - st;
        const uint32_t j = bf & ((1u << log_h) - 1);
        const uint32_t i0 = ((bf >> log_h) << (log_h + 1)) + j, i1 = i0 + (1u << log_h);
        const uint32_t a0 = (i0 << p.log_cols) + t, a1 = (i1 << p.log_cols) + t;
        fr_dev x = sh.load(a0), y = sh.load(a1);
        ntt_butterfly(p.dif, x, y, sh_tw, j << log_step);
        sh.store(a0, x);
        sh.store(a1, y);
}

/*
 * Stages st and st + 1 on the four elements e0 + {0, 1, 2, 3} d of group g
 * in column t, the same butterflies as two ntt_radix2 stages. DIF: d =
 * 2^(k-2-st); stage st pairs (e0, e2) and (e1, e3), stage st + 1 (e0, e1)
 * and (e2, e3). DIT: d = 2^st; stage st pairs (e0, e1) and (e2, e3), stage
 * st + 1 (e0, e2) and (e1, e3).
 */
CUZK_HD void ntt_radix4(const ntt_pass_params &p, const ntt_shared &sh, const fr_dev *sh_tw,
                        uint32_t st, uint32_t t, uint32_t g) {
        const uint32_t log_d = p.dif ? p.k - 2 - st : st, d = 1u << log_d;
        const uint32_t j = g & (d - 1), e0 = ((g >> log_d) << (log_d + 2)) + j;
        uint32_t a[4];
        fr_dev v[4];
        for (uint32_t i = 0; i < 4; i++) {
                a[i] = ((e0 + i * d) << p.log_cols) + t;
                v[i] = sh.load(a[i]);
        }
        if (p.dif) {
                ntt_butterfly(true, v[0], v[2], sh_tw, j << st);
                ntt_butterfly(true, v[1], v[3], sh_tw, (j + d) << st);
                ntt_butterfly(true, v[0], v[1], sh_tw, j << (st + 1));
                ntt_butterfly(true, v[2], v[3], sh_tw, j << (st + 1));
        } else {
                const uint32_t log_step = p.k - 1 - st;
                ntt_butterfly(false, v[0], v[1], sh_tw, j << log_step);
                ntt_butterfly(false, v[2], v[3], sh_tw, j << log_step);
                ntt_butterfly(false, v[0], v[2], sh_tw, j << (log_step - 1));
                ntt_butterfly(false, v[1], v[3], sh_tw, (j + d) << (log_step - 1));
        }
        for (uint32_t i = 0; i < 4; i++)
                sh.store(a[i], v[i]);
}

template <class Sync>
CUZK_HD void ntt_pass_block(const ntt_pass_params &p, fr_dev *data, uint64_t block, uint32_t tid,
                            uint32_t nthreads, fr_dev *sh_elems, fr_dev *sh_tw, Sync sync) {
        const uint32_t cols = 1u << p.log_cols, elems = cols << p.k, half_k = 1u << (p.k - 1);
        const uint32_t butterflies = elems / 2;
        const ntt_shared sh = {reinterpret_cast<uint4 *>(sh_elems), elems};

        /* Local twiddles w_2^k^j, j < 2^(k-1). */
        for (uint32_t j = tid; j < half_k; j += nthreads)
                store_wide(&sh_tw[j], p.local.at((uint64_t)j << p.local_shift));

        for (uint32_t e = tid; e < elems; e += nthreads) {
                const ntt_slot s = ntt_pass_slot(p, block, e);
                fr_dev x = ntt_apply_scale(p.pre, load_wide(&data[s.addr]), s.addr, p.log_n);
                if (!p.dif) {
                        const uint64_t te = ntt_twiddle_exponent(p, block, s);
                        if (te)
                                x = x * p.tw.at(te << p.tw_shift);
                }
                sh.store((s.m << p.log_cols) + s.t, x);
        }
        sync();

        /* Two stages between syncs where two are left (each thread's four
         * elements through both in registers), else one. */
        for (uint32_t st = 0; st < p.k;) {
                if (st + 1 < p.k) {
                        for (uint32_t q = tid; q < butterflies / 2; q += nthreads)
                                ntt_radix4(p, sh, sh_tw, st, q & (cols - 1), q >> p.log_cols);
                        st += 2;
                } else {
                        for (uint32_t q = tid; q < butterflies; q += nthreads)
                                ntt_radix2(p, sh, sh_tw, st, q & (cols - 1), q >> p.log_cols);
                        st++;
                }
                sync();
        }

        for (uint32_t e = tid; e < elems; e += nthreads) {
                const ntt_slot s = ntt_pass_slot(p, block, e);
                fr_dev x = sh.load((s.m << p.log_cols) + s.t);
                if (p.dif) {
                        const uint64_t te = ntt_twiddle_exponent(p, block, s);
                        if (te)
                                x = x * p.tw.at(te << p.tw_shift);
                }
                store_wide(&data[s.addr], ntt_apply_scale(p.post, x, s.addr, p.log_n));
        }
}

/* Bit reversal for small sizes: one thread per element, the lower index of
 * each pair swaps. */
CUZK_HD void ntt_bitrev_swap(fr_dev *data, unsigned log_n, uint32_t i) {
        const uint32_t j = bit_reverse32(i, log_n);
        if (i < j) {
                const fr_dev x = load_wide(&data[i]), y = load_wide(&data[j]);
                store_wide(&data[i], y);
                store_wide(&data[j], x);
        }
}

/*
 * In-place bit reversal by tiles: with i = (hi, mid, lo), hi and lo of
 * NTT_BITREV_TILE bits, rev(i) = (rev(lo), rev(mid), rev(hi)), so the tile
 * of all (hi, lo) for one mid swaps with the tile for rev(mid), transposed.
 * Block `mid` handles the pair (mid, rev(mid)) when mid <= rev(mid) and
 * does nothing otherwise. Needs L >= 2 NTT_BITREV_TILE.
 */
#define NTT_BITREV_TILE 4

template <class Sync>
CUZK_HD void ntt_bitrev_block(fr_dev *data, unsigned log_n, uint32_t mid, uint32_t tid,
                              uint32_t nthreads, fr_dev *sh, Sync sync) {
        const unsigned tb = NTT_BITREV_TILE, log_mid = log_n - 2 * tb;
        const uint32_t side = 1u << tb, tile = side * side;
        const uint32_t mid_rev = bit_reverse32(mid, log_mid);
        const bool pair = mid != mid_rev;

        if (mid > mid_rev)
                return; /* the partner block does this pair */
        for (uint32_t e = tid; e < (pair ? 2 * tile : tile); e += nthreads) {
                const uint32_t which = e / tile, hi = (e % tile) >> tb, lo = e & (side - 1);
                const uint64_t addr = ((uint64_t)hi << (log_n - tb)) +
                                      ((uint64_t)(which ? mid_rev : mid) << tb) + lo;
                store_wide(&sh[e], load_wide(&data[addr]));
        }
        sync();
        for (uint32_t e = tid; e < (pair ? 2 * tile : tile); e += nthreads) {
                const uint32_t which = e / tile, hi = (e % tile) >> tb, lo = e & (side - 1);
                const uint64_t addr = ((uint64_t)hi << (log_n - tb)) +
                                      ((uint64_t)(which ? mid_rev : mid) << tb) + lo;
                /* The element that belongs here sits in the other tile, transposed. */
                const uint32_t from = (pair ? (1 - which) * tile : 0) +
                                      (bit_reverse32(lo, tb) << tb) + bit_reverse32(hi, tb);
                store_wide(&data[addr], load_wide(&sh[from]));
        }
}

} // namespace cuzk
