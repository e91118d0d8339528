/* SPDX-License-Identifier: Apache-2.0 */
/* GetMetrics: the Prometheus text exposition format, version 0.0.4. */
#include <assert.h>
#include <dirent.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "cgroup/cg-files.h"
#include "cgroup/cg-memory.h"
#include "common/cleanup.h"
#include "daemon/supervisor/cuzkd.h"

static const double job_seconds_buckets[METRICS_N_JOB_SECONDS_BUCKETS] =
        METRICS_JOB_SECONDS_BUCKETS;

void metrics_job_ended(struct metrics *m, const struct job *job) {
        Cuzk__V1__AwaitProofResponse result;
        double seconds;
        unsigned b;

        assert(m);
        assert(job);
        assert(job_state_is_final(job->state));
        m->jobs_ended[job->state]++;
        if (job->state != JOB_COMPLETED)
                return;
        job_result(job, &result);
        seconds = (double)result.total_ms / 1000.0;
        for (b = 0; b < METRICS_N_JOB_SECONDS_BUCKETS && seconds > job_seconds_buckets[b]; b++)
                ;
        m->job_seconds_bucket[b]++;
        m->job_seconds_count++;
        m->job_seconds_sum += seconds;
        m->queue_seconds_sum += (double)result.queue_wait_ms / 1000.0;
        m->synthesis_seconds_sum += (double)result.synthesis_ms / 1000.0;
        m->gpu_seconds_sum += (double)result.gpu_compute_ms / 1000.0;
}

static void header(FILE *f, const char *name, const char *type, const char *help) {
        fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", name, help, name, type);
}

static void gauge(FILE *f, const char *name, const char *help, uint64_t value) {
        header(f, name, "gauge", help);
        fprintf(f, "%s %" PRIu64 "\n", name, value);
}

static void counter(FILE *f, const char *name, const char *help, uint64_t value) {
        header(f, name, "counter", help);
        fprintf(f, "%s %" PRIu64 "\n", name, value);
}

static void jobs_by_state(FILE *f, const struct cuzkd *d) {
        uint64_t count[_JOB_STATE_MAX] = {0};

        for (size_t i = 0; i < d->table.n_jobs; i++)
                count[d->table.jobs[i]->state]++;
        header(f, "cuzk_jobs", "gauge", "Jobs the daemon knows, by state.");
        for (int s = 0; s < _JOB_STATE_MAX; s++)
                fprintf(f, "cuzk_jobs{state=\"%s\"} %" PRIu64 "\n", job_state_name(s), count[s]);
        header(f, "cuzk_jobs_ended_total", "counter", "Jobs that ended since the start, by state.");
        for (int s = JOB_COMPLETED; s < _JOB_STATE_MAX; s++)
                fprintf(f, "cuzk_jobs_ended_total{state=\"%s\"} %" PRIu64 "\n", job_state_name(s),
                        d->metrics.jobs_ended[s]);
        counter(f, "cuzk_jobs_submitted_total", "Jobs accepted since the start.",
                d->metrics.jobs_submitted);
}

static void job_seconds(FILE *f, const struct metrics *m) {
        uint64_t cumulative = 0;

        header(f, "cuzk_job_seconds", "histogram",
               "Completed jobs: seconds from submission to the proof.");
        for (unsigned b = 0; b < METRICS_N_JOB_SECONDS_BUCKETS; b++) {
                cumulative += m->job_seconds_bucket[b];
                fprintf(f, "cuzk_job_seconds_bucket{le=\"%g\"} %" PRIu64 "\n",
                        job_seconds_buckets[b], cumulative);
        }
        cumulative += m->job_seconds_bucket[METRICS_N_JOB_SECONDS_BUCKETS];
        fprintf(f, "cuzk_job_seconds_bucket{le=\"+Inf\"} %" PRIu64 "\n", cumulative);
        fprintf(f, "cuzk_job_seconds_sum %.3f\ncuzk_job_seconds_count %" PRIu64 "\n",
                m->job_seconds_sum, m->job_seconds_count);
        header(f, "cuzk_job_stage_seconds_total", "counter",
               "Completed jobs: seconds spent per stage, summed.");
        fprintf(f, "cuzk_job_stage_seconds_total{stage=\"queue\"} %.3f\n", m->queue_seconds_sum);
        fprintf(f, "cuzk_job_stage_seconds_total{stage=\"synthesis\"} %.3f\n",
                m->synthesis_seconds_sum);
        fprintf(f, "cuzk_job_stage_seconds_total{stage=\"prove\"} %.3f\n", m->gpu_seconds_sum);
}

