/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The prover processes, supervisor side: one per configured device, each
 * started by executor_new() in its own cgroup (prover-N), fed the memfds of
 * synthesized tasks (the ready one with the fewest in hand gets the next),
 * and restarted after a backoff when it dies, which fails the tasks it held
 * with EXECUTOR_FAILED_PROVER (the scheduler runs them again). Tasks
 * synthesized while no prover is ready wait, memfds and all, for the next
 * IPC_PROVER_READY. A prover whose GPU cannot be opened, or that dies
 * EXECUTOR_PROVER_MAX_DEATHS times in a row without a proof, is out of
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
#include "daemon/executor-internal.h"

#define PROVER_RESTART_MIN_USEC (100 * 1000u)
#define PROVER_RESTART_MAX_SHIFT 6 /* 6.4 s */

static int prover_spawn(struct prover_slot *p);

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
        r = ipc_memfd_check(fd, bytes, "the prover's proof", false);
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

/* "GPU 1 (prover-1)" or "the CPU prover (prover-0)", for log lines. */
static const char *prover_label(const struct prover_slot *p, char *buf, size_t size) {
        if (p->device >= 0)
                snprintf(buf, size, "GPU %d (prover-%u)", p->device, p->index);
        else
                snprintf(buf, size, "the prover (prover-%u)", p->index);
        return buf;
}

static void relay_waiting(struct executor *e);

/* The prover reads every message at once: a socket full to it means it hangs. */
static void kill_hung(struct prover_slot *p) {
        char label[64];

        log_error("%s (pid %d) does not read its messages; killing it",
                  prover_label(p, label, sizeof(label)), (int)p->pid);
        (void)kill(p->pid, SIGKILL);
}

static void on_result(struct prover_slot *p, const struct ipc_result *res, int fd) {
        _cleanup_(proof_payload_free) struct proof_payload payload = {0};
        struct executor *e = p->executor;
        struct task *t = executor_task_find(e, res->status.task_id);
        struct executor_result result;
        int r;

        if (!t || t->state != TASK_AT_PROVER || t->prover != p) {
                log_warning("Prover %u answered task %" PRIu64 ", which it does not hold", p->index,
                            res->status.task_id);
                return;
        }
        p->srs_bytes = res->srs_bytes ? res->srs_bytes : p->srs_bytes;
        if (res->device_memory_free_bytes)
                p->memory_free_bytes = res->device_memory_free_bytes;
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
                        p->deaths_in_row = 0;
                }
        }
        if (result.failure == EXECUTOR_OK)
                p->proved++;
        else
                p->failed++;
        result.srs_load_usec = res->srs_load_usec;
        result.gpu_stage_usec = res->gpu_stage_usec;
        result.g2_tail_usec = res->g2_tail_usec;
        /* The prover's keys are protected from reclaim where the kernel allows it. */
        if (p->cg_fd >= 0 && e->options.domain->enforcement == CG_ENFORCEMENT_V2)
                (void)cg_memory_set_min(p->cg_fd, p->srs_bytes);
        executor_task_finish(t, &result);
        relay_waiting(e); /* the prover has room for one more */
}

static void on_abc_released(struct prover_slot *p, uint64_t task_id) {
        struct executor *e = p->executor;
        struct task *t = executor_task_find(e, task_id);

        if (!t || t->state != TASK_AT_PROVER || t->prover != p || t->abc_released)
                return;
        t->abc_released = true;
        e->callbacks.abc_released(e->userdata, task_id);
}

static void relay_waiting(struct executor *e) {
        /* Relaying does not finish tasks (a failure is deferred), so the list stays. */
        for (struct task *t = e->tasks; t; t = t->next)
                if (t->state == TASK_WAITING && !t->canceled && !t->defer)
                        executor_prover_relay(e, t);
}

static void preload_progress(struct executor *e) {
        if (e->callbacks.preload_progress)
                e->callbacks.preload_progress(e->userdata);
}

