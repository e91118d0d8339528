/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The native vanilla-proof verifier: everything rust-fil-proofs'
 * verify_all_partitions checks (proof_scheme.rs, params.rs Proof::verify),
 * and the facts it leaves implicit, so that a C1 this accepts gives a
 * satisfiable StackedCircuit:
 *
 *   - comm_r = Poseidon2(comm_c, comm_r_last), the same comm_c and
 *     comm_r_last in every proof;
 *   - the challenges of each partition from replica_id, seed (and comm_r);
 *   - tree D: the data leaf's path leads to comm_d at the challenge;
 *   - tree C: the challenged column and the 6 DRG and 8 expander parents'
 *     columns hash to their leaves, whose paths lead to comm_c at the graph's
 *     parents (and the column's index names that node);
 *   - every label: the labeling proof of layer l hashes to row l of the
 *     challenged column, its node and layer are the challenge's, and its
 *     parents are the parents' column rows (DRG at l, expander at l - 1);
 *   - the encoding: the last layer's key plus the data leaf is tree R's leaf,
 *     whose path leads to comm_r_last at the challenge.
 */
#pragma once

#include "filecoin/c1/c1.h"

/* Returns 0 when every check holds, -EBADMSG after logging one line that names
 * the first failing place ("what: vanilla_proofs[k][i].field: reason"), or
 * another negative errno (-ENOMEM). */
int vanilla_verify(const struct c1_output *c1, const char *what);
