/* SPDX-License-Identifier: Apache-2.0 */
#include "fp12.h"

#include <assert.h>

/*
 * w^(p^k) = xi^((p^k - 1)/6) w. The Frobenius map multiplies the
 * coefficients of w, w^3 and w^5 (c1.c0, c1.c1, c1.c2) by
 * FP12_FROBENIUS_W[k-1][j] = xi^((2j + 1)(p^k - 1)/6); those of the even
 * powers are handled by fp6_frobenius_map. Montgomery form; recomputed with
 * fp2_pow by test-pairing.
 */
static const fp2_t FP12_FROBENIUS_W[3][3] = {
        {
                {{{0x07089552b319d465ULL, 0xc6695f92b50a8313ULL, 0x97e83cccd117228fULL,
                   0xa35baecab2dc29eeULL, 0x1ce393ea5daace4dULL, 0x08f2220fb0fb66ebULL}},
                 {{0xb2f66aad4ce5d646ULL, 0x5842a06bfc497cecULL, 0xcf4895d42599d394ULL,
                   0xc11b9cba40a8e8d0ULL, 0x2e3813cbe5a0de89ULL, 0x110eefda88847fafULL}}},
                {{{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL,
                   0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}},
                 {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL,
                   0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}}},
                {{{0x82d83cf50dbce43fULL, 0xa2813e53df9d018fULL, 0xc6f0caa53c65e181ULL,
                   0x7525cf528d50fe95ULL, 0x4a85ed50f4798a6bULL, 0x171da0fd6cf8eebdULL}},
                 {{0x3726c30af242c66cULL, 0x7c2ac1aad1b6fe70ULL, 0xa04007fbba4b14a2ULL,
                   0xef517c3266341429ULL, 0x0095ba654ed2226bULL, 0x02e370eccc86f7ddULL}}},
        },
        {
                {{{0xecfb361b798dba3aULL, 0xc100ddb891865a2cULL, 0x0ec08ff1232bda8eULL,
                   0xd5c13cc6f1ca4721ULL, 0x47222a47bf7b5c04ULL, 0x0110f184e51c5f59ULL}},
                 {{0}}},
                {{{0x43f5fffffffcaaaeULL, 0x32b7fff2ed47fffdULL, 0x07e83a49a2e99d69ULL,
                   0xeca8f3318332bb7aULL, 0xef148d1ea0f4c069ULL, 0x040ab3263eff0206ULL}},
                 {{0}}},
                {{{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL,
                   0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}},
                 {{0}}},
        },
        {
                {{{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL,
                   0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
                 {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL,
                   0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}}},
                {{{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL,
                   0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
                 {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL,
                   0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}}},
                {{{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL,
                   0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}},
                 {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL,
                   0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}}},
        },
};

void fp12_set_zero(fp12_t *r) {
        fp6_set_zero(&r->c0);
        fp6_set_zero(&r->c1);
}

void fp12_set_one(fp12_t *r) {
        fp6_set_one(&r->c0);
        fp6_set_zero(&r->c1);
}

bool fp12_is_zero(const fp12_t *a) {
        return fp6_is_zero(&a->c0) && fp6_is_zero(&a->c1);
}

bool fp12_is_one(const fp12_t *a) {
        return fp6_is_one(&a->c0) && fp6_is_zero(&a->c1);
}

bool fp12_equal(const fp12_t *a, const fp12_t *b) {
        return fp6_equal(&a->c0, &b->c0) && fp6_equal(&a->c1, &b->c1);
}

void fp12_add(fp12_t *r, const fp12_t *a, const fp12_t *b) {
        fp6_add(&r->c0, &a->c0, &b->c0);
        fp6_add(&r->c1, &a->c1, &b->c1);
}

void fp12_sub(fp12_t *r, const fp12_t *a, const fp12_t *b) {
        fp6_sub(&r->c0, &a->c0, &b->c0);
        fp6_sub(&r->c1, &a->c1, &b->c1);
}

/* Karatsuba: (a0 + a1 w)(b0 + b1 w) = a0 b0 + v a1 b1 + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) w */
void fp12_mul(fp12_t *r, const fp12_t *a, const fp12_t *b) {
        fp6_t t0, t1, sa, sb;

        fp6_mul(&t0, &a->c0, &b->c0);
        fp6_mul(&t1, &a->c1, &b->c1);
        fp6_add(&sa, &a->c0, &a->c1);
        fp6_add(&sb, &b->c0, &b->c1);
        fp6_mul(&sa, &sa, &sb);
        fp6_sub(&sa, &sa, &t0);
        fp6_sub(&r->c1, &sa, &t1);
        fp6_mul_by_nonresidue(&t1, &t1);
        fp6_add(&r->c0, &t0, &t1);
}

/* Complex squaring: (a0 + a1 w)^2 = (a0 + a1)(a0 + v a1) - t - v t + 2 t w, t = a0 a1 */
void fp12_sqr(fp12_t *r, const fp12_t *a) {
        fp6_t t, s0, s1;

        fp6_mul(&t, &a->c0, &a->c1);
        fp6_add(&s0, &a->c0, &a->c1);
        fp6_mul_by_nonresidue(&s1, &a->c1);
        fp6_add(&s1, &s1, &a->c0);
        fp6_mul(&s0, &s0, &s1);
        fp6_sub(&s0, &s0, &t);
        fp6_mul_by_nonresidue(&s1, &t);
        fp6_sub(&r->c0, &s0, &s1);
        fp6_dbl(&r->c1, &t);
}