static void partitions(FILE *f, const struct scheduler_stats *st) {
        header(f, "cuzk_partitions", "gauge", "Partitions queued and running now.");
        fprintf(f, "cuzk_partitions{state=\"queued\"} %u\n", st->partitions_queued);
        fprintf(f, "cuzk_partitions{state=\"running\"} %u\n", st->partitions_running);
        counter(f, "cuzk_partitions_admitted_total", "Partition attempts admitted.",
                st->partitions_admitted);
        counter(f, "cuzk_partitions_proved_total", "Partitions proved.", st->partitions_proved);
        counter(f, "cuzk_partition_retries_total",
                "Partition attempts queued again after their worker or prover died.",
                st->partition_retries);
        header(f, "cuzk_partition_failures_total", "counter",
               "Failed partition attempts, by what failed.");
        fprintf(f, "cuzk_partition_failures_total{cause=\"worker\"} %" PRIu64 "\n",
                st->worker_failures);
        fprintf(f, "cuzk_partition_failures_total{cause=\"prover\"} %" PRIu64 "\n",
                st->prover_failures);
        fprintf(f, "cuzk_partition_failures_total{cause=\"input\"} %" PRIu64 "\n",
                st->input_failures);
        counter(f, "cuzk_worker_oom_kills_total", "Workers the kernel OOM-killed.",
                st->worker_oom_kills);
        gauge(f, "cuzk_worker_peak_bytes", "The largest peak memory of a worker's cgroup.",
              st->worker_peak_bytes);
}

static void memory(FILE *f, const struct cuzkd *d, const struct scheduler_stats *st) {
        psi_stats_t psi;

        gauge(f, "cuzk_memory_budget_bytes", "The memory budget admission reserves from.",
              d->budget.total_bytes);
        gauge(f, "cuzk_memory_reserved_bytes", "Bytes reserved now (partitions, SRS, PCE).",
              d->budget.reserved_bytes);
        gauge(f, "cuzk_memory_reserved_peak_bytes", "The most bytes reserved at once.",
              d->budget.peak_reserved_bytes);
        gauge(f, "cuzk_memory_shared_reserved_bytes", "Bytes reserved for SRS and PCE.",
              st->shared_reserved_bytes);
        gauge(f, "cuzk_admission_paused", "1 while memory pressure pauses admission.",
              scheduler_paused(d->scheduler));
        if (!d->pressure)
                return;
        counter(f, "cuzk_pressure_events_total", "PSI trigger events.",
                pressure_event_count(d->pressure));
        counter(f, "cuzk_admission_pauses_total", "Times memory pressure paused admission.",
                pressure_pause_count(d->pressure));
        header(f, "cuzk_admission_pauses_by_source_total", "counter",
               "Times memory pressure paused admission, by the source that paused it.");
        for (int k = 0; k < _PRESSURE_SOURCE_MAX; k++)
                fprintf(f, "cuzk_admission_pauses_by_source_total{source=\"%s\"} %" PRIu64 "\n",
                        pressure_source_kind_name(k), pressure_source_pause_count(d->pressure, k));
        header(f, "cuzk_pressure_events_by_source_total", "counter",
               "Memory pressure events (PSI triggers, eBPF reclaim and throttling), by source.");
        for (int k = 0; k < _PRESSURE_SOURCE_MAX; k++)
                fprintf(f, "cuzk_pressure_events_by_source_total{source=\"%s\"} %" PRIu64 "\n",
                        pressure_source_kind_name(k), pressure_source_event_count(d->pressure, k));
        if (pressure_read_system(d->pressure, &psi) < 0)
                return;
        header(f, "cuzk_memory_pressure_avg10", "gauge",
               "/proc/pressure/memory: percent of the last 10 s stalled.");
        fprintf(f, "cuzk_memory_pressure_avg10{kind=\"some\"} %.2f\n", psi.some.avg10);
        fprintf(f, "cuzk_memory_pressure_avg10{kind=\"full\"} %.2f\n", psi.full.avg10);
        header(f, "cuzk_memory_pressure_stall_seconds_total", "counter",
               "/proc/pressure/memory: total stall time.");
        fprintf(f, "cuzk_memory_pressure_stall_seconds_total{kind=\"some\"} %.6f\n",
                (double)psi.some.total_us / 1e6);
        fprintf(f, "cuzk_memory_pressure_stall_seconds_total{kind=\"full\"} %.6f\n",
                (double)psi.full.total_us / 1e6);
}

