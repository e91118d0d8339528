/* SPDX-License-Identifier: Apache-2.0 */
/*
 * CUZK_HD marks code that runs on the device and, for the emulation test
 * (cuda/emu-test.cu), also on the host: the same source is checked against
 * zk/ on a machine without a GPU.
 */
#pragma once

#ifdef __CUDACC__
#define CUZK_HD __host__ __device__ __forceinline__
#else
#define CUZK_HD inline
#endif

/* Called, not inlined: rare paths and the curve additions of the light
 * kernels, so that each kernel holds one copy of the formulas (compile
 * time and code size; the hot loop inlines its addition). */
#ifdef __CUDACC__
#define CUZK_HD_NOINLINE __host__ __device__ __noinline__
#else
#define CUZK_HD_NOINLINE
#endif

/* Full unrolling on the device, so that limb arrays stay in registers (the
 * host pass, only used for emulation, leaves loops to the compiler). */
#ifdef __CUDA_ARCH__
#define CUZK_UNROLL _Pragma("unroll")
#else
#define CUZK_UNROLL
#endif

#include <stdint.h>

/* Set bits of x: one POPC on the device. */
CUZK_HD int popcount64(uint64_t x) {
#ifdef __CUDA_ARCH__
        return __popcll(x);
#else
        return __builtin_popcountll(x);
#endif
}
