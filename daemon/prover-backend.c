/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Which backend a prover gets: CUDA when this build has it, the prover was
 * asked to use a GPU, and a device answers; otherwise the CPU, said once
 * with the reason, so that a host without a GPU (or a broken driver) still
 * proves.
 */
#include <assert.h>
#include <errno.h>
#include <string.h>

#include "common/log.h"
#include "daemon/prover-backend.h"

int prover_backend_new(bool use_gpu, unsigned threads, struct prover_backend **ret) {
        int r;

        assert(ret);
        if (!use_gpu) {
                log_info("Prover backend: cpu (GPU=no in the configuration)");
                return prover_backend_cpu_new(threads, ret);
        }
#if HAVE_CUDA
        r = prover_backend_cuda_new(0, threads, ret);
        if (r >= 0)
                return r;
        log_warning("No usable CUDA device (%s): proving on the CPU backend", strerror(-r));
#else
        (void)r;
        log_info("This build has no CUDA backend: proving on the CPU backend");
#endif
        return prover_backend_cpu_new(threads, ret);
}
