/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A deterministic generator of satisfiable R1CS instances shaped like
 * Filecoin's PoRep partition circuit (see /work/shared/TARGETS.md), for
 * benchmarks and tests at any size:
 *
 *   - per row about 2.37 terms in A, 1.00 in B and 2.17 in C;
 *   - 3 of 4 private (aux) wires hold 0 or 1;
 *   - about 25% of the aux wires appear in B, about 99.7% of all wires in A;
 *   - coefficients +-1 mostly, small powers of two and a few constants.
 *
 * Rows are gadget-like (XOR, AND, AND-NOT, choose, multiply, bit packing,
 * boolean checks); each defines one aux wire from wires defined earlier,
 * so the witness is computed together with the constraints. Rows are made
 * in blocks, in parallel within a block; everything is a function of the
 * seed and the sizes, so the result is the same for every thread count.
 */
#pragma once

#include <stdint.h>

#include "pce.h"
#include "zk/fr.h"

/* "Choose PoRep's proportions" for n_aux and n_public. */
#define SYNTHETIC_DEFAULT UINT32_MAX
/* PoRep's partition circuit has 327 public inputs besides the constant. */
#define SYNTHETIC_POREP_PUBLIC 327u

struct synthetic_params {
        uint64_t seed;
        /* All rows, the n_public + 1 input rows included: a domain of 2^k
         * is filled to PoRep's level with 2^k - 2^k / 128 rows. */
        uint32_t n_rows;
        /* Private wires; default: the constraint rows less 1/1024 of them
         * (PoRep has slightly fewer aux wires than rows). */
        uint32_t n_aux;
        /* Public inputs, not counting the constant; default: PoRep's 327, at
         * most n_rows / 1024. */
        uint32_t n_public;
};

/* Fills in the defaults. Returns 0, or -EINVAL when the sizes leave no
 * constraint row, no aux wire, or more than 2^32 - 1 wires. */
int synthetic_params_resolve(struct synthetic_params *p);

/*
 * Generates the circuit (a PCE with PCE_INPUT_ROWS) and its witness:
 * pce->n_cols Montgomery values, w[0] = 1, then the public inputs and the
 * aux wires; every row holds, a o b = c. Returns 0, -EINVAL (as
 * synthetic_params_resolve) or -ENOMEM.
 */
int synthetic_generate(const struct synthetic_params *params, struct pce **ret_pce,
                       fr_t **ret_witness);
