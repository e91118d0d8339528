/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Liveness of the helper processes (WorkerStallTimeout=, ProverStallTimeout=). A worker,
 * or a prover with work in hand, that for the timeout neither used CPU time nor sent a
 * message is stuck: stopped (SIGSTOP, a debugger), blocked opening a FIFO, or waiting on a
 * device that will not answer. It is killed with SIGKILL: a worker's partition then takes
 * the retry path of any worker death, and a prover is restarted as after any death, its
 * partitions retried.
 *
 * CPU time, not a heartbeat: a heartbeat thread runs on while the thread that works is
 * blocked, and a SIGSTOP stops both, so only the work's own trace tells. Every stage of a
 * worker and of the CPU prover computes; a long read of a key is CPU time too (the copy
 * from the page cache, the decoding); a GPU stage that waits without spinning is seconds
 * long, and the prover reports each stage (IPC_PROGRESS) around it.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "daemon/executor/executor-internal.h"

/* How often the processes are looked at: a quarter of the shorter timeout, so that a stall
 * is noticed within 1.25 timeouts, but not more often than every 100 ms nor less than
 * every 10 s. */
#define LIVENESS_TICK_MIN_USEC (100 * 1000ull)
#define LIVENESS_TICK_MAX_USEC (10 * 1000000ull)

int executor_process_cpu_ticks(pid_t pid, uint64_t *ret) {
        _cleanup_close_ int fd = -EBADF;
        char path[64], buf[1024], *p;
        unsigned long long utime, stime;
        ssize_t n;

        assert(pid > 0);
        assert(ret);
        snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        n = read(fd, buf, sizeof(buf) - 1);
        if (n <= 0)
                return n < 0 ? -errno : -EIO;
        buf[n] = 0;
        /* The command name may hold spaces and ')': the fields start after the last ')'.
         * After it: state (3), ppid .. cmajflt (4-12), utime (14), stime (15). */
        p = strrchr(buf, ')');
        if (!p || sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &utime,
                         &stime) != 2)
                return -EBADMSG;
        *ret = (uint64_t)utime + (uint64_t)stime;
        return 0;
}

void executor_liveness_note(struct liveness *l) {
        assert(l);
        l->progress_usec = executor_now_usec();
}

/* Whether a process that has work (busy) made no progress for timeout_usec: neither CPU
 * time nor a message (executor_liveness_note) since the last look that found it so. */
static bool liveness_stalled(struct liveness *l, pid_t pid, bool busy, uint64_t now_usec,
                             uint64_t timeout_usec) {
        uint64_t ticks = 0;
        bool read = busy && executor_process_cpu_ticks(pid, &ticks) >= 0;

        if (!read || !l->busy || pid != l->pid || ticks != l->cpu_ticks) {
                /* Idle, unreadable (exiting), just given work, a new process, or it ran: the
                 * clock restarts. */
                l->busy = read;
                l->pid = pid;
                l->cpu_ticks = ticks;
                l->progress_usec = now_usec;
                return false;
        }
        return now_usec - l->progress_usec >= timeout_usec;
}

static void kill_process(pid_t pid, int pidfd) {
        if (pidfd >= 0 && syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0) == 0)
                return;
        (void)kill(pid, SIGKILL);
}

static void check_workers(struct executor *e, uint64_t now_usec) {
        const uint64_t timeout = e->options.worker_stall_usec;

        for (unsigned i = 0; timeout && i < e->options.max_workers; i++) {
                struct worker_slot *slot = &e->slots[i];
                struct task *t = slot->task;

                /* A worker that handed its memfds over must exit: it counts too. */
                if (!liveness_stalled(&slot->liveness, slot->pid, slot->pid > 0, now_usec, timeout))
                        continue;
                log_error("Worker w%u (pid %d) of task %" PRIu64 " partition %u used no CPU time "
                          "and sent nothing for %.0f s (WorkerStallTimeout=): killing it",
                          slot->index, (int)slot->pid, t ? t->spec.task_id : 0,
                          t ? t->spec.partition : 0, (double)timeout / 1e6);
                if (t && t->state == TASK_SYNTHESIZING)
                        t->stalled = true;
                e->stalled_worker_kills++;
                slot->liveness.busy = false; /* one kill; its exit comes through the pidfd */
                kill_process(slot->pid, slot->pidfd);
        }
}

static void check_provers(struct executor *e, uint64_t now_usec) {
        const uint64_t timeout = e->options.prover_stall_usec;

        for (unsigned i = 0; timeout && i < e->n_provers; i++) {
                struct prover_slot *p = &e->provers[i];
                /* Starting up, proving, or loading a key: it owes an answer. */
                bool busy = p->pid > 0 &&
                            (!p->ready || p->in_hand > 0 || p->preloads_done < p->preloads_sent);
                char label[64];

                if (!liveness_stalled(&p->liveness, p->pid, busy, now_usec, timeout))
                        continue;
                log_error("%s (pid %d) used no CPU time and sent nothing for %.0f s with %u "
                          "partition(s) in hand (ProverStallTimeout=; last stage: %s): killing it",
                          executor_prover_label(p, label, sizeof(label)), (int)p->pid,
                          (double)timeout / 1e6, p->in_hand, p->stage[0] ? p->stage : "none");
                p->stalled = true;
                e->stalled_prover_kills++;
                p->liveness.busy = false;
                kill_process(p->pid, p->pidfd);
        }
}

static uint64_t liveness_tick_usec(const struct executor_options *o) {
        uint64_t shortest = o->worker_stall_usec;
        uint64_t tick;

        if (!shortest || (o->prover_stall_usec && o->prover_stall_usec < shortest))
                shortest = o->prover_stall_usec;
        tick = shortest / 4;
        return tick < LIVENESS_TICK_MIN_USEC   ? LIVENESS_TICK_MIN_USEC
               : tick > LIVENESS_TICK_MAX_USEC ? LIVENESS_TICK_MAX_USEC
                                               : tick;
}

static int on_liveness_tick(sd_event_source *s, uint64_t usec, void *userdata) {
        struct executor *e = userdata;
        uint64_t now = executor_now_usec();

        check_workers(e, now);
        check_provers(e, now);
        (void)sd_event_source_set_time(s, usec + liveness_tick_usec(&e->options));
        return 0;
}

int executor_liveness_start(struct executor *e) {
        int r;

        assert(e);
        if (!e->options.worker_stall_usec && !e->options.prover_stall_usec)
                return 0;
        r = sd_event_add_time_relative(e->event, &e->liveness_source, CLOCK_MONOTONIC,
                                       liveness_tick_usec(&e->options), 0, on_liveness_tick, e);
        if (r >= 0)
                r = sd_event_source_set_enabled(e->liveness_source, SD_EVENT_ON);
        if (r < 0)
                return log_error_errno(r, "Failed to add the liveness timer: %m");
        return 0;
}

void executor_liveness_stop(struct executor *e) {
        assert(e);
        e->liveness_source = sd_event_source_disable_unref(e->liveness_source);
}
