/* SPDX-License-Identifier: Apache-2.0 */
/* Groth16 key generation from the toxic waste (see groth16_setup.h). */
#include "groth16_setup.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "big_alloc.h"
#include "common/cleanup.h"
#include "fixed_base.h"
#include "groth16_setup_internal.h"
#include "parallel.h"

int groth16_toxic_waste_random(struct groth16_toxic_waste *ret) {
        fr_t spare;
        int r;

        assert(ret);
        /* groth16_random_rs() draws two uniform elements from getrandom(2). */
        r = groth16_random_rs(&ret->tau, &ret->alpha);
        if (r < 0)
                return r;
        r = groth16_random_rs(&ret->beta, &ret->gamma);
        if (r < 0)
                return r;
        return groth16_random_rs(&ret->delta, &spare);
}

/* splitmix64: a seed of any length stretched into reproducible words. */
static uint64_t seed_next(uint64_t *state) {
        uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);

        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        return z ^ (z >> 31);
}

/* Non-zero, uniform in [1, r): 255 bits, rejected when >= r or zero. */
static void seed_fr(fr_t *out, uint64_t *state) {
        for (;;) {
                uint64_t l[FR_LIMBS];

                for (int i = 0; i < FR_LIMBS; i++)
                        l[i] = seed_next(state);
                l[FR_LIMBS - 1] &= (1ULL << 63) - 1;
                if (fr_from_canonical(out, l) && !fr_is_zero(out))
                        return;
        }
}

void groth16_toxic_waste_from_seed(struct groth16_toxic_waste *ret, const uint8_t *seed,
                                   size_t seed_bytes) {
        uint64_t state = 0x63757a6b73657475ULL; /* "cuzksetu" */

        assert(ret);
        assert(seed || seed_bytes == 0);
        for (size_t i = 0; i < seed_bytes; i++) {
                state ^= seed[i];
                (void)seed_next(&state);
        }
        seed_fr(&ret->tau, &state);
        seed_fr(&ret->alpha, &state);
        seed_fr(&ret->beta, &state);
        seed_fr(&ret->gamma, &state);
        seed_fr(&ret->delta, &state);
}

static int check_matrix(const struct sparse_matrix *m, const struct groth16_setup_circuit *c) {
        if (!m)
                return -EINVAL;
        if (m->n_rows > (size_t)1 << c->log_domain_size || m->n_cols > c->n_vars)
                return -EINVAL;
        return 0;
}

int groth16_setup_check_circuit(const struct groth16_setup_circuit *circuit, bool need_matrices) {
        assert(circuit);

        if (circuit->log_domain_size < 1 || circuit->log_domain_size > NTT_MAX_LOG_SIZE)
                return -EINVAL;
        /* The .params counts are u32, and the vk's IC count is n_public + 1. */
        if (circuit->n_vars < circuit->n_public + 1 || circuit->n_vars > UINT32_MAX)
                return -EINVAL;
        if (!need_matrices)
                return 0;
        if (check_matrix(circuit->a, circuit) < 0 || check_matrix(circuit->b, circuit) < 0 ||
            check_matrix(circuit->c, circuit) < 0)
                return -EINVAL;
        return 0;
}

struct groth16_keys *groth16_keys_free(struct groth16_keys *k) {
        if (!k)
                return NULL;
        free(k->a);
        free(k->b1);
        free(k->b2);
        free(k->l);
        free(k->h);
        free(k->ic);
        free(k);
        return NULL;
}

/* The point arrays, at least one element each so that NULL only means failure. */
static int keys_alloc_arrays(struct groth16_keys *k, size_t n_vars, size_t n_public, size_t n_h) {
        const size_t n_private = n_vars - n_public - 1;

        k->a = big_alloc(n_vars * sizeof(g1_affine_t));
        k->b1 = big_alloc(n_vars * sizeof(g1_affine_t));
        k->b2 = big_alloc(n_vars * sizeof(g2_affine_t));
        k->l = big_alloc((n_private ? n_private : 1) * sizeof(g1_affine_t));
        k->h = big_alloc((n_h ? n_h : 1) * sizeof(g1_affine_t));
        k->ic = big_alloc((n_public + 1) * sizeof(g1_affine_t));
        return k->a && k->b1 && k->b2 && k->l && k->h && k->ic ? 0 : -ENOMEM;
}