/* Whether our cgroup holds nothing but the daemon: no process in it but ours,
 * no child cgroup but the ones cuzkd makes (supervisor/, synth/, prover-N/).
 * A shared cgroup (a container's, a login session's) counts others' memory in
 * its peak, which then says nothing about cuzkd. */
static bool cgroup_is_ours_alone(const char *dir) {
        _cleanup_fclose_ FILE *procs = NULL;
        _cleanup_(closedirp) DIR *d = NULL;
        char path[PATH_MAX];
        struct dirent *de;
        long pid;

        snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
        procs = fopen(path, "re");
        if (!procs)
                return false;
        while (fscanf(procs, "%ld", &pid) == 1)
                if (pid != (long)getpid())
                        return false;
        d = opendir(dir);
        if (!d)
                return false;
        while ((de = readdir(d))) {
                if (de->d_type != DT_DIR || de->d_name[0] == '.')
                        continue;
                if (strcmp(de->d_name, "supervisor") != 0 && strcmp(de->d_name, "synth") != 0 &&
                    strncmp(de->d_name, "prover-", 7) != 0)
                        return false;
        }
        return true;
}

/* The peak memory of every process of the daemon (supervisor, workers, prover): our
 * cgroup's, which holds them all (v2 memory.peak, v1 memory.max_usage_in_bytes), where
 * the cgroup is the daemon's alone. Absent under RLIMIT_DATA, in a shared cgroup, or
 * where the kernel keeps no peak. */
static void peak_memory(FILE *f, const struct cuzkd *d) {
        _cleanup_close_ int fd = -EBADF;
        uint64_t peak;
        int r;

        if (!d->cgroup_dir[0] || !cgroup_is_ours_alone(d->cgroup_dir))
                return;
        fd = open(d->cgroup_dir, O_DIRECTORY | O_PATH | O_CLOEXEC);
        if (fd < 0)
                return;
        r = d->cgroup_v2 ? cg_memory_peak(fd, &peak)
                         : cg_read_u64(fd, "memory.max_usage_in_bytes", &peak);
        if (r < 0)
                return;
        gauge(f, "cuzk_memory_peak_bytes",
              "Peak memory of the daemon's cgroup (all its processes) since it was created.", peak);
}

