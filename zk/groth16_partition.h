/* SPDX-License-Identifier: Apache-2.0 */
/*
 * One partition's proof, stage by stage with each buffer released as soon
 * as it is used up, so that its peak is what groth16_partition_bytes()
 * (groth16_memory.h) says:
 *
 *   a, b, c   mapped, filled by the evaluator (sparse matrices, PCE)
 *   H         groth16_compute_h() on the domain; b, c and the domain unmapped
 *   MSMs      groth16_msm_g1() and groth16_msm_b_g2(), a holding H's scalars
 *   proof     groth16_assemble() with fresh r, s
 *
 * The evaluations are separate anonymous mappings, not heap blocks, so that
 * they go back to the kernel the moment they are released.
 */
#pragma once

#include <stddef.h>

#include "groth16.h"
#include "groth16_memory.h"

/*
 * Fills a, b and c (2^log_domain_size elements each) with A w, B w, C w
 * (zero beyond the constraint rows). Returns 0 or a negative errno.
 */
typedef int (*groth16_evaluate_fn)(void *userdata, const fr_t *w, size_t n_vars,
                                   unsigned log_domain_size, fr_t *a, fr_t *b, fr_t *c);

/* groth16_evaluate() as an evaluator; userdata is a struct groth16_constraints. */
int groth16_evaluate_constraints(void *userdata, const fr_t *w, size_t n_vars,
                                 unsigned log_domain_size, fr_t *a, fr_t *b, fr_t *c);

/* Proves w (pk->n_vars values). Returns 0, -ENOMEM, or the evaluator's,
 * the domain's or getrandom's error. threads: 0 for zk_thread_count(). */
int groth16_prove_partition(const struct groth16_pk *pk, groth16_evaluate_fn evaluate,
                            void *userdata, const fr_t *w, struct groth16_proof *proof,
                            unsigned threads);

/* The shape of proving w with pk: sizes from pk, windowed MSM points counted
 * from w and pk's points at infinity (evaluate_bytes left 0). */
void groth16_partition_shape_from_witness(struct groth16_partition_shape *ret,
                                          const struct groth16_pk *pk, const fr_t *w,
                                          unsigned threads);
