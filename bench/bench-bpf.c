/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The cost of bpf/memwatch's probes on a reclaiming workload. A child in a memory cgroup
 * limited to 32 MiB (v1 memory on hybrid hosts, v2 elsewhere) reads a 256 MiB file that
 * was dropped from the page cache (every page charged, then reclaimed: memcg reclaim
 * throughout) and touches 8 x 24 MiB of anonymous memory, in three modes, interleaved:
 *   no probes         memwatch not loaded
 *   probes, unwatched loaded and attached, the cgroup not watched (the in-kernel filter)
 *   probes, watched   the cgroup watched, its events read by this process meanwhile
 * and the median child wall and system time of each mode are printed as a markdown table
 * with the events seen and the probes' own invocations and run time (the kernel's BPF
 * run-time statistics, enabled meanwhile). Needs root.
 * Usage: bench-bpf [--runs N] [--file-mib M]     (defaults: 5, 256)
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>

#include "bpf/memwatch.h"
#include "cgroup/cg-domain.h"
#include "cgroup/cg-tree.h"
#include "cgroup/hierarchy.h"
#include "common/cleanup.h"
#include "common/log.h"

#define MiB (1u << 20)
#define LIMIT_BYTES (32 * MiB)
#define ANON_ROUNDS 8
#define ANON_BYTES (24 * MiB)
#define MAX_RUNS 31

enum { MODE_NONE, MODE_UNWATCHED, MODE_WATCHED, N_MODES };
static const char *const mode_names[N_MODES] = {"no probes", "probes, unwatched",
                                                "probes, watched"};

typedef struct run_result {
        double wall_ms;
        double sys_ms;
        uint64_t events;
        uint64_t probe_runs; /* program invocations, all programs (kernel statistics) */
        uint64_t probe_ns;   /* their run time */
} run_result_t;

static uint64_t events_seen;

static void count_event(const memwatch_event_t *event, void *userdata) {
        (void)event;
        (void)userdata;
        events_seen++;
}

static double now_ms(void) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

/* The workload, in the child: read the file, then fault anonymous memory in and out. */
static int workload(int file_fd) {
        static char buf[MiB];
        ssize_t n;

        while ((n = read(file_fd, buf, sizeof(buf))) > 0)
                ;
        if (n < 0)
                return 2;
        for (int round = 0; round < ANON_ROUNDS; round++) {
                char *memory = malloc(ANON_BYTES);
                if (!memory)
                        return 3;
                for (size_t i = 0; i < ANON_BYTES; i += 4096)
                        ((volatile char *)memory)[i] = (char)round;
                free(memory);
        }
        return 0;
}

/* Creates the file the workload reads, on the disk of /var/tmp, unlinked. */
static int make_file(unsigned mib, int *ret_fd) {
        char path[] = "/var/tmp/cuzk-bench-bpf-XXXXXX";
        static char chunk[MiB];
        _cleanup_close_ int fd = mkstemp(path);

        if (fd < 0)
                return log_error_errno(errno, "bench-bpf: creating %s: %m", path);
        unlink(path);
        memset(chunk, 0x5a, sizeof(chunk));
        for (unsigned i = 0; i < mib; i++)
                if (write(fd, chunk, sizeof(chunk)) != (ssize_t)sizeof(chunk))
                        return log_error_errno(errno, "bench-bpf: writing %s: %m", path);
        if (fsync(fd) < 0)
                return log_error_errno(errno, "bench-bpf: fsync %s: %m", path);
        *ret_fd = TAKE_FD(fd);
        return 0;
}

/* One run: drop the file from the page cache, fork the child into worker, read events
 * until it exits. */
