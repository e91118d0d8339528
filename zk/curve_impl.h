/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The functions of g1.h and g2.h, written once for a short Weierstrass curve
 * y^2 = x^3 + b (a = 0) over a field FE. Included by g1.c and g2.c after
 * defining:
 *   CV(name)              prefixed name, e.g. g1_##name
 *   CV_AFFINE_T, CV_JAC_T, CV_XYZZ_T   the point types
 *   FE(name)              field function name, e.g. fp_##name
 *   FE_T                  the field element type
 *   CV_B                  the constant b (an FE_T object, Montgomery form)
 *   CV_ENDO(r, p)         an endomorphism on Jacobian points that acts on the
 *                         order-r subgroup as multiplication by -k, where
 *   CV_ENDO_K, CV_ENDO_K_BITS   k as little-endian limbs and its bit length;
 *                         the curve's subgroup test is endo(P) == -[k]P
 *   CV_COFACTOR, CV_COFACTOR_BITS   the cofactor h as limbs and bit length
 *
 * Formulas: Jacobian from the EFD's a = 0 set (dbl-2009-l, add-2007-bl,
 * madd-2007-bl), XYZZ from the EFD's xyzz set (dbl-2008-s-1, add-2008-s,
 * madd-2008-s, mdbl-2008-s-1; those are in curve_bucket_impl.h, included
 * at the end). Special cases (infinity, P == Q, P == -Q) are
 * handled by branches before or inside the formulas; nothing here is
 * constant-time.
 */
#include <assert.h>
#include <string.h>

/* ---- affine ---- */

void CV(affine_set_infinity)(CV_AFFINE_T *r) {
        FE(set_zero)(&r->x);
        FE(set_zero)(&r->y);
}

bool CV(affine_is_infinity)(const CV_AFFINE_T *p) {
        return FE(is_zero)(&p->x) && FE(is_zero)(&p->y);
}

/* (0, 0) is the only representation of infinity, so coordinates decide. */
bool CV(affine_equal)(const CV_AFFINE_T *a, const CV_AFFINE_T *b) {
        return FE(equal)(&a->x, &b->x) && FE(equal)(&a->y, &b->y);
}

/* -(0, 0) = (0, 0), so infinity needs no branch. */
void CV(affine_neg)(CV_AFFINE_T *r, const CV_AFFINE_T *p) {
        r->x = p->x;
        FE(neg)(&r->y, &p->y);
}

/* r = x^3 + b */
static void curve_rhs(FE_T *r, const FE_T *x) {
        FE_T t;

        FE(sqr)(&t, x);
        FE(mul)(&t, &t, x);
        FE(add)(r, &t, &CV_B);
}

bool CV(affine_is_on_curve)(const CV_AFFINE_T *p) {
        FE_T lhs, rhs;

        assert(p);
        if (CV(affine_is_infinity)(p))
                return true;
        FE(sqr)(&lhs, &p->y);
        curve_rhs(&rhs, &p->x);
        return FE(equal)(&lhs, &rhs);
}

bool CV(affine_from_x)(CV_AFFINE_T *r, const FE_T *x, bool y_largest) {
        FE_T y2, y;

        assert(r && x);
        curve_rhs(&y2, x);
        if (!FE(sqrt)(&y, &y2))
                return false;
        /* y != 0: neither curve has a point of order 2 (both cofactors are odd) */
        if (FE(is_lexicographically_largest)(&y) != y_largest)
                FE(neg)(&y, &y);
        r->x = *x;
        r->y = y;
        return true;
}

bool CV(affine_in_subgroup)(const CV_AFFINE_T *p) {
        CV_JAC_T j;

        assert(p);
        CV(jac_from_affine)(&j, p);
        return CV(jac_in_subgroup)(&j);
}

/* ---- Jacobian ---- */

void CV(jac_set_infinity)(CV_JAC_T *r) {
        FE(set_one)(&r->x);
        FE(set_one)(&r->y);
        FE(set_zero)(&r->z);
}

bool CV(jac_is_infinity)(const CV_JAC_T *p) {
        return FE(is_zero)(&p->z);
}

void CV(jac_from_affine)(CV_JAC_T *r, const CV_AFFINE_T *p) {
        if (CV(affine_is_infinity)(p)) {
                CV(jac_set_infinity)(r);
                return;
        }
        r->x = p->x;
        r->y = p->y;
        FE(set_one)(&r->z);
}

