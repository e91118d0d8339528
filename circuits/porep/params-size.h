/* SPDX-License-Identifier: Apache-2.0 */
/*
 * How many bytes a PoRep circuit's Groth16 parameter file (.params, in
 * bellperson's layout) has: what a missing or truncated file is named with,
 * before anything is synthesised. The size follows from five counts of the
 * circuit (its domain, aux variables, public inputs and the A and B
 * densities), recorded here per sector size and checked in
 * test-params-size.c against the synthesised circuits and POREP.md's
 * published 32 GiB counts.
 */
#pragma once

#include <stdint.h>

#include "circuits/pce.h"
#include "filecoin/porep/registered-proof.h"

struct groth16_circuit_counts {
        unsigned log_domain;      /* h has 2^log_domain - 1 points */
        uint64_t inputs;          /* public inputs, the constant one included */
        uint64_t aux;             /* private variables: l's points */
        uint64_t a_aux;           /* aux variables in A (a has every input too) */
        uint64_t b_inputs, b_aux; /* inputs and aux variables in B (b_g1, b_g2) */
};

/* The .params bytes of a circuit of these counts (formats/bellperson_params.h). */
uint64_t groth16_circuit_params_bytes(const struct groth16_circuit_counts *counts);

/* The counts of a synthesised circuit's PCE (its density bitmaps). */
void groth16_circuit_counts_of_pce(const struct pce *pce, struct groth16_circuit_counts *ret);

/* The recorded counts of cfg's circuit: 0, or -EOPNOTSUPP for a kind whose
 * circuit is not recorded (non-interactive PoRep). */
int porep_circuit_counts(const struct porep_config *cfg, struct groth16_circuit_counts *ret);
