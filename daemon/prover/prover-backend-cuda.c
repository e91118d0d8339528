/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CUDA prover backend: cuda/gpu-prove.h's split prover behind the
 * prover-backend.h table. prove_start runs the GPU stage (and starts the
 * B_G2 tail where it finishes first); prove_finish joins it and assembles.
 * Keys are pinned for the GPU the first time they are seen (they stay
 * loaded in the prover's key cache, which owns them).
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "cuda/gpu-prove.h"
#include "daemon/prover/prover-backend.h"

#define CUDA_PINNED_KEYS_MAX 16

struct cuda_backend {
        struct prover_backend base;
        gpu_prover_t *gpu;
        int ordinal;
        /* Keys pinned so far (cudaHostRegister), unpinned at the end. */
        const struct groth16_pk *pinned[CUDA_PINNED_KEYS_MAX];
        size_t n_pinned;
};

struct prover_partial {
        gpu_prove_partial_t *gpu;
};

static void cuda_pin_once(struct cuda_backend *cuda, const struct groth16_pk *pk) {
        for (size_t i = 0; i < cuda->n_pinned; i++)
                if (cuda->pinned[i] == pk)
                        return;
        if (cuda->n_pinned == CUDA_PINNED_KEYS_MAX)
                return; /* unpinned keys still work, with slower copies */
        if (gpu_prover_register_pk(cuda->gpu, pk) >= 0)
                cuda->pinned[cuda->n_pinned++] = pk;
}

static void cuda_partial_free(struct prover_partial *partial) {
        if (!partial)
                return;
        gpu_prove_partial_free(partial->gpu);
        free(partial);
}

static int cuda_prove_start(struct prover_backend *backend, const struct prover_inputs *in,
                            struct prover_partial **ret) {
        struct cuda_backend *cuda;
        _cleanup_free_ struct prover_partial *partial = NULL;
        int r;

        assert(backend);
        cuda = (struct cuda_backend *)backend;
        assert(in && in->pk && in->w && in->a && in->b && in->c);
        assert(in->log_domain_size == in->pk->log_domain_size);
        assert(ret);

        partial = calloc(1, sizeof(*partial));
        if (!partial)
                return -ENOMEM;
        cuda_pin_once(cuda, in->pk);
        r = gpu_prove_start(cuda->gpu, in->pk, in->w, in->a, in->b, in->c, &partial->gpu);
        if (r < 0)
                return r; /* gpu_prove_start said what failed */
        *ret = TAKE_PTR(partial);
        return 0;
}

static int cuda_prove_finish(struct prover_backend *backend, struct prover_partial *partial,
                             struct groth16_proof *ret) {
        gpu_prove_timings_t t;
        int r;

        assert(backend && partial && ret);
        r = gpu_prove_finish(((struct cuda_backend *)backend)->gpu, partial->gpu, ret, &t);
        free(partial);
        if (r < 0)
                return r;
        log_debug("GPU stage %.3f s, B_G2 tail %.3f s on the %s (%.3f s of it overlapped)",
                  t.gpu_stage_usec / 1e6, t.g2_usec / 1e6, t.g2_on_gpu ? "GPU" : "CPU",
                  t.overlap_usec / 1e6);
        return 0;
}

static void cuda_free(struct prover_backend *backend) {
        struct cuda_backend *cuda = (struct cuda_backend *)backend;

        if (!cuda)
                return;
        for (size_t i = 0; i < cuda->n_pinned; i++)
                gpu_prover_unregister_pk(cuda->gpu, cuda->pinned[i]);
        gpu_prover_free(cuda->gpu);
        free(cuda);
}

static int cuda_device_info(struct prover_backend *backend, struct prover_device_info *ret) {
        struct cuda_backend *cuda = (struct cuda_backend *)backend;
        uint64_t free_bytes = 0, total_bytes = 0;

        (void)gpu_prover_memory(cuda->gpu, &free_bytes, &total_bytes);
        *ret = (struct prover_device_info){
                .ordinal = cuda->ordinal,
                .memory_total_bytes = total_bytes,
                .memory_free_bytes = free_bytes,
        };
        snprintf(ret->name, sizeof(ret->name), "%s", gpu_prover_device_name(cuda->gpu));
        return 0;
}

static void cuda_forget_key(struct prover_backend *backend, const struct groth16_pk *pk) {
        struct cuda_backend *cuda = (struct cuda_backend *)backend;

        for (size_t i = 0; i < cuda->n_pinned; i++)
                if (cuda->pinned[i] == pk) {
                        gpu_prover_unregister_pk(cuda->gpu, pk);
                        cuda->pinned[i] = cuda->pinned[--cuda->n_pinned];
                        return;
                }
}

static const struct prover_backend_ops cuda_ops = {
        .name = "cuda",
        .device_info = cuda_device_info,
        .forget_key = cuda_forget_key,
        .prove_start = cuda_prove_start,
        .prove_finish = cuda_prove_finish,
        .partial_free = cuda_partial_free,
        .free = cuda_free,
};

int prover_backend_cuda_new(int ordinal, unsigned threads, const struct gpu_tuning *tuning,
                            struct prover_backend **ret) {
        _cleanup_free_ struct cuda_backend *cuda = NULL;
        struct gpu_tuning defaults;
        int r;

        assert(ret);
        if (!tuning) {
                gpu_tuning_defaults(&defaults);
                tuning = &defaults;
        }
        cuda = calloc(1, sizeof(*cuda));
        if (!cuda)
                return -ENOMEM;
        r = gpu_prover_new_tuned(ordinal, threads, GPU_G2_AUTO, tuning, &cuda->gpu);
        if (r < 0)
                return r;
        cuda->base.ops = &cuda_ops;
        cuda->ordinal = ordinal;
        log_info("Prover backend: cuda (GPU %d, %s)", ordinal, gpu_prover_device_name(cuda->gpu));
        *ret = &TAKE_PTR(cuda)->base;
        return 0;
}
