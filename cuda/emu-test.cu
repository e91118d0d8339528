/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Emulation test: the device code of cuda/ (field arithmetic, curve
 * formulas, NTT passes, MSM steps) compiled for the host, where its carry
 * chains run in C (carry.cuh), and checked against zk/ bit for bit. Needs
 * no GPU; the device self-test (selftest.c) then only has to confirm the
 * PTX mapping and the launches. One PASS/FAIL line per case.
 */
#include <errno.h>
#include <fenv.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <vector>

#include "cuda/curve.cuh"
#include "cuda/emu_check.h"
#include "cuda/emu_lanes.h"
#include "cuda/field.cuh"
#include "cuda/field_f64.cuh"
#include "cuda/field_lazy.cuh"
#include "cuda/gpu-tuning.h"
#include "cuda/groth16_steps.cuh"
#include "cuda/msm_run.cuh"
#include "cuda/ntt_run.cuh"

extern "C" {
#include "zk/fp.h"
#include "zk/density.h"
#include "zk/fr.h"
#include "zk/g1.h"
#include "zk/groth16.h"
#include "zk/msm.h"
#include "zk/ntt.h"
}
#include <algorithm>
#include <numeric>

using namespace cuzk;

static emu_cases cases;

static emu_rng rng{0x6a09e667f3bcc908ull};

static void random_fr(fr_t *r) {
        uint64_t k[FR_LIMBS];
        do {
                for (int i = 0; i < FR_LIMBS; i++)
                        k[i] = rng.next();
                k[FR_LIMBS - 1] >>= 1;
        } while (!fr_from_canonical(r, k));
}

static void random_fp(fp_t *r) {
        uint64_t k[FP_LIMBS];
        do {
                for (int i = 0; i < FP_LIMBS; i++)
                        k[i] = rng.next();
                k[FP_LIMBS - 1] >>= 3;
        } while (!fp_from_canonical(r, k));
}

template <class D, class H> static bool same(const D &d, const H &h) {
        static_assert(sizeof(D) == sizeof(H), "layouts differ");
        return memcmp(&d, &h, sizeof(d)) == 0;
}

