/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzkd: the proving daemon. One sd-event loop runs the gRPC server, the
 * job queue and admission (scheduler.h), the memory budget, the PSI
 * triggers and the executor's worker and prover processes. The same binary
 * is the worker and the prover (helper-main.h).
 */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <systemd/sd-daemon.h>
#include <systemd/sd-event.h>

#include "cgroup/cg-domain.h"
#include "cgroup/cg-tree.h"
#include "cgroup/hierarchy.h"
#include "common/cleanup.h"
#include "common/clock.h"
#include "common/log.h"
#include "common/parse-number.h"
#include "daemon/supervisor/api-sd-event.h"
#include "api/api-server.h"
#include "daemon/executor/devices.h"
#include "daemon/supervisor/handlers.h"
#include "daemon/supervisor/intake.h"
#include "daemon/supervisor/preload.h"
#include "daemon/message-ids.h"
#include "daemon/executor/helper-main.h"
#include "daemon/executor/ipc-log.h"
#include "daemon/supervisor/log-journal.h"
#include "daemon/supervisor/cuzkd-args.h"

static void notify_status(const struct cuzkd *d) {
        (void)sd_notifyf(false, "STATUS=%s; %" PRIu64 " of %" PRIu64 " bytes reserved",
                         scheduler_paused(d->scheduler) ? "admission paused by memory pressure"
                                                        : "admitting jobs",
                         d->budget.reserved_bytes, d->budget.total_bytes);
}

static void on_pressure(void *userdata, bool paused) {
        struct cuzkd *d = userdata;

        scheduler_set_paused(d->scheduler, paused);
        notify_status(d);
}

static int on_stop_signal(sd_event_source *source, const struct signalfd_siginfo *si,
                          void *userdata) {
        struct cuzkd *d = userdata;

        if (d->stopping)
                return 0;
        log_info("%s: stopping; unfinished jobs stay in the spool and run at the next start",
                 strsignal((int)si->ssi_signo));
        (void)sd_notify(false, "STOPPING=1");
        d->stopping = true;
        scheduler_stop(d->scheduler);
        return sd_event_exit(sd_event_source_get_event(source), 0);
}

/* TotalBudget= in bytes, or the auto figure when it is 0; source says which. */
static int config_budget_bytes(const struct config *config, uint64_t *ret, char *source,
                               size_t source_size) {
        if (config->total_budget_bytes == 0)
                return budget_auto_detect(config->safety_margin_bytes, ret, source, source_size);
        *ret = config->total_budget_bytes;
        snprintf(source, source_size, "TotalBudget=");
        return 0;
}

/* The command line, kept for reloads: its options still win over the files. */
static struct cuzkd_overrides saved_overrides;

/* Keys that only a restart applies: named in the log when a reload changes them. */
static void note_restart_only(const struct config *old, const struct config *new) {
        static const struct {
                const char *key;
                size_t offset, size;
        } keys[] = {
#define KEY(name, field) {name, offsetof(struct config, field), sizeof(((struct config *)0)->field)}
                KEY("Socket", socket_path),
                KEY("SocketMode", socket_mode),
                KEY("SpoolDirectory", spool_dir),
                KEY("LogTarget", log_target),
                KEY("MaxMessageSize", max_message_bytes),
                KEY("MaxRequestMemory", max_request_memory_bytes),
                KEY("MaxConnections", max_connections),
                KEY("MaxConnectionsPerUser", max_connections_per_user),
                KEY("HandshakeTimeout", handshake_timeout_msec),
                KEY("RequestStallTimeout", request_stall_timeout_msec),
                KEY("IdleTimeout", idle_timeout_msec),
                KEY("WorkerSlack", worker_slack_bytes),
                KEY("Enforcement", enforcement),
                KEY("PressureStall", pressure_stall_msec),
                KEY("PressureWindow", pressure_window_msec),
                KEY("PressureResume", pressure_resume_msec),
                KEY("BPF", bpf),
                KEY("MaxWorkers", max_workers),
                KEY("Threads", prover_threads),
                KEY("WorkerStallTimeout", worker_stall_sec),
                KEY("WorkerNice", worker_nice),
                KEY("ProverStallTimeout", prover_stall_sec),
                KEY("GPU", gpu),
                KEY("Lanes", gpu_tuning.lanes),
                KEY("SrsResidence", gpu_tuning.srs),
                KEY("MsmWindow", gpu_tuning.msm_window_bits),
                KEY("CompactWitness", compact_witness),
#undef KEY
        };

        for (size_t i = 0; i < ELEMENTSOF(keys); i++)
                if (memcmp((const char *)old + keys[i].offset, (const char *)new + keys[i].offset,
                           keys[i].size) != 0)
                        log_warning("reload: %s= changed; it takes effect when cuzkd restarts",
                                    keys[i].key);
        /* These two by value: their padding and the bytes after the string are not. */
        bool devices_changed = old->devices.all != new->devices.all ||
                               old->devices.n != new->devices.n ||
                               memcmp(old->devices.ordinals, new->devices.ordinals,
                                      new->devices.n * sizeof(new->devices.ordinals[0])) != 0;
        if (devices_changed)
                log_warning("reload: Devices= changed; it takes effect when cuzkd restarts");
        if (strcmp(old->preload, new->preload) != 0)
                log_warning("reload: Preload= changed; it takes effect when cuzkd restarts "
                            "(PreloadSRS preloads a circuit now)");
}

