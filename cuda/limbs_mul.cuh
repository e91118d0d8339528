/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Products of limb arrays into twice as many limbs, for the field products
 * that reduce a 2n-limb product at once (field::redc_wide): the square's
 * cross products and Karatsuba's a b.
 *
 * Karatsuba takes a b of n limbs from three products of n/2, a0 b0, a1 b1
 * and (a0 + a1)(b0 + b1) (and so on for more levels): n^2 wide products
 * (32 x 32 bits into 64 with a 64-bit addend, what ptxas fuses each lo/hi
 * pair into) become 3 n^2 / 4 (Fp 144 -> 108, Fr 64 -> 48), and the sums
 * and the middle term's corrections are additions, which go to the integer
 * ALU pipe. The MSM's level 0 and the NTT's passes are bound by the heavy
 * FMA pipe that the wide products use (cuda/README.md, "Field
 * arithmetic"); field_params.cuh says which form each field uses.
 */
#pragma once

#include <stdint.h>

#include "carry.cuh"

namespace cuzk {

/*
 * t += a[j] k 2^(32 (i + j)) for j in [j0, H) where i + j has the given
 * parity. Each parity's (lo, hi) pairs do not overlap, so a row is one
 * carry chain; its carry out of the top pair goes into a limb that no
 * earlier row of that parity filled past 1 (rows in increasing i).
 */
template <int Parity, int T, int H>
CUZK_HD void parity_row(uint32_t (&t)[T], const uint32_t (&a)[H], uint32_t k, int i, int j0) {
        carry_chain c;
        int top = -1;
        CUZK_UNROLL
        for (int j = j0; j < H; j++) {
                const int p = i + j;
                if (p % 2 != Parity)
                        continue;
                t[p] = top < 0 ? c.mad_lo_cc(k, a[j], t[p]) : c.madc_lo_cc(k, a[j], t[p]);
                t[p + 1] = c.madc_hi_cc(k, a[j], t[p + 1]);
                top = p + 2;
        }
        if (top >= 0 && top < T)
                t[top] = c.addc(t[top], 0);
}

/* t = a b (H limbs each, 2H out), schoolbook in two parity arrays. */
template <int H>
CUZK_HD void limbs_schoolbook(const uint32_t (&a)[H], const uint32_t (&b)[H],
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
                parity_row<0>(u, a, b[i], i, 0);
                parity_row<1>(v, a, b[i], i, 0);
        }
        add_limbs<2 * H>(t, u, v);
}

/* s = x0 + x1 (the halves of x, H limbs each); the carry out is returned. */
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
CUZK_HD void limbs_product(const uint32_t (&a)[H], const uint32_t (&b)[H], uint32_t (&t)[2 * H]) {
        constexpr int K = H / 2;
        if constexpr (Levels == 0 || H % 2 != 0) {
                limbs_schoolbook<H>(a, b, t);
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
                limbs_product<K, Levels - 1>(a0, b0, z0);
                limbs_product<K, Levels - 1>(a1, b1, z2);
                const uint32_t ca = kara_sum<K>(a, sa), cb = kara_sum<K>(b, sb);
                limbs_product<K, Levels - 1>(sa, sb, p);
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

} // namespace cuzk