static int run_once(memwatch_t *mw, int worker_fd, int file_fd, run_result_t *ret) {
        struct pollfd pfd = {.fd = mw ? memwatch_fd(mw) : -1, .events = POLLIN};
        uint64_t runs_before = 0, ns_before = 0, runs_after = 0, ns_after = 0;
        struct rusage usage;
        double start;
        int status, r;
        pid_t pid;

        if (posix_fadvise(file_fd, 0, 0, POSIX_FADV_DONTNEED) != 0 ||
            lseek(file_fd, 0, SEEK_SET) < 0)
                return log_error_errno(errno, "bench-bpf: resetting the file: %m");
        events_seen = 0;
        if (mw && (r = memwatch_probe_runtime(mw, &runs_before, &ns_before)) < 0)
                return r;
        start = now_ms();
        pid = fork();
        if (pid < 0)
                return log_error_errno(errno, "bench-bpf: fork: %m");
        if (pid == 0) {
                if (cg_move_pid(worker_fd, getpid()) < 0)
                        _exit(1);
                _exit(workload(file_fd));
        }
        for (;;) {
                pid_t r = wait4(pid, &status, WNOHANG, &usage);
                if (r == pid)
                        break;
                if (r < 0)
                        return log_error_errno(errno, "bench-bpf: wait4: %m");
                if (mw && poll(&pfd, 1, 5) > 0)
                        (void)memwatch_consume(mw);
                else if (!mw)
                        (void)poll(NULL, 0, 5);
        }
        ret->wall_ms = now_ms() - start;
        if (mw) {
                (void)memwatch_consume(mw);
                r = memwatch_probe_runtime(mw, &runs_after, &ns_after);
                if (r < 0)
                        return r;
        }
        ret->probe_runs = runs_after - runs_before;
        ret->probe_ns = ns_after - ns_before;
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
                return log_error_errno(EIO, "bench-bpf: workload ended with status 0x%x", status);
        ret->sys_ms = (double)usage.ru_stime.tv_sec * 1e3 + (double)usage.ru_stime.tv_usec * 1e-3;
        ret->events = events_seen;
        return 0;
}

static int compare_double(const void *a, const void *b) {
        double x = *(const double *)a, y = *(const double *)b;
        return (x > y) - (x < y);
}

/* The median of the runs' wall (or child system) times. */
static double median(const run_result_t *runs, unsigned n, bool sys) {
        double values[MAX_RUNS] = {0};

        for (unsigned i = 0; i < n; i++)
                values[i] = sys ? runs[i].sys_ms : runs[i].wall_ms;
        qsort(values, n, sizeof(values[0]), compare_double);
        return values[n / 2];
}

/* The three modes, interleaved so that drift of the shared machine spreads over all of
 * them; "no probes" means detached, so memwatch is loaded again after it. */
static int measure(int worker_fd, uint64_t worker_id, int file_fd, unsigned runs,
                   run_result_t results[N_MODES][MAX_RUNS], uint64_t *ret_counted,
                   unsigned *ret_probes) {
        _cleanup_memwatch_ memwatch_t *mw = NULL;
        memwatch_counters_t counters;
        int r;

        *ret_counted = 0;
        for (unsigned run = 0; run < runs; run++)
                for (int mode = 0; mode < N_MODES; mode++) {
                        if (mode == MODE_NONE)
                                mw = memwatch_free(mw);
                        else if (!mw) {
                                r = memwatch_new(count_event, NULL, &mw);
                                if (r < 0)
                                        return r;
                                *ret_probes = memwatch_probes(mw);
                                /* Its "attached" line once is enough. */
                                log_set_max_level(LOG_WARNING);
                        }
                        if (mode == MODE_WATCHED) {
                                r = memwatch_watch(mw, worker_fd, NULL);
                                if (r < 0)
                                        return r;
                        }
                        r = run_once(mw, worker_fd, file_fd, &results[mode][run]);
                        if (r < 0)
                                return r;
                        if (mode == MODE_WATCHED) {
                                r = memwatch_counters(mw, worker_id, &counters);
                                if (r < 0)
                                        return r;
                                *ret_counted += counters.events[MEMWATCH_MEMCG_RECLAIM];
                                r = memwatch_unwatch(mw, worker_id);
                                if (r < 0)
                                        return r;
                        }
                }
        return 0;
}

