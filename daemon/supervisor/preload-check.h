/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What PreloadSRS checks of a circuit's files before it reserves their bytes, once
 * peer_files_open() has opened each (an absolute path to a regular file, without blocking,
 * with the client's rights): that it starts with the header of what it must be, a snarkjs
 * .zkey (its Groth16 sections), a bellperson .params file (its counts against its size)
 * or a cuzk PCE file. The reservation is the file's size, so a file that is none of these
 * (a sparse file, /etc/shadow) must not get that far. Only headers are read; the prover
 * decodes the rest when it loads the key.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

enum preload_file_kind {
        PRELOAD_FILE_ZKEY,   /* snarkjs .zkey */
        PRELOAD_FILE_PARAMS, /* bellperson .params */
        PRELOAD_FILE_PCE,    /* cuzk PCE */
};

/* Checks the header of the file open at fd (size bytes) for kind; -EINVAL with message
 * naming the file and what was expected, or what pread(2) said. */
int preload_check_header(int fd, uint64_t size, enum preload_file_kind kind, const char *path,
                         char *message, size_t message_size);
