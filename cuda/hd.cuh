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

/* Full unrolling on the device, so that limb arrays stay in registers (the
 * host pass, only used for emulation, leaves loops to the compiler). */
#ifdef __CUDA_ARCH__
#define CUZK_UNROLL _Pragma("unroll")
#else
#define CUZK_UNROLL
#endif