static int keys_alloc(const struct groth16_setup_circuit *circuit, enum groth16_h_convention conv,
                      struct groth16_keys **ret) {
        _cleanup_(groth16_keys_freep) struct groth16_keys *k = NULL;
        size_t n_h;
        int r;

        assert(circuit);
        assert(ret);

        n_h = groth16_h_bases(conv, circuit->log_domain_size);
        k = calloc(1, sizeof(*k));
        if (!k)
                return -ENOMEM;
        r = keys_alloc_arrays(k, circuit->n_vars, circuit->n_public, n_h);
        if (r < 0)
                return r;

        k->pk = (struct groth16_pk){
                .h_convention = conv,
                .n_vars = circuit->n_vars,
                .n_public = circuit->n_public,
                .log_domain_size = circuit->log_domain_size,
                .a = k->a,
                .b1 = k->b1,
                .b2 = k->b2,
                .l = k->l,
                .h = k->h,
        };
        k->vk = (struct groth16_vk){
                .n_public = (uint32_t)circuit->n_public,
                .ic = k->ic,
        };
        *ret = TAKE_PTR(k);
        return 0;
}

int groth16_keys_alloc(const struct groth16_setup_circuit *circuit, struct groth16_keys **ret) {
        return keys_alloc(circuit, GROTH16_H_BELLPERSON, ret);
}

static size_t count_nonzero(const fr_t *x, size_t n) {
        size_t count = 0;

#pragma omp parallel for schedule(static) reduction(+ : count)
        for (size_t i = 0; i < n; i++)
                count += !fr_is_zero(&x[i]);
        return count;
}

/* The G1 table and alpha1, beta1, delta1. The table is sized for the
 * scalars that cost something: zeros (wires absent from A or B, most of
 * B in a PoRep-shaped circuit) are all-zero digits. */
static int setup_g1_table(struct g1_fixed_base **ret, struct groth16_keys *k,
                          const struct groth16_setup_circuit *c,
                          const struct groth16_toxic_waste *tw, const struct groth16_qap_vectors *q,
                          unsigned threads) {
        const size_t n_h = groth16_h_bases(k->pk.h_convention, c->log_domain_size);
        const fr_t secrets[3] = {tw->alpha, tw->beta, tw->delta};
        g1_affine_t secret_points[3];
        int r;

        const size_t n_scalars =
                count_nonzero(q->u, c->n_vars) + count_nonzero(q->v, c->n_vars) + c->n_vars + n_h;

        r = g1_fixed_base_new(ret, &G1_GENERATOR, n_scalars, threads);
        if (r < 0)
                return r;
        r = g1_fixed_base_mul(*ret, secret_points, secrets, 3, threads);
        if (r < 0)
                return r;
        k->pk.alpha1 = k->vk.alpha1 = secret_points[0];
        k->pk.beta1 = secret_points[1];
        k->pk.delta1 = secret_points[2];
        return 0;
}

/* a, b1, ic and l; q->w becomes the ic/l scalars. */
static int setup_g1_wires(const struct g1_fixed_base *g1, struct groth16_keys *k,
                          const struct groth16_setup_circuit *c,
                          const struct groth16_toxic_waste *tw, struct groth16_qap_vectors *q,
                          const struct groth16_setup_options *o, unsigned threads) {
        int r;

        groth16_setup_progress(o, "a");
        r = g1_fixed_base_mul(g1, k->a, q->u, c->n_vars, threads);
        if (r < 0)
                return r;
        groth16_setup_progress(o, "b_g1");
        r = g1_fixed_base_mul(g1, k->b1, q->v, c->n_vars, threads);
        if (r < 0)
                return r;
        groth16_setup_progress(o, "ic and l");
        groth16_ic_l_scalars(c, tw, q->u, q->v, q->w);
        r = g1_fixed_base_mul(g1, k->ic, q->w, c->n_public + 1, threads);
        if (r < 0)
                return r;
        return g1_fixed_base_mul(g1, k->l, q->w + c->n_public + 1, c->n_vars - c->n_public - 1,
                                 threads);
}

