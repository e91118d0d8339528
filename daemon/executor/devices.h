/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Devices= and GPU= of cuzkd.conf turned into the executor's provers: one
 * entry per prover, a GPU ordinal, EXECUTOR_DEVICE_CPU or EXECUTOR_DEVICE_AUTO
 * (see cuzkd.conf(5)).
 */
#pragma once

#include "daemon/supervisor/config.h"
#include "daemon/executor/executor.h"

/* The GPUs the CUDA runtime shows (CUDA_VISIBLE_DEVICES applies); 0 without a
 * driver, a device, or CUDA in this build. */
int devices_gpu_count(void);

/* The provers for the configuration on a host with gpu_count GPUs: Devices=all gives
 * one per GPU (EXECUTOR_MAX_PROVERS at most), or one prover (AUTO, which says why it
 * falls back; CPU under GPU=no) without a GPU. A list is taken as it is, cpu entries
 * as CPU provers. -EINVAL, with a message naming the entry, for an ordinal under GPU=no
 * or one past gpu_count. */
int devices_resolve(const struct config_devices *devices, enum config_tristate gpu, int gpu_count,
                    int ret[EXECUTOR_MAX_PROVERS], unsigned *ret_n);
