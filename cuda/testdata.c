/* SPDX-License-Identifier: Apache-2.0 */
#include "testdata.h"

#include <errno.h>
#include <stdlib.h>

#include "common/cleanup.h"

#define WALK_CHUNK ((size_t)1 << 14)
#define WALK_STEPS 16

uint64_t testdata_u64(uint64_t seed, uint64_t index) {
        uint64_t z = seed + (index + 1) * 0x9e3779b97f4a7c15ULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
}

void testdata_fr(fr_t *r, uint64_t seed, uint64_t index) {
        uint64_t k[FR_LIMBS];
        /* Rejection sampling below 2^255 then r: each try draws from its own
         * sub-stream, so the result stays a function of (seed, index). */
        for (uint64_t attempt = 0;; attempt++) {
                for (unsigned i = 0; i < FR_LIMBS; i++)
                        k[i] = testdata_u64(seed ^ (attempt * 0x632be59bd9b4e019ULL),
                                            index * FR_LIMBS + i);
                k[FR_LIMBS - 1] &= (UINT64_C(1) << 63) - 1;
                if (fr_from_canonical(r, k))
                        return;
        }
}

void testdata_fr_array(fr_t *r, size_t n, uint64_t seed) {
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++)
                testdata_fr(&r[i], seed, i);
}

void testdata_scalar_array(fr_t *r, size_t n, uint64_t seed, testdata_scalars_t shape) {
        fr_t same;

        testdata_fr(&same, seed, UINT64_MAX);
#pragma omp parallel for schedule(static)
        for (size_t i = 0; i < n; i++) {
                const uint64_t draw = testdata_u64(seed ^ 0x5bd1e995ULL, i);
                switch (shape) {
                case TESTDATA_RANDOM:
                        testdata_fr(&r[i], seed, i);
                        break;
                case TESTDATA_ZERO_ONE:
                        if (draw % 4)
                                fr_from_u64(&r[i], (draw >> 8) % 2);
                        else
                                testdata_fr(&r[i], seed, i);
                        break;
                case TESTDATA_SMALL:
                        fr_from_u64(&r[i], draw % 4);
                        if ((draw >> 8) % 2)
                                fr_neg(&r[i], &r[i]);
                        break;
                case TESTDATA_EQUAL:
                        r[i] = same;
                        break;
                }
        }
}

/* One walk per group: the same code for G1 and G2. */
// clang-format off
#define TESTDATA_POINTS(G, GEN)                                                                    \
int testdata_##G##_points(G##_affine_t *points, size_t n, uint64_t seed) {                         \
        const size_t chunks = (n + WALK_CHUNK - 1) / WALK_CHUNK;                                   \
        G##_jac_t steps[WALK_STEPS], g;                                                            \
        int r = 0;                                                                                 \
                                                                                                   \
        G##_jac_from_affine(&g, &GEN);                                                             \
        for (unsigned s = 0; s < WALK_STEPS; s++) {                                                \
                fr_t k;                                                                            \
                testdata_fr(&k, seed ^ 0x7f4a7c15ULL, s);                                          \
                G##_jac_mul_fr(&steps[s], &g, &k);                                                 \
        }                                                                                          \
                                                                                                   \
        _Pragma("omp parallel for schedule(dynamic, 1) reduction(min : r)")                        \
        for (size_t c = 0; c < chunks; c++) {                                                      \
                const size_t begin = c * WALK_CHUNK;                                               \
                const size_t count = n - begin < WALK_CHUNK ? n - begin : WALK_CHUNK;              \
                _cleanup_free_ G##_jac_t *jac = malloc(count * sizeof(G##_jac_t));                 \
                G##_jac_t current;                                                                 \
                fr_t k;                                                                            \
                                                                                                   \
                if (!jac) {                                                                        \
                        r = -ENOMEM;                                                               \
                        continue;                                                                  \
                }                                                                                  \
                testdata_fr(&k, seed, c);                                                          \
                G##_jac_mul_fr(&current, &g, &k);                                                  \
                for (size_t i = 0; i < count; i++) {                                               \
                        const uint64_t step = testdata_u64(seed, begin + i) % WALK_STEPS;          \
                        G##_jac_add(&current, &current, &steps[step]);                             \
                        jac[i] = current;                                                          \
                }                                                                                  \
                G##_jac_batch_to_affine(&points[begin], jac, count);                               \
        }                                                                                          \
        return r;                                                                                  \
}
// clang-format on

TESTDATA_POINTS(g1, G1_GENERATOR)
TESTDATA_POINTS(g2, G2_GENERATOR)
