/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The synthesis workers, supervisor side: the reused worker cgroups
 * synth/w0 .. synth/w(max-1), one worker process per task started into its
 * cgroup with the task's limits, its messages (the memfds, or a failure),
 * its exit (pidfd), and its cgroup's memory events: an OOM kill there fails
 * only that task, with oom_killed set.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup/cg-files.h"
#include "cgroup/cg-tree.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "daemon/executor/executor-internal.h"

/* Workers are the first processes the kernel should kill (the supervisor
 * and the prover run at their unit's -900). */
#define WORKER_OOM_SCORE_ADJ 800

static bool has_cgroups(const struct executor *e) {
        return e->options.domain->enforcement != CG_ENFORCEMENT_RLIMIT_DATA;
}

bool executor_slot_busy(const struct worker_slot *slot) {
        assert(slot);
        return slot->task || slot->pid > 0;
}

static int on_memory_events(sd_event_source *s, int fd, uint32_t revents, void *userdata) {
        struct worker_slot *slot = userdata;
        cg_memory_events_t delta;
        int r;

        (void)s;
        (void)fd;
        (void)revents;
        r = cg_events_watch_update(&slot->watch, &delta);
        if (r < 0) {
                /* The cgroup went away under us: stop watching, the exit still tells. */
                log_warning_errno(r, "Worker cgroup w%u: memory events unreadable: %m",
                                  slot->index);
                sd_event_source_set_enabled(slot->events_source, SD_EVENT_OFF);
                return 0;
        }
        if (r > 0 && delta.oom_kill > 0) {
                log_warning("Worker cgroup w%u: OOM kill (task %" PRIu64 ")", slot->index,
                            slot->task ? slot->task->spec.task_id : 0);
                if (slot->task)
                        slot->task->oom_killed = true;
        }
        return 0;
}

static int slot_open(struct executor *e, struct worker_slot *slot, unsigned index) {
        char name[32];
        uint32_t events;
        int r;

        *slot = (struct worker_slot){
                .executor = e,
                .index = index,
                .cg_fd = -EBADF,
                .pidfd = -EBADF,
                .sock = -EBADF,
        };
        if (!has_cgroups(e))
                return 0;
        snprintf(name, sizeof(name), "w%u", index);
        r = cg_child_create(e->synth_fd, name, &slot->cg_fd);
        if (r < 0)
                return r;
        r = cg_events_watch_open(slot->cg_fd, cg_domain_events_source(e->options.domain),
                                 &slot->watch);
        if (r < 0)
                return r;
        slot->watching = true;
        events = cg_events_watch_poll_events(&slot->watch) == POLLPRI ? EPOLLPRI : EPOLLIN;
        r = sd_event_add_io(e->event, &slot->events_source, slot->watch.fd, events,
                            on_memory_events, slot);
        if (r < 0)
                return log_error_errno(r, "Watching worker cgroup w%u's memory events: %m", index);
        return 0;
}

