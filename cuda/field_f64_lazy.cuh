/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A whole mixed addition on the FP64 pipe: Fp values kept in field_f64.cuh's
 * form (eight 48-bit limbs in doubles, below 2p as in field_lazy.cuh) from
 * the point's load to the bucket's store, so that a warp running it never
 * regroups bits between its products, and warps on the IMAD form can share
 * an SM with it, each pipe busy (cuda/README.md, "Next").
 *
 * Sums and differences are limb by limb and then normalised by a chain of
 * carries, each on the FP64 pipe: for an integer t with |t| < 2^51,
 *   k = fma_rz(t, 2^-48, 2^52 + 8) - (2^52 + 8) = floor(t / 2^48)
 * (the FMA's exact value lies in (2^52, 2^52 + 16), where rounding toward
 * zero is the floor), and t - k 2^48 = fma(-k, 2^48, t) is exact, in
 * [0, 2^48). A lazy difference a - b borrows out of the top when a < b and
 * then takes 2p (a second chain); a lazy sum a + b - 2p likewise.
 *
 * xyzz_point's rare cases (a doubling, the point at infinity) go through
 * fp_dev: they run about once a bucket, not once an addition.
 */
#pragma once

#include "curve.cuh"
#include "field_f64.cuh"

namespace cuzk {

namespace f64 {

constexpr double CARRY_BIAS = TWO52 + 8;

/* Limb j of m p (m = 1, 2): 2p < 2^382 fits the eight limbs. */
CUZK_HD constexpr uint64_t multiple_of_p(int m, int j) {
        uint64_t carry = 0, limb = 0;
        for (int i = 0; i <= j; i++) {
                const uint64_t t = m * fp_f64::modulus(i) + carry;
                limb = t & fp_f64::MASK;
                carry = t >> fp_f64::LIMB_BITS;
        }
        return limb;
}

/* t + carry as a limb in [0, 2^48); carry becomes floor((t + carry) / 2^48). */
CUZK_HD double normalize_limb(double t, double &carry) {
        const double s = t + carry;
        const double k = fma_rz(s, INV48, CARRY_BIAS) - CARRY_BIAS;
        carry = k;
        return fma_rn(-k, TWO48, s);
}

/* t (limbs within +-2^50 whose value lies in (-M, 2^384 - M) for M = m p)
 * normalised, plus M when the value was negative. */
template <int M> CUZK_HD fp_f64 normalize_restore(const double (&t)[fp_f64::N]) {
        fp_f64 r;
        double borrow = 0;
        CUZK_UNROLL
        for (int j = 0; j < fp_f64::N; j++)
                r.v[j] = normalize_limb(t[j], borrow);
        double carry = 0; /* borrow is -1 or 0: add M when -1 */
        CUZK_UNROLL
        for (int j = 0; j < fp_f64::N; j++)
                r.v[j] =
                        normalize_limb(fma_rn(-borrow, (double)multiple_of_p(M, j), r.v[j]), carry);
        return r;
}

} // namespace f64

/* An Fp value in the FP64 form, below 2p, with the members xyzz_point
 * asks of its field; the canonical ones (for points from memory and the
 * rare cases) through fp_dev. */
struct fp_f64_lazy {
        fp_f64 f;

