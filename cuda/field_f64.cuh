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
#include <stdlib.h>
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
/* The host's FMA, for the emulation: a b + c exactly as a 128-bit integer
 * times a power of 2, then rounded to 53 bits toward zero or to nearest
 * (ties to even), as the device's FMA rounds. Finite operands and normal
 * results only (it aborts otherwise). */
struct host_exact {
        __int128 m; /* value m 2^e, m odd or 0 */
        int e;
};

inline host_exact host_decompose(double x) {
        const uint64_t u = bits(x);
        const int biased = (int)(u >> 52 & 0x7ff);
        __int128 m = (__int128)(u & ((1ull << 52) - 1));
        int e = -1074;
        if (biased == 0x7ff)
                abort();
        if (biased) {
                m |= (__int128)1 << 52;
                e = biased - 1075;
        }
        if (u >> 63)
                m = -m;
        if (m == 0)
                return {0, 0};
        while ((m & 1) == 0) {
                m /= 2;
                e++;
        }
        return {m, e};
}

inline unsigned __int128 host_magnitude(__int128 m) {
        return m < 0 ? -(unsigned __int128)m : (unsigned __int128)m;
}

inline int host_bit_length(unsigned __int128 u) {
        int n = 0;
        for (; u; u >>= 1)
                n++;
        return n;
}

inline double host_round(__int128 s, int e, bool toward_zero) {
        if (s == 0)
                return 0.0;
        const bool negative = s < 0;
        unsigned __int128 u = host_magnitude(s);
        const int len = host_bit_length(u);
        if (len > 53) {
                const int shift = len - 53;
                const unsigned __int128 one = 1, rest = u & ((one << shift) - 1),
                                        half = one << (shift - 1);
                u >>= shift;
                e += shift;
                if (!toward_zero && (rest > half || (rest == half && (u & 1)))) {
                        u++;
                        if (u >> 53) {
                                u >>= 1;
                                e++;
                        }
                }
        } else {
                u <<= 53 - len;
                e -= 53 - len;
        }
        const int biased = e + 52 + 1023;
        if (biased < 1 || biased > 2046)
                abort();
        return from_bits((negative ? 1ull << 63 : 0) | (uint64_t)biased << 52 |
                         ((uint64_t)u & ((1ull << 52) - 1)));
}

/* m 2^e as m' 2^e0: exact for e >= e0 (the caller keeps m' below 2^121);
 * below, the bits shifted out set the lowest one kept ("jamming"), which
 * rounds as the exact value would with 60 guard bits to spare. */
inline __int128 host_align(const host_exact &t, int e0) {
        if (t.e >= e0)
                return t.m * ((__int128)1 << (t.e - e0));
        const int k = t.e < e0 - 127 ? 127 : e0 - t.e;
        const unsigned __int128 mag = host_magnitude(t.m),
                                rest = mag & ((((unsigned __int128)1) << k) - 1);
        const __int128 kept = (__int128)((mag >> k) | (rest != 0));
        return t.m < 0 ? -kept : kept;
}

inline double host_fma(double a, double b, double c, bool toward_zero) {
        const host_exact x = host_decompose(a), y = host_decompose(b), z = host_decompose(c);
        const __int128 product = x.m * y.m; /* below 2^106 */
        const host_exact p = {product, product != 0 ? x.e + y.e : z.e};
        const host_exact q = {z.m, z.m != 0 ? z.e : p.e};
        const auto top = [](const host_exact &t) {
                return host_bit_length(host_magnitude(t.m)) + t.e;
        };
        const int high = top(p) > top(q) ? top(p) : top(q), low = p.e < q.e ? p.e : q.e;
        const int e0 = low > high - 120 ? low : high - 120;
        return host_round(host_align(p, e0) + host_align(q, e0), e0, toward_zero);
}
#endif

/* a b + c rounded toward zero. */
CUZK_HD double fma_rz(double a, double b, double c) {
#ifdef __CUDA_ARCH__
        return __fma_rz(a, b, c);
#else
        return host_fma(a, b, c, true);
#endif
}

