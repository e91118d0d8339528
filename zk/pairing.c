/* SPDX-License-Identifier: Apache-2.0 */
#include "pairing.h"

#include <assert.h>

/* |x| for the BLS parameter x = -0xd201000000010000: bits 63, 62, 60, 57, 48, 16. */
#define BLS_X_ABS 0xd201000000010000ULL
#define BLS_X_TOP_BIT 63

/* Miller loops of this many pairs share one chain of Fp12 squarings; the
 * G2 accumulators live on the stack, so longer products take several chains. */
#define MILLER_BATCH 8

/* A G2 point in homogeneous projective coordinates: x = X/Z, y = Y/Z. */
typedef struct {
        fp2_t x, y, z;
} g2_proj_t;

/*
 * A line through points of the twist, evaluated at P and multiplied by a
 * factor in Fp4 that the final exponentiation removes: l0 + l1 xP v + l4 yP v w.
 */
typedef struct {
        fp2_t l0, l1, l4;
} line_t;

/* 12 xi a, the 3 b' of the twist y^2 = x^3 + 4 xi. */
static void mul_by_3b(fp2_t *r, const fp2_t *a) {
        fp2_t t;

        fp2_dbl(&t, a);
        fp2_add(&t, &t, a);
        fp2_mul_by_nonresidue(&t, &t);
        fp2_dbl(&t, &t);
        fp2_dbl(r, &t);
}

/*
 * T = 2T and the tangent at T. With B = Y^2, C = Z^2, E = 3b' C, F = 3E,
 * H = 2YZ: the tangent scaled by H is (B - E) - 3X^2 xP v + H yP v w (we keep
 * its negative), and 2T = (2XY(B - F), (B + F)^2 - 12E^2, 4BH), the usual
 * formulas multiplied through by 4 to avoid halvings.
 */
static void line_double(line_t *line, g2_proj_t *t) {
        fp2_t B, C, E, F, H, xy, s;

        fp2_sqr(&B, &t->y);
        fp2_sqr(&C, &t->z);
        mul_by_3b(&E, &C);
        fp2_dbl(&F, &E);
        fp2_add(&F, &F, &E);
        fp2_add(&H, &t->y, &t->z);
        fp2_sqr(&H, &H);
        fp2_sub(&H, &H, &B);
        fp2_sub(&H, &H, &C);

        fp2_sub(&line->l0, &E, &B);
        fp2_sqr(&s, &t->x);
        fp2_dbl(&line->l1, &s);
        fp2_add(&line->l1, &line->l1, &s);
        fp2_neg(&line->l4, &H);

        fp2_mul(&xy, &t->x, &t->y);
        fp2_dbl(&xy, &xy);
        fp2_sub(&s, &B, &F);
        fp2_mul(&t->x, &xy, &s);
        fp2_add(&s, &B, &F);
        fp2_sqr(&s, &s);
        fp2_sqr(&E, &E);
        fp2_dbl(&F, &E); /* F = 12 E^2 from here on */
        fp2_add(&F, &F, &E);
        fp2_dbl(&F, &F);
        fp2_dbl(&F, &F);
        fp2_sub(&t->y, &s, &F);
        fp2_mul(&t->z, &B, &H);
        fp2_dbl(&t->z, &t->z);
        fp2_dbl(&t->z, &t->z);
}

/*
 * T = T + Q and the line through them. With theta = Y - yQ Z and
 * lambda = X - xQ Z the line scaled by lambda is
 * (theta xQ - lambda yQ) - theta xP v + lambda yP v w, and T + Q =
 * (lambda H, theta (X lambda^2 - H) - Y lambda^3, Z lambda^3) with
 * H = lambda^3 + Z theta^2 - 2 X lambda^2. T != +-Q throughout the loop:
 * T is a multiple k Q with 1 < k < |x| < r.
 */
static void line_add(line_t *line, g2_proj_t *t, const g2_affine_t *q) {
        fp2_t theta, lambda, C, D, E, G, H, s;

        fp2_mul(&theta, &q->y, &t->z);
        fp2_sub(&theta, &t->y, &theta);
        fp2_mul(&lambda, &q->x, &t->z);
        fp2_sub(&lambda, &t->x, &lambda);

        fp2_mul(&line->l0, &theta, &q->x);
        fp2_mul(&s, &lambda, &q->y);
        fp2_sub(&line->l0, &line->l0, &s);
        fp2_neg(&line->l1, &theta);
        line->l4 = lambda;

        fp2_sqr(&C, &theta);
        fp2_sqr(&D, &lambda);
        fp2_mul(&E, &lambda, &D);
        fp2_mul(&G, &t->x, &D);
        fp2_mul(&H, &t->z, &C);
        fp2_add(&H, &H, &E);
        fp2_sub(&H, &H, &G);
        fp2_sub(&H, &H, &G);

        fp2_mul(&t->x, &lambda, &H);
        fp2_sub(&s, &G, &H);
        fp2_mul(&s, &s, &theta);
        fp2_mul(&t->y, &t->y, &E);
        fp2_sub(&t->y, &s, &t->y);
        fp2_mul(&t->z, &t->z, &E);
}

static void mul_by_line(fp12_t *f, const line_t *line, const g1_affine_t *p) {
        fp2_t l1, l4;

        fp2_mul_by_fp(&l1, &line->l1, &p->x);
        fp2_mul_by_fp(&l4, &line->l4, &p->y);
        fp12_mul_by_014(f, f, &line->l0, &l1, &l4);
}

