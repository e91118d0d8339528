/* SPDX-License-Identifier: Apache-2.0 */
/*
 * g1_/g2_ encode and decode, written once. Included by point_encoding.c
 * (once per group) after defining:
 *   PE(name)              prefixed name, e.g. g1_##name
 *   PE_AFFINE_T, PE_FE_T  the affine point and field element types
 *   PE_FE_BYTES           bytes of one field element (48 or 96)
 *   PE_FE_FROM_BE, PE_FE_TO_BE             zcash big-endian element bytes
 *   PE_FE_FROM_MONT_LE, PE_FE_TO_MONT_LE   snarkjs Montgomery element bytes
 *   PE_FE_IS_LARGEST      the zcash sign of an element
 * and the byte-level helpers above the first inclusion.
 */

size_t PE(encoded_bytes)(point_format_t format) {
        switch (format) {
        case POINT_FORMAT_COMPRESSED:
                return PE_FE_BYTES;
        case POINT_FORMAT_UNCOMPRESSED:
        case POINT_FORMAT_SNARKJS:
                return 2 * PE_FE_BYTES;
        }
        assert(!"unknown point format");
        return 0;
}

void PE(encode)(uint8_t *out, size_t out_bytes, const PE_AFFINE_T *p, point_format_t format) {
        assert(out && p);
        assert(out_bytes == PE(encoded_bytes)(format));

        memset(out, 0, out_bytes);
        if (PE(affine_is_infinity)(p)) {
                if (format == POINT_FORMAT_COMPRESSED)
                        out[0] = ZCASH_FLAG_COMPRESSED | ZCASH_FLAG_INFINITY;
                else if (format == POINT_FORMAT_UNCOMPRESSED)
                        out[0] = ZCASH_FLAG_INFINITY;
                return;
        }
        switch (format) {
        case POINT_FORMAT_COMPRESSED:
                PE_FE_TO_BE(out, &p->x);
                out[0] |= ZCASH_FLAG_COMPRESSED;
                if (PE_FE_IS_LARGEST(&p->y))
                        out[0] |= ZCASH_FLAG_Y_LARGEST;
                break;
        case POINT_FORMAT_UNCOMPRESSED:
                PE_FE_TO_BE(out, &p->x);
                PE_FE_TO_BE(out + PE_FE_BYTES, &p->y);
                break;
        case POINT_FORMAT_SNARKJS:
                PE_FE_TO_MONT_LE(out, &p->x);
                PE_FE_TO_MONT_LE(out + PE_FE_BYTES, &p->y);
                break;
        }
}

/* The checks every format ends with; (0, 0) here is an encoded point that
 * did not say "infinity", and it is not on the curve. */
static int PE(check_point)(const PE_AFFINE_T *p, unsigned flags) {
        if (PE(affine_is_infinity)(p) || !PE(affine_is_on_curve)(p))
                return -ZK_E_NOT_ON_CURVE;
        if (!(flags & POINT_DECODE_SKIP_SUBGROUP_CHECK) && !PE(affine_in_subgroup)(p))
                return -ZK_E_NOT_IN_SUBGROUP;
        return 0;
}

static int PE(decode_zcash)(PE_AFFINE_T *r, const uint8_t *in, size_t in_bytes, bool compressed,
                            unsigned flags) {
        uint8_t x_bytes[PE_FE_BYTES];
        PE_AFFINE_T p;
        int k;

        k = zcash_check_flags(in, in_bytes, compressed);
        if (k < 0)
                return k;
        if (k == ZCASH_IS_INFINITY) {
                PE(affine_set_infinity)(r);
                return 0;
        }
        memcpy(x_bytes, in, PE_FE_BYTES);
        x_bytes[0] &= ZCASH_VALUE_MASK;
        if (!PE_FE_FROM_BE(&p.x, x_bytes))
                return -ZK_E_NOT_CANONICAL;
        if (compressed) {
                if (!PE(affine_from_x)(&p, &p.x, in[0] & ZCASH_FLAG_Y_LARGEST))
                        return -ZK_E_NOT_ON_CURVE;
        } else if (!PE_FE_FROM_BE(&p.y, in + PE_FE_BYTES))
                return -ZK_E_NOT_CANONICAL;
        k = PE(check_point)(&p, flags);
        if (k < 0)
                return k;
        *r = p;
        return 0;
}

static int PE(decode_snarkjs)(PE_AFFINE_T *r, const uint8_t *in, unsigned flags) {
        PE_AFFINE_T p;
        int k;

        if (all_zero(in, 2 * PE_FE_BYTES)) {
                PE(affine_set_infinity)(r);
                return 0;
        }
        if (!PE_FE_FROM_MONT_LE(&p.x, in) || !PE_FE_FROM_MONT_LE(&p.y, in + PE_FE_BYTES))
                return -ZK_E_NOT_CANONICAL;
        k = PE(check_point)(&p, flags);
        if (k < 0)
                return k;
        *r = p;
        return 0;
}

int PE(decode)(PE_AFFINE_T *r, const uint8_t *in, size_t in_bytes, point_format_t format,
               unsigned flags) {
        assert(r);
        assert(in || in_bytes == 0);

        if (in_bytes != PE(encoded_bytes)(format))
                return -ZK_E_WRONG_LENGTH;
        switch (format) {
        case POINT_FORMAT_COMPRESSED:
                return PE(decode_zcash)(r, in, in_bytes, true, flags);
        case POINT_FORMAT_UNCOMPRESSED:
                return PE(decode_zcash)(r, in, in_bytes, false, flags);
        case POINT_FORMAT_SNARKJS:
                return PE(decode_snarkjs)(r, in, flags);
        }
        return -ZK_E_WRONG_LENGTH;
}
