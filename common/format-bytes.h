/* SPDX-License-Identifier: Apache-2.0 */
/* Byte counts for people: "512 B", "1.5 KiB", "123.0 GiB". */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* Writes bytes into buffer in the largest binary unit (B to PiB) under which it stays
 * >= 1, with one decimal (whole bytes below 1 KiB). */
void format_bytes(char *buffer, size_t size, uint64_t bytes);
