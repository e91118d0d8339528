/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The synthetic PoRep-shaped circuits (circuits/synthetic.h): every row
 * holds, by pce_evaluate() and by a naive evaluation of the plain matrices;
 * the statistics are PoRep's; the same seed gives the same bytes on 1 and
 * 2 threads; the witness goes through a .wtns file unchanged.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "circuits/pce-file.h"
#include "circuits/synthetic.h"
#include "common/cleanup.h"
#include "formats/wtns-save.h"
#include "formats/wtns.h"
#include "tests/lib/formats-common.h"
#include "tests/lib/pce-compare.h"
#include "tests/lib/ref.h"
#include "zk/parallel.h"

/* Optimized builds without sanitizers also check 2^20 rows. */
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
#define LARGE_LOG 20
#else
#define LARGE_LOG 16
#endif

static void generate(uint32_t n_rows, uint32_t n_aux, uint32_t n_public, uint64_t seed,
                     struct pce **pce, fr_t **w) {
        struct synthetic_params p = {
                .seed = seed, .n_rows = n_rows, .n_aux = n_aux, .n_public = n_public};

        assert_int_equal(synthetic_generate(&p, pce, w), 0);
}

/* Rows of a domain of 2^log filled to PoRep's level. */
static uint32_t porep_rows(unsigned log) {
        return (1u << log) - (1u << log) / 128;
}

/* Row i of m times w, every coefficient multiplied: no shortcut shared
 * with pce_evaluate(). */
static void naive_row(const struct sparse_matrix *m, const fr_t *w, uint32_t i, fr_t *ret) {
        fr_t t;

        fr_set_zero(ret);
        for (uint64_t k = m->row_start[i]; k < m->row_start[i + 1]; k++) {
                fr_mul(&t, &m->coeff[k], &w[m->col[k]]);
                fr_add(ret, ret, &t);
        }
}

/* a o b = c on every row, a, b, c from pce_evaluate() equal to the naive
 * products of the plain matrices, and zero beyond the rows. */
static void check_satisfied(const struct pce *pce, const fr_t *w) {
        unsigned log = pce_log_domain_size(pce);
        size_t n = (size_t)1 << log;
        _cleanup_free_ fr_t *a = malloc(n * sizeof(fr_t));
        _cleanup_free_ fr_t *b = malloc(n * sizeof(fr_t));
        _cleanup_free_ fr_t *c = malloc(n * sizeof(fr_t));
        struct sparse_matrix m[PCE_N_MATRICES];
        uint64_t bad = 0;

        assert_non_null(a);
        assert_non_null(b);
        assert_non_null(c);
        assert_int_equal(pce_evaluate(pce, w, pce->n_cols, log, a, b, c), 0);
        assert_int_equal(pce_to_sparse(pce, m), 0);

#pragma omp parallel for reduction(+ : bad)
        for (size_t i = 0; i < n; i++) {
                fr_t ab, na, nb, nc;
                fr_mul(&ab, &a[i], &b[i]);
                if (!fr_equal(&ab, &c[i]))
                        bad++;
                if (i >= pce->n_rows) {
                        bad += !fr_is_zero(&a[i]) + !fr_is_zero(&b[i]) + !fr_is_zero(&c[i]);
                        continue;
                }
                naive_row(&m[PCE_A], w, (uint32_t)i, &na);
                naive_row(&m[PCE_B], w, (uint32_t)i, &nb);
                naive_row(&m[PCE_C], w, (uint32_t)i, &nc);
                bad += !fr_equal(&na, &a[i]) + !fr_equal(&nb, &b[i]) + !fr_equal(&nc, &c[i]);
                fr_mul(&ab, &na, &nb);
                bad += !fr_equal(&ab, &nc);
        }
        for (size_t k = 0; k < PCE_N_MATRICES; k++)
                sparse_free(&m[k]);
        assert_int_equal(bad, 0);
}

static void test_satisfied(void **state) {
        (void)state;
        for (unsigned log = 10; log <= 16; log++) {
                _cleanup_(pce_freep) struct pce *pce = NULL;
                _cleanup_free_ fr_t *w = NULL;

                generate(porep_rows(log), SYNTHETIC_DEFAULT, SYNTHETIC_DEFAULT, log, &pce, &w);
                assert_int_equal(pce_log_domain_size(pce), log);
                check_satisfied(pce, w);
        }
}

