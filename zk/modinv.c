/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Variable-time modular inverse and Legendre symbol by the divsteps of
 * Bernstein and Yang,
 * "Fast constant-time gcd computation and modular inversion" (2019), in the
 * half-delta variant. State: f odd, g, with f = d*a and g = e*a (mod m),
 * starting from f = m, g = a, d = 0, e = 1. Each divstep halves g (after
 * adding or subtracting f to make it even, swapping f and g when delta > 0);
 * when g reaches 0, f = +-gcd(m, a) = +-1 and so d = +-a^-1.
 *
 * Numbers are held in signed 62-bit limbs so that a matrix entry (at most
 * 2^62 in magnitude) times a limb, summed twice, fits in 128 bits.
 *
 * The Legendre symbol uses a variant in which f and g never go negative
 * (odd g always becomes (g + f)/2), so that the Jacobi-symbol rules, which
 * need positive arguments, apply at every step, and each rule only needs
 * f and g mod 8, which the low words keep exactly.
 */
#include "modinv.h"

#include <assert.h>
#include <string.h>

#define LIMB_BITS 62
#define LIMB_MASK ((UINT64_C(1) << LIMB_BITS) - 1)
/* 6 * 64 = 384 bits plus a sign fit in 7 limbs of 62 bits. */
#define S62_MAX_LIMBS 7

typedef __int128 i128;

/* value = sum v[i] 2^(62 i); v[0..k-2] in [0, 2^62), v[k-1] carries the sign. */
typedef struct {
        int64_t v[S62_MAX_LIMBS];
} s62_t;

/* 2^62 [f; g] after 62 divsteps = [[u, v], [q, r]] [f; g] before them. */
typedef struct {
        int64_t u, v, q, r;
} transition_t;

static size_t s62_limbs_for(size_t n64) {
        return (64 * n64) / LIMB_BITS + 1;
}

static void s62_from_u64(s62_t *r, const uint64_t *a, size_t n64, size_t k) {
        memset(r, 0, sizeof(*r));
        for (size_t bit = 0, i = 0; i < k; i++, bit += LIMB_BITS) {
                size_t w = bit / 64, s = bit % 64;
                uint64_t x = w < n64 ? a[w] >> s : 0;
                if (s > 64 - LIMB_BITS && w + 1 < n64)
                        x |= a[w + 1] << (64 - s);
                r->v[i] = (int64_t)(x & LIMB_MASK);
        }
}

/* a must be in [0, 2^(64 n64)). */
static void s62_to_u64(uint64_t *r, const s62_t *a, size_t n64, size_t k) {
        memset(r, 0, n64 * sizeof(uint64_t));
        for (size_t bit = 0, i = 0; i < k; i++, bit += LIMB_BITS) {
                uint64_t x = (uint64_t)a->v[i];
                size_t w = bit / 64, s = bit % 64;
                if (w < n64)
                        r[w] |= x << s;
                if (s > 64 - LIMB_BITS && w + 1 < n64)
                        r[w + 1] |= x >> (64 - s);
        }
}

static bool s62_is_zero(const s62_t *a, size_t k) {
        for (size_t i = 0; i < k; i++)
                if (a->v[i])
                        return false;
        return true;
}

static bool s62_is_negative(const s62_t *a, size_t k) {
        return a->v[k - 1] < 0;
}

/* a >= b, for b >= 0. */
static bool s62_geq(const s62_t *a, const s62_t *b, size_t k) {
        for (size_t i = k; i-- > 0;)
                if (a->v[i] != b->v[i])
                        return a->v[i] > b->v[i];
        return true;
}

/* r = a + sign * b (sign = +1 or -1), carries normalised. */
static void s62_add_signed(s62_t *r, const s62_t *a, const s62_t *b, int64_t sign, size_t k) {
        i128 c = 0;
        for (size_t i = 0; i < k - 1; i++) {
                c += (i128)a->v[i] + (i128)sign * b->v[i];
                r->v[i] = (int64_t)((uint64_t)c & LIMB_MASK);
                c >>= LIMB_BITS;
        }
        r->v[k - 1] = (int64_t)(c + a->v[k - 1] + (i128)sign * b->v[k - 1]);
}

static void s62_negate(s62_t *r, const s62_t *a, size_t k) {
        static const s62_t zero;
        s62_add_signed(r, &zero, a, -1, k);
}

/* Count trailing zeros, with ctz(0) = limit. */
static int ctz_capped(uint64_t x, int limit) {
        int z = x ? __builtin_ctzll(x) : limit;
        return z < limit ? z : limit;
}

/*
 * 62 divsteps on the low words of f and g: every decision of a divstep only
 * looks at the parity of g, and after i steps the low 64 - i bits of the
 * words are still exact. delta2 is 2*delta (delta starts at 1/2). Runs of
 * zero bits of g are skipped at once.
 */