/* READY=1 once every prover in service holds the Preload= circuits (at once without
 * any); until then the start timeout is extended and the status line counts the loads. */
static void notify_ready_when_preloaded(struct cuzkd *d) {
        if (d->ready_sent || !d->executor || !executor_preloads_settled(d->executor))
                return;
        d->preload_timer = sd_event_source_disable_unref(d->preload_timer);
        if (d->n_preloads)
                log_info("Preload=: every prover holds its circuits after %.1f s; ready",
                         (double)(clock_now_usec() - d->start_usec) / 1e6);
        (void)sd_notify(false, "READY=1");
        d->ready_sent = true;
        notify_status(d);
}

#define PRELOAD_EXTEND_USEC (30 * 1000000ull)
#define PRELOAD_TICK_USEC (10 * 1000000ull)

static int on_preload_tick(sd_event_source *s, uint64_t usec, void *userdata) {
        struct cuzkd *d = userdata;
        struct executor_status status;
        unsigned done = 0;

        executor_get_status(d->executor, &status);
        for (unsigned i = 0; i < status.n_provers; i++) {
                struct executor_prover_info info;

                if (executor_get_prover(d->executor, i, &info) >= 0 && info.in_service)
                        done += info.preloads_done;
        }
        (void)sd_notifyf(false,
                         "EXTEND_TIMEOUT_USEC=%llu\nSTATUS=Preloading %u circuit(s): %u of %u "
                         "loads done",
                         PRELOAD_EXTEND_USEC, d->n_preloads, done,
                         d->n_preloads * status.provers_in_service);
        (void)sd_event_source_set_time(s, usec + PRELOAD_TICK_USEC);
        (void)sd_event_source_set_enabled(s, SD_EVENT_ONESHOT);
        return 0;
}

static void on_preload_progress(void *userdata) {
        notify_ready_when_preloaded(userdata);
        preload_progress(userdata);
}

/* SIGHUP (systemctl reload): the configuration files again. LogLevel=,
 * TotalBudget=, SafetyMargin=, MaxAttempts= and ResultRetention= apply at
 * once; the others at the next start. A configuration that does not load
 * leaves the running one as it was. */
static int on_hup(sd_event_source *source, const struct signalfd_siginfo *si, void *userdata) {
        struct cuzkd *d = userdata;
        struct config new;
        uint64_t budget = 0;
        char budget_source[PATH_MAX + 128];
        int r;

        (void)source;
        (void)si;
        (void)sd_notify(false, "RELOADING=1");
        r = config_load(&new, saved_overrides.config_path);
        if (r >= 0)
                r = cuzkd_apply_overrides(&new, &saved_overrides);
        if (r >= 0)
                r = config_budget_bytes(&new, &budget, budget_source, sizeof(budget_source));
        if (r < 0) {
                log_error_errno(r, "reload: the configuration did not load (above); keeping "
                                   "the running one");
                if (d->ready_sent)
                        (void)sd_notify(false, "READY=1");
                return 0;
        }
        note_restart_only(&d->config, &new);
        log_set_max_level(new.log_level);
        ipc_log_export_level(new.log_level);
        if (budget != d->budget.total_bytes)
                log_info("reload: memory budget %" PRIu64 " -> %" PRIu64 " bytes",
                         d->budget.total_bytes, budget);
        budget_set_total(&d->budget, budget);
        job_table_change_retention(&d->table, new.result_retention_sec * 1000000);
        if (new.spool_max_bytes != d->config.spool_max_bytes)
                (void)spool_set_max_bytes(d->spool, new.spool_max_bytes);
        d->config = new;
        scheduler_reconfigure(d->scheduler, new.max_attempts);
        log_info("reload: configuration from %s applied", saved_overrides.config_path);
        if (d->ready_sent) /* else READY=1 comes when the preloads are in */
                (void)sd_notify(false, "READY=1");
        notify_status(d);
        return 0;
}

