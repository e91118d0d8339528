/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bench-gpu-field's affine pair rows: additions of gathered pairs with one
 * inverse for K pairs (Montgomery's trick), each sum checked on the card
 * against the mixed addition's point (bench/RESULTS.md: no gain over the
 * mixed addition, the products saved go to traffic).
 */
#pragma once

#include "bench_field.cuh"

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
