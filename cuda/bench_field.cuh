/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What bench-gpu-field's parts share: the product forms and the loops
 * they run in (two chains of products, a bucket taking mixed additions),
 * the timing of a launch on the card and the comparison of results.
 * Included by bench-gpu-field.cu alone (one translation unit).
 */
#pragma once

#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve.cuh"

using namespace cuzk;

#define CHECK(call)                                                         \
        do {                                                                \
                cudaError_t err_ = (call);                                  \
                if (err_ != cudaSuccess) {                                  \
                        fprintf(stderr, "bench-gpu-field: %s: %s\n", #call, \
                                cudaGetErrorString(err_));                  \
                        exit(1);                                            \
                }                                                           \
        } while (0)

template <class F> CUZK_HD_NOINLINE F mul_cios_out_of_line(F a, F b) {
        return F::mont_mul(a, b);
}

template <int Levels, class F> CUZK_HD_NOINLINE F mul_rounds_out_of_line(F a, F b) {
        return F::reduce_once(F::template product_rounds<Levels>(a, b));
}

/* The CIOS product (Levels < 0), the paired one (0) or Karatsuba (1, 2
 * levels), inlined or called out of line (as the MSM's hot loop calls
 * it); squares and sums of two products as plain products. */
template <int Levels, bool Called> struct product_form : sums_reduced {
        template <class F> CUZK_HD F operator()(const F &a, const F &b) const {
                if constexpr (Levels < 0)
                        return Called ? mul_cios_out_of_line(a, b) : F::mont_mul(a, b);
                else if constexpr (Called)
                        return mul_rounds_out_of_line<Levels>(a, b);
                else
                        return F::reduce_once(F::template product_rounds<Levels>(a, b));
        }
        template <class F> CUZK_HD F sqr(const F &a) const {
                return (*this)(a, a);
        }
        template <class F> CUZK_HD F mul_add(const F &a, const F &b, const F &c, const F &d) const {
                return (*this)(a, b) + (*this)(c, d);
        }
};
using cios_inlined = product_form<-1, false>;
using cios_called = product_form<-1, true>;
using paired_inlined = product_form<0, false>;
using paired_called = product_form<0, true>;

template <int Levels, class F> CUZK_HD_NOINLINE F lazy_rounds_out_of_line(F a, F b) {
        return F::template product_rounds<Levels>(a, b);
}
template <int Levels, class F> CUZK_HD_NOINLINE F lazy_mul_add_out_of_line(F a, F b, F c, F d) {
        return F::template mul_add_rounds<Levels>(a, b, c, d);
}

/* The MSM's lazy form with products and sums of products in the form of
 * Levels (0 the paired one). */
template <int Levels> struct kara_called_lazy : mul_called_lazy {
        template <class F> CUZK_HD F operator()(const F &a, const F &b) const {
                return lazy_rounds_out_of_line<Levels>(a, b);
        }
        template <class F> CUZK_HD F mul_add(const F &a, const F &b, const F &c, const F &d) const {
                return lazy_mul_add_out_of_line<Levels>(a, b, c, d);
        }
};

/* The other operations as a product_loop step, each with its form built
 * from CIOS products to compare bits against: a^2, and a b + b^2. */
template <class Mul> struct squaring {
        template <class F> CUZK_HD F operator()(const F &a, const F &) const {
                return Mul().sqr(a);
        }
};
template <class Mul> struct sum_of_products {
        template <class F> CUZK_HD F operator()(const F &a, const F &b) const {
                return Mul().mul_add(a, b, b, b);
        }
};

/* Two dependent chains of products per thread, as a bucket sum has. */
template <class F, class Mul> __global__ void product_loop(F *io, unsigned iterations) {
        const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
        F a = io[2 * t], b = io[2 * t + 1];
        const Mul mul;
        for (unsigned i = 0; i < iterations; i++) {
                a = mul(a, b);
                b = mul(b, a);
        }
        io[2 * t] = a;
        io[2 * t + 1] = b;
}

/* One bucket per thread taking a run of affine points, as level 0 does. */
template <class Mul>
__global__ void madd_loop(g1_xyzz_dev *acc, const g1_affine_dev *points, unsigned npoints,
                          unsigned iterations) {
        const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
        g1_xyzz_dev a = acc[t];
        for (unsigned i = 0; i < iterations; i++) {
                const g1_affine_dev p = points[(t + i) % npoints];
                a.add_affine(p, i & 1, Mul());
        }
        acc[t] = a.canonical(Mul());
}

static void random_limbs(uint32_t *v, size_t words, uint32_t top_mask, size_t limbs) {
        static uint64_t s = 0x9e3779b97f4a7c15ull;
        for (size_t i = 0; i < words; i++) {
                s ^= s << 13, s ^= s >> 7, s ^= s << 17;
                v[i] = (uint32_t)s & ((i % limbs) == limbs - 1 ? top_mask : 0xffffffffu);
        }
}

struct launch {
        unsigned blocks, threads, iterations;
};

/* Best of three timed launches after a warm-up, in ms; setup() runs
 * before each, outside the time. */
template <class Setup, class Launch> static float best_launch_ms(Setup setup, Launch launch) {
        cudaEvent_t start, stop;
        CHECK(cudaEventCreate(&start));
        CHECK(cudaEventCreate(&stop));
        float best = 1e30f;
        for (int r = 0; r < 4; r++) {
                setup();
                CHECK(cudaEventRecord(start));
                launch();
                CHECK(cudaEventRecord(stop));
                CHECK(cudaEventSynchronize(stop));
                CHECK(cudaGetLastError());
                float ms;
                CHECK(cudaEventElapsedTime(&ms, start, stop));
                if (r > 0 && ms < best)
                        best = ms;
        }
        CHECK(cudaEventDestroy(start));
        CHECK(cudaEventDestroy(stop));
        return best;
}

/* best_launch_ms, each launch on a fresh copy of input (count T's);
 * output gets the last launch's result. */
template <class T, class Launch>
static float best_ms(const T *input, T *output, size_t count, Launch launch) {
        T *d;
        CHECK(cudaMalloc(&d, count * sizeof(T)));
        const float best = best_launch_ms(
                [&] { CHECK(cudaMemcpy(d, input, count * sizeof(T), cudaMemcpyHostToDevice)); },
                [&] { launch(d); });
        CHECK(cudaMemcpy(output, d, count * sizeof(T), cudaMemcpyDeviceToHost));
        CHECK(cudaFree(d));
        return best;
}

/* Products per second over the card. */
template <class F, class Mul>
static double time_products(const launch &l, const F *input, F *output, size_t count) {
        const float ms = best_ms(input, output, count, [&](F *d) {
                product_loop<F, Mul><<<l.blocks, l.threads>>>(d, l.iterations);
        });
        return 2.0 * l.iterations * l.blocks * l.threads / (ms * 1e-3);
}

/* Mixed additions per second over the card. */
template <class Mul>
static double time_madd(const launch &l, const g1_xyzz_dev *input, g1_xyzz_dev *output,
                        const g1_affine_dev *d_points, unsigned npoints) {
        const size_t count = (size_t)l.blocks * l.threads;
        const float ms = best_ms(input, output, count, [&](g1_xyzz_dev *d) {
                madd_loop<Mul><<<l.blocks, l.threads>>>(d, d_points, npoints, l.iterations);
        });
        return (double)l.iterations * count / (ms * 1e-3);
}

static bool same_bytes(const void *a, const void *b, size_t n, const char *what) {
        if (memcmp(a, b, n) == 0)
                return true;
        fprintf(stderr, "bench-gpu-field: %s differs from the CIOS product's result\n", what);
        return false;
}
