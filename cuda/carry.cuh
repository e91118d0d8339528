/* SPDX-License-Identifier: Apache-2.0 */
/*
 * 32-bit carry chains, the building block of the multi-precision field
 * arithmetic. On the device each step is one PTX instruction that reads
 * and/or writes the hardware carry flag (add.cc, addc.cc, mad.lo.cc,
 * madc.hi.cc, ...); on the host the same steps run in C on an explicit flag,
 * so that every algorithm written with them is tested on a machine without
 * a GPU (cuda/emu-test.cu) and only the one-instruction mapping below is
 * left to the device self-test.
 *
 * A chain must not be interrupted by other carry-using code: the device
 * steps are `asm volatile`, which keeps them in program order.
 */
#pragma once

#include <stdint.h>

#include "hd.cuh"

namespace cuzk {

/* hi(a * b), no carry: the first row of a product. */
CUZK_HD uint32_t mul_hi(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
        return __umulhi(a, b);
#else
        return (uint32_t)(((uint64_t)a * b) >> 32);
#endif
}

/* (hi << 1) | (lo >> 31): one limb of a multi-limb doubling. */
CUZK_HD uint32_t shift_left_1(uint32_t hi, uint32_t lo) {
#ifdef __CUDA_ARCH__
        return __funnelshift_l(lo, hi, 1);
#else
        return (hi << 1) | (lo >> 31);
#endif
}

struct carry_chain {
        uint32_t cc = 0; /* the host's carry (or borrow) flag; unused on the device */

        /* a + b, carry out */
        CUZK_HD uint32_t add_cc(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
                uint32_t r;
                asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
                return r;
#else
                uint64_t s = (uint64_t)a + b;
                cc = (uint32_t)(s >> 32);
                return (uint32_t)s;
#endif
        }
        /* a + b + carry, carry out */
        CUZK_HD uint32_t addc_cc(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
                uint32_t r;
                asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
                return r;
#else
                uint64_t s = (uint64_t)a + b + cc;
                cc = (uint32_t)(s >> 32);
                return (uint32_t)s;
#endif
        }
        /* a + b + carry, end of the chain */
        CUZK_HD uint32_t addc(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
                uint32_t r;
                asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
                return r;
#else
                return a + b + cc;
#endif
        }
        /* a - b, borrow out */
        CUZK_HD uint32_t sub_cc(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
                uint32_t r;
                asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
                return r;
#else
                uint64_t d = (uint64_t)a - b;
                cc = (uint32_t)(d >> 63);
                return (uint32_t)d;
#endif
        }
        /* a - b - borrow, borrow out */
        CUZK_HD uint32_t subc_cc(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
                uint32_t r;
                asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
                return r;
#else
                uint64_t d = (uint64_t)a - b - cc;
                cc = (uint32_t)(d >> 63);
                return (uint32_t)d;
#endif
        }
        /* a - b - borrow, end of the chain; subc(0, 0) is the borrow mask */
        CUZK_HD uint32_t subc(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
                uint32_t r;
                asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
                return r;
#else
                return a - b - cc;
#endif
        }
        /* lo(a * b) + c, carry out */
        CUZK_HD uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
#ifdef __CUDA_ARCH__
                uint32_t r;
                asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
                return r;
#else
                uint64_t s = (uint64_t)(uint32_t)(a * b) + c;
                cc = (uint32_t)(s >> 32);
                return (uint32_t)s;
#endif
        }
        /* lo(a * b) + c + carry, carry out */
        CUZK_HD uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
#ifdef __CUDA_ARCH__
                uint32_t r;
                asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
                return r;
#else
                uint64_t s = (uint64_t)(uint32_t)(a * b) + c + cc;
                cc = (uint32_t)(s >> 32);
                return (uint32_t)s;
#endif
        }
        /* hi(a * b) + c, carry out */
        CUZK_HD uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
#ifdef __CUDA_ARCH__
                uint32_t r;
                asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
                return r;
#else
                uint64_t s = (((uint64_t)a * b) >> 32) + c;
                cc = (uint32_t)(s >> 32);
                return (uint32_t)s;
#endif
        }
        /* hi(a * b) + c + carry, carry out */
        CUZK_HD uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
#ifdef __CUDA_ARCH__
                uint32_t r;
                asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
                return r;
#else
                uint64_t s = (((uint64_t)a * b) >> 32) + c + cc;
                cc = (uint32_t)(s >> 32);
                return (uint32_t)s;
#endif
        }
        /* hi(a * b) + c + carry, end of the chain */
        CUZK_HD uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) {
#ifdef __CUDA_ARCH__
                uint32_t r;
                asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
                return r;
#else
                return (uint32_t)(((uint64_t)a * b) >> 32) + c + cc;
#endif
        }
};

/* s = a + b over K limbs (s may be a); a carry out of the top is the
 * caller's to rule out. */
template <int K> CUZK_HD void add_limbs(uint32_t *s, const uint32_t *a, const uint32_t *b) {
        carry_chain c;
        s[0] = c.add_cc(a[0], b[0]);
        CUZK_UNROLL
        for (int k = 1; k < K - 1; k++)
                s[k] = c.addc_cc(a[k], b[k]);
        s[K - 1] = c.addc(a[K - 1], b[K - 1]);
}

} // namespace cuzk
