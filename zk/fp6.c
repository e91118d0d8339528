/* SPDX-License-Identifier: Apache-2.0 */
#include "fp6.h"

#include <assert.h>

/*
 * v^(p^k) = xi^((p^k - 1)/3) v, so the Frobenius map scales c1 by
 * FP6_FROBENIUS_V[k-1][0] = xi^((p^k - 1)/3) and c2 by its square
 * FP6_FROBENIUS_V[k-1][1] = xi^(2(p^k - 1)/3). Montgomery form; recomputed
 * with fp2_pow by test-pairing.
 */
static const fp2_t FP6_FROBENIUS_V[3][2] = {
        {
                {{{0}},
                 {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL,
                   0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}}},
                {{{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL,
                   0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}},
                 {{0}}},
        },
        {
                {{{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL,
                   0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}},
                 {{0}}},
                {{{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL,
                   0x8eb60ebe01bacb9eULL, 0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}},
                 {{0}}},
        },
        {
                {{{0}},
                 {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                   0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}}},
                {{{0x43f5fffffffcaaaeULL, 0x32b7fff2ed47fffdULL, 0x07e83a49a2e99d69ULL,
                   0xeca8f3318332bb7aULL, 0xef148d1ea0f4c069ULL, 0x040ab3263eff0206ULL}},
                 {{0}}},
        },
};

void fp6_set_zero(fp6_t *r) {
        fp2_set_zero(&r->c0);
        fp2_set_zero(&r->c1);
        fp2_set_zero(&r->c2);
}

void fp6_set_one(fp6_t *r) {
        fp2_set_one(&r->c0);
        fp2_set_zero(&r->c1);
        fp2_set_zero(&r->c2);
}

bool fp6_is_zero(const fp6_t *a) {
        return fp2_is_zero(&a->c0) && fp2_is_zero(&a->c1) && fp2_is_zero(&a->c2);
}

bool fp6_is_one(const fp6_t *a) {
        return fp2_is_one(&a->c0) && fp2_is_zero(&a->c1) && fp2_is_zero(&a->c2);
}

bool fp6_equal(const fp6_t *a, const fp6_t *b) {
        return fp2_equal(&a->c0, &b->c0) && fp2_equal(&a->c1, &b->c1) && fp2_equal(&a->c2, &b->c2);
}

void fp6_add(fp6_t *r, const fp6_t *a, const fp6_t *b) {
        fp2_add(&r->c0, &a->c0, &b->c0);
        fp2_add(&r->c1, &a->c1, &b->c1);
        fp2_add(&r->c2, &a->c2, &b->c2);
}

void fp6_sub(fp6_t *r, const fp6_t *a, const fp6_t *b) {
        fp2_sub(&r->c0, &a->c0, &b->c0);
        fp2_sub(&r->c1, &a->c1, &b->c1);
        fp2_sub(&r->c2, &a->c2, &b->c2);
}

void fp6_neg(fp6_t *r, const fp6_t *a) {
        fp2_neg(&r->c0, &a->c0);
        fp2_neg(&r->c1, &a->c1);
        fp2_neg(&r->c2, &a->c2);
}

void fp6_dbl(fp6_t *r, const fp6_t *a) {
        fp2_dbl(&r->c0, &a->c0);
        fp2_dbl(&r->c1, &a->c1);
        fp2_dbl(&r->c2, &a->c2);
}

/* Karatsuba over three coefficients: six Fp2 products instead of nine. */
void fp6_mul(fp6_t *r, const fp6_t *a, const fp6_t *b) {
        fp2_t t0, t1, t2, sa, sb, c0, c1, c2;

        fp2_mul(&t0, &a->c0, &b->c0);
        fp2_mul(&t1, &a->c1, &b->c1);
        fp2_mul(&t2, &a->c2, &b->c2);

        /* c0 = t0 + xi (a1 b2 + a2 b1) */
        fp2_add(&sa, &a->c1, &a->c2);
        fp2_add(&sb, &b->c1, &b->c2);
        fp2_mul(&c0, &sa, &sb);
        fp2_sub(&c0, &c0, &t1);
        fp2_sub(&c0, &c0, &t2);
        fp2_mul_by_nonresidue(&c0, &c0);
        fp2_add(&c0, &c0, &t0);

        /* c1 = a0 b1 + a1 b0 + xi t2 */
        fp2_add(&sa, &a->c0, &a->c1);
        fp2_add(&sb, &b->c0, &b->c1);
        fp2_mul(&c1, &sa, &sb);
        fp2_sub(&c1, &c1, &t0);
        fp2_sub(&c1, &c1, &t1);
        fp2_mul_by_nonresidue(&sa, &t2);
        fp2_add(&c1, &c1, &sa);

        /* c2 = a0 b2 + a2 b0 + t1 */
        fp2_add(&sa, &a->c0, &a->c2);
        fp2_add(&sb, &b->c0, &b->c2);
        fp2_mul(&c2, &sa, &sb);
        fp2_sub(&c2, &c2, &t0);
        fp2_sub(&c2, &c2, &t2);
        fp2_add(&c2, &c2, &t1);

        r->c0 = c0;
        r->c1 = c1;
        r->c2 = c2;
}

/* Chung-Hasan SQR2: three squarings and two products; (a0 - a1 + a2)^2 gives
 * the v^2 coefficient once the other terms are subtracted. */
