/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The field products and the MSM's mixed addition, alone on the whole card:
 * how many a second each form of the Montgomery product reaches, inlined
 * and called out of line (as the MSM's hot loop calls it), and what that
 * makes of an XYZZ mixed addition; Fp's product on the FP64 pipe, alone
 * and beside the IMAD one; then affine additions of gathered pairs with
 * one inverse for many (cuda/README.md, "Next"). Every form must give
 * the same bits as mont_mul, and every affine sum the mixed addition's
 * point, or the program fails. Prints a markdown table (bench/RESULTS.md).
 * Usage: bench-gpu-field [iterations]   (default 4096; exit 77 without a GPU)
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench_field.cuh"
#include "bench_field_affine.cuh"
#include "bench_field_f64.cuh"

/* An operation made of CIOS products (called), then as the MSM calls it:
 * the same bits, and the time of each against the CIOS product's. */
template <class F, template <class> class Op>
static bool other_rows(const char *field_name, const char *op_name, const launch &l, const F *input,
                       F *ref, F *out, size_t count) {
        const double base = time_products<F, Op<cios_called>>(l, input, ref, count);
        const double fast = time_products<F, Op<mul_called>>(l, input, out, count);
        printf("| %s %s | CIOS products, called | %.3g | %.1f | - |\n", field_name, op_name, base,
               1e12 / base);
        printf("| %s %s | the MSM's (called) | %.3g | %.1f | %.2fx the CIOS one |\n", field_name,
               op_name, fast, 1e12 / fast, base / fast);
        return same_bytes(out, ref, count * sizeof(F), op_name);
}

template <class F>
static bool product_rows(const char *field_name, const launch &l, uint32_t top_mask) {
        const size_t count = 2 * (size_t)l.blocks * l.threads;
        F *input = (F *)malloc(count * sizeof(F)), *ref = (F *)malloc(count * sizeof(F)),
          *out = (F *)malloc(count * sizeof(F));
        if (!input || !ref || !out) {
                fprintf(stderr, "bench-gpu-field: out of host memory\n");
                exit(1);
        }
        random_limbs(input->v, count * F::N, top_mask, F::N);
        const double base = time_products<F, cios_inlined>(l, input, ref, count);
        bool ok = true;
        double rate[7] = {base, 0, 0, 0, 0, 0, 0};
        rate[1] = time_products<F, cios_called>(l, input, out, count);
        ok &= same_bytes(out, ref, count * sizeof(F), "CIOS, called");
        rate[2] = time_products<F, paired_inlined>(l, input, out, count);
        ok &= same_bytes(out, ref, count * sizeof(F), "paired, inlined");
        rate[3] = time_products<F, paired_called>(l, input, out, count);
        ok &= same_bytes(out, ref, count * sizeof(F), "paired, called");
        rate[4] = time_products<F, product_form<1, false>>(l, input, out, count);
        ok &= same_bytes(out, ref, count * sizeof(F), "Karatsuba, inlined");
        rate[5] = time_products<F, product_form<1, true>>(l, input, out, count);
        ok &= same_bytes(out, ref, count * sizeof(F), "Karatsuba, called");
        rate[6] = time_products<F, product_form<2, true>>(l, input, out, count);
        ok &= same_bytes(out, ref, count * sizeof(F), "Karatsuba two levels, called");
        const char *names[7] = {"CIOS, inlined",       "CIOS, called",       "paired, inlined",
                                "paired, called",      "Karatsuba, inlined", "Karatsuba, called",
                                "Karatsuba x2, called"};
        for (int i = 0; i < 7; i++)
                printf("| %s product | %s | %.3g | %.1f | %.2fx |\n", field_name, names[i], rate[i],
                       1e12 / rate[i], base / rate[i]);
        if constexpr (F::N == 12)
                ok &= f64_rows(l, base, input, ref, out, count);
        ok &= other_rows<F, squaring>(field_name, "square", l, input, ref, out, count);
        if constexpr (F::N == 12) /* a b + c d needs Fp's spare top bits */
                ok &= other_rows<F, sum_of_products>(field_name, "a b + b^2", l, input, ref, out,
                                                     count);
        free(input);
        free(ref);
        free(out);
        return ok;
}

static bool madd_rows(const launch &l, double *ret_called_rate) {
        const size_t count = (size_t)l.blocks * l.threads;
        const unsigned npoints = 1u << 16;
        g1_xyzz_dev *input = (g1_xyzz_dev *)malloc(count * sizeof(g1_xyzz_dev)),
                    *ref = (g1_xyzz_dev *)malloc(count * sizeof(g1_xyzz_dev)),
                    *out = (g1_xyzz_dev *)malloc(count * sizeof(g1_xyzz_dev));
        g1_affine_dev *points = (g1_affine_dev *)malloc(npoints * sizeof(g1_affine_dev));
        if (!input || !ref || !out || !points) {
                fprintf(stderr, "bench-gpu-field: out of host memory\n");
                exit(1);
        }
        /* The formulas do not need points on the curve: random coordinates
         * below p exercise the same instructions (no two are equal). */
        random_limbs(input->x.v, count * 4 * 12, 0x0fffffffu, 12);
        random_limbs(points->x.v, (size_t)npoints * 2 * 12, 0x0fffffffu, 12);
        g1_affine_dev *d_points;
        CHECK(cudaMalloc(&d_points, npoints * sizeof(g1_affine_dev)));
        CHECK(cudaMemcpy(d_points, points, npoints * sizeof(g1_affine_dev),
                         cudaMemcpyHostToDevice));
        const double base = time_madd<cios_called>(l, input, ref, d_points, npoints);
        const double paired = time_madd<paired_called>(l, input, out, d_points, npoints);
        bool ok = same_bytes(out, ref, count * sizeof(*out), "the paired products' mixed addition");
        const double called = time_madd<mul_called>(l, input, out, d_points, npoints);
        ok &= same_bytes(out, ref, count * sizeof(*out), "the reduced form's mixed addition");
        const double msm = time_madd<mul_called_lazy>(l, input, out, d_points, npoints);
        ok &= same_bytes(out, ref, count * sizeof(*out), "the MSM's mixed addition");
        const double kara = time_madd<kara_called_lazy<1>>(l, input, out, d_points, npoints);
        ok &= same_bytes(out, ref, count * sizeof(*out), "the Karatsuba lazy mixed addition");
        const double kara2 = time_madd<kara_called_lazy<2>>(l, input, out, d_points, npoints);
        ok &= same_bytes(out, ref, count * sizeof(*out), "the Karatsuba x2 lazy mixed addition");
        printf("| G1 mixed addition | CIOS, called | %.3g | %.1f | 1.00x |\n", base, 1e12 / base);
        printf("| G1 mixed addition | paired products only, called | %.3g | %.1f | %.2fx |\n",
               paired, 1e12 / paired, base / paired);
        printf("| G1 mixed addition | paired, squares, y3 as a b + c d | %.3g | %.1f | %.2fx |\n",
               called, 1e12 / called, base / called);
        printf("| G1 mixed addition | the MSM's (those, values below 2p) | %.3g | %.1f | %.2fx |\n",
               msm, 1e12 / msm, base / msm);
        printf("| G1 mixed addition | lazy, Karatsuba products and sums | %.3g | %.1f | %.2fx |\n",
               kara, 1e12 / kara, base / kara);
        printf("| G1 mixed addition | lazy, Karatsuba x2 products and sums | %.3g | %.1f | %.2fx "
               "|\n",
               kara2, 1e12 / kara2, base / kara2);
        ok &= f64_madd_rows(l, base, input, ref, out, d_points, npoints);
        CHECK(cudaFree(d_points));
        free(input);
        free(ref);
        free(out);
        free(points);
        *ret_called_rate = called;
        return ok;
}

int main(int argc, char **argv) {
        unsigned iterations = 4096;
        if (argc > 1) {
                char *end;
                const unsigned long v = strtoul(argv[1], &end, 10);
                if (*argv[1] == '\0' || *end != '\0' || v < 1 || v > (1ul << 20)) {
                        fprintf(stderr, "bench-gpu-field: iterations '%s': expected 1 to 1048576\n",
                                argv[1]);
                        return 2;
                }
                iterations = (unsigned)v;
        }
        int devices = 0;
        const cudaError_t found = cudaGetDeviceCount(&devices);
        if (found != cudaSuccess || devices < 1) {
                fprintf(stderr, "bench-gpu-field: no usable CUDA device (%s)\n",
                        found != cudaSuccess ? cudaGetErrorString(found) : "none found");
                return 77;
        }
        int sms;
        CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
        cudaDeviceProp prop;
        CHECK(cudaGetDeviceProperties(&prop, 0));
        printf("%s, %d SMs, %u iterations a thread\n\n", prop.name, sms, iterations);
        printf("| what | form | per second (card) | ps each (card) | time vs the first |\n");
        printf("|---|---|---|---|---|\n");
        const launch l = {(unsigned)sms * 8, 128, iterations};
        bool ok = product_rows<fp_dev>("Fp", l, 0x0fffffffu);
        ok &= product_rows<fr_dev>("Fr", l, 0x0fffffffu);
        const launch m = {(unsigned)sms * 8, 128, iterations / 8 ? iterations / 8 : 1};
        double madd_rate;
        ok &= madd_rows(m, &madd_rate);
        ok &= affine_rows(madd_rate);
        return ok ? 0 : 1;
}
