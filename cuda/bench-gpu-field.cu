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
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve.cuh"
#include "field_f64.cuh"

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

template <class F> CUZK_HD_NOINLINE F mul_paired_out_of_line(F a, F b) {
        return F::mont_mul_paired(a, b);
}

/* One form of the product: CIOS or paired, inlined or called out of line
 * (as the MSM's hot loop calls it); squares and sums of two products as
 * plain products. */
template <bool Paired, bool Called> struct product_form : sums_reduced {
        template <class F> CUZK_HD F operator()(const F &a, const F &b) const {
                if (Called)
                        return Paired ? mul_paired_out_of_line(a, b) : mul_cios_out_of_line(a, b);
                return Paired ? F::mont_mul_paired(a, b) : F::mont_mul(a, b);
        }
        template <class F> CUZK_HD F sqr(const F &a) const {
                return (*this)(a, a);
        }
        template <class F> CUZK_HD F mul_add(const F &a, const F &b, const F &c, const F &d) const {
                return (*this)(a, b) + (*this)(c, d);
        }
};
using cios_inlined = product_form<false, false>;
using cios_called = product_form<false, true>;
using paired_inlined = product_form<true, false>;
using paired_called = product_form<true, true>;

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
        const product_form<true, Called> imad;
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

/* a^(p - 2) = 1/a for a != 0, square and multiply over p - 2's bits. */
template <class Mul> CUZK_HD fp_dev inverse(const fp_dev &a, Mul mul) {
        fp_dev r = fp_dev::one();
        bool started = false;
        for (int i = fp_dev::N - 1; i >= 0; i--) {
                const uint32_t e = fp_params::modulus(i) - (i == 0 ? 2u : 0u); /* limb 0 > 2 */
                for (int bit = 31; bit >= 0; bit--) {
                        if (started)
                                r = mul.sqr(r);
                        if ((e >> bit) & 1) {
                                r = started ? mul(r, a) : a;
                                started = true;
                        }
                }
        }
        return r;
}

/* The gathered pair j of thread t: two points of the table, as level 0
 * reads the points its sorted items name (table larger than the L2). */
struct pair_index {
        unsigned npoints; /* a power of 2 */
        CUZK_HD unsigned at(size_t t, unsigned j, unsigned side) const {
                uint64_t z = ((uint64_t)t << 21 | (uint64_t)j << 1 | side) * 0x9e3779b97f4a7c15ull;
                return (unsigned)(z >> 32) & (npoints - 1);
        }
};

/*
 * Affine additions of K pairs a thread with one inverse for all K
 * (Montgomery's trick): the prefix products of the denominators x2 - x1 go
 * to memory, then back from the last pair: 1/d_j from the running inverse
 * and the prefix, and the sum (lambda, lambda^2, y3): 6 products a pair and
 * one inverse for K, against the mixed addition's 10. Sums of equal x
 * (doublings, opposite points) are left out: random points never meet them.
 * Pair j of thread t is item j threads + t of prefix and out.
 */
template <class Mul>
CUZK_HD void affine_pairs_thread(size_t t, size_t threads, const g1_affine_dev *points,
                                 pair_index ix, unsigned k, fp_dev *prefix, g1_affine_dev *out) {
        const Mul mul;
        fp_dev acc = fp_dev::one();
        for (unsigned j = 0; j < k; j++) {
                const fp_dev x1 = points[ix.at(t, j, 0)].x, x2 = points[ix.at(t, j, 1)].x;
                prefix[j * threads + t] = acc;
                acc = mul(acc, mul.sub(x2, x1));
        }
        fp_dev inv = inverse(acc, mul);
        for (unsigned j = k; j-- > 0;) {
                const g1_affine_dev p = points[ix.at(t, j, 0)], q = points[ix.at(t, j, 1)];
                const fp_dev d = mul.sub(q.x, p.x);
                const fp_dev inv_d = mul(inv, prefix[j * threads + t]);
                inv = mul(inv, d);
                const fp_dev lambda = mul(mul.sub(q.y, p.y), inv_d);
                g1_affine_dev r;
                r.x = mul.sub(mul.sub(mul.sqr(lambda), p.x), q.x);
                r.y = mul.sub(mul(lambda, mul.sub(p.x, r.x)), p.y);
                out[j * threads + t] = r;
        }
}

template <class Mul>
__global__ void affine_pairs(const g1_affine_dev *points, pair_index ix, unsigned k, fp_dev *prefix,
                             g1_affine_dev *out) {
        affine_pairs_thread<Mul>((size_t)blockIdx.x * blockDim.x + threadIdx.x,
                                 (size_t)gridDim.x * blockDim.x, points, ix, k, prefix, out);
}

/* Sum i against the mixed addition's: (x3 zz, y3 zzz) = (X, Y) for p + q
 * from p with zz = zzz = 1. */
CUZK_HD bool affine_pair_agrees(size_t i, size_t threads, const g1_affine_dev *points,
                                pair_index ix, const g1_affine_dev *out) {
        const size_t t = i % threads;
        const unsigned j = (unsigned)(i / threads);
        const g1_affine_dev p = points[ix.at(t, j, 0)], q = points[ix.at(t, j, 1)];
        g1_xyzz_dev s;
        s.x = p.x;
        s.y = p.y;
        s.zz = s.zzz = fp_dev::one();
        s.add_affine(q, false, mul_called());
        const g1_affine_dev r = out[i];
        return (r.x * s.zz).equals(s.x) && (r.y * s.zzz).equals(s.y);
}

