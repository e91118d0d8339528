/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The MSM's bucket arithmetic of g1.h and g2.h: XYZZ points and batched
 * affine addition. The rest of curve_impl.h, which includes this at its end
 * with CV(), FE() and the types defined; not to be included on its own.
 */
#include <assert.h>
#include <stdbool.h>
#include <stddef.h>

/* ---- XYZZ ---- */

void CV(xyzz_set_infinity)(CV_XYZZ_T *r) {
        FE(set_one)(&r->x);
        FE(set_one)(&r->y);
        FE(set_zero)(&r->zz);
        FE(set_zero)(&r->zzz);
}

bool CV(xyzz_is_infinity)(const CV_XYZZ_T *p) {
        return FE(is_zero)(&p->zz);
}

void CV(xyzz_from_affine)(CV_XYZZ_T *r, const CV_AFFINE_T *p) {
        if (CV(affine_is_infinity)(p)) {
                CV(xyzz_set_infinity)(r);
                return;
        }
        r->x = p->x;
        r->y = p->y;
        FE(set_one)(&r->zz);
        FE(set_one)(&r->zzz);
}

/*
 * Z = ZZZ works as a Jacobian Z because ZZZ^2 = ZZ^3:
 * X' = x Z^2 = X ZZ^2 and Y' = y Z^3 = Y ZZ^3.
 */
void CV(xyzz_to_jac)(CV_JAC_T *r, const CV_XYZZ_T *p) {
        FE_T zz2, zz3;

        if (CV(xyzz_is_infinity)(p)) {
                CV(jac_set_infinity)(r);
                return;
        }
        FE(sqr)(&zz2, &p->zz);
        FE(mul)(&zz3, &zz2, &p->zz);
        FE(mul)(&r->x, &p->x, &zz2);
        FE(mul)(&r->y, &p->y, &zz3);
        r->z = p->zzz;
}

/* dbl-2008-s-1 with a = 0. Y = 0 or ZZ = 0 give ZZ3 = 0 (infinity). */
void CV(xyzz_dbl)(CV_XYZZ_T *r, const CV_XYZZ_T *p) {
        FE_T u, v, w, s, m, t;

        FE(dbl)(&u, &p->y);
        FE(sqr)(&v, &u);
        FE(mul)(&w, &u, &v);
        FE(mul)(&s, &p->x, &v);
        FE(sqr)(&m, &p->x);
        FE(dbl)(&t, &m);
        FE(add)(&m, &m, &t);
        FE(mul)(&t, &w, &p->y); /* W Y1, before r->y is written */
        FE(mul)(&r->zz, &v, &p->zz);
        FE(mul)(&r->zzz, &w, &p->zzz);
        FE(sqr)(&r->x, &m);
        FE(sub)(&r->x, &r->x, &s);
        FE(sub)(&r->x, &r->x, &s);
        FE(sub)(&s, &s, &r->x);
        FE(mul)(&s, &m, &s);
        FE(sub)(&r->y, &s, &t);
}

/* mdbl-2008-s-1: doubles an affine point into XYZZ (ZZ1 = ZZZ1 = 1). */
static void xyzz_dbl_affine(CV_XYZZ_T *r, const CV_AFFINE_T *p) {
        FE_T u, v, w, s, m, t;

        FE(dbl)(&u, &p->y);
        FE(sqr)(&v, &u);
        FE(mul)(&w, &u, &v);
        FE(mul)(&s, &p->x, &v);
        FE(sqr)(&m, &p->x);
        FE(dbl)(&t, &m);
        FE(add)(&m, &m, &t);
        FE(mul)(&t, &w, &p->y);
        r->zz = v;
        r->zzz = w;
        FE(sqr)(&r->x, &m);
        FE(sub)(&r->x, &r->x, &s);
        FE(sub)(&r->x, &r->x, &s);
        FE(sub)(&s, &s, &r->x);
        FE(mul)(&s, &m, &s);
        FE(sub)(&r->y, &s, &t);
}