/* (X, Y) * (1/Z^2, 1/Z^3) for a known zinv = 1/Z. */
static void jac_scale_to_affine(CV_AFFINE_T *r, const CV_JAC_T *p, const FE_T *zinv) {
        FE_T zinv2, zinv3;

        FE(sqr)(&zinv2, zinv);
        FE(mul)(&zinv3, &zinv2, zinv);
        FE(mul)(&r->x, &p->x, &zinv2);
        FE(mul)(&r->y, &p->y, &zinv3);
}

void CV(jac_to_affine)(CV_AFFINE_T *r, const CV_JAC_T *p) {
        FE_T zinv;

        if (CV(jac_is_infinity)(p)) {
                CV(affine_set_infinity)(r);
                return;
        }
        FE(inv)(&zinv, &p->z);
        jac_scale_to_affine(r, p, &zinv);
}

/*
 * Montgomery's trick: the prefix products of the Z coordinates are parked in
 * r[i].x (r is the output anyway), one inversion of the full product, then a
 * backward pass peels off one 1/Z per point. Points at infinity are skipped.
 */
void CV(jac_batch_to_affine)(CV_AFFINE_T *r, const CV_JAC_T *p, size_t n) {
        FE_T acc, inv;

        assert(r || n == 0);
        assert(p || n == 0);
        FE(set_one)(&acc);
        for (size_t i = 0; i < n; i++) {
                if (CV(jac_is_infinity)(&p[i]))
                        continue;
                r[i].x = acc;
                FE(mul)(&acc, &acc, &p[i].z);
        }
        FE(inv)(&inv, &acc);
        for (size_t i = n; i-- > 0;) {
                FE_T zinv;

                if (CV(jac_is_infinity)(&p[i])) {
                        CV(affine_set_infinity)(&r[i]);
                        continue;
                }
                FE(mul)(&zinv, &inv, &r[i].x);
                FE(mul)(&inv, &inv, &p[i].z);
                jac_scale_to_affine(&r[i], &p[i], &zinv);
        }
}

bool CV(jac_equal)(const CV_JAC_T *a, const CV_JAC_T *b) {
        FE_T za2, zb2, za3, zb3, l, r;
        bool a_inf = CV(jac_is_infinity)(a), b_inf = CV(jac_is_infinity)(b);

        if (a_inf || b_inf)
                return a_inf == b_inf;
        /* X1 Z2^2 == X2 Z1^2 and Y1 Z2^3 == Y2 Z1^3 */
        FE(sqr)(&za2, &a->z);
        FE(sqr)(&zb2, &b->z);
        FE(mul)(&l, &a->x, &zb2);
        FE(mul)(&r, &b->x, &za2);
        if (!FE(equal)(&l, &r))
                return false;
        FE(mul)(&za3, &za2, &a->z);
        FE(mul)(&zb3, &zb2, &b->z);
        FE(mul)(&l, &a->y, &zb3);
        FE(mul)(&r, &b->y, &za3);
        return FE(equal)(&l, &r);
}

/* Y^2 = X^3 + b Z^6 */
bool CV(jac_is_on_curve)(const CV_JAC_T *p) {
        FE_T lhs, rhs, z2, z6;

        assert(p);
        if (CV(jac_is_infinity)(p))
                return true;
        FE(sqr)(&lhs, &p->y);
        FE(sqr)(&rhs, &p->x);
        FE(mul)(&rhs, &rhs, &p->x);
        FE(sqr)(&z2, &p->z);
        FE(mul)(&z6, &z2, &p->z);
        FE(sqr)(&z6, &z6);
        FE(mul)(&z6, &z6, &CV_B);
        FE(add)(&rhs, &rhs, &z6);
        return FE(equal)(&lhs, &rhs);
}

void CV(jac_neg)(CV_JAC_T *r, const CV_JAC_T *p) {
        r->x = p->x;
        FE(neg)(&r->y, &p->y);
        r->z = p->z;
}

