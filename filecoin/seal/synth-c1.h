/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A synthetic C1 output for sector sizes too big to seal here (32 GiB,
 * 64 GiB): the sector is all zeros (a committed-capacity sector, so tree D
 * is the zero tree and comm_d the published zero comm_d), every label the
 * proofs do not check is a value derived from a key, every challenged label
 * is computed from its parents' columns as sealing would, and trees C and R
 * are sparse trees (sparse-tree.h) over the opened columns and replica
 * nodes. Every path leads to its one root and the native verifier accepts
 * it, so the full-size circuit can be driven and benchmarked; it is not a
 * sealed sector, and the C1 says so (synthetic_c1, written as
 * "cuzk_synthetic_c1":true).
 *
 * Interactive challenges only: the synthetic and non-interactive kinds
 * derive challenges from comm_r, which here depends on the opened nodes.
 */
#pragma once

#include <stdint.h>

#include "filecoin/c1/c1.h"
#include "filecoin/porep/registered-proof.h"

struct synth_c1_inputs {
        const struct porep_config *cfg;
        uint8_t prover_id[32];
        uint64_t sector_id;
        uint8_t ticket[32], seed[32];
        uint8_t key[32]; /* derives the labels nobody checks and the trees' fillers */
};

/* Returns 0, -EOPNOTSUPP for a registered proof whose challenges are not
 * interactive, or -ENOMEM. */
int synth_c1_create(const struct synth_c1_inputs *in, struct c1_output **ret);
