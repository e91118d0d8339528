/* SPDX-License-Identifier: Apache-2.0 */
/* One partition's proof, releasing each buffer when used up (see groth16_partition.h). */
#include "groth16_partition.h"

#include <assert.h>
#include <errno.h>
#include <sys/mman.h>

#include "common/cleanup.h"
#include "zk/big_alloc.h"

int groth16_evaluate_constraints(void *userdata, const fr_t *w, size_t n_vars,
                                 unsigned log_domain_size, fr_t *a, fr_t *b, fr_t *c) {
        return groth16_evaluate(userdata, w, n_vars, log_domain_size, a, b, c);
}

/* An anonymous mapping of n field elements. */
struct fr_mapping {
        fr_t *data;
        size_t bytes;
};

static int fr_mapping_new(struct fr_mapping *m, size_t n) {
        void *p = mmap(NULL, n * sizeof(fr_t), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                       -1, 0);

        if (p == MAP_FAILED)
                return -ENOMEM;
        big_advise(p, n * sizeof(fr_t));
        *m = (struct fr_mapping){.data = p, .bytes = n * sizeof(fr_t)};
        return 0;
}

static void fr_mapping_release(struct fr_mapping *m) {
        if (m->data)
                (void)munmap(m->data, m->bytes);
        *m = (struct fr_mapping){0};
}

/* Evaluations -> H's scalars in a; b, c and the domain are gone afterwards. */
static int partition_h(const struct groth16_pk *pk, groth16_evaluate_fn evaluate, void *userdata,
                       const fr_t *w, struct fr_mapping *a) {
        _cleanup_(fr_mapping_release) struct fr_mapping b = {0}, c = {0};
        _cleanup_ntt_domain_ ntt_domain_t *d = NULL;
        const size_t n = (size_t)1 << pk->log_domain_size;
        int r;

        r = fr_mapping_new(&b, n);
        if (r < 0)
                return r;
        r = fr_mapping_new(&c, n);
        if (r < 0)
                return r;
        r = evaluate(userdata, w, pk->n_vars, pk->log_domain_size, a->data, b.data, c.data);
        if (r < 0)
                return r;
        r = groth16_domain_new(&d, pk->h_convention, pk->log_domain_size);
        if (r < 0)
                return r;
        return groth16_compute_h(d, pk->h_convention, a->data, b.data, c.data);
}

int groth16_prove_partition(const struct groth16_pk *pk, groth16_evaluate_fn evaluate,
                            void *userdata, const fr_t *w, struct groth16_proof *proof,
                            unsigned threads) {
        _cleanup_(fr_mapping_release) struct fr_mapping a = {0};
        struct groth16_msm_results res;
        fr_t r_blind, s_blind;
        int r;

        assert(pk);
        assert(evaluate);
        assert(w);
        assert(proof);

        r = fr_mapping_new(&a, (size_t)1 << pk->log_domain_size);
        if (r < 0)
                return r;
        r = partition_h(pk, evaluate, userdata, w, &a);
        if (r < 0)
                return r;
        r = groth16_msm_g1(pk, w, a.data, &res, threads);
        if (r < 0)
                return r;
        fr_mapping_release(&a);
        r = groth16_msm_b_g2(pk, w, &res.b2, threads);
        if (r < 0)
                return r;
        r = groth16_random_rs(&r_blind, &s_blind);
        if (r < 0)
                return r;
        groth16_assemble(pk, &res, &r_blind, &s_blind, proof);
        return 0;
}

static bool windowed_scalar(const fr_t *s) {
        return !fr_is_zero(s) && !fr_is_one(s);
}

/* Whether wire j has a point in `points` other than infinity. */
static bool g1_wire_point(const g1_affine_t *points, const struct wire_density *d, size_t j) {
        if (!d)
                return !g1_affine_is_infinity(&points[j]);
        return wire_density_has(d, j) && !g1_affine_is_infinity(&points[wire_density_index(d, j)]);
}

static bool g2_wire_point(const g2_affine_t *points, const struct wire_density *d, size_t j) {
        if (!d)
                return !g2_affine_is_infinity(&points[j]);
        return wire_density_has(d, j) && !g2_affine_is_infinity(&points[wire_density_index(d, j)]);
}

void groth16_partition_shape_from_witness(struct groth16_partition_shape *ret,
                                          const struct groth16_pk *pk, const fr_t *w,
                                          unsigned threads) {
        size_t in_a = 0, in_b1 = 0, in_l = 0, in_b2 = 0, gathered = 0;

        assert(ret);
        assert(pk);
        assert(w);

#pragma omp parallel for schedule(static) reduction(+ : in_a, in_b1, in_l, in_b2)
        for (size_t j = 0; j < pk->n_vars; j++) {
                if (!windowed_scalar(&w[j]))
                        continue;
                in_a += g1_wire_point(pk->a, pk->a_density, j);
                in_b1 += g1_wire_point(pk->b1, pk->b_density, j);
                in_b2 += g2_wire_point(pk->b2, pk->b_density, j);
                if (j > pk->n_public)
                        in_l += !g1_affine_is_infinity(&pk->l[j - pk->n_public - 1]);
        }
        if (in_b1 > in_a)
                in_a = in_b1;
        if (in_l > in_a)
                in_a = in_l;
        if (pk->a_density)
                gathered = pk->a_density->count;
        if (pk->b_density && pk->b_density->count > gathered)
                gathered = pk->b_density->count;
        *ret = (struct groth16_partition_shape){
                .log_domain_size = pk->log_domain_size,
                .n_vars = pk->n_vars,
                .n_public = pk->n_public,
                .g1_windowed = in_a,
                .g2_windowed = in_b2,
                .gathered = gathered,
                .threads = threads,
        };
}
