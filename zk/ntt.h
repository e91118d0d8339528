/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Number-theoretic transform over Fr on domains of 2^k points, k <= 28.
 *
 * A domain is built once per (size, root convention) and reused; every
 * transform works in place on fr_t arrays (Montgomery form) of domain size,
 * is parallelised over the zk/ thread pool (parallel.h) and allocates
 * nothing. A domain is read-only once built: transforms of different arrays
 * may share it concurrently.
 *
 * Root conventions. Fr has 2-adicity 32; the 2^k-th root of unity is
 * omega_k = omega_32^(2^(32-k)), and the two provers we interoperate with pick
 * different omega_32:
 *  - NTT_ROOTS_SNARKJS: 5^((r-1)/2^32). ffjavascript's F1Field and wasm Fr
 *    take the least quadratic non-residue (5 for this r) and set
 *    Fr.w[32] = nqr^t with t = (r-1)/2^32, Fr.w[k] by squaring down.
 *  - NTT_ROOTS_BELLPERSON: 7^((r-1)/2^32), ff's ROOT_OF_UNITY with
 *    GENERATOR 7 (blstrs/bellperson).
 *
 * Cosets. Bellperson evaluates on the coset 7 * <omega> (NTT_COSET_GENERATOR).
 * snarkjs (groth16_prove.js) instead takes the coefficients of A, B, C
 * (Fr.ifft), multiplies coefficient i by inc^i (Fr.batchApplyKey) with
 * inc = Fr.w[k+1], a 2n-th root of unity (Fr.shift = nqr^2 only when
 * k = 32), and runs Fr.fft: it evaluates on the odd powers of omega_{k+1},
 * where Z(x) = x^n - 1 is the constant -2, so no point needs a division;
 * the zkey's H bases are the odd-index Lagrange bases of the 2n domain.
 * ntt_snarkjs_h_shift() returns that inc; the coset transforms take any
 * shift.
 *
 * Orders. NTT_ORDER_<in><out> with N natural and R bit-reversed (index i
 * stored at the k-bit reversal of i): NR is Gentleman-Sande (DIF), RN is
 * Cooley-Tukey (DIT), NN adds one bit-reversal pass. Pairing NR forward with
 * RN inverse avoids every permutation pass.
 *
 * Memory: the domain holds size/2 twiddles, 16 * size bytes
 * (ntt_domain_bytes()), e.g. 2 GiB for 2^27.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "fr.h"

#define NTT_MAX_LOG_SIZE 28
/* The multiplicative generator ff/bellperson use as coset shift. */
#define NTT_COSET_GENERATOR 7

typedef enum ntt_roots {
        NTT_ROOTS_SNARKJS,
        NTT_ROOTS_BELLPERSON,
} ntt_roots_t;

typedef enum ntt_order {
        NTT_ORDER_NN, /* natural in, natural out */
        NTT_ORDER_NR, /* natural in, bit-reversed out */
        NTT_ORDER_RN, /* bit-reversed in, natural out */
} ntt_order_t;

typedef struct ntt_domain {
        unsigned log_size;
        size_t size;
        ntt_roots_t roots;
        fr_t omega;     /* primitive size-th root of unity */
        fr_t omega_inv; /* omega^-1 */
        fr_t size_inv;  /* size^-1 */
        /* omega^i for 0 <= i < size/2; omega^-i is read as -omega^(size/2-i). */
        fr_t *twiddles;
} ntt_domain_t;

/* Bytes a domain of 2^log_size points allocates (twiddles and descriptor). */
size_t ntt_domain_bytes(unsigned log_size);
/* Builds the domain of 2^log_size points. Returns 0, -EINVAL for
 * log_size > NTT_MAX_LOG_SIZE, or -ENOMEM. */
int ntt_domain_new(ntt_domain_t **ret, unsigned log_size, ntt_roots_t roots);
/* Accepts NULL. */
void ntt_domain_free(ntt_domain_t *d);
static inline void ntt_domain_freep(ntt_domain_t **d) {
        ntt_domain_free(*d);
}
#define _cleanup_ntt_domain_ __attribute__((cleanup(ntt_domain_freep)))

/* The primitive 2^log_size-th root of unity of a convention, log_size <= 32. */
void ntt_root_of_unity(fr_t *r, unsigned log_size, ntt_roots_t roots);
/* snarkjs's coset shift for a domain of 2^log_size points: Fr.w[log_size+1]
 * (log_size < 32). */
void ntt_snarkjs_h_shift(fr_t *r, unsigned log_size);

/* a (coefficients) -> evaluations a(omega^i). */
void ntt_forward(const ntt_domain_t *d, fr_t *a, ntt_order_t order);
/* Evaluations -> coefficients (scaled by size^-1). */
void ntt_inverse(const ntt_domain_t *d, fr_t *a, ntt_order_t order);
/* Coefficients -> evaluations a(shift * omega^i). */
void ntt_coset_forward(const ntt_domain_t *d, fr_t *a, const fr_t *shift, ntt_order_t order);
/* Evaluations on shift * <omega> -> coefficients. */
void ntt_coset_inverse(const ntt_domain_t *d, fr_t *a, const fr_t *shift, ntt_order_t order);

/* Permutes a[0 .. 2^log_size) into k-bit-reversed order (an involution). */
void ntt_bit_reverse(fr_t *a, unsigned log_size);
/* a[i] *= c * g^e(i) with e(i) = i, or the log_size-bit reversal of i when
 * bit_reversed: scales coefficients stored in either order by powers of g. */
void ntt_mul_by_powers(fr_t *a, unsigned log_size, const fr_t *c, const fr_t *g, bool bit_reversed);
