/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a synthesis worker computes for one task: the evaluations a = A w,
 * b = B w, c = C w on the domain (3 x 2^k fr_t, Montgomery, in that order)
 * in one sealed memfd and the witness w (n_vars fr_t) in another.
 *
 *   snarkjs jobs     the .zkey's coefficient section as matrices A and B
 *                    (c = a o b, as snarkjs proves), the .wtns;
 *   synthetic jobs   the PCE file (mapped) and the .wtns; every partition
 *                    of a synthetic job proves the same witness (the
 *                    workload is a stand-in for PoRep's partitions, which
 *                    share one circuit), each with its own r, s;
 *   PoRep jobs       the C1 output: partition k's witness computed from it
 *                    (circuits/porep/stacked.h), a, b, c from the sector
 *                    size's PCE file (mapped).
 *
 * A task of IPC_WITNESS_COMPACT (a PCE circuit for a CUDA prover) gets the witness
 * alone, in compact form, in one sealed memfd: the PCE's header is all the worker reads
 * of it, and a, b, c are never made on the host.
 */
#pragma once

#include <stdint.h>

#include "daemon/executor/ipc.h"

struct worker_synth_output {
        uint32_t witness_form; /* enum ipc_witness_form, the task's */
        int abc_fd;            /* FULL: sealed memfd, 3 << log_domain_size fr_t */
        int w_fd;              /* FULL: sealed memfd, n_vars fr_t */
        int compact_fd;        /* COMPACT: sealed memfd, compact_bytes (ipc-compact.h) */
        uint64_t compact_bytes;
        uint64_t n_vars;
        unsigned log_domain_size;
};

/* Returns 0 or a negative errno, logged naming the file and the value. */
int worker_synthesize(const struct ipc_task *task, struct worker_synth_output *ret);
void worker_synth_output_close(struct worker_synth_output *output);
