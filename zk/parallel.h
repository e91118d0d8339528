/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The thread pool shared by all of zk/ (and later the prover): OpenMP's.
 * Code parallelises with `#pragma omp parallel` and sizes its work with
 * zk_thread_count(); callers limit it with zk_set_thread_count().
 */
#pragma once

/* Threads a parallel region started now will have (>= 1). */
unsigned zk_thread_count(void);
/* Sets the thread count for later parallel regions; 0 means all CPUs. */
void zk_set_thread_count(unsigned n);
