/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The prover process, supervisor side: started by executor_new() in its
 * own cgroup (prover-0), fed the memfds of synthesized tasks, and restarted
 * after a short backoff when it dies, which fails the tasks it held with
 * EXECUTOR_FAILED_PROVER. Tasks synthesized while it is down wait, memfds
 * and all, for the next IPC_PROVER_READY.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup/cg-memory.h"
#include "cgroup/cg-tree.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "daemon/executor-internal.h"

#define PROVER_CGROUP "prover-0"
#define PROVER_RESTART_MIN_USEC (100 * 1000u)
#define PROVER_RESTART_MAX_SHIFT 6 /* 6.4 s */

static int prover_spawn(struct executor *e);

/* The proof payload of a successful IPC_RESULT, copied out of its memfd. */
struct proof_payload {
        uint8_t *proof;
        char *proof_json, *public_json;
};

static void proof_payload_free(struct proof_payload *p) {
        free(p->proof);
        free(p->proof_json);
        free(p->public_json);
}

static char *copy_text(const uint8_t *data, uint64_t bytes) {
        char *text = malloc(bytes + 1);

        if (text) {
                memcpy(text, data, bytes);
                text[bytes] = 0;
        }
        return text;
}

static int read_payload(const struct ipc_result *res, int fd, struct proof_payload *ret) {
        const uint64_t bytes = res->proof_bytes + res->proof_json_bytes + res->public_json_bytes;
        uint8_t *map;
        int r;

        if (bytes == 0 || bytes > (64u << 20))
                return log_error_errno(EBADMSG, "Task %" PRIu64 ": proof of %" PRIu64 " bytes",
                                       res->status.task_id, bytes);
        r = ipc_memfd_check(fd, bytes, "the prover's proof");
        if (r < 0)
                return r;
        map = mmap(NULL, bytes, PROT_READ, MAP_SHARED, fd, 0);
        if (map == MAP_FAILED)
                return log_error_errno(errno, "Mapping the prover's proof failed: %m");
        if (res->proof_bytes) {
                ret->proof = malloc(res->proof_bytes);
                if (ret->proof)
                        memcpy(ret->proof, map, res->proof_bytes);
        } else {
                ret->proof_json = copy_text(map, res->proof_json_bytes);
                ret->public_json = copy_text(map + res->proof_json_bytes, res->public_json_bytes);
        }
        (void)munmap(map, bytes);
        if (!ret->proof && !(ret->proof_json && ret->public_json))
                return log_error_errno(ENOMEM, "Out of memory for a proof");
        return 0;
}

static void on_result(struct executor *e, const struct ipc_result *res, int fd) {
        _cleanup_(proof_payload_free) struct proof_payload payload = {0};
        struct task *t = executor_task_find(e, res->status.task_id);
        struct executor_result result;
        int r;

        if (!t || t->state != TASK_AT_PROVER) {
                log_warning("The prover answered task %" PRIu64 ", which it does not hold",
                            res->status.task_id);
                return;
        }
        e->srs_bytes = res->srs_bytes ? res->srs_bytes : e->srs_bytes;
        if (res->status.failure != EXECUTOR_OK) {
                executor_result_init(&result, (enum executor_failure)res->status.failure,
                                     res->status.error, "%.*s", (int)sizeof(res->status.message),
                                     res->status.message);
        } else {
                r = read_payload(res, fd, &payload);
                if (r < 0)
                        executor_result_init(&result, EXECUTOR_FAILED_PROVER, r,
                                             "the prover's proof for partition %u was unreadable",
                                             t->spec.partition);
                else {
                        executor_result_init(&result, EXECUTOR_OK, 0, NULL);
                        result.proof = payload.proof;
                        result.proof_size = payload.proof ? res->proof_bytes : 0;
                        result.proof_json = payload.proof_json;
                        result.public_json = payload.public_json;
                        e->prover_deaths_in_row = 0;
                }
        }
        result.srs_load_usec = res->srs_load_usec;
        result.gpu_stage_usec = res->gpu_stage_usec;
        result.g2_tail_usec = res->g2_tail_usec;
        /* The prover's keys are protected from reclaim where the kernel allows it. */
        if (e->prover_cg_fd >= 0 && e->options.domain->enforcement == CG_ENFORCEMENT_V2)
                (void)cg_memory_set_min(e->prover_cg_fd, e->srs_bytes);
        executor_task_finish(t, &result);
}