/* a b + c rounded to nearest. */
CUZK_HD double fma_rn(double a, double b, double c) {
#ifdef __CUDA_ARCH__
        return __fma_rn(a, b, c);
#else
        return host_fma(a, b, c, false);
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

namespace f64 {

constexpr double TWO48 = TWO52 / 16, INV48 = 1 / TWO48; /* 2^48, 2^-48 */

/* x y into a column of mont_mul_f64_fma: floor(x y) onto hi (rounded
 * toward zero in [2^52, 2^53), where the unit is 1), the rest onto lo. */
CUZK_HD void fma_split(double x, double y, double &lo, double &hi) {
        const double h0 = hi;
        hi = fma_rz(x, y, h0);
        lo += fma_rn(x, y, h0 - hi);
}

/* Column k's value: m = (hi - 2^52) + lo 2^48 + carry, below 2^53. */
CUZK_HD double column_value(double lo, double hi, double carry) {
        return fma_rn(lo, TWO48, hi - TWO52) + carry;
}

/* floor(m / 2^48) + 2^52, for m below 2^53. */
CUZK_HD double high_of(double m) {
        return fma_rz(m, INV48, TWO52);
}

} // namespace f64

/*
 * The same product with no integer instruction: the FP64 pipe alone. A
 * column is two doubles, hi = 2^52 + the high halves it has received and
 * lo = its low halves / 2^48. b's limbs enter over 2^48, and q as
 * (c n' mod 2^48) / 2^48, so that each limb product x y is below 2^48
 * with 48 bits after the point; an FMA rounded toward zero onto hi adds
 * its floor exactly while hi stays in [2^52, 2^53) (at most 16 high halves
 * of at most 2^48 - 2 each), and the remainder x y - floor (48 bits after
 * the point) adds to lo exactly (at most 15 of them, so lo < 15 holds 52
 * significant bits). Column i's value m, its carry and its low 48 bits
 * come from hi, lo and the carry in by FMAs too (m < 2^53).
 */
CUZK_HD fp_f64 mont_mul_f64_fma(const fp_f64 &a, const fp_f64 &b) {
        double hi[16], lo[16], bs[fp_f64::N];
        CUZK_UNROLL
        for (int k = 0; k < 16; k++) {
                hi[k] = f64::TWO52;
                lo[k] = 0;
        }
        CUZK_UNROLL
        for (int j = 0; j < fp_f64::N; j++)
                bs[j] = b.v[j] * f64::INV48;
        CUZK_UNROLL
        for (int i = 0; i < 8; i++) {
                CUZK_UNROLL
                for (int j = 0; j < 8; j++)
                        f64::fma_split(a.v[i], bs[j], lo[i + j], hi[i + j + 1]);
        }
        const double nps = (double)fp_f64::n_prime() * f64::INV48;
        double carry = 0;
        CUZK_UNROLL
        for (int i = 0; i < 8; i++) {
                const double m = f64::column_value(lo[i], hi[i], carry);
                const double c = f64::fma_rn(f64::TWO52 - f64::high_of(m), f64::TWO48, m);
                const double qh = f64::fma_rz(c, nps, f64::TWO52);
                const double q = f64::fma_rn(c, nps, f64::TWO52 - qh); /* (c n' mod 2^48) / 2^48 */
                hi[i + 1] = f64::fma_rz(q, (double)fp_f64::modulus(0), hi[i + 1]);
                CUZK_UNROLL
                for (int j = 1; j < 8; j++)
                        f64::fma_split(q, (double)fp_f64::modulus(j), lo[i + j], hi[i + j + 1]);
                /* column i plus q p0's low half, over 2^48: m rounded up */
                carry = f64::high_of(m + (f64::TWO48 - 1)) - f64::TWO52;
        }
        fp_f64 r;
        CUZK_UNROLL
        for (int k = 8; k < 16; k++) {
                const double m = f64::column_value(lo[k], hi[k], carry);
                const double h = f64::high_of(m);
                r.v[k - 8] = f64::fma_rn(f64::TWO52 - h, f64::TWO48, m);
                carry = h - f64::TWO52;
        }
        return r;
}

/* The product's three forms, by how its columns sum: low halves as bit
 * patterns or as doubles beside the 64-bit columns, or FMAs alone. */
enum class f64_sums { bit_patterns, low_doubles, fma_only };

template <f64_sums S> CUZK_HD fp_f64 mont_mul_f64_as(const fp_f64 &a, const fp_f64 &b) {
        if constexpr (S == f64_sums::fma_only)
                return mont_mul_f64_fma(a, b);
        else
                return mont_mul_f64<S == f64_sums::low_doubles>(a, b);
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