int executor_slots_open(struct executor *e) {
        const cg_domain_t *domain;
        int r;

        assert(e);
        domain = e->options.domain;

        e->slots = calloc(e->options.max_workers, sizeof(*e->slots));
        if (!e->slots)
                return log_error_errno(ENOMEM, "Out of memory for %u worker slots",
                                       e->options.max_workers);
        for (unsigned i = 0; i < e->options.max_workers; i++)
                e->slots[i] =
                        (struct worker_slot){.cg_fd = -EBADF, .pidfd = -EBADF, .sock = -EBADF};
        if (has_cgroups(e)) {
                if (domain->enforcement == CG_ENFORCEMENT_V2) {
                        /* Our own cgroup must already be free of processes (the supervisor
                         * lives in supervisor/) for this to work. */
                        r = cg_enable_controllers(domain->own_dirfd, CG_CONTROLLER_MEMORY);
                        if (r >= 0 && !(r & CG_CONTROLLER_MEMORY))
                                r = log_error_errno(EOPNOTSUPP,
                                                    "%s does not offer the memory controller",
                                                    domain->own_path);
                        if (r < 0)
                                return r;
                }
                r = cg_child_create(domain->own_dirfd, "synth", &e->synth_fd);
                if (r < 0)
                        return r;
                if (domain->enforcement == CG_ENFORCEMENT_V2) {
                        r = cg_enable_controllers(e->synth_fd, CG_CONTROLLER_MEMORY);
                        if (r < 0)
                                return r;
                }
        }
        for (unsigned i = 0; i < e->options.max_workers; i++) {
                r = slot_open(e, &e->slots[i], i);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* Forgets the process (after it was reaped, or when we give up on it). */
static void slot_forget_process(struct worker_slot *slot) {
        slot->exit_source = sd_event_source_disable_unref(slot->exit_source);
        slot->io_source = sd_event_source_disable_unref(slot->io_source);
        if (slot->pidfd >= 0)
                close(slot->pidfd);
        if (slot->sock >= 0)
                close(slot->sock);
        slot->pidfd = slot->sock = -EBADF;
        slot->pid = 0;
}

void executor_slots_close(struct executor *e) {
        assert(e);

        for (unsigned i = 0; e->slots && i < e->options.max_workers; i++) {
                struct worker_slot *slot = &e->slots[i];
                char name[32];

                if (slot->pid > 0) {
                        (void)kill(slot->pid, SIGKILL);
                        while (waitpid(slot->pid, NULL, 0) < 0 && errno == EINTR)
                                ;
                }
                slot_forget_process(slot);
                sd_event_source_disable_unref(slot->events_source);
                if (slot->watching)
                        cg_events_watch_close(&slot->watch);
                if (slot->cg_fd >= 0) {
                        /* What the worker left: a child of its own, or a sanitizer's
                         * leak-check tracer still attached to it when it was killed. */
                        (void)cg_kill_all(slot->cg_fd, 2000);
                        close(slot->cg_fd);
                        snprintf(name, sizeof(name), "w%u", i);
                        (void)cg_child_remove(e->synth_fd, name);
                }
        }
        free(e->slots);
        e->slots = NULL;
        if (e->synth_fd >= 0) {
                close(e->synth_fd);
                e->synth_fd = -EBADF;
                (void)cg_child_remove(e->options.domain->own_dirfd, "synth");
        }
}

void executor_worker_kill(struct worker_slot *slot) {
        assert(slot);
        if (slot->pid <= 0)
                return;
        if (slot->pidfd >= 0 && syscall(SYS_pidfd_send_signal, slot->pidfd, SIGKILL, NULL, 0) == 0)
                return;
        (void)kill(slot->pid, SIGKILL);
}

/* The worker cgroup's peak so far; never lowers what was read before. */
static void slot_read_peak(struct worker_slot *slot) {
        cg_worker_usage_t usage;

        if (slot->cg_fd >= 0 &&
            cg_domain_read_usage(slot->executor->options.domain, slot->cg_fd, &usage) >= 0 &&
            usage.peak_bytes > slot->peak_bytes)
                slot->peak_bytes = usage.peak_bytes;
}

/* The worker's memfds: the task moves on to the prover. */
static void on_synth_done(struct worker_slot *slot, const struct ipc_synth_done *done,
                          int fds[IPC_MAX_FDS]) {
        struct task *t = slot->task;

        if (!t || t->state != TASK_SYNTHESIZING || t->spec.task_id != done->task_id ||
            t->canceled || done->witness_form != t->spec.witness_form) {
                if (!t || t->spec.task_id != done->task_id)
                        log_warning("Worker w%u sent evaluations for task %" PRIu64
                                    ", which it does not run",
                                    slot->index, done->task_id);
                else if (done->witness_form != t->spec.witness_form)
                        log_warning("Worker w%u sent task %" PRIu64 " in witness form %" PRIu32
                                    ", asked for %" PRIu32 ": dropped",
                                    slot->index, done->task_id, done->witness_form,
                                    t->spec.witness_form);
                close(fds[0]);
                if (fds[1] >= 0)
                        close(fds[1]);
                return;
        }
        /* The worker holds everything it filled now; its exit may come after the proof. */
        slot_read_peak(slot);
        if (done->witness_form == IPC_WITNESS_COMPACT)
                log_info("Task %" PRIu64 " partition %u: compact witness of %.1f MB in %.2f s "
                         "(worker peak %.1f MB)",
                         done->task_id, t->spec.partition, (double)done->compact_bytes / 1e6,
                         (double)done->synthesis_usec / 1e6, (double)slot->peak_bytes / 1e6);
        t->synth = *done;
        t->abc_fd = fds[0];
        t->w_fd = fds[1];
        t->state = TASK_WAITING;
        executor_prover_relay(slot->executor, t);
}

static void read_worker_messages(struct worker_slot *slot) {
        for (;;) {
                struct ipc_message m;
                int fds[IPC_MAX_FDS];
                size_t n_fds;
                int r;

                r = ipc_recv(slot->sock, &m, fds, &n_fds);
                if (r == -EAGAIN)
                        return;
                executor_liveness_note(&slot->liveness);
                if (r <= 0) {
                        /* End of file (or garbage): the exit decides the outcome. */
                        sd_event_source_set_enabled(slot->io_source, SD_EVENT_OFF);
                        return;
                }
                if (m.type == IPC_SYNTH_DONE)
                        on_synth_done(slot, &m.synth_done, fds);
                else if (m.type == IPC_FAILED && slot->task &&
                         slot->task->spec.task_id == m.failed.task_id) {
                        m.failed.message[sizeof(m.failed.message) - 1] = 0;
                        slot->task->failure = m.failed;
                        slot->task->worker_failed = true;
                } else {
                        for (size_t i = 0; i < n_fds; i++)
                                close(fds[i]);
                        log_warning("Worker w%u: unexpected message type %" PRIu32, slot->index,
                                    m.type);
                }
        }
}

static int on_worker_io(sd_event_source *s, int fd, uint32_t revents, void *userdata) {
        (void)s;
        (void)fd;
        (void)revents;
        read_worker_messages(userdata);
        return 0;
}

/* How a worker that sent no evaluations ended, for the user; before_task: it died before
 * it took its task. */
static void worker_failure(struct worker_slot *slot, struct task *t, const siginfo_t *si,
                           bool before_task, struct executor_result *result) {
        cg_worker_usage_t usage;
        const struct executor *e = slot->executor;
        char stall[96] = "";

        if (t->stalled)
                snprintf(stall, sizeof(stall),
                         ": it used no CPU time for %.0f s (WorkerStallTimeout=)",
                         (double)e->options.worker_stall_usec / 1e6);
        if (slot->cg_fd >= 0 && cg_domain_read_usage(e->options.domain, slot->cg_fd, &usage) >= 0 &&
            usage.events.oom_kill > slot->baseline.oom_kill)
                t->oom_killed = true;
        if (t->worker_failed) {
                executor_result_init(result, (enum executor_failure)t->failure.failure,
                                     t->failure.error, "%s", t->failure.message);
                return;
        }
        if (si->si_code == CLD_EXITED)
                executor_result_init(result, EXECUTOR_FAILED_WORKER, -EPROTO,
                                     "synthesis worker of partition %u exited with status %d %s",
                                     t->spec.partition, si->si_status,
                                     before_task ? "before it took its task" : "without a result");
        else
                executor_result_init(result, EXECUTOR_FAILED_WORKER, -ECHILD,
                                     "synthesis worker of partition %u killed by signal %d "
                                     "(%s)%s%s%s",
                                     t->spec.partition, si->si_status, strsignal(si->si_status),
                                     before_task ? " before it took its task" : "",
                                     t->oom_killed ? ": out of memory in its cgroup (limit "
                                                     "from the partition's reservation)"
                                                   : "",
                                     stall);
        result->oom_killed = t->oom_killed;
}

static void on_worker_exit(struct worker_slot *slot, const siginfo_t *si) {
        struct task *t = slot->task;
        struct executor_result result;

        /* Messages sent before the exit come first. */
        read_worker_messages(slot);
        slot_read_peak(slot);
        slot_forget_process(slot);
        if (!t || t->state != TASK_SYNTHESIZING) {
                /* Without a task the slot is free now; else its memfds are on their way and
                 * the slot frees when the task ends. */
                executor_slot_changed(slot);
                return;
        }
        worker_failure(slot, t, si, false, &result);
        executor_task_finish(t, &result);
}

static int on_worker_pidfd(sd_event_source *s, int fd, uint32_t revents, void *userdata) {
        struct worker_slot *slot = userdata;
        siginfo_t si = {0};

        (void)s;
        (void)fd;
        (void)revents;
        if (waitid(P_PID, (id_t)slot->pid, &si, WEXITED | WNOHANG) < 0) {
                /* Reaped by someone else (a SIGCHLD handler): the exit status is lost. */
                if (errno != ECHILD) {
                        log_error_errno(errno, "waitid for pid %d: %m", (int)slot->pid);
                        return 0;
                }
                si.si_code = CLD_KILLED;
                si.si_status = SIGKILL;
        } else if (si.si_pid == 0)
                return 0; /* not exited after all */
        on_worker_exit(slot, &si);
        return 0;
}

static int on_worker_child(sd_event_source *s, const siginfo_t *si, void *userdata) {
        (void)s;
        on_worker_exit(userdata, si);
        return 0;
}

/* The cgroup's limits from the reservation: max covers both phases and the slack, high a
 * sixteenth below so reclaim starts before the OOM killer would. */
static void worker_limits(const struct executor *e, const struct executor_task *spec,
                          cg_worker_limits_t *ret) {
        uint64_t max = spec->abc_bytes + spec->rest_bytes + e->options.worker_slack_bytes;

        ret->max_bytes = max;
        ret->high_bytes = max - max / 16;
}

static int prepare_cgroup(struct executor *e, struct worker_slot *slot,
                          const cg_worker_limits_t *limits) {
        const cg_domain_t *domain = e->options.domain;
        cg_worker_usage_t usage;
        int r;

        if (slot->cg_fd < 0)
                return 0;
        r = cg_domain_set_limits(domain, slot->cg_fd, limits);
        if (r < 0)
                return r;
        /* v1 keeps the peak until reset; v2's memory.peak is the cgroup's lifetime peak. */
        if (domain->enforcement == CG_ENFORCEMENT_V1_MEMORY)
                (void)cg_write_u64(slot->cg_fd, "memory.max_usage_in_bytes", 0);
        r = cg_domain_read_usage(domain, slot->cg_fd, &usage);
        if (r < 0)
                return r;
        /* The previous worker's events belong to its task, which worker_failure read them
         * for: a wakeup still pending for them (seen on the H200 host's cgroup v2, after an
         * OOM kill) must not mark this one. */
        if (slot->watching) {
                cg_memory_events_t stale;
                (void)cg_events_watch_update(&slot->watch, &stale);
        }
        slot->baseline = usage.events;
        slot->peak_bytes = 0;
        return 0;
}

static int spawn_worker(struct executor *e, struct worker_slot *slot,
                        const cg_worker_limits_t *limits) {
        _cleanup_close_ int parent_end = -EBADF, child_end = -EBADF;
        char fd_text[16], nice_text[16];
        char *argv[] = {e->helper_path, (char *)"--worker", fd_text, nice_text, NULL};
        cg_spawn_params_t params = {
                .path = e->helper_path,
                .argv = argv,
                .oom_score_adj = WORKER_OOM_SCORE_ADJ,
                .parent_death_signal = SIGKILL,
        };
        cg_spawned_t child;
        int sv[2], r;

        /* The child's end is inherited across exec: no CLOEXEC on it (the supervisor's
         * loop is single-threaded, so no other fork can catch it in between). */
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
                return log_error_errno(errno, "socketpair for worker w%u: %m", slot->index);
        parent_end = sv[0];
        child_end = sv[1];
        if (fcntl(child_end, F_SETFD, 0) < 0)
                return log_error_errno(errno, "Clearing FD_CLOEXEC for worker w%u: %m",
                                       slot->index);
        snprintf(fd_text, sizeof(fd_text), "%d", child_end);
        snprintf(nice_text, sizeof(nice_text), "%u", e->options.worker_nice);
        cg_domain_spawn_params(e->options.domain, slot->cg_fd, limits, &params);
        r = cg_spawn(&params, &child);
        if (r < 0)
                return r;
        slot->pid = child.pid;
        slot->pidfd = child.pidfd;
        slot->sock = TAKE_FD(parent_end);
        return 0;
}

static int on_worker_lost(sd_event_source *s, void *userdata) {
        struct task *t = userdata;
        struct executor_result result;

        (void)s;
        worker_failure(t->slot, t, &t->lost_exit, true, &result);
        executor_task_finish(t, &result);
        return 0;
}

/* The worker died before it took its task (its socket was closed when the task was sent):
 * a worker failure like a death a moment later, so `finished` follows from the loop. The
 * slot stays the task's until then. wait_status: from waitpid(). */
static int worker_lost(struct executor *e, struct task *t, int wait_status) {
        t->lost_exit = (siginfo_t){0};
        if (WIFEXITED(wait_status)) {
                t->lost_exit.si_code = CLD_EXITED;
                t->lost_exit.si_status = WEXITSTATUS(wait_status);
        } else {
                t->lost_exit.si_code = CLD_KILLED;
                t->lost_exit.si_status = WIFSIGNALED(wait_status) ? WTERMSIG(wait_status) : SIGKILL;
        }
        return sd_event_add_defer(e->event, &t->defer, on_worker_lost, t);
}

int executor_worker_start(struct executor *e, struct worker_slot *slot, struct task *t) {
        cg_worker_limits_t limits;
        struct ipc_task task;
        int r;

        assert(e);
        assert(slot && !executor_slot_busy(slot));
        assert(t);

        r = executor_task_ipc(&t->spec, &task);
        if (r < 0)
                return r;
        task.witness_form = t->spec.witness_form;
        worker_limits(e, &t->spec, &limits);
        r = prepare_cgroup(e, slot, &limits);
        if (r < 0)
                return r;
        r = spawn_worker(e, slot, &limits);
        if (r < 0)
                return r;
        slot->task = t;
        slot->last_task_id = t->spec.task_id;
        slot->last_partition = t->spec.partition;
        t->slot = slot;
        t->state = TASK_SYNTHESIZING;

        /* A fresh socket: the task fits its buffer, so this does not block. */
        r = ipc_send(slot->sock, IPC_TASK, &task, sizeof(task), NULL, 0);
        if (r >= 0 && fcntl(slot->sock, F_SETFL, O_NONBLOCK) < 0)
                r = log_error_errno(errno, "Worker w%u: O_NONBLOCK: %m", slot->index);
        if (r >= 0)
                r = sd_event_add_io(e->event, &slot->io_source, slot->sock, EPOLLIN, on_worker_io,
                                    slot);
        if (r >= 0)
                r = slot->pidfd >= 0 ? sd_event_add_io(e->event, &slot->exit_source, slot->pidfd,
                                                       EPOLLIN, on_worker_pidfd, slot)
                                     : sd_event_add_child(e->event, &slot->exit_source, slot->pid,
                                                          WEXITED, on_worker_child, slot);
        if (r < 0) {
                bool lost = r == -EPIPE || r == -ECONNRESET;
                int wait_status = W_EXITCODE(0, SIGKILL);

                log_full_errno(lost ? LOG_WARNING : LOG_ERR, r,
                               "Worker w%u for task %" PRIu64 " could not be started: %m",
                               slot->index, t->spec.task_id);
                (void)kill(slot->pid, SIGKILL);
                while (waitpid(slot->pid, &wait_status, 0) < 0 && errno == EINTR)
                        ;
                slot_forget_process(slot);
                if (lost && worker_lost(e, t, wait_status) >= 0)
                        return 0;
                slot->task = NULL;
                t->slot = NULL;
                return r;
        }
        log_debug("Task %" PRIu64 " partition %u: worker %d in w%u (max %" PRIu64 " bytes)",
                  t->spec.task_id, t->spec.partition, (int)slot->pid, slot->index,
                  limits.max_bytes);
        return 0;
}
