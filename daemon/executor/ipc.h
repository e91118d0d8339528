/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The messages between cuzkd's supervisor, its synthesis workers and its
 * prover, over SOCK_SEQPACKET socketpairs (one message per packet, so no
 * framing; file descriptors ride along with SCM_RIGHTS):
 *
 *   supervisor -> worker    IPC_TASK          what to synthesize
 *   worker -> supervisor    IPC_SYNTH_DONE    + a/b/c memfd, witness memfd, or (a
 *                                             compact witness) one memfd of it
 *                           IPC_FAILED        the input could not be used
 *   supervisor -> prover    IPC_PROVE         + the worker's memfds
 *                           IPC_CANCEL        drop a task
 *                           IPC_LOAD_KEY      load a key now (a preload)
 *                           IPC_EVICT_KEY     drop a key (ipc_load_key, answered too)
 *   prover -> supervisor    IPC_PROVER_READY  once at start
 *                           IPC_KEY_LOADED    the answer to IPC_LOAD_KEY
 *                           IPC_ABC_RELEASED  a/b/c unmapped and closed
 *                           IPC_RESULT        + a memfd with the proof (success)
 *                           IPC_PROGRESS      a stage of a task (or a key load) begins
 *
 * The memfds are sealed (ipc_memfd_seal) before they are sent, so a
 * receiver can trust their size for as long as it holds them; all but the
 * a/b/c one are sealed against writes too (the CPU prover computes H in
 * place there, in the pages already charged to the worker's cgroup and
 * reserved as abc_bytes, instead of in private copies charged to it). Every
 * process on a socket is a program of this build, so the structs are sent
 * as they are in memory; a packet of the wrong length for its type is
 * refused.
 */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ipc_type {
        IPC_TASK = 1,
        IPC_SYNTH_DONE,
        IPC_FAILED,
        IPC_PROVE,
        IPC_CANCEL,
        IPC_PROVER_READY,
        IPC_ABC_RELEASED,
        IPC_RESULT,
        IPC_LOAD_KEY,
        IPC_KEY_LOADED,
        IPC_EVICT_KEY,
        IPC_PROGRESS,
};

#define IPC_MESSAGE_TEXT 512
#define IPC_STAGE_TEXT 48

/*
 * What a worker hands on. FULL: a, b, c (3 x 2^k fr_t) and the witness (n_vars fr_t), as
 * every prover takes them. COMPACT (circuits with a PCE, for a CUDA prover): the witness
 * alone, its 0/1 values as bits (ipc-compact.h), a few MB where the full form is GBs; the
 * prover evaluates a, b, c on the card from the PCE it keeps there.
 */
enum ipc_witness_form {
        IPC_WITNESS_FULL = 0,
        IPC_WITNESS_COMPACT = 1,
};

/* A task as the worker and the prover see it (paths NUL-terminated). */
struct ipc_task {
        uint64_t task_id;
        uint32_t kind; /* enum job_kind */
        uint32_t partition;
        uint32_t witness_form; /* enum ipc_witness_form: what the worker hands on */
        uint32_t reserved;
        char circuit_path[PATH_MAX]; /* .zkey (snarkjs) or PCE file */
        char key_path[PATH_MAX];     /* .zkey (snarkjs) or bellperson .params */
        char witness_path[PATH_MAX]; /* .wtns, or the C1 output of a PoRep job */
};

/* The worker's answer; fds: a/b/c (3 x 2^log_domain_size fr_t) and the witness (n_vars
 * fr_t), or the compact witness alone (compact_bytes, ipc-compact.h). */
struct ipc_synth_done {
        uint64_t task_id;
        uint64_t n_vars;
        uint32_t log_domain_size;
        uint32_t witness_form; /* enum ipc_witness_form: the task's */
        uint64_t synthesis_usec;
        uint64_t compact_bytes; /* IPC_WITNESS_COMPACT: the memfd's size */
};

/* A failure with its text (enum executor_failure, negative errno). */
struct ipc_failed {
        uint64_t task_id;
        uint32_t failure;
        int32_t error;
        char message[IPC_MESSAGE_TEXT];
};

/* Sent to the prover with the worker's two memfds. */
struct ipc_prove {
        struct ipc_task task;
        struct ipc_synth_done synth;
};

struct ipc_task_id {
        uint64_t task_id;
};

/* Where the prover runs: its backend and device (prover-backend.h's prover_device_info). */
struct ipc_prover_ready {
        char backend[16];
        int32_t ordinal; /* -1 on the CPU */
        char device_name[64];
        uint64_t memory_total_bytes, memory_free_bytes;
};