static void on_abc_released(struct executor *e, uint64_t task_id) {
        struct task *t = executor_task_find(e, task_id);

        if (!t || t->state != TASK_AT_PROVER || t->abc_released)
                return;
        t->abc_released = true;
        e->callbacks.abc_released(e->userdata, task_id);
}

static void relay_waiting(struct executor *e) {
        /* Relaying does not finish tasks, so the list stays as it is. */
        for (struct task *t = e->tasks; t; t = t->next)
                if (t->state == TASK_WAITING && !t->canceled)
                        executor_prover_relay(e, t);
}

static void read_prover_messages(struct executor *e) {
        while (e->prover_sock >= 0) {
                struct ipc_message m;
                int fds[IPC_MAX_FDS];
                size_t n_fds;
                int r;

                r = ipc_recv(e->prover_sock, &m, fds, &n_fds);
                if (r == -EAGAIN)
                        return;
                if (r <= 0) {
                        sd_event_source_set_enabled(e->prover_io_source, SD_EVENT_OFF);
                        return;
                }
                switch (m.type) {
                case IPC_PROVER_READY:
                        m.prover_ready.backend[sizeof(m.prover_ready.backend) - 1] = 0;
                        snprintf(e->backend, sizeof(e->backend), "%s", m.prover_ready.backend);
                        e->prover_ready = true;
                        log_info("Prover %d ready (backend %s)", (int)e->prover_pid, e->backend);
                        relay_waiting(e);
                        break;
                case IPC_ABC_RELEASED:
                        on_abc_released(e, m.task_id.task_id);
                        break;
                case IPC_RESULT:
                        on_result(e, &m.result, n_fds ? fds[0] : -EBADF);
                        break;
                default:
                        log_warning("The prover sent unexpected message type %" PRIu32, m.type);
                }
                for (size_t i = 0; i < n_fds; i++)
                        close(fds[i]);
        }
}

static int on_prover_io(sd_event_source *s, int fd, uint32_t revents, void *userdata) {
        (void)s;
        (void)fd;
        (void)revents;
        read_prover_messages(userdata);
        return 0;
}

static void prover_forget_process(struct executor *e) {
        e->prover_exit_source = sd_event_source_disable_unref(e->prover_exit_source);
        e->prover_io_source = sd_event_source_disable_unref(e->prover_io_source);
        if (e->prover_pidfd >= 0)
                close(e->prover_pidfd);
        if (e->prover_sock >= 0)
                close(e->prover_sock);
        e->prover_pidfd = e->prover_sock = -EBADF;
        e->prover_pid = 0;
        e->prover_ready = false;
}

static int on_restart(sd_event_source *s, uint64_t usec, void *userdata) {
        struct executor *e = userdata;
        int r;

        (void)s;
        (void)usec;
        e->prover_restart_source = sd_event_source_disable_unref(e->prover_restart_source);
        e->prover_restarts++;
        r = prover_spawn(e);
        if (r < 0) {
                uint64_t delay = PROVER_RESTART_MIN_USEC << PROVER_RESTART_MAX_SHIFT;

                log_error_errno(r, "Restarting the prover failed (%m); next try in %.1f s",
                                (double)delay / 1e6);
                (void)sd_event_add_time_relative(e->event, &e->prover_restart_source,
                                                 CLOCK_MONOTONIC, delay, 0, on_restart, e);
        }
        return 0;
}