/* Per prover (cgroup prover-N), labelled with its index and device. */
static void prover_metrics(FILE *f, const struct executor *executor, unsigned n) {
        struct executor_prover_info info[EXECUTOR_MAX_PROVERS];
        char device[EXECUTOR_MAX_PROVERS][16];

        n = n < EXECUTOR_MAX_PROVERS ? n : EXECUTOR_MAX_PROVERS;
        for (unsigned i = 0; i < n; i++) {
                (void)executor_get_prover(executor, i, &info[i]);
                executor_device_name(info[i].device, device[i], sizeof(device[i]));
        }
        header(f, "cuzk_prover_partitions_total", "counter",
               "Partitions each prover answered, by result.");
        for (unsigned i = 0; i < n; i++)
                fprintf(f,
                        "cuzk_prover_partitions_total{prover=\"%u\",device=\"%s\",result="
                        "\"proved\"} "
                        "%" PRIu64 "\n"
                        "cuzk_prover_partitions_total{prover=\"%u\",device=\"%s\",result="
                        "\"failed\"} "
                        "%" PRIu64 "\n",
                        i, device[i], info[i].proved, i, device[i], info[i].failed);
        header(f, "cuzk_prover_in_service", "gauge",
               "1 while a prover is in service, 0 once it was taken out.");
        for (unsigned i = 0; i < n; i++)
                fprintf(f, "cuzk_prover_in_service{prover=\"%u\",device=\"%s\"} %d\n", i, device[i],
                        info[i].in_service);
        header(f, "cuzk_prover_in_hand", "gauge", "Partitions at each prover now.");
        for (unsigned i = 0; i < n; i++)
                fprintf(f, "cuzk_prover_in_hand{prover=\"%u\",device=\"%s\"} %u\n", i, device[i],
                        info[i].in_hand);
        /* Where a batch's time went between partitions: the prover starved (ProverStatus's
         * idle_usec has the definition). */
        header(f, "cuzk_prover_idle_seconds_total", "counter",
               "Seconds each prover was ready with no partition in hand while a job was "
               "unfinished.");
        for (unsigned i = 0; i < n; i++)
                fprintf(f, "cuzk_prover_idle_seconds_total{prover=\"%u\",device=\"%s\"} %.3f\n", i,
                        device[i], (double)info[i].idle_usec / 1e6);
}

static void executor_metrics(FILE *f, const struct cuzkd *d) {
        struct executor_status status;

        if (!d->executor)
                return;
        executor_get_status(d->executor, &status);
        gauge(f, "cuzk_workers_busy", "Synthesis workers running.", status.workers_busy);
        gauge(f, "cuzk_workers_max", "Synthesis worker slots.", status.max_workers);
        counter(f, "cuzk_prover_restarts_total", "Times a prover process was restarted.",
                status.prover_restarts);
        counter(f, "cuzk_worker_stalled_kills_total",
                "Workers killed for making no progress for WorkerStallTimeout=.",
                status.stalled_worker_kills);
        counter(f, "cuzk_prover_stalled_kills_total",
                "Provers killed for making no progress for ProverStallTimeout=.",
                status.stalled_prover_kills);
        counter(f, "cuzk_preload_failures_total",
                "Preloads that no prover could load (their reservation was released).",
                status.preload_failures);
        gauge(f, "cuzk_prover_srs_bytes", "SRS bytes the provers hold.", status.srs_bytes);
        prover_metrics(f, d->executor, status.n_provers);
}

int metrics_format(const struct cuzkd *d, char **ret) {
        struct scheduler_stats st;
        char *text = NULL;
        size_t size = 0;
        FILE *f;

        assert(d);
        assert(ret);
        f = open_memstream(&text, &size);
        if (!f)
                return -ENOMEM;
        scheduler_get_stats(d->scheduler, &st);
        jobs_by_state(f, d);
        job_seconds(f, &d->metrics);
        partitions(f, &st);
        memory(f, d, &st);
        peak_memory(f, d);
        executor_metrics(f, d);
        bpf_watch_write_metrics(&d->bpf, f);
        gauge(f, "cuzk_await_calls", "AwaitProof and Prove calls waiting.",
              job_table_waiter_count(&d->table));
        if (d->spool) {
                gauge(f, "cuzk_spool_bytes", "Bytes the spool's job directories hold.",
                      spool_used_bytes(d->spool));
                gauge(f, "cuzk_spool_max_bytes", "SpoolMaxBytes=: above it jobs are refused.",
                      spool_max_bytes(d->spool));
                gauge(f, "cuzk_spool_quarantined_jobs",
                      "Job directories quarantined as unreadable (<job>.corrupt).",
                      spool_n_quarantined(d->spool));
        }
        if (fclose(f) != 0) {
                free(text);
                return -ENOMEM;
        }
        *ret = text;
        return 0;
}