static void test_satisfied_large(void **state) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_free_ fr_t *w = NULL;

        (void)state;
        generate(porep_rows(LARGE_LOG), SYNTHETIC_DEFAULT, SYNTHETIC_DEFAULT, 7, &pce, &w);
        check_satisfied(pce, w);
}

/* More aux wires than rows (free inputs), fewer (boolean check rows), no
 * public inputs, a tiny circuit. */
static void test_satisfied_other_shapes(void **state) {
        static const struct {
                uint32_t rows, aux, pub;
        } shapes[] = {
                {5000, 9000, 3}, {5000, 2500, 3}, {5000, 100, 0},
                {3000, 3000, 0}, {2, 1, 0},       {40, 1, 2},
        };

        (void)state;
        for (size_t s = 0; s < ELEMENTSOF(shapes); s++) {
                _cleanup_(pce_freep) struct pce *pce = NULL;
                _cleanup_free_ fr_t *w = NULL;

                generate(shapes[s].rows, shapes[s].aux, shapes[s].pub, s, &pce, &w);
                assert_int_equal(pce->n_rows, shapes[s].rows);
                assert_int_equal(pce->n_cols, 1 + shapes[s].pub + shapes[s].aux);
                assert_int_equal(pce->n_public, shapes[s].pub);
                check_satisfied(pce, w);
        }
}

static void test_params(void **state) {
        struct synthetic_params p = {
                .n_rows = 1 << 20, .n_aux = SYNTHETIC_DEFAULT, .n_public = SYNTHETIC_DEFAULT};
        struct pce *pce = NULL;
        fr_t *w = NULL;

        (void)state;
        assert_int_equal(synthetic_params_resolve(&p), 0);
        assert_int_equal(p.n_public, SYNTHETIC_POREP_PUBLIC);
        assert_int_equal(p.n_aux, (1 << 20) - 328 - ((1 << 20) - 328) / 1024);

        p = (struct synthetic_params){.n_rows = 10240, .n_aux = 5, .n_public = SYNTHETIC_DEFAULT};
        assert_int_equal(synthetic_params_resolve(&p), 0);
        assert_int_equal(p.n_public, 10);
        assert_int_equal(p.n_aux, 5);

        /* No constraint row left, no aux wire, too many wires. */
        p = (struct synthetic_params){.n_rows = 4, .n_aux = 1, .n_public = 3};
        assert_int_equal(synthetic_generate(&p, &pce, &w), -EINVAL);
        p = (struct synthetic_params){.n_rows = 4, .n_aux = 0, .n_public = 1};
        assert_int_equal(synthetic_generate(&p, &pce, &w), -EINVAL);
        p = (struct synthetic_params){.n_rows = 4, .n_aux = UINT32_MAX - 1, .n_public = 1};
        assert_int_equal(synthetic_generate(&p, &pce, &w), -EINVAL);
        assert_null(pce);
        assert_null(w);
}

static void expect_near(const char *what, double got, double want, double tolerance) {
        print_message("%-28s %.4f (PoRep %.4f)\n", what, got, want);
        if (fabs(got - want) > tolerance)
                fail_msg("%s is %.4f, expected %.4f +- %.4f", what, got, want, tolerance);
}

static void check_statistics(unsigned log, double terms_tolerance, double density_tolerance) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_free_ fr_t *w = NULL;
        struct pce_witness_split split;
        uint32_t aux_base;
        uint64_t aux_01;
        double rows;

        generate(porep_rows(log), SYNTHETIC_DEFAULT, SYNTHETIC_DEFAULT, 2024, &pce, &w);
        rows = pce->n_rows;
        aux_base = pce->n_public + 1;
        print_message("2^%u rows:\n", log);
        expect_near("A terms per row", (double)pce->m[PCE_A].n_terms / rows, 309.4 / 130.28,
                    terms_tolerance);
        expect_near("B terms per row", (double)pce->m[PCE_B].n_terms / rows, 130.3 / 130.28, 0.01);
        expect_near("C terms per row", (double)pce->m[PCE_C].n_terms / rows, 282.7 / 130.28,
                    terms_tolerance);
        expect_near("A density", pce_a_density(pce), 0.997, density_tolerance);
        expect_near("B aux density", pce_b_aux_density(pce), 0.254, log <= 12 ? 0.03 : 0.01);

        assert_int_equal(pce_witness_split(w + aux_base, pce->n_cols - aux_base, &split), 0);
        aux_01 = split.n_zero + split.n_one;
        expect_near("aux values 0 or 1", (double)aux_01 / (pce->n_cols - aux_base), 0.75, 0.01);
        pce_witness_split_free(&split);

        /* Compact: one byte per coefficient id, a small table. */
        for (size_t k = 0; k < PCE_N_MATRICES; k++) {
                assert_int_equal(pce->m[k].id_bytes, 1);
                assert_true(pce->m[k].n_values <= 32);
        }
}

