/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzkd's configuration: /etc/cuzk/cuzkd.conf, then the drop-ins
 * /etc/cuzk/cuzkd.conf.d/ *.conf in lexical order (later ones win), INI as
 * inih parses it. Every key has a default (config_init()); cuzkd.conf(5)
 * documents each one. A key or value that is not understood is refused
 * with file:line and what was expected.
 *
 * Sizes accept a plain byte count or K, M, G, T suffixes (powers of 1024);
 * durations are milliseconds (ResultRetention= excepted: seconds). Values below
 * are the defaults.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuda/gpu-tuning.h"

enum config_log_target { CONFIG_LOG_AUTO, CONFIG_LOG_JOURNAL, CONFIG_LOG_STDERR };
enum config_tristate { CONFIG_AUTO, CONFIG_YES, CONFIG_NO };
enum config_enforcement {
        CONFIG_ENFORCE_AUTO, /* cgroup2, else cgroup1, else rlimit */
        CONFIG_ENFORCE_CGROUP2,
        CONFIG_ENFORCE_CGROUP1,
        CONFIG_ENFORCE_RLIMIT,
        CONFIG_ENFORCE_NONE,
};

/* Devices=: which provers run. Each entry is a GPU ordinal or "cpu" (a prover on the CPU
 * backend); "all" (the default) is every GPU the CUDA runtime shows, or one CPU prover where
 * there is none or GPU=no. Prover N (cgroup prover-N) serves entry N. */
#define CONFIG_DEVICES_MAX 16
#define CONFIG_DEVICE_CPU (-1)
struct config_devices {
        bool all;
        unsigned n;
        int ordinals[CONFIG_DEVICES_MAX]; /* CONFIG_DEVICE_CPU or a GPU ordinal */
};

struct config {
        /* [Daemon] */
        char socket_path[256];             /* Socket=/run/cuzk/cuzk.sock */
        unsigned socket_mode;              /* SocketMode=0660 */
        char spool_dir[256];               /* SpoolDirectory=/var/lib/cuzk/spool */
        enum config_log_target log_target; /* LogTarget=auto */
        int log_level;                     /* LogLevel=info (LOG_* from syslog.h) */
        uint64_t max_message_bytes;        /* MaxMessageSize=128M */
        uint64_t result_retention_sec;     /* ResultRetention=3600 (seconds; see cuzkd.conf(5)) */
        int64_t admin_gid;                 /* AdminGroup= (none: -1): sees every user's jobs */
        unsigned max_queued_jobs;          /* MaxQueuedJobs=1000: jobs not ended, in all */
        unsigned max_queued_jobs_per_user; /* MaxQueuedJobsPerUser=256: of one uid */
        uint64_t spool_max_bytes;          /* SpoolMaxBytes=auto: 0 here (spool.h) */
        /* The API server's limits (api/api-server.h): request bytes buffered at once,
         * connections in all and of one uid, and its timeouts in milliseconds (0: none) */
        uint64_t max_request_memory_bytes;   /* MaxRequestMemory=1G */
        unsigned max_connections;            /* MaxConnections=1024 */
        unsigned max_connections_per_user;   /* MaxConnectionsPerUser=64 */
        uint64_t handshake_timeout_msec;     /* HandshakeTimeout=10000 */
        uint64_t request_stall_timeout_msec; /* RequestStallTimeout=30000 */
        uint64_t idle_timeout_msec;          /* IdleTimeout=60000 */
        /* [Memory] */
        uint64_t total_budget_bytes;         /* TotalBudget=auto: 0 here */
        uint64_t safety_margin_bytes;        /* SafetyMargin=1G */
        uint64_t worker_slack_bytes;         /* WorkerSlack=64M */
        enum config_enforcement enforcement; /* Enforcement=auto */
        uint64_t pressure_stall_msec;        /* PressureStall=200 (per window) */
        uint64_t pressure_window_msec;       /* PressureWindow=2000 */
        uint64_t
                pressure_resume_msec; /* PressureResume=5000: quiet time before admission resumes */
        enum config_tristate bpf; /* BPF=auto: the eBPF probes where they load (bpf/memwatch.h) */
        /* [Scheduler] */
        unsigned max_workers;      /* MaxWorkers=0: one per CPU */
        unsigned max_attempts;     /* MaxAttempts=3: per partition */
        uint64_t worker_stall_sec; /* WorkerStallTimeout=300: a worker with no CPU time, killed */
        unsigned worker_nice;      /* WorkerNice=10: a worker's nice value (0: cuzkd's own) */
        /* [Prover] */
        unsigned prover_threads;       /* Threads=0: all */
        uint64_t prover_stall_sec;     /* ProverStallTimeout=300: a busy prover with no progress */
        enum config_tristate gpu;      /* GPU=auto */
        struct config_devices devices; /* Devices=all */
        /* Preload= (empty): circuits every prover loads at start, before READY=1, separated
         * by spaces: a .zkey path, or PCE+PARAMS (the circuit ids jobs use) */
        char preload[4096];
        /* ParameterCache=$FIL_PROOFS_PARAMETER_CACHE or /var/tmp/filecoin-proof-parameters:
         * the Groth16 parameter files of PoRep jobs, under the network's file names */
        char parameter_cache[256];
        char pce_cache[256]; /* PceCache=/var/cache/cuzk: each PoRep sector size's PCE */
        /* [GPU]: what an operator chooses about every GPU prover (cuda/gpu-tuning.h), handed
         * to each one when it opens its GPU: Lanes=2, SrsResidence=auto, MsmWindow=0 */
        struct gpu_tuning gpu_tuning;
        /* CompactWitness=auto: PCE witnesses to GPU provers in compact form (auto, yes) */
        enum config_tristate compact_witness;
};

#define CONFIG_DEFAULT_PARAMETER_CACHE "/var/tmp/filecoin-proof-parameters"
#define CONFIG_DEFAULT_PCE_CACHE "/var/cache/cuzk"

/* The defaults. */
void config_init(struct config *config);
/* ParameterCache='s default: $FIL_PROOFS_PARAMETER_CACHE when it is an absolute path that
 * fits, else CONFIG_DEFAULT_PARAMETER_CACHE. */
void config_default_parameter_cache(char *buf, size_t size);
/* Reads path (missing: -ENOENT, left to the caller to ignore) into config,
 * overriding what it sets. Errors are logged with file:line. */
int config_load_file(struct config *config, const char *path);
/* config_init(), then path and then path.d/ *.conf (path "/etc/cuzk/cuzkd.conf"
 * reads /etc/cuzk/cuzkd.conf.d/); a missing file or directory is fine. */
int config_load(struct config *config, const char *path);
/* A size such as "64M" or "auto" (auto: *ret = 0). */
int config_parse_size(const char *value, bool allow_auto, uint64_t *ret);
