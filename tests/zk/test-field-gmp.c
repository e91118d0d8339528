/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Fp, Fr and Fp2 against GMP. Every operation of zk/fp.h, zk/fr.h and
 * zk/fp2.h runs on 100,000 random inputs (scaled by $CUZK_TEST_SCALE) plus
 * edge values: 0, 1, 2, m-1, m-2, (m-1)/2, (m+1)/2, the values whose
 * Montgomery form is 0..01 or R mod m, values with all-ones limbs, and for
 * decoding values >= m up to 2^(64n) - 1, which must be refused. Each
 * expected value is computed once with mpz_t modular arithmetic, written
 * from the definitions (e.g. Fp2 products as (a0 b0 - a1 b1, a0 b1 + a1 b0)),
 * and compared with the portable C path and, when the CPU has BMI2 and ADX,
 * with the assembly path.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <gmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/lib/ref.h"
#include "zk/cpu.h"

#define MAX_LIMBS 6
#define MAX_BYTES (8 * MAX_LIMBS)
#define RANDOM_INPUTS 100000

/* ---- arithmetic paths ---- */

typedef struct {
        const char *name;
        bool portable;
} path_t;

static const path_t all_paths[] = {{"portable", true}, {"x86_64-adx", false}};
static size_t n_paths = 1;

static void use_path(const path_t *p) {
        zk_arith_force_portable(p->portable);
}

/* ---- helpers ---- */

static long scaled(long n) {
        const char *s = getenv("CUZK_TEST_SCALE");
        double scale = s ? atof(s) : 1.0;
        long v = (long)((double)n * scale);
        return v > 0 ? v : 1;
}

static void mpz_from_limbs(mpz_t r, const uint64_t *l, size_t n) {
        mpz_import(r, n, -1, sizeof(uint64_t), 0, 0, l);
}

/* r must be in [0, 2^(64 n)). */
static void mpz_to_limbs(uint64_t *l, size_t n, const mpz_t r) {
        size_t count = 0;
        assert_true(mpz_sgn(r) >= 0 && mpz_sizeinbase(r, 2) <= 64 * n);
        memset(l, 0, n * sizeof(uint64_t));
        mpz_export(l, &count, -1, sizeof(uint64_t), 0, 0, r);
}

/* Big- or little-endian bytes of r, zero padded to len. */
static void mpz_to_bytes(uint8_t *out, size_t len, const mpz_t r, bool big_endian) {
        size_t count = 0;
        uint8_t tmp[MAX_BYTES] = {0};
        assert_true(mpz_sgn(r) >= 0 && mpz_sizeinbase(r, 2) <= 8 * len);
        mpz_export(tmp, &count, -1, 1, 0, 0, r);
        for (size_t i = 0; i < len; i++)
                out[big_endian ? len - 1 - i : i] = tmp[i];
}

static void hex_of(char *buf, size_t cap, const uint64_t *l, size_t n) {
        assert_true(cap >= 2 + 16 * n + 1);
        ref_limbs_to_hex(buf, l, n);
}

/* Prints the inputs, the expected and the computed value, and fails. */
static void fail_limbs(const char *field, const char *op, const path_t *path, size_t n,
                       const uint64_t *a, const uint64_t *b, const uint64_t *want,
                       const uint64_t *got) {
        char ha[128], hb[128], hw[128], hg[128];
        hex_of(ha, sizeof(ha), a, n);
        if (b)
                hex_of(hb, sizeof(hb), b, n);
        hex_of(hw, sizeof(hw), want, n);
        hex_of(hg, sizeof(hg), got, n);
        fail_msg("%s %s (%s path): a=%s%s%s: GMP says %s, got %s", field, op, path->name, ha,
                 b ? " b=" : "", b ? hb : "", hw, hg);
}

/* Uniform below m (top limb masked to m's bit length, then rejection); one
 * draw in four builds the limbs from 0, 1, all-ones and random words, to
 * reach the carry patterns that uniform values rarely hit. */
static void random_below(uint64_t *r, const uint64_t *m, size_t n) {
        unsigned top_bits = 64 - (unsigned)__builtin_clzll(m[n - 1]);
        uint64_t top_mask = top_bits == 64 ? ~0ULL : (1ULL << top_bits) - 1;
        bool structured = (test_rng_u64() & 3) == 0;

        for (;;) {
                for (size_t i = 0; i < n; i++) {
                        uint64_t w = test_rng_u64();
                        if (structured) {
                                static const uint64_t pick[] = {0, 1, ~0ULL};
                                uint64_t k = test_rng_u64() % 4;
                                w = k < 3 ? pick[k] : w;
                        }
                        r[i] = w;
                }
                r[n - 1] &= top_mask;
                bool below = false;
                for (size_t i = n; i-- > 0;)
                        if (r[i] != m[i]) {
                                below = r[i] < m[i];
                                break;
                        }
                if (below)
                        return;
        }
}

/* ---- prime fields (Fp and Fr) through one table of wrappers ---- */

typedef union {
        fp_t fp;
        fr_t fr;
} elem_t;

typedef enum {
        OP_ADD,
        OP_SUB,
        OP_MUL,
        OP_NEG,
        OP_DBL,
        OP_SQR,
        OP_INV,
        OP_COUNT,
} op_t;

static const char *const op_names[OP_COUNT] = {"add", "sub", "mul", "neg", "dbl", "sqr", "inv"};

typedef void (*elem_op_fn)(elem_t *r, const elem_t *a, const elem_t *b);

typedef struct {
        const char *name;
        size_t limbs;
        const uint64_t *modulus;
        elem_op_fn op[OP_COUNT];
        bool (*from_canonical)(elem_t *r, const uint64_t *a);
        void (*to_canonical)(uint64_t *r, const elem_t *a);
        void (*from_u64)(elem_t *r, uint64_t v);
        void (*set_zero)(elem_t *r);
        void (*set_one)(elem_t *r);
        bool (*is_zero)(const elem_t *a);
        bool (*is_one)(const elem_t *a);
        bool (*equal)(const elem_t *a, const elem_t *b);
        void (*pow)(elem_t *r, const elem_t *a, const uint64_t *e, size_t n);
        int (*legendre)(const elem_t *a);
        bool (*sqrt)(elem_t *r, const elem_t *a);
        bool (*is_lex_largest)(const elem_t *a);
        bool (*from_bytes[3])(elem_t *r, const uint8_t *in);
        void (*to_bytes[3])(uint8_t *out, const elem_t *a);
} prime_field_t;

/* Byte encodings, in the order of from_bytes/to_bytes. */
enum { ENC_BE, ENC_LE, ENC_MONT_LE, ENC_COUNT };
static const char *const enc_names[ENC_COUNT] = {"be_bytes", "le_bytes", "mont_le_bytes"};

