/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The functions of fp.h and fr.h, written once. Included by fp.c and fr.c
 * after defining:
 *   PF(name)      prefixed name, e.g. fp_##name
 *   PF_T          the element type
 *   PF_LIMBS      limb count
 *   PF_MODULUS    canonical modulus limbs
 *   PF_ONE        R mod m (Montgomery one)
 *   PF_R2         R^2 mod m
 *   PF_R3         R^3 mod m (turns a plain inverse of aR into a^-1 R)
 *   PF_N0         -m^-1 mod 2^64
 *   PF_MUL_FAST   optional: (r, a, b) limb pointers, a faster Montgomery
 *                 product used when mont_use_asm() is true
 *   PF_SQR_FAST   optional: (r, a), a dedicated squaring, same condition
 */
#include "modinv.h"
#include "mont.h"
#include "mont_x86_64.h"

#include <assert.h>

/* Out of line so that the fast path of PF(mul) stays a flag test and a tail
 * call, without the portable code's register saves in front of it. */
static __attribute__((noinline)) void pf_mont_mul_portable(uint64_t *r, const uint64_t *a,
                                                           const uint64_t *b) {
        mont_mul(r, a, b, PF_MODULUS, PF_N0, PF_LIMBS);
}

/* The Montgomery product on limbs; everything in this file multiplies
 * through here or through PF(sqr). */
static inline void pf_mont_mul(uint64_t *r, const uint64_t *a, const uint64_t *b) {
#ifdef PF_MUL_FAST
        if (mont_use_asm()) {
                PF_MUL_FAST(r, a, b);
                return;
        }
#endif
        pf_mont_mul_portable(r, a, b);
}

void PF(set_zero)(PF_T *r) {
        memset(r, 0, sizeof(*r));
}

void PF(set_one)(PF_T *r) {
        memcpy(r->l, PF_ONE, sizeof(r->l));
}

bool PF(is_zero)(const PF_T *a) {
        return mont_is_zero(a->l, PF_LIMBS);
}

bool PF(is_one)(const PF_T *a) {
        return mont_equal(a->l, PF_ONE, PF_LIMBS);
}

bool PF(equal)(const PF_T *a, const PF_T *b) {
        return mont_equal(a->l, b->l, PF_LIMBS);
}

void PF(add)(PF_T *r, const PF_T *a, const PF_T *b) {
#ifdef PF_ADD_FAST
        if (mont_use_asm()) {
                PF_ADD_FAST(r->l, a->l, b->l);
                return;
        }
#endif
        mont_add(r->l, a->l, b->l, PF_MODULUS, PF_LIMBS);
}

void PF(sub)(PF_T *r, const PF_T *a, const PF_T *b) {
#ifdef PF_SUB_FAST
        if (mont_use_asm()) {
                PF_SUB_FAST(r->l, a->l, b->l);
                return;
        }
#endif
        mont_sub(r->l, a->l, b->l, PF_MODULUS, PF_LIMBS);
}

void PF(neg)(PF_T *r, const PF_T *a) {
#ifdef PF_SUB_FAST
        static const uint64_t zero[PF_LIMBS];
        if (mont_use_asm()) {
                PF_SUB_FAST(r->l, zero, a->l);
                return;
        }
#endif
        mont_neg(r->l, a->l, PF_MODULUS, PF_LIMBS);
}

void PF(dbl)(PF_T *r, const PF_T *a) {
        PF(add)(r, a, a);
}

void PF(mul)(PF_T *r, const PF_T *a, const PF_T *b) {
        pf_mont_mul(r->l, a->l, b->l);
}

void PF(sqr)(PF_T *r, const PF_T *a) {
#ifdef PF_SQR_FAST
        if (mont_use_asm()) {
                PF_SQR_FAST(r->l, a->l);
                return;
        }
#endif
        pf_mont_mul_portable(r->l, a->l, a->l);
}

void PF(from_u64)(PF_T *r, uint64_t v) {
        PF_T t = {{v}};

        /* v < 2^64 < m, so t is a reduced operand as the fast path requires */
        pf_mont_mul(r->l, t.l, PF_R2);
}

