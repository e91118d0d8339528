/* SPDX-License-Identifier: Apache-2.0 */
/* The Groth16-specific kernel steps: H's pointwise steps, and the
 * witness values of the wires a density keeps (zk/density.h). */
#pragma once

#include "cuda/field.cuh"
#include "cuda/memory.cuh"
#include "cuda/ntt_pass.cuh" /* bit_reverse32 */

namespace cuzk {

/* a[i] = a[i] b[i] - c[i] on the coset (no c: a[i] b[i]), times z_inv =
 * 1/Z there when scaled, left out when the transform after it takes 1/Z
 * in its own scaling. */
struct h_combine_step {
        static constexpr unsigned block_threads = 256;
        fr_dev *a;
        const fr_dev *b, *c;
        fr_dev z_inv;
        bool scaled;

        CUZK_HD void operator()(uint64_t i) const {
                fr_dev t = load_wide(&a[i]) * load_wide(&b[i]);
                if (c)
                        t = t - load_wide(&c[i]);
                store_wide(&a[i], scaled ? t * z_inv : t);
        }
};

/* h[i] -= c_scale c[rev(i)]: bellperson's H from the way back of a b, and
 * C's coefficients as the inverse transform leaves them (bit-reversed, n
 * times; c_scale = 1/(n Z)). */
struct h_subtract_step {
        static constexpr unsigned block_threads = 256;
        fr_dev *h;
        const fr_dev *c_rev;
        fr_dev c_scale;
        unsigned log_n;

        CUZK_HD void operator()(uint64_t i) const {
                const fr_dev c = load_wide(&c_rev[bit_reverse32((uint32_t)i, log_n)]);
                store_wide(&h[i], load_wide(&h[i]) - c * c_scale);
        }
};

/* out[rank of j] = w[j] for each wire j the density sets: the same as
 * zk/'s wire_density_gather, one thread per wire. */
struct density_gather_step {
        static constexpr unsigned block_threads = 256;
        const uint64_t *bits, *rank; /* the density's words and their ranks */
        const fr_dev *w;
        fr_dev *out;

        CUZK_HD void operator()(uint64_t j) const {
                const uint64_t word = bits[j / 64], bit = (uint64_t)1 << (j % 64);
                if (!(word & bit))
                        return;
                const uint64_t at = rank[j / 64] + (uint64_t)popcount64(word & (bit - 1));
                store_wide(&out[at], load_wide(&w[j]));
        }
};

} // namespace cuzk
