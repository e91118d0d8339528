/* SPDX-License-Identifier: Apache-2.0 */
/* The eBPF probes in cuzkd: loading them (BPF=), their events, their metrics. */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>

#include "cgroup/cg-files.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "daemon/supervisor/bpf-watch.h"
#include "daemon/supervisor/cuzkd.h"
#include "daemon/supervisor/log-journal.h"
#include "daemon/message-ids.h"

/* The worker slot whose cgroup is id, or -1. */
static int worker_of(const struct bpf_watch *w, uint64_t id) {
        for (unsigned i = 0; i < w->n_workers; i++)
                if (w->worker_ids[i] == id)
                        return (int)i;
        return -1;
}

/* The prover whose cgroup is id, or -1. */
static int prover_of(const struct bpf_watch *w, uint64_t id) {
        for (unsigned i = 0; i < w->n_provers; i++)
                if (w->prover_ids[i] == id)
                        return (int)i;
        return -1;
}

/* The cgroup an event names, as our tree calls it: "synth/w2", "prover-0", "synth". */
static void cgroup_label(const struct bpf_watch *w, uint64_t id, char *buf, size_t size) {
        int worker = worker_of(w, id), prover = prover_of(w, id);

        if (worker >= 0)
                snprintf(buf, size, "synth/w%d", worker);
        else if (prover >= 0)
                snprintf(buf, size, "prover-%d", prover);
        else if (id == w->synth_id)
                snprintf(buf, size, "synth");
        else
                snprintf(buf, size, "cgroup %" PRIu64, id);
}

/* An OOM kill in one of our cgroups: in a worker's, named with the job and partition the
 * worker ran (its task may already have finished when this is read: the slot remembers
 * the last one). */
static void on_oom_kill(struct cuzkd *d, const memwatch_event_t *ev, const char *label,
                        const char *description) {
        struct bpf_watch *w = &d->bpf;
        struct executor_worker_info info;
        char partition[16] = "unknown", limit[32] = "", job_id[48] = "unknown";
        const struct job *job = NULL;
        uint64_t limit_bytes;
        unsigned p;
        int worker = worker_of(w, ev->cgroup_id);

        if (worker < 0 || executor_get_worker(d->executor, (unsigned)worker, &info) < 0) {
                log_warning("%s OOM-killed (BPF): pid %" PRIu32 " (%s); %s", label, ev->pid,
                            ev->comm[0] ? ev->comm : "?", description);
                return;
        }
        w->worker_oom_kills[worker]++;
        job = scheduler_find_attempt(d->scheduler, info.task_id, &p);
        if (job) {
                snprintf(job_id, sizeof(job_id), "%s", job->id);
                snprintf(partition, sizeof(partition), "%u", p);
        } else if (info.task_id != 0)
                snprintf(partition, sizeof(partition), "%u", info.partition);
        if (info.cg_fd >= 0 &&
            cg_read_u64(info.cg_fd, d->cgroup_v2 ? "memory.max" : "memory.limit_in_bytes",
                        &limit_bytes) >= 0)
                snprintf(limit, sizeof(limit), "%" PRIu64, limit_bytes);
        log_fields(LOG_WARNING, 0,
                   LOG_FIELDS({"MESSAGE_ID", CUZK_MID_WORKER_OOM_KILLED}, {"CUZK_JOB_ID", job_id},
                              {"CUZK_PARTITION", partition}, {"CUZK_CGROUP", label},
                              {"CUZK_MEMORY_MAX_BYTES", limit[0] ? limit : NULL}),
                   "worker w%d OOM-killed (BPF): job %s partition %s, pid %" PRIu32
                   "%s%s (task %" PRIu64 "%s)",
                   worker, job_id, partition, ev->pid, limit[0] ? ", memory limit " : "", limit,
                   info.task_id, job ? "" : ", its job no longer queued");
}

static void on_memory_event(const memwatch_event_t *ev, void *userdata) {
        struct cuzkd *d = userdata;
        char label[64], description[256], what[400];

        assert(ev);
        cgroup_label(&d->bpf, ev->cgroup_id, label, sizeof(label));
        memwatch_event_describe(ev, description, sizeof(description));
        if (ev->kind == MEMWATCH_OOM_KILL) {
                on_oom_kill(d, ev, label, description);
                return;
        }
        log_debug("BPF: %s (%s)", description, label);
        if (!d->pressure)
                return;
        snprintf(what, sizeof(what), "%s in %s (BPF): %s",
                 ev->kind == MEMWATCH_HIGH_THROTTLE ? "memory.high throttling" : "reclaim", label,
                 description);
        (void)pressure_report(d->pressure, PRESSURE_SOURCE_BPF, what);
}

