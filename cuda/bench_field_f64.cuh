/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench-gpu-field's rows for Fp's product on the FP64 pipe (field_f64.cuh):
 * each form alone, beside the paired IMAD product, and as some of the
 * MSM's mixed addition's products; each result checked against the CIOS
 * product's bits.
 */
#pragma once

#include "bench_field.cuh"
#include "field_f64.cuh"

template <f64_sums S> CUZK_HD_NOINLINE fp_f64 mul_f64_out_of_line(fp_f64 a, fp_f64 b) {
        return mont_mul_f64_as<S>(a, b);
}

/* Fp's product on the FP64 pipe (field_f64.cuh) in form S, inlined or
 * called. */
template <bool Called, f64_sums S> struct f64_product {
        CUZK_HD fp_f64 operator()(const fp_f64 &a, const fp_f64 &b) const {
                return Called ? mul_f64_out_of_line<S>(a, b) : mont_mul_f64_as<S>(a, b);
        }
};

/* product_loop's chains in the FP64 form (converted in and out). */
template <bool Called, f64_sums S>
__global__ void f64_product_loop(fp_dev *io, unsigned iterations) {
        const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
        fp_f64 a = fp_to_f64(io[2 * t]), b = fp_to_f64(io[2 * t + 1]);
        const f64_product<Called, S> mul;
        for (unsigned i = 0; i < iterations; i++) {
                a = mul(a, b);
                b = mul(b, a);
        }
        io[2 * t] = fp_from_f64(a);
        io[2 * t + 1] = fp_from_f64(b);
}

/* Both multipliers at once: a thread runs pair t's chains with the paired
 * IMAD product and pair t + threads's in the FP64 form, one step of each in
 * turn (launched on half the threads, so the same pairs as the others). */
template <bool Called, f64_sums S>
__global__ void side_by_side_loop(fp_dev *io, unsigned iterations) {
        const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
        const size_t u = t + (size_t)gridDim.x * blockDim.x;
        fp_dev a = io[2 * t], b = io[2 * t + 1];
        fp_f64 c = fp_to_f64(io[2 * u]), d = fp_to_f64(io[2 * u + 1]);
        const product_form<0, Called> imad;
        const f64_product<Called, S> fpu;
        for (unsigned i = 0; i < iterations; i++) {
                a = imad(a, b);
                c = fpu(c, d);
                b = imad(b, a);
                d = fpu(d, c);
        }
        io[2 * t] = a;
        io[2 * t + 1] = b;
        io[2 * u] = fp_from_f64(c);
        io[2 * u + 1] = fp_from_f64(d);
}

/* A lazy Fp product (below 2p in and out) on the FP64 pipe. */
template <f64_sums S> CUZK_HD_NOINLINE fp_dev mul_lazy_on_f64(fp_dev a, fp_dev b) {
        return fp_f64_words(mont_mul_f64_as<S>(fp_to_f64(a), fp_to_f64(b)));
}

/* The MSM's products (mul_called_lazy) with the plain ones, in the order an
 * addition calls them, on the FP64 pipe every Every-th time (1: all six of
 * a mixed addition; 2: every other one, three). An addition takes a fresh
 * functor, so the count is known when it compiles. */
template <int Every, f64_sums S> struct mul_lazy_f64_share : mul_called_lazy {
        mutable int n = 0;
        template <class F> CUZK_HD F operator()(const F &a, const F &b) const {
                return n++ % Every == Every - 1 ? mul_lazy_on_f64<S>(a, b)
                                                : mul_called_lazy::operator()(a, b);
        }
};

/* Fp products a second over the card from one of the FP64 loops above,
 * run on `blocks` of l's blocks. */
static double time_fp_loop(const launch &l, unsigned blocks, const fp_dev *input, fp_dev *output,
                           size_t count, void (*kernel)(fp_dev *, unsigned)) {
        const float ms = best_ms(input, output, count, [&](fp_dev *d) {
                kernel<<<blocks, l.threads>>>(d, l.iterations);
        });
        return 2.0 * l.iterations * l.blocks * l.threads / (ms * 1e-3);
}

/* The FP64 form alone and beside the paired IMAD product: the same bits
 * as the CIOS product (ref), the time against it (base a second). */
