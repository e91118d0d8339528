/* SPDX-License-Identifier: Apache-2.0 */
/* Hex digits to bytes: the one decoder cuzk's command lines and wire code share. */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* The value of one hex digit (0-9, a-f, A-F), or -EINVAL for anything else. */
int hex_digit_value(char c);

/* hex past an optional "0x" or "0X". */
const char *hex_skip_prefix(const char *hex);

/*
 * Decodes the 2 * n_bytes hex digits at hex (no prefix) into out. Returns 0,
 * or -EINVAL when a pair is not two hex digits; then *ret_bad_offset (when
 * given) is that pair's offset in hex, so a caller can name it ('%.2s').
 */
int hex_decode(const char *hex, size_t n_bytes, uint8_t *out, size_t *ret_bad_offset);

/*
 * Decodes a whole string, with an optional 0x/0X prefix, into a new buffer
 * (never NULL, even for ""). Returns 0, -EINVAL for an odd number of digits
 * or a non-hex one, -ENOMEM.
 */
int hex_decode_alloc(const char *hex, uint8_t **ret, size_t *ret_length);
