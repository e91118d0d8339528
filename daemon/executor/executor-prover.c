/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The prover processes' life cycle, supervisor side: one per configured
 * device, each started by executor_new() in its own cgroup (prover-N), its
 * messages read and dispatched (results and a/b/c releases: executor-relay.c;
 * keys loaded: executor-preload.c), and restarted after a backoff when it
 * dies, which fails the tasks it held with EXECUTOR_FAILED_PROVER (the
 * scheduler runs them again). A prover whose GPU cannot be opened, or that
 * dies EXECUTOR_PROVER_MAX_DEATHS times in a row without a proof, is out of
 * service: not restarted, given nothing.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
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
#include "daemon/executor/executor-internal.h"

#define PROVER_RESTART_MIN_USEC (100 * 1000u)
#define PROVER_RESTART_MAX_SHIFT 6 /* 6.4 s */

static int prover_spawn(struct prover_slot *p);

/* "GPU 1 (prover-1)" or "the CPU prover (prover-0)", for log lines. */
const char *executor_prover_label(const struct prover_slot *p, char *buf, size_t size) {
        if (p->device >= 0)
                snprintf(buf, size, "GPU %d (prover-%u)", p->device, p->index);
        else
                snprintf(buf, size, "the prover (prover-%u)", p->index);
        return buf;
}

/* The prover reads every message at once: a socket full to it means it hangs. */
void executor_prover_kill_hung(struct prover_slot *p) {
        char label[64];

        log_error("%s (pid %d) does not read its messages; killing it",
                  executor_prover_label(p, label, sizeof(label)), (int)p->pid);
        (void)kill(p->pid, SIGKILL);
}

static void on_ready(struct prover_slot *p, struct ipc_prover_ready *ready) {
        char label[64];

        ready->backend[sizeof(ready->backend) - 1] = 0;
        ready->device_name[sizeof(ready->device_name) - 1] = 0;
        snprintf(p->backend, sizeof(p->backend), "%s", ready->backend);
        snprintf(p->device_name, sizeof(p->device_name), "%s", ready->device_name);
        p->ordinal = ready->ordinal;
        p->memory_total_bytes = ready->memory_total_bytes;
        p->memory_free_bytes = ready->memory_free_bytes;
        p->ready = true;
        executor_prover_idle_note(p);
        log_info("Prover %d ready: %s, backend %s on %s", (int)p->pid,
                 executor_prover_label(p, label, sizeof(label)), p->backend, p->device_name);
        executor_relay_waiting(p->executor);
        executor_send_preloads(p);
        executor_preload_progress(p->executor);
}

/* A stage begins: kept for the liveness check's message, and in the debug log. */
static void on_progress(struct prover_slot *p, struct ipc_progress *progress) {
        char label[64];

        progress->stage[sizeof(progress->stage) - 1] = 0;
        snprintf(p->stage, sizeof(p->stage), "%s", progress->stage);
        log_debug("%s: task %" PRIu64 ": %s", executor_prover_label(p, label, sizeof(label)),
                  progress->task_id, p->stage);
}

