/* SPDX-License-Identifier: Apache-2.0 */
#include "point_encoding.h"

#include <assert.h>
#include <stdbool.h>
#include <string.h>

#define ZCASH_FLAG_COMPRESSED 0x80
#define ZCASH_FLAG_INFINITY 0x40
#define ZCASH_FLAG_Y_LARGEST 0x20
#define ZCASH_VALUE_MASK 0x1f

#define ZCASH_IS_INFINITY 1

static bool all_zero(const uint8_t *in, size_t n) {
        uint8_t acc = 0;

        for (size_t i = 0; i < n; i++)
                acc |= in[i];
        return acc == 0;
}

/*
 * The flag rules shared by G1 and G2 (the flags sit in the first byte
 * either way): returns ZCASH_IS_INFINITY for a well-formed infinity, 0 for a
 * point to parse, or a negative zk_error_t.
 */
static int zcash_check_flags(const uint8_t *in, size_t in_bytes, bool compressed) {
        bool c = in[0] & ZCASH_FLAG_COMPRESSED, i = in[0] & ZCASH_FLAG_INFINITY,
             s = in[0] & ZCASH_FLAG_Y_LARGEST;

        if (c != compressed)
                return -ZK_E_BAD_FLAGS;
        /* the sign flag means nothing for infinity nor without compression */
        if (s && (i || !compressed))
                return -ZK_E_BAD_FLAGS;
        if (!i)
                return 0;
        if ((in[0] & ZCASH_VALUE_MASK) || !all_zero(in + 1, in_bytes - 1))
                return -ZK_E_INFINITY_NOT_ZERO;
        return ZCASH_IS_INFINITY;
}

/* Fp2 in the zcash order (c1 then c0) and the snarkjs order (c0 then c1). */
static bool fp2_from_be_bytes_c1_c0(fp2_t *r, const uint8_t in[2 * FP_BYTES]) {
        fp2_t t;

        if (!fp_from_be_bytes(&t.c1, in) || !fp_from_be_bytes(&t.c0, in + FP_BYTES))
                return false;
        *r = t;
        return true;
}

static void fp2_to_be_bytes_c1_c0(uint8_t out[2 * FP_BYTES], const fp2_t *a) {
        fp_to_be_bytes(out, &a->c1);
        fp_to_be_bytes(out + FP_BYTES, &a->c0);
}

static bool fp2_from_mont_le_bytes_c0_c1(fp2_t *r, const uint8_t in[2 * FP_BYTES]) {
        fp2_t t;

        if (!fp_from_mont_le_bytes(&t.c0, in) || !fp_from_mont_le_bytes(&t.c1, in + FP_BYTES))
                return false;
        *r = t;
        return true;
}

static void fp2_to_mont_le_bytes_c0_c1(uint8_t out[2 * FP_BYTES], const fp2_t *a) {
        fp_to_mont_le_bytes(out, &a->c0);
        fp_to_mont_le_bytes(out + FP_BYTES, &a->c1);
}

#define PE(name) g1_##name
#define PE_AFFINE_T g1_affine_t
#define PE_FE_T fp_t
#define PE_FE_BYTES FP_BYTES
#define PE_FE_FROM_BE fp_from_be_bytes
#define PE_FE_TO_BE fp_to_be_bytes
#define PE_FE_FROM_MONT_LE fp_from_mont_le_bytes
#define PE_FE_TO_MONT_LE fp_to_mont_le_bytes
#define PE_FE_IS_LARGEST fp_is_lexicographically_largest
#include "point_encoding_impl.h"
#undef PE
#undef PE_AFFINE_T
#undef PE_FE_T
#undef PE_FE_BYTES
#undef PE_FE_FROM_BE
#undef PE_FE_TO_BE
#undef PE_FE_FROM_MONT_LE
#undef PE_FE_TO_MONT_LE
#undef PE_FE_IS_LARGEST

#define PE(name) g2_##name
#define PE_AFFINE_T g2_affine_t
#define PE_FE_T fp2_t
#define PE_FE_BYTES (2 * FP_BYTES)
#define PE_FE_FROM_BE fp2_from_be_bytes_c1_c0
#define PE_FE_TO_BE fp2_to_be_bytes_c1_c0
#define PE_FE_FROM_MONT_LE fp2_from_mont_le_bytes_c0_c1
#define PE_FE_TO_MONT_LE fp2_to_mont_le_bytes_c0_c1
#define PE_FE_IS_LARGEST fp2_is_lexicographically_largest
#include "point_encoding_impl.h"
