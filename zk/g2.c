/* SPDX-License-Identifier: Apache-2.0 */
#include "g2.h"

/* b' = 4 (1 + u) */
static const fp2_t G2_B = {
        .c0 = {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,
                0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}},
        .c1 = {{0xaa270000000cfff3ULL, 0x53cc0032fc34000aULL, 0x478fe97a6b0a807fULL,
                0xb1d37ebee6ba24d7ULL, 0x8ec9733bbf78ab2fULL, 0x09d645513d83de7eULL}},
};

const g2_affine_t G2_GENERATOR = {
        .x = {.c0 = {{0xf5f28fa202940a10ULL, 0xb3f5fb2687b4961aULL, 0xa1a893b53e2ae580ULL,
                      0x9894999d1a3caee9ULL, 0x6f67b7631863366bULL, 0x058191924350bcd7ULL}},
              .c1 = {{0xa5a9c0759e23f606ULL, 0xaaa0c59dbccd60c3ULL, 0x3bb17e18e2867806ULL,
                      0x1b1ab6cc8541b367ULL, 0xc2b6ed0ef2158547ULL, 0x11922a097360edf3ULL}}},
        .y = {.c0 = {{0x4c730af860494c4aULL, 0x597cfa1f5e369c5aULL, 0xe7e6856caa0a635aULL,
                      0xbbefb5e96e0d495fULL, 0x07d3a975f0ef25a2ULL, 0x0083fd8e7e80dae5ULL}},
              .c1 = {{0xadc0fc92df64b05dULL, 0x18aa270a2b1461dcULL, 0x86adac6a3be4eba0ULL,
                      0x79495c4ec93da33aULL, 0xe7175850a43ccaedULL, 0x0b2bc2a163de1bf2ULL}}},
};

/*
 * psi = twist^-1 . Frobenius . twist maps the twist to itself:
 * psi(x, y) = (conj(x) cx, conj(y) cy) with cx = 1 / (1 + u)^((p - 1) / 3)
 * and cy = 1 / (1 + u)^((p - 1) / 2). On G2 it acts as multiplication by
 * the BLS parameter u = -z, z = 0xd201000000010000.
 */
static const fp2_t G2_PSI_CX = {
        .c0 = {{0}},
        .c1 = {{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL,
                0xa20d1b8c7e881024ULL, 0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}},
};
static const fp2_t G2_PSI_CY = {
        .c0 = {{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL,
                0x92ad2afd19103e18ULL, 0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
        .c1 = {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL,
                0xd1ca2087da74d4a7ULL, 0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}},
};

/*
 * Scott, "A note on group membership tests for G1, G2 and GT on BLS
 * pairing-friendly curves" (2021): a point P of E'(Fp2) is in G2 exactly when
 * psi(P) == [u]P = -[z]P. The tests check this against r*P == O.
 */
static const uint64_t G2_Z[1] = {0xd201000000010000ULL};

/* h2, the cofactor of G2 in E'(Fp2) (507 bits). */
const uint64_t G2_COFACTOR[G2_COFACTOR_LIMBS] = {
        0xcf1c38e31c7238e5ULL, 0x1616ec6e786f0c70ULL, 0x21537e293a6691aeULL, 0xa628f1cb4d9e82efULL,
        0xa68a205b2e5a7ddfULL, 0xcd91de4547085abaULL, 0x091d50792876a202ULL, 0x05d543a95414e7f1ULL,
};

/*
 * psi on Jacobian coordinates: conjugation is a field automorphism, so
 * conj(X)/conj(Z)^2 = conj(x), and the constants scale like x and y.
 */
static void g2_jac_psi(g2_jac_t *r, const g2_jac_t *p) {
        fp2_conjugate(&r->x, &p->x);
        fp2_mul(&r->x, &r->x, &G2_PSI_CX);
        fp2_conjugate(&r->y, &p->y);
        fp2_mul(&r->y, &r->y, &G2_PSI_CY);
        fp2_conjugate(&r->z, &p->z);
}

#define CV(name) g2_##name
#define CV_AFFINE_T g2_affine_t
#define CV_JAC_T g2_jac_t
#define CV_XYZZ_T g2_xyzz_t
#define FE(name) fp2_##name
#define FE_T fp2_t
#define CV_B G2_B
#define CV_ENDO g2_jac_psi
#define CV_ENDO_K G2_Z
#define CV_ENDO_K_BITS 64
#define CV_COFACTOR G2_COFACTOR
#define CV_COFACTOR_BITS G2_COFACTOR_BITS
#include "curve_impl.h"
