/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which backend a prover gets: CUDA when this build has it, the prover was
 * asked to use a GPU, and a device answers; otherwise the CPU, said once
 * with the reason, so that a host without a GPU (or a broken driver) still
 * proves.
 */
#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/log.h"
#include "daemon/prover/prover-backend.h"

int prover_backend_new(int device, unsigned threads, const struct gpu_tuning *tuning,
                       struct prover_backend **ret) {
        int r;

        assert(ret);
        if (device == PROVER_DEVICE_CPU) {
                log_info("Prover backend: cpu (Devices=cpu or GPU=no in the configuration)");
                return prover_backend_cpu_new(threads, ret);
        }
#if HAVE_CUDA
        r = prover_backend_cuda_new(device == PROVER_DEVICE_AUTO ? 0 : device, threads, tuning,
                                    ret);
        if (r >= 0 || device != PROVER_DEVICE_AUTO)
                return r;
        log_warning("No usable CUDA device (%s): proving on the CPU backend", strerror(-r));
#else
        (void)r;
        (void)tuning;
        if (device != PROVER_DEVICE_AUTO)
                return log_error_errno(EOPNOTSUPP,
                                       "GPU %d was asked for but this build has no CUDA backend",
                                       device);
        log_info("This build has no CUDA backend: proving on the CPU backend");
#endif
        return prover_backend_cpu_new(threads, ret);
}

void prover_backend_device_info(struct prover_backend *backend, struct prover_device_info *ret) {
        assert(backend);
        assert(ret);
        *ret = (struct prover_device_info){.ordinal = -1};
        if (backend->ops->device_info && backend->ops->device_info(backend, ret) >= 0)
                return;
        *ret = (struct prover_device_info){.ordinal = -1};
        snprintf(ret->name, sizeof(ret->name), "cpu");
}
