/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Montgomery prime fields on 32-bit limbs, for Fr (8 limbs) and Fp (12).
 *
 * The in-memory form is zk/'s: Montgomery with R = 2^256 (Fr) or 2^384 (Fp),
 * little-endian limbs. Eight (twelve) 32-bit limbs are the same bytes as
 * four (six) 64-bit ones on a little-endian machine, and R is the same, so
 * arrays move between fr_t/fp_t and the GPU without conversion. Every value
 * is kept fully reduced (< modulus), as zk/ does, so results compare bit
 * for bit.
 *
 * Both moduli leave the top bit of the top limb clear (m < 2^(32n-1)); the
 * multiplication relies on it (see mont_mul).
 */
#pragma once

#include <stdint.h>

#include "carry.cuh"
#include "field_params.cuh"
#include "limbs_mul.cuh"

#ifdef __CUDACC__
/* 2^32 - 1, the N0 of Fr, where ptxas cannot see it (field::quotient). */
static __constant__ uint32_t cuzk_n0_all_ones = 0xffffffffu;
#endif

namespace cuzk {

template <class P> struct alignas(16) field {
        static constexpr int N = P::LIMBS;
        uint32_t v[N];

        CUZK_HD static field zero() {
                field r;
                CUZK_UNROLL
                for (int i = 0; i < N; i++)
                        r.v[i] = 0;
                return r;
        }

        CUZK_HD static field one() {
                field r;
                CUZK_UNROLL
                for (int i = 0; i < N; i++)
                        r.v[i] = P::one(i);
                return r;
        }

        /* The plain integer 1 (not Montgomery): a * raw_one() = a / R, which
         * turns a Montgomery value into its canonical limbs. */
        CUZK_HD static field raw_one() {
                field r = zero();
                r.v[0] = 1;
                return r;
        }

        CUZK_HD bool is_zero() const {
                uint32_t acc = 0;
                CUZK_UNROLL
                for (int i = 0; i < N; i++)
                        acc |= v[i];
                return acc == 0;
        }

        CUZK_HD bool equals(const field &b) const {
                uint32_t acc = 0;
                CUZK_UNROLL
                for (int i = 0; i < N; i++)
                        acc |= v[i] ^ b.v[i];
                return acc == 0;
        }

        /* Limb i of K m, K = 1 or 2 (2m < 2^(32n) for both moduli). */
        template <int K> CUZK_HD static constexpr uint32_t modulus_times(int i) {
                static_assert(K == 1 || K == 2, "K m for K = 1 or 2");
                return K == 1 ? P::modulus(i)
                              : P::modulus(i) << 1 | (i ? P::modulus(i - 1) >> 31 : 0u);
        }

        /* t < 2Km (n limbs) -> t - Km when t >= Km, else t: t mod m for
         * K = 1, the lazy form's bound (field_lazy.cuh) for K = 2. */
        template <int K = 1> CUZK_HD static field reduce_once(const field &t) {
                carry_chain c;
                field d;
                d.v[0] = c.sub_cc(t.v[0], modulus_times<K>(0));
                CUZK_UNROLL
                for (int i = 1; i < N; i++)
                        d.v[i] = c.subc_cc(t.v[i], modulus_times<K>(i));
                const uint32_t borrow = c.subc(0, 0); /* all ones when t < Km */
                CUZK_UNROLL
                for (int i = 0; i < N; i++)
                        d.v[i] = (t.v[i] & borrow) | (d.v[i] & ~borrow);
                return d;
        }

        /* a + b, no reduction; a + b < 2^(32n) is the caller's to know. */
        CUZK_HD static field add_plain(const field &a, const field &b) {
                field s;
                add_limbs<N>(s.v, a.v, b.v);
                return s;
        }

        /* a + b < 2m < 2^(32n): no carry out of the top limb. */
        CUZK_HD friend field operator+(const field &a, const field &b) {
                return reduce_once(add_plain(a, b));
        }

        /* a - b, plus Km when that borrowed: a - b mod m for a, b < m with
         * K = 1, and in [0, 2m) for a, b < 2m with K = 2. */
        template <int K = 1> CUZK_HD static field sub_mod(const field &a, const field &b) {
                carry_chain c;
                field d;
                d.v[0] = c.sub_cc(a.v[0], b.v[0]);
                CUZK_UNROLL
                for (int i = 1; i < N; i++)
                        d.v[i] = c.subc_cc(a.v[i], b.v[i]);
                const uint32_t borrow = c.subc(0, 0);
                carry_chain e;
                d.v[0] = e.add_cc(d.v[0], modulus_times<K>(0) & borrow);
                CUZK_UNROLL
                for (int i = 1; i < N - 1; i++)
                        d.v[i] = e.addc_cc(d.v[i], modulus_times<K>(i) & borrow);
                d.v[N - 1] = e.addc(d.v[N - 1], modulus_times<K>(N - 1) & borrow);
                return d;
        }

        CUZK_HD friend field operator-(const field &a, const field &b) {
                return sub_mod(a, b);
        }

        CUZK_HD field neg() const {
                return zero() - *this;
        }

        CUZK_HD field dbl() const {
                return *this + *this;
        }

        /*
         * Coarsely integrated operand scanning over 32-bit limbs. Round i adds
         * a * b_i and q * m (q makes the low limb zero) in four carry chains
         * (low and high halves of each product row) and drops the low limb.
         * The running value t stays below 2m: (2m + 2 (2^32 - 1) m) / 2^32 < 2m,
         * and while a round adds, t < 2^33 m < 2^(32(n+1)) because
         * m < 2^(32n - 1). So n + 1 limbs hold t and no chain carries out of
         * the top one.
         */
        CUZK_HD static field mont_mul(const field &a, const field &b) {
                uint32_t t[N + 1];
                CUZK_UNROLL
                for (int j = 0; j <= N; j++)
                        t[j] = 0;
                CUZK_UNROLL
                for (int i = 0; i < N; i++) {
                        const uint32_t bi = b.v[i];
                        {
                                carry_chain c; /* t += lo(a * bi) */
                                t[0] = c.mad_lo_cc(a.v[0], bi, t[0]);
                                CUZK_UNROLL
                                for (int j = 1; j < N; j++)
                                        t[j] = c.madc_lo_cc(a.v[j], bi, t[j]);
                                t[N] = c.addc(t[N], 0);
                        }
                        {
                                carry_chain c; /* t += hi(a * bi) << 32 */
                                t[1] = c.mad_hi_cc(a.v[0], bi, t[1]);
                                CUZK_UNROLL
                                for (int j = 1; j < N - 1; j++)
                                        t[j + 1] = c.madc_hi_cc(a.v[j], bi, t[j + 1]);
                                t[N] = c.madc_hi(a.v[N - 1], bi, t[N]);
                        }
                        const uint32_t q = t[0] * P::N0;
                        {
                                carry_chain c; /* t += lo(q * m); t[0] becomes 0 */
                                t[0] = c.mad_lo_cc(q, P::modulus(0), t[0]);
                                CUZK_UNROLL
                                for (int j = 1; j < N; j++)
                                        t[j] = c.madc_lo_cc(q, P::modulus(j), t[j]);
                                t[N] = c.addc(t[N], 0);
                        }
                        {
                                carry_chain c; /* t += hi(q * m) << 32 */
                                t[1] = c.mad_hi_cc(q, P::modulus(0), t[1]);
                                CUZK_UNROLL
                                for (int j = 1; j < N - 1; j++)
                                        t[j + 1] = c.madc_hi_cc(q, P::modulus(j), t[j + 1]);
                                t[N] = c.madc_hi(q, P::modulus(N - 1), t[N]);
                        }
                        CUZK_UNROLL
                        for (int j = 0; j < N; j++)
                                t[j] = t[j + 1];
                        t[N] = 0;
                }
                field r;
                CUZK_UNROLL
                for (int j = 0; j < N; j++)
                        r.v[j] = t[j];
                return reduce_once(r);
        }

        /*
         * The same product with each limb product's low and high halves
         * adjacent in one carry chain. The running value t is held as
         * x + 2^32 y: x gets a's even limbs' products (limbs 0..n-1), y the
         * odd limbs' (limbs 1..n, y[k] is limb k + 1), so neither chain
         * overlaps itself. Dividing by 2^32 after a round swaps the roles:
         * y becomes the aligned accumulator, and x, whose limb 0 is now
         * zero, the shifted one, two limbs down; its leftover limb (x[1],
         * the new limb 0) joins the aligned accumulator at the start of the
         * next round, and that carry enters the shifted chain at limb 1.
         * Same bounds as mont_mul; t < 2^(32(n+1)), so no chain carries out
         * of limb n. mont_mul stays as the plain reference form: the
         * emulation test and cuda/bench-gpu-field compare the two.
         */
        CUZK_HD static void paired_first_row(uint32_t (&x)[N], uint32_t (&y)[N], const field &a,
                                             uint32_t bi) {
                CUZK_UNROLL
                for (int j = 0; j < N; j += 2) {
                        x[j] = a.v[j] * bi;
                        x[j + 1] = mul_hi(a.v[j], bi);
                        y[j] = a.v[j + 1] * bi;
                        y[j + 1] = mul_hi(a.v[j + 1], bi);
                }
        }

        /* t += a * bi, with x aligned and y two limbs down (see above). */
        CUZK_HD static void paired_row(uint32_t (&x)[N], uint32_t (&y)[N], const field &a,
                                       uint32_t bi) {
                carry_chain c;
                x[0] = c.add_cc(x[0], y[1]);
                CUZK_UNROLL
                for (int j = 0; j < N - 2; j += 2) {
                        y[j] = c.madc_lo_cc(a.v[j + 1], bi, y[j + 2]);
                        y[j + 1] = c.madc_hi_cc(a.v[j + 1], bi, y[j + 3]);
                }
                y[N - 2] = c.madc_lo_cc(a.v[N - 1], bi, 0);
                y[N - 1] = c.madc_hi(a.v[N - 1], bi, 0);
                carry_chain d;
                x[0] = d.mad_lo_cc(a.v[0], bi, x[0]);
                x[1] = d.madc_hi_cc(a.v[0], bi, x[1]);
                CUZK_UNROLL
                for (int j = 2; j < N; j += 2) {
                        x[j] = d.madc_lo_cc(a.v[j], bi, x[j]);
                        x[j + 1] = d.madc_hi_cc(a.v[j], bi, x[j + 1]);
                }
                y[N - 1] = d.addc(y[N - 1], 0);
        }

        /* The limbs paired_mad_row multiplies: a value's (registers) or the
         * modulus's (immediates). A modulus limb of 1 or 2^32 - 1 needs no
         * multiply (limb_product); Fr's limbs 0 and 1 are such. */
        struct value_limbs {
                const field &f;
                CUZK_HD uint32_t operator()(int j) const {
                        return f.v[j];
                }
                CUZK_HD static constexpr bool free(int) {
                        return false;
                }
        };
        struct modulus_limbs {
                CUZK_HD constexpr uint32_t operator()(int j) const {
                        return P::modulus(j);
                }
                CUZK_HD static constexpr bool free(int j) {
                        return P::modulus(j) == 1u || P::modulus(j) == 0xffffffffu;
                }
        };

        /* (lo, hi) of k times a limb of 1 or 2^32 - 1 by adds alone:
         * k (2^32 - 1) = (k - 1) 2^32 + (2^32 - k) for k > 0, and 0 for
         * k = 0. */
        CUZK_HD static void limb_product(uint32_t limb, uint32_t k, uint32_t &lo, uint32_t &hi) {
                if (limb == 1u) {
                        lo = k;
                        hi = 0;
                } else {
                        lo = 0u - k;
                        hi = k - (k != 0u);
                }
        }

        /* (lo, hi) += a(j) k in chain c: first opens it, last closes it. */
        template <class Limbs>
        CUZK_HD static void mad_pair(carry_chain &c, bool first, bool last, const Limbs &a, int j,
                                     uint32_t k, uint32_t &lo, uint32_t &hi) {
                if (Limbs::free(j)) {
                        uint32_t pl, ph;
                        limb_product(a(j), k, pl, ph);
                        lo = first ? c.add_cc(lo, pl) : c.addc_cc(lo, pl);
                        hi = last ? c.addc(hi, ph) : c.addc_cc(hi, ph);
                        return;
                }
                lo = first ? c.mad_lo_cc(a(j), k, lo) : c.madc_lo_cc(a(j), k, lo);
                hi = last ? c.madc_hi(a(j), k, hi) : c.madc_hi_cc(a(j), k, hi);
        }

        /* t += a k in the frame of paired_row (x aligned, y[k] limb k + 1),
         * without moving it. */
        template <class Limbs>
        CUZK_HD static void paired_mad_row(uint32_t (&x)[N], uint32_t (&y)[N], const Limbs &a,
                                           uint32_t k) {
                carry_chain c;
                CUZK_UNROLL
                for (int j = 1; j < N; j += 2)
                        mad_pair(c, j == 1, j == N - 1, a, j, k, y[j - 1], y[j]);
                carry_chain d;
                CUZK_UNROLL
                for (int j = 0; j < N; j += 2)
                        mad_pair(d, j == 0, false, a, j, k, x[j], x[j + 1]);
                y[N - 1] = d.addc(y[N - 1], 0);
        }

        /*
         * q = t0 N0, the round's quotient. Fr's N0 is 2^32 - 1, so q = -t0,
         * and ptxas, which sees that, splits every q m_j of the reduction
         * into an IMAD.X and an IMAD.HI.U32.X (SASS of an Fr product: 48 such
         * pairs) where Fp's are single IMAD.WIDE.U32.X: three issues of the
         * FMA pipe instead of two. N0 read from constant memory keeps q
         * opaque to it, at one IMAD a round (cuda/README.md, "Field
         * arithmetic").
         */
        CUZK_HD static uint32_t quotient(uint32_t t0) {
#ifdef __CUDA_ARCH__
                if constexpr (P::N0 == 0xffffffffu)
                        return t0 * cuzk_n0_all_ones;
#endif
                return t0 * P::N0;
        }

        /* t += q m with q = -t / m mod 2^32: x[0] becomes 0. */
        CUZK_HD static void paired_redc(uint32_t (&x)[N], uint32_t (&y)[N]) {
                paired_mad_row(x, y, modulus_limbs{}, quotient(x[0]));
        }

        /* paired_row without a product: y's limb 0 into x and y two limbs
         * down, for the rounds of a reduction alone. */
        CUZK_HD static void paired_shift(uint32_t (&x)[N], uint32_t (&y)[N]) {
                carry_chain c;
                x[0] = c.add_cc(x[0], y[1]);
                CUZK_UNROLL
                for (int j = 0; j < N - 2; j++)
                        y[j] = c.addc_cc(y[j + 2], 0);
                y[N - 2] = c.addc(0, 0);
                y[N - 1] = 0;
        }

        /* The paired rounds' end: e (aligned) plus o (one limb up) as n limbs. */
        CUZK_HD static field paired_merge(const uint32_t (&e)[N], const uint32_t (&o)[N]) {
                field r;
                carry_chain c;
                r.v[0] = c.add_cc(e[0], o[1]);
                CUZK_UNROLL
                for (int k = 1; k < N - 1; k++)
                        r.v[k] = c.addc_cc(e[k], o[k + 1]);
                r.v[N - 1] = c.addc(e[N - 1], 0);
                return r;
        }

        /* The paired rounds of a b, plus c d in the same rounds when Sum,
         * before the final subtraction: below 2m for operands below m. */
        template <bool Sum>
        CUZK_HD static field paired_rounds(const field &a, const field &b, const field &c,
                                           const field &d) {
                static_assert(N % 2 == 0, "the paired product needs an even limb count");
                uint32_t e[N], o[N];
                const value_limbs cl{c};
                paired_first_row(e, o, a, b.v[0]);
                if constexpr (Sum)
                        paired_mad_row(e, o, cl, d.v[0]);
                paired_redc(e, o);
                CUZK_UNROLL
                for (int i = 1; i < N; i++) {
                        if (i % 2) {
                                paired_row(o, e, a, b.v[i]);
                                if constexpr (Sum)
                                        paired_mad_row(o, e, cl, d.v[i]);
                                paired_redc(o, e);
                        } else {
                                paired_row(e, o, a, b.v[i]);
                                if constexpr (Sum)
                                        paired_mad_row(e, o, cl, d.v[i]);
                                paired_redc(e, o);
                        }
                }
                /* After round n - 1 (odd), o is aligned with o[0] = 0 and e
                 * holds limbs 0..n-1 once divided by 2^32. */
                return paired_merge(e, o);
        }

        /*
         * a^2 with each cross product once: the 2n-limb square
         * T = 2 sum_{i<j} a_i a_j 2^(32(i+j)) + sum_i a_i^2 2^(64i), then
         * T / R = redc(T mod R) + T / R's integer part, the reduction by the
         * paired rounds without rows. Cross products land in u (pairs that
         * start at an even limb) or v (odd), one carry chain a row in each
         * (parity_row). redc(T mod R) <= m and
         * T / R < m^2 / R < m / 2, so one final subtraction suffices.
         * n(n-1)/2 + n wide products and n rounds of n, against 2 n^2.
         */
        CUZK_HD static field sqr_rounds(const field &a) {
                uint32_t u[2 * N], v[2 * N];
                CUZK_UNROLL
                for (int k = 0; k < 2 * N; k++)
                        u[k] = v[k] = 0;
                CUZK_UNROLL
                for (int i = 0; i < N - 1; i++) {
                        parity_row<0>(u, a.v, a.v[i], i, i + 1);
                        parity_row<1>(v, a.v, a.v[i], i, i + 1);
                }
                /* u = 2 (u + v) + the squares of the limbs */
                add_limbs<2 * N>(u, u, v);
                CUZK_UNROLL
                for (int k = 2 * N - 1; k > 0; k--)
                        u[k] = shift_left_1(u[k], u[k - 1]);
                u[0] <<= 1;
                carry_chain d;
                u[0] = d.mad_lo_cc(a.v[0], a.v[0], u[0]);
                u[1] = d.madc_hi_cc(a.v[0], a.v[0], u[1]);
                CUZK_UNROLL
                for (int i = 1; i < N - 1; i++) {
                        u[2 * i] = d.madc_lo_cc(a.v[i], a.v[i], u[2 * i]);
                        u[2 * i + 1] = d.madc_hi_cc(a.v[i], a.v[i], u[2 * i + 1]);
                }
                u[2 * N - 2] = d.madc_lo_cc(a.v[N - 1], a.v[N - 1], u[2 * N - 2]);
                u[2 * N - 1] = d.madc_hi(a.v[N - 1], a.v[N - 1], u[2 * N - 1]);
                return redc_wide(u);
        }

        /* T / R mod m for T < 2^(32n) m (2n limbs): redc(T mod R) by the
         * paired rounds without rows, at most m, plus T's high half. The sum
         * stays below 2^(32n); the callers bound it by 2m. */
        CUZK_HD static field redc_wide(const uint32_t (&u)[2 * N]) {
                uint32_t e[N], o[N];
                CUZK_UNROLL
                for (int k = 0; k < N; k++) {
                        e[k] = u[k];
                        o[k] = 0;
                }
                paired_redc(e, o);
                CUZK_UNROLL
                for (int i = 1; i < N; i++) {
                        if (i % 2) {
                                paired_shift(o, e);
                                paired_redc(o, e);
                        } else {
                                paired_shift(e, o);
                                paired_redc(e, o);
                        }
                }
                field high;
                CUZK_UNROLL
                for (int k = 0; k < N; k++)
                        high.v[k] = u[N + k];
                return add_plain(paired_merge(e, o), high);
        }

        CUZK_HD static field mont_sqr_paired(const field &a) {
                return reduce_once(sqr_rounds(a));
        }

        /* a b / R before the final subtraction, in the field's form
         * (field_params.cuh): below 2m for operands below m, and for the
         * lazy form's below 2m when m < R/8 (field_lazy.cuh). */
        template <int Levels = P::KARATSUBA_LEVELS>
        CUZK_HD static field product_rounds(const field &a, const field &b) {
                if constexpr (Levels == 0) {
                        return paired_rounds<false>(a, b, a, b);
                } else {
                        uint32_t t[2 * N];
                        limbs_product<N, Levels>(a.v, b.v, t);
                        return redc_wide(t);
                }
        }

        /* (a b + c d) / R before the final subtraction, in the field's form:
         * below 2m for operands below 2m when m < R/8. Karatsuba's sum of
         * the two 2n-limb products, below 8 m^2 < R m, fits 2n limbs. */
        template <int Levels = P::KARATSUBA_LEVELS>
        CUZK_HD static field mul_add_rounds(const field &a, const field &b, const field &c,
                                            const field &d) {
                if constexpr (Levels == 0) {
                        return paired_rounds<true>(a, b, c, d);
                } else {
                        static_assert(P::modulus(N - 1) < (1u << 29), "needs m < 2^(32n - 3)");
                        uint32_t t[2 * N], u[2 * N];
                        limbs_product<N, Levels>(a.v, b.v, t);
                        limbs_product<N, Levels>(c.v, d.v, u);
                        add_limbs<2 * N>(t, t, u);
                        return redc_wide(t);
                }
        }

        /* The paired form: 38.0 against 58.8 ps an Fp product and 19.7
         * against 27.4 ps an Fr product (CIOS) on the H200
         * (bench-gpu-field), because ptxas fuses each adjacent lo/hi pair
         * into one wide multiply-add; Karatsuba where the field says. */
        CUZK_HD friend field operator*(const field &a, const field &b) {
                return reduce_once(product_rounds(a, b));
        }

        CUZK_HD field sqr() const {
                return mont_sqr_paired(*this);
        }

        /*
         * a b + c d with one reduction (y3 of an XYZZ addition is such a
         * sum): each round adds both rows before its q m. The running value
         * stays below 4m (< (4 + 3 (2^32 - 1)) m / 2^32) and below 2^(32n+32)
         * while a round adds when m < 2^(32n - 2), as Fp's is (Fr's is not);
         * the result (a b + c d + Q m) / R < m + 2 m^2 / R < 2m. Karatsuba's
         * (mul_add_rounds) holds for such operands too.
         */
        CUZK_HD static field mul_add(const field &a, const field &b, const field &c,
                                     const field &d) {
                static_assert(P::modulus(N - 1) < (1u << 30), "needs m < 2^(32n - 2)");
                return reduce_once(mul_add_rounds(a, b, c, d));
        }

        /* this^e (square and multiply from the top set bit of e). */
        CUZK_HD field pow_u64(uint64_t e) const {
                field r = one();
                for (int bit = 63; bit >= 0; bit--) {
                        if (!(e >> bit))
                                continue;
                        r = r.sqr();
                        if ((e >> bit) & 1)
                                r = r * *this;
                }
                return r;
        }

        /* The canonical value's bits [pos, pos + width), width <= 32; bits past
         * the top read as 0. Only for canonical limbs. The limbs are picked by
         * comparison, not indexed, so that v stays in registers. */
        CUZK_HD uint32_t bits(unsigned pos, unsigned width) const {
                const unsigned limb = pos / 32, shift = pos % 32;
                uint32_t lo = 0, hi = 0;
                CUZK_UNROLL
                for (int i = 0; i < N; i++) {
                        lo = (unsigned)i == limb ? v[i] : lo;
                        hi = (unsigned)i == limb + 1 ? v[i] : hi;
                }
                const uint64_t w = ((uint64_t)hi << 32) | lo;
                return (uint32_t)(w >> shift) & (uint32_t)((1ull << width) - 1);
        }
};

using fr_dev = field<fr_params>;
using fp_dev = field<fp_params>;

static_assert(sizeof(fr_dev) == 32, "fr_dev must match fr_t");
static_assert(sizeof(fp_dev) == 48, "fp_dev must match fp_t");

} // namespace cuzk
