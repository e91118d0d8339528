/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Whole-element loads and stores in 16-byte pieces. The carry chains are
 * `asm volatile`, which keeps the compiler from gathering an element's
 * 4-byte loads into vector loads on its own; these helpers load field
 * elements and points (sizes multiple of 16, 16-byte aligned in device
 * memory) before the arithmetic starts.
 */
#pragma once

#include <stdint.h>
#include <string.h>

#include "hd.cuh"

namespace cuzk {

/* A host value (zk/'s layout) as the device type of the same bytes. */
template <class D, class H> D as_dev(const H &h) {
        static_assert(sizeof(D) == sizeof(H), "layouts differ");
        D d;
        memcpy(&d, &h, sizeof(d));
        return d;
}

template <class T> CUZK_HD T load_wide(const T *p) {
#ifdef __CUDA_ARCH__
        static_assert(sizeof(T) % 16 == 0, "16-byte pieces");
        constexpr int pieces = sizeof(T) / 16;
        const uint4 *src = reinterpret_cast<const uint4 *>(p);
        uint4 v[pieces];
        CUZK_UNROLL
        for (int i = 0; i < pieces; i++)
                v[i] = src[i];
        T r;
        memcpy(&r, v, sizeof(r));
        return r;
#else
        return *p;
#endif
}

template <class T> CUZK_HD void store_wide(T *p, const T &x) {
#ifdef __CUDA_ARCH__
        static_assert(sizeof(T) % 16 == 0, "16-byte pieces");
        constexpr int pieces = sizeof(T) / 16;
        uint4 v[pieces];
        memcpy(v, &x, sizeof(x));
        uint4 *dst = reinterpret_cast<uint4 *>(p);
        CUZK_UNROLL
        for (int i = 0; i < pieces; i++)
                dst[i] = v[i];
#else
        *p = x;
#endif
}

/* Asks L1 for the lines of *p ahead of its load (a hint; nothing on the
 * host). The MSM's level 0 gathers points in sorted-bucket order, so each
 * load is a dependent miss unless requested an addition ahead. */
template <class T> CUZK_HD void prefetch_l1(const T *p) {
#ifdef __CUDA_ARCH__
        const char *first = reinterpret_cast<const char *>(p);
        asm("prefetch.global.L1 [%0];" ::"l"(first));
        asm("prefetch.global.L1 [%0];" ::"l"(first + sizeof(T) - 1));
#else
        (void)p;
#endif
}

} // namespace cuzk
