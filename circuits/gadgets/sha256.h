/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The SHA-256 gadget of bellperson 0.27 (sha256.rs): the message schedule
 * and the rounds with additions deferred into one addmany where the
 * reference defers them, one MultiEq per compression function, constant
 * padding. Bits are big-endian within each 32-bit word, as in the reference.
 */
#pragma once

#include <stddef.h>

#include "uint32.h"

/* The initial hash value as constant words. */
void cs_sha256_iv(struct cs_u32 iv[8]);

/* One compression of a 512-bit block: out = F(current, input). */
void cs_sha256_compression(struct cs *cs, const struct cs_bool input[512],
                           const struct cs_u32 current[8], struct cs_u32 out[8]);

/* The 256 digest bits of one 512-bit block from the IV, without padding. */
void cs_sha256_block_no_padding(struct cs *cs, const struct cs_bool input[512],
                                struct cs_bool out[256]);

/*
 * SHA-256 of n_bits message bits (a multiple of 8, bits of each byte most
 * significant first), padded with constant bits; out gets the digest bits
 * in the same order. Returns 0, -EINVAL (n_bits % 8 != 0) or -ENOMEM.
 */
int cs_sha256(struct cs *cs, const struct cs_bool *input, size_t n_bits, struct cs_bool out[256]);