/* The budget: TotalBudget= or auto, logged once. It runs after setup_domain() has moved
 * us into supervisor/, whose memory.max is "max": auto takes the smallest limit of our
 * cgroup and all its ancestors (budget_cgroup_limit()), so the move changes nothing, here
 * or on a reload. */
static int setup_budget(struct cuzkd *d) {
        char source[PATH_MAX + 128];
        uint64_t bytes;
        int r;

        r = config_budget_bytes(&d->config, &bytes, source, sizeof(source));
        if (r < 0)
                return r;
        budget_init(&d->budget, bytes);
        char budget_text[24];
        snprintf(budget_text, sizeof(budget_text), "%" PRIu64, bytes);
        log_fields(LOG_INFO, 0,
                   LOG_FIELDS({"MESSAGE_ID", CUZK_MID_ENFORCEMENT_MODE},
                              {"CUZK_ENFORCEMENT", d->enforcement},
                              {"CUZK_BUDGET_BYTES", budget_text}),
                   "memory budget: %" PRIu64 " bytes (%.1f GiB, from %s); enforcement: %s", bytes,
                   (double)bytes / (1 << 30), source, d->enforcement);
        return 0;
}

/* Which kernel mechanism enforces the workers' limits; Enforcement= other than auto must
 * be what the host offers (RLIMIT_DATA can always be had). */
static int setup_domain(struct cuzkd *d, cg_hierarchy_t *hierarchy, cg_domain_t *domain) {
        static const cg_enforcement_t wanted[] = {
                [CONFIG_ENFORCE_CGROUP2] = CG_ENFORCEMENT_V2,
                [CONFIG_ENFORCE_CGROUP1] = CG_ENFORCEMENT_V1_MEMORY,
                [CONFIG_ENFORCE_RLIMIT] = CG_ENFORCEMENT_RLIMIT_DATA,
        };
        enum config_enforcement e = d->config.enforcement;
        int r;

        if (e == CONFIG_ENFORCE_NONE)
                return log_error_errno(-EOPNOTSUPP,
                                       "Enforcement=none: cuzkd always bounds its workers; use "
                                       "rlimit for the weakest enforcement");
        r = cg_hierarchy_detect(hierarchy);
        if (r < 0)
                return log_error_errno(r, "Failed to find our cgroups: %m");
        r = cg_domain_open(hierarchy, domain);
        if (r < 0)
                return log_error_errno(r, "Failed to choose the memory enforcement: %m");
        if (e == CONFIG_ENFORCE_RLIMIT && domain->enforcement != CG_ENFORCEMENT_RLIMIT_DATA) {
                cg_domain_close(domain);
                *domain = (cg_domain_t){.enforcement = CG_ENFORCEMENT_RLIMIT_DATA,
                                        .own_dirfd = -EBADF};
        } else if (e != CONFIG_ENFORCE_AUTO && domain->enforcement != wanted[e])
                return log_error_errno(
                        -EOPNOTSUPP, "Enforcement=%s was asked for, but this host offers %s",
                        cg_enforcement_name(wanted[e]), cg_domain_enforcement_name(domain));
        snprintf(d->enforcement, sizeof(d->enforcement), "%s", cg_domain_enforcement_name(domain));
        if (domain->enforcement != CG_ENFORCEMENT_RLIMIT_DATA) {
                snprintf(d->cgroup_dir, sizeof(d->cgroup_dir), "%s", domain->own_path);
                d->cgroup_v2 = domain->enforcement == CG_ENFORCEMENT_V2;
        }
        if (domain->enforcement == CG_ENFORCEMENT_V2) {
                _cleanup_close_ int supervisor_fd = -EBADF;

                /* The no-internal-process rule: our cgroup gets children (synth/, the
                 * prover's) with the memory controller, so we live in supervisor/. */
                r = cg_move_self_into(domain->own_dirfd, "supervisor", &supervisor_fd);
                if (r < 0)
                        return log_error_errno(r, "Failed to move cuzkd into %s/supervisor: %m",
                                               domain->own_path);
        }
        return 0;
}