/* The prover's exit status when its GPU cannot be opened: the supervisor takes that GPU out
 * of service instead of restarting it (EX_UNAVAILABLE of sysexits.h). */
#define IPC_PROVER_EXIT_NO_DEVICE 69

/* The prover's answer. On success one memfd holds, in order, proof_bytes of
 * the 192-byte Filecoin proof (synthetic jobs) or proof_json_bytes and
 * public_json_bytes of text (snarkjs jobs). */
struct ipc_result {
        struct ipc_failed status; /* failure EXECUTOR_OK on success */
        uint64_t srs_load_usec, gpu_stage_usec, g2_tail_usec;
        uint64_t srs_bytes;                /* every key the prover holds */
        uint64_t key_host_bytes;           /* what it keeps of the task's key (success only) */
        uint64_t pce_host_bytes;           /* and of the task's PCE, in host memory */
        uint64_t device_memory_free_bytes; /* the GPU's after this proof; 0 on the CPU */
        uint64_t proof_bytes, proof_json_bytes, public_json_bytes;
};

/* A key to load before any task needs it (in the order of the prover's tasks). */
struct ipc_load_key {
        uint32_t kind; /* enum job_kind */
        uint32_t reserved;
        char key_path[PATH_MAX];
        /* The PCE of a synthetic circuit ("" if none): its densities, for a
         * .params file in bellperson's layout. */
        char circuit_path[PATH_MAX];
};

struct ipc_key_loaded {
        int32_t error;    /* 0 or a negative errno; message says what failed */
        uint32_t evicted; /* the answer to IPC_EVICT_KEY: the key is gone (or was not there) */
        uint32_t kind;    /* enum job_kind: the request's */
        uint32_t reserved;
        uint64_t load_usec;      /* 0: it was loaded before */
        uint64_t srs_bytes;      /* every key the prover holds */
        uint64_t key_host_bytes; /* what it keeps of this key in host memory (0: not loaded) */
        char key_path[PATH_MAX];
        char message[IPC_MESSAGE_TEXT];
};

/* The prover begins a stage ("load", "abc", "ntt", "msm", "tail") of task_id (0: a key
 * load): what the supervisor's liveness check and log say it was doing. */
struct ipc_progress {
        uint64_t task_id;
        char stage[IPC_STAGE_TEXT];
};

struct ipc_message {
        uint32_t type; /* enum ipc_type */
        uint32_t reserved;
        union {
                struct ipc_task task;
                struct ipc_synth_done synth_done;
                struct ipc_failed failed;
                struct ipc_prove prove;
                struct ipc_task_id task_id;
                struct ipc_prover_ready prover_ready;
                struct ipc_result result;
                struct ipc_load_key load_key;
                struct ipc_key_loaded key_loaded;
                struct ipc_progress progress;
        };
};

#define IPC_MAX_FDS 2

/* Sends one message of type with its payload and n_fds descriptors. -EAGAIN
 * when the socket is non-blocking and full, -EPIPE when the peer is gone. */
int ipc_send(int sock, enum ipc_type type, const void *payload, size_t payload_bytes,
             const int *fds, size_t n_fds);

/* Receives one message: 1 with *ret filled and the descriptors that came in
 * fds (CLOEXEC, the caller owns them; the rest -EBADF), 0 at EOF, -EAGAIN
 * when none is waiting, -EBADMSG for a packet of the wrong size or type or
 * with more descriptors than its type carries. */
int ipc_recv(int sock, struct ipc_message *ret, int fds[IPC_MAX_FDS], size_t *ret_n_fds);

/* Descriptors that a message type carries (success results: 1). */
size_t ipc_expected_fds(const struct ipc_message *message);

/* A memfd of bytes, mapped shared read-write. */
int ipc_memfd_new(const char *name, size_t bytes, int *ret_fd, void **ret_map);
/* Seals the memfd: no shrinking or growing from now on, and no writing unless writable. */
int ipc_memfd_seal(int fd, bool writable);
/* Checks that fd is a memfd of exactly bytes (what a sender promised), sealed as
 * ipc_memfd_seal(fd, writable) seals it. */
int ipc_memfd_check(int fd, size_t bytes, const char *what, bool writable);

/* snprintf into a fixed text field, never failing. */
void ipc_set_text(char *buf, size_t size, const char *fmt, ...)
        __attribute__((format(printf, 3, 4)));

/* The inherited socket's number from a helper's command line. */
int ipc_parse_fd(const char *text, int *ret);
