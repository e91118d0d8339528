/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A matrix's table of distinct coefficients while it is built (from a
 * sparse matrix, or recorded by circuits/cs): values in order of first
 * appearance, found again through an open-addressing hash index.
 */
#pragma once

#include <stdint.h>

#include "zk/fr.h"

struct pce_coeff_table {
        fr_t *values;
        uint32_t n_values, capacity;
        uint32_t *slots; /* index + 1 into values, 0 = empty */
        uint64_t n_slots;
};

void pce_coeff_table_done(struct pce_coeff_table *t);

/* The id of v, added to the table when new. Returns 0, -ENOMEM, or -E2BIG
 * when more than 2^32 - 1 distinct values would be needed. */
int pce_coeff_table_intern(struct pce_coeff_table *t, const fr_t *v, uint32_t *ret_id);