/* add-2008-s; falls back to doubling when a == b. */
void CV(xyzz_add)(CV_XYZZ_T *r, const CV_XYZZ_T *a, const CV_XYZZ_T *b) {
        FE_T u1, u2, s1, s2, pp, ppp, q, rr, t;

        if (CV(xyzz_is_infinity)(a)) {
                *r = *b;
                return;
        }
        if (CV(xyzz_is_infinity)(b)) {
                *r = *a;
                return;
        }
        FE(mul)(&u1, &a->x, &b->zz);
        FE(mul)(&u2, &b->x, &a->zz);
        FE(mul)(&s1, &a->y, &b->zzz);
        FE(mul)(&s2, &b->y, &a->zzz);
        FE(sub)(&u2, &u2, &u1); /* P */
        FE(sub)(&rr, &s2, &s1); /* R */
        if (FE(is_zero)(&u2)) {
                if (FE(is_zero)(&rr))
                        CV(xyzz_dbl)(r, a);
                else
                        CV(xyzz_set_infinity)(r);
                return;
        }
        FE(sqr)(&pp, &u2);
        FE(mul)(&ppp, &u2, &pp);
        FE(mul)(&q, &u1, &pp);
        FE(mul)(&t, &a->zz, &b->zz);
        FE(mul)(&r->zz, &t, &pp);
        FE(mul)(&t, &a->zzz, &b->zzz);
        FE(mul)(&r->zzz, &t, &ppp);
        FE(sqr)(&r->x, &rr);
        FE(sub)(&r->x, &r->x, &ppp);
        FE(sub)(&r->x, &r->x, &q);
        FE(sub)(&r->x, &r->x, &q);
        FE(sub)(&q, &q, &r->x);
        FE(mul)(&q, &rr, &q);
        FE(mul)(&s1, &s1, &ppp);
        FE(sub)(&r->y, &q, &s1);
}

/* madd-2008-s (ZZ2 = ZZZ2 = 1); the MSM bucket accumulation step. */
void CV(xyzz_add_affine)(CV_XYZZ_T *r, const CV_XYZZ_T *a, const CV_AFFINE_T *b) {
        FE_T u2, s2, pp, ppp, q, rr, t;

        if (CV(affine_is_infinity)(b)) {
                *r = *a;
                return;
        }
        if (CV(xyzz_is_infinity)(a)) {
                CV(xyzz_from_affine)(r, b);
                return;
        }
        FE(mul)(&u2, &b->x, &a->zz);
        FE(mul)(&s2, &b->y, &a->zzz);
        FE(sub)(&u2, &u2, &a->x); /* P */
        FE(sub)(&rr, &s2, &a->y); /* R */
        if (FE(is_zero)(&u2)) {
                if (FE(is_zero)(&rr))
                        xyzz_dbl_affine(r, b);
                else
                        CV(xyzz_set_infinity)(r);
                return;
        }
        FE(sqr)(&pp, &u2);
        FE(mul)(&ppp, &u2, &pp);
        FE(mul)(&q, &a->x, &pp);
        FE(mul)(&t, &a->y, &ppp); /* Y1 PPP, before r->y is written */
        FE(mul)(&r->zz, &a->zz, &pp);
        FE(mul)(&r->zzz, &a->zzz, &ppp);
        FE(sqr)(&r->x, &rr);
        FE(sub)(&r->x, &r->x, &ppp);
        FE(sub)(&r->x, &r->x, &q);
        FE(sub)(&r->x, &r->x, &q);
        FE(sub)(&q, &q, &r->x);
        FE(mul)(&q, &rr, &q);
        FE(sub)(&r->y, &q, &t);
}

void CV(xyzz_sub_affine)(CV_XYZZ_T *r, const CV_XYZZ_T *a, const CV_AFFINE_T *b) {
        CV_AFFINE_T nb;

        CV(affine_neg)(&nb, b);
        CV(xyzz_add_affine)(r, a, &nb);
}