static void print_table(const cg_domain_t *domain, unsigned file_mib, unsigned runs,
                        unsigned probes, run_result_t results[N_MODES][MAX_RUNS],
                        uint64_t counted) {
        double base = median(results[MODE_NONE], runs, false);

        printf("bench-bpf: %u MiB file read + %d x %u MiB anonymous through a %u MiB %s "
               "cgroup; median of %u runs; probes 0x%x\n\n",
               file_mib, ANON_ROUNDS, ANON_BYTES / MiB, LIMIT_BYTES / MiB,
               cg_domain_enforcement_name(domain), runs, probes);
        printf("| mode | wall ms | child sys ms | events per run | probe runs per run | probe "
               "time per run | wall vs no probes |\n");
        printf("|---|---:|---:|---:|---:|---:|---:|\n");
        for (int mode = 0; mode < N_MODES; mode++) {
                double wall = median(results[mode], runs, false);
                uint64_t events = 0, probe_runs = 0, probe_ns = 0;

                for (unsigned run = 0; run < runs; run++) {
                        events += results[mode][run].events;
                        probe_runs += results[mode][run].probe_runs;
                        probe_ns += results[mode][run].probe_ns;
                }
                printf("| %s | %.1f | %.1f | %llu | %llu | %.1f us | %+.1f%% |\n", mode_names[mode],
                       wall, median(results[mode], runs, true), (unsigned long long)(events / runs),
                       (unsigned long long)(probe_runs / runs), (double)probe_ns / runs / 1e3,
                       (wall / base - 1) * 100);
        }
        printf("\nmemcg reclaim intervals counted in the kernel while watched: %llu per run\n",
               (unsigned long long)(counted / runs));
}

int main(int argc, char **argv) {
        static const struct option options[] = {{"runs", required_argument, NULL, 'r'},
                                                {"file-mib", required_argument, NULL, 'f'},
                                                {}};
        static run_result_t results[N_MODES][MAX_RUNS];
        cg_worker_limits_t limits = {.high_bytes = CG_LIMIT_MAX, .max_bytes = LIMIT_BYTES};
        _cleanup_close_ int file_fd = -EBADF, worker_fd = -EBADF, stats_fd = -EBADF;
        cg_domain_t domain = {.own_dirfd = -EBADF};
        unsigned runs = 5, file_mib = 256, probes = 0;
        uint64_t worker_id, counted;
        cg_hierarchy_t hierarchy;
        char name[64];
        int opt, r;

        while ((opt = getopt_long(argc, argv, "", options, NULL)) != -1) {
                if (opt == 'r')
                        runs = (unsigned)strtoul(optarg, NULL, 10);
                else if (opt == 'f')
                        file_mib = (unsigned)strtoul(optarg, NULL, 10);
                else
                        return 2;
        }
        if (runs < 1 || runs > MAX_RUNS || file_mib < 64) {
                fprintf(stderr, "bench-bpf: --runs 1..%d, --file-mib >= 64\n", MAX_RUNS);
                return 2;
        }

        r = cg_hierarchy_detect(&hierarchy);
        if (r >= 0)
                r = cg_domain_open(&hierarchy, &domain);
        if (r < 0 || domain.enforcement == CG_ENFORCEMENT_RLIMIT_DATA) {
                fprintf(stderr, "bench-bpf: needs root and a writable memory cgroup\n");
                cg_domain_close(&domain);
                return 77;
        }
        snprintf(name, sizeof(name), "cuzk-bench-bpf-%d", (int)getpid());
        r = cg_child_create(domain.own_dirfd, name, &worker_fd);
        if (r >= 0)
                r = cg_domain_set_limits(&domain, worker_fd, &limits);
        if (r >= 0)
                r = memwatch_cgroup_id(worker_fd, &worker_id);
        if (r >= 0)
                r = make_file(file_mib, &file_fd);
        /* Run-time statistics of every BPF program while this fd is open (kernel-wide). */
        stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
        if (stats_fd < 0)
                fprintf(stderr, "bench-bpf: no BPF run-time statistics: %s\n", strerror(errno));
        if (r >= 0)
                r = measure(worker_fd, worker_id, file_fd, runs, results, &counted, &probes);
        if (r >= 0)
                print_table(&domain, file_mib, runs, probes, results, counted);

        /* Uncharge the file's pages, or the removed cgroup would linger as a dying memcg. */
        if (file_fd >= 0)
                (void)posix_fadvise(file_fd, 0, 0, POSIX_FADV_DONTNEED);
        if (worker_fd >= 0)
                (void)cg_child_remove(domain.own_dirfd, name);
        cg_domain_close(&domain);
        if (r == -EOPNOTSUPP)
                return 77;
        return r < 0 ? 1 : 0;
}