__global__ void affine_pairs_check(const g1_affine_dev *points, pair_index ix, unsigned k,
                                   size_t threads, const g1_affine_dev *out, int *ok) {
        const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
        if (i < threads * k && !affine_pair_agrees(i, threads, points, ix, out))
                *ok = 0;
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
        double rate[4] = {base, 0, 0, 0};
        rate[1] = time_products<F, cios_called>(l, input, out, count);
        ok &= same_bytes(out, ref, count * sizeof(F), "CIOS, called");
        rate[2] = time_products<F, paired_inlined>(l, input, out, count);
        ok &= same_bytes(out, ref, count * sizeof(F), "paired, inlined");
        rate[3] = time_products<F, paired_called>(l, input, out, count);
        ok &= same_bytes(out, ref, count * sizeof(F), "paired, called");
        const char *names[4] = {"CIOS, inlined", "CIOS, called", "paired, inlined",
                                "paired, called"};
        for (int i = 0; i < 4; i++)
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
        bool ok = f64_madd_row<1, B>("6 plain products on FP64 (bit patterns)", l, base, input, ref,
                                     out, d_points, npoints);
        ok &= f64_madd_row<2, B>("3 of 6 on FP64 (bit patterns)", l, base, input, ref, out,
                                 d_points, npoints);
        ok &= f64_madd_row<1, D>("6 plain products on FP64 (low doubles)", l, base, input, ref, out,
                                 d_points, npoints);
        ok &= f64_madd_row<2, D>("3 of 6 on FP64 (low doubles)", l, base, input, ref, out, d_points,
                                 npoints);
        ok &= f64_madd_row<1, F>("6 plain products on FP64 (FMAs alone)", l, base, input, ref, out,
                                 d_points, npoints);
        ok &= f64_madd_row<2, F>("3 of 6 on FP64 (FMAs alone)", l, base, input, ref, out, d_points,
                                 npoints);
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
        printf("| G1 mixed addition | CIOS, called | %.3g | %.1f | 1.00x |\n", base, 1e12 / base);
        printf("| G1 mixed addition | paired products only, called | %.3g | %.1f | %.2fx |\n",
               paired, 1e12 / paired, base / paired);
        printf("| G1 mixed addition | paired, squares, y3 as a b + c d | %.3g | %.1f | %.2fx |\n",
               called, 1e12 / called, base / called);
        printf("| G1 mixed addition | the MSM's (those, values below 2p) | %.3g | %.1f | %.2fx |\n",
               msm, 1e12 / msm, base / msm);
        ok &= f64_madd_rows(l, base, input, ref, out, d_points, npoints);
        CHECK(cudaFree(d_points));
        free(input);
        free(ref);
        free(out);
        free(points);
        *ret_called_rate = called;
        return ok;
}

/* Affine pair additions a second with one inverse for K pairs (K = 64,
 * 256, 1024), 2^26 pairs gathered from a 2^22-point table, against the
 * mixed addition with the same products (called, reduced; madd_rate a
 * second). Every sum checked against the mixed addition's. */
static bool affine_rows(double madd_rate) {
        const unsigned log_table = 22, log_pairs = 26;
        const size_t npoints = (size_t)1 << log_table, pairs = (size_t)1 << log_pairs;
        g1_affine_dev *points = (g1_affine_dev *)malloc(npoints * sizeof(g1_affine_dev));
        if (!points) {
                fprintf(stderr, "bench-gpu-field: out of host memory\n");
                exit(1);
        }
        random_limbs(points->x.v, npoints * 2 * 12, 0x0fffffffu, 12);
        g1_affine_dev *d_points, *d_out;
        fp_dev *d_prefix;
        int *d_ok;
        CHECK(cudaMalloc(&d_points, npoints * sizeof(g1_affine_dev)));
        CHECK(cudaMalloc(&d_out, pairs * sizeof(g1_affine_dev)));
        CHECK(cudaMalloc(&d_prefix, pairs * sizeof(fp_dev)));
        CHECK(cudaMalloc(&d_ok, sizeof(int)));
        CHECK(cudaMemcpy(d_points, points, npoints * sizeof(g1_affine_dev),
                         cudaMemcpyHostToDevice));
        const pair_index ix = {(unsigned)npoints};
        bool all_ok = true;
        for (unsigned k = 64; k <= 1024; k *= 4) {
                const size_t threads = pairs / k;
                const unsigned block = 128, blocks = (unsigned)(threads / block);
                const auto run = [&] {
                        affine_pairs<mul_called>
                                <<<blocks, block>>>(d_points, ix, k, d_prefix, d_out);
                };
                const float best = best_launch_ms([] {}, run);
                const int one = 1;
                int ok;
                CHECK(cudaMemcpy(d_ok, &one, sizeof(int), cudaMemcpyHostToDevice));
                affine_pairs_check<<<(unsigned)((pairs + 255) / 256), 256>>>(d_points, ix, k,
                                                                             threads, d_out, d_ok);
                CHECK(cudaMemcpy(&ok, d_ok, sizeof(int), cudaMemcpyDeviceToHost));
                if (!ok)
                        fprintf(stderr,
                                "bench-gpu-field: an affine sum (K = %u) differs from "
                                "the mixed addition's\n",
                                k);
                all_ok &= ok != 0;
                const double rate = (double)pairs / (best * 1e-3);
                printf("| G1 affine pair, one inverse for K = %u | 2^%u pairs gathered from 2^%u "
                       "points, prefixes in memory | %.3g | %.1f | %.2fx the mixed addition's time "
                       "(called, reduced) |\n",
                       k, log_pairs, log_table, rate, 1e12 / rate, madd_rate / rate);
        }
        CHECK(cudaFree(d_points));
        CHECK(cudaFree(d_out));
        CHECK(cudaFree(d_prefix));
        CHECK(cudaFree(d_ok));
        free(points);
        return all_ok;
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