/* Random values plus the edge cases 0, 1 and m - 1. */
#define FIELD_TEST(NAME, DEV, HOST, RANDOM, PREFIX)                                              \
        static void NAME(void) {                                                                 \
                bool ok_mul = true, ok_cios = true, ok_add = true, ok_sub = true, ok_neg = true; \
                bool ok_sqr = true, ok_kara = true, ok_kara2 = true;                             \
                for (int i = 0; i < 20000; i++) {                                                \
                        HOST a, b, r;                                                            \
                        RANDOM(&a);                                                              \
                        RANDOM(&b);                                                              \
                        if (i == 0)                                                              \
                                PREFIX##_set_zero(&a);                                           \
                        if (i == 1)                                                              \
                                PREFIX##_set_one(&b);                                            \
                        if (i == 2) {                                                            \
                                PREFIX##_set_one(&a);                                            \
                                PREFIX##_neg(&a, &a);                                            \
                                b = a;                                                           \
                        }                                                                        \
                        const DEV da = as_dev<DEV>(a), db = as_dev<DEV>(b);                      \
                        PREFIX##_mul(&r, &a, &b);                                                \
                        ok_mul &= same(da * db, r);                                              \
                        ok_cios &= same(DEV::mont_mul(da, db), r);                               \
                        ok_kara &= same(DEV::reduce_once(DEV::product_rounds<1>(da, db)), r);    \
                        ok_kara2 &= same(DEV::reduce_once(DEV::product_rounds<2>(da, db)), r);   \
                        PREFIX##_mul(&r, &a, &a);                                                \
                        ok_sqr &= same(da.sqr(), r);                                             \
                        PREFIX##_add(&r, &a, &b);                                                \
                        ok_add &= same(da + db, r);                                              \
                        PREFIX##_sub(&r, &a, &b);                                                \
                        ok_sub &= same(da - db, r);                                              \
                        PREFIX##_neg(&r, &a);                                                    \
                        ok_neg &= same(da.neg(), r);                                             \
                }                                                                                \
                cases.report(ok_mul, #PREFIX " mul (20000 random, 0, 1, -1)");                   \
                cases.report(ok_cios, #PREFIX " CIOS mul (the reference form)");                 \
                cases.report(ok_kara, #PREFIX " Karatsuba mul");                                 \
                cases.report(ok_kara2, #PREFIX " Karatsuba mul, two levels");                    \
                cases.report(ok_sqr, #PREFIX " sqr (cross products once)");                      \
                cases.report(ok_add, #PREFIX " add");                                            \
                cases.report(ok_sub, #PREFIX " sub");                                            \
                cases.report(ok_neg, #PREFIX " neg");                                            \
        }
FIELD_TEST(test_fr_arith, fr_dev, fr_t, random_fr, fr)
FIELD_TEST(test_fp_arith, fp_dev, fp_t, random_fp, fp)

/* a b + c d with one reduction, against zk/'s products and sum; all four
 * at p - 1 is the largest sum the bound must hold for. */
static void test_fp_mul_add(void) {
        bool ok = true;
        for (int i = 0; i < 20000; i++) {
                fp_t a, b, c, d, ab, cd, r;
                random_fp(&a);
                random_fp(&b);
                random_fp(&c);
                random_fp(&d);
                if (i == 0) {
                        fp_set_one(&a);
                        fp_neg(&a, &a);
                        b = c = d = a;
                }
                if (i == 1)
                        fp_set_zero(&c);
                fp_mul(&ab, &a, &b);
                fp_mul(&cd, &c, &d);
                fp_add(&r, &ab, &cd);
                ok &= same(fp_dev::mul_add(as_dev<fp_dev>(a), as_dev<fp_dev>(b), as_dev<fp_dev>(c),
                                           as_dev<fp_dev>(d)),
                           r);
        }
        cases.report(ok, "fp a b + c d, one reduction (20000 random, p - 1, 0)");
}

/* Fp's lazy form: a value below 2m, as the canonical a or a + m. */
static fp_dev lazy_form(const fp_t &a, bool plus_m) {
        fp_dev d = as_dev<fp_dev>(a), m;
        for (int i = 0; i < fp_dev::N; i++)
                m.v[i] = fp_params::modulus(i);
        return plus_m ? fp_dev::add_plain(d, m) : d;
}

/* Below 2m: reduce_once<2> leaves exactly those values as they are. */
static bool below_2m(const fp_dev &d) {
        return fp_dev::reduce_once<2>(d).equals(d);
}

/* A lazy result: below 2m and, made canonical, zk/'s value. */
static bool lazy_matches(const fp_dev &d, const fp_t &h) {
        return below_2m(d) && same(field_canonical(d), h);
}

/* The lazy form's operations on operands below 2m (canonical values and
 * those plus m), against zk/'s on the canonical ones; the edge cases 0,
 * m (0 plus m), m - 1 and 2m - 1. */
static void test_fp_lazy(void) {
        bool ok_mul = true, ok_sqr = true, ok_mul_add = true, ok_add = true, ok_sub = true;
        bool ok_zero = true, ok_kara = true, ok_kara_add = true;
        for (int i = 0; i < 20000; i++) {
                fp_t a, b, c, d, r, t;
                random_fp(&a);
                random_fp(&b);
                random_fp(&c);
                random_fp(&d);
                if (i < 4)
                        fp_set_zero(&a);
                if (i >= 4 && i < 8) {
                        fp_set_one(&a);
                        fp_neg(&a, &a);
                        b = c = d = a;
                }
                const fp_dev la = lazy_form(a, i & 1), lb = lazy_form(b, i & 2),
                             lc = lazy_form(c, i & 4), ld = lazy_form(d, i & 8);
                fp_mul(&r, &a, &b);
                ok_mul &= lazy_matches(field_mul_lazy(la, lb), r);
                ok_kara &= lazy_matches(fp_dev::product_rounds<1>(la, lb), r);
                ok_kara &= lazy_matches(fp_dev::product_rounds<2>(la, lb), r);
                fp_mul(&r, &a, &a);
                ok_sqr &= lazy_matches(field_sqr_lazy(la), r);
                fp_mul(&t, &c, &d);
                fp_mul(&r, &a, &b);
                fp_add(&r, &r, &t);
                ok_mul_add &= lazy_matches(field_mul_add_lazy(la, lb, lc, ld), r);
                ok_kara_add &= lazy_matches(fp_dev::mul_add_rounds<1>(la, lb, lc, ld), r);
                ok_kara_add &= lazy_matches(fp_dev::mul_add_rounds<2>(la, lb, lc, ld), r);
                fp_add(&r, &a, &b);
                ok_add &= lazy_matches(field_add_lazy(la, lb), r);
                fp_sub(&r, &a, &b);
                ok_sub &= lazy_matches(field_sub_lazy(la, lb), r);
                fp_neg(&r, &a);
                ok_sub &= lazy_matches(mul_called_lazy().neg(la), r);
                ok_zero &= field_is_zero_lazy(la) == fp_is_zero(&a);
        }
        cases.report(ok_mul, "fp lazy mul (below 2m in and out; 20000 random, 0, m, -1, 2m - 1)");
        cases.report(ok_sqr, "fp lazy sqr");
        cases.report(ok_mul_add, "fp lazy a b + c d");
        cases.report(ok_kara, "fp lazy Karatsuba mul (one and two levels)");
        cases.report(ok_kara_add, "fp lazy Karatsuba a b + c d (one and two levels)");
        cases.report(ok_add, "fp lazy add");
        cases.report(ok_sub, "fp lazy sub and neg");
        cases.report(ok_zero, "fp lazy zero test (0 and m)");
}

/* The host's stand-in for the device's FMA (field_f64.cuh) against the C
 * library's fma, rounding to nearest and toward zero: operands of every
 * exponent from 2^-100 to 2^100 and both signs, and sums that cancel down
 * to the product's rounding error. */
static void test_host_fma(void) {
        bool ok = true;
        const auto operand = [](int span) {
                const uint64_t r = rng.next();
                const double m = (double)(rng.next() >> (11 + r % 40));
                return ldexp(r & 1 ? -m : m, (int)(r >> 8) % span - span / 2);
        };
        for (int i = 0; i < 200000; i++) {
                const double a = operand(100), b = operand(100);
                volatile double c = operand(200);
                if (i % 3 == 0)
                        c = -(a * b) + (i % 2 ? ldexp(c, -60) : 0.0);
                ok &= f64::fma_rn(a, b, c) == fma(a, b, c);
                fesetround(FE_TOWARDZERO);
                volatile double rz = fma(a, b, c);
                fesetround(FE_TONEAREST);
                ok &= f64::fma_rz(a, b, c) == rz;
        }
        cases.report(ok, "host FMA for the emulation: as the C library's, to nearest and toward "
                         "zero (200000 random, cancelling)");
}

/* The FP64 form's value plus p, limb by limb (a value below 2p when x is
 * below p). */
static fp_f64 f64_plus_p(const fp_f64 &x) {
        fp_f64 r;
        uint64_t carry = 0;
        for (int j = 0; j < fp_f64::N; j++) {
                const uint64_t t = (uint64_t)x.v[j] + fp_f64::modulus(j) + carry;
                r.v[j] = (double)(t & fp_f64::MASK);
                carry = t >> fp_f64::LIMB_BITS;
        }
        return r;
}

/* Limbs that are integers below 2^48 and a value below 2p. */
static bool f64_in_form(const fp_f64 &x) {
        for (int j = 0; j < fp_f64::N; j++)
                if (!(x.v[j] >= 0 && x.v[j] <= (double)fp_f64::MASK &&
                      x.v[j] == (double)(uint64_t)x.v[j]))
                        return false;
        return below_2m(fp_f64_words(x));
}

/* Fp's product on the FP64 pipe (field_f64.cuh) against zk/'s: operands
 * below p and those plus p (below 2p), the edge cases 0, p - 1, p, 2p - 1,
 * and a chain of 64 products kept in the FP64 form; each form of the
 * columns' sums. */
template <f64_sums S> static void test_fp_f64(const char *form) {
        bool ok_mul = true, ok_form = true, ok_round = true, ok_chain = true;
        for (int i = 0; i < 20000; i++) {
                fp_t a, b, r;
                random_fp(&a);
                random_fp(&b);
                if (i < 4)
                        fp_set_zero(&a);
                if (i >= 4 && i < 8) {
                        fp_set_one(&a);
                        fp_neg(&a, &a);
                        b = a;
                }
                fp_f64 fa = fp_to_f64(as_dev<fp_dev>(a)), fb = fp_to_f64(as_dev<fp_dev>(b));
                ok_round &= same(fp_from_f64(fa), a) && f64_in_form(fa);
                if (i & 1)
                        fa = f64_plus_p(fa);
                if (i & 2)
                        fb = f64_plus_p(fb);
                const fp_f64 fr = mont_mul_f64_as<S>(fa, fb);
                fp_mul(&r, &a, &b);
                ok_mul &= same(fp_from_f64(fr), r);
                ok_form &= f64_in_form(fr);
        }
        fp_t a, b;
        random_fp(&a);
        random_fp(&b);
        fp_f64 fa = fp_to_f64(as_dev<fp_dev>(a));
        const fp_f64 fb = fp_to_f64(as_dev<fp_dev>(b));
        for (int i = 0; i < 64; i++) {
                fp_mul(&a, &a, &b);
                fa = mont_mul_f64_as<S>(fa, fb);
                ok_chain &= f64_in_form(fa);
        }
        ok_chain &= same(fp_from_f64(fa), a);
        const auto report = [form](bool ok, const char *what) {
                char line[160];
                snprintf(line, sizeof(line), "fp on the FP64 pipe, %s: %s", form, what);
                cases.report(ok, line);
        };
        report(ok_mul, "mul (below 2p in; 20000 random, 0, p, -1, 2p - 1)");
        report(ok_form, "results are 48-bit integer limbs below 2p");
        report(ok_round, "to the form and back");
        report(ok_chain, "64 products in a chain");
}

static void test_fr_canonical_and_pow(void) {
        bool ok_canon = true, ok_pow = true;
        for (int i = 0; i < 1000; i++) {
                fr_t a, p;
                uint64_t canon[FR_LIMBS], e = rng.next() >> (i % 64);
                random_fr(&a);
                fr_to_canonical(canon, &a);
                ok_canon &= same(as_dev<fr_dev>(a) * fr_dev::raw_one(), canon);
                fr_pow(&p, &a, &e, 1);
                ok_pow &= same(as_dev<fr_dev>(a).pow_u64(e), p);
        }
        cases.report(ok_canon, "fr to canonical by raw one");
        cases.report(ok_pow, "fr pow_u64");
}

/* A pow_table built on the host by the device's entry function. */
struct host_pow_table {
        std::vector<fr_dev> data;
        pow_table table;

        explicit host_pow_table(const pow_spec &s) : data(s.entries()) {
                const fr_dev c = as_dev<fr_dev>(s.c), g = as_dev<fr_dev>(s.g);
                const fr_dev g_step = as_dev<fr_dev>(s.g_step);
                for (uint32_t i = 0; i < s.entries(); i++)
                        data[i] = pow_table_entry(c, g, g_step, s.lo_count, i);
                table.lo = data.data();
                table.hi = data.data() + s.lo_count;
                table.lo_bits = s.lo_bits;
        }
        host_pow_table(const host_pow_table &) = delete; /* table points into data */
        host_pow_table(host_pow_table &&) = default;
};

/* Runs each block of a launch in turn, as one thread. Like a host-to-host
 * GPU transform, it works on its own copy (data) of the caller's array
 * (host), which only the input and output regions move between, so that a
 * region the passes need but nobody copied shows as a wrong result. */
struct emu_ntt_backend {
        fr_dev *data;
        fr_dev *host;

        void pass(const ntt_pass_params &p, uint64_t block0, uint64_t blocks, uint32_t threads) {
                std::vector<fr_dev> sh(1u << NTT_BLOCK_LOG), tw(1u << (NTT_PASS_MAX_K - 1));
                (void)threads;
                for (uint64_t b = block0; b < block0 + blocks; b++)
                        ntt_pass_block(p, data, b, 0, 1, sh.data(), tw.data(), [] {});
        }

        void bit_reverse(unsigned log_n) {
                if (log_n < 2 * NTT_BITREV_TILE) {
                        for (uint32_t i = 0; i < (1u << log_n); i++)
                                ntt_bitrev_swap(data, log_n, i);
                        return;
                }
                std::vector<fr_dev> sh(2u << (2 * NTT_BITREV_TILE));
                for (uint32_t mid = 0; mid < (1u << (log_n - 2 * NTT_BITREV_TILE)); mid++)
                        ntt_bitrev_block(data, log_n, mid, 0, 1, sh.data(), [] {});
        }

        static void copy(fr_dev *to, const fr_dev *from, const ntt_region &r) {
                for (uint32_t row = 0; row < r.rows; row++) {
                        const uint64_t at = r.offset + row * r.pitch;
                        memcpy(to + at, from + at, r.width * sizeof(fr_dev));
                }
        }
        void input(const ntt_region &r, uint32_t) {
                copy(data, host, r);
        }
        void output(const ntt_region &r, uint32_t) {
                copy(host, data, r);
        }
};

/* The direct tables of one convention and size, [inverse], built once (as
 * the device keeps them in its context). */
struct host_direct_tables {
        host_pow_table table[2];
        unsigned log_d;

        host_direct_tables(ntt_roots_t roots, unsigned log)
            : table{host_pow_table(ntt_direct_spec(roots, false, log)),
                    host_pow_table(ntt_direct_spec(roots, true, log))},
              log_d(log) {
        }
};

/* In place on data, through a scratch copy that starts as garbage; chunks
 * as in a host-to-host GPU transform. */
static void emu_ntt(fr_dev *data, unsigned log_n, ntt_roots_t roots, ntt_kind kind,
                    ntt_dev_order order, const fr_t *shift, unsigned max_k, uint32_t chunks,
                    const host_direct_tables &direct, const fr_t *factor) {
        const ntt_specs specs =
                ntt_make_specs(log_n, roots, kind, order, shift, direct.log_d, factor);
        host_pow_table omega(specs.omega), pre(specs.pre), post(specs.post);
        ntt_tables tables;
        tables.omega = omega.table;
        tables.direct = direct.table[ntt_kind_is_inverse(kind)].table;
        tables.direct_log = direct.log_d;
        tables.pre = {specs.pre_mode, pre.table};
        tables.post = {specs.post_mode, post.table};
        std::vector<fr_dev> scratch(1ull << log_n);
        memset(scratch.data(), 0xa5, scratch.size() * sizeof(fr_dev));
        emu_ntt_backend backend = {scratch.data(), data};
        ntt_run(backend, log_n, order, tables, max_k, chunks);
}

static void cpu_ntt(const ntt_domain_t *d, fr_t *a, ntt_kind kind, ntt_dev_order order,
                    const fr_t *shift) {
        const ntt_order_t o = order == NTT_DEV_NN   ? NTT_ORDER_NN
                              : order == NTT_DEV_NR ? NTT_ORDER_NR
                                                    : NTT_ORDER_RN;
        switch (kind) {
        case NTT_KIND_FORWARD:
                ntt_forward(d, a, o);
                break;
        case NTT_KIND_INVERSE:
                ntt_inverse(d, a, o);
                break;
        case NTT_KIND_COSET_FORWARD:
                ntt_coset_forward(d, a, shift, o);
                break;
        case NTT_KIND_COSET_INVERSE:
                ntt_coset_inverse(d, a, shift, o);
                break;
        }
}

static const char *const kind_names[] = {"forward", "inverse", "coset-forward", "coset-inverse"};
static const char *const order_names[] = {"NN", "NR", "RN"};

/* Every kind and order at every size up to max_log, both conventions,
 * with passes of at most max_k stages and a direct twiddle table of
 * 2^direct_log (0: none, every root from the powers of omega). A third of
 * the cases multiply the result by a random factor and a third by n (which
 * cancels an inverse's 1/n), checked against zk/'s result times it. */
static void test_ntt(unsigned max_log, unsigned max_k, uint32_t chunks, unsigned direct_log) {
        const host_direct_tables direct[2] = {host_direct_tables(NTT_ROOTS_SNARKJS, direct_log),
                                              host_direct_tables(NTT_ROOTS_BELLPERSON, direct_log)};
        for (unsigned log_n = 0; log_n <= max_log; log_n++) {
                const size_t n = (size_t)1 << log_n;
                bool ok = true;
                for (int roots = 0; roots < 2; roots++) {
                        ntt_domain_t *d = NULL;
                        if (ntt_domain_new(&d, log_n, (ntt_roots_t)roots) < 0) {
                                cases.report(false, "ntt_domain_new");
                                return;
                        }
                        for (int kind = 0; kind < 4; kind++)
                                for (int order = 0; order < 3; order++) {
                                        std::vector<fr_t> ref(n);
                                        std::vector<fr_dev> dev(n);
                                        fr_t shift;
                                        random_fr(&shift);
                                        if (roots == NTT_ROOTS_BELLPERSON)
                                                fr_from_u64(&shift, NTT_COSET_GENERATOR);
                                        for (size_t i = 0; i < n; i++) {
                                                random_fr(&ref[i]);
                                                dev[i] = as_dev<fr_dev>(ref[i]);
                                        }
                                        cpu_ntt(d, ref.data(), (ntt_kind)kind, (ntt_dev_order)order,
                                                &shift);
                                        fr_t factor;
                                        const int how = log_n ? (kind + order + roots) % 3 : 0;
                                        if (how == 1)
                                                random_fr(&factor);
                                        else
                                                fr_from_u64(&factor, n);
                                        for (size_t i = 0; how && i < n; i++)
                                                fr_mul(&ref[i], &ref[i], &factor);
                                        emu_ntt(dev.data(), log_n, (ntt_roots_t)roots,
                                                (ntt_kind)kind, (ntt_dev_order)order, &shift, max_k,
                                                chunks, direct[roots], how ? &factor : nullptr);
                                        const bool same_all = memcmp(dev.data(), ref.data(),
                                                                     n * sizeof(fr_t)) == 0;
                                        if (!same_all)
                                                printf("  mismatch: 2^%u %s %s %s\n", log_n,
                                                       roots ? "bellperson" : "snarkjs",
                                                       kind_names[kind], order_names[order]);
                                        ok &= same_all;
                                }
                        ntt_domain_free(d);
                }
                char what[128];
                snprintf(what, sizeof(what),
                         "ntt 2^%u, passes of <= %u stages, %u chunks, direct 2^%u: 4 kinds x 3 "
                         "orders x 2 roots",
                         log_n, max_k, chunks, direct_log);
                cases.report(ok, what);
        }
}

/* ---- H's scalars ---- */

/* H by its definition: a, b and c to the coset, (a b - c) / Z there, and
 * for bellperson back (seven transforms), with zk/'s transforms. */
static void h_by_definition(const ntt_domain_t *d, enum groth16_h_convention conv, fr_t *a, fr_t *b,
                            fr_t *c) {
        fr_t shift, z_inv;
        (void)groth16_h_coset(conv, d->log_size, &shift, &z_inv);
        for (fr_t *x : {a, b, c}) {
                ntt_inverse(d, x, NTT_ORDER_NN);
                ntt_coset_forward(d, x, &shift, NTT_ORDER_NN);
        }
        for (size_t i = 0; i < d->size; i++) {
                fr_mul(&a[i], &a[i], &b[i]);
                fr_sub(&a[i], &a[i], &c[i]);
                fr_mul(&a[i], &a[i], &z_inv);
        }
        if (conv == GROTH16_H_BELLPERSON)
                ntt_coset_inverse(d, a, &shift, NTT_ORDER_NN);
}

/* groth16.cu's sequence of transforms and steps (c_for_h, h_combine) in
 * emulation; H in a. */
static void h_emulated(unsigned log_n, enum groth16_h_convention conv, fr_dev *a, fr_dev *b,
                       fr_dev *c, const host_direct_tables &direct) {
        const ntt_roots_t roots =
                conv == GROTH16_H_SNARKJS ? NTT_ROOTS_SNARKJS : NTT_ROOTS_BELLPERSON;
        const size_t n = (size_t)1 << log_n;
        fr_t shift, z_inv, n_fr, n_inv;
        (void)groth16_h_coset(conv, log_n, &shift, &z_inv);
        fr_from_u64(&n_fr, n);
        fr_inv(&n_inv, &n_fr);
        const fr_t *scale_in = log_n ? &n_fr : nullptr, *scale_out = log_n ? &n_inv : nullptr;
        const bool bellperson = conv == GROTH16_H_BELLPERSON;
        for (fr_dev *x : {a, b, c}) {
                emu_ntt(x, log_n, roots, NTT_KIND_INVERSE, NTT_DEV_NR, nullptr, NTT_PASS_MAX_K, 1,
                        direct, scale_in);
                if (x != c || !bellperson)
                        emu_ntt(x, log_n, roots, NTT_KIND_COSET_FORWARD, NTT_DEV_RN, &shift,
                                NTT_PASS_MAX_K, 1, direct, scale_out);
        }
        const fr_dev z = as_dev<fr_dev>(z_inv);
        if (!bellperson) {
                for (size_t i = 0; i < n; i++)
                        h_combine_step{a, b, c, z, false}(i);
                return;
        }
        for (size_t i = 0; i < n; i++)
                h_combine_step{a, b, nullptr, z, log_n == 0}(i);
        emu_ntt(a, log_n, roots, NTT_KIND_COSET_INVERSE, NTT_DEV_NN, &shift, NTT_PASS_MAX_K, 1,
                direct, log_n ? &z_inv : nullptr);
        fr_t c_scale;
        fr_mul(&c_scale, &n_inv, &z_inv);
        for (size_t i = 0; i < n; i++)
                h_subtract_step{a, c, as_dev<fr_dev>(c_scale), log_n}(i);
}

/* Both conventions' H three ways: by definition, zk/'s groth16_compute_h
 * (bellperson's with six transforms) and the device's steps. */
static void test_h(void) {
        const host_direct_tables direct[2] = {host_direct_tables(NTT_ROOTS_SNARKJS, 8),
                                              host_direct_tables(NTT_ROOTS_BELLPERSON, 8)};
        const unsigned sizes[] = {0, 1, 2, 5, 9, 12};
        for (int conv = 0; conv < 2; conv++)
                for (unsigned log_n : sizes) {
                        const enum groth16_h_convention cv = (enum groth16_h_convention)conv;
                        const size_t n = (size_t)1 << log_n;
                        std::vector<fr_t> want(3 * n), cpu(3 * n);
                        std::vector<fr_dev> dev(3 * n);
                        for (size_t i = 0; i < 3 * n; i++) {
                                random_fr(&want[i]);
                                cpu[i] = want[i];
                                dev[i] = as_dev<fr_dev>(want[i]);
                        }
                        ntt_domain_t *d = nullptr;
                        if (groth16_domain_new(&d, cv, log_n) < 0) {
                                cases.report(false, "h: domain");
                                return;
                        }
                        h_by_definition(d, cv, &want[0], &want[n], &want[2 * n]);
                        const bool cpu_ok =
                                groth16_compute_h(d, cv, &cpu[0], &cpu[n], &cpu[2 * n]) == 0 &&
                                !memcmp(cpu.data(), want.data(), n * sizeof(fr_t));
                        ntt_domain_free(d);
                        const bool hs = cv == GROTH16_H_SNARKJS;
                        h_emulated(log_n, cv, &dev[0], &dev[n], &dev[2 * n], direct[hs ? 0 : 1]);
                        const bool dev_ok = !memcmp(dev.data(), want.data(), n * sizeof(fr_t));
                        char what[96];
                        snprintf(what, sizeof(what), "h 2^%u %s: zk %s, device steps %s", log_n,
                                 hs ? "snarkjs" : "bellperson", cpu_ok ? "ok" : "WRONG",
                                 dev_ok ? "ok" : "WRONG");
                        cases.report(cpu_ok && dev_ok, what);
                }
}

/* ---- curve ---- */

static void random_g1(g1_affine_t *r) {
        fr_t k;
        g1_jac_t p;
        random_fr(&k);
        g1_jac_from_affine(&p, &G1_GENERATOR);
        g1_jac_mul_fr(&p, &p, &k);
        g1_jac_to_affine(r, &p);
}

static bool xyzz_matches(const g1_xyzz_dev &d, const g1_xyzz_t &h) {
        g1_xyzz_t copy;
        g1_jac_t a, b;
        memcpy(&copy, &d, sizeof(copy));
        g1_xyzz_to_jac(&a, &copy);
        g1_xyzz_to_jac(&b, &h);
        return g1_jac_equal(&a, &b);
}

/* The device formulas against zk/'s, with equal, opposite and infinite
 * operands. */
static void test_curve(void) {
        bool ok_madd = true, ok_lazy = true, ok_add = true, ok_dbl = true;
        for (int i = 0; i < 200; i++) {
                g1_affine_t p, q;
                g1_xyzz_t hp, hacc;
                random_g1(&p);
                random_g1(&q);
                if (i % 5 == 1)
                        q = p; /* doubling path */
                if (i % 5 == 2)
                        g1_affine_neg(&q, &p); /* opposite */
                if (i % 5 == 3)
                        g1_affine_set_infinity(&q);
                const bool negate = i % 2;
                g1_xyzz_from_affine(&hacc, &p);
                g1_xyzz_dbl(&hacc, &hacc); /* make Z non-trivial */
                g1_xyzz_from_affine(&hp, &p);
                g1_xyzz_dev acc = as_dev<g1_xyzz_dev>(hacc);
                g1_affine_dev dq = as_dev<g1_affine_dev>(q);
                g1_affine_t qq = q;
                if (negate)
                        g1_affine_neg(&qq, &q);
                /* madd */
                g1_xyzz_dev d = acc;
                g1_xyzz_t h = hacc;
                d.add_affine(dq, negate);
                g1_xyzz_add_affine(&h, &h, &qq);
                ok_madd &= xyzz_matches(d, h);
                /* level 0's form: lazy values (some of the accumulator's
                 * plus m), the same bits as the reduced form once canonical */
                g1_xyzz_dev l = acc, r = d;
                l.x = lazy_form(hacc.x, i & 4);
                l.zz = lazy_form(hacc.zz, i & 8);
                l.add_affine(dq, negate, mul_called_lazy());
                ok_lazy &= same(l.canonical(mul_called_lazy()), r);
                l.add_affine(as_dev<g1_affine_dev>(p), false, mul_called_lazy());
                r.add_affine(as_dev<g1_affine_dev>(p), false);
                ok_lazy &= same(l.canonical(mul_called_lazy()), r);
                /* madd onto the same point twice: 2P + P, then into infinity */
                g1_xyzz_dev e = g1_xyzz_dev::infinity();
                e.add_affine(as_dev<g1_affine_dev>(p), false);
                e.add_affine(as_dev<g1_affine_dev>(p), false);
                g1_xyzz_t he;
                g1_xyzz_from_affine(&he, &p);
                g1_xyzz_dbl(&he, &he);
                ok_madd &= xyzz_matches(e, he);
                /* full add: acc + (q as xyzz with its own Z) */
                g1_xyzz_t hq;
                g1_xyzz_from_affine(&hq, &qq);
                g1_xyzz_dbl(&hq, &hq);
                const g1_xyzz_dev dq2 = as_dev<g1_xyzz_dev>(hq);
                d = acc;
                d.add(dq2);
                g1_xyzz_add(&h, &hacc, &hq);
                ok_add &= xyzz_matches(d, h);
                d = acc;
                d.add(acc); /* equal operands */
                g1_xyzz_dbl(&h, &hacc);
                ok_add &= xyzz_matches(d, h);
                d = acc;
                d.dbl();
                ok_dbl &= xyzz_matches(d, h);
        }
        cases.report(ok_madd, "g1 xyzz mixed add (random, equal, opposite, infinity, negated)");
        cases.report(ok_lazy, "g1 xyzz mixed add in the lazy form, bit for bit once canonical");
        cases.report(ok_add, "g1 xyzz add");
        cases.report(ok_dbl, "g1 xyzz dbl");
}

/* ---- MSM ---- */

/* Runs each step over its items in turn; std::stable_sort and a prefix
 * sum stand in for CUB. */
struct emu_msm_backend {
        uint32_t next_batch = 0;

        /* Batches must come in order, each once. */
        int wait_input(uint32_t batch) {
                return batch == next_batch++ ? 0 : -EINVAL;
        }
        template <class Step> int launch(const Step &step, uint64_t count) {
                for (uint64_t i = 0; i < count; i++)
                        step(i);
                return 0;
        }
        template <class Step> int launch_lanes(const Step &step, uint64_t count, uint32_t width) {
                return emu_launch_lanes(step, count, width);
        }
        int zero(void *p, size_t bytes) {
                memset(p, 0, bytes);
                return 0;
        }
        int sort(uint32_t *&keys, uint32_t *&keys_alt, uint32_t *&vals, uint32_t *&vals_alt,
                 uint64_t count, unsigned bits) {
                std::vector<uint64_t> order(count);
                for (uint64_t i = 0; i < count; i++) {
                        if (keys[i] >> bits)
                                return -EINVAL; /* a key the radix sort would not order */
                        order[i] = i;
                }
                std::stable_sort(order.begin(), order.end(),
                                 [&](uint64_t a, uint64_t b) { return keys[a] < keys[b]; });
                for (uint64_t i = 0; i < count; i++) {
                        keys_alt[i] = keys[order[i]];
                        vals_alt[i] = vals[order[i]];
                }
                std::swap(keys, keys_alt);
                std::swap(vals, vals_alt);
                return 0;
        }
        int exclusive_scan(const uint32_t *in, uint32_t *out, uint64_t count) {
                uint32_t sum = 0;
                for (uint64_t i = 0; i < count; i++) {
                        const uint32_t v = in[i];
                        out[i] = sum;
                        sum += v;
                }
                return 0;
        }
};

/* The host side of each group, for the generic MSM cases below. */
struct g1_emu {
        using curve = g1_curve;
        using affine = g1_affine_t;
        using jac = g1_jac_t;
        using xyzz = g1_xyzz_t;
        static constexpr const char *name = "g1";
        static void random(affine *r) {
                random_g1(r);
        }
        static void set_infinity(affine *r) {
                g1_affine_set_infinity(r);
        }
        static int cpu_msm(jac *r, const affine *p, const fr_t *s, size_t n) {
                return g1_msm_fr(r, p, s, n, 1);
        }
        static void to_affine(affine *r, const jac *p) {
                g1_jac_to_affine(r, p);
        }
        static void xyzz_from_affine(xyzz *r, const affine *p) {
                g1_xyzz_from_affine(r, p);
        }
        static void xyzz_add(xyzz *r, const xyzz *a, const xyzz *b) {
                g1_xyzz_add(r, a, b);
        }
        static void xyzz_to_jac(jac *r, const xyzz *p) {
                g1_xyzz_to_jac(r, p);
        }
};

struct g2_emu {
        using curve = g2_curve;
        using affine = g2_affine_t;
        using jac = g2_jac_t;
        using xyzz = g2_xyzz_t;
        static constexpr const char *name = "g2";
        static void random(affine *r) {
                fr_t k;
                g2_jac_t p;
                random_fr(&k);
                g2_jac_from_affine(&p, &G2_GENERATOR);
                g2_jac_mul_fr(&p, &p, &k);
                g2_jac_to_affine(r, &p);
        }
        static void set_infinity(affine *r) {
                g2_affine_set_infinity(r);
        }
        static int cpu_msm(jac *r, const affine *p, const fr_t *s, size_t n) {
                return g2_msm_fr(r, p, s, n, 1);
        }
        static void to_affine(affine *r, const jac *p) {
                g2_jac_to_affine(r, p);
        }
        static void xyzz_from_affine(xyzz *r, const affine *p) {
                g2_xyzz_from_affine(r, p);
        }
        static void xyzz_add(xyzz *r, const xyzz *a, const xyzz *b) {
                g2_xyzz_add(r, a, b);
        }
        static void xyzz_to_jac(jac *r, const xyzz *p) {
                g2_xyzz_to_jac(r, p);
        }
};

/*
 * The digits' reads from limb planes against those of the whole scalar, at
 * every window cut: scalars whose low bits are top (no carry), top + 1 (a
 * carry), top - 1, and top's top word over random lower words (the words
 * below the first decide), under random high bits; and random scalars.
 */
static void test_digit_planes(void) {
        bool ok_bits = true, ok_carry = true, ok_known = true;
        for (uint32_t c = 2; c <= 22; c++) {
                msm_config cfg = {};
                cfg.c = c;
                msm_fit_windows(&cfg);
                /* every cut, with the narrow windows msm_fit_windows gives and without */
                for (uint32_t pass = 0; pass < 2 * cfg.windows; pass++) {
                        const uint32_t narrow = pass < cfg.windows ? cfg.narrow : 0;
                        const uint32_t w0 = pass % cfg.windows;
                        if (w0 == 0)
                                continue;
                        const uint32_t cut = msm_window_offset(c, narrow, w0);
                        const msm_low_windows lw = msm_make_low_windows(c, narrow, w0);
                        const unsigned top_word = (cut - 1) / 32;
                        std::vector<fr_dev> k(40);
                        std::vector<int> known(k.size(), -1);
                        for (size_t i = 0; i < k.size(); i++) {
                                fr_dev high, low = lw.top;
                                for (int j = 0; j < fr_dev::N; j++)
                                        high.v[j] = (uint32_t)rng.next() & ~lw.mask.v[j];
                                high.v[fr_dev::N - 1] >>= 1;
                                const size_t shape = i % 5;
                                if (shape == 1 || shape == 2) { /* top +- 1 in the low bits */
                                        uint32_t carry = 1;
                                        for (int j = 0; j < fr_dev::N && carry; j++) {
                                                const uint32_t was = low.v[j];
                                                low.v[j] = shape == 1 ? was + 1 : was - 1;
                                                carry = shape == 1 ? low.v[j] == 0 : was == 0;
                                        }
                                } else if (shape == 3) { /* top's top word, random below */
                                        for (unsigned j = 0; j < top_word; j++)
                                                low.v[j] = (uint32_t)rng.next() & lw.mask.v[j];
                                } else if (shape == 4) {
                                        for (int j = 0; j < fr_dev::N; j++)
                                                low.v[j] = (uint32_t)rng.next() & lw.mask.v[j];
                                }
                                for (int j = 0; j < fr_dev::N; j++)
                                        k[i].v[j] = high.v[j] | low.v[j];
                                known[i] = shape == 0 || shape == 2 ? 0 : shape == 1 ? 1 : -1;
                        }
                        const uint64_t n = k.size();
                        std::vector<uint32_t> planes(n * fr_dev::N);
                        for (uint64_t i = 0; i < n; i++)
                                for (int j = 0; j < fr_dev::N; j++)
                                        planes[j * n + i] = k[i].v[j];
                        for (uint64_t i = 0; i < n; i++) {
                                const msm_scalar_whole whole{k[i]};
                                const msm_scalar_planes pl{planes.data(), n, i};
                                const uint32_t cw = whole.carry_into(lw);
                                ok_carry &= pl.carry_into(lw) == cw;
                                ok_known &= known[i] < 0 || (uint32_t)known[i] == cw;
                                for (uint32_t w = 0; w < cfg.windows; w++) {
                                        const uint32_t at = msm_window_offset(c, narrow, w);
                                        const uint32_t width = msm_window_width(c, narrow, w);
                                        ok_bits &= pl.bits(at, width) == whole.bits(at, width);
                                }
                        }
                }
        }
        cases.report(ok_bits, "msm digits: window bits from limb planes, c = 2..22, narrow "
                              "windows and none");
        cases.report(ok_carry, "msm digits: carry from limb planes at every cut (top, top +- 1, "
                               "top's top word)");
        cases.report(ok_known, "msm digits: carry 0 at top and top - 1, 1 at top + 1");
}

/*
 * The signed digits against the scalar they recode: sum_w d_w 2^(o_w) must
 * be k mod r (zk/'s Fr) for c = 4..22 with msm_fit_windows's windows, the
 * narrow ones' buckets in their lower half, for r - 1, r - 2, 0, 1, 2, the
 * value with each window's top bit set and random scalars, the windows in
 * two groups (the second one's carry from msm_make_low_windows).
 */
static void test_digit_recoding(void) {
        bool ok_sum = true, ok_range = true;
        std::vector<fr_t> k(48);
        for (size_t i = 0; i < k.size(); i++)
                random_fr(&k[i]);
        for (uint64_t v = 0; v < 3; v++)
                fr_from_u64(&k[v], v);
        fr_set_one(&k[3]);
        fr_neg(&k[3], &k[3]);        /* r - 1 */
        fr_add(&k[4], &k[3], &k[3]); /* r - 2 */
        for (uint32_t c = 4; c <= 22; c++) {
                msm_config cfg = {};
                cfg.c = c;
                msm_fit_windows(&cfg);
                const uint32_t W = cfg.windows, nw = cfg.narrow, buckets = 1u << (c - 1);
                const uint64_t n = k.size();
                std::vector<fr_dev> canonical(n);
                { /* the value with every window's top bit set, as far as it is below r */
                        const msm_low_windows all = msm_make_low_windows(c, nw, W - 1);
                        canonical[5] = all.top;
                }
                for (uint64_t i = 0; i < n; i++) {
                        if (i == 5) {
                                uint64_t v[FR_LIMBS];
                                for (int j = 0; j < FR_LIMBS; j++)
                                        v[j] = canonical[5].v[2 * j] |
                                               (uint64_t)canonical[5].v[2 * j + 1] << 32;
                                ok_sum &= fr_from_canonical(&k[5], v);
                                continue;
                        }
                        uint64_t v[FR_LIMBS];
                        fr_to_canonical(v, &k[i]);
                        for (int j = 0; j < FR_LIMBS; j++)
                                canonical[i].v[2 * j] = (uint32_t)v[j],
                                                   canonical[i].v[2 * j + 1] =
                                                           (uint32_t)(v[j] >> 32);
                }
                std::vector<uint32_t> keys((uint64_t)W * n), vals((uint64_t)W * n);
                const uint32_t half = W / 2, first[2] = {0, half}, count[2] = {half, W - half};
                for (int grp = 0; grp < 2; grp++) {
                        const uint32_t w0 = first[grp], g = count[grp];
                        const msm_step_digits step = {canonical.data(),
                                                      nullptr,
                                                      n,
                                                      c,
                                                      nw,
                                                      w0,
                                                      g,
                                                      buckets,
                                                      keys.data() + (uint64_t)w0 * n,
                                                      vals.data() + (uint64_t)w0 * n,
                                                      msm_make_low_windows(c, nw, w0),
                                                      nullptr};
                        for (uint64_t i = 0; i < n; i++)
                                step(i);
                }
                fr_t two;
                fr_from_u64(&two, 2);
                for (uint64_t i = 0; i < n; i++) {
                        fr_t sum;
                        fr_set_zero(&sum);
                        for (uint32_t w = 0; w < W; w++) {
                                const uint32_t grp = w < half ? 0 : 1, w0 = first[grp];
                                const uint32_t key = keys[(uint64_t)w * n + i];
                                if (key == count[grp] * buckets)
                                        continue; /* digit 0 */
                                const uint32_t bucket = key - (w - w0) * buckets;
                                ok_range &= bucket < 1u << (msm_window_width(c, nw, w) - 1);
                                const uint64_t e = msm_window_offset(c, nw, w);
                                fr_t d, p;
                                fr_from_u64(&d, (uint64_t)bucket + 1);
                                if (vals[(uint64_t)w * n + i] & MSM_NEGATE_BIT)
                                        fr_neg(&d, &d);
                                fr_pow(&p, &two, &e, 1);
                                fr_mul(&d, &d, &p);
                                fr_add(&sum, &sum, &d);
                        }
                        ok_sum &= fr_equal(&sum, &k[i]);
                }
        }
        cases.report(ok_sum, "msm digits: sum_w d_w 2^(o_w) = k mod r, c = 4..22 with narrow "
                             "windows, r - 1 and r - 2 included");
        cases.report(ok_range, "msm digits: each digit within its window's buckets (a narrow "
                               "one's lower half)");
}

template <class G>
static int emu_msm(typename G::jac *r, const msm_config &cfg, const typename G::affine *points,
                   const fr_t *scalars) {
        using xyzz_dev = typename G::curve::xyzz;
        using affine_dev = typename G::curve::affine;
        const msm_sizes z = msm_make_sizes(cfg);
        std::vector<fr_dev> sc(cfg.total), canonical(cfg.n);
        std::vector<affine_dev> pts(cfg.total);
        std::vector<uint32_t> k0(z.keys), k1(z.keys), v0(z.keys), v1(z.keys);
        std::vector<uint32_t> start(z.per_bucket), end(z.per_bucket), sc_(z.per_bucket),
                sf(z.per_bucket);
        std::vector<xyzz_dev> p0(z.partials), p1(z.partials), buckets(z.buckets), sums(z.chunks),
                weighted(z.chunks), windows(cfg.windows), span_sums(z.spans),
                span_weighted(z.spans);
        std::vector<uint32_t> big_index(cfg.n), one_index(cfg.n);
        memcpy(sc.data(), scalars, cfg.total * sizeof(fr_t));
        memcpy(pts.data(), points, cfg.total * sizeof(typename G::affine));
        msm_buffers<typename G::curve> buf = {canonical.data(),
                                              k0.data(),
                                              k1.data(),
                                              v0.data(),
                                              v1.data(),
                                              start.data(),
                                              end.data(),
                                              sc_.data(),
                                              sf.data(),
                                              p0.data(),
                                              p1.data(),
                                              buckets.data(),
                                              sums.data(),
                                              weighted.data(),
                                              windows.data(),
                                              span_sums.data(),
                                              span_weighted.data(),
                                              big_index.data(),
                                              one_index.data()};
        emu_msm_backend be;
        int rc = msm_run<typename G::curve>(be, cfg, buf, sc.data(), pts.data());
        if (rc < 0)
                return rc;
        std::vector<typename G::xyzz> host(cfg.windows);
        memcpy(host.data(), windows.data(), cfg.windows * sizeof(typename G::xyzz));
        msm_combine_windows(r, cfg, host.data());
        return 0;
}

template <class G> static bool jac_same_affine(const typename G::jac *a, const typename G::jac *b) {
        typename G::affine x, y;
        G::to_affine(&x, a);
        G::to_affine(&y, b);
        return memcmp(&x, &y, sizeof(x)) == 0;
}

enum scalar_shape {
        SCALARS_RANDOM,
        SCALARS_ZERO_ONE,
        SCALARS_SMALL,
        SCALARS_EQUAL,
        SCALARS_ONLY_ZERO_ONE,
        SCALARS_ZERO,
};

static void make_scalars(fr_t *s, size_t n, scalar_shape shape) {
        fr_t same;
        random_fr(&same);
        for (size_t i = 0; i < n; i++) {
                switch (shape) {
                case SCALARS_RANDOM:
                        random_fr(&s[i]);
                        break;
                case SCALARS_ZERO_ONE: /* 3 of 4 are 0 or 1, like a witness */
                        if (rng.next() % 4)
                                fr_from_u64(&s[i], rng.next() % 2);
                        else
                                random_fr(&s[i]);
                        break;
                case SCALARS_SMALL: /* -3 .. 3: every digit's sign and the top carry */
                        fr_from_u64(&s[i], rng.next() % 4);
                        if (rng.next() % 2)
                                fr_neg(&s[i], &s[i]);
                        break;
                case SCALARS_EQUAL:
                        s[i] = same;
                        break;
                case SCALARS_ONLY_ZERO_ONE:
                        fr_from_u64(&s[i], rng.next() % 2);
                        break;
                case SCALARS_ZERO:
                        fr_from_u64(&s[i], 0);
                        break;
                }
        }
}

/* Scalars 0 and 1 kept out of the digits (msm_config.compact) while set,
 * with the counts taken here as the prover takes them: on the host. */
static bool compact;
/* While not 0: a group of the batch's points holds this many windows before
 * msm_config_compact regroups (1 for 2^26 points or more), so that a few
 * hundred points regroup as a 2^27 witness does. */
static uint32_t compact_room;
/* Batches grow n/4, n/2, n (msm_ramp) while set. */
static bool ramp;
/* The window bits fixed as an operator fixes them (MsmWindow=,
 * msm_config_set_window_bits) while not 0. */
static uint32_t window_bits;

template <class G>
static void test_msm_case(const char *name, size_t n, scalar_shape shape, uint32_t batches,
                          uint32_t c, uint32_t seg_first, uint32_t seg_next, uint32_t group,
                          bool duplicates) {
        std::vector<typename G::affine> points(n);
        std::vector<fr_t> scalars(n);
        for (size_t i = 0; i < n; i++) {
                if (duplicates && i % 3 == 2)
                        points[i] = points[i / 3];
                else
                        G::random(&points[i]);
        }
        if (n > 4)
                G::set_infinity(&points[n / 2]);
        make_scalars(scalars.data(), n, shape);

        msm_config cfg = msm_make_config(n, batches);
        if (window_bits)
                msm_config_set_window_bits(&cfg, window_bits);
        /* ranges in whole waves of a few threads: uneven ranges (q and q + 1
         * items) and, for small sums, fewer items a range than M */
        cfg.wave = n % 2 ? 7 : 3;
        if (compact) {
                uint64_t n_big = 0, n_one = 0;
                for (size_t i = 0; i < n; i++) {
                        n_big += !fr_is_zero(&scalars[i]) && !fr_is_one(&scalars[i]);
                        n_one += fr_is_one(&scalars[i]);
                }
                if (compact_room)
                        cfg.group = compact_room;
                msm_config_compact(&cfg, n_big, n_one);
        }
        if (c) {
                cfg.c = c;
                cfg.seg_first = seg_first;
                cfg.seg_next = seg_next;
                cfg.group = group;
                msm_config_refresh(&cfg);
        }
        if (ramp)
                msm_ramp(&cfg);
        typename G::jac expect, got;
        int rc = G::cpu_msm(&expect, points.data(), scalars.data(), n);
        int rc2 = emu_msm<G>(&got, cfg, points.data(), scalars.data());
        char what[160];
        snprintf(what, sizeof(what),
                 "msm %s %s n=%zu batches=%u c=%u windows=%u group=%u M=%u/%u levels=%u%s%s%s",
                 G::name, name, n, cfg.batches, cfg.c, cfg.windows, cfg.group, cfg.seg_first,
                 cfg.seg_next, cfg.levels, window_bits ? " (fixed c)" : "",
                 cfg.compact ? " (0 and 1 apart)" : "", cfg.ramp ? " (ramped)" : "");
        cases.report(rc == 0 && rc2 == 0 && jac_same_affine<G>(&expect, &got), what);
}

template <class G> static void test_msm(void) {
        test_msm_case<G>("random", 1, SCALARS_RANDOM, 1, 0, 0, 0, 0, false);
        test_msm_case<G>("random", 300, SCALARS_RANDOM, 1, 0, 0, 0, 0, false);
        test_msm_case<G>("random", 1000, SCALARS_RANDOM, 1, 0, 0, 0, 0, true);
        test_msm_case<G>("zero-one", 700, SCALARS_ZERO_ONE, 1, 0, 0, 0, 0, false);
        test_msm_case<G>("small", 500, SCALARS_SMALL, 1, 0, 0, 0, 0, true);
        test_msm_case<G>("equal", 257, SCALARS_EQUAL, 1, 0, 0, 0, 0, false);
        /* Many levels and small groups. */
        test_msm_case<G>("random", 200, SCALARS_RANDOM, 1, 4, 2, 2, 3, false);
        test_msm_case<G>("zero-one", 600, SCALARS_ZERO_ONE, 1, 7, 3, 2, 5, true);
        test_msm_case<G>("small", 333, SCALARS_SMALL, 1, 3, 2, 3, 100, false);
        test_msm_case<G>("random", 128, SCALARS_RANDOM, 1, 16, 8, 16, 16, false);
        /* M = 128 (msm_level0_range's largest): ranges across a few buckets */
        test_msm_case<G>("random", 2000, SCALARS_RANDOM, 1, 5, 128, 16, 2, false);
        /* Batches whose buckets add up, the last one shorter; more batches
         * than points. */
        test_msm_case<G>("random", 1000, SCALARS_RANDOM, 3, 0, 0, 0, 0, true);
        test_msm_case<G>("zero-one", 777, SCALARS_ZERO_ONE, 4, 6, 2, 2, 4, false);
        test_msm_case<G>("small", 5, SCALARS_SMALL, 8, 0, 0, 0, 0, false);
        /* Ramped batches (n/4, n/2, then n): full batches after the ramp
         * and a short last one; one batch's points, the ramp's third batch
         * cut short; tiny batches; too few points to ramp. */
        ramp = true;
        test_msm_case<G>("random", 1000, SCALARS_RANDOM, 3, 0, 0, 0, 0, true);
        test_msm_case<G>("zero-one", 777, SCALARS_ZERO_ONE, 1, 6, 2, 2, 4, false);
        test_msm_case<G>("small", 40, SCALARS_SMALL, 2, 0, 0, 0, 0, false);
        test_msm_case<G>("random", 3, SCALARS_RANDOM, 1, 0, 0, 0, 0, false);
        ramp = false;
        /* 0 and 1 apart: one group and several, few or no others, no 1s. */
        compact = true;
        test_msm_case<G>("zero-one", 700, SCALARS_ZERO_ONE, 1, 0, 0, 0, 0, false);
        test_msm_case<G>("zero-one", 600, SCALARS_ZERO_ONE, 1, 7, 3, 2, 5, true);
        test_msm_case<G>("small", 500, SCALARS_SMALL, 1, 4, 2, 3, 7, true);
        test_msm_case<G>("random", 300, SCALARS_RANDOM, 1, 0, 0, 0, 0, false);
        test_msm_case<G>("only 0 and 1", 400, SCALARS_ONLY_ZERO_ONE, 1, 5, 4, 2, 3, false);
        test_msm_case<G>("zero", 100, SCALARS_ZERO, 1, 0, 0, 0, 0, false);
        test_msm_case<G>("equal", 257, SCALARS_EQUAL, 1, 0, 0, 0, 0, false);
        /* Regrouped from one window a group: several windows (1 in 4 not 0
         * or 1), one (nearly all), all (no others). */
        compact_room = 1;
        test_msm_case<G>("zero-one, regrouped", 700, SCALARS_ZERO_ONE, 1, 0, 0, 0, 0, true);
        test_msm_case<G>("small, regrouped", 500, SCALARS_SMALL, 1, 0, 0, 0, 0, false);
        test_msm_case<G>("only 0 and 1, regrouped", 400, SCALARS_ONLY_ZERO_ONE, 1, 0, 0, 0, 0,
                         false);
        compact_room = 0;
        compact = false;
        /* c fixed below and above the automatic choice (c = 6 at 1000
         * points), batches and 0 and 1 apart included. */
        window_bits = GPU_MSM_WINDOW_BITS_MIN;
        test_msm_case<G>("random", 1000, SCALARS_RANDOM, 1, 0, 0, 0, 0, true);
        test_msm_case<G>("zero-one", 777, SCALARS_ZERO_ONE, 3, 0, 0, 0, 0, false);
        window_bits = 9;
        test_msm_case<G>("random", 1000, SCALARS_RANDOM, 2, 0, 0, 0, 0, false);
        compact = true;
        test_msm_case<G>("zero-one", 700, SCALARS_ZERO_ONE, 1, 0, 0, 0, 0, false);
        compact = false;
        window_bits = 0;
}

/*
 * The window reduction alone (chunks, then levels of lanes) against
 * sum_b (b + 1) S_b by running sums in zk/, for two windows of random
 * buckets, a few of them empty; log_chunk < 0 keeps msm_split_reduction's.
 */
template <class G> static void test_window_reduction(uint32_t c, int log_chunk) {
        using xyzz_dev = typename G::curve::xyzz;
        msm_config cfg = {};
        cfg.c = c;
        cfg.windows = 2;
        cfg.buckets = 1u << (c - 1);
        msm_split_reduction(&cfg);
        if (log_chunk >= 0)
                cfg.log_chunk = (uint32_t)log_chunk;
        const uint64_t nb = (uint64_t)cfg.windows * cfg.buckets;
        const uint64_t chunks = nb >> cfg.log_chunk;
        /* sums of two of a few random points (fewer to make), one in 8 empty */
        std::vector<typename G::affine> base(61);
        for (auto &p : base)
                G::random(&p);
        std::vector<typename G::xyzz> buckets(nb);
        for (uint64_t b = 0; b < nb; b++) {
                typename G::xyzz other;
                G::xyzz_from_affine(&buckets[b], &base[rng.next() % base.size()]);
                G::xyzz_from_affine(&other, &base[rng.next() % base.size()]);
                G::xyzz_add(&buckets[b], &buckets[b], &other);
                if (rng.next() % 8 == 0)
                        memset(&buckets[b], 0, sizeof(buckets[b])); /* zz = 0: infinity */
        }
        std::vector<xyzz_dev> sums(chunks), weighted(chunks), span_sums(chunks),
                span_weighted(chunks), window_sums(cfg.windows);
        msm_buffers<typename G::curve> buf = {};
        buf.buckets = reinterpret_cast<xyzz_dev *>(buckets.data());
        buf.sums = sums.data();
        buf.weighted = weighted.data();
        buf.span_sums = span_sums.data();
        buf.span_weighted = span_weighted.data();
        buf.window_sums = window_sums.data();
        emu_msm_backend be;
        const int rc = msm_run_reduction<typename G::curve>(be, cfg, buf);
        bool same = rc == 0;
        for (uint32_t w = 0; w < cfg.windows; w++) {
                typename G::xyzz running, total;
                memset(&running, 0, sizeof(running)); /* zz = 0: infinity */
                memset(&total, 0, sizeof(total));
                for (uint32_t b = cfg.buckets; b-- > 0;) {
                        G::xyzz_add(&running, &running, &buckets[(uint64_t)w * cfg.buckets + b]);
                        G::xyzz_add(&total, &total, &running);
                }
                typename G::jac want, got;
                typename G::xyzz got_xyzz;
                memcpy(&got_xyzz, &window_sums[w], sizeof(got_xyzz));
                G::xyzz_to_jac(&want, &total);
                G::xyzz_to_jac(&got, &got_xyzz);
                same = same && jac_same_affine<G>(&want, &got);
        }
        char what[120];
        snprintf(what, sizeof(what),
                 "msm %s window reduction: c=%u, chunks of %u buckets, %u level(s) of lanes",
                 G::name, cfg.c, 1u << cfg.log_chunk, msm_combine_levels(cfg));
        cases.report(same, what);
}

/* The device's gather (one thread per wire) against zk/'s (per word), on
 * densities that leave a partial last word, are empty or full. */
static void test_density_gather(void) {
        const size_t sizes[] = {1, 63, 64, 65, 1000};
        for (size_t n : sizes)
                for (unsigned pattern = 0; pattern < 3; pattern++) {
                        wire_density *d = nullptr;
                        if (wire_density_new(&d, n) < 0) {
                                cases.report(false, "density: allocation");
                                return;
                        }
                        for (size_t j = 0; j < n; j++)
                                if (pattern == 1 || (pattern == 2 && rng.next() % 4 == 0))
                                        wire_density_set(d, j);
                        wire_density_seal(d);
                        std::vector<fr_t> w(n), want(n + 1), got(n + 1);
                        for (auto &x : w)
                                random_fr(&x);
                        wire_density_gather(d, w.data(), want.data());
                        const density_gather_step step{d->bits, d->rank, (const fr_dev *)w.data(),
                                                       (fr_dev *)got.data()};
                        for (size_t j = 0; j < n; j++)
                                step(j);
                        char what[96];
                        snprintf(what, sizeof(what), "density gather: %zu wires, %zu set", n,
                                 d->count);
                        cases.report(!memcmp(want.data(), got.data(), d->count * sizeof(fr_t)),
                                     what);
                        wire_density_free(d);
                }
}

int main(void) {
        test_density_gather();
        test_fr_arith();
        test_fp_arith();
        test_fp_mul_add();
        test_fp_lazy();
        test_host_fma();
        test_fp_f64<f64_sums::bit_patterns>("low halves as bit patterns");
        test_fp_f64<f64_sums::low_doubles>("low halves as doubles");
        test_fp_f64<f64_sums::fma_only>("FMAs alone");
        test_fr_canonical_and_pow();
        /* As host-to-host transforms: at 2^13 the first pass's twiddles come
         * from omega's powers, the second's from the direct table. */
        test_ntt(13, NTT_PASS_MAX_K, NTT_HOST_CHUNKS, 8);
        test_ntt(12, 3, 1, 0); /* as device-resident ones, no direct table */
        test_ntt(12, 3, 4, 5); /* many passes, each table for some */
        test_h();
        test_curve();
        test_digit_planes();
        test_digit_recoding();
        test_window_reduction<g1_emu>(16, 1); /* three levels: 5, 5 and 4 bits */
        test_window_reduction<g1_emu>(9, -1); /* one level */
        test_window_reduction<g2_emu>(12, 0); /* three levels: 4, 4 and 3 bits */
        test_msm<g1_emu>();
        test_msm<g2_emu>();
        return cases.finish();
}