static bool f64_rows(const launch &l, double base, const fp_dev *input, const fp_dev *ref,
                     fp_dev *out, size_t count) {
        constexpr f64_sums B = f64_sums::bit_patterns, D = f64_sums::low_doubles,
                           F = f64_sums::fma_only;
        struct {
                const char *name;
                unsigned blocks;
                void (*kernel)(fp_dev *, unsigned);
        } rows[12] = {
                {"FP64, low halves as bit patterns, inlined", l.blocks, f64_product_loop<false, B>},
                {"FP64, low halves as bit patterns, called", l.blocks, f64_product_loop<true, B>},
                {"FP64, low halves as doubles, inlined", l.blocks, f64_product_loop<false, D>},
                {"FP64, low halves as doubles, called", l.blocks, f64_product_loop<true, D>},
                {"FP64, FMAs alone, inlined", l.blocks, f64_product_loop<false, F>},
                {"FP64, FMAs alone, called", l.blocks, f64_product_loop<true, F>},
                {"paired IMAD and FP64 (bit patterns) in turn, inlined", l.blocks / 2,
                 side_by_side_loop<false, B>},
                {"paired IMAD and FP64 (bit patterns) in turn, called", l.blocks / 2,
                 side_by_side_loop<true, B>},
                {"paired IMAD and FP64 (low doubles) in turn, inlined", l.blocks / 2,
                 side_by_side_loop<false, D>},
                {"paired IMAD and FP64 (low doubles) in turn, called", l.blocks / 2,
                 side_by_side_loop<true, D>},
                {"paired IMAD and FP64 (FMAs alone) in turn, inlined", l.blocks / 2,
                 side_by_side_loop<false, F>},
                {"paired IMAD and FP64 (FMAs alone) in turn, called", l.blocks / 2,
                 side_by_side_loop<true, F>},
        };
        bool ok = true;
        for (const auto &r : rows) {
                const double rate = time_fp_loop(l, r.blocks, input, out, count, r.kernel);
                ok &= same_bytes(out, ref, count * sizeof(fp_dev), r.name);
                printf("| Fp product | %s | %.3g | %.1f | %.2fx |\n", r.name, rate, 1e12 / rate,
                       base / rate);
        }
        return ok;
}

/* The MSM's mixed addition with some of its plain products on the FP64
 * pipe (mul_lazy_f64_share), each form's row. */
template <int Every, f64_sums S>
static bool f64_madd_row(const char *name, const launch &l, double base, const g1_xyzz_dev *input,
                         const g1_xyzz_dev *ref, g1_xyzz_dev *out, const g1_affine_dev *d_points,
                         unsigned npoints) {
        const size_t count = (size_t)l.blocks * l.threads;
        const double rate =
                time_madd<mul_lazy_f64_share<Every, S>>(l, input, out, d_points, npoints);
        printf("| G1 mixed addition | the MSM's, %s | %.3g | %.1f | %.2fx |\n", name, rate,
               1e12 / rate, base / rate);
        return same_bytes(out, ref, count * sizeof(*out), name);
}

static bool f64_madd_rows(const launch &l, double base, const g1_xyzz_dev *input,
                          const g1_xyzz_dev *ref, g1_xyzz_dev *out, const g1_affine_dev *d_points,
                          unsigned npoints) {
        constexpr f64_sums B = f64_sums::bit_patterns, D = f64_sums::low_doubles,
                           F = f64_sums::fma_only;
        struct {
                const char *name;
                bool (*row)(const char *, const launch &, double, const g1_xyzz_dev *,
                            const g1_xyzz_dev *, g1_xyzz_dev *, const g1_affine_dev *, unsigned);
        } rows[6] = {
                {"6 plain products on FP64 (bit patterns)", f64_madd_row<1, B>},
                {"3 of 6 on FP64 (bit patterns)", f64_madd_row<2, B>},
                {"6 plain products on FP64 (low doubles)", f64_madd_row<1, D>},
                {"3 of 6 on FP64 (low doubles)", f64_madd_row<2, D>},
                {"6 plain products on FP64 (FMAs alone)", f64_madd_row<1, F>},
                {"3 of 6 on FP64 (FMAs alone)", f64_madd_row<2, F>},
        };
        bool ok = true;
        for (const auto &r : rows)
                ok &= r.row(r.name, l, base, input, ref, out, d_points, npoints);
        return ok;
}