static void test_statistics(void **state) {
        (void)state;
        /* 2^10 rows are few for the averages, and the wires of the last
         * block (1/64 of them there) are never read again. */
        check_statistics(10, 0.1, 0.025);
        check_statistics(16, 0.03, 0.004);
        check_statistics(LARGE_LOG, 0.02, 0.004);
}

static void test_deterministic(void **state) {
        char dir[] = "/tmp/test-synthetic-XXXXXX";
        _cleanup_free_ char *path1 = NULL, *path2 = NULL;
        uint32_t rows = porep_rows(15);

        (void)state;
        assert_non_null(mkdtemp(dir));
        assert_true(asprintf(&path1, "%s/t1.pce", dir) > 0);
        assert_true(asprintf(&path2, "%s/t2.pce", dir) > 0);
        {
                _cleanup_(pce_freep) struct pce *p1 = NULL, *p2 = NULL, *other = NULL;
                _cleanup_free_ fr_t *w1 = NULL, *w2 = NULL, *w_other = NULL;
                _cleanup_free_ uint8_t *bytes1 = NULL, *bytes2 = NULL;
                size_t n1, n2;

                zk_set_thread_count(1);
                generate(rows, SYNTHETIC_DEFAULT, SYNTHETIC_DEFAULT, 99, &p1, &w1);
                zk_set_thread_count(2);
                generate(rows, SYNTHETIC_DEFAULT, SYNTHETIC_DEFAULT, 99, &p2, &w2);
                zk_set_thread_count(0);
                expect_same_pce(p1, p2);
                assert_memory_equal(w1, w2, p1->n_cols * sizeof(fr_t));

                assert_int_equal(pce_save(p1, path1), 0);
                assert_int_equal(pce_save(p2, path2), 0);
                bytes1 = read_whole_file(path1, &n1);
                bytes2 = read_whole_file(path2, &n2);
                assert_int_equal(n1, n2);
                assert_memory_equal(bytes1, bytes2, n1);

                /* Another seed, another circuit. */
                generate(rows, SYNTHETIC_DEFAULT, SYNTHETIC_DEFAULT, 100, &other, &w_other);
                assert_int_equal(other->n_cols, p1->n_cols);
                assert_true(memcmp(w_other, w1, p1->n_cols * sizeof(fr_t)) != 0);
                assert_true(other->m[PCE_A].n_terms != p1->m[PCE_A].n_terms ||
                            memcmp(other->m[PCE_A].col, p1->m[PCE_A].col,
                                   p1->m[PCE_A].n_terms * sizeof(uint32_t)) != 0);
        }
        unlink(path1);
        unlink(path2);
        rmdir(dir);
}

/* The witness survives a .wtns file; the file loads as the PCE's witness. */
static void test_witness_file(void **state) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_(wtns_freep) struct wtns *loaded = NULL;
        _cleanup_free_ fr_t *w = NULL;
        char dir[] = "/tmp/test-synthetic-XXXXXX";
        _cleanup_free_ char *path = NULL;

        (void)state;
        assert_non_null(mkdtemp(dir));
        assert_true(asprintf(&path, "%s/w.wtns", dir) > 0);
        generate(porep_rows(12), SYNTHETIC_DEFAULT, SYNTHETIC_DEFAULT, 5, &pce, &w);
        assert_int_equal(wtns_save(path, w, pce->n_cols), 0);
        assert_int_equal(wtns_load(path, &loaded), 0);
        assert_int_equal(loaded->n_values, pce->n_cols);
        assert_memory_equal(loaded->values, w, pce->n_cols * sizeof(fr_t));
        check_satisfied(pce, loaded->values);
        unlink(path);
        rmdir(dir);
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_params),
                cmocka_unit_test(test_satisfied),
                cmocka_unit_test(test_satisfied_other_shapes),
                cmocka_unit_test(test_satisfied_large),
                cmocka_unit_test(test_statistics),
                cmocka_unit_test(test_deterministic),
                cmocka_unit_test(test_witness_file),
        };
        return cmocka_run_group_tests(tests, NULL, NULL);
}