/* The preloads this prover process has not been sent yet, in order. */
static void send_preloads(struct prover_slot *p) {
        struct executor *e = p->executor;

        while (p->ready && p->sock >= 0 && p->preloads_sent < e->n_preloads) {
                const struct executor_preload *pre = &e->preloads[p->preloads_sent];
                struct ipc_load_key load;
                int r;

                if (pre->evicted) { /* nothing to load, nothing to wait for */
                        p->preloads_sent++;
                        p->preloads_done++;
                        continue;
                }
                memset(&load, 0, sizeof(load));
                load.kind = pre->kind;
                snprintf(load.key_path, sizeof(load.key_path), "%s", pre->path);
                snprintf(load.circuit_path, sizeof(load.circuit_path), "%s",
                         pre->circuit_path ? pre->circuit_path : "");
                r = ipc_send(p->sock, IPC_LOAD_KEY, &load, sizeof(load), NULL, 0);
                if (r < 0) {
                        /* A full socket: the prover hangs (see executor_prover_relay); else
                         * it is going away, and its successor gets the preloads. */
                        if (r == -EAGAIN)
                                kill_hung(p);
                        return;
                }
                p->preloads_sent++;
        }
}

static void on_key_loaded(struct prover_slot *p, struct ipc_key_loaded *answer) {
        struct executor *e = p->executor;
        char label[64];

        answer->key_path[sizeof(answer->key_path) - 1] = 0;
        answer->message[sizeof(answer->message) - 1] = 0;
        if (answer->evicted) {
                p->srs_bytes = answer->srs_bytes;
                log_info("%s: dropped %s (the prover holds %" PRIu64 " bytes of keys)",
                         prover_label(p, label, sizeof(label)), answer->key_path, p->srs_bytes);
                if (p->cg_fd >= 0 && e->options.domain->enforcement == CG_ENFORCEMENT_V2)
                        (void)cg_memory_set_min(p->cg_fd, p->srs_bytes);
                return;
        }
        if (p->preloads_done >= p->preloads_sent) {
                log_warning("Prover %u answered a preload it was not sent (%s)", p->index,
                            answer->key_path);
                return;
        }
        p->preloads_done++;
        p->srs_bytes = answer->srs_bytes ? answer->srs_bytes : p->srs_bytes;
        prover_label(p, label, sizeof(label));
        if (answer->error < 0)
                log_error("%s: preloading %s failed: %s", label, answer->key_path,
                          answer->message[0] ? answer->message : strerror(-answer->error));
        else if (answer->load_usec)
                log_info("%s: preloaded %s in %.3f s (the prover holds %" PRIu64 " bytes of keys)",
                         label, answer->key_path, answer->load_usec / 1e6, p->srs_bytes);
        if (p->cg_fd >= 0 && e->options.domain->enforcement == CG_ENFORCEMENT_V2)
                (void)cg_memory_set_min(p->cg_fd, p->srs_bytes);
        preload_progress(e);
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
        log_info("Prover %d ready: %s, backend %s on %s", (int)p->pid,
                 prover_label(p, label, sizeof(label)), p->backend, p->device_name);
        relay_waiting(p->executor);
        send_preloads(p);
        preload_progress(p->executor);
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
                switch (m.type) {
                case IPC_PROVER_READY:
                        on_ready(p, &m.prover_ready);
                        break;
                case IPC_ABC_RELEASED:
                        on_abc_released(p, m.task_id.task_id);
                        break;
                case IPC_RESULT:
                        on_result(p, &m.result, n_fds ? fds[0] : -EBADF);
                        break;
                case IPC_KEY_LOADED:
                        on_key_loaded(p, &m.key_loaded);
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
        p->preloads_sent = p->preloads_done = 0; /* the next process loads them again */
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
                                prover_label(p, label, sizeof(label)), (double)delay / 1e6);
                (void)sd_event_add_time_relative(p->executor->event, &p->restart_source,
                                                 CLOCK_MONOTONIC, delay, 0, on_restart, p);
        }
        return 0;
}

