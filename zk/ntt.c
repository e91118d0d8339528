/* SPDX-License-Identifier: Apache-2.0 */
/* NTT domains and the transforms built from the DIF/DIT cores. */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>

#include "common/cleanup.h"
#include "ntt_internal.h"

/* Twiddle table fill: elements per parallel work item. */
#define TWIDDLE_CHUNK ((size_t)1 << 12)

/* The base whose power (r-1)/2^32 is the 2^32-th root of unity. */
static uint64_t roots_base(ntt_roots_t roots) {
        switch (roots) {
        case NTT_ROOTS_SNARKJS:
                return 5; /* least quadratic non-residue mod r */
        case NTT_ROOTS_BELLPERSON:
                return 7; /* ff's multiplicative GENERATOR */
        }
        assert(!"unknown root convention");
        return 0;
}

void ntt_root_of_unity(fr_t *r, unsigned log_size, ntt_roots_t roots) {
        uint64_t odd[FR_LIMBS];
        fr_t base;

        assert(r);
        assert(log_size <= FR_TWO_ADICITY);

        /* odd = (r - 1) >> 32; r's low limb is 0xffffffff00000001. */
        for (size_t i = 0; i < FR_LIMBS; i++)
                odd[i] = (BLS12_381_R[i] >> 32) | (i + 1 < FR_LIMBS ? BLS12_381_R[i + 1] << 32 : 0);
        fr_from_u64(&base, roots_base(roots));
        fr_pow(r, &base, odd, FR_LIMBS);
        for (unsigned i = log_size; i < FR_TWO_ADICITY; i++)
                fr_sqr(r, r);
}

void ntt_snarkjs_h_shift(fr_t *r, unsigned log_size) {
        assert(r);
        assert(log_size < FR_TWO_ADICITY);
        ntt_root_of_unity(r, log_size + 1, NTT_ROOTS_SNARKJS);
}

static size_t twiddle_bytes(unsigned log_size) {
        const size_t bytes = ((size_t)1 << log_size) / 2 * sizeof(fr_t);
        return (bytes + 63) & ~(size_t)63; /* aligned_alloc wants a multiple of the alignment */
}

size_t ntt_domain_bytes(unsigned log_size) {
        assert(log_size <= NTT_MAX_LOG_SIZE);
        return sizeof(ntt_domain_t) + twiddle_bytes(log_size);
}

static void fill_twiddles(fr_t *tw, size_t count, const fr_t *omega) {
        const size_t chunks = (count + TWIDDLE_CHUNK - 1) / TWIDDLE_CHUNK;
        const fr_t w = *omega;

#pragma omp parallel for schedule(static) if (count >= NTT_PARALLEL_MIN)
        for (size_t chunk = 0; chunk < chunks; chunk++) {
                const size_t begin = chunk * TWIDDLE_CHUNK;
                const size_t end = begin + TWIDDLE_CHUNK < count ? begin + TWIDDLE_CHUNK : count;
                uint64_t e = begin;

                fr_pow(&tw[begin], &w, &e, 1);
                for (size_t i = begin + 1; i < end; i++)
                        fr_mul(&tw[i], &tw[i - 1], &w);
        }
}

int ntt_domain_new(ntt_domain_t **ret, unsigned log_size, ntt_roots_t roots) {
        _cleanup_free_ ntt_domain_t *d = NULL;

        assert(ret);

        if (log_size > NTT_MAX_LOG_SIZE)
                return -EINVAL;
        if (roots != NTT_ROOTS_SNARKJS && roots != NTT_ROOTS_BELLPERSON)
                return -EINVAL;

        d = calloc(1, sizeof(*d));
        if (!d)
                return -ENOMEM;
        d->log_size = log_size;
        d->size = (size_t)1 << log_size;
        d->roots = roots;
        ntt_root_of_unity(&d->omega, log_size, roots);
        fr_inv(&d->omega_inv, &d->omega);
        fr_from_u64(&d->size_inv, d->size);
        fr_inv(&d->size_inv, &d->size_inv);

        if (d->size > 1) {
                d->twiddles = aligned_alloc(64, twiddle_bytes(log_size));
                if (!d->twiddles)
                        return -ENOMEM;
                fill_twiddles(d->twiddles, d->size / 2, &d->omega);
        }

        *ret = TAKE_PTR(d);
        return 0;
}

void ntt_domain_free(ntt_domain_t *d) {
        if (!d)
                return;
        free(d->twiddles);
        free(d);
}

static void check_args(const ntt_domain_t *d, const fr_t *a, ntt_order_t order) {
        assert(d);
        assert(a);
        assert(order == NTT_ORDER_NN || order == NTT_ORDER_NR || order == NTT_ORDER_RN);
        (void)d;
        (void)a;
        (void)order;
}

/* The transform in order's input and output orders, with the inverse twiddles when
 * inverse; the inverse's 1/n scaling is the caller's. */
static void ntt_in_order(const ntt_domain_t *d, fr_t *a, ntt_order_t order, bool inverse) {
        check_args(d, a, order);

        switch (order) {
        case NTT_ORDER_NR:
                ntt_dif(d, a, inverse);
                break;
        case NTT_ORDER_RN:
                ntt_dit(d, a, inverse);
                break;
        case NTT_ORDER_NN:
                ntt_dif(d, a, inverse);
                ntt_bit_reverse(a, d->log_size);
                break;
        }
}

void ntt_forward(const ntt_domain_t *d, fr_t *a, ntt_order_t order) {
        ntt_in_order(d, a, order, false);
}

void ntt_inverse(const ntt_domain_t *d, fr_t *a, ntt_order_t order) {
        ntt_in_order(d, a, order, true);
        ntt_scale(a, d->size, &d->size_inv);
}

void ntt_coset_forward(const ntt_domain_t *d, fr_t *a, const fr_t *shift, ntt_order_t order) {
        fr_t one;

        check_args(d, a, order);
        assert(shift);
        assert(!fr_is_zero(shift));

        fr_set_one(&one);
        /* Coefficient i times shift^i, in whatever order the input is. */
        ntt_mul_by_powers(a, d->log_size, &one, shift, order == NTT_ORDER_RN);
        ntt_forward(d, a, order);
}

void ntt_coset_inverse(const ntt_domain_t *d, fr_t *a, const fr_t *shift, ntt_order_t order) {
        fr_t shift_inv;

        check_args(d, a, order);
        assert(shift);
        assert(!fr_is_zero(shift));

        fr_inv(&shift_inv, shift);
        switch (order) {
        case NTT_ORDER_NR:
                ntt_dif(d, a, true);
                break;
        case NTT_ORDER_RN:
                ntt_dit(d, a, true);
                break;
        case NTT_ORDER_NN:
                ntt_dif(d, a, true);
                ntt_bit_reverse(a, d->log_size);
                break;
        }
        /* size^-1 and shift^-i in one pass. */
        ntt_mul_by_powers(a, d->log_size, &d->size_inv, &shift_inv, order == NTT_ORDER_NR);
}