/* dbl-2009-l. Infinity (Z = 0) and 2-torsion (Y = 0) both give Z3 = 0. */
void CV(jac_dbl)(CV_JAC_T *r, const CV_JAC_T *p) {
        FE_T a, b, c, d, e, f, t;

        FE(sqr)(&a, &p->x);
        FE(sqr)(&b, &p->y);
        FE(sqr)(&c, &b);
        FE(add)(&d, &p->x, &b);
        FE(sqr)(&d, &d);
        FE(sub)(&d, &d, &a);
        FE(sub)(&d, &d, &c);
        FE(dbl)(&d, &d);
        FE(dbl)(&e, &a);
        FE(add)(&e, &e, &a);
        FE(sqr)(&f, &e);
        FE(mul)(&t, &p->y, &p->z); /* before r->y is written: r may alias p */
        FE(dbl)(&r->z, &t);
        FE(sub)(&r->x, &f, &d);
        FE(sub)(&r->x, &r->x, &d);
        FE(sub)(&d, &d, &r->x);
        FE(mul)(&d, &e, &d);
        FE(dbl)(&c, &c);
        FE(dbl)(&c, &c);
        FE(dbl)(&c, &c);
        FE(sub)(&r->y, &d, &c);
}

/* add-2007-bl; falls back to doubling when a == b. */
void CV(jac_add)(CV_JAC_T *r, const CV_JAC_T *a, const CV_JAC_T *b) {
        FE_T z1z1, z2z2, u1, u2, s1, s2, h, i, j, rr, v, t;

        if (CV(jac_is_infinity)(a)) {
                *r = *b;
                return;
        }
        if (CV(jac_is_infinity)(b)) {
                *r = *a;
                return;
        }
        FE(sqr)(&z1z1, &a->z);
        FE(sqr)(&z2z2, &b->z);
        FE(mul)(&u1, &a->x, &z2z2);
        FE(mul)(&u2, &b->x, &z1z1);
        FE(mul)(&s1, &a->y, &b->z);
        FE(mul)(&s1, &s1, &z2z2);
        FE(mul)(&s2, &b->y, &a->z);
        FE(mul)(&s2, &s2, &z1z1);
        FE(sub)(&h, &u2, &u1);
        FE(sub)(&rr, &s2, &s1);
        if (FE(is_zero)(&h)) {
                if (FE(is_zero)(&rr))
                        CV(jac_dbl)(r, a);
                else
                        CV(jac_set_infinity)(r);
                return;
        }
        FE(dbl)(&rr, &rr);
        FE(dbl)(&i, &h);
        FE(sqr)(&i, &i);
        FE(mul)(&j, &h, &i);
        FE(mul)(&v, &u1, &i);
        /* Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H, computed before r->z is written */
        FE(add)(&t, &a->z, &b->z);
        FE(sqr)(&t, &t);
        FE(sub)(&t, &t, &z1z1);
        FE(sub)(&t, &t, &z2z2);
        FE(mul)(&r->z, &t, &h);
        FE(sqr)(&r->x, &rr);
        FE(sub)(&r->x, &r->x, &j);
        FE(sub)(&r->x, &r->x, &v);
        FE(sub)(&r->x, &r->x, &v);
        FE(sub)(&v, &v, &r->x);
        FE(mul)(&v, &rr, &v);
        FE(mul)(&s1, &s1, &j);
        FE(dbl)(&s1, &s1);
        FE(sub)(&r->y, &v, &s1);
}

/* madd-2007-bl (Z2 = 1). */
void CV(jac_add_affine)(CV_JAC_T *r, const CV_JAC_T *a, const CV_AFFINE_T *b) {
        FE_T z1z1, u2, s2, h, hh, i, j, rr, v, t;

        if (CV(affine_is_infinity)(b)) {
                *r = *a;
                return;
        }
        if (CV(jac_is_infinity)(a)) {
                CV(jac_from_affine)(r, b);
                return;
        }
        FE(sqr)(&z1z1, &a->z);
        FE(mul)(&u2, &b->x, &z1z1);
        FE(mul)(&s2, &b->y, &a->z);
        FE(mul)(&s2, &s2, &z1z1);
        FE(sub)(&h, &u2, &a->x);
        FE(sub)(&rr, &s2, &a->y);
        if (FE(is_zero)(&h)) {
                if (FE(is_zero)(&rr))
                        CV(jac_dbl)(r, a);
                else
                        CV(jac_set_infinity)(r);
                return;
        }
        FE(dbl)(&rr, &rr);
        FE(sqr)(&hh, &h);
        FE(dbl)(&i, &hh);
        FE(dbl)(&i, &i);
        FE(mul)(&j, &h, &i);
        FE(mul)(&v, &a->x, &i);
        FE(mul)(&t, &a->y, &j); /* Y1 J, before r->y is written */
        FE(dbl)(&t, &t);
        /* Z3 = (Z1 + H)^2 - Z1Z1 - HH */
        FE(add)(&r->z, &a->z, &h);
        FE(sqr)(&r->z, &r->z);
        FE(sub)(&r->z, &r->z, &z1z1);
        FE(sub)(&r->z, &r->z, &hh);
        FE(sqr)(&r->x, &rr);
        FE(sub)(&r->x, &r->x, &j);
        FE(sub)(&r->x, &r->x, &v);
        FE(sub)(&r->x, &r->x, &v);
        FE(sub)(&v, &v, &r->x);
        FE(mul)(&v, &rr, &v);
        FE(sub)(&r->y, &v, &t);
}