static int setup_g1_h(const struct g1_fixed_base *g1, struct groth16_keys *k,
                      const struct groth16_setup_circuit *c, const struct groth16_toxic_waste *tw,
                      const struct groth16_setup_options *o, unsigned threads) {
        const size_t n_h = groth16_h_bases(k->pk.h_convention, c->log_domain_size);
        _cleanup_free_ fr_t *hs = malloc((n_h ? n_h : 1) * sizeof(fr_t));
        int r;

        if (!hs)
                return -ENOMEM;
        groth16_setup_progress(o, "h");
        if (k->pk.h_convention == GROTH16_H_SNARKJS) {
                r = groth16_snarkjs_h_scalars(hs, c->log_domain_size, tw, threads);
                if (r < 0)
                        return r;
        } else
                groth16_h_scalars(hs, n_h, c->log_domain_size, tw, threads);
        return g1_fixed_base_mul(g1, k->h, hs, n_h, threads);
}

/* The G2 points: b2 and beta2, gamma2, delta2. */
static int setup_g2(struct groth16_keys *k, const struct groth16_setup_circuit *c,
                    const struct groth16_toxic_waste *tw, const fr_t *v,
                    const struct groth16_setup_options *o, unsigned threads) {
        _cleanup_(g2_fixed_base_freep) struct g2_fixed_base *g2 = NULL;
        const fr_t secrets[3] = {tw->beta, tw->gamma, tw->delta};
        g2_affine_t secret_points[3];
        int r;

        groth16_setup_progress(o, "G2 table");
        r = g2_fixed_base_new(&g2, &G2_GENERATOR, count_nonzero(v, c->n_vars), threads);
        if (r < 0)
                return r;
        r = g2_fixed_base_mul(g2, secret_points, secrets, 3, threads);
        if (r < 0)
                return r;
        k->pk.beta2 = k->vk.beta2 = secret_points[0];
        k->vk.gamma2 = secret_points[1];
        k->pk.delta2 = k->vk.delta2 = secret_points[2];

        groth16_setup_progress(o, "b_g2");
        return g2_fixed_base_mul(g2, k->b2, v, c->n_vars, threads);
}

static int setup_keys(const struct groth16_setup_circuit *circuit,
                      const struct groth16_toxic_waste *toxic_waste, enum groth16_h_convention conv,
                      const struct groth16_setup_options *options, struct groth16_keys **ret) {
        _cleanup_(groth16_keys_freep) struct groth16_keys *k = NULL;
        _cleanup_(g1_fixed_base_freep) struct g1_fixed_base *g1 = NULL;
        _cleanup_(groth16_qap_vectors_free) struct groth16_qap_vectors q = {0};
        const struct groth16_toxic_waste *tw = toxic_waste;
        unsigned threads;
        int r;

        assert(circuit);
        assert(toxic_waste);
        assert(ret);

        r = groth16_setup_check_circuit(circuit, true);
        if (r < 0)
                return r;
        if (fr_is_zero(&tw->alpha) || fr_is_zero(&tw->beta) || fr_is_zero(&tw->gamma) ||
            fr_is_zero(&tw->delta))
                return -EINVAL;
        threads = options && options->threads ? options->threads : zk_thread_count();

        r = keys_alloc(circuit, conv, &k);
        if (r < 0)
                return r;
        r = groth16_qap_vectors_alloc(&q, circuit->n_vars);
        if (r < 0)
                return r;
        r = groth16_qap_at_tau(circuit, conv, &tw->tau, &q, options, threads);
        if (r < 0)
                return r;

        r = setup_g2(k, circuit, tw, q.v, options, threads);
        if (r < 0)
                return r;
        groth16_setup_progress(options, "G1 table");
        r = setup_g1_table(&g1, k, circuit, tw, &q, threads);
        if (r < 0)
                return r;
        r = setup_g1_wires(g1, k, circuit, tw, &q, options, threads);
        if (r < 0)
                return r;
        /* u, v, w are used up: give their memory back before h. */
        groth16_qap_vectors_free(&q);
        r = setup_g1_h(g1, k, circuit, tw, options, threads);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(k);
        return 0;
}

int groth16_setup(const struct groth16_setup_circuit *circuit,
                  const struct groth16_toxic_waste *toxic_waste,
                  const struct groth16_setup_options *options, struct groth16_keys **ret) {
        return setup_keys(circuit, toxic_waste, GROTH16_H_BELLPERSON, options, ret);
}

int groth16_setup_snarkjs(const struct groth16_setup_circuit *circuit,
                          const struct groth16_toxic_waste *toxic_waste,
                          const struct groth16_setup_options *options, struct groth16_keys **ret) {
        return setup_keys(circuit, toxic_waste, GROTH16_H_SNARKJS, options, ret);
}
