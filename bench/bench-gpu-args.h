/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The GPU benchmarks' options, the operator's choices of cuda/gpu-tuning.h
 * plus the MSM profile:
 *   --lanes=N            partitions in flight (1..GPU_LANES_MAX)
 *   --srs=auto|device|host
 *   --window=C           MSM window bits (GPU_MSM_WINDOW_BITS_MIN..MAX, 0 auto)
 *   --profile            each MSM's steps' times on stderr
 * Header-only: each benchmark is one program.
 */
#pragma once

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cuda/gpu-tuning.h"

/* 1 when arg is one of the options (t and *profile updated), 0 when it is
 * not an option, -EINVAL (said on stderr) when its value is refused. */
static inline int bench_gpu_option(const char *prog, const char *arg, struct gpu_tuning *t,
                                   bool *profile) {
        struct gpu_tuning want = *t;
        const char *value = NULL;
        char *end = NULL;

        if (strcmp(arg, "--profile") == 0) {
                *profile = true;
                return 1;
        }
        if (strncmp(arg, "--lanes=", 8) == 0)
                want.lanes = (unsigned)strtoul(value = arg + 8, &end, 10);
        else if (strncmp(arg, "--window=", 9) == 0)
                want.msm_window_bits = (unsigned)strtoul(value = arg + 9, &end, 10);
        else if (strncmp(arg, "--srs=", 6) == 0) {
                if (gpu_srs_residence_from_string(arg + 6, &want.srs) < 0)
                        want.lanes = 0; /* refused below */
        } else
                return 0;
        if ((value && (end == value || *end)) || gpu_tuning_check(&want) < 0) {
                fprintf(stderr,
                        "%s: %s refused: expected --lanes=1..%d, --srs=auto|device|host, "
                        "--window=0 or %d..%d\n",
                        prog, arg, GPU_LANES_MAX, GPU_MSM_WINDOW_BITS_MIN, GPU_MSM_WINDOW_BITS_MAX);
                return -EINVAL;
        }
        *t = want;
        return 1;
}
