/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzkd.conf's keys: a table of (section, name, parser, field), the value
 * parsers and the defaults. The files are read by config-load.c.
 */
#include "config.h"

#include <assert.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <ini.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "common/parse-number.h"

#include "daemon/executor/executor.h"
#include "daemon/supervisor/config-keys.h"

int config_parse_size(const char *value, bool allow_auto, uint64_t *ret) {
        static const char suffixes[] = "KMGT";
        unsigned long long v;
        const char *suffix;
        char *end;

        assert(value);
        assert(ret);

        if (allow_auto && !strcmp(value, "auto")) {
                *ret = 0;
                return 0;
        }
        if (value[0] < '0' || value[0] > '9')
                return -EINVAL;
        errno = 0;
        v = strtoull(value, &end, 10);
        if (errno == ERANGE)
                return -ERANGE;
        if (!*end) {
                *ret = v;
                return 0;
        }
        /* One suffix, optionally followed by "iB" or "B": 64M, 64MiB, 64MB are all 2^26. */
        suffix = strchr(suffixes, end[0]);
        if (!suffix || !end[0])
                return -EINVAL;
        if (end[1] && strcmp(end + 1, "B") && strcmp(end + 1, "iB"))
                return -EINVAL;
        for (const char *s = suffixes; s <= suffix; s++) {
                if (v > UINT64_MAX / 1024)
                        return -ERANGE;
                v *= 1024;
        }
        *ret = v;
        return 0;
}

static int parse_size(const char *value, void *field) {
        return config_parse_size(value, false, field);
}

static int parse_size_auto(const char *value, void *field) {
        return config_parse_size(value, true, field);
}

/* What the API's gRPC framing can carry (a 32-bit length), and enough for
 * a 32 GiB PoRep C1 envelope (~51 MB) at the bottom. */
static int parse_message_size(const char *value, void *field) {
        uint64_t v;
        int r = config_parse_size(value, false, &v);

        if (r < 0)
                return r;
        if (v < 1024 * 1024 || v > UINT32_MAX)
                return -ERANGE;
        *(uint64_t *)field = v;
        return 0;
}

static int parse_path(const char *value, void *field, size_t size) {
        if (value[0] != '/')
                return -EINVAL;
        if (strlen(value) >= size)
                return -ERANGE;
        strcpy(field, value);
        return 0;
}

static int parse_socket_path(const char *value, void *field) {
        /* bind() takes at most sizeof(sun_path) - 1 characters. */
        return parse_path(value, field, sizeof(((struct sockaddr_un *)0)->sun_path));
}

static int parse_dir_path(const char *value, void *field) {
        return parse_path(value, field, sizeof(((struct config *)0)->spool_dir));
}

static int parse_mode(const char *value, void *field) {
        uint64_t v;
        int r = parse_unsigned_range(value, 0, 07777, 8, &v);

        if (r < 0)
                return r;
        *(unsigned *)field = (unsigned)v;
        return 0;
}

/* A name from names[] (their index is the value), case-insensitive. */
static int parse_name(const char *value, const char *const *names, size_t n_names, int *ret) {
        for (size_t i = 0; i < n_names; i++)
                if (names[i] && !strcasecmp(value, names[i])) {
                        *ret = (int)i;
                        return 0;
                }
        return -EINVAL;
}

static int parse_log_target(const char *value, void *field) {
        static const char *const names[] = {
                [CONFIG_LOG_AUTO] = "auto",
                [CONFIG_LOG_JOURNAL] = "journal",
                [CONFIG_LOG_STDERR] = "stderr",
        };
        int v, r = parse_name(value, names, ELEMENTSOF(names), &v);

        if (r < 0)
                return r;
        *(enum config_log_target *)field = (enum config_log_target)v;
        return 0;
}