static void read_prover_messages(struct prover_slot *p) {
        while (p->sock >= 0) {
                struct ipc_message m;
                int fds[IPC_MAX_FDS];
                size_t n_fds;
                int r;

                r = ipc_recv(p->sock, &m, fds, &n_fds);
                if (r == -EAGAIN)
                        return;
                if (r <= 0) {
                        sd_event_source_set_enabled(p->io_source, SD_EVENT_OFF);
                        return;
                }
                executor_liveness_note(&p->liveness);
                switch (m.type) {
                case IPC_PROVER_READY:
                        on_ready(p, &m.prover_ready);
                        break;
                case IPC_ABC_RELEASED:
                        executor_prover_abc_released(p, m.task_id.task_id);
                        break;
                case IPC_RESULT:
                        executor_prover_result(p, &m.result, n_fds ? fds[0] : -EBADF);
                        break;
                case IPC_KEY_LOADED:
                        executor_prover_key_loaded(p, &m.key_loaded);
                        break;
                case IPC_PROGRESS:
                        on_progress(p, &m.progress);
                        break;
                default:
                        log_warning("Prover %u sent unexpected message type %" PRIu32, p->index,
                                    m.type);
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

static void prover_forget_process(struct prover_slot *p) {
        p->exit_source = sd_event_source_disable_unref(p->exit_source);
        p->io_source = sd_event_source_disable_unref(p->io_source);
        if (p->pidfd >= 0)
                close(p->pidfd);
        if (p->sock >= 0)
                close(p->sock);
        p->pidfd = p->sock = -EBADF;
        p->pid = 0;
        p->ready = false;
        p->stage[0] = 0;
        p->preloads_sent = p->preloads_done = 0; /* the next process loads them again */
        p->evicts_in_flight = 0;
        executor_prover_idle_note(p);
}

static int on_restart(sd_event_source *s, uint64_t usec, void *userdata) {
        struct prover_slot *p = userdata;
        char label[64];
        int r;

        (void)s;
        (void)usec;
        p->restart_source = sd_event_source_disable_unref(p->restart_source);
        p->restarts++;
        r = prover_spawn(p);
        if (r < 0) {
                uint64_t delay = PROVER_RESTART_MIN_USEC << PROVER_RESTART_MAX_SHIFT;

                log_error_errno(r, "Restarting %s failed (%m); next try in %.1f s",
                                executor_prover_label(p, label, sizeof(label)),
                                (double)delay / 1e6);
                (void)sd_event_add_time_relative(p->executor->event, &p->restart_source,
                                                 CLOCK_MONOTONIC, delay, 0, on_restart, p);
        }
        return 0;
}

bool executor_provers_in_service(const struct executor *e) {
        for (unsigned i = 0; i < e->n_provers; i++)
                if (!e->provers[i].out_of_service)
                        return true;
        return false;
}

/* No restart, no tasks from now on; what waits for a prover goes to the others. */
static void take_out_of_service(struct prover_slot *p, const char *why) {
        struct executor *e = p->executor;
        char label[64];

        p->out_of_service = true;
        executor_prover_idle_note(p);
        log_full_errno(LOG_ERR, 0, "%s taken out of service: %s; %s",
                       executor_prover_label(p, label, sizeof(label)), why,
                       executor_provers_in_service(e) ? "its partitions go to the other provers"
                                                      : "no prover is left in service");
        /* each waiting task goes to a prover that takes it, or fails (deferred) */
        executor_relay_waiting(e);
        if (e->n_preloads)
                executor_preload_progress(e);
}

/* Fails what the dead prover held and schedules its successor, or takes it out of service. */
static void on_prover_exit(struct prover_slot *p, const siginfo_t *si) {
        struct executor *e = p->executor;
        const unsigned shift = p->deaths_in_row < PROVER_RESTART_MAX_SHIFT
                                       ? p->deaths_in_row
                                       : PROVER_RESTART_MAX_SHIFT;
        const uint64_t delay = PROVER_RESTART_MIN_USEC << shift;
        const int pid = (int)p->pid;
        const bool was_ready = p->ready;
        char how[128], label[64], why[256];
        struct task *t;

        read_prover_messages(p);
        prover_forget_process(p);
        if (si->si_code == CLD_EXITED)
                snprintf(how, sizeof(how), "exited with status %d", si->si_status);
        else
                snprintf(how, sizeof(how), "killed by signal %d (%s)%s", si->si_status,
                         strsignal(si->si_status),
                         p->stalled ? " for making no progress (ProverStallTimeout=)" : "");
        p->stalled = false;
        executor_prover_label(p, label, sizeof(label));
        /* Before its tasks finish: a retry may go to its successor, which loads afresh. */
        if (e->callbacks.prover_lost)
                e->callbacks.prover_lost(e->userdata, p->index);

        /* Each finish unlinks a task (and may submit others): look again from the start. */
        while ((t = e->tasks)) {
                struct executor_result result;

                while (t && !(t->state == TASK_AT_PROVER && t->prover == p))
                        t = t->next;
                if (!t)
                        break;
                p->failed++;
                executor_result_init(&result, EXECUTOR_FAILED_PROVER, -ECHILD,
                                     "%s, pid %d, %s while proving partition %u", label, pid, how,
                                     t->spec.partition);
                executor_task_finish(t, &result);
        }
        p->in_hand = 0;
        p->deaths_in_row++;
        if (e->n_preloads)
                executor_preload_progress(e);
        if (!was_ready && si->si_code == CLD_EXITED && si->si_status == IPC_PROVER_EXIT_NO_DEVICE) {
                snprintf(why, sizeof(why), "its prover (pid %d) could not open the device", pid);
                take_out_of_service(p, why);
                return;
        }
        if (p->deaths_in_row >= EXECUTOR_PROVER_MAX_DEATHS) {
                snprintf(why, sizeof(why), "its prover (pid %d) %s, %u deaths in a row", pid, how,
                         p->deaths_in_row);
                take_out_of_service(p, why);
                return;
        }
        log_error("%s: the prover (pid %d) %s; restarting it in %.1f s", label, pid, how,
                  (double)delay / 1e6);
        if (sd_event_add_time_relative(e->event, &p->restart_source, CLOCK_MONOTONIC, delay, 0,
                                       on_restart, p) < 0)
                take_out_of_service(p, "its restart cannot be scheduled");
}

static int on_prover_pidfd(sd_event_source *s, int fd, uint32_t revents, void *userdata) {
        struct prover_slot *p = userdata;
        siginfo_t si = {0};

        (void)s;
        (void)fd;
        (void)revents;
        if (waitid(P_PID, (id_t)p->pid, &si, WEXITED | WNOHANG) < 0) {
                /* Reaped by someone else (a SIGCHLD handler): the exit status is lost. */
                if (errno != ECHILD) {
                        log_error_errno(errno, "waitid for pid %d: %m", (int)p->pid);
                        return 0;
                }
                si.si_code = CLD_KILLED;
                si.si_status = SIGKILL;
        } else if (si.si_pid == 0)
                return 0; /* not exited after all */
        on_prover_exit(p, &si);
        return 0;
}

static int on_prover_child(sd_event_source *s, const siginfo_t *si, void *userdata) {
        (void)s;
        on_prover_exit(userdata, si);
        return 0;
}

static int prover_spawn(struct prover_slot *p) {
        struct executor *e = p->executor;
        _cleanup_close_ int parent_end = -EBADF, child_end = -EBADF;
        const struct gpu_tuning *tuning = e->options.gpu_tuning;
        char fd_text[16], threads_text[16], device_text[16], lanes_text[16], window_text[16];
        char *argv[] = {e->helper_path,
                        (char *)"--prover",
                        fd_text,
                        threads_text,
                        device_text,
                        lanes_text,
                        (char *)gpu_srs_residence_to_string(tuning->srs),
                        window_text,
                        NULL};
        cg_spawn_params_t params = {
                .path = e->helper_path,
                .argv = argv,
                .cgroup_dirfd = p->cg_fd,
                .cgroup_is_v2 = e->options.domain->enforcement == CG_ENFORCEMENT_V2,
                .oom_score_adj = CG_OOM_SCORE_ADJ_INHERIT,
                .parent_death_signal = SIGKILL,
        };
        cg_spawned_t child;
        int sv[2], r;

        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
                return log_error_errno(errno, "socketpair for prover %u: %m", p->index);
        parent_end = sv[0];
        child_end = sv[1];
        /* Inherited across exec (see spawn_worker). */
        if (fcntl(child_end, F_SETFD, 0) < 0 || fcntl(parent_end, F_SETFL, O_NONBLOCK) < 0)
                return log_error_errno(errno, "Preparing prover %u's socket: %m", p->index);
        snprintf(fd_text, sizeof(fd_text), "%d", child_end);
        snprintf(threads_text, sizeof(threads_text), "%u", e->options.prover_threads);
        snprintf(lanes_text, sizeof(lanes_text), "%u", tuning->lanes);
        snprintf(window_text, sizeof(window_text), "%u", tuning->msm_window_bits);
        if (p->device == EXECUTOR_DEVICE_CPU)
                snprintf(device_text, sizeof(device_text), "cpu");
        else if (p->device == EXECUTOR_DEVICE_AUTO)
                snprintf(device_text, sizeof(device_text), "auto");
        else
                snprintf(device_text, sizeof(device_text), "%d", p->device);
        r = cg_spawn(&params, &child);
        if (r < 0)
                return r;
        p->pid = child.pid;
        p->pidfd = child.pidfd;
        p->sock = TAKE_FD(parent_end);

        r = sd_event_add_io(e->event, &p->io_source, p->sock, EPOLLIN, on_prover_io, p);
        if (r >= 0)
                r = p->pidfd >= 0 ? sd_event_add_io(e->event, &p->exit_source, p->pidfd, EPOLLIN,
                                                    on_prover_pidfd, p)
                                  : sd_event_add_child(e->event, &p->exit_source, p->pid, WEXITED,
                                                       on_prover_child, p);
        if (r < 0) {
                log_error_errno(r, "Watching prover %u (pid %d) failed: %m", p->index, (int)p->pid);
                (void)kill(p->pid, SIGKILL);
                while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
                        ;
                prover_forget_process(p);
                return r;
        }
        log_info("Prover %u started (pid %d, device %s, helper %s)", p->index, (int)p->pid,
                 device_text, e->helper_path);
        return 0;
}

static int prover_open(struct executor *e, struct prover_slot *p, unsigned index, int device) {
        const cg_domain_t *domain = e->options.domain;
        char name[32];
        int r;

        *p = (struct prover_slot){
                .executor = e,
                .index = index,
                .device = device,
                .cg_fd = -EBADF,
                .pidfd = -EBADF,
                .sock = -EBADF,
                .ordinal = -1,
                .backend = "none",
        };
        if (domain->enforcement != CG_ENFORCEMENT_RLIMIT_DATA) {
                snprintf(name, sizeof(name), "prover-%u", index);
                r = cg_child_create(domain->own_dirfd, name, &p->cg_fd);
                if (r < 0)
                        return r;
                p->cg_created = true;
        }
        return prover_spawn(p);
}

int executor_provers_start(struct executor *e) {
        unsigned n = e->options.n_devices ? e->options.n_devices : 1;
        int r, started = 0, first_error = 0;

        assert(e);
        assert(n <= EXECUTOR_MAX_PROVERS);
        e->provers = calloc(n, sizeof(*e->provers));
        if (!e->provers)
                return log_error_errno(ENOMEM, "Out of memory for %u provers", n);
        e->n_provers = n;
        for (unsigned i = 0; i < n; i++) {
                int device = e->options.n_devices ? e->options.devices[i]
                             : e->options.use_gpu ? EXECUTOR_DEVICE_AUTO
                                                  : EXECUTOR_DEVICE_CPU;

                r = prover_open(e, &e->provers[i], i, device);
                if (r >= 0) {
                        started++;
                        continue;
                }
                if (!first_error)
                        first_error = r;
                e->provers[i].out_of_service = true;
                log_error_errno(r, "Prover %u cannot be started (%m): out of service", i);
        }
        return started > 0 ? 0 : first_error;
}

static void prover_stop(struct prover_slot *p) {
        char name[32];

        p->restart_source = sd_event_source_disable_unref(p->restart_source);
        if (p->pid > 0) {
                (void)kill(p->pid, SIGKILL);
                while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
                        ;
        }
        prover_forget_process(p);
        if (p->cg_fd >= 0) {
                close(p->cg_fd);
                p->cg_fd = -EBADF;
        }
        if (p->cg_created) {
                snprintf(name, sizeof(name), "prover-%u", p->index);
                (void)cg_child_remove(p->executor->options.domain->own_dirfd, name);
                p->cg_created = false;
        }
}

void executor_provers_stop(struct executor *e) {
        assert(e);
        for (unsigned i = 0; i < e->n_provers; i++)
                prover_stop(&e->provers[i]);
        free(e->provers);
        e->provers = NULL;
        e->n_provers = 0;
        executor_preloads_free(e);
}