/* CUZKD_TEST_PRESSURE_FILE stands in for /proc/pressure/memory in the tests; a
 * package build has no such hook (meson -Dtest_hooks=false). */
static const char *test_pressure_file(void) {
#if CUZK_TEST_HOOKS
        return getenv("CUZKD_TEST_PRESSURE_FILE");
#else
        return NULL;
#endif
}

static int setup_pressure(struct cuzkd *d, const cg_hierarchy_t *hierarchy) {
        struct pressure_options options = {
                .stall_usec = d->config.pressure_stall_msec * 1000,
                .window_usec = d->config.pressure_window_msec * 1000,
                .resume_usec = d->config.pressure_resume_msec * 1000,
                .cgroup_dir = hierarchy->kind == CG_HIERARCHY_V2 ? hierarchy->v2_dir : NULL,
                .system_file = test_pressure_file(),
        };

        return pressure_new(d->event, &options, on_pressure, d, &d->pressure);
}

static int setup_executor(struct cuzkd *d, const cg_domain_t *domain) {
        char helper[PATH_MAX];
        ssize_t n;
        long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        struct executor_options options = {
                .domain = domain,
                .max_workers = d->config.max_workers ? d->config.max_workers
                                                     : (unsigned)(cpus > 0 ? cpus : 1),
                .prover_threads = d->config.prover_threads,
                .worker_slack_bytes = d->config.worker_slack_bytes,
                .worker_stall_usec = d->config.worker_stall_sec * 1000000,
                .prover_stall_usec = d->config.prover_stall_sec * 1000000,
                .worker_nice = d->config.worker_nice,
                .helper_path = helper,
                .use_gpu = d->config.gpu != CONFIG_NO,
                .gpu_tuning = &d->config.gpu_tuning,
                .compact_witness = d->config.compact_witness == CONFIG_YES ? EXECUTOR_COMPACT_YES
                                   : d->config.compact_witness == CONFIG_AUTO
                                           ? EXECUTOR_COMPACT_AUTO
                                           : EXECUTOR_COMPACT_NO,
        };
        bool any_gpu = d->config.devices.all;
        int r;

        /* Asking the CUDA runtime only where a GPU could be meant. */
        for (unsigned i = 0; i < d->config.devices.n; i++)
                any_gpu = any_gpu || d->config.devices.ordinals[i] != CONFIG_DEVICE_CPU;
        r = devices_resolve(&d->config.devices, d->config.gpu,
                            any_gpu && d->config.gpu != CONFIG_NO ? devices_gpu_count() : 0,
                            options.devices, &options.n_devices);
        if (r < 0)
                return r;
        n = readlink("/proc/self/exe", helper, sizeof(helper) - 1);
        if (n < 0)
                return log_error_errno(errno, "Failed to resolve /proc/self/exe: %m");
        helper[n] = '\0';
        return executor_new(d->event, &options, &scheduler_executor_callbacks, d->scheduler,
                            &d->executor);
}

static int listen_api(struct cuzkd *d, struct api_server *server) {
        int n = sd_listen_fds(true);

        if (n > 1)
                return log_error_errno(-EINVAL, "socket activation passed %d sockets, expected 1",
                                       n);
        if (n == 1) {
                log_info("serving the socket passed by systemd");
                return api_server_listen_fd(server, SD_LISTEN_FDS_START);
        }
        return api_server_listen_unix(server, d->config.socket_path, d->config.socket_mode);
}