static int parse_log_level(const char *value, void *field) {
        /* syslog's names, as systemd's LogLevel= takes them, and their numbers. */
        static const char *const names[] = {
                [LOG_EMERG] = "emerg", [LOG_ALERT] = "alert",     [LOG_CRIT] = "crit",
                [LOG_ERR] = "err",     [LOG_WARNING] = "warning", [LOG_NOTICE] = "notice",
                [LOG_INFO] = "info",   [LOG_DEBUG] = "debug",
        };
        uint64_t n;
        int v;

        if (parse_name(value, names, ELEMENTSOF(names), &v) < 0) {
                if (parse_unsigned_range(value, LOG_EMERG, LOG_DEBUG, 10, &n) < 0)
                        return -EINVAL;
                v = (int)n;
        }
        *(int *)field = v;
        return 0;
}

static int parse_enforcement(const char *value, void *field) {
        static const char *const names[] = {
                [CONFIG_ENFORCE_AUTO] = "auto",       [CONFIG_ENFORCE_CGROUP2] = "cgroup2",
                [CONFIG_ENFORCE_CGROUP1] = "cgroup1", [CONFIG_ENFORCE_RLIMIT] = "rlimit",
                [CONFIG_ENFORCE_NONE] = "none",
        };
        int v, r = parse_name(value, names, ELEMENTSOF(names), &v);

        if (r < 0)
                return r;
        *(enum config_enforcement *)field = (enum config_enforcement)v;
        return 0;
}

static int parse_tristate(const char *value, void *field) {
        static const char *const yes[] = {"yes", "true", "on", "1"};
        static const char *const no[] = {"no", "false", "off", "0"};
        int v;

        if (!strcasecmp(value, "auto"))
                *(enum config_tristate *)field = CONFIG_AUTO;
        else if (parse_name(value, yes, ELEMENTSOF(yes), &v) == 0)
                *(enum config_tristate *)field = CONFIG_YES;
        else if (parse_name(value, no, ELEMENTSOF(no), &v) == 0)
                *(enum config_tristate *)field = CONFIG_NO;
        else
                return -EINVAL;
        return 0;
}

static int parse_msec_into(const char *value, void *field, uint64_t min, uint64_t max) {
        uint64_t v;
        int r = parse_unsigned_range(value, min, max, 10, &v);

        if (r < 0)
                return r;
        *(uint64_t *)field = v;
        return 0;
}

/* The kernel's PSI trigger limits: 500 ms <= window <= 10 s, 0 < stall <= window. */
static int parse_psi_window(const char *value, void *field) {
        return parse_msec_into(value, field, 500, 10000);
}

static int parse_psi_stall(const char *value, void *field) {
        return parse_msec_into(value, field, 1, 10000);
}

static int parse_resume(const char *value, void *field) {
        return parse_msec_into(value, field, 0, 3600 * 1000);
}

/* Seconds a worker or prover may make no progress before it is killed (0: never). */
static int parse_stall_timeout(const char *value, void *field) {
        return parse_msec_into(value, field, 0, 86400);
}

/* Seconds an ended job's result is kept (0: until it was delivered once); up to ten years. */
static int parse_retention(const char *value, void *field) {
        return parse_msec_into(value, field, 0, 315360000);
}

static int parse_unsigned_into(const char *value, void *field, uint64_t min, uint64_t max) {
        uint64_t v;
        int r = parse_unsigned_range(value, min, max, 10, &v);

        if (r < 0)
                return r;
        *(unsigned *)field = (unsigned)v;
        return 0;
}

static int parse_max_workers(const char *value, void *field) {
        return parse_unsigned_into(value, field, 0, 4096);
}

static int parse_queued_jobs(const char *value, void *field) {
        return parse_unsigned_into(value, field, 1, 1000000);
}

/* AdminGroup=: a group name, resolved now (a group that does not exist is an error in the
 * file, not a surprise later), or a gid; "none" or empty for none. */
