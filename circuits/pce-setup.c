/* SPDX-License-Identifier: Apache-2.0 */
#include "circuits/pce-setup.h"

#include <assert.h>

#include "common/cleanup.h"

static void sparse_matrices_free(struct sparse_matrix (*m)[PCE_N_MATRICES]) {
        for (size_t i = 0; i < PCE_N_MATRICES; i++)
                sparse_free(&(*m)[i]);
}

int pce_groth16_setup(const struct pce *pce, const struct groth16_toxic_waste *tw,
                      const struct groth16_setup_options *options, struct groth16_keys **ret) {
        _cleanup_(sparse_matrices_free) struct sparse_matrix m[PCE_N_MATRICES] = {{0}};
        int r;

        assert(pce);
        assert(tw);
        assert(ret);

        r = pce_to_sparse(pce, m);
        if (r < 0)
                return r;
        const struct groth16_setup_circuit circuit = {
                .a = &m[PCE_A],
                .b = &m[PCE_B],
                .c = &m[PCE_C],
                .n_vars = pce->n_cols,
                .n_public = pce->n_public,
                .log_domain_size = pce_log_domain_size(pce),
        };
        return groth16_setup(&circuit, tw, options, ret);
}

int pce_params_densities(const struct pce *pce, const struct bellperson_params *p,
                         struct wire_density **ret_a, struct wire_density **ret_b) {
        uint64_t wires;
        int r;

        assert(pce && p && ret_a && ret_b);
        wires = bellperson_params_wires(p);

        *ret_a = *ret_b = NULL;
        if (bellperson_params_point_per_wire(p))
                return 0;
        if (wires != pce->n_cols)
                return -EINVAL;
        if (p->n_a != wires && (r = pce_wire_density(pce, PCE_A, ret_a)) < 0)
                return r;
        if ((p->n_b_g1 != wires || p->n_b_g2 != wires) &&
            (r = pce_wire_density(pce, PCE_B, ret_b)) < 0) {
                *ret_a = wire_density_free(*ret_a);
                return r;
        }
        return 0;
}