void fp6_sqr(fp6_t *r, const fp6_t *a) {
        fp2_t s0, s1, s2, s3, s4, t;

        fp2_sqr(&s0, &a->c0);
        fp2_mul(&s1, &a->c0, &a->c1);
        fp2_dbl(&s1, &s1);
        fp2_sub(&t, &a->c0, &a->c1);
        fp2_add(&t, &t, &a->c2);
        fp2_sqr(&s2, &t);
        fp2_mul(&s3, &a->c1, &a->c2);
        fp2_dbl(&s3, &s3);
        fp2_sqr(&s4, &a->c2);

        /* c2 = s1 + s2 + s3 - s0 - s4 = 2 a0 a2 + a1^2 */
        fp2_add(&t, &s1, &s2);
        fp2_add(&t, &t, &s3);
        fp2_sub(&t, &t, &s0);
        fp2_sub(&r->c2, &t, &s4);
        /* c0 = a0^2 + 2 xi a1 a2, c1 = 2 a0 a1 + xi a2^2 */
        fp2_mul_by_nonresidue(&s3, &s3);
        fp2_add(&r->c0, &s0, &s3);
        fp2_mul_by_nonresidue(&s4, &s4);
        fp2_add(&r->c1, &s1, &s4);
}

void fp6_mul_by_fp2(fp6_t *r, const fp6_t *a, const fp2_t *b) {
        fp2_mul(&r->c0, &a->c0, b);
        fp2_mul(&r->c1, &a->c1, b);
        fp2_mul(&r->c2, &a->c2, b);
}

/* (a0 + a1 v + a2 v^2) v = xi a2 + a0 v + a1 v^2 */
void fp6_mul_by_nonresidue(fp6_t *r, const fp6_t *a) {
        fp2_t t;

        fp2_mul_by_nonresidue(&t, &a->c2);
        r->c2 = a->c1;
        r->c1 = a->c0;
        r->c0 = t;
}

/* (a0 + a1 v + a2 v^2)(b0 + b1 v): the Karatsuba products of fp6_mul that
 * involve b2 vanish, leaving five. */
void fp6_mul_by_01(fp6_t *r, const fp6_t *a, const fp2_t *b0, const fp2_t *b1) {
        fp2_t t0, t1, sa, sb, c0, c1, c2;

        fp2_mul(&t0, &a->c0, b0);
        fp2_mul(&t1, &a->c1, b1);

        /* c0 = a0 b0 + xi a2 b1 */
        fp2_mul(&c0, &a->c2, b1);
        fp2_mul_by_nonresidue(&c0, &c0);
        fp2_add(&c0, &c0, &t0);

        /* c1 = a0 b1 + a1 b0 */
        fp2_add(&sa, &a->c0, &a->c1);
        fp2_add(&sb, b0, b1);
        fp2_mul(&c1, &sa, &sb);
        fp2_sub(&c1, &c1, &t0);
        fp2_sub(&c1, &c1, &t1);

        /* c2 = a2 b0 + a1 b1 */
        fp2_mul(&c2, &a->c2, b0);
        fp2_add(&c2, &c2, &t1);

        r->c0 = c0;
        r->c1 = c1;
        r->c2 = c2;
}

/* (a0 + a1 v + a2 v^2) b1 v = xi a2 b1 + a0 b1 v + a1 b1 v^2 */
void fp6_mul_by_1(fp6_t *r, const fp6_t *a, const fp2_t *b1) {
        fp2_t c0, c1, c2;

        fp2_mul(&c0, &a->c2, b1);
        fp2_mul_by_nonresidue(&c0, &c0);
        fp2_mul(&c1, &a->c0, b1);
        fp2_mul(&c2, &a->c1, b1);
        r->c0 = c0;
        r->c1 = c1;
        r->c2 = c2;
}

/*
 * The adjugate of multiplication by a, divided by the norm to Fp2:
 * A = a0^2 - xi a1 a2, B = xi a2^2 - a0 a1, C = a1^2 - a0 a2 satisfy
 * a (A + B v + C v^2) = a0 A + xi (a2 B + a1 C), an element of Fp2.
 */
void fp6_inv(fp6_t *r, const fp6_t *a) {
        fp2_t A, B, C, t, norm;

        fp2_sqr(&A, &a->c0);
        fp2_mul(&t, &a->c1, &a->c2);
        fp2_mul_by_nonresidue(&t, &t);
        fp2_sub(&A, &A, &t);

        fp2_sqr(&B, &a->c2);
        fp2_mul_by_nonresidue(&B, &B);
        fp2_mul(&t, &a->c0, &a->c1);
        fp2_sub(&B, &B, &t);

        fp2_sqr(&C, &a->c1);
        fp2_mul(&t, &a->c0, &a->c2);
        fp2_sub(&C, &C, &t);

        fp2_mul(&norm, &a->c2, &B);
        fp2_mul(&t, &a->c1, &C);
        fp2_add(&norm, &norm, &t);
        fp2_mul_by_nonresidue(&norm, &norm);
        fp2_mul(&t, &a->c0, &A);
        fp2_add(&norm, &norm, &t);
        fp2_inv(&norm, &norm);

        fp2_mul(&r->c0, &A, &norm);
        fp2_mul(&r->c1, &B, &norm);
        fp2_mul(&r->c2, &C, &norm);
}

/* Frobenius acts on each Fp2 coefficient as conjugation (odd powers) and on
 * v by a constant factor. */
void fp6_frobenius_map(fp6_t *r, const fp6_t *a, unsigned power) {
        assert(power <= 3);

        if (power == 0) {
                *r = *a;
                return;
        }
        if (power % 2) {
                fp2_conjugate(&r->c0, &a->c0);
                fp2_conjugate(&r->c1, &a->c1);
                fp2_conjugate(&r->c2, &a->c2);
        } else {
                *r = *a;
        }
        fp2_mul(&r->c1, &r->c1, &FP6_FROBENIUS_V[power - 1][0]);
        fp2_mul(&r->c2, &r->c2, &FP6_FROBENIUS_V[power - 1][1]);
}
