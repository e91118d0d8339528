/* SPDX-License-Identifier: Apache-2.0 */
/* What groth16_setup.c and groth16_setup_timing.c share; not for other callers. */
#pragma once

#include "groth16_setup.h"

/* Checks the circuit's sizes (and, with need_matrices, that A, B and C are
 * there and fit). Returns 0 or -EINVAL. */
int groth16_setup_check_circuit(const struct groth16_setup_circuit *circuit, bool need_matrices);

/* A key with its arrays allocated (not filled) and pk/vk pointing at them. */
int groth16_keys_alloc(const struct groth16_setup_circuit *circuit, struct groth16_keys **ret);

static inline void groth16_setup_progress(const struct groth16_setup_options *o,
                                          const char *stage) {
        if (o && o->progress)
                o->progress(stage, o->userdata);
}
