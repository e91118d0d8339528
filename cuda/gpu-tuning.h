/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What an operator chooses about a GPU prover, decided once when it opens
 * (gpu_prover_new_tuned) and the same for every partition after. Everything
 * else about the GPU (window sizes, batches, level 0's ranges, the copy
 * ramp) follows from the sizes, as the measurements in cuda/README.md chose
 * it. Header-only C (C++ may include it too): the daemon's configuration
 * ([GPU] in cuzkd.conf(5)) fills and checks it without linking the CUDA
 * backend.
 */
#pragma once

#include <errno.h>
#include <stdbool.h>
#include <string.h>

/* Partitions in flight on one GPU: each lane is a CUDA stream and scratch
 * memory of its own, so that one partition's copies and NTTs overlap the
 * previous one's MSMs. Two hide the copies; more only hold memory. */
#define GPU_LANES_MAX 4
#define GPU_LANES_DEFAULT 2

/* The MSM window bits an operator may fix: 5 keeps the windows within the
 * prover's per-MSM window buffers, 22 a group's buckets within the sort's
 * keys with room to spare. */
#define GPU_MSM_WINDOW_BITS_MIN 5
#define GPU_MSM_WINDOW_BITS_MAX 22

/* Where a proving key's G1 bases (and densities) live for the MSMs. */
enum gpu_srs_residence {
        /* on the card when it holds them and one partition's work besides,
         * else pinned host memory (the log says which) */
        GPU_SRS_AUTO,
        /* on the card, or loading the key fails (-ENOMEM) */
        GPU_SRS_DEVICE,
        /* pinned host memory only: every MSM streams them over PCIe
         * (41 GB a 2^27 partition) */
        GPU_SRS_HOST,
};

struct gpu_tuning {
        unsigned lanes;             /* 1..GPU_LANES_MAX */
        enum gpu_srs_residence srs; /* SrsResidence= */
        unsigned msm_window_bits;   /* 0: chosen per MSM, else MIN..MAX */
};

static inline void gpu_tuning_defaults(struct gpu_tuning *t) {
        t->lanes = GPU_LANES_DEFAULT;
        t->srs = GPU_SRS_AUTO;
        t->msm_window_bits = 0;
}

/* 0, or -ERANGE for a field out of its range (the caller names the key). */
static inline int gpu_tuning_check(const struct gpu_tuning *t) {
        if (t->lanes < 1 || t->lanes > GPU_LANES_MAX)
                return -ERANGE;
        if (t->srs != GPU_SRS_AUTO && t->srs != GPU_SRS_DEVICE && t->srs != GPU_SRS_HOST)
                return -ERANGE;
        if (t->msm_window_bits != 0 && (t->msm_window_bits < GPU_MSM_WINDOW_BITS_MIN ||
                                        t->msm_window_bits > GPU_MSM_WINDOW_BITS_MAX))
                return -ERANGE;
        return 0;
}

static inline const char *gpu_srs_residence_to_string(enum gpu_srs_residence r) {
        return r == GPU_SRS_DEVICE ? "device" : r == GPU_SRS_HOST ? "host" : "auto";
}

/* "auto", "device" or "host" (SrsResidence=), -EINVAL for anything else. */
static inline int gpu_srs_residence_from_string(const char *s, enum gpu_srs_residence *ret) {
        static const enum gpu_srs_residence all[] = {GPU_SRS_AUTO, GPU_SRS_DEVICE, GPU_SRS_HOST};
        for (unsigned i = 0; i < sizeof(all) / sizeof(all[0]); i++)
                if (s && strcmp(s, gpu_srs_residence_to_string(all[i])) == 0) {
                        *ret = all[i];
                        return 0;
                }
        return -EINVAL;
}