static int on_readable(sd_event_source *source, int fd, uint32_t revents, void *userdata) {
        struct bpf_watch *w = userdata;
        int r;

        (void)fd;
        (void)revents;
        r = memwatch_consume(w->memwatch);
        if (r < 0) {
                log_warning_errno(r, "eBPF events unreadable (%m): no longer read; PSI goes on");
                return sd_event_source_set_enabled(source, SD_EVENT_OFF);
        }
        return 0;
}

/* Without the probes: why, said once (memwatch_new says its own reason). */
static void psi_alone(struct bpf_watch *w, const char *reason, bool log) {
        snprintf(w->summary, sizeof(w->summary), "off (%s; PSI alone)", reason);
        if (log)
                log_fields(LOG_NOTICE, 0,
                           LOG_FIELDS({"MESSAGE_ID", CUZK_MID_BPF_UNAVAILABLE},
                                      {"CUZK_BPF_ERROR", reason}),
                           "BPF unavailable: %s; running on PSI alone", reason);
}

/* Watches synth/ and the prover's cgroup and learns every worker cgroup's id. */
static int watch_cgroups(struct cuzkd *d) {
        struct bpf_watch *w = &d->bpf;
        struct executor_cgroups cgroups;
        struct executor_status status;
        struct executor_worker_info info;
        int r;

        executor_get_cgroups(d->executor, &cgroups);
        executor_get_status(d->executor, &status);
        w->worker_ids = calloc(status.max_workers, sizeof(*w->worker_ids));
        w->worker_oom_kills = calloc(status.max_workers, sizeof(*w->worker_oom_kills));
        if (!w->worker_ids || !w->worker_oom_kills)
                return log_error_errno(ENOMEM, "Out of memory for %u worker cgroup ids",
                                       status.max_workers);
        w->n_workers = status.max_workers;
        for (unsigned i = 0; i < w->n_workers; i++) {
                r = executor_get_worker(d->executor, i, &info);
                if (r >= 0)
                        r = memwatch_cgroup_id(info.cg_fd, &w->worker_ids[i]);
                if (r < 0)
                        return log_error_errno(r, "The cgroup id of synth/w%u: %m", i);
        }
        r = memwatch_watch(w->memwatch, cgroups.synth_fd, &w->synth_id);
        if (r < 0)
                return log_error_errno(r, "Watching %s/synth with the eBPF probes: %m",
                                       d->cgroup_dir);
        for (unsigned i = 0; i < cgroups.n_provers; i++) {
                if (cgroups.prover_fds[i] < 0)
                        continue;
                r = memwatch_watch(w->memwatch, cgroups.prover_fds[i], &w->prover_ids[i]);
                if (r < 0)
                        return log_error_errno(r, "Watching %s/prover-%u with the eBPF probes: %m",
                                               d->cgroup_dir, i);
        }
        w->n_provers = cgroups.n_provers;
        return 0;
}

static void probe_names(unsigned probes, char *buf, size_t size) {
        size_t used = 0;

        buf[0] = '\0';
        for (int k = MEMWATCH_DIRECT_RECLAIM; k < _MEMWATCH_KIND_MAX && used < size; k++)
                if (probes & (1u << k))
                        used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? " " : "",
                                                 memwatch_kind_name(k));
}