/* f = prod f_{x,q[i]}(p[i]) for n <= MILLER_BATCH pairs, none at infinity. */
static void miller_loop_batch(fp12_t *f, const g1_affine_t *p, const g2_affine_t *q, size_t n) {
        g2_proj_t t[MILLER_BATCH];
        line_t line;

        assert(n <= MILLER_BATCH);

        for (size_t i = 0; i < n; i++) {
                t[i].x = q[i].x;
                t[i].y = q[i].y;
                fp2_set_one(&t[i].z);
        }
        fp12_set_one(f);
        for (int bit = BLS_X_TOP_BIT - 1; bit >= 0; bit--) {
                if (bit != BLS_X_TOP_BIT - 1) /* f is still 1 in the first round */
                        fp12_sqr(f, f);
                for (size_t i = 0; i < n; i++) {
                        line_double(&line, &t[i]);
                        mul_by_line(f, &line, &p[i]);
                }
                if (!((BLS_X_ABS >> bit) & 1))
                        continue;
                for (size_t i = 0; i < n; i++) {
                        line_add(&line, &t[i], &q[i]);
                        mul_by_line(f, &line, &p[i]);
                }
        }
        /* x < 0: f_{x,Q} = 1 / (f_{|x|,Q} v_{[|x|]Q}), and after the final
         * exponentiation the vertical line drops out and the inverse is the
         * conjugate. */
        fp12_conjugate(f, f);
}

void pairing_miller_loop(fp12_t *r, const g1_affine_t *p, const g2_affine_t *q, size_t n) {
        g1_affine_t batch_p[MILLER_BATCH];
        g2_affine_t batch_q[MILLER_BATCH];
        size_t batch_n = 0;
        fp12_t f;

        assert(r);
        assert(n == 0 || (p && q));

        fp12_set_one(r);
        for (size_t i = 0; i < n; i++) {
                assert(g1_affine_is_on_curve(&p[i]));
                assert(g2_affine_is_on_curve(&q[i]));
                /* e(O, Q) = e(P, O) = 1 */
                if (g1_affine_is_infinity(&p[i]) || g2_affine_is_infinity(&q[i]))
                        continue;
                batch_p[batch_n] = p[i];
                batch_q[batch_n] = q[i];
                batch_n++;
                if (batch_n == MILLER_BATCH) {
                        miller_loop_batch(&f, batch_p, batch_q, batch_n);
                        fp12_mul(r, r, &f);
                        batch_n = 0;
                }
        }
        if (batch_n > 0) {
                miller_loop_batch(&f, batch_p, batch_q, batch_n);
                fp12_mul(r, r, &f);
        }
}

/* r = a^x = conj(a^|x|) for a in the cyclotomic subgroup. */
static void cyclotomic_pow_x(fp12_t *r, const fp12_t *a) {
        fp12_t acc = *a;

        for (int bit = BLS_X_TOP_BIT - 1; bit >= 0; bit--) {
                fp12_cyclotomic_sqr(&acc, &acc);
                if ((BLS_X_ABS >> bit) & 1)
                        fp12_mul(&acc, &acc, a);
        }
        fp12_conjugate(r, &acc);
}

/*
 * f^(3 (p^12 - 1) / r). Easy part: m = f^((p^6 - 1)(p^2 + 1)) puts m in the
 * cyclotomic subgroup, where inverses are conjugates. Hard part:
 * m^(3 (p^4 - p^2 + 1) / r) with 3 (p^4 - p^2 + 1) / r =
 * (x - 1)^2 (x + p) (x^2 + p^2 - 1) + 3 (Hayashida-Hayasaka-Teruya), so
 * five exponentiations by x and a few Frobenius maps.
 */
void pairing_final_exponentiation(fp12_t *r, const fp12_t *f) {
        fp12_t m, a, y, t, u;

        assert(r && f);

        fp12_inv(&t, f);
        fp12_conjugate(&m, f);
        fp12_mul(&m, &m, &t);
        fp12_frobenius_map(&t, &m, 2);
        fp12_mul(&m, &m, &t);

        /* a = m^(x - 1) */
        cyclotomic_pow_x(&t, &m);
        fp12_conjugate(&a, &m);
        fp12_mul(&a, &a, &t);
        /* y = a^(x - 1) = m^((x - 1)^2) */
        cyclotomic_pow_x(&t, &a);
        fp12_conjugate(&a, &a);
        fp12_mul(&y, &t, &a);
        /* y = y^(x + p) */
        cyclotomic_pow_x(&t, &y);
        fp12_frobenius_map(&u, &y, 1);
        fp12_mul(&y, &t, &u);
        /* y = y^(x^2 + p^2 - 1) */
        cyclotomic_pow_x(&t, &y);
        cyclotomic_pow_x(&t, &t);
        fp12_frobenius_map(&u, &y, 2);
        fp12_mul(&t, &t, &u);
        fp12_conjugate(&u, &y);
        fp12_mul(&y, &t, &u);
        /* r = y m^3 */
        fp12_cyclotomic_sqr(&t, &m);
        fp12_mul(&t, &t, &m);
        fp12_mul(r, &y, &t);
}

void pairing(fp12_t *r, const g1_affine_t *p, const g2_affine_t *q) {
        fp12_t f;

        assert(r && p && q);

        pairing_miller_loop(&f, p, q, 1);
        pairing_final_exponentiation(r, &f);
}

bool pairing_product_is_one(const g1_affine_t *p, const g2_affine_t *q, size_t n) {
        fp12_t f;

        assert(n == 0 || (p && q));

        pairing_miller_loop(&f, p, q, n);
        pairing_final_exponentiation(&f, &f);
        return fp12_is_one(&f);
}