static int parse_admin_group(const char *value, void *field) {
        char buf[4096];
        struct group grp, *found = NULL;
        uint64_t gid;

        if (!*value || !strcasecmp(value, "none")) {
                *(int64_t *)field = -1;
                return 0;
        }
        if (parse_unsigned_range(value, 0, UINT32_MAX - 1, 10, &gid) == 0) {
                *(int64_t *)field = (int64_t)gid;
                return 0;
        }
        if (getgrnam_r(value, &grp, buf, sizeof(buf), &found) != 0 || !found)
                return -EINVAL;
        *(int64_t *)field = (int64_t)found->gr_gid;
        return 0;
}

/* SpoolMaxBytes=: auto (0 here, spool.h says what it becomes) or at least 1M. */
static int parse_spool_max(const char *value, void *field) {
        uint64_t v;
        int r = config_parse_size(value, true, &v);

        if (r < 0)
                return r;
        if (v != 0 && v < 1024 * 1024)
                return -ERANGE;
        *(uint64_t *)field = v;
        return 0;
}

/* MaxRequestMemory=: at least 1M, at most 1T (at least MaxMessageSize=, checked at start). */
static int parse_request_memory(const char *value, void *field) {
        uint64_t v;
        int r = config_parse_size(value, false, &v);

        if (r < 0)
                return r;
        if (v < 1024 * 1024 || v > (1ull << 40))
                return -ERANGE;
        *(uint64_t *)field = v;
        return 0;
}

static int parse_connections(const char *value, void *field) {
        return parse_unsigned_into(value, field, 1, 65536);
}

/* The API server's timeouts, milliseconds (0: none), up to a day. */
static int parse_api_timeout(const char *value, void *field) {
        return parse_msec_into(value, field, 0, 86400 * 1000);
}

/* WorkerNice=: 0 (cuzkd's own) to WORKER_NICE_MAX (daemon/executor/executor.h says why). */
static int parse_worker_nice(const char *value, void *field) {
        return parse_unsigned_into(value, field, 0, WORKER_NICE_MAX);
}

static int parse_max_attempts(const char *value, void *field) {
        return parse_unsigned_into(value, field, 1, 100);
}

static int parse_threads(const char *value, void *field) {
        return parse_unsigned_into(value, field, 0, 65536);
}

/* "all", or GPU ordinals and "cpu" separated by spaces or commas; an ordinal at most once. */
static int parse_devices(const char *value, void *field) {
        struct config_devices devices = {0};
        char buf[256], *save = NULL;

        if (strlen(value) >= sizeof(buf))
                return -EINVAL;
        snprintf(buf, sizeof(buf), "%s", value);
        for (char *word = strtok_r(buf, " \t,", &save); word;
             word = strtok_r(NULL, " \t,", &save)) {
                uint64_t ordinal;
                int device;

                if (!strcasecmp(word, "all")) {
                        devices.all = true;
                        continue;
                }
                if (!strcasecmp(word, "cpu"))
                        device = CONFIG_DEVICE_CPU;
                else if (parse_unsigned_range(word, 0, 255, 10, &ordinal) == 0)
                        device = (int)ordinal;
                else
                        return -EINVAL;
                for (unsigned i = 0; i < devices.n; i++)
                        if (device != CONFIG_DEVICE_CPU && devices.ordinals[i] == device)
                                return -EINVAL;
                if (devices.n == CONFIG_DEVICES_MAX)
                        return -EINVAL;
                devices.ordinals[devices.n++] = device;
        }
        /* "all" stands alone; an empty list says nothing. */
        if (devices.all == (devices.n > 0))
                return -EINVAL;
        *(struct config_devices *)field = devices;
        return 0;
}

