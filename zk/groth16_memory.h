/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The memory one Groth16 partition needs while groth16_prove_partition()
 * (groth16_partition.h) proves it: what the daemon reserves before it
 * admits a partition. Shared data (the SRS, the constraint matrices) is not
 * included: it is reserved once per circuit.
 *
 * The prover's peak is the largest of three phases:
 *   H        witness + a, b, c evaluations (3 x 2^k) + the NTT domain
 *            (ntt_domain_bytes) + whatever the evaluator keeps (evaluate_bytes)
 *   G1 MSMs  witness + H's scalars (2^k) + the largest G1 MSM's buckets,
 *            digits and batch buffers (the MSMs run one after the other)
 *   b_g2     witness + the G2 MSM's (H's scalars are gone by then)
 * At 2^20 and beyond the H phase dominates (the MSM scratch stops growing at
 * 16-bit windows and 2^20-point digit chunks); below it the MSMs can. The
 * figure counts what is allocated; some MSM batch buffers are only half
 * used, so below 2^16 it runs a few hundred KiB over the measured peak.
 * bench/RESULTS.md has predicted against measured from 2^16 to 2^24.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

struct groth16_partition_shape {
        unsigned log_domain_size;
        size_t n_vars;   /* witness length, the constant 1 included */
        size_t n_public; /* public inputs, not counting the constant */
        /*
         * Points of the largest wire MSM in G1 (a, b_g1, l) and of the b_g2
         * MSM whose scalar is neither 0 nor 1 and whose point is not at
         * infinity: they size the MSMs' windows. n_vars bounds them for any
         * witness; groth16_partition_shape_from_witness() counts them.
         */
        size_t g1_windowed, g2_windowed;
        /* Scalars gathered for a key with a density (zk/density.h): the
         * larger of its A and B point counts; 0 for a point per wire. */
        size_t gathered;
        /* Bytes the evaluator holds while a, b, c are live (0 for sparse
         * matrices, which evaluate in place). */
        size_t evaluate_bytes;
        unsigned threads; /* the prover's, 0 for zk_thread_count() */
};

/* Peak bytes of one partition with this shape. */
size_t groth16_partition_bytes(const struct groth16_partition_shape *shape);

/* The MSM part alone: peak bytes of one MSM of n points of which `windowed`
 * go through the windows (mirrors zk/msm.c's allocations). */
size_t groth16_msm_scratch_bytes(size_t n, size_t windowed, unsigned threads, bool g2);

/*
 * Measuring it: the process's resident set from /proc/self/status. The
 * reset sets the peak (VmHWM) back to the current RSS through
 * /proc/self/clear_refs and returns that RSS; process_peak_rss_bytes()
 * then says how high it went since. Both return 0 or a negative errno
 * (e.g. -EACCES where clear_refs cannot be written).
 */
int process_peak_rss_reset(size_t *ret_rss_bytes);
int process_peak_rss_bytes(size_t *ret_bytes);
