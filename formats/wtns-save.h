/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Writes snarkjs witness files (.wtns version 2, the layout wtns.h reads and
 * snarkjs's wtns_utils.js writes): the "wtns" container with a header
 * section (n8 = 32, the prime r, the value count) and the values as
 * canonical little-endian field elements.
 */
#pragma once

#include <stdint.h>

#include "zk/fr.h"

/*
 * values: n_values Montgomery elements, values[0] the constant 1. Written
 * to a temporary file beside path, synced, then renamed to path. Returns 0
 * or a negative errno (logged, naming the file).
 */
int wtns_save(const char *path, const fr_t *values, uint32_t n_values);
