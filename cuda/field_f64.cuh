/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fp's Montgomery product on the FP64 pipe: eight 48-bit limbs held in
 * doubles, R = 2^384 as in field.cuh, values below 2p as in its lazy form
 * (field_lazy.cuh), so that a value moves between the two forms by
 * regrouping its bits. The 32-bit limb products of field.cuh run on the
 * integer multiplier (IMAD); this form runs its limb products as double
 * FMAs, a pipe the MSM leaves idle, so that both can work at once
 * (cuda/README.md, "Next").
 *
 * A limb product a b < 2^96 splits exactly in two FMAs and one addition:
 *   h = fma_rz(a, b, 2^100)           = 2^100 + H 2^48, H = floor(a b / 2^48)
 *   l = fma(a, b, (2^100 + 2^52) - h)  = 2^52 + L,      L = a b mod 2^48
 * (h's unit in the last place is 2^48; the subtraction is exact, (16 - H)
 * 2^48 having at most 48 significant bits; l lies in [2^52, 2^53), where
 * doubles are the integers). H and L are then the low bits of h's and l's
 * bit patterns, whose exponent fields are constants: the columns of the
 * product sum the patterns as 64-bit integers and start from minus the
 * exponents' total, which has no bit below 2^52. A column holds at most
 * 33 terms below 2^48 and a carry, so it stays below 2^54.
 *
 * The reduction is operand-scanning over the 16 columns: q = c n' mod 2^48
 * from column i's low 48 bits (a third split), q p added to columns i to
 * i + 8, column i's carry into i + 1. For a, b < 2p the result,
 * (a b + Q p) / 2^384 < p (1 + 4p / 2^384) < 2p, fits the eight limbs.
 */
#pragma once

#include <stdint.h>
#include <string.h>

#include "field.cuh"

namespace cuzk {

struct fp_f64 {
        static constexpr int N = 8;
        static constexpr int LIMB_BITS = 48;
        static constexpr uint64_t MASK = (1ull << LIMB_BITS) - 1;
        double v[N]; /* integer limbs in [0, 2^48), little-endian */

        /* Bits [48 j, 48 j + 48) of 32-bit limbs w[0..n). */
        CUZK_HD static constexpr uint64_t limb_of(const uint32_t *w, int n, int j) {
                const int bit = LIMB_BITS * j, i = bit / 32, s = bit % 32;
                uint64_t x = (uint64_t)w[i] >> s;
                if (i + 1 < n)
                        x |= (uint64_t)w[i + 1] << (32 - s);
                if (s > 64 - LIMB_BITS && i + 2 < n) /* the bits reach a third word */
                        x |= (uint64_t)w[i + 2] << (64 - s);
                return x & MASK;
        }

