/* SPDX-License-Identifier: Apache-2.0 */
/* The Groth16 verifier: one multi-pairing with a shared final exponentiation. */
#include <assert.h>

#include "groth16.h"
#include "msm.h"
#include "pairing.h"

int groth16_verify(const struct groth16_vk *vk, const fr_t *public_inputs,
                   const struct groth16_proof *proof) {
        g1_affine_t p[4];
        g2_affine_t q[4];
        g1_jac_t l;
        int r;

        assert(vk && vk->ic && proof);
        assert(vk->n_public == 0 || public_inputs);

        /* L = IC_0 + sum public_i IC_(i+1) */
        r = g1_msm_fr(&l, vk->ic + 1, public_inputs, vk->n_public, 1);
        if (r < 0)
                return r;
        g1_jac_add_affine(&l, &l, &vk->ic[0]);

        /* e(-A, B) e(alpha, beta) e(L, gamma) e(C, delta) == 1 */
        g1_affine_neg(&p[0], &proof->a);
        q[0] = proof->b;
        p[1] = vk->alpha1;
        q[1] = vk->beta2;
        g1_jac_to_affine(&p[2], &l);
        q[2] = vk->gamma2;
        p[3] = proof->c;
        q[3] = vk->delta2;
        return pairing_product_is_one(p, q, 4);
}
