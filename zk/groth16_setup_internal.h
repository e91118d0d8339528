/* SPDX-License-Identifier: Apache-2.0 */
/* What groth16_setup*.c share; not for other callers. */
#pragma once

#include "groth16_setup.h"

/* Checks the circuit's sizes (and, with need_matrices, that A, B and C are
 * there and fit). Returns 0 or -EINVAL. */
int groth16_setup_check_circuit(const struct groth16_setup_circuit *circuit, bool need_matrices);

/* A key with its arrays allocated (not filled) and pk/vk pointing at them. */
int groth16_keys_alloc(const struct groth16_setup_circuit *circuit, struct groth16_keys **ret);

/* u, v, w at tau: A, B, C's columns times the Lagrange basis, one per wire. */
struct groth16_qap_vectors {
        fr_t *u, *v, *w;
};

int groth16_qap_vectors_alloc(struct groth16_qap_vectors *q, size_t n_vars);
void groth16_qap_vectors_free(struct groth16_qap_vectors *q);

/* q = the Lagrange basis at tau (on the convention's domain) through A, B, C.
 * -EINVAL when tau is a point of the domain. */
int groth16_qap_at_tau(const struct groth16_setup_circuit *c, enum groth16_h_convention conv,
                       const fr_t *tau, struct groth16_qap_vectors *q,
                       const struct groth16_setup_options *o, unsigned threads);

/* s_j = (beta u_j + alpha v_j + w_j) / (gamma for j <= n_public, else delta), into w. */
void groth16_ic_l_scalars(const struct groth16_setup_circuit *c,
                          const struct groth16_toxic_waste *tw, const fr_t *u, const fr_t *v,
                          fr_t *w);

/* Bellperson's h_i = tau^i Z(tau) / delta, i < n_h. */
void groth16_h_scalars(fr_t *out, size_t n_h, unsigned log_n, const struct groth16_toxic_waste *tw,
                       unsigned threads);

/* snarkjs's h_i = L'_{2i+1}(tau) / delta, i < 2^log_n. -EINVAL when tau^2n = 1. */
int groth16_snarkjs_h_scalars(fr_t *out, unsigned log_n, const struct groth16_toxic_waste *tw,
                              unsigned threads);

static inline void groth16_setup_progress(const struct groth16_setup_options *o,
                                          const char *stage) {
        if (o && o->progress)
                o->progress(stage, o->userdata);
}
