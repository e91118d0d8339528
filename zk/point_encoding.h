/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Byte encodings of G1 and G2 points.
 *
 * POINT_FORMAT_COMPRESSED, POINT_FORMAT_UNCOMPRESSED: the zcash / IETF
 *   encodings (bellperson params, Filecoin proofs). Big-endian canonical x
 *   (then y); an Fp2 element is c1 then c0. The top three bits of the first
 *   byte are flags: 0x80 compressed, 0x40 infinity (all other bits zero),
 *   0x20 (compressed only) y is the lexicographically largest of +-y.
 * POINT_FORMAT_SNARKJS: snarkjs's in-file layout (.zkey): x then y, each as
 *   little-endian Montgomery bytes (R = 2^384); an Fp2 element is c0 then
 *   c1. Infinity is all zeros.
 *
 * Decoders check, in this order: length, flags, canonical coordinates,
 * on-curve, and (unless skipped) the order-r subgroup. They return 0 or a
 * negative zk_error_t (print it with zk_strerror()); r is untouched on error.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "g1.h"
#include "g2.h"
#include "zk_error.h"

#define G1_COMPRESSED_BYTES 48
#define G1_UNCOMPRESSED_BYTES 96
#define G1_SNARKJS_BYTES 96
#define G2_COMPRESSED_BYTES 96
#define G2_UNCOMPRESSED_BYTES 192
#define G2_SNARKJS_BYTES 192

typedef enum {
        POINT_FORMAT_COMPRESSED,
        POINT_FORMAT_UNCOMPRESSED,
        POINT_FORMAT_SNARKJS,
} point_format_t;

/* Decoding options (a bit mask). */
enum {
        /* For trusted input (e.g. large parameter files checked elsewhere). */
        POINT_DECODE_SKIP_SUBGROUP_CHECK = 1u << 0,
};

size_t g1_encoded_bytes(point_format_t format);
size_t g2_encoded_bytes(point_format_t format);

/* out_bytes must be g1_encoded_bytes(format). */
void g1_encode(uint8_t *out, size_t out_bytes, const g1_affine_t *p, point_format_t format);
void g2_encode(uint8_t *out, size_t out_bytes, const g2_affine_t *p, point_format_t format);

int g1_decode(g1_affine_t *r, const uint8_t *in, size_t in_bytes, point_format_t format,
              unsigned flags);
int g2_decode(g2_affine_t *r, const uint8_t *in, size_t in_bytes, point_format_t format,
              unsigned flags);