static int64_t divsteps_62(int64_t delta2, uint64_t f, uint64_t g, transition_t *t) {
        int64_t u = 1, v = 0, q = 0, r = 1;
        int left = LIMB_BITS;

        for (;;) {
                int zeros = ctz_capped(g, left);
                g >>= zeros;
                u *= (int64_t)1 << zeros;
                v *= (int64_t)1 << zeros;
                delta2 += 2 * zeros;
                left -= zeros;
                if (left == 0)
                        break;
                /* g is odd now */
                if (delta2 > 0) {
                        uint64_t old_f = f;
                        int64_t old_u = u, old_v = v;
                        delta2 = 2 - delta2;
                        f = g;
                        g = (g - old_f) >> 1;
                        u = 2 * q;
                        v = 2 * r;
                        q -= old_u;
                        r -= old_v;
                } else {
                        delta2 = 2 + delta2;
                        g = (g + f) >> 1;
                        q += u;
                        r += v;
                        u *= 2;
                        v *= 2;
                }
                left--;
        }
        t->u = u;
        t->v = v;
        t->q = q;
        t->r = r;
        return delta2;
}

static uint64_t low_word(const s62_t *a) {
        return (uint64_t)a->v[0] | ((uint64_t)a->v[1] << LIMB_BITS);
}

/* [f; g] = [[u, v], [q, r]] [f; g] / 2^62; the division is exact. */
static void apply_to_fg(s62_t *f, s62_t *g, const transition_t *t, size_t k) {
        i128 cf = (i128)t->u * f->v[0] + (i128)t->v * g->v[0];
        i128 cg = (i128)t->q * f->v[0] + (i128)t->r * g->v[0];

        assert(((uint64_t)cf & LIMB_MASK) == 0 && ((uint64_t)cg & LIMB_MASK) == 0);
        cf >>= LIMB_BITS;
        cg >>= LIMB_BITS;
        for (size_t i = 1; i < k; i++) {
                int64_t fi = f->v[i], gi = g->v[i];
                cf += (i128)t->u * fi + (i128)t->v * gi;
                cg += (i128)t->q * fi + (i128)t->r * gi;
                f->v[i - 1] = (int64_t)((uint64_t)cf & LIMB_MASK);
                g->v[i - 1] = (int64_t)((uint64_t)cg & LIMB_MASK);
                cf >>= LIMB_BITS;
                cg >>= LIMB_BITS;
        }
        f->v[k - 1] = (int64_t)cf;
        g->v[k - 1] = (int64_t)cg;
}

/*
 * [d; e] = ([[u, v], [q, r]] [d; e] + [kd; ke] m) / 2^62, with kd, ke in
 * [0, 2^62) chosen to make the division exact, so d and e stay congruent to
 * what they track modulo m. With |d|, |e| < m on entry the results lie in
 * (-m, 2m); one subtraction brings them back below m.
 */
static void apply_to_de(s62_t *d, s62_t *e, const transition_t *t, const s62_t *m,
                        uint64_t m_inv_62, size_t k) {
        uint64_t d0 = (uint64_t)d->v[0], e0 = (uint64_t)e->v[0];
        uint64_t low_d = (uint64_t)t->u * d0 + (uint64_t)t->v * e0;
        uint64_t low_e = (uint64_t)t->q * d0 + (uint64_t)t->r * e0;
        int64_t kd = (int64_t)((0 - low_d * m_inv_62) & LIMB_MASK);
        int64_t ke = (int64_t)((0 - low_e * m_inv_62) & LIMB_MASK);
        i128 cd = (i128)t->u * d->v[0] + (i128)t->v * e->v[0] + (i128)kd * m->v[0];
        i128 ce = (i128)t->q * d->v[0] + (i128)t->r * e->v[0] + (i128)ke * m->v[0];

        assert(((uint64_t)cd & LIMB_MASK) == 0 && ((uint64_t)ce & LIMB_MASK) == 0);
        cd >>= LIMB_BITS;
        ce >>= LIMB_BITS;
        for (size_t i = 1; i < k; i++) {
                int64_t di = d->v[i], ei = e->v[i];
                cd += (i128)t->u * di + (i128)t->v * ei + (i128)kd * m->v[i];
                ce += (i128)t->q * di + (i128)t->r * ei + (i128)ke * m->v[i];
                d->v[i - 1] = (int64_t)((uint64_t)cd & LIMB_MASK);
                e->v[i - 1] = (int64_t)((uint64_t)ce & LIMB_MASK);
                cd >>= LIMB_BITS;
                ce >>= LIMB_BITS;
        }
        d->v[k - 1] = (int64_t)cd;
        e->v[k - 1] = (int64_t)ce;
        if (s62_geq(d, m, k))
                s62_add_signed(d, d, m, -1, k);
        if (s62_geq(e, m, k))
                s62_add_signed(e, e, m, -1, k);
}

/* m^-1 mod 2^64 for odd m, by Newton's iteration (each step doubles the
 * number of correct bits; m * m = 1 mod 8 gives the first 3). */
static uint64_t inverse_mod_2_64(uint64_t m0) {
        uint64_t x = m0;
        for (int i = 0; i < 5; i++)
                x *= 2 - m0 * x;
        return x;
}

