/* SPDX-License-Identifier: Apache-2.0 */
/* The one Groth16-specific kernel step: H's pointwise combination. */
#pragma once

#include "cuda/field.cuh"
#include "cuda/memory.cuh"

namespace cuzk {

/* a[i] = (a[i] b[i] - c[i]) / Z on the coset (z_inv = 1/Z there). */
struct h_combine_step {
        static constexpr unsigned block_threads = 256;
        fr_dev *a;
        const fr_dev *b, *c;
        fr_dev z_inv;

        CUZK_HD void operator()(uint64_t i) const {
                const fr_dev t = load_wide(&a[i]) * load_wide(&b[i]) - load_wide(&c[i]);
                store_wide(&a[i], t * z_inv);
        }
};

} // namespace cuzk
