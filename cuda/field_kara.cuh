/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Field products by Karatsuba: a b from three products of n/2 limbs,
 * a0 b0, a1 b1 and (a0 + a1)(b0 + b1) (and so on for more levels), then
 * the paired reduction of the 2n-limb product (field::redc_wide). The
 * product part drops from n^2 wide products (32 x 32 bits into 64 with a
 * 64-bit addend, what ptxas fuses each lo/hi pair into) to 3 n^2 / 4 (Fp
 * 144 -> 108, Fr 64 -> 48); the sums and the middle term's corrections are
 * additions, which go to the integer ALU pipe. The MSM's level 0 and the
 * NTT's passes are bound by the heavy FMA pipe that the wide products use
 * (cuda/README.md, "Instruction mix"), which is what this form tries to
 * relieve; bench-gpu-field times it beside the paired form in use.
 */
#pragma once

#include "field.cuh"

namespace cuzk {

/* t += a bi 2^(32 i) for the pairs (i + j, i + j + 1) of one parity: each
 * parity's pairs do not overlap, so a row is one carry chain; its carry
 * out of the top pair goes into a limb no earlier row of that parity
 * filled past 1 (as field::cross_row). */
template <int H, int Parity>
CUZK_HD void kara_row(uint32_t (&t)[2 * H], const uint32_t (&a)[H], uint32_t bi, int i) {
        carry_chain c;
        int top = -1;
        CUZK_UNROLL
        for (int j = 0; j < H; j++) {
                const int p = i + j;
                if (p % 2 != Parity)
                        continue;
                t[p] = top < 0 ? c.mad_lo_cc(a[j], bi, t[p]) : c.madc_lo_cc(a[j], bi, t[p]);
                t[p + 1] = c.madc_hi_cc(a[j], bi, t[p + 1]);
                top = p + 2;
        }
        if (top >= 0 && top < 2 * H)
                t[top] = c.addc(t[top], 0);
}

/* t = a b (H limbs each, 2H out), schoolbook in two parity arrays. */
template <int H>
CUZK_HD void kara_half_product(const uint32_t (&a)[H], const uint32_t (&b)[H],
                               uint32_t (&t)[2 * H]) {
        uint32_t u[2 * H], v[2 * H];
        CUZK_UNROLL
        for (int k = 0; k < 2 * H; k++)
                u[k] = v[k] = 0;
        CUZK_UNROLL
        for (int j = 0; j < H; j++) {
                uint32_t(&w)[2 * H] = j % 2 ? v : u;
                w[j] = a[j] * b[0];
                w[j + 1] = mul_hi(a[j], b[0]);
        }
        CUZK_UNROLL
        for (int i = 1; i < H; i++) {
                kara_row<H, 0>(u, a, b[i], i);
                kara_row<H, 1>(v, a, b[i], i);
        }
        add_limbs<2 * H>(t, u, v);
}

/* s = x0 + x1 (H limbs); the carry out (0 or 1) is returned. */
template <int H> CUZK_HD uint32_t kara_sum(const uint32_t *x, uint32_t (&s)[H]) {
        carry_chain c;
        s[0] = c.add_cc(x[0], x[H]);
        CUZK_UNROLL
        for (int k = 1; k < H; k++)
                s[k] = c.addc_cc(x[k], x[H + k]);
        return c.addc(0, 0);
}

/* z (2H + 1 limbs, z[2H] the top) += (x masked) 2^(32 H). */
template <int H>
CUZK_HD void kara_add_masked(uint32_t (&z)[2 * H + 1], const uint32_t (&x)[H], uint32_t mask) {
        carry_chain c;
        z[H] = c.add_cc(z[H], x[0] & mask);
        CUZK_UNROLL
        for (int k = 1; k < H; k++)
                z[H + k] = c.addc_cc(z[H + k], x[k] & mask);
        z[2 * H] = c.addc(z[2 * H], 0);
}

/* z (2H + 1 limbs) -= y (2H limbs). */
template <int H> CUZK_HD void kara_sub(uint32_t (&z)[2 * H + 1], const uint32_t (&y)[2 * H]) {
        carry_chain c;
        z[0] = c.sub_cc(z[0], y[0]);
        CUZK_UNROLL
        for (int k = 1; k < 2 * H; k++)
                z[k] = c.subc_cc(z[k], y[k]);
        z[2 * H] = c.subc(z[2 * H], 0);
}

/*
 * t = a b (H limbs each, 2H out) by Levels levels of Karatsuba (schoolbook
 * below). With a = a0 + a1 X, X = 2^(32 H/2), and s = a0 + a1 (H/2 limbs
 * and a carry ca), likewise b: the middle term a0 b1 + a1 b0 = s_a s_b -
 * a0 b0 - a1 b1, where s_a s_b = sa sb + (ca sb + cb sa) X + ca cb X^2;
 * it is below 2 X^2, so H + 1 limbs hold it.
 */
template <int H, int Levels>
CUZK_HD void kara_mul(const uint32_t (&a)[H], const uint32_t (&b)[H], uint32_t (&t)[2 * H]) {
        constexpr int K = H / 2;
        if constexpr (Levels == 0 || H % 2 != 0) {
                kara_half_product<H>(a, b, t);
        } else {
                uint32_t a0[K], a1[K], b0[K], b1[K];
                CUZK_UNROLL
                for (int k = 0; k < K; k++) {
                        a0[k] = a[k];
                        a1[k] = a[K + k];
                        b0[k] = b[k];
                        b1[k] = b[K + k];
                }
                uint32_t z0[2 * K], z2[2 * K], sa[K], sb[K], p[2 * K];
                kara_mul<K, Levels - 1>(a0, b0, z0);
                kara_mul<K, Levels - 1>(a1, b1, z2);
                const uint32_t ca = kara_sum<K>(a, sa), cb = kara_sum<K>(b, sb);
                kara_mul<K, Levels - 1>(sa, sb, p);
                uint32_t m[2 * K + 1];
                CUZK_UNROLL
                for (int k = 0; k < 2 * K; k++)
                        m[k] = p[k];
                m[2 * K] = ca & cb;
                kara_add_masked<K>(m, sb, 0u - ca);
                kara_add_masked<K>(m, sa, 0u - cb);
                kara_sub<K>(m, z0);
                kara_sub<K>(m, z2);
                /* t = z0 + z2 X^2 + m X */
                CUZK_UNROLL
                for (int k = 0; k < K; k++)
                        t[k] = z0[k];
                carry_chain c;
                t[K] = c.add_cc(z0[K], m[0]);
                CUZK_UNROLL
                for (int k = 1; k < K; k++)
                        t[K + k] = c.addc_cc(z0[K + k], m[k]);
                CUZK_UNROLL
                for (int k = K; k < 2 * K; k++)
                        t[K + k] = c.addc_cc(z2[k - K], m[k]);
                if constexpr (K > 1) {
                        t[3 * K] = c.addc_cc(z2[K], m[2 * K]);
                        CUZK_UNROLL
                        for (int k = 3 * K + 1; k < 4 * K - 1; k++)
                                t[k] = c.addc_cc(z2[k - 2 * K], 0);
                        t[4 * K - 1] = c.addc(z2[2 * K - 1], 0);
                } else {
                        t[3] = c.addc(z2[1], m[2]);
                }
        }
}

/* t = a b (2n limbs) by Levels levels of Karatsuba. */
template <int Levels = 1, class P>
CUZK_HD void kara_product(const field<P> &a, const field<P> &b, uint32_t (&t)[2 * P::LIMBS]) {
        kara_mul<P::LIMBS, Levels>(a.v, b.v, t);
}

/* a b / R by Karatsuba and the paired reduction, before the final
 * subtraction: below m + a b / R, so below 2m for canonical operands and
 * for the lazy form's (below 2m, with m < R/8: a b / R < m/2). */
template <class P, int Levels = 1>
CUZK_HD field<P> kara_rounds(const field<P> &a, const field<P> &b) {
        uint32_t t[2 * P::LIMBS];
        kara_product<Levels>(a, b, t);
        return field<P>::redc_wide(t);
}

template <int Levels = 1, class P>
CUZK_HD field<P> field_mul_kara(const field<P> &a, const field<P> &b) {
        return field<P>::reduce_once(kara_rounds<P, Levels>(a, b));
}

/* (a b + c d) / R with one reduction: below m + 8 m^2 / R < 2m for
 * operands below 2m when m < R/8 (Fp), and the sum below 8 m^2 < R m
 * fits the 2n limbs. */
template <int Levels = 1, class P>
CUZK_HD field<P> kara_mul_add_rounds(const field<P> &a, const field<P> &b, const field<P> &c,
                                     const field<P> &d) {
        static_assert(P::modulus(P::LIMBS - 1) < (1u << 29), "needs m < 2^(32n - 3)");
        constexpr int N2 = 2 * P::LIMBS;
        uint32_t t[N2], u[N2];
        kara_product<Levels>(a, b, t);
        kara_product<Levels>(c, d, u);
        add_limbs<N2>(t, t, u);
        return field<P>::redc_wide(t);
}

} // namespace cuzk