void modinv_var_time(uint64_t *r, const uint64_t *a, const uint64_t *m, size_t n) {
        size_t k = s62_limbs_for(n);
        s62_t f, g, d, e, ms;
        int64_t delta2 = 1;
        uint64_t m_inv_62;
        bool a_is_zero = true;

        assert(r && a && m);
        assert(n > 0 && n <= MODINV_MAX_LIMBS);
        assert(m[0] & 1);

        for (size_t i = 0; i < n; i++)
                a_is_zero = a_is_zero && a[i] == 0;
        if (a_is_zero) {
                memset(r, 0, n * sizeof(uint64_t));
                return;
        }

        m_inv_62 = inverse_mod_2_64(m[0]) & LIMB_MASK;
        s62_from_u64(&ms, m, n, k);
        f = ms;
        s62_from_u64(&g, a, n, k);
        memset(&d, 0, sizeof(d));
        memset(&e, 0, sizeof(e));
        e.v[0] = 1;

        while (!s62_is_zero(&g, k)) {
                transition_t t;
                delta2 = divsteps_62(delta2, low_word(&f), low_word(&g), &t);
                apply_to_fg(&f, &g, &t, k);
                apply_to_de(&d, &e, &t, &ms, m_inv_62, k);
        }

        /* f = +-1 because m is prime and a != 0 */
        if (s62_is_negative(&f, k))
                s62_negate(&d, &d, k);
        if (s62_is_negative(&d, k))
                s62_add_signed(&d, &d, &ms, 1, k);
        s62_to_u64(r, &d, n, k);
}

/* Toggles *negate when the Jacobi symbol (2 | x) of odd x is -1, that is
 * when x = 3 or 5 mod 8. */
static unsigned two_is_nonresidue(uint64_t x) {
        return (unsigned)((x ^ (x >> 1)) >> 1) & 1;
}

/*
 * 62 steps of the non-negative variant, tracking J in (a | m) = J (g | f):
 *   g even:            g/2,                  J *= (2 | f);
 *   g odd, delta > 0:  f, g = g, (g + f)/2,  J *= (-1)^((f-1)(g-1)/4) (2 | g),
 *                      by reciprocity (g | f) = +-(f | g) and
 *                      (f | g) = (f + g | g) = (2 | g) ((f + g)/2 | g);
 *   g odd, otherwise:  g = (g + f)/2,        J *= (2 | f).
 * *negate holds the parity of the number of -1 factors.
 */
static int64_t posdivsteps_62(int64_t delta2, uint64_t f, uint64_t g, transition_t *t,
                              unsigned *negate) {
        int64_t u = 1, v = 0, q = 0, r = 1;
        int left = LIMB_BITS;

        for (;;) {
                int zeros = ctz_capped(g, left);
                g >>= zeros;
                u *= (int64_t)1 << zeros;
                v *= (int64_t)1 << zeros;
                delta2 += 2 * zeros;
                left -= zeros;
                *negate ^= (unsigned)zeros & two_is_nonresidue(f);
                if (left == 0)
                        break;
                if (delta2 > 0) {
                        uint64_t old_f = f;
                        int64_t old_u = u, old_v = v;
                        *negate ^= (unsigned)((f & g) >> 1) & 1; /* both 3 mod 4 */
                        *negate ^= two_is_nonresidue(g);
                        delta2 = 2 - delta2;
                        f = g;
                        g = (g + old_f) >> 1;
                        u = 2 * q;
                        v = 2 * r;
                        q += old_u;
                        r += old_v;
                } else {
                        *negate ^= two_is_nonresidue(f);
                        delta2 = 2 + delta2;
                        g = (g + f) >> 1;
                        q += u;
                        r += v;
                        u *= 2;
                        v *= 2;
                }
                left--;
        }
        t->u = u;
        t->v = v;
        t->q = q;
        t->r = r;
        return delta2;
}

static bool s62_is_one(const s62_t *a, size_t k) {
        if (a->v[0] != 1)
                return false;
        for (size_t i = 1; i < k; i++)
                if (a->v[i])
                        return false;
        return true;
}

/*
 * (a | m) = J (g | f) holds throughout. The states f = 1 (with g = 0 or 1)
 * are where the steps settle, and there (g | 1) = 1, so J is the answer.
 * Typically 19 batches for 381 bits and 13 for 255.
 */
#define LEGENDRE_MAX_BATCHES 64

bool legendre_var_time(int *symbol, const uint64_t *a, const uint64_t *m, size_t n) {
        size_t k = s62_limbs_for(n);
        s62_t f, g;
        int64_t delta2 = 1;
        unsigned negate = 0;

        assert(symbol && a && m);
        assert(n > 0 && n <= MODINV_MAX_LIMBS);
        assert(m[0] & 1);

        s62_from_u64(&g, a, n, k);
        if (s62_is_zero(&g, k)) {
                *symbol = 0;
                return true;
        }
        s62_from_u64(&f, m, n, k);
        for (int batch = 0; batch < LEGENDRE_MAX_BATCHES; batch++) {
                transition_t t;
                delta2 = posdivsteps_62(delta2, low_word(&f), low_word(&g), &t, &negate);
                apply_to_fg(&f, &g, &t, k);
                if (s62_is_one(&f, k)) {
                        *symbol = negate ? -1 : 1;
                        return true;
                }
        }
        return false;
}
