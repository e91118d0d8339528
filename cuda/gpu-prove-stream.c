/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A key's G1 bases streamed from its .params file to the card
 * (gpu_prover_stream_begin in gpu-prove.h): decoded there piece by piece, so
 * that the host holds no more of them than the piece being copied.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "cuda/gpu-prove-internal.h"

/* Points decoded at once through the device staging buffer (48 MiB); a caller's
 * pieces may be larger. */
#define STREAM_STAGING_POINTS ((uint64_t)1 << 19)
#define ENCODED_G1_BYTES 96

struct gpu_key_stream {
        gpu_prover_t *prover;
        struct gpu_key_shape shape;
        void *d_bases[GPU_KEY_G1_ROLES];
        uint64_t received[GPU_KEY_G1_ROLES]; /* pieces come in order */
        void *d_staging;
        void *d_word;
};

static const char *const role_names[GPU_KEY_G1_ROLES] = {"a", "b_g1", "l", "h"};

void gpu_key_stream_free(gpu_key_stream_t *s) {
        if (!s)
                return;
        for (size_t i = 0; i < GPU_KEY_G1_ROLES; i++)
                gpu_free(s->prover->ctx, s->d_bases[i]);
        gpu_free(s->prover->ctx, s->d_staging);
        gpu_free(s->prover->ctx, s->d_word);
        free(s);
}

static void gpu_key_stream_freep(gpu_key_stream_t **s) {
        gpu_key_stream_free(*s);
}

/* B_G2's bases, which adopt copies from the host beside the streamed ones. */
static uint64_t b2_bytes(const struct gpu_key_shape *shape) {
        return shape->points[GPU_KEY_B1] * sizeof(g2_affine_t);
}

/* The bases and densities the card will hold for the key. */
static uint64_t stream_need(const struct gpu_key_shape *shape) {
        uint64_t need = 2 * wire_density_bytes(shape->n_vars) + b2_bytes(shape);

        for (size_t i = 0; i < GPU_KEY_G1_ROLES; i++)
                need += shape->points[i] * sizeof(g1_affine_t);
        return need;
}

static int stream_alloc(gpu_key_stream_t *s) {
        gpu_context_t *ctx = s->prover->ctx;
        int r = gpu_alloc(ctx, &s->d_staging, STREAM_STAGING_POINTS * ENCODED_G1_BYTES);

        if (r >= 0)
                r = gpu_alloc(ctx, &s->d_word, sizeof(uint64_t));
        for (size_t i = 0; i < GPU_KEY_G1_ROLES && r >= 0; i++)
                if (s->shape.points[i])
                        r = gpu_alloc(ctx, &s->d_bases[i],
                                      s->shape.points[i] * sizeof(g1_affine_t));
        if (r < 0)
                log_warning("Allocating %.1f GiB on the GPU for the SRS failed: %s",
                            (double)stream_need(&s->shape) / (1u << 30),
                            gpu_context_last_error(ctx));
        return r;
}

int gpu_prover_stream_begin(gpu_prover_t *prover, const struct gpu_key_shape *shape,
                            gpu_key_stream_t **ret) {
        _cleanup_(gpu_key_stream_freep) gpu_key_stream_t *s = NULL;
        int r;

        assert(prover && shape && ret);
        r = resident_fits(prover, stream_need(shape) + STREAM_STAGING_POINTS * ENCODED_G1_BYTES,
                          partition_device_bytes_shape(shape->log_domain_size, shape->n_vars) +
                                  circuit_device_bytes_shape(shape->log_domain_size));
        if (r <= 0)
                return r;
        s = calloc(1, sizeof(*s));
        if (!s)
                return -ENOMEM;
        s->prover = prover;
        s->shape = *shape;
        r = stream_alloc(s);
        if (r < 0)
                /* As gpu_prover_register_pk: only SrsResidence=device makes it an error. */
                return prover->tuning.srs == GPU_SRS_DEVICE ? r : 0;
        *ret = TAKE_PTR(s);
        return 1;
}

