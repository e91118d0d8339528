/* SPDX-License-Identifier: Apache-2.0 */
/* For the C1 tests: C1 outputs filled with reproducible values, a deep
 * comparison, and the logged line of a refusal. */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "filecoin/c1/c1.h"

/* A C1 output of the registered proof named, every value from seed. */
struct c1_output *test_c1_filled(const char *proof_name, uint64_t seed);
/* Every field of a and b equal (the arenas' addresses aside). */
bool test_c1_equal(const struct c1_output *a, const struct c1_output *b);

/* Captures log lines: how many since the last reset, and the last one. */
void test_log_capture_start(void);
void test_log_capture_stop(void);
unsigned test_log_lines(void);
const char *test_log_last(void);

double test_seconds_now(void);
