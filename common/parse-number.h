/* SPDX-License-Identifier: Apache-2.0 */
/* Unsigned numbers from command lines and configuration files, strictly. */
#pragma once

#include <stdint.h>

/*
 * Parses all of value as an unsigned number in base (10, 16, or 0 for
 * strtoull's 0x/0 prefixes) within min..max. Unlike strtoull() alone it
 * refuses leading blanks and a sign (a "-1" would wrap), and trailing text.
 * Returns 0, -EINVAL for no number or text around it, -ERANGE for a number
 * out of range. Prints nothing: each caller says what it expected.
 */
int parse_unsigned_range(const char *value, uint64_t min, uint64_t max, int base, uint64_t *ret);