        CUZK_HD static fp_f64_lazy from(const fp_f64 &x) {
                fp_f64_lazy r;
                r.f = x;
                return r;
        }
        CUZK_HD static fp_f64_lazy of(const fp_dev &x) {
                return from(fp_to_f64(x));
        }
        CUZK_HD fp_dev canonical_dev() const {
                return fp_from_f64(f);
        }
        CUZK_HD static fp_f64_lazy zero() {
                return of(fp_dev::zero());
        }
        CUZK_HD static fp_f64_lazy one() {
                return of(fp_dev::one());
        }
        /* 0 or p */
        CUZK_HD bool is_zero() const {
                bool zero = true, p = true;
                CUZK_UNROLL
                for (int j = 0; j < fp_f64::N; j++) {
                        zero &= f.v[j] == 0;
                        p &= f.v[j] == (double)fp_f64::modulus(j);
                }
                return zero || p;
        }
        /* p - x, plus 2p when negative: a negated point from memory stays
         * on the FP64 pipe (it is one of every other addition's operands) */
        CUZK_HD fp_f64_lazy neg() const {
                double t[fp_f64::N];
                CUZK_UNROLL
                for (int j = 0; j < fp_f64::N; j++)
                        t[j] = (double)fp_f64::modulus(j) - f.v[j];
                return fp_f64_lazy::from(f64::normalize_restore<2>(t));
        }
        CUZK_HD fp_f64_lazy dbl() const {
                return of(canonical_dev().dbl());
        }
        CUZK_HD fp_f64_lazy sqr() const {
                return of(canonical_dev().sqr());
        }
        CUZK_HD static fp_f64_lazy mul_add(const fp_f64_lazy &a, const fp_f64_lazy &b,
                                           const fp_f64_lazy &c, const fp_f64_lazy &d) {
                return of(fp_dev::mul_add(a.canonical_dev(), b.canonical_dev(), c.canonical_dev(),
                                          d.canonical_dev()));
        }
        CUZK_HD fp_f64_lazy operator*(const fp_f64_lazy &b) const {
                return of(canonical_dev() * b.canonical_dev());
        }
        CUZK_HD fp_f64_lazy operator+(const fp_f64_lazy &b) const {
                return of(canonical_dev() + b.canonical_dev());
        }
        CUZK_HD fp_f64_lazy operator-(const fp_f64_lazy &b) const {
                return of(canonical_dev() - b.canonical_dev());
        }
};

/* a + b and a - b below 2p, for a, b below 2p. */
CUZK_HD fp_f64_lazy f64_add_lazy(const fp_f64_lazy &a, const fp_f64_lazy &b) {
        double t[fp_f64::N];
        CUZK_UNROLL
        for (int j = 0; j < fp_f64::N; j++)
                t[j] = a.f.v[j] + b.f.v[j] - (double)f64::multiple_of_p(2, j);
        return fp_f64_lazy::from(f64::normalize_restore<2>(t));
}

CUZK_HD fp_f64_lazy f64_sub_lazy(const fp_f64_lazy &a, const fp_f64_lazy &b) {
        double t[fp_f64::N];
        CUZK_UNROLL
        for (int j = 0; j < fp_f64::N; j++)
                t[j] = a.f.v[j] - b.f.v[j];
        return fp_f64_lazy::from(f64::normalize_restore<2>(t));
}

/* The canonical value (below p). */
CUZK_HD fp_f64_lazy f64_canonical(const fp_f64_lazy &a) {
        double t[fp_f64::N];
        CUZK_UNROLL
        for (int j = 0; j < fp_f64::N; j++)
                t[j] = a.f.v[j] - (double)fp_f64::modulus(j);
        return fp_f64_lazy::from(f64::normalize_restore<1>(t));
}

template <f64_sums S> CUZK_HD_NOINLINE fp_f64 mont_mul_f64_called(fp_f64 a, fp_f64 b) {
        return mont_mul_f64_as<S>(a, b);
}

/* mul_called_lazy's operations on fp_f64_lazy: the products in form S,
 * called out of line as level 0 calls its products. */
template <f64_sums S> struct mul_f64_lazy {
        CUZK_HD fp_f64_lazy operator()(const fp_f64_lazy &a, const fp_f64_lazy &b) const {
                return fp_f64_lazy::from(mont_mul_f64_called<S>(a.f, b.f));
        }
        CUZK_HD fp_f64_lazy sqr(const fp_f64_lazy &a) const {
                return (*this)(a, a);
        }
        CUZK_HD fp_f64_lazy mul_add(const fp_f64_lazy &a, const fp_f64_lazy &b,
                                    const fp_f64_lazy &c, const fp_f64_lazy &d) const {
                return f64_add_lazy((*this)(a, b), (*this)(c, d));
        }
        CUZK_HD fp_f64_lazy add(const fp_f64_lazy &a, const fp_f64_lazy &b) const {
                return f64_add_lazy(a, b);
        }
        CUZK_HD fp_f64_lazy sub(const fp_f64_lazy &a, const fp_f64_lazy &b) const {
                return f64_sub_lazy(a, b);
        }
        CUZK_HD fp_f64_lazy neg(const fp_f64_lazy &a) const {
                return f64_sub_lazy(fp_f64_lazy::zero(), a);
        }
        CUZK_HD bool is_zero(const fp_f64_lazy &a) const {
                return a.is_zero();
        }
        CUZK_HD fp_f64_lazy canonical(const fp_f64_lazy &a) const {
                return f64_canonical(a);
        }
};

using g1_xyzz_f64 = xyzz_point<fp_f64_lazy>;
using g1_affine_f64 = affine_point<fp_f64_lazy>;

CUZK_HD g1_affine_f64 g1_affine_to_f64(const g1_affine_dev &p) {
        return {fp_f64_lazy::of(p.x), fp_f64_lazy::of(p.y)};
}

CUZK_HD g1_xyzz_f64 g1_xyzz_to_f64(const g1_xyzz_dev &p) {
        return {fp_f64_lazy::of(p.x), fp_f64_lazy::of(p.y), fp_f64_lazy::of(p.zz),
                fp_f64_lazy::of(p.zzz)};
}

/* The point's fp_dev words; canonical when p is. */
CUZK_HD g1_xyzz_dev g1_xyzz_from_f64(const g1_xyzz_f64 &p) {
        g1_xyzz_dev r;
        r.x = fp_f64_words(p.x.f);
        r.y = fp_f64_words(p.y.f);
        r.zz = fp_f64_words(p.zz.f);
        r.zzz = fp_f64_words(p.zzz.f);
        return r;
}

} // namespace cuzk