#define PRIME_FIELD_WRAPPERS(P, M)                                                       \
        static void P##_w_add(elem_t *r, const elem_t *a, const elem_t *b) {             \
                P##_add(&r->M, &a->M, &b->M);                                            \
        }                                                                                \
        static void P##_w_sub(elem_t *r, const elem_t *a, const elem_t *b) {             \
                P##_sub(&r->M, &a->M, &b->M);                                            \
        }                                                                                \
        static void P##_w_mul(elem_t *r, const elem_t *a, const elem_t *b) {             \
                P##_mul(&r->M, &a->M, &b->M);                                            \
        }                                                                                \
        static void P##_w_neg(elem_t *r, const elem_t *a, const elem_t *b) {             \
                (void)b;                                                                 \
                P##_neg(&r->M, &a->M);                                                   \
        }                                                                                \
        static void P##_w_dbl(elem_t *r, const elem_t *a, const elem_t *b) {             \
                (void)b;                                                                 \
                P##_dbl(&r->M, &a->M);                                                   \
        }                                                                                \
        static void P##_w_sqr(elem_t *r, const elem_t *a, const elem_t *b) {             \
                (void)b;                                                                 \
                P##_sqr(&r->M, &a->M);                                                   \
        }                                                                                \
        static void P##_w_inv(elem_t *r, const elem_t *a, const elem_t *b) {             \
                (void)b;                                                                 \
                P##_inv(&r->M, &a->M);                                                   \
        }                                                                                \
        static bool P##_w_from_canonical(elem_t *r, const uint64_t *a) {                 \
                return P##_from_canonical(&r->M, a);                                     \
        }                                                                                \
        static void P##_w_to_canonical(uint64_t *r, const elem_t *a) {                   \
                P##_to_canonical(r, &a->M);                                              \
        }                                                                                \
        static void P##_w_from_u64(elem_t *r, uint64_t v) {                              \
                P##_from_u64(&r->M, v);                                                  \
        }                                                                                \
        static void P##_w_set_zero(elem_t *r) {                                          \
                P##_set_zero(&r->M);                                                     \
        }                                                                                \
        static void P##_w_set_one(elem_t *r) {                                           \
                P##_set_one(&r->M);                                                      \
        }                                                                                \
        static bool P##_w_is_zero(const elem_t *a) {                                     \
                return P##_is_zero(&a->M);                                               \
        }                                                                                \
        static bool P##_w_is_one(const elem_t *a) {                                      \
                return P##_is_one(&a->M);                                                \
        }                                                                                \
        static bool P##_w_equal(const elem_t *a, const elem_t *b) {                      \
                return P##_equal(&a->M, &b->M);                                          \
        }                                                                                \
        static void P##_w_pow(elem_t *r, const elem_t *a, const uint64_t *e, size_t n) { \
                P##_pow(&r->M, &a->M, e, n);                                             \
        }                                                                                \
        static int P##_w_legendre(const elem_t *a) {                                     \
                return P##_legendre(&a->M);                                              \
        }                                                                                \
        static bool P##_w_sqrt(elem_t *r, const elem_t *a) {                             \
                return P##_sqrt(&r->M, &a->M);                                           \
        }                                                                                \
        static bool P##_w_is_lex_largest(const elem_t *a) {                              \
                return P##_is_lexicographically_largest(&a->M);                          \
        }                                                                                \
        static bool P##_w_from_be(elem_t *r, const uint8_t *in) {                        \
                return P##_from_be_bytes(&r->M, in);                                     \
        }                                                                                \
        static bool P##_w_from_le(elem_t *r, const uint8_t *in) {                        \
                return P##_from_le_bytes(&r->M, in);                                     \
        }                                                                                \
        static bool P##_w_from_mont_le(elem_t *r, const uint8_t *in) {                   \
                return P##_from_mont_le_bytes(&r->M, in);                                \
        }                                                                                \
        static void P##_w_to_be(uint8_t *out, const elem_t *a) {                         \
                P##_to_be_bytes(out, &a->M);                                             \
        }                                                                                \
        static void P##_w_to_le(uint8_t *out, const elem_t *a) {                         \
                P##_to_le_bytes(out, &a->M);                                             \
        }                                                                                \
        static void P##_w_to_mont_le(uint8_t *out, const elem_t *a) {                    \
                P##_to_mont_le_bytes(out, &a->M);                                        \
        }

