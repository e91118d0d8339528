/* SPDX-License-Identifier: Apache-2.0 */
/* Shared by the libFuzzer harnesses: inputs as files, logs silenced. */
#pragma once

#include <stddef.h>
#include <stdint.h>

/* Silences the loaders' error messages (run once). */
void fuzz_quiet(void);

/*
 * Writes data to a memfd and returns a path naming it (/proc/self/fd/N), so
 * that loaders taking a path read exactly the fuzzer's bytes; the fd is
 * closed by fuzz_file_close(). Aborts when the memfd cannot be made.
 */
const char *fuzz_file(const uint8_t *data, size_t size);
void fuzz_file_close(void);