static bool any_in_service(const struct executor *e) {
        for (unsigned i = 0; i < e->n_provers; i++)
                if (!e->provers[i].out_of_service)
                        return true;
        return false;
}

static int on_no_prover(sd_event_source *s, void *userdata) {
        struct task *t = userdata;
        struct executor_result result;

        (void)s;
        executor_result_init(&result, EXECUTOR_FAILED_PROVER, -ENODEV,
                             "partition %u: every prover is out of service", t->spec.partition);
        executor_task_finish(t, &result);
        return 0;
}

/* No restart, no tasks from now on; what waits for a prover goes to the others. */
static void take_out_of_service(struct prover_slot *p, const char *why) {
        struct executor *e = p->executor;
        char label[64];

        p->out_of_service = true;
        log_full_errno(LOG_ERR, 0, "%s taken out of service: %s; %s",
                       prover_label(p, label, sizeof(label)), why,
                       any_in_service(e) ? "its partitions go to the other provers"
                                         : "no prover is left in service");
        if (!any_in_service(e))
                relay_waiting(e); /* each waiting task fails (deferred) */
        if (e->n_preloads)
                preload_progress(e);
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
        char how[64], label[64], why[128];
        struct task *t;

        read_prover_messages(p);
        prover_forget_process(p);
        if (si->si_code == CLD_EXITED)
                snprintf(how, sizeof(how), "exited with status %d", si->si_status);
        else
                snprintf(how, sizeof(how), "killed by signal %d (%s)", si->si_status,
                         strsignal(si->si_status));
        prover_label(p, label, sizeof(label));

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
                preload_progress(e);
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
        char fd_text[16], threads_text[16], device_text[16];
        char *argv[] = {e->helper_path, (char *)"--prover", fd_text,
                        threads_text,   device_text,        NULL};
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
        for (unsigned i = 0; i < e->n_preloads; i++) {
                free(e->preloads[i].path);
                free(e->preloads[i].circuit_path);
        }
        free(e->preloads);
        e->preloads = NULL;
        e->n_preloads = 0;
}

int executor_preload_key(struct executor *e, enum job_kind kind, const char *key_path,
                         const char *circuit_path) {
        struct executor_preload *preloads;
        char *path, *circuit = NULL;

        assert(e);
        assert(key_path);
        if (strlen(key_path) >= PATH_MAX || (circuit_path && strlen(circuit_path) >= PATH_MAX))
                return log_error_errno(ENAMETOOLONG, "Preload of %s: a path is too long", key_path);
        for (unsigned i = 0; i < e->n_preloads; i++)
                if (!e->preloads[i].evicted && e->preloads[i].kind == kind &&
                    !strcmp(e->preloads[i].path, key_path))
                        return 0; /* every prover has it, or will */
        path = strdup(key_path);
        if (circuit_path)
                circuit = strdup(circuit_path);
        preloads = realloc(e->preloads, (e->n_preloads + 1) * sizeof(*preloads));
        if (!path || (circuit_path && !circuit) || !preloads) {
                free(path);
                free(circuit);
                if (preloads)
                        e->preloads = preloads;
                return log_error_errno(ENOMEM, "Out of memory for a preload");
        }
        e->preloads = preloads;
        e->preloads[e->n_preloads++] =
                (struct executor_preload){.kind = kind, .path = path, .circuit_path = circuit};
        for (unsigned i = 0; i < e->n_provers; i++)
                send_preloads(&e->provers[i]);
        return 0;
}

void executor_evict_key(struct executor *e, enum job_kind kind, const char *key_path) {
        struct ipc_load_key evict;

        assert(e);
        assert(key_path);
        if (strlen(key_path) >= sizeof(evict.key_path))
                return;
        for (unsigned i = 0; i < e->n_preloads; i++)
                if (e->preloads[i].kind == kind && !strcmp(e->preloads[i].path, key_path))
                        e->preloads[i].evicted = true;
        memset(&evict, 0, sizeof(evict));
        evict.kind = kind;
        snprintf(evict.key_path, sizeof(evict.key_path), "%s", key_path);
        for (unsigned i = 0; i < e->n_provers; i++) {
                struct prover_slot *p = &e->provers[i];

                /* A prover that is not up has no key; one whose socket is full hangs. */
                if (p->sock >= 0 &&
                    ipc_send(p->sock, IPC_EVICT_KEY, &evict, sizeof(evict), NULL, 0) == -EAGAIN)
                        kill_hung(p);
        }
}

