/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A G1 point of a .params file (the zcash uncompressed encoding: x then y,
 * 48 bytes big-endian each, flags in the top three bits of x's first byte)
 * into zk/'s form (Montgomery, infinity as x = y = 0), written once for the
 * device (srs-decode.cu) and its emulation test. It accepts exactly what
 * zk/'s g1_decode(POINT_FORMAT_UNCOMPRESSED) accepts with
 * POINT_DECODE_SKIP_SUBGROUP_CHECK: the flags, canonical coordinates, the
 * curve equation; a refused point's reason comes from the host decoder.
 */
#pragma once

#include <stdint.h>

#include "curve.cuh"
#include "field.cuh"

namespace cuzk {

#define SRS_FLAG_COMPRESSED 0x80u
#define SRS_FLAG_INFINITY 0x40u
#define SRS_FLAG_Y_LARGEST 0x20u
#define SRS_VALUE_MASK 0x1fu
#define SRS_G1_BYTES 96

/* R^2 mod p (canonical limbs to Montgomery form in one product) and the
 * curve's b = 4 in Montgomery form; made on the host, passed by value. */
struct srs_decode_consts {
        fp_dev r2, b;
};

CUZK_HD srs_decode_consts srs_decode_consts_make() {
        srs_decode_consts k;
        /* one() holds R mod p; doubling it 384 times (mod p) gives R 2^384 = R^2. */
        k.r2 = fp_dev::one();
        for (int i = 0; i < 384; i++)
                k.r2 = k.r2.dbl();
        k.b = fp_dev::one().dbl().dbl();
        return k;
}

/* 48 big-endian bytes as little-endian limbs, the top byte masked. */
CUZK_HD fp_dev srs_fp_from_be(const uint8_t *in, uint32_t top_mask) {
        fp_dev r;
        CUZK_UNROLL
        for (int i = 0; i < fp_dev::N; i++) {
                const uint8_t *w = in + 4 * (fp_dev::N - 1 - i);
                const uint32_t b0 = i == fp_dev::N - 1 ? w[0] & top_mask : w[0];
                r.v[i] = (b0 << 24) | ((uint32_t)w[1] << 16) | ((uint32_t)w[2] << 8) | w[3];
        }
        return r;
}

/* Whether the limbs hold a value below p: the borrow out of t - p. */
CUZK_HD bool srs_fp_canonical(const fp_dev &t) {
        carry_chain c;
        (void)c.sub_cc(t.v[0], fp_params::modulus(0));
        CUZK_UNROLL
        for (int i = 1; i < fp_dev::N; i++)
                (void)c.subc_cc(t.v[i], fp_params::modulus(i));
        return c.subc(0, 0) != 0;
}

/* The point in `in` into *out; false where zk/'s decoder refuses it. */
CUZK_HD bool srs_g1_decode(const uint8_t *in, const srs_decode_consts &k, g1_affine_dev *out) {
        const uint32_t flags = in[0];
        uint32_t rest = 0;

        if (flags & (SRS_FLAG_COMPRESSED | SRS_FLAG_Y_LARGEST))
                return false;
        if (flags & SRS_FLAG_INFINITY) {
                rest = flags & SRS_VALUE_MASK;
                for (int i = 1; i < SRS_G1_BYTES; i++)
                        rest |= in[i];
                out->x = fp_dev::zero();
                out->y = fp_dev::zero();
                return rest == 0;
        }
        const fp_dev x = srs_fp_from_be(in, SRS_VALUE_MASK), y = srs_fp_from_be(in + 48, 0xffu);
        if (!srs_fp_canonical(x) || !srs_fp_canonical(y))
                return false;
        out->x = x * k.r2;
        out->y = y * k.r2;
        /* y^2 = x^3 + b; (0, 0) is not on it, so infinity stays unambiguous. */
        return out->y.sqr().equals(out->x.sqr() * out->x + k.b);
}

} // namespace cuzk