/* Fails what the dead prover held and schedules its successor. */
static void on_prover_exit(struct executor *e, const siginfo_t *si) {
        const unsigned shift = e->prover_deaths_in_row < PROVER_RESTART_MAX_SHIFT
                                       ? e->prover_deaths_in_row
                                       : PROVER_RESTART_MAX_SHIFT;
        const uint64_t delay = PROVER_RESTART_MIN_USEC << shift;
        const int pid = (int)e->prover_pid;
        char how[64];
        struct task *t;

        read_prover_messages(e);
        prover_forget_process(e);
        if (si->si_code == CLD_EXITED)
                snprintf(how, sizeof(how), "exited with status %d", si->si_status);
        else
                snprintf(how, sizeof(how), "killed by signal %d (%s)", si->si_status,
                         strsignal(si->si_status));
        log_error("The prover (pid %d) %s; restarting it in %.1f s", pid, how, (double)delay / 1e6);

        /* Each finish unlinks a task (and may submit others): look again from the start. */
        while ((t = e->tasks)) {
                struct executor_result result;

                while (t && t->state != TASK_AT_PROVER)
                        t = t->next;
                if (!t)
                        break;
                executor_result_init(&result, EXECUTOR_FAILED_PROVER, -ECHILD,
                                     "the prover (pid %d) %s while proving partition %u", pid, how,
                                     t->spec.partition);
                executor_task_finish(t, &result);
        }
        e->prover_deaths_in_row++;
        if (sd_event_add_time_relative(e->event, &e->prover_restart_source, CLOCK_MONOTONIC, delay,
                                       0, on_restart, e) < 0)
                log_error("Cannot schedule the prover's restart: no prover from now on");
}

static int on_prover_pidfd(sd_event_source *s, int fd, uint32_t revents, void *userdata) {
        struct executor *e = userdata;
        siginfo_t si = {0};

        (void)s;
        (void)fd;
        (void)revents;
        if (waitid(P_PID, (id_t)e->prover_pid, &si, WEXITED | WNOHANG) < 0) {
                /* Reaped by someone else (a SIGCHLD handler): the exit status is lost. */
                if (errno != ECHILD) {
                        log_error_errno(errno, "waitid for pid %d: %m", (int)e->prover_pid);
                        return 0;
                }
                si.si_code = CLD_KILLED;
                si.si_status = SIGKILL;
        } else if (si.si_pid == 0)
                return 0; /* not exited after all */
        on_prover_exit(e, &si);
        return 0;
}

static int on_prover_child(sd_event_source *s, const siginfo_t *si, void *userdata) {
        (void)s;
        on_prover_exit(userdata, si);
        return 0;
}

static int prover_spawn(struct executor *e) {
        _cleanup_close_ int parent_end = -EBADF, child_end = -EBADF;
        char fd_text[16], threads_text[16];
        char *argv[] = {e->helper_path,
                        (char *)"--prover",
                        fd_text,
                        threads_text,
                        (char *)(e->options.use_gpu ? "1" : "0"),
                        NULL};
        cg_spawn_params_t params = {
                .path = e->helper_path,
                .argv = argv,
                .cgroup_dirfd = e->prover_cg_fd,
                .cgroup_is_v2 = e->options.domain->enforcement == CG_ENFORCEMENT_V2,
                .oom_score_adj = CG_OOM_SCORE_ADJ_INHERIT,
                .parent_death_signal = SIGKILL,
        };
        cg_spawned_t child;
        int sv[2], r;

        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
                return log_error_errno(errno, "socketpair for the prover: %m");
        parent_end = sv[0];
        child_end = sv[1];
        /* Inherited across exec (see spawn_worker). */
        if (fcntl(child_end, F_SETFD, 0) < 0 || fcntl(parent_end, F_SETFL, O_NONBLOCK) < 0)
                return log_error_errno(errno, "Preparing the prover's socket: %m");
        snprintf(fd_text, sizeof(fd_text), "%d", child_end);
        snprintf(threads_text, sizeof(threads_text), "%u", e->options.prover_threads);
        r = cg_spawn(&params, &child);
        if (r < 0)
                return r;
        e->prover_pid = child.pid;
        e->prover_pidfd = child.pidfd;
        e->prover_sock = TAKE_FD(parent_end);

        r = sd_event_add_io(e->event, &e->prover_io_source, e->prover_sock, EPOLLIN, on_prover_io,
                            e);
        if (r >= 0)
                r = e->prover_pidfd >= 0
                            ? sd_event_add_io(e->event, &e->prover_exit_source, e->prover_pidfd,
                                              EPOLLIN, on_prover_pidfd, e)
                            : sd_event_add_child(e->event, &e->prover_exit_source, e->prover_pid,
                                                 WEXITED, on_prover_child, e);
        if (r < 0) {
                log_error_errno(r, "Watching the prover (pid %d) failed: %m", (int)e->prover_pid);
                (void)kill(e->prover_pid, SIGKILL);
                while (waitpid(e->prover_pid, NULL, 0) < 0 && errno == EINTR)
                        ;
                prover_forget_process(e);
                return r;
        }
        log_info("Prover started (pid %d, helper %s)", (int)e->prover_pid, e->helper_path);
        return 0;
}

