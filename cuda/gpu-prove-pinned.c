/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Pinned host copies of compact witnesses for gpu_prove_start_compact, made
 * while the partition still waits for a lane, so that its upload is one
 * DMA at the bus's rate. From pageable memory the upload went through the
 * context's staging buffers (a memcpy on the host, then the copy) on the
 * stage's critical path: with synthesis on every core a 32 GiB partition's
 * a, b, c took 19.5-57.6 ms in cuzkd (26 typical) against 16.8 ms in
 * cuda-pce-eval-test on an idle host (H100, 103 MB a partition).
 */
#include <assert.h>
#include <errno.h>
#include <string.h>

#include "cuda/gpu-prove-internal.h"

/* A free buffer of at least `bytes`, marked busy; -EBUSY when every slot is
 * taken (the caller uploads from its own memory then). */
static int pinned_get(gpu_prover_t *prover, size_t bytes, struct pinned_buffer **ret) {
        struct pinned_buffer *pick = NULL;

        pthread_mutex_lock(&prover->lock);
        for (size_t i = 0; i < PINNED_BUFFERS_MAX; i++) {
                struct pinned_buffer *b = &prover->pinned[i];
                if (b->busy)
                        continue;
                if (!pick || (b->bytes >= bytes && (pick->bytes < bytes || b->bytes < pick->bytes)))
                        pick = b;
        }
        if (pick)
                pick->busy = true;
        pthread_mutex_unlock(&prover->lock);
        if (!pick)
                return -EBUSY;
        if (pick->bytes < bytes) {
                gpu_host_free(prover->ctx, pick->p);
                pick->p = NULL;
                pick->bytes = 0;
                int r = gpu_host_alloc(prover->ctx, &pick->p, bytes);
                if (r < 0) {
                        pinned_put(prover, pick);
                        return r;
                }
                pick->bytes = bytes;
        }
        *ret = pick;
        return 0;
}

void pinned_put(gpu_prover_t *prover, struct pinned_buffer *b) {
        if (!b)
                return;
        pthread_mutex_lock(&prover->lock);
        b->busy = false;
        pthread_mutex_unlock(&prover->lock);
}

void pinned_free_all(gpu_prover_t *prover) {
        for (size_t i = 0; i < PINNED_BUFFERS_MAX; i++) {
                assert(!prover->pinned[i].busy);
                gpu_host_free(prover->ctx, prover->pinned[i].p);
                prover->pinned[i] = (struct pinned_buffer){0};
        }
}

/* Copies n bytes from src to *at and returns the copy, *at moved past it. */
static void *take(char **at, const void *src, size_t n) {
        void *r = *at;
        if (n)
                memcpy(r, src, n);
        *at += n;
        return r;
}

int compact_witness_pin(gpu_prover_t *prover, const struct pce_compact_witness *w,
                        struct pce_compact_witness *ret, struct pinned_buffer **ret_buffer) {
        const size_t words = pce_bitmap_words(w->n_aux);
        const size_t inputs = ((size_t)w->n_inputs + 1) * sizeof(fr_t);
        const size_t nums = (size_t)pce_compact_nums(w) * sizeof(fr_t);
        const size_t bitmap = words * sizeof(uint64_t);
        struct pinned_buffer *b = NULL;

        int r = pinned_get(prover, inputs + nums + 3 * bitmap, &b);
        if (r < 0)
                return r;
        char *at = b->p;
        *ret = (struct pce_compact_witness){
                .n_inputs = w->n_inputs,
                .inputs = take(&at, w->inputs, inputs),
                .n_aux = w->n_aux,
                .nums = take(&at, w->nums, nums),
                .is_bit = take(&at, w->is_bit, bitmap),
                .bit_value = take(&at, w->bit_value, bitmap),
                .rank = take(&at, w->rank, bitmap),
        };
        *ret_buffer = b;
        return 0;
}