#define PRIME_FIELD_TABLE(P, NAME, LIMBS, MODULUS)                                                \
        {                                                                                         \
                .name = NAME, .limbs = LIMBS,                                                     \
                .modulus = MODULUS, .op = {P##_w_add, P##_w_sub, P##_w_mul, P##_w_neg,            \
                                           P##_w_dbl, P##_w_sqr, P##_w_inv},                      \
                .from_canonical = P##_w_from_canonical, .to_canonical = P##_w_to_canonical,       \
                .from_u64 = P##_w_from_u64, .set_zero = P##_w_set_zero, .set_one = P##_w_set_one, \
                .is_zero = P##_w_is_zero, .is_one = P##_w_is_one, .equal = P##_w_equal,           \
                .pow = P##_w_pow, .legendre = P##_w_legendre, .sqrt = P##_w_sqrt,                 \
                .is_lex_largest = P##_w_is_lex_largest,                                           \
                .from_bytes = {P##_w_from_be, P##_w_from_le, P##_w_from_mont_le},                 \
                .to_bytes = {P##_w_to_be, P##_w_to_le, P##_w_to_mont_le},                         \
        }

PRIME_FIELD_WRAPPERS(fp, fp)
PRIME_FIELD_WRAPPERS(fr, fr)

static const prime_field_t field_fp = PRIME_FIELD_TABLE(fp, "Fp", FP_LIMBS, BLS12_381_P);
static const prime_field_t field_fr = PRIME_FIELD_TABLE(fr, "Fr", FR_LIMBS, BLS12_381_R);

/* GMP view of a prime field: the modulus, R = 2^(64n) mod m, R^-1 mod m. */
typedef struct {
        const prime_field_t *f;
        mpz_t m, r_mont, r_inv, half;
} gmp_field_t;

static void gmp_field_init(gmp_field_t *g, const prime_field_t *f) {
        g->f = f;
        mpz_inits(g->m, g->r_mont, g->r_inv, g->half, NULL);
        mpz_from_limbs(g->m, f->modulus, f->limbs);
        mpz_set_ui(g->r_mont, 1);
        mpz_mul_2exp(g->r_mont, g->r_mont, 64 * f->limbs);
        mpz_mod(g->r_mont, g->r_mont, g->m);
        assert_true(mpz_invert(g->r_inv, g->r_mont, g->m));
        mpz_sub_ui(g->half, g->m, 1);
        mpz_fdiv_q_2exp(g->half, g->half, 1);
}

static void gmp_field_clear(gmp_field_t *g) {
        mpz_clears(g->m, g->r_mont, g->r_inv, g->half, NULL);
}

/* Edge values below m, as canonical limbs; returns how many. */
#define MAX_EDGES 32
static size_t edge_values(uint64_t out[][MAX_LIMBS], const gmp_field_t *g) {
        const size_t n = g->f->limbs;
        size_t k = 0;
        mpz_t v;

        mpz_init(v);
#define EDGE_FROM_MPZ()                       \
        do {                                  \
                mpz_mod(v, v, g->m);          \
                mpz_to_limbs(out[k++], n, v); \
        } while (0)
        for (unsigned long small = 0; small <= 3; small++) {
                mpz_set_ui(v, small);
                EDGE_FROM_MPZ();
        }
        for (unsigned long below = 1; below <= 3; below++) {
                mpz_sub_ui(v, g->m, below);
                EDGE_FROM_MPZ();
        }
        mpz_set(v, g->half); /* (m-1)/2 */
        EDGE_FROM_MPZ();
        mpz_add_ui(v, g->half, 1); /* (m+1)/2 */
        EDGE_FROM_MPZ();
        mpz_add_ui(v, g->half, 2);
        EDGE_FROM_MPZ();
        mpz_set(v, g->r_inv); /* Montgomery form 0..01 */
        EDGE_FROM_MPZ();
        mpz_sub(v, g->m, g->r_inv);
        EDGE_FROM_MPZ();
        mpz_set(v, g->r_mont); /* Montgomery form R mod m */
        EDGE_FROM_MPZ();
        mpz_set_ui(v, 1);
        mpz_mul_2exp(v, v, 64); /* 2^64: a carry into limb 1 */
        EDGE_FROM_MPZ();
        mpz_sub_ui(v, v, 1);
        EDGE_FROM_MPZ();
        mpz_set_ui(v, 1);
        mpz_mul_2exp(v, v, mpz_sizeinbase(g->m, 2) - 1); /* highest power of 2 below m */
        EDGE_FROM_MPZ();
        mpz_sub_ui(v, v, 1);
        EDGE_FROM_MPZ();
        mpz_set_ui(v, 1);
        mpz_mul_2exp(v, v, 64);
        mpz_sub(v, g->m, v); /* m - 2^64 */
        EDGE_FROM_MPZ();
#undef EDGE_FROM_MPZ
        /* all-ones limbs under m's top limb, in a few patterns */
        for (unsigned pattern = 1; pattern < 8 && k < MAX_EDGES; pattern++) {
                for (size_t i = 0; i + 1 < n; i++)
                        out[k][i] = ((pattern >> (i % 3)) & 1) ? ~0ULL : 0;
                out[k][n - 1] = g->f->modulus[n - 1] - 1;
                k++;
        }
        mpz_clear(v);
        assert_true(k <= MAX_EDGES);
        return k;
}

static void to_elem(const prime_field_t *f, elem_t *r, const uint64_t *canonical) {
        assert_true(f->from_canonical(r, canonical));
}

static void gmp_apply(const gmp_field_t *g, op_t op, mpz_t r, const mpz_t a, const mpz_t b) {
        switch (op) {
        case OP_ADD:
                mpz_add(r, a, b);
                break;
        case OP_SUB:
                mpz_sub(r, a, b);
                break;
        case OP_MUL:
                mpz_mul(r, a, b);
                break;
        case OP_NEG:
                mpz_neg(r, a);
                break;
        case OP_DBL:
                mpz_mul_2exp(r, a, 1);
                break;
        case OP_SQR:
                mpz_mul(r, a, a);
                break;
        case OP_INV:
                if (mpz_sgn(a) == 0)
                        mpz_set_ui(r, 0);
                else
                        assert_true(mpz_invert(r, a, g->m));
                break;
        default:
                fail();
        }
        mpz_mod(r, r, g->m);
}

/* One input (a, b) of one operation: GMP once, then every path. */
static void check_op_once(const gmp_field_t *g, op_t op, const uint64_t *a, const uint64_t *b,
                          mpz_t za, mpz_t zb, mpz_t zr) {
        const prime_field_t *f = g->f;
        uint64_t want[MAX_LIMBS], got[MAX_LIMBS];
        bool binary = op == OP_ADD || op == OP_SUB || op == OP_MUL;

        mpz_from_limbs(za, a, f->limbs);
        mpz_from_limbs(zb, b, f->limbs);
        gmp_apply(g, op, zr, za, zb);
        mpz_to_limbs(want, f->limbs, zr);
        for (size_t p = 0; p < n_paths; p++) {
                elem_t x, y, z;
                use_path(&all_paths[p]);
                to_elem(f, &x, a);
                to_elem(f, &y, b);
                f->op[op](&z, &x, &y);
                f->to_canonical(got, &z);
                if (memcmp(got, want, f->limbs * sizeof(uint64_t)))
                        fail_limbs(f->name, op_names[op], &all_paths[p], f->limbs, a,
                                   binary ? b : NULL, want, got);
                /* in place, r aliasing a */
                z = x;
                f->op[op](&z, &z, &y);
                f->to_canonical(got, &z);
                if (memcmp(got, want, f->limbs * sizeof(uint64_t)))
                        fail_limbs(f->name, op_names[op], &all_paths[p], f->limbs, a,
                                   binary ? b : NULL, want, got);
        }
}

static void check_prime_field_arithmetic(const prime_field_t *f) {
        uint64_t edges[MAX_EDGES][MAX_LIMBS], a[MAX_LIMBS], b[MAX_LIMBS];
        gmp_field_t g;
        mpz_t za, zb, zr;
        long count = scaled(RANDOM_INPUTS);

        gmp_field_init(&g, f);
        mpz_inits(za, zb, zr, NULL);
        size_t n_edges = edge_values(edges, &g);
        for (op_t op = 0; op < OP_COUNT; op++) {
                test_rng_seed(100 + op);
                for (size_t i = 0; i < n_edges; i++)
                        for (size_t j = 0; j < n_edges; j++)
                                check_op_once(&g, op, edges[i], edges[j], za, zb, zr);
                for (long it = 0; it < count; it++) {
                        random_below(a, f->modulus, f->limbs);
                        random_below(b, f->modulus, f->limbs);
                        check_op_once(&g, op, a, b, za, zb, zr);
                }
        }
        mpz_clears(za, zb, zr, NULL);
        gmp_field_clear(&g);
}

/* from/to canonical, the Montgomery constants, from_u64, zero/one/equal. */
static void check_prime_field_conversions(const prime_field_t *f) {
        uint64_t edges[MAX_EDGES][MAX_LIMBS], a[MAX_LIMBS], want[MAX_LIMBS], got[MAX_LIMBS];
        uint8_t mont[MAX_BYTES];
        gmp_field_t g;
        mpz_t za, zr;
        long count = scaled(RANDOM_INPUTS);
        const size_t n = f->limbs;

        gmp_field_init(&g, f);
        mpz_inits(za, zr, NULL);
        size_t n_edges = edge_values(edges, &g);
        test_rng_seed(200);
        for (long it = -(long)n_edges; it < count; it++) {
                if (it < 0)
                        memcpy(a, edges[it + (long)n_edges], sizeof(a));
                else
                        random_below(a, f->modulus, n);
                mpz_from_limbs(za, a, n);
                /* the stored form must be a R mod m */
                mpz_mul(zr, za, g.r_mont);
                mpz_mod(zr, zr, g.m);
                mpz_to_limbs(want, n, zr);
                for (size_t p = 0; p < n_paths; p++) {
                        elem_t x, y;
                        use_path(&all_paths[p]);
                        to_elem(f, &x, a);
                        f->to_bytes[ENC_MONT_LE](mont, &x);
                        memset(got, 0, sizeof(got));
                        for (size_t i = 0; i < 8 * n; i++)
                                got[i / 8] |= (uint64_t)mont[i] << (8 * (i % 8));
                        if (memcmp(got, want, n * sizeof(uint64_t)))
                                fail_limbs(f->name, "from_canonical (Montgomery form)",
                                           &all_paths[p], n, a, NULL, want, got);
                        f->to_canonical(got, &x);
                        if (memcmp(got, a, n * sizeof(uint64_t)))
                                fail_limbs(f->name, "to_canonical", &all_paths[p], n, a, NULL, a,
                                           got);
                        assert_int_equal(f->is_zero(&x), mpz_sgn(za) == 0);
                        assert_int_equal(f->is_one(&x), mpz_cmp_ui(za, 1) == 0);
                        y = x;
                        assert_true(f->equal(&x, &y));
                        y.fp.l[test_rng_u64() % n] ^= 1ULL << (test_rng_u64() % 64);
                        assert_false(f->equal(&x, &y));
                }
        }

        /* from_canonical refuses m and above */
        memcpy(a, f->modulus, n * sizeof(uint64_t));
        for (size_t p = 0; p < n_paths; p++) {
                elem_t x;
                use_path(&all_paths[p]);
                assert_false(f->from_canonical(&x, a));
                a[0]++;
                assert_false(f->from_canonical(&x, a));
                memset(a, 0xff, n * sizeof(uint64_t));
                assert_false(f->from_canonical(&x, a));
                memcpy(a, f->modulus, n * sizeof(uint64_t));
        }

        /* from_u64, set_zero, set_one */
        for (long it = 0; it < count; it++) {
                uint64_t v = it < 3 ? (uint64_t[]){0, 1, ~0ULL}[it] : test_rng_u64();
                mpz_set_ui(za, 0);
                mpz_import(za, 1, -1, sizeof(v), 0, 0, &v);
                mpz_mod(za, za, g.m);
                mpz_to_limbs(want, n, za);
                for (size_t p = 0; p < n_paths; p++) {
                        elem_t x;
                        use_path(&all_paths[p]);
                        f->from_u64(&x, v);
                        f->to_canonical(got, &x);
                        if (memcmp(got, want, n * sizeof(uint64_t)))
                                fail_limbs(f->name, "from_u64", &all_paths[p], n, want, NULL, want,
                                           got);
                }
        }
        for (size_t p = 0; p < n_paths; p++) {
                elem_t x;
                use_path(&all_paths[p]);
                f->set_zero(&x);
                f->to_canonical(got, &x);
                assert_true(f->is_zero(&x) && !f->is_one(&x));
                for (size_t i = 0; i < n; i++)
                        assert_true(got[i] == 0);
                f->set_one(&x);
                f->to_canonical(got, &x);
                assert_true(f->is_one(&x) && !f->is_zero(&x));
                for (size_t i = 0; i < n; i++)
                        assert_true(got[i] == (i == 0));
        }
        mpz_clears(za, zr, NULL);
        gmp_field_clear(&g);
}

static void check_prime_field_pow(const prime_field_t *f) {
        uint64_t edges[MAX_EDGES][MAX_LIMBS], a[MAX_LIMBS], e[MAX_LIMBS + 1], want[MAX_LIMBS],
                got[MAX_LIMBS];
        gmp_field_t g;
        mpz_t za, ze, zr;
        long count = scaled(RANDOM_INPUTS);
        const size_t n = f->limbs;

        gmp_field_init(&g, f);
        mpz_inits(za, ze, zr, NULL);
        size_t n_edges = edge_values(edges, &g);
        test_rng_seed(300);
        for (long it = -(long)(n_edges * n_edges); it < count; it++) {
                size_t e_limbs;
                if (it < 0) {
                        /* edge bases with edge exponents (m-1, m-2, (m-1)/2, ...) */
                        size_t k = (size_t)(it + (long)(n_edges * n_edges));
                        memcpy(a, edges[k / n_edges], sizeof(a));
                        memcpy(e, edges[k % n_edges], n * sizeof(uint64_t));
                        e_limbs = n;
                } else {
                        /* three in four exponents are one limb of random bit length
                         * (0..64), the others 2..n+1 limbs; the edge exponents
                         * above and sqrt/legendre cover full lengths too */
                        random_below(a, f->modulus, n);
                        if (test_rng_u64() & 3) {
                                unsigned bits = (unsigned)(test_rng_u64() % 65);
                                e_limbs = 1;
                                e[0] = bits ? test_rng_u64() >> (64 - bits) : 0;
                        } else {
                                e_limbs = 2 + test_rng_u64() % n;
                                for (size_t i = 0; i < e_limbs; i++)
                                        e[i] = (test_rng_u64() & 7) == 0 ? ~0ULL : test_rng_u64();
                        }
                }
                mpz_from_limbs(za, a, n);
                mpz_from_limbs(ze, e, e_limbs);
                mpz_powm(zr, za, ze, g.m);
                mpz_to_limbs(want, n, zr);
                for (size_t p = 0; p < n_paths; p++) {
                        elem_t x, r;
                        use_path(&all_paths[p]);
                        to_elem(f, &x, a);
                        f->pow(&r, &x, e, e_limbs);
                        f->to_canonical(got, &r);
                        if (memcmp(got, want, n * sizeof(uint64_t))) {
                                char he[256];
                                ref_limbs_to_hex(he, e, e_limbs ? e_limbs : 1);
                                print_error("exponent %s (%zu limbs)\n", e_limbs ? he : "0",
                                            e_limbs);
                                fail_limbs(f->name, "pow", &all_paths[p], n, a, NULL, want, got);
                        }
                }
        }
        mpz_clears(za, ze, zr, NULL);
        gmp_field_clear(&g);
}

/* legendre, sqrt (squares get a root whose square is the input; the input
 * is refused, r untouched, exactly when GMP's Legendre symbol is -1) and
 * is_lexicographically_largest. */
static void check_prime_field_sqrt(const prime_field_t *f) {
        uint64_t edges[MAX_EDGES][MAX_LIMBS], a[MAX_LIMBS], got[MAX_LIMBS];
        gmp_field_t g;
        mpz_t za, zr;
        long count = scaled(RANDOM_INPUTS);
        const size_t n = f->limbs;

        gmp_field_init(&g, f);
        mpz_inits(za, zr, NULL);
        size_t n_edges = edge_values(edges, &g);
        test_rng_seed(400);
        for (long it = -2 * (long)n_edges; it < count; it++) {
                if (it < 0) {
                        memcpy(a, edges[(it + 2 * (long)n_edges) / 2], sizeof(a));
                } else {
                        random_below(a, f->modulus, n);
                }
                mpz_from_limbs(za, a, n);
                if (it & 1) { /* every other input is a square */
                        mpz_mul(za, za, za);
                        mpz_mod(za, za, g.m);
                        mpz_to_limbs(a, n, za);
                }
                int want_legendre = mpz_legendre(za, g.m);
                bool want_largest = mpz_cmp(za, g.half) > 0;
                for (size_t p = 0; p < n_paths; p++) {
                        elem_t x, r, before;
                        use_path(&all_paths[p]);
                        to_elem(f, &x, a);
                        if (f->legendre(&x) != want_legendre)
                                fail_msg("%s legendre (%s path) of input %ld: got %d, GMP %d",
                                         f->name, all_paths[p].name, it, f->legendre(&x),
                                         want_legendre);
                        if (f->is_lex_largest(&x) != want_largest)
                                fail_msg("%s is_lexicographically_largest (%s path) wrong", f->name,
                                         all_paths[p].name);
                        f->from_u64(&r, 12345);
                        before = r;
                        bool found = f->sqrt(&r, &x);
                        if (want_legendre < 0) {
                                if (found || !f->equal(&r, &before))
                                        fail_msg("%s sqrt (%s path) accepted a non-square", f->name,
                                                 all_paths[p].name);
                                continue;
                        }
                        if (!found)
                                fail_msg("%s sqrt (%s path) refused a square", f->name,
                                         all_paths[p].name);
                        f->to_canonical(got, &r);
                        mpz_from_limbs(zr, got, n);
                        mpz_mul(zr, zr, zr);
                        mpz_mod(zr, zr, g.m);
                        if (mpz_cmp(zr, za) != 0)
                                fail_msg("%s sqrt (%s path): root squared is not the input",
                                         f->name, all_paths[p].name);
                        /* in place, on a sample (it costs a full exponentiation) */
                        if ((it & 15) == 1 && (!f->sqrt(&x, &x) || !f->equal(&x, &r)))
                                fail_msg("%s sqrt in place (%s path) differs", f->name,
                                         all_paths[p].name);
                }
        }
        mpz_clears(za, zr, NULL);
        gmp_field_clear(&g);
}

/* Encodings: bytes of random and edge elements against mpz_export, and
 * decoding of byte strings spread over [0, 2^(64n)), refused exactly when
 * the value is >= m. */
static void check_prime_field_bytes(const prime_field_t *f) {
        uint64_t edges[MAX_EDGES][MAX_LIMBS], a[MAX_LIMBS], got[MAX_LIMBS];
        uint8_t want[MAX_BYTES], out[MAX_BYTES], in[MAX_BYTES];
        gmp_field_t g;
        mpz_t za, zv;
        long count = scaled(RANDOM_INPUTS);
        const size_t n = f->limbs, len = 8 * f->limbs;

        gmp_field_init(&g, f);
        mpz_inits(za, zv, NULL);
        size_t n_edges = edge_values(edges, &g);
        test_rng_seed(500);

        /* encoding */
        for (long it = -(long)n_edges; it < count; it++) {
                if (it < 0)
                        memcpy(a, edges[it + (long)n_edges], sizeof(a));
                else
                        random_below(a, f->modulus, n);
                mpz_from_limbs(za, a, n);
                for (int enc = 0; enc < ENC_COUNT; enc++) {
                        if (enc == ENC_MONT_LE) {
                                mpz_mul(zv, za, g.r_mont);
                                mpz_mod(zv, zv, g.m);
                        } else {
                                mpz_set(zv, za);
                        }
                        mpz_to_bytes(want, len, zv, enc == ENC_BE);
                        for (size_t p = 0; p < n_paths; p++) {
                                elem_t x;
                                use_path(&all_paths[p]);
                                to_elem(f, &x, a);
                                f->to_bytes[enc](out, &x);
                                if (memcmp(out, want, len)) {
                                        char ha[128];
                                        hex_of(ha, sizeof(ha), a, n);
                                        fail_msg("%s to_%s (%s path) of %s: bytes differ from "
                                                 "GMP's export",
                                                 f->name, enc_names[enc], all_paths[p].name, ha);
                                }
                        }
                }
        }

        /* decoding: values below m, values just at and above m, and values
         * up to 2^(64n) - 1 (around 2^(bits of m) and all ones) */
        mpz_t top;
        mpz_init(top);
        mpz_set_ui(top, 1);
        mpz_mul_2exp(top, top, 64 * n);
        for (long it = -16; it < count; it++) {
                switch (it < 0 ? (int)-it : (int)(it % 4)) {
                case 0: /* below m */
                        random_below(a, f->modulus, n);
                        mpz_from_limbs(zv, a, n);
                        break;
                case 1: /* anywhere below 2^(64n) */
                case 3:
                        for (size_t i = 0; i < n; i++)
                                a[i] = test_rng_u64();
                        mpz_from_limbs(zv, a, n);
                        break;
                case 2: /* m + small */
                        mpz_add_ui(zv, g.m, test_rng_u64() % 1024);
                        break;
                case 4: /* m - 1 */
                        mpz_sub_ui(zv, g.m, 1);
                        break;
                case 5: /* m */
                        mpz_set(zv, g.m);
                        break;
                case 6: /* 2^(bits of m) - 1 and 2^(bits of m) */
                case 7:
                        mpz_set_ui(zv, 1);
                        mpz_mul_2exp(zv, zv, mpz_sizeinbase(g.m, 2));
                        if (it == -6)
                                mpz_sub_ui(zv, zv, 1);
                        break;
                case 8: /* 2^(64n) - 1 */
                        mpz_sub_ui(zv, top, 1);
                        break;
                case 9: /* 2^(64n) - 2^64 */
                        mpz_set_ui(zv, 1);
                        mpz_mul_2exp(zv, zv, 64);
                        mpz_sub(zv, top, zv);
                        break;
                default: /* all-ones limbs above m */
                        for (size_t i = 0; i < n; i++)
                                a[i] = (test_rng_u64() & 1) ? ~0ULL : test_rng_u64();
                        a[n - 1] |= 1ULL << 63;
                        mpz_from_limbs(zv, a, n);
                        break;
                }
                bool accept = mpz_cmp(zv, g.m) < 0;
                for (int enc = 0; enc < ENC_COUNT; enc++) {
                        mpz_to_bytes(in, len, zv, enc == ENC_BE);
                        /* the canonical value a decoded element must have */
                        if (enc == ENC_MONT_LE)
                                mpz_mul(za, zv, g.r_inv);
                        else
                                mpz_set(za, zv);
                        mpz_mod(za, za, g.m);
                        mpz_to_limbs(a, n, za);
                        for (size_t p = 0; p < n_paths; p++) {
                                elem_t x;
                                use_path(&all_paths[p]);
                                bool ok = f->from_bytes[enc](&x, in);
                                if (ok != accept) {
                                        char hv[256];
                                        mpz_get_str(hv, 16, zv);
                                        fail_msg("%s from_%s (%s path) of 0x%s: %s, expected %s",
                                                 f->name, enc_names[enc], all_paths[p].name, hv,
                                                 ok ? "accepted" : "refused",
                                                 accept ? "accepted" : "refused");
                                }
                                if (!accept)
                                        continue;
                                f->to_canonical(got, &x);
                                if (memcmp(got, a, n * sizeof(uint64_t)))
                                        fail_limbs(f->name, enc_names[enc], &all_paths[p], n, a,
                                                   NULL, a, got);
                        }
                }
        }
        mpz_clear(top);
        mpz_clears(za, zv, NULL);
        gmp_field_clear(&g);
}

static void test_fp_arithmetic(void **state) {
        (void)state;
        check_prime_field_arithmetic(&field_fp);
}

static void test_fr_arithmetic(void **state) {
        (void)state;
        check_prime_field_arithmetic(&field_fr);
}

static void test_fp_conversions(void **state) {
        (void)state;
        check_prime_field_conversions(&field_fp);
}

static void test_fr_conversions(void **state) {
        (void)state;
        check_prime_field_conversions(&field_fr);
}

static void test_fp_pow(void **state) {
        (void)state;
        check_prime_field_pow(&field_fp);
}

static void test_fr_pow(void **state) {
        (void)state;
        check_prime_field_pow(&field_fr);
}

static void test_fp_sqrt_legendre(void **state) {
        (void)state;
        check_prime_field_sqrt(&field_fp);
}

static void test_fr_sqrt_legendre(void **state) {
        (void)state;
        check_prime_field_sqrt(&field_fr);
}

static void test_fp_bytes(void **state) {
        (void)state;
        check_prime_field_bytes(&field_fp);
}

static void test_fr_bytes(void **state) {
        (void)state;
        check_prime_field_bytes(&field_fr);
}

/* ---- Fp2 = Fp[u]/(u^2 + 1) ---- */

typedef struct {
        mpz_t c0, c1;
} mpz2_t;

/* p, (p-1)/2 and two scratch integers for the Fp2 reference arithmetic. */
typedef struct {
        mpz_t p, half, t0, t1;
} fp2_gmp_t;

static void fp2_gmp_init(fp2_gmp_t *g) {
        mpz_inits(g->p, g->half, g->t0, g->t1, NULL);
        mpz_from_limbs(g->p, BLS12_381_P, FP_LIMBS);
        mpz_sub_ui(g->half, g->p, 1);
        mpz_fdiv_q_2exp(g->half, g->half, 1);
}

static void fp2_gmp_clear(fp2_gmp_t *g) {
        mpz_clears(g->p, g->half, g->t0, g->t1, NULL);
}

static void mpz2_init(mpz2_t *a) {
        mpz_inits(a->c0, a->c1, NULL);
}

static void mpz2_clear(mpz2_t *a) {
        mpz_clears(a->c0, a->c1, NULL);
}

static void mpz2_from_fp2_limbs(mpz2_t *r, const uint64_t a[2][MAX_LIMBS]) {
        mpz_from_limbs(r->c0, a[0], FP_LIMBS);
        mpz_from_limbs(r->c1, a[1], FP_LIMBS);
}

/* r = a * b, from the definition: (a0 b0 - a1 b1) + (a0 b1 + a1 b0) u. */
static void mpz2_mul(mpz2_t *r, const mpz2_t *a, const mpz2_t *b, fp2_gmp_t *g) {
        mpz_mul(g->t0, a->c0, b->c0);
        mpz_submul(g->t0, a->c1, b->c1);
        mpz_mul(g->t1, a->c0, b->c1);
        mpz_addmul(g->t1, a->c1, b->c0);
        mpz_mod(r->c0, g->t0, g->p);
        mpz_mod(r->c1, g->t1, g->p);
}

/* Legendre symbol of the norm a0^2 + a1^2: a is a square in Fp2 iff its
 * norm is a square in Fp. */
static int mpz2_norm_legendre(const mpz2_t *a, fp2_gmp_t *g) {
        mpz_mul(g->t0, a->c0, a->c0);
        mpz_addmul(g->t0, a->c1, a->c1);
        mpz_mod(g->t0, g->t0, g->p);
        return mpz_legendre(g->t0, g->p);
}

typedef enum {
        OP2_ADD,
        OP2_SUB,
        OP2_MUL,
        OP2_MUL_BY_FP,
        OP2_NEG,
        OP2_DBL,
        OP2_SQR,
        OP2_INV,
        OP2_MUL_BY_NONRESIDUE,
        OP2_CONJUGATE,
        OP2_COUNT,
} op2_t;

static const char *const op2_names[OP2_COUNT] = {
        "add", "sub", "mul", "mul_by_fp",         "neg",
        "dbl", "sqr", "inv", "mul_by_nonresidue", "conjugate"};

static void fp2_apply(op2_t op, fp2_t *r, const fp2_t *a, const fp2_t *b) {
        switch (op) {
        case OP2_ADD:
                fp2_add(r, a, b);
                break;
        case OP2_SUB:
                fp2_sub(r, a, b);
                break;
        case OP2_MUL:
                fp2_mul(r, a, b);
                break;
        case OP2_MUL_BY_FP:
                fp2_mul_by_fp(r, a, &b->c0);
                break;
        case OP2_NEG:
                fp2_neg(r, a);
                break;
        case OP2_DBL:
                fp2_dbl(r, a);
                break;
        case OP2_SQR:
                fp2_sqr(r, a);
                break;
        case OP2_INV:
                fp2_inv(r, a);
                break;
        case OP2_MUL_BY_NONRESIDUE:
                fp2_mul_by_nonresidue(r, a);
                break;
        case OP2_CONJUGATE:
                fp2_conjugate(r, a);
                break;
        default:
                fail();
        }
}

static void gmp2_apply(op2_t op, mpz2_t *r, const mpz2_t *a, const mpz2_t *b, fp2_gmp_t *g) {
        switch (op) {
        case OP2_ADD:
                mpz_add(r->c0, a->c0, b->c0);
                mpz_add(r->c1, a->c1, b->c1);
                break;
        case OP2_SUB:
                mpz_sub(r->c0, a->c0, b->c0);
                mpz_sub(r->c1, a->c1, b->c1);
                break;
        case OP2_MUL:
                mpz2_mul(r, a, b, g);
                break;
        case OP2_MUL_BY_FP:
                mpz_mul(r->c0, a->c0, b->c0);
                mpz_mul(r->c1, a->c1, b->c0);
                break;
        case OP2_NEG:
                mpz_neg(r->c0, a->c0);
                mpz_neg(r->c1, a->c1);
                break;
        case OP2_DBL:
                mpz_mul_2exp(r->c0, a->c0, 1);
                mpz_mul_2exp(r->c1, a->c1, 1);
                break;
        case OP2_SQR:
                mpz2_mul(r, a, a, g);
                break;
        case OP2_INV: /* (a0 - a1 u) / (a0^2 + a1^2) */
                mpz_mul(g->t0, a->c0, a->c0);
                mpz_addmul(g->t0, a->c1, a->c1);
                mpz_mod(g->t0, g->t0, g->p);
                if (mpz_sgn(g->t0) == 0) {
                        mpz_set_ui(r->c0, 0);
                        mpz_set_ui(r->c1, 0);
                        break;
                }
                assert_true(mpz_invert(g->t0, g->t0, g->p));
                mpz_mul(r->c0, a->c0, g->t0);
                mpz_mul(r->c1, a->c1, g->t0);
                mpz_neg(r->c1, r->c1);
                break;
        case OP2_MUL_BY_NONRESIDUE: { /* a * (1 + u) through the product definition */
                mpz2_t xi;
                mpz2_init(&xi);
                mpz_set_ui(xi.c0, 1);
                mpz_set_ui(xi.c1, 1);
                mpz2_mul(r, a, &xi, g);
                mpz2_clear(&xi);
                break;
        }
        case OP2_CONJUGATE:
                mpz_set(r->c0, a->c0);
                mpz_neg(r->c1, a->c1);
                break;
        default:
                fail();
        }
        mpz_mod(r->c0, r->c0, g->p);
        mpz_mod(r->c1, r->c1, g->p);
}

static void fp2_from_limbs(fp2_t *r, const uint64_t a[2][MAX_LIMBS]) {
        assert_true(fp_from_canonical(&r->c0, a[0]));
        assert_true(fp_from_canonical(&r->c1, a[1]));
}

static void fp2_check_equal(const char *op, const path_t *path, const fp2_t *got,
                            const mpz2_t *want, const uint64_t a[2][MAX_LIMBS],
                            const uint64_t b[2][MAX_LIMBS]) {
        uint64_t g[2][MAX_LIMBS], w[2][MAX_LIMBS];
        fp_to_canonical(g[0], &got->c0);
        fp_to_canonical(g[1], &got->c1);
        mpz_to_limbs(w[0], FP_LIMBS, want->c0);
        mpz_to_limbs(w[1], FP_LIMBS, want->c1);
        for (int c = 0; c < 2; c++)
                if (memcmp(g[c], w[c], sizeof(g[c]))) {
                        char name[64];
                        snprintf(name, sizeof(name), "%s (c%d; inputs' c%d shown)", op, c, c);
                        fail_limbs("Fp2", name, path, FP_LIMBS, a[c], b ? b[c] : NULL, w[c], g[c]);
                }
}

#define FP2_EDGES 10
/* Fp2 edge elements: pairs of Fp edge values (first FP2_EDGES of them). */
static size_t fp2_edge_values(uint64_t out[][2][MAX_LIMBS]) {
        uint64_t edges[MAX_EDGES][MAX_LIMBS];
        gmp_field_t g;
        size_t k = 0;

        gmp_field_init(&g, &field_fp);
        size_t n_edges = edge_values(edges, &g);
        gmp_field_clear(&g);
        assert_true(n_edges >= FP2_EDGES);
        /* 0, 1, 2, 3, p-1, p-2, p-3, (p-1)/2, (p+1)/2, (p+3)/2 */
        for (size_t i = 0; i < FP2_EDGES; i++)
                for (size_t j = 0; j < FP2_EDGES; j++, k++) {
                        memcpy(out[k][0], edges[i], sizeof(out[k][0]));
                        memcpy(out[k][1], edges[j], sizeof(out[k][1]));
                }
        return k;
}

static void random_fp2(uint64_t a[2][MAX_LIMBS]) {
        random_below(a[0], BLS12_381_P, FP_LIMBS);
        random_below(a[1], BLS12_381_P, FP_LIMBS);
        /* elements of Fp and of Fp u now and then */
        unsigned k = (unsigned)(test_rng_u64() % 16);
        if (k == 0)
                memset(a[1], 0, sizeof(a[1]));
        else if (k == 1)
                memset(a[0], 0, sizeof(a[0]));
}

static void check_fp2_op_once(op2_t op, const uint64_t a[2][MAX_LIMBS],
                              const uint64_t b[2][MAX_LIMBS], mpz2_t *za, mpz2_t *zb, mpz2_t *zr,
                              fp2_gmp_t *g) {
        bool binary = op == OP2_ADD || op == OP2_SUB || op == OP2_MUL || op == OP2_MUL_BY_FP;

        mpz2_from_fp2_limbs(za, a);
        mpz2_from_fp2_limbs(zb, b);
        gmp2_apply(op, zr, za, zb, g);
        for (size_t q = 0; q < n_paths; q++) {
                fp2_t x, y, z;
                use_path(&all_paths[q]);
                fp2_from_limbs(&x, a);
                fp2_from_limbs(&y, b);
                fp2_apply(op, &z, &x, &y);
                fp2_check_equal(op2_names[op], &all_paths[q], &z, zr, a, binary ? b : NULL);
                fp2_apply(op, &x, &x, &y); /* r aliasing a */
                fp2_check_equal(op2_names[op], &all_paths[q], &x, zr, a, binary ? b : NULL);
        }
}

static void test_fp2_arithmetic(void **state) {
        static uint64_t edges[FP2_EDGES * FP2_EDGES][2][MAX_LIMBS];
        uint64_t a[2][MAX_LIMBS], b[2][MAX_LIMBS];
        mpz2_t za, zb, zr;
        fp2_gmp_t g;
        long count = scaled(RANDOM_INPUTS);
        (void)state;

        fp2_gmp_init(&g);
        mpz2_init(&za);
        mpz2_init(&zb);
        mpz2_init(&zr);
        size_t n_edges = fp2_edge_values(edges);
        for (op2_t op = 0; op < OP2_COUNT; op++) {
                test_rng_seed(600 + op);
                /* unary ops: every edge element; binary ops: a quarter of the pairs */
                for (size_t i = 0; i < n_edges; i++)
                        for (size_t j = 0; j < n_edges; j += 4)
                                check_fp2_op_once(op, edges[i], edges[(i + j) % n_edges], &za, &zb,
                                                  &zr, &g);
                for (long it = 0; it < count; it++) {
                        random_fp2(a);
                        random_fp2(b);
                        check_fp2_op_once(op, a, b, &za, &zb, &zr, &g);
                }
        }
        mpz2_clear(&za);
        mpz2_clear(&zb);
        mpz2_clear(&zr);
        fp2_gmp_clear(&g);
}

/* pow against square-and-multiply written with mpz2_mul; exponents of up to
 * 64 bits keep the GMP side affordable (the loop over limbs is the same for
 * longer exponents and is covered by the prime-field pow test), plus a
 * few full-length exponents. */
static void test_fp2_pow(void **state) {
        uint64_t a[2][MAX_LIMBS], e[FP_LIMBS];
        mpz2_t za, zr, base;
        fp2_gmp_t g;
        long count = scaled(RANDOM_INPUTS);
        (void)state;

        fp2_gmp_init(&g);
        mpz2_init(&za);
        mpz2_init(&zr);
        mpz2_init(&base);
        test_rng_seed(700);
        for (long it = -100; it < count; it++) {
                size_t e_limbs;
                random_fp2(a);
                if (it < 0) {
                        /* full-length exponents: p - 1, p - 2, random */
                        e_limbs = FP_LIMBS;
                        random_below(e, BLS12_381_P, FP_LIMBS);
                        if (it == -1 || it == -2) {
                                memcpy(e, BLS12_381_P, sizeof(e));
                                e[0] -= (uint64_t)-it;
                        }
                } else {
                        unsigned bits = (unsigned)(test_rng_u64() % 65);
                        e_limbs = bits ? 1 : 0;
                        e[0] = bits ? test_rng_u64() >> (64 - bits) : 0;
                }
                mpz2_from_fp2_limbs(&za, a);
                mpz_set(base.c0, za.c0);
                mpz_set(base.c1, za.c1);
                mpz_set_ui(zr.c0, 1);
                mpz_set_ui(zr.c1, 0);
                for (size_t i = 0; i < e_limbs; i++)
                        for (unsigned bit = 0; bit < 64; bit++) {
                                if ((e[i] >> bit) & 1)
                                        mpz2_mul(&zr, &zr, &base, &g);
                                if (i + 1 < e_limbs || (e[i] >> bit) > 1)
                                        mpz2_mul(&base, &base, &base, &g);
                        }
                for (size_t q = 0; q < n_paths; q++) {
                        fp2_t x, r;
                        use_path(&all_paths[q]);
                        fp2_from_limbs(&x, a);
                        fp2_pow(&r, &x, e, e_limbs);
                        fp2_check_equal("pow", &all_paths[q], &r, &zr, a, NULL);
                }
        }
        mpz2_clear(&za);
        mpz2_clear(&zr);
        mpz2_clear(&base);
        fp2_gmp_clear(&g);
}

/* sqrt: squares get a root whose square is the input; non-squares (norm
 * with Legendre symbol -1) are refused with r untouched. Also
 * is_lexicographically_largest, is_zero, is_one and equal. */
static void test_fp2_sqrt_and_predicates(void **state) {
        static uint64_t edges[FP2_EDGES * FP2_EDGES][2][MAX_LIMBS];
        uint64_t a[2][MAX_LIMBS];
        mpz2_t za, zr, root;
        fp2_gmp_t g;
        long count = scaled(RANDOM_INPUTS);
        (void)state;

        fp2_gmp_init(&g);
        mpz2_init(&za);
        mpz2_init(&zr);
        mpz2_init(&root);
        size_t n_edges = fp2_edge_values(edges);
        test_rng_seed(800);
        for (long it = -2 * (long)n_edges; it < count; it++) {
                if (it < 0)
                        memcpy(a, edges[(it + 2 * (long)n_edges) / 2], sizeof(a));
                else
                        random_fp2(a);
                mpz2_from_fp2_limbs(&za, a);
                if (it & 1) { /* every other input is a square */
                        mpz2_mul(&za, &za, &za, &g);
                        mpz_to_limbs(a[0], FP_LIMBS, za.c0);
                        mpz_to_limbs(a[1], FP_LIMBS, za.c1);
                }
                bool is_zero = mpz_sgn(za.c0) == 0 && mpz_sgn(za.c1) == 0;
                bool square = is_zero || mpz2_norm_legendre(&za, &g) == 1;
                bool largest =
                        mpz_sgn(za.c1) ? mpz_cmp(za.c1, g.half) > 0 : mpz_cmp(za.c0, g.half) > 0;
                for (size_t q = 0; q < n_paths; q++) {
                        fp2_t x, r, before, y;
                        use_path(&all_paths[q]);
                        fp2_from_limbs(&x, a);
                        if (fp2_is_lexicographically_largest(&x) != largest)
                                fail_msg("Fp2 is_lexicographically_largest (%s path) wrong",
                                         all_paths[q].name);
                        assert_int_equal(fp2_is_zero(&x), is_zero);
                        assert_int_equal(fp2_is_one(&x),
                                         mpz_cmp_ui(za.c0, 1) == 0 && mpz_sgn(za.c1) == 0);
                        y = x;
                        assert_true(fp2_equal(&x, &y));
                        y.c1.l[0] ^= 1;
                        assert_false(fp2_equal(&x, &y));

                        fp2_set_one(&r);
                        fp2_dbl(&r, &r);
                        before = r;
                        bool found = fp2_sqrt(&r, &x);
                        if (!square) {
                                if (found || !fp2_equal(&r, &before))
                                        fail_msg("Fp2 sqrt (%s path) accepted a non-square",
                                                 all_paths[q].name);
                                continue;
                        }
                        if (!found)
                                fail_msg("Fp2 sqrt (%s path) refused a square", all_paths[q].name);
                        uint64_t rl[2][MAX_LIMBS];
                        fp_to_canonical(rl[0], &r.c0);
                        fp_to_canonical(rl[1], &r.c1);
                        mpz2_from_fp2_limbs(&root, rl);
                        mpz2_mul(&zr, &root, &root, &g);
                        if (mpz_cmp(zr.c0, za.c0) || mpz_cmp(zr.c1, za.c1))
                                fail_msg("Fp2 sqrt (%s path): root squared is not the input",
                                         all_paths[q].name);
                }
        }
        mpz2_clear(&za);
        mpz2_clear(&zr);
        mpz2_clear(&root);
        fp2_gmp_clear(&g);
}

static void test_fp2_zero_one(void **state) {
        (void)state;
        for (size_t q = 0; q < n_paths; q++) {
                fp2_t x;
                use_path(&all_paths[q]);
                fp2_set_zero(&x);
                assert_true(fp2_is_zero(&x) && !fp2_is_one(&x));
                assert_true(fp_is_zero(&x.c0) && fp_is_zero(&x.c1));
                fp2_set_one(&x);
                assert_true(fp2_is_one(&x) && !fp2_is_zero(&x));
                assert_true(fp_is_one(&x.c0) && fp_is_zero(&x.c1));
        }
}

/* ---- paths ---- */

static int select_paths(void **state) {
        (void)state;
        zk_arith_force_portable(false);
        n_paths = zk_arith_is_fast() ? 2 : 1;
        if (n_paths == 1)
                print_message("note: only the portable path runs here (%s)\n",
                              zk_cpu_has_bmi2_adx() ? "CUZK_ARITH=portable"
                                                    : "the CPU lacks BMI2/ADX");
        return 0;
}

static int restore_paths(void **state) {
        (void)state;
        zk_arith_force_portable(false);
        return 0;
}

/* The switch itself: portable really is the C code, fast the assembly. */
static void test_path_switch(void **state) {
        (void)state;
        zk_arith_force_portable(true);
        assert_false(zk_arith_is_fast());
        assert_string_equal(zk_arith_name(), "portable");
        zk_arith_force_portable(false);
        assert_int_equal(zk_arith_is_fast(), n_paths == 2);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_path_switch),
                cmocka_unit_test(test_fp_conversions),
                cmocka_unit_test(test_fr_conversions),
                cmocka_unit_test(test_fp_arithmetic),
                cmocka_unit_test(test_fr_arithmetic),
                cmocka_unit_test(test_fp_bytes),
                cmocka_unit_test(test_fr_bytes),
                cmocka_unit_test(test_fp_pow),
                cmocka_unit_test(test_fr_pow),
                cmocka_unit_test(test_fp_sqrt_legendre),
                cmocka_unit_test(test_fr_sqrt_legendre),
                cmocka_unit_test(test_fp2_zero_one),
                cmocka_unit_test(test_fp2_arithmetic),
                cmocka_unit_test(test_fp2_pow),
                cmocka_unit_test(test_fp2_sqrt_and_predicates),
        };
        return cmocka_run_group_tests(tests, select_paths, restore_paths);
}