bool PF(from_canonical)(PF_T *r, const uint64_t a[PF_LIMBS]) {
        if (mont_geq(a, PF_MODULUS, PF_LIMBS))
                return false;
        pf_mont_mul(r->l, a, PF_R2);
        return true;
}

void PF(to_canonical)(uint64_t r[PF_LIMBS], const PF_T *a) {
        static const uint64_t one[PF_LIMBS] = {1};
        pf_mont_mul(r, a->l, one);
}

#define POW_NAME PF(pow)
#define POW_T PF_T
#define POW_SET_ONE PF(set_one)
#define POW_MUL PF(mul)
#define POW_SQR PF(sqr)
#include "pow_impl.h"

/*
 * The element holds aR; modinv_var_time gives (aR)^-1 as a plain integer,
 * and one Montgomery product with R^3 turns it into a^-1 R.
 */
void PF(inv)(PF_T *r, const PF_T *a) {
        uint64_t plain_inverse[PF_LIMBS];

        assert(r && a);
        modinv_var_time(plain_inverse, a->l, PF_MODULUS, PF_LIMBS);
        pf_mont_mul(r->l, plain_inverse, PF_R3);
}

/*
 * By binary GCD steps on the stored form a R: R = 2^(64n) is a square, so
 * (aR | m) = (a | m). Euler's criterion a^((m-1)/2) is the fallback should
 * the steps not settle (see legendre_var_time).
 */
int PF(legendre)(const PF_T *a) {
        uint64_t e[PF_LIMBS];
        int symbol;
        PF_T t;

        assert(a);
        if (legendre_var_time(&symbol, a->l, PF_MODULUS, PF_LIMBS))
                return symbol;
        if (PF(is_zero)(a))
                return 0;
        memcpy(e, PF_MODULUS, sizeof(e));
        for (size_t i = 0; i < PF_LIMBS; i++) /* (m-1)/2 = m >> 1 for odd m */
                e[i] = (e[i] >> 1) | (i + 1 < PF_LIMBS ? e[i + 1] << 63 : 0);
        PF(pow)(&t, a, e, PF_LIMBS);
        return PF(is_one)(&t) ? 1 : -1;
}

bool PF(from_be_bytes)(PF_T *r, const uint8_t in[PF_LIMBS * 8]) {
        uint64_t l[PF_LIMBS];
        mont_limbs_from_be(l, in, PF_LIMBS);
        return PF(from_canonical)(r, l);
}

void PF(to_be_bytes)(uint8_t out[PF_LIMBS * 8], const PF_T *a) {
        uint64_t l[PF_LIMBS];
        PF(to_canonical)(l, a);
        mont_limbs_to_be(out, l, PF_LIMBS);
}

bool PF(from_le_bytes)(PF_T *r, const uint8_t in[PF_LIMBS * 8]) {
        uint64_t l[PF_LIMBS];
        mont_limbs_from_le(l, in, PF_LIMBS);
        return PF(from_canonical)(r, l);
}

void PF(to_le_bytes)(uint8_t out[PF_LIMBS * 8], const PF_T *a) {
        uint64_t l[PF_LIMBS];
        PF(to_canonical)(l, a);
        mont_limbs_to_le(out, l, PF_LIMBS);
}

bool PF(from_mont_le_bytes)(PF_T *r, const uint8_t in[PF_LIMBS * 8]) {
        uint64_t l[PF_LIMBS];
        mont_limbs_from_le(l, in, PF_LIMBS);
        if (mont_geq(l, PF_MODULUS, PF_LIMBS))
                return false;
        memcpy(r->l, l, sizeof(l));
        return true;
}

void PF(to_mont_le_bytes)(uint8_t out[PF_LIMBS * 8], const PF_T *a) {
        mont_limbs_to_le(out, a->l, PF_LIMBS);
}

bool PF(is_lexicographically_largest)(const PF_T *a) {
        uint64_t l[PF_LIMBS], half[PF_LIMBS];

        PF(to_canonical)(l, a);
        for (size_t i = 0; i < PF_LIMBS; i++)
                half[i] = (PF_MODULUS[i] >> 1) | (i + 1 < PF_LIMBS ? PF_MODULUS[i + 1] << 63 : 0);
        /* l > (m-1)/2 */
        return !mont_geq(half, l, PF_LIMBS);
}