/* 1/(a0 + a1 w) = (a0 - a1 w) / (a0^2 - v a1^2) */
void fp12_inv(fp12_t *r, const fp12_t *a) {
        fp6_t n, t;

        fp6_sqr(&n, &a->c0);
        fp6_sqr(&t, &a->c1);
        fp6_mul_by_nonresidue(&t, &t);
        fp6_sub(&n, &n, &t);
        fp6_inv(&n, &n);
        fp6_mul(&r->c0, &a->c0, &n);
        fp6_mul(&t, &a->c1, &n);
        fp6_neg(&r->c1, &t);
}

void fp12_conjugate(fp12_t *r, const fp12_t *a) {
        r->c0 = a->c0;
        fp6_neg(&r->c1, &a->c1);
}

void fp12_frobenius_map(fp12_t *r, const fp12_t *a, unsigned power) {
        const fp2_t *gamma;

        assert(power <= 3);

        if (power == 0) {
                *r = *a;
                return;
        }
        gamma = FP12_FROBENIUS_W[power - 1];
        fp6_frobenius_map(&r->c0, &a->c0, power);
        if (power % 2) {
                fp2_conjugate(&r->c1.c0, &a->c1.c0);
                fp2_conjugate(&r->c1.c1, &a->c1.c1);
                fp2_conjugate(&r->c1.c2, &a->c1.c2);
        } else {
                r->c1 = a->c1;
        }
        fp2_mul(&r->c1.c0, &r->c1.c0, &gamma[0]);
        fp2_mul(&r->c1.c1, &r->c1.c1, &gamma[1]);
        fp2_mul(&r->c1.c2, &r->c1.c2, &gamma[2]);
}

void fp12_pow(fp12_t *r, const fp12_t *a, const uint64_t *e, size_t n) {
        fp12_t acc, base = *a;

        assert(e || n == 0);

        fp12_set_one(&acc);
        for (size_t i = n; i-- > 0;)
                for (int bit = 63; bit >= 0; bit--) {
                        fp12_sqr(&acc, &acc);
                        if ((e[i] >> bit) & 1)
                                fp12_mul(&acc, &acc, &base);
                }
        *r = acc;
}

/*
 * With L0 = l0 + l1 v and L1 = l4 v, a * (L0 + L1 w) is Karatsuba over w
 * where every Fp6 product is sparse: 13 Fp2 products instead of 18.
 */
void fp12_mul_by_014(fp12_t *r, const fp12_t *a, const fp2_t *l0, const fp2_t *l1,
                     const fp2_t *l4) {
        fp6_t t0, t1, s;
        fp2_t l14;

        fp6_mul_by_01(&t0, &a->c0, l0, l1);
        fp6_mul_by_1(&t1, &a->c1, l4);
        fp2_add(&l14, l1, l4);
        fp6_add(&s, &a->c0, &a->c1);
        fp6_mul_by_01(&s, &s, l0, &l14);
        fp6_sub(&s, &s, &t0);
        fp6_sub(&r->c1, &s, &t1);
        fp6_mul_by_nonresidue(&t1, &t1);
        fp6_add(&r->c0, &t0, &t1);
}

/* (x0 + x1 s)^2 in Fp4 = Fp2[s] / (s^2 - xi): three Fp2 squarings. */
static void fp4_sqr(fp2_t *r0, fp2_t *r1, const fp2_t *x0, const fp2_t *x1) {
        fp2_t t0, t1, s;

        fp2_sqr(&t0, x0);
        fp2_sqr(&t1, x1);
        fp2_add(&s, x0, x1);
        fp2_sqr(&s, &s);
        fp2_sub(&s, &s, &t0);
        fp2_sub(r1, &s, &t1);
        fp2_mul_by_nonresidue(&t1, &t1);
        fp2_add(r0, &t0, &t1);
}

/* r = 3 t + 2 sign a, with sign = +1 or -1: the shape of every output below. */
static void three_t_plus_two_a(fp2_t *r, const fp2_t *t, const fp2_t *a, bool minus) {
        fp2_t d;

        if (minus)
                fp2_sub(&d, t, a);
        else
                fp2_add(&d, t, a);
        fp2_dbl(&d, &d);
        fp2_add(r, &d, t);
}

/*
 * Granger-Scott: with s = w^3 (s^2 = xi) Fp12 = Fp4[w] / (w^3 - s), and a
 * = A + B w + C w^2 for A = a0 + a3 s, B = a1 + a4 s, C = a2 + a5 s (a_i the
 * coefficient of w^i). In the cyclotomic subgroup the square is
 *   A' = 3 A^2 - 2 conj(A),  B' = 3 s C^2 + 2 conj(B),  C' = 3 B^2 - 2 conj(C),
 * conj(x0 + x1 s) = x0 - x1 s, which needs only the three Fp4 squarings.
 */
void fp12_cyclotomic_sqr(fp12_t *r, const fp12_t *a) {
        fp2_t A0, A1, B0, B1, C0, C1;

        fp4_sqr(&A0, &A1, &a->c0.c0, &a->c1.c1);
        fp4_sqr(&B0, &B1, &a->c1.c0, &a->c0.c2);
        fp4_sqr(&C0, &C1, &a->c0.c1, &a->c1.c2);

        /* A' */
        three_t_plus_two_a(&r->c0.c0, &A0, &a->c0.c0, true);
        three_t_plus_two_a(&r->c1.c1, &A1, &a->c1.c1, false);
        /* B' = 3 (xi C1 + C0 s) + 2 (a1 - a4 s) */
        fp2_mul_by_nonresidue(&C1, &C1);
        three_t_plus_two_a(&r->c1.c0, &C1, &a->c1.c0, false);
        three_t_plus_two_a(&r->c0.c2, &C0, &a->c0.c2, true);
        /* C' */
        three_t_plus_two_a(&r->c0.c1, &B0, &a->c0.c1, true);
        three_t_plus_two_a(&r->c1.c2, &B1, &a->c1.c2, false);
}
