/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzk-bench: the batch client that drives cuzkd, with the flags and the
 * output of the reference daemon's cuzk-bench (`batch --type --count
 * --concurrency ...`):
 *
 *   cuzk-bench-args.c     the command line (struct bench_options)
 *   cuzk-bench-request.c  the SubmitProofRequest every job of the batch sends
 *   cuzk-bench-run.c      N threads, one connection and one job in flight each
 *   cuzk-bench-report.c   the per-proof lines, the summary and its arithmetic
 *   cuzk-bench-memory.c   the daemon's memory: GetStatus samples, GetMetrics peak
 *   cuzk-bench-idle.c     the provers' idle time between partitions (GetStatus)
 *   cuzk-bench-verify.c   --verify: every proof checked against the job's key
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "api/api-client.h"
#include "api/cuzk.pb-c.h"

/* Exit statuses of cuzk-bench. */
enum {
        BENCH_EXIT_OK = 0,
        BENCH_EXIT_FAILED = 1,   /* a proof failed or did not verify; the daemon is unreachable */
        BENCH_EXIT_USAGE = 2,    /* bad flags, unreadable input files */
        BENCH_EXIT_INTERNAL = 3, /* out of memory, threads */
};

#define BENCH_MAX_COUNT 1000000u
#define BENCH_MAX_CONCURRENCY 1024u
#define BENCH_MAX_PARTITIONS 1024u

/* The Prometheus gauge cuzkd exports for the peak memory of all its
 * processes; the summary says "not reported" when it is missing. */
#define BENCH_PEAK_MEMORY_METRIC "cuzk_memory_peak_bytes"

struct bench_options {
        /* Where cuzkd listens: a unix socket, or TCP when tcp_host[0]. */
        const char *socket_path;
        char tcp_host[256];
        uint16_t tcp_port;
        int log_level; /* LOG_* for common/log.h */

        /* batch */
        const char *type_name; /* as given to --type */
        Cuzk__V1__ProofKind kind;
        unsigned count;       /* --count, >= 1 */
        unsigned concurrency; /* --concurrency, >= 1 */
        bool verify;
        /* The reference's job fields. */
        const char *c1_path;      /* PoRep: the C1 output JSON */
        const char *vanilla_path; /* PoSt, SnapDeals: vanilla proofs */
        uint64_t registered_proof, sector_num, miner_id;
        /* Given on the command line: a PoRep job otherwise takes them from its C1 output. */
        bool registered_proof_given, sector_num_given;
        const char *randomness_hex, *comm_r_old_hex, *comm_r_new_hex, *comm_d_new_hex;
        /* cuzk's: GROTH16_SNARKJS and SYNTHETIC_PCE. */
        const char *zkey_path, *wtns_path;
        const char *pce_path, *params_path, *witness_path;
        unsigned partitions; /* >= 1 */
};

/*
 * Parses `cuzk-bench [GLOBAL OPTIONS] batch [OPTIONS]` (argv[0] is the
 * program). Returns 0 to run, 1 when --help was printed (to out), or
 * -EINVAL after a one-line reason on err (exit status 2). Checks the flags,
 * not the files they name.
 */
int bench_parse_args(int argc, char **argv, FILE *out, FILE *err, struct bench_options *ret);

/* The request every job of the batch sends; owns the buffers it points to. */
struct bench_request {
        Cuzk__V1__SubmitProofRequest submit;
        char *paths[5];      /* absolute paths sent to the daemon */
        uint8_t *buffers[5]; /* the C1 file, then the hex fields */
        ProtobufCBinaryData *vanilla_proofs;
        size_t n_vanilla_proofs;
        uint8_t **vanilla_buffers; /* n_vanilla_proofs */
};

/* Reads the files the options name (absolute paths for cuzk's job types,
 * contents for the reference's). -errno after a message naming the file. */
int bench_request_build(const struct bench_options *o, struct bench_request *ret);
void bench_request_done(struct bench_request *r);
/* Standard base64 (padding optional); -EINVAL if not base64. */
int bench_base64_decode(const char *text, uint8_t **ret, size_t *ret_length);

/* One job of the batch as the summary sees it. */
struct bench_sample {
        bool completed; /* the daemon answered COMPLETED */
        double wall_seconds;
        double end_seconds;          /* when the answer came, from the batch's start */
        uint64_t prove_ms, queue_ms; /* gpu_compute_ms, queue_wait_ms */
};

struct bench_stats {
        double avg, min, max;
};

struct bench_summary {
        unsigned jobs, completed, failed;
        double total_seconds;
        /* Over the completed jobs only (zero when none completed). */
        struct bench_stats wall_seconds, prove_seconds;
        double proofs_per_minute, seconds_per_proof;
        /* The completed proofs that ended after the first `warm` ones (those
         * that waited for the cold start), and the time from the warm-th
         * one's end to the last one's: the steady rate. 0 when none. */
        unsigned steady_proofs, warm;
        double steady_seconds;
};

/* warm: how many proofs the steady rate leaves out (the batch's concurrency). */
void bench_summarize(const struct bench_sample *samples, size_t n, double total_seconds,
                     unsigned warm, struct bench_summary *ret);

/* "COMPLETED", "FAILED", ... as the reference prints a status. */
const char *bench_status_label(int status);
/* "  [i/N] LABEL — 12.3s (prove=<ms> ms, queue=<ms> ms)" and ": <error>"
 * when error is set. */
void bench_print_result_line(FILE *f, unsigned index, unsigned count, const char *label,
                             const struct bench_sample *sample, const char *error);
void bench_print_header(FILE *f, const struct bench_options *o);
void bench_print_summary(FILE *f, const struct bench_summary *s);

/* What the daemon said about its memory during and after the batch. */
struct bench_memory {
        bool peak_reported; /* GetMetrics carried BENCH_PEAK_MEMORY_METRIC */
        uint64_t peak_bytes;
        unsigned status_samples; /* GetStatus answers sampled during the batch */
        uint64_t budget_bytes, reserved_bytes, max_reserved_bytes; /* reserved: the latest */
};

/* The value of the first sample of metric `name` in Prometheus text
 * (labels allowed); -ENOENT when absent, -EBADMSG when not a number. */
int bench_metric_value(const char *text, const char *name, double *ret);
/* Calls GetMetrics and fills peak_reported / peak_bytes; a daemon that
 * does not answer leaves them unset (returns its error). */
int bench_memory_read_peak(struct api_client *client, struct bench_memory *memory);
/* Folds one GetStatus answer into the samples. */
void bench_memory_add_status(struct bench_memory *memory, const Cuzk__V1__GetStatusResponse *s);
void bench_print_memory(FILE *f, const struct bench_memory *memory);

/* The provers' idle time (GetStatus's provers[].idle_usec: ready, no partition in hand,
 * while the daemon had an unfinished job) at the first and the latest GetStatus sample. */
#define BENCH_MAX_PROVERS 16
struct bench_idle {
        unsigned samples;   /* GetStatus answers folded in */
        unsigned n_provers; /* listed in each of them; 0: not reported (the reference's) */
        uint32_t index[BENCH_MAX_PROVERS];
        uint64_t start_usec[BENCH_MAX_PROVERS], end_usec[BENCH_MAX_PROVERS];
};
/* Folds one GetStatus answer in: the first is the start, the latest the end. */
void bench_idle_add_status(struct bench_idle *idle, const Cuzk__V1__GetStatusResponse *s);
/* "gpu idle:      12.3 s between partitions", the sum over the provers of what their idle
 * time grew by, each prover's in parentheses where there are several; "not reported" with
 * fewer than two samples or no provers. */
void bench_print_idle(FILE *f, const struct bench_idle *idle);

/* Connects as the options say; a message naming the socket on failure. */
int bench_connect(const struct bench_options *o, struct api_client **ret);

/* The outcome of one job. */
struct bench_job {
        struct bench_sample sample;
        Cuzk__V1__AwaitProofResponse *response; /* NULL when no answer came */
        char error[512];                        /* why it failed, if it did */
};

/*
 * Runs the batch: o->count jobs, o->concurrency in flight, each on its own
 * connection from its own thread, printing a line per finished job to out
 * (and a live progress line when out is a terminal). jobs has o->count
 * entries; free their responses with bench_jobs_free(). memory and idle
 * collect GetStatus samples taken before the first job, while the batch
 * runs and after the last job.
 */
int bench_run_batch(const struct bench_options *o, const Cuzk__V1__SubmitProofRequest *request,
                    FILE *out, struct bench_job *jobs, double *ret_seconds,
                    struct bench_memory *memory, struct bench_idle *idle);
void bench_jobs_free(struct bench_job *jobs, size_t n);

/* --verify: the job's verifying key and expected public inputs. */
struct bench_verifier;
int bench_verifier_new(const struct bench_options *o, struct bench_verifier **ret);
struct bench_verifier *bench_verifier_free(struct bench_verifier *v);
static inline void bench_verifier_freep(struct bench_verifier **v) {
        bench_verifier_free(*v);
}
/* 1 when every proof in the answer verifies, 0 when not (why in reason),
 * negative errno on failure. */
int bench_verifier_check(const struct bench_verifier *v, const Cuzk__V1__AwaitProofResponse *result,
                         char *reason, size_t reason_size);