int gpu_key_stream_put(gpu_key_stream_t *s, gpu_key_role_t role, uint64_t first,
                       const void *encoded, uint64_t n, uint64_t *ret_bad) {
        gpu_context_t *ctx;

        assert(s && role < GPU_KEY_G1_ROLES && (encoded || n == 0) && ret_bad);
        ctx = s->prover->ctx;
        if (first != s->received[role] || n > s->shape.points[role] - first)
                return log_error_errno(EINVAL,
                                       "SRS stream: %s points [%" PRIu64 ", %" PRIu64
                                       "), expected the next from %" PRIu64 " of %" PRIu64,
                                       role_names[role], first, first + n, s->received[role],
                                       s->shape.points[role]);
        for (uint64_t done = 0; done < n;) {
                const uint64_t k =
                        n - done < STREAM_STAGING_POINTS ? n - done : STREAM_STAGING_POINTS;
                g1_affine_t *d_out = (g1_affine_t *)s->d_bases[role] + first + done;
                uint64_t bad;
                int r = gpu_g1_decode_from_host(ctx, d_out,
                                                (const uint8_t *)encoded + done * ENCODED_G1_BYTES,
                                                k, s->d_staging, s->d_word, &bad);

                if (r < 0)
                        return log_error_errno(r, "Decoding %" PRIu64 " SRS points on the GPU: %s",
                                               k, gpu_context_last_error(ctx));
                if (bad != UINT64_MAX) {
                        *ret_bad = first + done + bad;
                        return 1;
                }
                done += k;
        }
        s->received[role] += n;
        return 0;
}

/* pk's points per role, as the MSMs read them. */
static void pk_points(const struct groth16_pk *pk, uint64_t ret[GPU_KEY_G1_ROLES]) {
        ret[GPU_KEY_A] = groth16_pk_a_points(pk);
        ret[GPU_KEY_B1] = groth16_pk_b_points(pk);
        ret[GPU_KEY_L] = pk->n_vars - pk->n_public - 1;
        ret[GPU_KEY_H] = groth16_h_bases(pk->h_convention, pk->log_domain_size);
}

static int check_complete(const gpu_key_stream_t *s, const struct groth16_pk *pk) {
        uint64_t want[GPU_KEY_G1_ROLES];

        pk_points(pk, want);
        if (pk->n_vars != s->shape.n_vars || pk->log_domain_size != s->shape.log_domain_size)
                return log_error_errno(EINVAL,
                                       "SRS stream: %" PRIu64 " wires, domain 2^%u; the key has "
                                       "%zu, 2^%u",
                                       s->shape.n_vars, s->shape.log_domain_size, pk->n_vars,
                                       pk->log_domain_size);
        for (size_t i = 0; i < GPU_KEY_G1_ROLES; i++)
                if (s->received[i] != want[i] || s->shape.points[i] != want[i])
                        return log_error_errno(EINVAL,
                                               "SRS stream: %" PRIu64 " of %" PRIu64
                                               " %s points received, the key has %" PRIu64,
                                               s->received[i], s->shape.points[i], role_names[i],
                                               want[i]);
        return 0;
}

int gpu_prover_stream_adopt(gpu_prover_t *prover, gpu_key_stream_t *s,
                            const struct groth16_pk *pk) {
        _cleanup_(gpu_key_stream_freep) gpu_key_stream_t *owned = s;
        /* The densities and B_G2 go as make_resident copies them; the G1 bases are there
         * already. */
        const void *host[RESIDENT_ROLES] = {0};
        size_t bytes[RESIDENT_ROLES] = {0}, own[RESIDENT_ROLES];
        struct resident_key *k;
        int r;

        assert(prover && s && s->prover == prover && pk);
        r = check_complete(s, pk);
        if (r < 0)
                return r;
        k = resident_slot(prover);
        if (!k)
                return log_error_errno(ENOMEM, "SRS stream: %d keys are already on the GPU",
                                       RESIDENT_KEYS_MAX);
        resident_extras(pk, host, bytes);
        r = copy_arrays(prover, k, host, bytes);
        if (r < 0)
                return r;
        for (size_t i = 0; i < GPU_KEY_G1_ROLES; i++)
                k->d_arrays[i] = TAKE_PTR(s->d_bases[i]);
        for (size_t i = 0; i < RESIDENT_ROLES; i++)
                own[i] = i; /* every role its own array */
        resident_key_set(k, pk, own);
        log_info("SRS streamed to the GPU: %.1f GiB of G1 bases, decoded there; %.1f GiB of "
                 "B_G2 bases copied",
                 (double)(stream_need(&s->shape) - 2 * wire_density_bytes(s->shape.n_vars) -
                          b2_bytes(&s->shape)) /
                         (1u << 30),
                 (double)b2_bytes(&s->shape) / (1u << 30));
        resident_key_widen(prover, k);
        return 0;
}