/* Signals, the event loop and the job table: what the rest is built on. */
static int setup_loop(struct cuzkd *d) {
        sigset_t mask;
        int r;

        sigemptyset(&mask);
        sigaddset(&mask, SIGTERM);
        sigaddset(&mask, SIGINT);
        sigaddset(&mask, SIGHUP);
        sigprocmask(SIG_BLOCK, &mask, NULL);
        /* A client that goes away mid-write must not kill the daemon. */
        signal(SIGPIPE, SIG_IGN);

        d->start_usec = clock_now_usec();
        r = sd_event_default(&d->event);
        if (r < 0)
                return log_error_errno(r, "Failed to create the event loop: %m");
        /* WATCHDOG=1 from this loop (the one that serves admission), at half
         * of WatchdogSec= when systemd asks for it. */
        (void)sd_event_set_watchdog(d->event, true);
        job_table_init(&d->table, d->event);
        (void)sd_event_add_signal(d->event, NULL, SIGTERM, on_stop_signal, d);
        (void)sd_event_add_signal(d->event, NULL, SIGINT, on_stop_signal, d);
        (void)sd_event_add_signal(d->event, NULL, SIGHUP, on_hup, d);
        return 0;
}

/* A timeout of cuzkd.conf (milliseconds, 0: none) as the API server takes it. */
static uint64_t api_timeout_usec(uint64_t msec) {
        return msec == 0 ? API_TIMEOUT_NEVER : msec * 1000;
}

static struct api_server_options api_options_from_config(const struct config *c) {
        return (struct api_server_options){
                .max_message_bytes = c->max_message_bytes,
                .max_connections = c->max_connections,
                .max_request_memory_bytes = c->max_request_memory_bytes,
                .max_connections_per_user = c->max_connections_per_user,
                .handshake_timeout_usec = api_timeout_usec(c->handshake_timeout_msec),
                .stall_timeout_usec = api_timeout_usec(c->request_stall_timeout_msec),
                .idle_timeout_usec = api_timeout_usec(c->idle_timeout_msec),
        };
}

/* The supervisor's parts in order: cgroups, budget, pressure, spool, scheduler,
 * executor, probes; the spooled jobs queued again; the API server listening. */
static int setup_parts(struct cuzkd *d, cg_domain_t *domain, struct api_server **server,
                       struct api_event_loop *loop) {
        struct scheduler_callbacks callbacks = {.job_ended = cuzkd_job_ended,
                                                .preload_progress = on_preload_progress};
        struct scheduler_options options = {.max_attempts = d->config.max_attempts};
        struct api_server_options server_options = api_options_from_config(&d->config);
        cg_hierarchy_t hierarchy;
        int r;

        /* The spool first: its lock stops a second cuzkd on the same spool before it
         * touches the first one's cgroups or socket. */
        r = spool_open(d->config.spool_dir, &d->spool);
        if (r >= 0)
                r = spool_set_max_bytes(d->spool, d->config.spool_max_bytes);
        if (r >= 0)
                r = spool_writer_new(d->event, d->spool, cuzkd_result_spooled, d, &d->spool_writer);
        if (r >= 0)
                r = setup_domain(d, &hierarchy, domain);
        if (r >= 0)
                r = setup_budget(d);
        if (r >= 0)
                r = setup_pressure(d, &hierarchy);
        if (r >= 0)
                r = scheduler_new(d->event, &d->budget, &options, &callbacks, d, &d->scheduler);
        if (r >= 0)
                r = setup_executor(d, domain);
        if (r >= 0)
                r = bpf_watch_setup(d);
        if (r >= 0)
                r = job_table_set_retention(&d->table, d->config.result_retention_sec * 1000000,
                                            cuzkd_job_forgotten, d);
        if (r >= 0) {
                struct executor_status status;

                executor_get_status(d->executor, &status);
                scheduler_set_executor(d->scheduler, d->executor, status.n_provers);
                /* Before the spool's jobs: the unfinished ones are checked again there, off
                 * the loop, while the socket is served already. Its queue holds a few of
                 * the largest requests (their inline inputs). */
                r = intake_new(d->event, d->spool, UINT64_C(4) * d->config.max_message_bytes,
                               cuzkd_intake_done, d, &d->intake);
        }
        if (r >= 0) {
                r = spool_load_all(d->spool, cuzkd_load_spooled, d);
        }
        if (r >= 0) {
                api_sd_event_interface(d->event, loop);
                r = api_server_new(loop, &cuzkd_api_handler, d, &server_options, server);
        }
        if (r >= 0)
                r = listen_api(d, *server);
        return r;
}