        /* Limb j of p, and n' = -1/p mod 2^48 (Newton's iteration doubles
         * the correct low bits of 1/p0 from 3: p0 is odd). */
        CUZK_HD static constexpr uint64_t modulus(int j) {
                uint32_t m[fp_params::LIMBS] = {};
                for (int i = 0; i < fp_params::LIMBS; i++)
                        m[i] = fp_params::modulus(i);
                return limb_of(m, fp_params::LIMBS, j);
        }
        CUZK_HD static constexpr uint64_t n_prime() {
                const uint64_t p0 = modulus(0);
                uint64_t inv = p0;
                for (int i = 0; i < 5; i++)
                        inv *= 2 - p0 * inv;
                return (0 - inv) & MASK;
        }
};

namespace f64 {

constexpr double TWO52 = 4503599627370496.0;              /* 2^52 */
constexpr double TWO100 = TWO52 * TWO52 / 16;             /* 2^100 */
constexpr double TWO100_52 = TWO100 + TWO52;              /* 2^100 + 2^52 */
constexpr uint64_t LO_EXP = (uint64_t)(1023 + 52) << 52;  /* the bits of 2^52 */
constexpr uint64_t HI_EXP = (uint64_t)(1023 + 100) << 52; /* the bits of 2^100 */

CUZK_HD uint64_t bits(double x) {
#ifdef __CUDA_ARCH__
        return (uint64_t)__double_as_longlong(x);
#else
        uint64_t u;
        memcpy(&u, &x, sizeof(u));
        return u;
#endif
}

CUZK_HD double from_bits(uint64_t u) {
#ifdef __CUDA_ARCH__
        return __longlong_as_double((long long)u);
#else
        double x;
        memcpy(&x, &u, sizeof(x));
        return x;
#endif
}

#ifndef __CUDA_ARCH__
/* a b + c exactly, for integer-valued doubles with |a b + c| < 2^126: the
 * host's stand-in for the device's FMA in the only cases this file has. */
inline __int128 exact_mad(double a, double b, double c) {
        return (__int128)a * (__int128)b + (__int128)c;
}
#endif

/* a b + c rounded toward zero (for a b + c >= 0 on the host). */
CUZK_HD double fma_rz(double a, double b, double c) {
#ifdef __CUDA_ARCH__
        return __fma_rz(a, b, c);
#else
        unsigned __int128 e = (unsigned __int128)exact_mad(a, b, c);
        int len = 0;
        for (unsigned __int128 t = e; t; t >>= 1)
                len++;
        if (len > 53)
                e &= ~(((unsigned __int128)1 << (len - 53)) - 1);
        return (double)e;
#endif
}

/* a b + c rounded to nearest (the conversion of the exact value rounds so
 * on the host). */
CUZK_HD double fma_rn(double a, double b, double c) {
#ifdef __CUDA_ARCH__
        return __fma_rn(a, b, c);
#else
        return (double)exact_mad(a, b, c);
#endif
}

/* Terms a column k receives over a product: the limb pairs (i, j) of one
 * 8 x 8 product with i + j = k. */
CUZK_HD constexpr int pairs_at(int k) {
        return k < 0 || k > 14 ? 0 : (k < 8 ? k + 1 : 15 - k);
}

/* The low halves of q p at column k: all pairs but (k, 0), whose low half
 * is never formed (see mont_mul_f64). */
CUZK_HD constexpr int reduction_lows_at(int k) {
        return pairs_at(k) - (k >= 0 && k < 8 ? 1 : 0);
}

/*
 * The 16 columns of a product. Each limb product's high half enters
 * column k + 1 as its bit pattern; its low half enters column k as a bit
 * pattern too, or, when LoInDouble, as a double summed in lo[k] (an
 * addition on the FP64 pipe instead of a 64-bit one on the integer pipe;
 * at most 15 low halves, below 2^52, so the sum is exact). col[k] starts
 * at minus the exponent fields it will receive (mod 2^64).
 */
template <bool LoInDouble> struct columns {
        uint64_t col[16];
        double lo[16];

        CUZK_HD void init() {
                CUZK_UNROLL
                for (int k = 0; k < 16; k++) {
                        const uint64_t lows =
                                LoInDouble ? 0 : (uint64_t)(pairs_at(k) + reduction_lows_at(k));
                        col[k] = 0 - (lows * LO_EXP + 2 * (uint64_t)pairs_at(k - 1) * HI_EXP);
                        lo[k] = 0;
                }
        }
        /* a b = H 2^48 + L into columns k and k + 1 */
        CUZK_HD void mad(double a, double b, int k) {
                const double h = fma_rz(a, b, TWO100);
                if (LoInDouble)
                        lo[k] += fma_rn(a, b, TWO100 - h); /* L exactly */
                else
                        col[k] += bits(fma_rn(a, b, TWO100_52 - h)); /* 2^52 + L */
                col[k + 1] += bits(h);
        }
        /* a b's high half alone into column k + 1 */
        CUZK_HD void mad_high(double a, double b, int k) {
                col[k + 1] += bits(fma_rz(a, b, TWO100));
        }
        /* Column k's value, whole once its terms have entered. */
        CUZK_HD uint64_t value(int k) const {
                return LoInDouble ? col[k] + (bits(lo[k] + TWO52) - LO_EXP) : col[k];
        }
};

/* An integer below 2^52 as a double. */
CUZK_HD double limb_to_double(uint64_t x) {
        return from_bits(x | LO_EXP) - TWO52;
}

} // namespace f64

/*
 * a b / 2^384 mod p, below 2p for a, b below 2p. Column i's value m before
 * q p enters it is whole but for q p0's low half L0, which makes it 0 mod
 * 2^48: m + L0 is m rounded up to a multiple of 2^48, so that half is
 * never formed and the carry is (m + 2^48 - 1) / 2^48.
 */
template <bool LoInDouble = false> CUZK_HD fp_f64 mont_mul_f64(const fp_f64 &a, const fp_f64 &b) {
        f64::columns<LoInDouble> t;
        t.init();
        CUZK_UNROLL
        for (int i = 0; i < 8; i++) {
                CUZK_UNROLL
                for (int j = 0; j < 8; j++)
                        t.mad(a.v[i], b.v[j], i + j);
        }
        const double np = (double)fp_f64::n_prime();
        CUZK_UNROLL
        for (int i = 0; i < 8; i++) {
                const uint64_t m = t.value(i);
                const double c = f64::limb_to_double(m & fp_f64::MASK);
                const double h = f64::fma_rz(c, np, f64::TWO100);
                const double q = f64::fma_rn(c, np, f64::TWO100 - h); /* c n' mod 2^48 */
                t.mad_high(q, (double)fp_f64::modulus(0), i);
                CUZK_UNROLL
                for (int j = 1; j < 8; j++)
                        t.mad(q, (double)fp_f64::modulus(j), i + j);
                t.col[i + 1] += (m + fp_f64::MASK) >> fp_f64::LIMB_BITS;
        }
        fp_f64 r;
        CUZK_UNROLL
        for (int k = 8; k < 16; k++) {
                const uint64_t m = t.value(k);
                r.v[k - 8] = f64::limb_to_double(m & fp_f64::MASK);
                if (k < 15)
                        t.col[k + 1] += m >> fp_f64::LIMB_BITS;
        }
        return r;
}

/* fp_dev's limbs regrouped (the same value and R). */
CUZK_HD fp_f64 fp_to_f64(const fp_dev &x) {
        fp_f64 r;
        CUZK_UNROLL
        for (int j = 0; j < fp_f64::N; j++)
                r.v[j] = f64::limb_to_double(fp_f64::limb_of(x.v, fp_dev::N, j));
        return r;
}

/* x's limbs regrouped into 32-bit ones: fp_dev's lazy form (below 2p). */
CUZK_HD fp_dev fp_f64_words(const fp_f64 &x) {
        uint64_t limb[fp_f64::N];
        CUZK_UNROLL
        for (int j = 0; j < fp_f64::N; j++)
                limb[j] = f64::bits(x.v[j] + f64::TWO52) & fp_f64::MASK;
        fp_dev y;
        CUZK_UNROLL
        for (int i = 0; i < fp_dev::N; i++) {
                const int bit = 32 * i, j = bit / fp_f64::LIMB_BITS, s = bit % fp_f64::LIMB_BITS;
                uint64_t w = limb[j] >> s;
                if (s > fp_f64::LIMB_BITS - 32) /* 32 bits from s cross into limb j + 1 */
                        w |= limb[j + 1] << (fp_f64::LIMB_BITS - s);
                y.v[i] = (uint32_t)w;
        }
        return y;
}

/* The canonical fp_dev of x. */
CUZK_HD fp_dev fp_from_f64(const fp_f64 &x) {
        return fp_dev::reduce_once(fp_f64_words(x));
}

} // namespace cuzk