int executor_prover_start(struct executor *e) {
        const cg_domain_t *domain;
        int r;

        assert(e);
        domain = e->options.domain;
        if (domain->enforcement != CG_ENFORCEMENT_RLIMIT_DATA) {
                r = cg_child_create(domain->own_dirfd, PROVER_CGROUP, &e->prover_cg_fd);
                if (r < 0)
                        return r;
        }
        return prover_spawn(e);
}

void executor_prover_stop(struct executor *e) {
        assert(e);

        e->prover_restart_source = sd_event_source_disable_unref(e->prover_restart_source);
        if (e->prover_pid > 0) {
                (void)kill(e->prover_pid, SIGKILL);
                while (waitpid(e->prover_pid, NULL, 0) < 0 && errno == EINTR)
                        ;
        }
        prover_forget_process(e);
        if (e->prover_cg_fd >= 0) {
                close(e->prover_cg_fd);
                e->prover_cg_fd = -EBADF;
                (void)cg_child_remove(e->options.domain->own_dirfd, PROVER_CGROUP);
        }
}

void executor_prover_relay(struct executor *e, struct task *t) {
        struct ipc_prove prove;
        int r;

        assert(e);
        assert(t && t->state == TASK_WAITING);

        prove = (struct ipc_prove){.synth = t->synth};
        if (!e->prover_ready || e->prover_sock < 0) {
                /* IPC_PROVER_READY relays it. */
                log_info("Task %" PRIu64 " partition %u: synthesized, waiting for the prover",
                         t->spec.task_id, t->spec.partition);
                return;
        }
        r = executor_task_ipc(&t->spec, &prove.task);
        if (r >= 0)
                r = ipc_send(e->prover_sock, IPC_PROVE, &prove, sizeof(prove),
                             (int[]){t->abc_fd, t->w_fd}, 2);
        if (r == -EAGAIN) {
                /* The prover reads every message at once: a full socket means it hangs. */
                log_error("The prover (pid %d) does not read its messages; killing it",
                          (int)e->prover_pid);
                (void)kill(e->prover_pid, SIGKILL);
                return;
        }
        if (r < 0)
                return; /* the prover is going away: its successor gets the task */
        /* Ours go: the prover's copies are the last, so its close frees the pages. */
        close(TAKE_FD(t->abc_fd));
        close(TAKE_FD(t->w_fd));
        t->state = TASK_AT_PROVER;
}

int executor_prover_cancel(struct executor *e, struct task *t) {
        struct ipc_task_id cancel = {.task_id = t->spec.task_id};
        int r;

        assert(e);
        assert(t);

        r = ipc_send(e->prover_sock, IPC_CANCEL, &cancel, sizeof(cancel), NULL, 0);
        /* A prover that cannot hear it is dying: its exit finishes the task. */
        if (r < 0 && r != -EAGAIN && r != -EPIPE && r != -ECONNRESET)
                return r;
        return 0;
}