/* Circuit ids separated by spaces: each an absolute path, or two joined by '+'. */
static int parse_preload(const char *value, void *field) {
        char buf[sizeof(((struct config *)0)->preload)], *save = NULL;
        unsigned n = 0;

        if (strlen(value) >= sizeof(buf))
                return -ERANGE;
        snprintf(buf, sizeof(buf), "%s", value);
        for (char *id = strtok_r(buf, " \t", &save); id; id = strtok_r(NULL, " \t", &save)) {
                const char *plus = strchr(id, '+');

                /* The reference's PoRep ids ("porep-32g"): checked when they are preloaded. */
                if (strncmp(id, "porep-", 6) == 0 && ++n <= CONFIG_DEVICES_MAX)
                        continue;
                if (id[0] != '/' || (plus && (plus[1] != '/' || strchr(plus + 1, '+'))) ||
                    ++n > CONFIG_DEVICES_MAX)
                        return -EINVAL;
        }
        snprintf(field, sizeof(buf), "%s", value);
        return 0;
}

/* Lanes=: partitions in flight on one GPU. */
static int parse_gpu_lanes(const char *value, void *field) {
        return parse_unsigned_into(value, field, 1, GPU_LANES_MAX);
}

/* SrsResidence=: auto, device or host, case-insensitive like every enumerated value. */
static int parse_gpu_srs_residence(const char *value, void *field) {
        char lower[16];
        size_t i;

        for (i = 0; i < sizeof(lower) - 1 && value[i]; i++)
                lower[i] = (char)tolower((unsigned char)value[i]);
        if (value[i])
                return -EINVAL;
        lower[i] = 0;
        return gpu_srs_residence_from_string(lower, field);
}

/* MsmWindow=: 0 (chosen per MSM from its size) or a fixed window in bits. */
static int parse_gpu_msm_window(const char *value, void *field) {
        uint64_t v;
        int r = parse_unsigned_range(value, 0, GPU_MSM_WINDOW_BITS_MAX, 10, &v);

        if (r < 0)
                return r;
        if (v != 0 && v < GPU_MSM_WINDOW_BITS_MIN)
                return -ERANGE;
        *(unsigned *)field = (unsigned)v;
        return 0;
}

/* The [GPU] keys' "expected" texts below spell out these bounds. */
_Static_assert(GPU_LANES_MAX == 4 && GPU_MSM_WINDOW_BITS_MIN == 5 && GPU_MSM_WINDOW_BITS_MAX == 22,
               "update the expected ranges of Lanes= and MsmWindow=");

#define SIZE_EXPECTED "a byte count with an optional K, M, G or T suffix (powers of 1024)"
#define KEY(s, n, p, f, w, e)                                                              \
        {                                                                                  \
                .section = s, .name = n, .parse = p, .offset = offsetof(struct config, f), \
                .size = sizeof(((struct config *)0)->f), .what = w, .expected = e,         \
        }

