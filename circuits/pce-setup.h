/* SPDX-License-Identifier: Apache-2.0 */
/* A Groth16 key for the circuit a PCE describes (groth16_setup on its matrices). */
#pragma once

#include "circuits/pce.h"
#include "formats/bellperson_params.h"
#include "zk/groth16_setup.h"

/*
 * Expands pce's matrices, runs groth16_setup (bellperson's convention) on them
 * with tw and options (NULL: the defaults), and frees them again. Returns 0 or
 * negative errno (-ENOMEM, groth16_setup's errors).
 */
int pce_groth16_setup(const struct pce *pce, const struct groth16_toxic_waste *tw,
                      const struct groth16_setup_options *options, struct groth16_keys **ret);

/*
 * The densities of pce that p needs for bellperson_params_to_pk: A's where
 * a holds fewer points than wires, B's where b_g1 or b_g2 does (bellperson's
 * layout), NULL otherwise. -EINVAL when p has another number of wires than
 * pce (not its key), -ENOMEM.
 */
int pce_params_densities(const struct pce *pce, const struct bellperson_params *p,
                         struct wire_density **ret_a, struct wire_density **ret_b);