int bpf_watch_setup(struct cuzkd *d) {
        struct bpf_watch *w;
        struct executor_cgroups cgroups;
        bool required;
        char probes[96];
        int r;

        assert(d);
        assert(d->executor);
        w = &d->bpf;
        required = d->config.bpf == CONFIG_YES;
        if (d->config.bpf == CONFIG_NO) {
                psi_alone(w, "BPF=no", true);
                return 0;
        }
        executor_get_cgroups(d->executor, &cgroups);
        if (cgroups.synth_fd < 0) {
                if (required)
                        return log_error_errno(-EOPNOTSUPP,
                                               "BPF=yes, but workers run without cgroups (%s): "
                                               "the eBPF probes have nothing to watch",
                                               d->enforcement);
                psi_alone(w, "no worker cgroups to watch", true);
                return 0;
        }
        r = memwatch_new(on_memory_event, d, &w->memwatch);
        if (r == -EOPNOTSUPP) {
                /* memwatch said why, once: "BPF unavailable: ...; running on PSI alone". */
                if (required)
                        return log_error_errno(r, "BPF=yes, but the eBPF probes cannot be used "
                                                  "(see above); set BPF=auto to run on PSI alone");
                psi_alone(w, "unavailable", false);
                return 0;
        }
        if (r >= 0)
                r = watch_cgroups(d);
        if (r >= 0) {
                r = sd_event_add_io(d->event, &w->source, memwatch_fd(w->memwatch), EPOLLIN,
                                    on_readable, w);
                /* Before the workers' exits: an OOM kill's report then finds the worker's
                 * task still running. */
                if (r >= 0)
                        r = sd_event_source_set_priority(w->source, SD_EVENT_PRIORITY_IMPORTANT);
                if (r < 0)
                        log_error_errno(r, "Failed to read the eBPF events on the loop: %m");
        }
        if (r < 0) {
                bpf_watch_done(w);
                if (required)
                        return log_error_errno(r, "BPF=yes, but the eBPF probes failed: %m");
                psi_alone(w, "the probes failed (see above)", true);
                return 0;
        }
        probe_names(memwatch_probes(w->memwatch), probes, sizeof(probes));
        snprintf(w->summary, sizeof(w->summary), "on (%s)", probes);
        log_info("eBPF probes watch %s/synth (cgroup %" PRIu64 ", %u workers) and %u prover "
                 "cgroups (%s/prover-0 is cgroup %" PRIu64 "): %s",
                 d->cgroup_dir, w->synth_id, w->n_workers, w->n_provers, d->cgroup_dir,
                 w->prover_ids[0], probes);
        return 0;
}

void bpf_watch_done(struct bpf_watch *w) {
        assert(w);
        w->source = sd_event_source_disable_unref(w->source);
        w->memwatch = memwatch_free(w->memwatch);
        free(w->worker_ids);
        free(w->worker_oom_kills);
        w->worker_ids = w->worker_oom_kills = NULL;
        w->n_workers = 0;
        w->synth_id = 0;
        memset(w->prover_ids, 0, sizeof(w->prover_ids));
        w->n_provers = 0;
}

bool bpf_watch_active(const struct bpf_watch *w) {
        assert(w);
        return w->memwatch != NULL;
}

void bpf_watch_write_metrics(const struct bpf_watch *w, FILE *f) {
        memwatch_metrics_cgroup_t cgroups[1 + EXECUTOR_MAX_PROVERS];
        char labels[EXECUTOR_MAX_PROVERS][24];
        size_t n = 0;
        uint64_t runs, ns;

        assert(w);
        assert(f);
        if (w->synth_id)
                cgroups[n++] = (memwatch_metrics_cgroup_t){.id = w->synth_id, .label = "synth"};
        for (unsigned i = 0; i < w->n_provers; i++) {
                if (!w->prover_ids[i])
                        continue;
                snprintf(labels[i], sizeof(labels[i]), "prover-%u", i);
                cgroups[n++] =
                        (memwatch_metrics_cgroup_t){.id = w->prover_ids[i], .label = labels[i]};
        }
        (void)memwatch_write_metrics(w->memwatch, cgroups, n, f);
        if (!w->memwatch)
                return;
        fprintf(f, "# HELP cuzk_bpf_worker_oom_kills_total OOM kills the eBPF probes saw, by "
                   "worker cgroup.\n# TYPE cuzk_bpf_worker_oom_kills_total counter\n");
        for (unsigned i = 0; i < w->n_workers; i++)
                fprintf(f, "cuzk_bpf_worker_oom_kills_total{cgroup=\"synth/w%u\"} %" PRIu64 "\n", i,
                        w->worker_oom_kills[i]);
        if (memwatch_probe_runtime(w->memwatch, &runs, &ns) < 0)
                return;
        fprintf(f,
                "# HELP cuzk_bpf_probe_runs_total Runs of the eBPF probes (while the kernel "
                "counts them: kernel.bpf_stats_enabled).\n# TYPE cuzk_bpf_probe_runs_total "
                "counter\ncuzk_bpf_probe_runs_total %" PRIu64 "\n",
                runs);
        fprintf(f,
                "# HELP cuzk_bpf_probe_seconds_total Time spent in the eBPF probes (while the "
                "kernel counts it).\n# TYPE cuzk_bpf_probe_seconds_total counter\n"
                "cuzk_bpf_probe_seconds_total %.9f\n",
                (double)ns / 1e9);
}
