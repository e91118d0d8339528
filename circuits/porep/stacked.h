/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The StackedDRG PoRep circuit of one partition (storage-proofs-porep
 * stacked/circuit/proof.rs and params.rs; ../shared/POREP.md Part A §1,
 * Part B §8), row for row and variable for variable as the network's
 * parameter files fix it:
 *
 *   global: replica_id (input, then 256 bits), comm_d and comm_r (inputs),
 *           comm_r_last and comm_c, comm_r = Poseidon2(comm_c, comm_r_last)
 *   per challenge: data leaf in tree D; the 6 DRG and 8 expander parent
 *           columns hashed and opened in tree C; the challenge as UInt64
 *           input; each layer's label recomputed from its parents' bits;
 *           the encoding opened in tree R; the challenged column of labels
 *           hashed and opened in tree C
 *
 * Values come from a C1 output; a blank one of the same configuration
 * (c1_output_new) records the same rows, which is how the shape (the PCE)
 * of a sector size is made.
 */
#pragma once

#include "circuits/cs/cs.h"
#include "filecoin/c1/c1.h"

/*
 * Synthesises partition k of c1 into cs (any mode). Returns 0, -EINVAL (k
 * out of range, a value of c1 not below r, or a shape the gadgets do not
 * have: one line logged naming it), or cs's sticky error.
 */
int porep_circuit_synthesize(struct cs *cs, const struct c1_output *c1, unsigned k);

/*
 * The witness of partition k (CS_WITNESS), its challenges computed in
 * parallel (OpenMP): the same values porep_circuit_synthesize records.
 * Returns 0, -EINVAL or -ENOMEM; *ret is the caller's.
 */
int porep_circuit_witness(const struct c1_output *c1, unsigned k, struct cs **ret);

/*
 * Checks every row of partition k on c1's values as it is made (CS_VERIFY,
 * challenges in parallel), without a PCE: *ret_row is the first row, in the
 * partition's order, whose a·b != c, or UINT64_MAX when all hold. Memory: 32
 * bytes an aux variable of one challenge per thread (230 MB at 32 GiB).
 * Returns 0, -EINVAL or -ENOMEM.
 */
int porep_circuit_check(const struct c1_output *c1, unsigned k, uint64_t *ret_row);

/* The shape of cfg's circuit into cs (CS_SHAPE), from a blank C1. Returns 0,
 * -EINVAL or -ENOMEM. */
int porep_circuit_shape(struct cs *cs, const struct porep_config *cfg);
