/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A proving key in bellperson's layout: its A, B_G1 and B_G2 arrays keep
 * the points of the wires that A (B) uses and drop the others, which are
 * the point at infinity (zk/density.h). That is what bellperson's
 * generator writes and Filecoin's parameters hold; B shrinks to the
 * quarter of PoRep's wires that B uses.
 */
#pragma once

#include "density.h"
#include "groth16.h"

/* The packed arrays a key made by groth16_pk_pack borrows. */
struct groth16_packed_arrays {
        g1_affine_t *a, *b1;
        g2_affine_t *b2;
};

void groth16_packed_arrays_free(struct groth16_packed_arrays *arrays);

/*
 * *ret: pk (one point per wire, no density) with a, b1 and b2 packed to
 * the wires of a_density and b_density, which it borrows, as it borrows
 * pk's other arrays. Returns 0, -EINVAL when a density covers another
 * number of wires or a wire it leaves out has a point other than infinity
 * (a density of another circuit), or -ENOMEM.
 */
int groth16_pk_pack(const struct groth16_pk *pk, const struct wire_density *a_density,
                    const struct wire_density *b_density, struct groth16_packed_arrays *arrays,
                    struct groth16_pk *ret);
