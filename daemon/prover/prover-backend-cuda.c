/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The CUDA prover backend: cuda/gpu-prove.h's split prover behind the
 * prover-backend.h table. prove_start runs the GPU stage (and starts the
 * B_G2 tail where it finishes first); prove_finish joins it and assembles.
 * Keys are pinned for the GPU the first time they are seen (they stay
 * loaded in the prover's key cache, which owns them). A compact witness
 * proves with its circuit's PCE on the card: uploaded from the PCE file the
 * first time (the host mapping let go at once), kept until the key goes.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "circuits/pce-file.h"
#include "common/cleanup.h"
#include "common/clock.h"
#include "common/log.h"
#include "cuda/gpu-prove.h"
#include "cuda/pce-eval.h"
#include "daemon/prover/prover-backend.h"

#define CUDA_PINNED_KEYS_MAX 16
#define CUDA_PCES_MAX 16

/* A circuit's PCE on the card, for the compact witnesses of one key's partitions. */
struct cuda_pce {
        const struct groth16_pk *pk;
        char *path;
        gpu_pce_t *d;
};

struct cuda_backend {
        struct prover_backend base;
        gpu_prover_t *gpu;
        int ordinal;
        /* Keys pinned so far (cudaHostRegister), unpinned at the end. */
        const struct groth16_pk *pinned[CUDA_PINNED_KEYS_MAX];
        size_t n_pinned;
        struct cuda_pce pces[CUDA_PCES_MAX];
        size_t n_pces;
        /* The G1 bases of the .params file being loaded, on their way to the card. */
        gpu_key_stream_t *stream;
};

struct prover_partial {
        gpu_prove_partial_t *gpu;
};

/* Whether pk is registered (pinned, its bases on the card where they fit). */
static bool cuda_pin_once(struct cuda_backend *cuda, const struct groth16_pk *pk) {
        for (size_t i = 0; i < cuda->n_pinned; i++)
                if (cuda->pinned[i] == pk)
                        return true;
        if (cuda->n_pinned == CUDA_PINNED_KEYS_MAX)
                return false; /* unpinned keys still work, with slower copies */
        if (gpu_prover_register_pk(cuda->gpu, pk) < 0)
                return false;
        cuda->pinned[cuda->n_pinned++] = pk;
        return true;
}

/* With SrsResidence=auto a 32 GiB sector's G1 bases (38.3 GiB) go to a card that holds
 * them beside the partitions in flight (an H200, not an 80 GB H100): streamed there as
 * the file is read (cuda_key_sink), or copied from the host arrays, whose copy the prover
 * then frees. */
static int cuda_adopt_key(struct prover_backend *backend, const struct groth16_pk *pk) {
        struct cuda_backend *cuda = (struct cuda_backend *)backend;
        const bool streamed = cuda->stream && !pk->h;
        int r;

        if (streamed) {
                r = gpu_prover_stream_adopt(cuda->gpu, TAKE_PTR(cuda->stream), pk);
                if (r < 0)
                        return r;
        }
        if (!cuda_pin_once(cuda, pk) && streamed) {
                gpu_prover_unregister_pk(cuda->gpu, pk);
                return log_error_errno(ENOSPC,
                                       "GPU %d: %d keys registered already, the most it keeps",
                                       cuda->ordinal, CUDA_PINNED_KEYS_MAX);
        }
        return gpu_prover_pk_resident(cuda->gpu, pk) ? 1 : 0;
}

/* The GPU's role for each G1 section of a .params file. */
static const gpu_key_role_t section_roles[BELLPERSON_SECTION_B_G2] = {
        [BELLPERSON_SECTION_H] = GPU_KEY_H,
        [BELLPERSON_SECTION_L] = GPU_KEY_L,
        [BELLPERSON_SECTION_A] = GPU_KEY_A,
        [BELLPERSON_SECTION_B_G1] = GPU_KEY_B1,
};

static int sink_begin(void *userdata, const struct bellperson_params_layout *layout,
                      uint32_t n_public) {
        struct cuda_backend *cuda = userdata;
        const uint64_t domain = (uint64_t)layout->count[BELLPERSON_SECTION_H] + 1;
        struct gpu_key_shape shape = {
                .n_vars = (uint64_t)n_public + 1 + layout->count[BELLPERSON_SECTION_L],
        };

        /* Not a domain: bellperson_params_to_pk refuses the file, saying why. */
        if (domain & (domain - 1))
                return 0;
        while (((uint64_t)1 << shape.log_domain_size) < domain)
                shape.log_domain_size++;
        for (unsigned s = 0; s < BELLPERSON_SECTION_B_G2; s++)
                shape.points[section_roles[s]] = layout->count[s];
        gpu_key_stream_free(TAKE_PTR(cuda->stream));
        return gpu_prover_stream_begin(cuda->gpu, &shape, &cuda->stream);
}

static int sink_put(void *userdata, enum bellperson_params_section s, uint64_t first,
                    const uint8_t *encoded, uint64_t n, uint64_t *ret_bad) {
        struct cuda_backend *cuda = userdata;

        assert(s < BELLPERSON_SECTION_B_G2 && cuda->stream);
        return gpu_key_stream_put(cuda->stream, section_roles[s], first, encoded, n, ret_bad);
}

static int cuda_key_sink(struct prover_backend *backend, struct bellperson_g1_sink *ret) {
        *ret = (struct bellperson_g1_sink){
                .begin = sink_begin, .put = sink_put, .userdata = backend};
        return 1;
}

static void cuda_key_sink_done(struct prover_backend *backend) {
        struct cuda_backend *cuda = (struct cuda_backend *)backend;

        gpu_key_stream_free(TAKE_PTR(cuda->stream));
}

/* Checks a loaded PCE against the key its partitions prove with. */
static int pce_fits_key(const struct pce *pce, const char *path, const struct groth16_pk *pk) {
        if (pce->n_cols != pk->n_vars || pce->n_public != pk->n_public ||
            pce_log_domain_size(pce) != pk->log_domain_size)
                return log_error_errno(EINVAL,
                                       "%s: %" PRIu32 " wires, %" PRIu32
                                       " public inputs, domain 2^%u; the key has %zu, %zu, 2^%u",
                                       path, pce->n_cols, pce->n_public, pce_log_domain_size(pce),
                                       pk->n_vars, pk->n_public, pk->log_domain_size);
        return 0;
}

/* The file's pages out of the page cache: memory.peak counts page cache, and a 32 GiB
 * sector's PCE file (7.5 GB) read once for the upload is not needed again. Advice only:
 * pages another process maps stay. */
static void drop_page_cache(const char *path) {
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

        if (fd >= 0)
                (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
}

/* The PCE at path on the card for pk's partitions: uploaded the first time. */
static int cuda_pce_get(struct cuda_backend *cuda, const struct groth16_pk *pk, const char *path,
                        const gpu_pce_t **ret) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        struct cuda_pce *e;
        uint64_t t0;
        int r;

        for (size_t i = 0; i < cuda->n_pces; i++)
                if (cuda->pces[i].pk == pk && strcmp(cuda->pces[i].path, path) == 0) {
                        *ret = cuda->pces[i].d;
                        return 0;
                }
        if (cuda->n_pces == CUDA_PCES_MAX)
                return log_error_errno(ENOSPC, "%s: %d PCEs on GPU %d already, expected fewer",
                                       path, CUDA_PCES_MAX, cuda->ordinal);
        t0 = clock_now_usec();
        r = pce_load(path, &pce);
        if (r < 0)
                return r;
        r = pce_fits_key(pce, path, pk);
        if (r < 0)
                return r;
        e = &cuda->pces[cuda->n_pces];
        e->path = strdup(path);
        if (!e->path)
                return -ENOMEM;
        r = gpu_prover_upload_pce(cuda->gpu, pce, &e->d);
        if (r < 0) {
                free(TAKE_PTR(e->path));
                return log_error_errno(r, "%s: the PCE does not go onto GPU %d: %m", path,
                                       cuda->ordinal);
        }
        e->pk = pk;
        cuda->n_pces++;
        drop_page_cache(path);
        log_info("%s: PCE on GPU %d (%" PRIu32 " rows) in %.2f s", path, cuda->ordinal, pce->n_rows,
                 (double)(clock_now_usec() - t0) / 1e6);
        *ret = e->d;
        return 0;
}

static void cuda_pces_forget(struct cuda_backend *cuda, const struct groth16_pk *pk) {
        for (size_t i = 0; i < cuda->n_pces;) {
                if (pk && cuda->pces[i].pk != pk) {
                        i++;
                        continue;
                }
                gpu_pce_free(cuda->pces[i].d);
                free(cuda->pces[i].path);
                cuda->pces[i] = cuda->pces[--cuda->n_pces];
        }
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
        assert(in && in->pk &&
               ((in->w && in->a && in->b && in->c) || (in->compact && in->circuit_path)));
        assert(in->log_domain_size == in->pk->log_domain_size);
        assert(ret);

        partial = calloc(1, sizeof(*partial));
        if (!partial)
                return -ENOMEM;
        cuda_pin_once(cuda, in->pk);
        if (in->compact) {
                const gpu_pce_t *d_pce = NULL;
                r = cuda_pce_get(cuda, in->pk, in->circuit_path, &d_pce);
                if (r >= 0)
                        r = gpu_prove_start_compact(cuda->gpu, in->pk, d_pce, in->compact,
                                                    &partial->gpu);
        } else
                r = gpu_prove_start(cuda->gpu, in->pk, in->w, in->a, in->b, in->c, &partial->gpu);
        if (r < 0)
                return r; /* gpu_prove_start said what failed */
        *ret = TAKE_PTR(partial);
        return 0;
}

/* The times are gpu-prove.h's: the stage as CUDA events on its lane's stream timed it, from
 * its first copy to its last MSM, and the B_G2 tail from its start to its end, on the card
 * or on CPU threads. prove_start's wall time would count the wait for a free lane, in which
 * another partition's stage runs (and may be collected by this start). */
static int cuda_prove_finish(struct prover_backend *backend, struct prover_partial *partial,
                             struct groth16_proof *ret, struct prover_timings *ret_timings) {
        gpu_prove_timings_t t;
        char split[192];
        int r;

        assert(backend && partial && ret);
        r = gpu_prove_finish(((struct cuda_backend *)backend)->gpu, partial->gpu, ret, &t);
        free(partial);
        if (r < 0)
                return r;
        gpu_stage_split_format(&t.split, split, sizeof(split));
        log_debug("GPU stage %.3f s (%s), B_G2 tail %.3f s on the %s (%.3f s of it overlapped)",
                  t.gpu_stage_usec / 1e6, split, t.g2_usec / 1e6, t.g2_on_gpu ? "GPU" : "CPU",
                  t.overlap_usec / 1e6);
        if (ret_timings)
                *ret_timings = (struct prover_timings){.stage_measured = true,
                                                       .tail_measured = true,
                                                       .stage_usec = t.gpu_stage_usec,
                                                       .tail_usec = t.g2_usec};
        return 0;
}

static void cuda_free(struct prover_backend *backend) {
        struct cuda_backend *cuda = (struct cuda_backend *)backend;

        if (!cuda)
                return;
        cuda_pces_forget(cuda, NULL);
        gpu_key_stream_free(cuda->stream);
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

        cuda_pces_forget(cuda, pk);
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
        .adopt_key = cuda_adopt_key,
        .key_sink = cuda_key_sink,
        .key_sink_done = cuda_key_sink_done,
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
