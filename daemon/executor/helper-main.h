/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The cuzkd binary is also its own helper: the supervisor starts
 *
 *   cuzkd --worker FD NICE                one synthesis worker (daemon/worker/)
 *   cuzkd --prover FD THREADS DEVICE LANES SRS MSM_WINDOW
 *                                         one prover (daemon/prover/)
 *
 * where FD is the inherited end of a SOCK_SEQPACKET socketpair (ipc.h),
 * NICE the nice value the worker takes before it starts threads, 0 to 19
 * (WorkerNice= of cuzkd.conf(5); 0: it keeps the supervisor's), THREADS the
 * prover's thread count (0: all), DEVICE a GPU ordinal, cpu,
 * or auto (GPU 0 where one is built and usable, else the CPU), and LANES,
 * SRS and MSM_WINDOW the GPU tuning (cuda/gpu-tuning.h: Lanes=,
 * SrsResidence= and MsmWindow= of cuzkd.conf(5); a CPU prover ignores it). A prover
 * whose GPU cannot be opened exits with IPC_PROVER_EXIT_NO_DEVICE. main() calls these when argv[1]
 * is --worker or --prover and returns what they return (the exit status).
 *
 * Test-only, in builds with -Dtest_hooks=true (never in the package):
 * CUZK_TEST_WORKER_FAULT in a worker's environment makes it misbehave after
 * it has read its task, for the executor's fault tests:
 *   alloc-unbounded  allocate and touch memory until the kernel stops it
 *   hang             wait forever
 *   crash            die of SIGSEGV
 * With CUZK_TEST_WORKER_FAULT_ONCE=PATH as well, only the one worker that
 * unlinks PATH takes the fault (a runaway among healthy workers);
 * and CUZK_TEST_PROVER_FAULT in the prover's environment (when it starts):
 *   hang-tail        every task waits before its B_G2 tail until it is
 *                    canceled (so a test can kill the prover mid-task)
 * with CUZK_TEST_PROVER_FAULT_ONCE=PATH, only the one task that unlinks PATH
 * (one prover among several hangs, the others prove).
 * Never set them in production.
 */
#pragma once

int worker_main(int argc, char **argv);
int prover_main(int argc, char **argv);
