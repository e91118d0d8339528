/* SPDX-License-Identifier: Apache-2.0 */
#include "g1.h"

/* b = 4 */
static const fp_t G1_B = {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,
                           0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}};

const g1_affine_t G1_GENERATOR = {
        .x = {{0x5cb38790fd530c16ULL, 0x7817fc679976fff5ULL, 0x154f95c7143ba1c1ULL,
               0xf0ae6acdf3d0e747ULL, 0xedce6ecc21dbf440ULL, 0x120177419e0bfb75ULL}},
        .y = {{0xbaac93d50ce72271ULL, 0x8c22631a7918fd8eULL, 0xdd595f13570725ceULL,
               0x51ac582950405194ULL, 0x0e1c8c3fad0059c0ULL, 0x0bbc3efc5008a26aULL}},
};

/*
 * beta = 0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe,
 * a cube root of unity in Fp. sigma(x, y) = (beta x, y) is an endomorphism of
 * the curve; this beta is the one for which sigma acts on G1 as
 * multiplication by -z^2, where z = 0xd201000000010000 = -u is the BLS
 * parameter (-z^2 is a root of l^2 + l + 1 mod r).
 */
static const fp_t G1_BETA = {{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL,
                              0xc26a2ff874fd029bULL, 0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}};

/*
 * Scott, "A note on group membership tests for G1, G2 and GT on BLS
 * pairing-friendly curves" (2021): on BLS12-381 a point P of E(Fp) is in G1
 * exactly when sigma(P) == -[z^2]P. The tests check this against r*P == O.
 */
static const uint64_t G1_Z_SQUARED[2] = {0x0000000100000000ULL, 0xac45a4010001a402ULL};

/* h1 = 0x396c8c005555e1568c00aaab0000aaab = (z + 1)^2 / 3 */
const uint64_t G1_COFACTOR[G1_COFACTOR_LIMBS] = {0x8c00aaab0000aaabULL, 0x396c8c005555e156ULL};

/* sigma on Jacobian coordinates: x = X/Z^2, so scaling X scales x. */
static void g1_jac_sigma(g1_jac_t *r, const g1_jac_t *p) {
        fp_mul(&r->x, &p->x, &G1_BETA);
        r->y = p->y;
        r->z = p->z;
}

#define CV(name) g1_##name
#define CV_AFFINE_T g1_affine_t
#define CV_JAC_T g1_jac_t
#define CV_XYZZ_T g1_xyzz_t
#define FE(name) fp_##name
#define FE_T fp_t
#define CV_B G1_B
#define CV_ENDO g1_jac_sigma
#define CV_ENDO_K G1_Z_SQUARED
#define CV_ENDO_K_BITS 128
#define CV_COFACTOR G1_COFACTOR
#define CV_COFACTOR_BITS G1_COFACTOR_BITS
#include "curve_impl.h"
