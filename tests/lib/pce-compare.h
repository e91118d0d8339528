/* SPDX-License-Identifier: Apache-2.0 */
/* Comparing two PCEs field by field (the PCE tests' round trips). */
#pragma once

#include "circuits/pce.h"

/* Fails the test unless x and y hold the same circuit: counts, flags, the
 * three matrices (rows, columns, coefficient ids and values) and the
 * densities. */
void expect_same_pce(const struct pce *x, const struct pce *y);