const struct config_key config_keys[] = {
        KEY("Daemon", "Socket", parse_socket_path, socket_path, "a socket path",
            "an absolute path of at most 107 characters"),
        KEY("Daemon", "SocketMode", parse_mode, socket_mode, "a file mode",
            "an octal mode such as 0660"),
        KEY("Daemon", "SpoolDirectory", parse_dir_path, spool_dir, "a directory",
            "an absolute path of at most 255 characters"),
        KEY("Daemon", "LogTarget", parse_log_target, log_target, "a log target",
            "auto, journal or stderr"),
        KEY("Daemon", "LogLevel", parse_log_level, log_level, "a log level",
            "emerg, alert, crit, err, warning, notice, info, debug or 0..7"),
        KEY("Daemon", "MaxMessageSize", parse_message_size, max_message_bytes, "a size",
            SIZE_EXPECTED ", from 1M to 4294967295"),
        KEY("Daemon", "ResultRetention", parse_retention, result_retention_sec, "a duration",
            "seconds from 0 to 315360000"),
        KEY("Daemon", "AdminGroup", parse_admin_group, admin_gid, "a group",
            "a group name that exists, a gid, or none"),
        KEY("Daemon", "MaxQueuedJobs", parse_queued_jobs, max_queued_jobs, "a job count",
            "1 to 1000000"),
        KEY("Daemon", "MaxQueuedJobsPerUser", parse_queued_jobs, max_queued_jobs_per_user,
            "a job count", "1 to 1000000"),
        KEY("Daemon", "SpoolMaxBytes", parse_spool_max, spool_max_bytes, "a size",
            SIZE_EXPECTED " of at least 1M, or auto"),
        KEY("Daemon", "MaxRequestMemory", parse_request_memory, max_request_memory_bytes, "a size",
            SIZE_EXPECTED ", from 1M to 1T and at least MaxMessageSize="),
        KEY("Daemon", "MaxConnections", parse_connections, max_connections, "a connection count",
            "1 to 65536"),
        KEY("Daemon", "MaxConnectionsPerUser", parse_connections, max_connections_per_user,
            "a connection count", "1 to 65536"),
        KEY("Daemon", "HandshakeTimeout", parse_api_timeout, handshake_timeout_msec, "a duration",
            "milliseconds from 0 (none) to 86400000"),
        KEY("Daemon", "RequestStallTimeout", parse_api_timeout, request_stall_timeout_msec,
            "a duration", "milliseconds from 0 (none) to 86400000"),
        KEY("Daemon", "IdleTimeout", parse_api_timeout, idle_timeout_msec, "a duration",
            "milliseconds from 0 (none) to 86400000"),
        KEY("Memory", "TotalBudget", parse_size_auto, total_budget_bytes, "a size",
            SIZE_EXPECTED ", or auto"),
        KEY("Memory", "SafetyMargin", parse_size, safety_margin_bytes, "a size", SIZE_EXPECTED),
        KEY("Memory", "WorkerSlack", parse_size, worker_slack_bytes, "a size", SIZE_EXPECTED),
        KEY("Memory", "Enforcement", parse_enforcement, enforcement, "an enforcement",
            "auto, cgroup2, cgroup1, rlimit or none"),
        KEY("Memory", "PressureStall", parse_psi_stall, pressure_stall_msec, "a duration",
            "milliseconds from 1 to 10000"),
        KEY("Memory", "PressureWindow", parse_psi_window, pressure_window_msec, "a duration",
            "milliseconds from 500 to 10000"),
        KEY("Memory", "PressureResume", parse_resume, pressure_resume_msec, "a duration",
            "milliseconds from 0 to 3600000"),
        KEY("Memory", "BPF", parse_tristate, bpf, "a BPF setting", "auto, yes or no"),
        KEY("Scheduler", "MaxWorkers", parse_max_workers, max_workers, "a worker count",
            "0 (one per CPU) to 4096"),
        KEY("Scheduler", "MaxAttempts", parse_max_attempts, max_attempts, "an attempt count",
            "1 to 100"),
        KEY("Scheduler", "WorkerStallTimeout", parse_stall_timeout, worker_stall_sec, "a duration",
            "seconds from 0 (never) to 86400"),
        KEY("Scheduler", "WorkerNice", parse_worker_nice, worker_nice, "a nice value",
            "0 (cuzkd's own priority) to 19"),
        KEY("Prover", "Threads", parse_threads, prover_threads, "a thread count",
            "0 (all CPUs) to 65536"),
        KEY("Prover", "ProverStallTimeout", parse_stall_timeout, prover_stall_sec, "a duration",
            "seconds from 0 (never) to 86400"),
        KEY("Prover", "GPU", parse_tristate, gpu, "a GPU setting", "auto, yes or no"),
        KEY("Prover", "Devices", parse_devices, devices, "a device list",
            "all, or up to 16 GPU ordinals (0 to 255, each once) and cpu entries separated by "
            "spaces or commas"),
        KEY("Prover", "Preload", parse_preload, preload, "a circuit list",
            "up to 16 circuit ids separated by spaces, each a .zkey path or PCE+PARAMS "
            "(absolute paths) or a PoRep id such as porep-32g, 4095 characters in all"),
        KEY("Prover", "ParameterCache", parse_dir_path, parameter_cache, "a directory",
            "an absolute path of at most 255 characters"),
        KEY("Prover", "PceCache", parse_dir_path, pce_cache, "a directory",
            "an absolute path of at most 255 characters"),
        KEY("GPU", "Lanes", parse_gpu_lanes, gpu_tuning.lanes, "a lane count", "1 to 4"),
        KEY("GPU", "SrsResidence", parse_gpu_srs_residence, gpu_tuning.srs, "an SRS residence",
            "auto, device or host"),
        KEY("GPU", "MsmWindow", parse_gpu_msm_window, gpu_tuning.msm_window_bits, "a window size",
            "0 (automatic) or 5 to 22"),
        KEY("GPU", "CompactWitness", parse_tristate, compact_witness, "a compact witness setting",
            "auto, yes or no"),
};

