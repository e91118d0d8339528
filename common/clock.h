/* SPDX-License-Identifier: Apache-2.0 */
/* The monotonic clock (CLOCK_MONOTONIC), in the units cuzk measures with. */
#pragma once

#include <stdint.h>

/* Microseconds, for timestamps and durations kept as integers. */
uint64_t clock_now_usec(void);
/* Seconds, for durations printed to people. */
double clock_now_seconds(void);
