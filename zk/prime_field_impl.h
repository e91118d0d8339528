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
 *   PF_N0         -m^-1 mod 2^64
 *   PF_MUL_FAST   optional: a function (r, a, b) used for mul and sqr when
 *                 pf_use_fast is true
 */
#include "mont.h"

#include <assert.h>

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
        mont_add(r->l, a->l, b->l, PF_MODULUS, PF_LIMBS);
}

void PF(sub)(PF_T *r, const PF_T *a, const PF_T *b) {
        mont_sub(r->l, a->l, b->l, PF_MODULUS, PF_LIMBS);
}

void PF(neg)(PF_T *r, const PF_T *a) {
        mont_neg(r->l, a->l, PF_MODULUS, PF_LIMBS);
}

void PF(dbl)(PF_T *r, const PF_T *a) {
        mont_add(r->l, a->l, a->l, PF_MODULUS, PF_LIMBS);
}

void PF(mul)(PF_T *r, const PF_T *a, const PF_T *b) {
#ifdef PF_MUL_FAST
        if (PF_USE_FAST) {
                PF_MUL_FAST(r->l, a->l, b->l);
                return;
        }
#endif
        mont_mul(r->l, a->l, b->l, PF_MODULUS, PF_N0, PF_LIMBS);
}

void PF(sqr)(PF_T *r, const PF_T *a) {
        PF(mul)(r, a, a);
}

void PF(from_u64)(PF_T *r, uint64_t v) {
        PF_T t = {{v}};
        mont_mul(r->l, t.l, PF_R2, PF_MODULUS, PF_N0, PF_LIMBS);
}

bool PF(from_canonical)(PF_T *r, const uint64_t a[PF_LIMBS]) {
        if (mont_geq(a, PF_MODULUS, PF_LIMBS))
                return false;
        mont_mul(r->l, a, PF_R2, PF_MODULUS, PF_N0, PF_LIMBS);
        return true;
}

void PF(to_canonical)(uint64_t r[PF_LIMBS], const PF_T *a) {
        static const uint64_t one[PF_LIMBS] = {1};
        mont_mul(r, a->l, one, PF_MODULUS, PF_N0, PF_LIMBS);
}

void PF(pow)(PF_T *r, const PF_T *a, const uint64_t *e, size_t n) {
        PF_T acc, base = *a;

        PF(set_one)(&acc);
        for (size_t i = n; i-- > 0;)
                for (int bit = 63; bit >= 0; bit--) {
                        PF(sqr)(&acc, &acc);
                        if ((e[i] >> bit) & 1)
                                PF(mul)(&acc, &acc, &base);
                }
        *r = acc;
}

/* Fermat: a^(m-2). */
void PF(inv)(PF_T *r, const PF_T *a) {
        uint64_t e[PF_LIMBS];
        static const uint64_t two[PF_LIMBS] = {2};

        mont_sub_raw(e, PF_MODULUS, two, PF_LIMBS);
        PF(pow)(r, a, e, PF_LIMBS);
}

/* Euler's criterion: a^((m-1)/2). */
int PF(legendre)(const PF_T *a) {
        uint64_t e[PF_LIMBS];
        PF_T t;

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