const size_t config_n_keys = ELEMENTSOF(config_keys);

static const char *const config_sections[] = {"Daemon", "Memory", "Scheduler", "Prover", "GPU"};

bool config_section_known(const char *section) {
        for (size_t i = 0; i < ELEMENTSOF(config_sections); i++)
                if (!strcmp(config_sections[i], section))
                        return true;
        return false;
}

const struct config_key *config_key_find(const char *section, const char *name) {
        for (size_t i = 0; i < ELEMENTSOF(config_keys); i++)
                if (!strcmp(config_keys[i].section, section) && !strcmp(config_keys[i].name, name))
                        return &config_keys[i];
        return NULL;
}

void config_init(struct config *config) {
        assert(config);

        *config = (struct config){
                .socket_path = "/run/cuzk/cuzk.sock",
                .socket_mode = 0660,
                .spool_dir = "/var/lib/cuzk/spool",
                .log_target = CONFIG_LOG_AUTO,
                .log_level = LOG_INFO,
                .max_message_bytes = 128ull << 20,
                .result_retention_sec = 3600,
                .admin_gid = -1,
                .max_queued_jobs = 1000,
                .max_queued_jobs_per_user = 256,
                .spool_max_bytes = 0,
                .max_request_memory_bytes = 1ull << 30,
                .max_connections = 1024,
                .max_connections_per_user = 64,
                .handshake_timeout_msec = 10000,
                .request_stall_timeout_msec = 30000,
                .idle_timeout_msec = 60000,
                .total_budget_bytes = 0,
                .safety_margin_bytes = 1ull << 30,
                .worker_slack_bytes = 64ull << 20,
                .enforcement = CONFIG_ENFORCE_AUTO,
                .pressure_stall_msec = 200,
                .pressure_window_msec = 2000,
                .pressure_resume_msec = 5000,
                .bpf = CONFIG_AUTO,
                .max_workers = 0,
                .max_attempts = 3,
                .worker_stall_sec = 300,
                .worker_nice = WORKER_NICE_DEFAULT,
                .prover_threads = 0,
                .prover_stall_sec = 300,
                .gpu = CONFIG_AUTO,
                .compact_witness = CONFIG_AUTO,
                .devices = {.all = true},
        };
        gpu_tuning_defaults(&config->gpu_tuning);
        config_default_parameter_cache(config->parameter_cache, sizeof(config->parameter_cache));
        snprintf(config->pce_cache, sizeof(config->pce_cache), "%s", CONFIG_DEFAULT_PCE_CACHE);
}

void config_default_parameter_cache(char *buf, size_t size) {
        const char *env = getenv("FIL_PROOFS_PARAMETER_CACHE");

        assert(buf);
        /* Where the Filecoin stack (rust-fil-proofs, lotus fetch-params) puts the files. */
        if (env && env[0] == '/' && strlen(env) < size)
                snprintf(buf, size, "%s", env);
        else
                snprintf(buf, size, "%s", CONFIG_DEFAULT_PARAMETER_CACHE);
}
