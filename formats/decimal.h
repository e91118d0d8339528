/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Decimal strings <-> multi-limb integers (64-bit limbs, little-endian limb
 * order), the number format of snarkjs's JSON files.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Enough for any n-limb value: 64 * n * log10(2) < 20 * n digits, plus NUL. */
#define DECIMAL_BUFFER_SIZE(n_limbs) (20 * (n_limbs) + 1)

/* Parses a non-empty string of ASCII digits; false if anything else or the
 * value does not fit in n limbs. */
bool decimal_to_limbs(uint64_t *limbs, size_t n, const char *s);

/* Writes the value in decimal (no leading zeros) into buf of at least
 * DECIMAL_BUFFER_SIZE(n) bytes. */
void decimal_from_limbs(char *buf, const uint64_t *limbs, size_t n);
