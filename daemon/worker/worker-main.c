/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzkd --worker FD NICE: one synthesis worker, started by the supervisor for
 * one task inside its worker cgroup. It takes nice value NICE (WorkerNice=;
 * 0: the supervisor's) before anything else, reads the task from FD, computes
 * a/b/c and the witness into sealed memfds (worker-synth.h), sends both up
 * with SCM_RIGHTS, closes its own copies and exits 0; the pages stay
 * charged to its cgroup until the prover has closed them. An input it
 * cannot use is sent up as IPC_FAILED with the text that names the file,
 * and it exits 1.
 */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "common/parse-number.h"
#include "daemon/executor/executor.h"
#include "daemon/executor/helper-main.h"
#include "daemon/executor/ipc-log.h"
#include "daemon/executor/ipc.h"
#include "daemon/worker/worker-synth.h"

#if CUZK_TEST_HOOKS
/* CUZK_TEST_WORKER_FAULT (tests only, see helper-main.h). Returns 0, or -ENOMEM when an
 * unbounded allocator is refused memory (RLIMIT_DATA) instead of being killed. */
static int inject_fault(void) {
        const char *fault = getenv("CUZK_TEST_WORKER_FAULT");
        const char *once = getenv("CUZK_TEST_WORKER_FAULT_ONCE");

        if (!fault || !*fault)
                return 0;
        /* One runaway among healthy workers: only the worker that removes
         * the flag file takes the fault. */
        if (once && *once && unlink(once) < 0)
                return 0;
        log_warning("Test fault injection: %s", fault);
        if (strcmp(fault, "hang") == 0) {
                for (;;)
                        pause();
        }
        if (strcmp(fault, "crash") == 0) {
                signal(SIGSEGV, SIG_DFL); /* not a sanitizer's report: the plain crash */
                raise(SIGSEGV);
                abort();
        }
        if (strcmp(fault, "alloc-unbounded") == 0) {
                for (size_t total = 0;; total += 16u << 20) {
                        volatile char *p = malloc(16u << 20);
                        if (!p)
                                return log_error_errno(ENOMEM,
                                                       "Test fault injection: allocation refused "
                                                       "after %zu MiB",
                                                       total >> 20);
                        for (size_t i = 0; i < (16u << 20); i += 4096)
                                p[i] = 1;
                }
        }
        log_warning("Unknown CUZK_TEST_WORKER_FAULT=%s, ignored", fault);
        return 0;
}
#else
/* A package build has no fault hooks (meson -Dtest_hooks=false). */
static int inject_fault(void) {
        return 0;
}
#endif

static int send_failure(int sock, uint64_t task_id, int error) {
        struct ipc_failed failed = {
                .task_id = task_id,
                .failure = error == -ENOMEM ? EXECUTOR_FAILED_WORKER : EXECUTOR_FAILED_INPUT,
                .error = error,
        };
        const char *text = ipc_log_last_error();

        if (text[0])
                snprintf(failed.message, sizeof(failed.message), "%s", text);
        else
                snprintf(failed.message, sizeof(failed.message), "synthesis failed: %s",
                         strerror(-error));
        return ipc_send(sock, IPC_FAILED, &failed, sizeof(failed), NULL, 0);
}

/* --worker FD NICE. Returns 0 or -EINVAL, said in the log. */
static int parse_args(int argc, char **argv, int *ret_sock, int *ret_nice) {
        uint64_t v;

        if (argc != 4 || strcmp(argv[1], "--worker") != 0)
                return log_error_errno(EINVAL, "Usage: %s --worker FD NICE",
                                       argc > 0 ? argv[0] : "cuzkd");
        if (ipc_parse_fd(argv[2], ret_sock) < 0)
                return -EINVAL;
        if (parse_unsigned_range(argv[3], 0, WORKER_NICE_MAX, 10, &v) < 0)
                return log_error_errno(EINVAL, "Bad nice value \"%s\", expected 0..%d", argv[3],
                                       WORKER_NICE_MAX);
        *ret_nice = (int)v;
        return 0;
}

int worker_main(int argc, char **argv) {
        _cleanup_(worker_synth_output_close) struct worker_synth_output out = {
                .abc_fd = -EBADF, .w_fd = -EBADF, .compact_fd = -EBADF};
        struct ipc_message message;
        struct ipc_synth_done done;
        int fds[IPC_MAX_FDS];
        size_t n_fds;
        uint64_t t0;
        int sock, nice_value = 0, r;

        ipc_log_setup("worker");
        if (parse_args(argc, argv, &sock, &nice_value) < 0)
                return 2;
        /* Below the prover (WORKER_NICE_DEFAULT in daemon/executor/executor.h says why),
         * now, so that the threads it starts inherit it. */
        if (nice_value > 0 && setpriority(PRIO_PROCESS, 0, nice_value) < 0)
                log_warning_errno(errno, "Lowering the worker's priority to nice %d failed: %m",
                                  nice_value);

        r = ipc_recv(sock, &message, fds, &n_fds);
        if (r <= 0 || message.type != IPC_TASK) {
                log_error("No task from the supervisor on socket %d (%s)", sock,
                          r < 0 ? strerror(-r) : "wrong message or end of file");
                return 2;
        }
        /* Paths come from our own supervisor; still never read past the buffers. */
        message.task.circuit_path[PATH_MAX - 1] = 0;
        message.task.key_path[PATH_MAX - 1] = 0;
        message.task.witness_path[PATH_MAX - 1] = 0;
        t0 = clock_now_usec();
        r = inject_fault();
        if (r >= 0)
                r = worker_synthesize(&message.task, &out);
        if (r < 0) {
                (void)send_failure(sock, message.task.task_id, r);
                return 1;
        }
        done = (struct ipc_synth_done){
                .task_id = message.task.task_id,
                .n_vars = out.n_vars,
                .log_domain_size = out.log_domain_size,
                .witness_form = out.witness_form,
                .synthesis_usec = clock_now_usec() - t0,
                .compact_bytes = out.compact_bytes,
        };
        if (out.witness_form == IPC_WITNESS_COMPACT)
                r = ipc_send(sock, IPC_SYNTH_DONE, &done, sizeof(done), &out.compact_fd, 1);
        else
                r = ipc_send(sock, IPC_SYNTH_DONE, &done, sizeof(done),
                             (int[]){out.abc_fd, out.w_fd}, 2);
        if (r < 0) {
                log_error_errno(r, "Task %" PRIu64 ": sending the evaluations up failed: %m",
                                done.task_id);
                return 1;
        }
        log_debug("Task %" PRIu64 " partition %" PRIu32 ": synthesized 2^%u in %" PRIu64 " us",
                  done.task_id, message.task.partition, out.log_domain_size, done.synthesis_usec);
        return 0;
}