/* Says it is ready (once the Preload= circuits are in) and runs the loop until a stop. */
static int serve(struct cuzkd *d) {
        char budget_text[24];
        int r;

        snprintf(d->status_enforcement, sizeof(d->status_enforcement), "%s; pressure: PSI%s",
                 d->enforcement, bpf_watch_active(&d->bpf) ? " and eBPF probes" : " alone");
        snprintf(budget_text, sizeof(budget_text), "%" PRIu64, d->budget.total_bytes);
        log_fields(LOG_INFO, 0,
                   LOG_FIELDS({"MESSAGE_ID", CUZK_MID_DAEMON_STARTED},
                              {"CUZK_SOCKET", d->config.socket_path},
                              {"CUZK_BUDGET_BYTES", budget_text},
                              {"CUZK_ENFORCEMENT", d->enforcement}),
                   "cuzkd ready on %s: budget %" PRIu64 " bytes, %u PSI trigger(s), "
                   "eBPF probes %s, enforcement %s, spool %s",
                   d->config.socket_path, d->budget.total_bytes,
                   d->pressure ? pressure_trigger_count(d->pressure) : 0, d->bpf.summary,
                   d->enforcement, d->config.spool_dir);
        d->n_preloads = preload_configured(d);
        if (!executor_preloads_settled(d->executor)) {
                (void)sd_notifyf(false, "EXTEND_TIMEOUT_USEC=%llu", PRELOAD_EXTEND_USEC);
                (void)sd_event_add_time_relative(d->event, &d->preload_timer, CLOCK_MONOTONIC,
                                                 PRELOAD_TICK_USEC, 0, on_preload_tick, d);
        }
        notify_ready_when_preloaded(d);
        r = sd_event_loop(d->event);
        if (r < 0)
                log_error_errno(r, "The event loop failed: %m");
        return r;
}

static int run(struct cuzkd *d) {
        struct api_server *server = NULL;
        struct api_event_loop loop;
        cg_domain_t domain = {.own_dirfd = -EBADF};
        int r;

        r = setup_loop(d);
        if (r < 0)
                return r;
        r = setup_parts(d, &domain, &server, &loop);
        if (r >= 0)
                r = serve(d);

        d->preload_timer = sd_event_source_disable_unref(d->preload_timer);
        /* The server first: its open calls are abandoned, which forgets their waiters. */
        api_server_free(server);
        /* Then the intake: its thread finishes the request in hand (what it spooled runs at
         * the next start); the spool it writes to goes after it. */
        d->intake = intake_free(d->intake);
        job_table_drop_waiters(&d->table);
        /* The probes before the cgroups they watch go. */
        bpf_watch_done(&d->bpf);
        executor_free(d->executor);
        d->scheduler = scheduler_free(d->scheduler);
        d->pressure = pressure_free(d->pressure);
        /* What the spool writer has queued is written before the spool goes: a result
         * that ended before SIGTERM is not lost. */
        d->spool_writer = spool_writer_free(d->spool_writer);
        spool_free(d->spool);
        job_table_done(&d->table);
        cg_domain_close(&domain);
        d->event = sd_event_unref(d->event);
        return r;
}

int main(int argc, char **argv) {
        static struct cuzkd daemon;
        struct cuzkd_overrides overrides;
        int r;

        if (argc > 1 && !strcmp(argv[1], "--worker"))
                return worker_main(argc, argv);
        if (argc > 1 && !strcmp(argv[1], "--prover"))
                return prover_main(argc, argv);

        r = cuzkd_parse_args(argc, argv, &overrides);
        if (r <= 0)
                return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
        r = config_load(&daemon.config, overrides.config_path);
        if (r < 0)
                return EXIT_FAILURE; /* config_load said where and why */
        r = cuzkd_apply_overrides(&daemon.config, &overrides);
        if (r < 0)
                return EXIT_FAILURE;
        saved_overrides = overrides;
        log_set_max_level(daemon.config.log_level);
        ipc_log_export_level(daemon.config.log_level);
        (void)log_journal_setup(daemon.config.log_target);

        r = run(&daemon);
        return r < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}