/* ---- batch affine addition ---- */

enum batch_add_case {
        BATCH_ADD_TAKE_ACC, /* add is infinity: acc unchanged */
        BATCH_ADD_TAKE_ADD, /* acc is infinity: acc = add */
        BATCH_ADD_INFINITY, /* acc == -add (this includes 2-torsion doubling) */
        BATCH_ADD_CHORD,    /* distinct x: slope (y2 - y1) / (x2 - x1) */
        BATCH_ADD_TANGENT,  /* acc == add: slope 3x^2 / 2y */
};

/* Classifies acc + add and gives the slope's denominator when there is one. */
static enum batch_add_case batch_add_classify(const CV_AFFINE_T *acc, const CV_AFFINE_T *add,
                                              FE_T *denominator) {
        if (CV(affine_is_infinity)(add))
                return BATCH_ADD_TAKE_ACC;
        if (CV(affine_is_infinity)(acc))
                return BATCH_ADD_TAKE_ADD;
        if (!FE(equal)(&acc->x, &add->x)) {
                FE(sub)(denominator, &add->x, &acc->x);
                return BATCH_ADD_CHORD;
        }
        if (!FE(equal)(&acc->y, &add->y) || FE(is_zero)(&acc->y))
                return BATCH_ADD_INFINITY;
        FE(dbl)(denominator, &acc->y);
        return BATCH_ADD_TANGENT;
}

/*
 * Montgomery's trick as in jac_batch_to_affine: scratch[i] holds the product
 * of the denominators before i; the backward pass recomputes each
 * denominator (acc[i] is still unmodified then) to peel off its inverse.
 */
void CV(affine_batch_add)(CV_AFFINE_T *acc, const CV_AFFINE_T *add, size_t n, FE_T *scratch) {
        FE_T prod, inv;

        assert(acc || n == 0);
        assert(add || n == 0);
        assert(scratch || n == 0);
        FE(set_one)(&prod);
        for (size_t i = 0; i < n; i++) {
                FE_T d;
                enum batch_add_case c = batch_add_classify(&acc[i], &add[i], &d);

                if (c != BATCH_ADD_CHORD && c != BATCH_ADD_TANGENT)
                        continue;
                scratch[i] = prod;
                FE(mul)(&prod, &prod, &d);
        }
        FE(inv)(&inv, &prod);
        for (size_t i = n; i-- > 0;) {
                CV_AFFINE_T a = acc[i], b = add[i];
                FE_T d, dinv, lambda, t;
                enum batch_add_case c = batch_add_classify(&a, &b, &d);

                switch (c) {
                case BATCH_ADD_TAKE_ACC:
                        continue;
                case BATCH_ADD_TAKE_ADD:
                        acc[i] = b;
                        continue;
                case BATCH_ADD_INFINITY:
                        CV(affine_set_infinity)(&acc[i]);
                        continue;
                case BATCH_ADD_CHORD:
                        FE(sub)(&lambda, &b.y, &a.y);
                        break;
                case BATCH_ADD_TANGENT:
                        FE(sqr)(&t, &a.x);
                        FE(dbl)(&lambda, &t);
                        FE(add)(&lambda, &lambda, &t);
                        break;
                }
                FE(mul)(&dinv, &inv, &scratch[i]);
                FE(mul)(&inv, &inv, &d);
                FE(mul)(&lambda, &lambda, &dinv);
                /* x3 = lambda^2 - x1 - x2, y3 = lambda (x1 - x3) - y1 */
                FE(sqr)(&t, &lambda);
                FE(sub)(&t, &t, &a.x);
                FE(sub)(&acc[i].x, &t, &b.x);
                FE(sub)(&t, &a.x, &acc[i].x);
                FE(mul)(&t, &lambda, &t);
                FE(sub)(&acc[i].y, &t, &a.y);
        }
}
