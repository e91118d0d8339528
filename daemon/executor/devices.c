/* SPDX-License-Identifier: Apache-2.0 */
#include "daemon/executor/devices.h"

#include <assert.h>
#include <errno.h>

#include "common/log.h"
#if HAVE_CUDA
#include "cuda/gpu.h"
#endif

int devices_gpu_count(void) {
#if HAVE_CUDA
        int n = gpu_device_count();

        return n > 0 ? n : 0;
#else
        return 0;
#endif
}

int devices_resolve(const struct config_devices *devices, enum config_tristate gpu, int gpu_count,
                    int ret[EXECUTOR_MAX_PROVERS], unsigned *ret_n) {
        unsigned n = 0;

        assert(devices);
        assert(ret);
        assert(ret_n);
        if (devices->all) {
                if (gpu == CONFIG_NO || gpu_count <= 0)
                        ret[n++] = gpu == CONFIG_NO ? EXECUTOR_DEVICE_CPU : EXECUTOR_DEVICE_AUTO;
                for (int i = 0; gpu != CONFIG_NO && i < gpu_count && n < EXECUTOR_MAX_PROVERS; i++)
                        ret[n++] = i;
                if (gpu != CONFIG_NO && gpu_count > EXECUTOR_MAX_PROVERS)
                        log_warning("Devices=all: %d GPUs, provers for the first %d", gpu_count,
                                    EXECUTOR_MAX_PROVERS);
                *ret_n = n;
                return 0;
        }
        assert(devices->n > 0 && devices->n <= EXECUTOR_MAX_PROVERS);
        for (unsigned i = 0; i < devices->n; i++) {
                int d = devices->ordinals[i];

                if (d == CONFIG_DEVICE_CPU) {
                        ret[n++] = EXECUTOR_DEVICE_CPU;
                        continue;
                }
                if (gpu == CONFIG_NO)
                        return log_error_errno(EINVAL,
                                               "Devices= names GPU %d, but GPU=no: expected "
                                               "cpu entries only, or GPU=auto",
                                               d);
                if (gpu_count <= 0)
                        return log_error_errno(EINVAL,
                                               "Devices= names GPU %d, but no GPU is present "
                                               "(no CUDA device, driver or backend; "
                                               "CUDA_VISIBLE_DEVICES applies)",
                                               d);
                if (d >= gpu_count)
                        return log_error_errno(EINVAL,
                                               "Devices= names GPU %d, but %d GPU%s present "
                                               "(ordinals 0 to %d, after CUDA_VISIBLE_DEVICES)",
                                               d, gpu_count, gpu_count == 1 ? " is" : "s are",
                                               gpu_count - 1);
                ret[n++] = d;
        }
        *ret_n = n;
        return 0;
}
