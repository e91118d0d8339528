/* SPDX-License-Identifier: Apache-2.0 */
/* Proving keys in bellperson's layout (see groth16_pack.h). */
#include "groth16_pack.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>

#include "common/cleanup.h"
#include "zk/big_alloc.h"

void groth16_packed_arrays_free(struct groth16_packed_arrays *arrays) {
        if (!arrays)
                return;
        free(arrays->a);
        free(arrays->b1);
        free(arrays->b2);
        *arrays = (struct groth16_packed_arrays){0};
}

static bool g1_infinity(const void *p) {
        return g1_affine_is_infinity(p);
}

static bool g2_infinity(const void *p) {
        return g2_affine_is_infinity(p);
}

int groth16_pk_pack(const struct groth16_pk *pk, const struct wire_density *a_density,
                    const struct wire_density *b_density, struct groth16_packed_arrays *arrays,
                    struct groth16_pk *ret) {
        _cleanup_(groth16_packed_arrays_free) struct groth16_packed_arrays p = {0};
        int r;

        assert(pk && a_density && b_density && arrays && ret);
        assert(!pk->a_density && !pk->b_density);

        if (a_density->n_wires != pk->n_vars || b_density->n_wires != pk->n_vars)
                return -EINVAL;
        p.a = big_alloc((a_density->count ? a_density->count : 1) * sizeof(g1_affine_t));
        p.b1 = big_alloc((b_density->count ? b_density->count : 1) * sizeof(g1_affine_t));
        p.b2 = big_alloc((b_density->count ? b_density->count : 1) * sizeof(g2_affine_t));
        if (!p.a || !p.b1 || !p.b2)
                return -ENOMEM;
        if ((r = wire_density_pack(a_density, pk->a, sizeof(g1_affine_t), g1_infinity, p.a)) < 0 ||
            (r = wire_density_pack(b_density, pk->b1, sizeof(g1_affine_t), g1_infinity, p.b1)) <
                    0 ||
            (r = wire_density_pack(b_density, pk->b2, sizeof(g2_affine_t), g2_infinity, p.b2)) < 0)
                return r;
        *ret = *pk;
        ret->a = p.a;
        ret->b1 = p.b1;
        ret->b2 = p.b2;
        ret->a_density = a_density;
        ret->b_density = b_density;
        *arrays = p;
        p = (struct groth16_packed_arrays){0}; /* handed to the caller */
        return 0;
}
