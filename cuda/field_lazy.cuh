/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The lazy form of Fp: values below 2m instead of m, so that a product
 * skips its final subtraction. It needs m < R/8 (Fp's 381 bits in 384):
 *  - a b for a, b < 2m: the paired rounds end below (4m^2 + R m) / R
 *    = m (1 + 4m/R) < 2m, and while a round adds, t < 4m 2^32 < 2^(32n+32);
 *    Karatsuba's 2n-limb reduction (field::redc_wide) below m + 4m^2 / R;
 *  - a^2: redc of the low half is at most m, the high half below
 *    4m^2 / R < m/2;
 *  - a b + c d: below m (1 + 8m/R) < 2m, and t < 6m 2^32 < 2^(32n+32);
 *  - a + b < 4m < 2^(32n), less 2m when at least 2m; a - b plus 2m when
 *    it borrowed.
 * A value is 0 mod m when it is 0 or m. Canonical values (below m) are
 * lazy ones as they are, so points from memory enter without a step; a
 * lazy value leaves through field_canonical (one subtraction).
 * The mixed addition's ten products each save the final subtraction
 * (curve.cuh's mul_called_lazy); the rest of the code keeps every value
 * below m, so results compare bit for bit.
 */
#pragma once

#include "field.cuh"

namespace cuzk {

template <class P> struct lazy_bound {
        static_assert(P::modulus(P::LIMBS - 1) < (1u << 29), "the lazy form needs m < 2^(32n - 3)");
        using F = field<P>;
};

template <class P> CUZK_HD field<P> field_mul_lazy(const field<P> &a, const field<P> &b) {
        using F = typename lazy_bound<P>::F;
        return F::product_rounds(a, b);
}

template <class P> CUZK_HD field<P> field_sqr_lazy(const field<P> &a) {
        using F = typename lazy_bound<P>::F;
        return F::sqr_rounds(a);
}

template <class P>
CUZK_HD field<P> field_mul_add_lazy(const field<P> &a, const field<P> &b, const field<P> &c,
                                    const field<P> &d) {
        using F = typename lazy_bound<P>::F;
        return F::mul_add_rounds(a, b, c, d);
}

template <class P> CUZK_HD field<P> field_add_lazy(const field<P> &a, const field<P> &b) {
        using F = typename lazy_bound<P>::F;
        return F::template reduce_once<2>(F::add_plain(a, b));
}

template <class P> CUZK_HD field<P> field_sub_lazy(const field<P> &a, const field<P> &b) {
        using F = typename lazy_bound<P>::F;
        return F::template sub_mod<2>(a, b);
}

template <class P> CUZK_HD bool field_is_zero_lazy(const field<P> &a) {
        uint32_t zero = 0, m = 0;
        CUZK_UNROLL
        for (int i = 0; i < P::LIMBS; i++) {
                zero |= a.v[i];
                m |= a.v[i] ^ P::modulus(i);
        }
        return zero == 0 || m == 0;
}

/* A lazy value (below 2m) as the canonical one (below m). */
template <class P> CUZK_HD field<P> field_canonical(const field<P> &a) {
        return field<P>::reduce_once(a);
}

} // namespace cuzk
