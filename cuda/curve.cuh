/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Short Weierstrass curves y^2 = x^3 + b (a = 0) over a field F, in the
 * layouts of zk/g1.h: affine (x, y) with (0, 0) as infinity, and XYZZ
 * (x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2; ZZ = 0 is infinity, stored as
 * (1, 1, 0, 0) like zk/). Written over F so that G2 (F = Fp2) can follow.
 * Formulas from the Explicit-Formulas Database for XYZZ coordinates:
 * madd-2008-s, add-2008-s, dbl-2008-s-1 and mdbl-2008-s-1 with a = 0;
 * equal and opposite operands are detected and routed to doubling or
 * infinity, so bucket sums are right for any input.
 */
#pragma once

#include "field.cuh"
#include "field_lazy.cuh"
#include "fp2.cuh"

namespace cuzk {

template <class F> struct xyzz_point;

/* A product out of line, operands and result by value (in registers). */
template <class F> CUZK_HD_NOINLINE F field_mul_called(F a, F b);
template <class F> CUZK_HD_NOINLINE F field_sqr_called(F a);
template <class F> CUZK_HD_NOINLINE F field_mul_add_called(F a, F b, F c, F d);
template <class F> CUZK_HD_NOINLINE F field_mul_lazy_called(F a, F b);
template <class F> CUZK_HD_NOINLINE F field_sqr_lazy_called(F a);
template <class F> CUZK_HD_NOINLINE F field_mul_add_lazy_called(F a, F b, F c, F d);

/* The sums and tests of an addition on reduced values (below m). */
struct sums_reduced {
        template <class F> CUZK_HD F add(const F &a, const F &b) const {
                return a + b;
        }
        template <class F> CUZK_HD F sub(const F &a, const F &b) const {
                return a - b;
        }
        template <class F> CUZK_HD F neg(const F &a) const {
                return a.neg();
        }
        template <class F> CUZK_HD bool is_zero(const F &a) const {
                return a.is_zero();
        }
        template <class F> CUZK_HD F canonical(const F &a) const {
                return a;
        }
};

/*
 * How the hot loop's addition multiplies. Inlined, one mixed addition is ten
 * copies of the product: with the ~680-instruction CIOS form that was over
 * 100 KB of code per loop body, and on the H200 a third of the issue stalls
 * were instruction fetch (Nsight Compute); called, 2^26 points took 793
 * against 1077 ms. With the ~420-instruction paired form the two are level
 * (no gain either way at 2^26); the MSM's level 0 keeps the called one.
 */
struct mul_inlined : sums_reduced {
        template <class F> CUZK_HD F operator()(const F &a, const F &b) const {
                return a * b;
        }
        template <class F> CUZK_HD F sqr(const F &a) const {
                return a.sqr();
        }
        /* a b + c d, one reduction where F has it (Fp) */
        template <class F> CUZK_HD F mul_add(const F &a, const F &b, const F &c, const F &d) const {
                return F::mul_add(a, b, c, d);
        }
};
struct mul_called : sums_reduced {
        template <class F> CUZK_HD F operator()(const F &a, const F &b) const {
                return field_mul_called(a, b);
        }
        /* Fp2 squares with two Fp products instead of Karatsuba's three. */
        template <class F> CUZK_HD F sqr(const F &a) const {
                return field_sqr_called(a);
        }
        template <class F> CUZK_HD F mul_add(const F &a, const F &b, const F &c, const F &d) const {
                return field_mul_add_called(a, b, c, d);
        }
};

/*
 * mul_called on Fp's lazy form (field_lazy.cuh): every product skips its
 * final subtraction, and a point leaves through xyzz_point::canonical.
 */
struct mul_called_lazy {
        template <class F> CUZK_HD F operator()(const F &a, const F &b) const {
                return field_mul_lazy_called(a, b);
        }
        template <class F> CUZK_HD F sqr(const F &a) const {
                return field_sqr_lazy_called(a);
        }
        template <class F> CUZK_HD F mul_add(const F &a, const F &b, const F &c, const F &d) const {
                return field_mul_add_lazy_called(a, b, c, d);
        }
        template <class F> CUZK_HD F add(const F &a, const F &b) const {
                return field_add_lazy(a, b);
        }
        template <class F> CUZK_HD F sub(const F &a, const F &b) const {
                return field_sub_lazy(a, b);
        }
        template <class F> CUZK_HD F neg(const F &a) const {
                return field_sub_lazy(F::zero(), a);
        }
        template <class F> CUZK_HD bool is_zero(const F &a) const {
                return field_is_zero_lazy(a);
        }
        template <class F> CUZK_HD F canonical(const F &a) const {
                return field_canonical(a);
        }
};

/* The rare cases of an addition, out of line: acc = 2 (x, y) when equal,
 * else infinity (the operands were opposite). */
template <class F>
CUZK_HD_NOINLINE void xyzz_equal_x_affine(xyzz_point<F> &acc, const F &x, const F &y, bool equal);
/* acc = 2 acc when equal, else infinity. */
template <class F> CUZK_HD_NOINLINE void xyzz_equal_x(xyzz_point<F> &acc, bool equal);

template <class F> struct affine_point {
        F x, y;

        CUZK_HD bool is_infinity() const {
                return x.is_zero() && y.is_zero();
        }
};

template <class F> struct xyzz_point {
        F x, y, zz, zzz;

        CUZK_HD static xyzz_point infinity() {
                xyzz_point r;
                r.x = F::one();
                r.y = F::one();
                r.zz = F::zero();
                r.zzz = F::zero();
                return r;
        }

        CUZK_HD bool is_infinity() const {
                return zz.is_zero();
        }

        /* 2 (x, y) for an affine point. */
        CUZK_HD static xyzz_point double_affine(const F &x, const F &y) {
                const F u = y.dbl(), v = u.sqr(), w = u * v, s = x * v;
                const F x2 = x.sqr(), m = x2.dbl() + x2;
                xyzz_point r;
                r.x = m.sqr() - s.dbl();
                r.y = F::mul_add(m, s - r.x, w, y.neg());
                r.zz = v;
                r.zzz = w;
                return r;
        }

        CUZK_HD void dbl() {
                const F u = y.dbl(), v = u.sqr(), w = u * v, s = x * v;
                const F x2 = x.sqr(), m = x2.dbl() + x2;
                const F x3 = m.sqr() - s.dbl();
                y = F::mul_add(m, s - x3, w, y.neg());
                x = x3;
                zz = zz * v;
                zzz = zzz * w;
        }

        /* The point with each coordinate canonical, from Mul's form. */
        template <class Mul> CUZK_HD xyzz_point canonical(Mul mul) const {
                xyzz_point r;
                r.x = mul.canonical(x);
                r.y = mul.canonical(y);
                r.zz = mul.canonical(zz);
                r.zzz = mul.canonical(zzz);
                return r;
        }

        /* this += (px, py), or this -= it when negate; (0, 0) adds nothing.
         * p is canonical; this is in Mul's form (canonical or lazy). */
        template <class Mul = mul_inlined>
        CUZK_HD void add_affine(const affine_point<F> &p, bool negate, Mul mul = Mul()) {
                if (p.is_infinity())
                        return;
                const F py = negate ? p.y.neg() : p.y;
                if (mul.is_zero(zz)) {
                        x = p.x;
                        y = py;
                        zz = F::one();
                        zzz = F::one();
                        return;
                }
                const F u2 = mul(p.x, zz), s2 = mul(py, zzz);
                const F pd = mul.sub(u2, x), r = mul.sub(s2, y);
                if (mul.is_zero(pd)) {
                        /* through a copy: only its address escapes, this stays in registers */
                        xyzz_point t = *this;
                        xyzz_equal_x_affine(t, p.x, py, mul.is_zero(r));
                        *this = t;
                        return;
                }
                /* ordered so that few values are live across each call */
                const F pp = mul.sqr(pd), ppp = mul(pd, pp), q = mul(x, pp);
                zz = mul(zz, pp);
                zzz = mul(zzz, ppp);
                x = mul.sub(mul.sub(mul.sqr(r), ppp), mul.add(q, q));
                y = mul.mul_add(r, mul.sub(q, x), mul.neg(y), ppp);
        }

        CUZK_HD void add(const xyzz_point &b) {
                if (b.is_infinity())
                        return;
                if (is_infinity()) {
                        *this = b;
                        return;
                }
                const F u1 = x * b.zz, u2 = b.x * zz, s1 = y * b.zzz, s2 = b.y * zzz;
                const F pd = u2 - u1, r = s2 - s1;
                if (pd.is_zero()) {
                        xyzz_point t = *this;
                        xyzz_equal_x(t, r.is_zero());
                        *this = t;
                        return;
                }
                const F pp = pd.sqr(), ppp = pd * pp, q = u1 * pp;
                const F x3 = r.sqr() - ppp - q.dbl();
                y = F::mul_add(r, q - x3, s1.neg(), ppp);
                x = x3;
                zz = zz * b.zz * pp;
                zzz = zzz * b.zzz * ppp;
        }
};

/*
 * The out-of-line helpers work on local copies: the carry chains are
 * `asm volatile`, which the compiler treats as touching memory, so
 * arithmetic on operands behind a reference would reload every limb before
 * every instruction. Copied in once, the operands live in registers.
 */
template <class F>
CUZK_HD_NOINLINE void xyzz_equal_x_affine(xyzz_point<F> &acc, const F &x, const F &y, bool equal) {
        const F px = x, py = y;
        acc = equal ? xyzz_point<F>::double_affine(px, py) : xyzz_point<F>::infinity();
}

template <class F> CUZK_HD_NOINLINE void xyzz_equal_x(xyzz_point<F> &acc, bool equal) {
        xyzz_point<F> a = acc;
        if (equal)
                a.dbl();
        else
                a = xyzz_point<F>::infinity();
        acc = a;
}

/* Out-of-line forms for code off the hot loop. */
template <class F> CUZK_HD_NOINLINE void xyzz_add(xyzz_point<F> &acc, const xyzz_point<F> &b) {
        xyzz_point<F> a = acc;
        const xyzz_point<F> c = b;
        a.add(c);
        acc = a;
}

template <class F> CUZK_HD_NOINLINE F field_mul_called(F a, F b) {
        return a * b;
}

template <class F> CUZK_HD_NOINLINE F field_sqr_called(F a) {
        return a.sqr();
}

template <class F> CUZK_HD_NOINLINE F field_mul_add_called(F a, F b, F c, F d) {
        return F::mul_add(a, b, c, d);
}

template <class F> CUZK_HD_NOINLINE F field_mul_lazy_called(F a, F b) {
        return field_mul_lazy(a, b);
}

template <class F> CUZK_HD_NOINLINE F field_sqr_lazy_called(F a) {
        return field_sqr_lazy(a);
}

template <class F> CUZK_HD_NOINLINE F field_mul_add_lazy_called(F a, F b, F c, F d) {
        return field_mul_add_lazy(a, b, c, d);
}

template <class F> CUZK_HD_NOINLINE void xyzz_dbl(xyzz_point<F> &acc) {
        xyzz_point<F> a = acc;
        a.dbl();
        acc = a;
}

using g1_affine_dev = affine_point<fp_dev>;
using g1_xyzz_dev = xyzz_point<fp_dev>;

static_assert(sizeof(g1_affine_dev) == 96, "g1_affine_dev must match g1_affine_t");
static_assert(sizeof(g1_xyzz_dev) == 192, "g1_xyzz_dev must match g1_xyzz_t");

using g2_affine_dev = affine_point<fp2_dev>;
using g2_xyzz_dev = xyzz_point<fp2_dev>;

static_assert(sizeof(g2_affine_dev) == 192, "g2_affine_dev must match g2_affine_t");
static_assert(sizeof(g2_xyzz_dev) == 384, "g2_xyzz_dev must match g2_xyzz_t");

/* What the MSM steps need to know of a group: its point types, how many
 * threads per block its curve arithmetic leaves registers for, and how many
 * blocks an SM must hold at level 0. */
struct g1_curve {
        using affine = g1_affine_dev;
        using xyzz = g1_xyzz_dev;
        /* level 0's products: Fp's lazy form (field_lazy.cuh) */
        using level0_mul = mul_called_lazy;
        static constexpr unsigned curve_block_threads = 128;
        /* level 0 at 12 warps an SM (170 registers): the square and the sum
         * of products want ~190 unbounded, which would leave 8 */
        static constexpr unsigned level0_min_blocks = 3;
};

struct g2_curve {
        using affine = g2_affine_dev;
        using xyzz = g2_xyzz_dev;
        using level0_mul = mul_called;
        static constexpr unsigned curve_block_threads = 64;
        static constexpr unsigned level0_min_blocks = 1;
};

} // namespace cuzk
