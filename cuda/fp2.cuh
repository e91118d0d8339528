/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fp2 = Fp[u] / (u^2 + 1) for G2 on the GPU, in zk/fp2.h's memory form
 * (c0 then c1, each a Montgomery fp_dev), with the operations curve.cuh's
 * formulas use.
 */
#pragma once

#include "field.cuh"

namespace cuzk {

struct alignas(16) fp2_dev {
        fp_dev c0, c1;

        CUZK_HD static fp2_dev zero() {
                return {fp_dev::zero(), fp_dev::zero()};
        }

        CUZK_HD static fp2_dev one() {
                return {fp_dev::one(), fp_dev::zero()};
        }

        CUZK_HD bool is_zero() const {
                return c0.is_zero() && c1.is_zero();
        }

        CUZK_HD friend fp2_dev operator+(const fp2_dev &a, const fp2_dev &b) {
                return {a.c0 + b.c0, a.c1 + b.c1};
        }

        CUZK_HD friend fp2_dev operator-(const fp2_dev &a, const fp2_dev &b) {
                return {a.c0 - b.c0, a.c1 - b.c1};
        }

        CUZK_HD fp2_dev neg() const {
                return {c0.neg(), c1.neg()};
        }

        CUZK_HD fp2_dev dbl() const {
                return {c0.dbl(), c1.dbl()};
        }

        /* (a0 + a1 u)(b0 + b1 u) = a0 b0 - a1 b1 + (a0 b1 + a1 b0) u: two
         * sums of two products, one reduction each (fp_dev::mul_add), where
         * Karatsuba takes three whole products. */
        CUZK_HD friend fp2_dev operator*(const fp2_dev &a, const fp2_dev &b) {
                return {fp_dev::mul_add(a.c0, b.c0, a.c1.neg(), b.c1),
                        fp_dev::mul_add(a.c0, b.c1, a.c1, b.c0)};
        }

        CUZK_HD static fp2_dev mul_add(const fp2_dev &a, const fp2_dev &b, const fp2_dev &c,
                                       const fp2_dev &d) {
                return a * b + c * d;
        }

        /* (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u */
        CUZK_HD fp2_dev sqr() const {
                const fp_dev t = c0 * c1;
                return {(c0 + c1) * (c0 - c1), t.dbl()};
        }
};

static_assert(sizeof(fp2_dev) == 96, "fp2_dev must match fp2_t");

} // namespace cuzk