bool executor_preloads_settled(const struct executor *e) {
        assert(e);
        for (unsigned i = 0; i < e->n_provers; i++) {
                const struct prover_slot *p = &e->provers[i];

                if (p->out_of_service)
                        continue;
                if (!p->ready || p->preloads_done < e->n_preloads)
                        return false;
        }
        return true;
}

/* Tasks one prover holds at most. It proves two at a time (one in its GPU stage, one in
 * its tail), so a few more keep it fed; the rest wait here and go out as answers come
 * back. Each IPC_PROVE is ~12 KB: sixteen at once filled the socket of a prover busy
 * proving (ASan build, concurrency 16), which then looked hung and was killed. */
#define PROVER_MAX_IN_HAND 4

/* The ready prover in service with the fewest tasks in hand, below PROVER_MAX_IN_HAND;
 * on a tie, the one whose last task is oldest (so that a light load still turns over
 * every GPU). */
static struct prover_slot *least_loaded(struct executor *e) {
        struct prover_slot *best = NULL;

        for (unsigned i = 0; i < e->n_provers; i++) {
                struct prover_slot *p = &e->provers[i];

                if (!p->ready || p->out_of_service || p->sock < 0 ||
                    p->in_hand >= PROVER_MAX_IN_HAND)
                        continue;
                if (!best || p->in_hand < best->in_hand ||
                    (p->in_hand == best->in_hand && p->last_relay < best->last_relay))
                        best = p;
        }
        return best;
}

void executor_prover_relay(struct executor *e, struct task *t) {
        struct prover_slot *p;
        struct ipc_prove prove;
        int r;

        assert(e);
        assert(t && t->state == TASK_WAITING);

        if (!any_in_service(e)) {
                if (!t->defer && sd_event_add_defer(e->event, &t->defer, on_no_prover, t) < 0)
                        log_error("Task %" PRIu64 ": cannot fail it (no prover in service)",
                                  t->spec.task_id);
                return;
        }
        p = least_loaded(e);
        if (!p) {
                /* IPC_PROVER_READY relays it. */
                log_info("Task %" PRIu64 " partition %u: synthesized, waiting for a prover",
                         t->spec.task_id, t->spec.partition);
                return;
        }
        prove = (struct ipc_prove){.synth = t->synth};
        r = executor_task_ipc(&t->spec, &prove.task);
        if (r >= 0)
                r = ipc_send(p->sock, IPC_PROVE, &prove, sizeof(prove), (int[]){t->abc_fd, t->w_fd},
                             2);
        if (r == -EAGAIN) {
                kill_hung(p);
                return;
        }
        if (r < 0)
                return; /* the prover is going away: its successor or another gets the task */
        /* Ours go: the prover's copies are the last, so its close frees the pages. */
        close(TAKE_FD(t->abc_fd));
        close(TAKE_FD(t->w_fd));
        t->state = TASK_AT_PROVER;
        t->prover = p;
        p->in_hand++;
        p->last_relay = ++e->relays;
}

int executor_prover_cancel(struct executor *e, struct task *t) {
        struct ipc_task_id cancel;
        int r;

        assert(e);
        assert(t && t->prover);
        cancel = (struct ipc_task_id){.task_id = t->spec.task_id};

        r = ipc_send(t->prover->sock, IPC_CANCEL, &cancel, sizeof(cancel), NULL, 0);
        /* A prover that cannot hear it is dying: its exit finishes the task. */
        if (r < 0 && r != -EAGAIN && r != -EPIPE && r != -ECONNRESET)
                return r;
        return 0;
}