static inline bool scalar_bit(const uint64_t *k, size_t i) {
        return (k[i / 64] >> (i % 64)) & 1;
}

/* Sliding window width: bigger tables only pay off for longer scalars. */
static unsigned mul_window_bits(size_t nbits) {
        if (nbits <= 16)
                return 1;
        if (nbits <= 80)
                return 3;
        if (nbits <= 200)
                return 4;
        return 5;
}

#define MUL_MAX_WINDOW_BITS 5

/*
 * Left-to-right sliding window over the odd multiples P, 3P, ..., (2^w - 1)P:
 * each window starts at a set bit and ends at a set bit at most w - 1 bits
 * lower, so the digit is odd and read straight off the scalar (no digit
 * array, any nbits).
 */
void CV(jac_mul)(CV_JAC_T *r, const CV_JAC_T *p, const uint64_t *k, size_t nbits) {
        CV_JAC_T odd[1u << (MUL_MAX_WINDOW_BITS - 1)], twice, acc;
        unsigned w = mul_window_bits(nbits);
        size_t table_len = (size_t)1 << (w - 1);
        bool started = false;

        assert(r && p);
        assert(k || nbits == 0);
        odd[0] = *p;
        if (table_len > 1) {
                CV(jac_dbl)(&twice, p);
                for (size_t i = 1; i < table_len; i++)
                        CV(jac_add)(&odd[i], &odd[i - 1], &twice);
        }
        CV(jac_set_infinity)(&acc);
        for (size_t i = nbits; i-- > 0;) {
                size_t low;
                unsigned digit = 0;

                if (!scalar_bit(k, i)) {
                        if (started)
                                CV(jac_dbl)(&acc, &acc);
                        continue;
                }
                low = i + 1 >= w ? i + 1 - w : 0;
                while (!scalar_bit(k, low))
                        low++;
                for (size_t b = i + 1; b-- > low;) {
                        digit = (digit << 1) | scalar_bit(k, b);
                        if (started)
                                CV(jac_dbl)(&acc, &acc);
                }
                CV(jac_add)(&acc, &acc, &odd[digit >> 1]);
                started = true;
                i = low;
        }
        *r = acc;
}

void CV(jac_mul_fr)(CV_JAC_T *r, const CV_JAC_T *p, const fr_t *s) {
        uint64_t k[FR_LIMBS];

        assert(s);
        fr_to_canonical(k, s);
        CV(jac_mul)(r, p, k, FR_LIMBS * 64);
}

void CV(jac_clear_cofactor)(CV_JAC_T *r, const CV_JAC_T *p) {
        CV(jac_mul)(r, p, CV_COFACTOR, CV_COFACTOR_BITS);
}

/* The subgroup is the kernel of endo + [k] on the curve (see g1.c, g2.c). */
bool CV(jac_in_subgroup)(const CV_JAC_T *p) {
        CV_JAC_T e, kp;

        assert(p);
        if (CV(jac_is_infinity)(p))
                return true;
        CV_ENDO(&e, p);
        CV(jac_mul)(&kp, p, CV_ENDO_K, CV_ENDO_K_BITS);
        CV(jac_neg)(&kp, &kp);
        return CV(jac_equal)(&e, &kp);
}

/* XYZZ and batch affine addition: the MSM's bucket arithmetic, with the same
 * macros. */
#include "curve_bucket_impl.h"
