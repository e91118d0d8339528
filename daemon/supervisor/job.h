/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A proving job as the supervisor keeps it: its inputs, the memory shape of
 * its partitions, each partition's progress and, once it ended, its result
 * (the AwaitProofResponse that the spool keeps and AwaitProof returns).
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

#include "api/api-peer.h"
#include "api/cuzk.pb-c.h"
#include "daemon/executor/executor.h"
#include "daemon/supervisor/reservation.h"

enum job_state {
        JOB_QUEUED,    /* no partition admitted yet */
        JOB_RUNNING,   /* some partition admitted */
        JOB_COMPLETED, /* every partition proved */
        JOB_FAILED,
        JOB_CANCELLED,
        _JOB_STATE_MAX,
};

enum partition_state {
        PARTITION_QUEUED,
        PARTITION_RUNNING, /* handed to the executor; its bytes are reserved */
        PARTITION_DONE,
        PARTITION_DROPPED, /* the job ended before it ran */
};

/* What one partition of the job's circuit reserves, and the circuit's shared bytes (SRS,
 * PCE) reserved once while any partition of the circuit runs. */
struct job_shape {
        uint64_t n_vars;     /* the circuit's wires */
        uint64_t abc_bytes;  /* a, b, c: given back at abc_released */
        uint64_t rest_bytes; /* the rest: given back when the partition finishes */
        /* The same when the worker hands a GPU prover the compact witness (a PCE circuit;
         * 0 otherwise): the worker's copies of the witness until the prover has started,
         * then the prover's rank of the bitmaps. */
        uint64_t compact_abc_bytes, compact_rest_bytes;
        /* A PCE circuit's public inputs, and the most of its aux that a witness its gadgets
         * synthesize holds as values rather than bits (pce_file_shape's max_aux_values). */
        uint64_t n_public, max_aux_values;
        uint64_t shared_bytes;
        uint64_t key_bytes;    /* the part of shared_bytes each prover holds its own copy of */
        char circuit_id[1024]; /* the files that make the circuit: zkey, or pce + params */
};

struct job_partition {
        enum partition_state state;
        unsigned attempts;
        uint64_t task_id;               /* of the running attempt */
        uint32_t witness_form;          /* of the running attempt (enum ipc_witness_form) */
        struct reservation reservation; /* of the running attempt (reservation.h) */
        uint8_t proof[192];             /* JOB_SYNTHETIC_PCE, JOB_POREP_C2, when done */
};

struct peer_files; /* peer-files.h */

/* What job_new takes from the configuration, and whose rights it opens the request's
 * paths with. */
struct job_settings {
        unsigned prover_threads;     /* sizes the MSM scratch as the prover will run it */
        const char *parameter_cache; /* ParameterCache=: the network's .params and .vk files */
        const char *pce_cache;       /* PceCache=: the PoRep PCE of each sector size */
        /* The submitting peer's rights for zkey_path, wtns_path, pce_path, params_path and
         * witness_path (NULL: the daemon's own). The configuration's files and the spool's
         * are always opened with the daemon's. */
        const struct peer_files *files;
};

struct job_porep; /* job-porep.h */

struct job {
        char id[40];
        char *request_id;        /* "" when the client sent none */
        struct api_peer owner;   /* the peer that submitted it (spooled with it) */
        int priority;            /* Cuzk__V1__Priority */
        uint64_t submitted_usec; /* CLOCK_REALTIME */
        uint64_t sequence;       /* arrival order, ties of submitted_usec */

        struct job_inputs inputs; /* its strings point into owned copies below */
        char *zkey_path, *wtns_path, *pce_path, *params_path, *witness_path, *c1_path;
        struct job_shape shape;
        struct job_porep *porep; /* JOB_POREP_C2: its verifying key and public inputs */

        enum job_state state;
        struct job_partition *partitions; /* inputs.partitions */
        unsigned n_done, n_running;

        /* Timing (usec): first admission, end, and the sums of the partitions' stages;
         * gpu_usec (gpu_compute_ms) the device's own time where the backend measured it,
         * without the waits for a lane (prover-backend.h's prover_timings). */
        uint64_t started_usec, finished_usec;
        uint64_t synthesis_usec, srs_load_usec, gpu_usec;

        /* The result, once the job ended (or as loaded from the spool). */
        char *proof_json, *public_json;
        uint8_t *proof; /* loaded results only; else the partitions' proofs */
        size_t proof_size;
        char error_message[1024];
        bool from_spool;       /* ended before this run of the daemon */
        bool result_delivered; /* an AwaitProof or Prove call was answered with the result */
        /* Ended, its result not yet durable in the spool (spool-writer.h): the job table
         * answers nobody, and forgets nothing, until it is. */
        bool result_spooling;
};

/* CLOCK_REALTIME in microseconds: the clock of submitted_usec and the other times. */
uint64_t job_now_usec(void);
const char *job_state_name(enum job_state state);
bool job_state_is_final(enum job_state state);

/*
 * Checks a SubmitProofRequest and makes a job of it: kind (GROTH16_SNARKJS, SYNTHETIC_PCE,
 * POREP_SEAL_COMMIT; others -EOPNOTSUPP), the input files present, absolute, regular and
 * readable with settings->files' rights (peer-files.h), the circuit's shape from the
 * .zkey or .pce header; a PoRep job's C1 output and parameters checked whole
 * (job-porep.h). It blocks (file I/O, the C1 check's seconds of CPU): the intake thread
 * calls it, never the event loop.
 *
 * The request's inline input (the witness, or a PoRep job's vanilla_proof) is checked
 * from request's memory when input_path is NULL, and the job then names no file for it
 * until job_set_input_path() gives the spool's; a job reloaded from the spool passes its
 * file there (the spool's own, opened with the daemon's rights).
 *
 * On error *ret_message says what is wrong, naming the file or field (never quoting the
 * file's bytes): -EINVAL bad request, -EBADMSG a C1 output that fails its check,
 * -EOPNOTSUPP unimplemented kind, -EPERM/-EACCES/-ENOENT a file.
 */
int job_new(const char *id, const Cuzk__V1__SubmitProofRequest *request, const char *input_path,
            uint64_t submitted_usec, const struct job_settings *settings, struct job **ret,
            char *ret_message, size_t message_size);
/* Names the spooled file of the job's inline input: its witness, or its C1 output. */
int job_set_input_path(struct job *job, const char *input_path);
/*
 * A job reloaded from the spool before its inputs are checked again: queued, in the table
 * (its job and request ids known to AwaitProof, CancelProof and SubmitProof at once), not
 * in the scheduler. job_take_inputs() moves a checked job's inputs and shape into it.
 * Fails only on a request that job_new would refuse without opening a file (message says
 * why) or -ENOMEM.
 */
int job_new_pending(const char *id, const Cuzk__V1__SubmitProofRequest *request,
                    uint64_t submitted_usec, struct job **ret, char *ret_message,
                    size_t message_size);
void job_take_inputs(struct job *job, struct job *checked);
/* The job kind of a request's proof kind (GROTH16_SNARKJS for the kinds cuzkd refuses). */
enum job_kind job_kind_of_request(const Cuzk__V1__SubmitProofRequest *request);
/* A job that ended before this run: its request id and result from the spool. */
int job_new_ended(const char *id, const Cuzk__V1__SubmitProofRequest *request,
                  uint64_t submitted_usec, const Cuzk__V1__AwaitProofResponse *result,
                  struct job **ret);
struct job *job_free(struct job *job);
static inline void job_freep(struct job **job) {
        job_free(*job);
}

/* Ends the job: state (COMPLETED, FAILED or CANCELLED) and the message (printf) for a
 * failure. The partitions' proofs become the job's proof. */
void job_end(struct job *job, enum job_state state, uint64_t now_usec, const char *format, ...)
        __attribute__((format(printf, 4, 5)));

/* The job's AwaitProofResponse; its pointers borrow from job. */
void job_result(const struct job *job, Cuzk__V1__AwaitProofResponse *ret);

/* Whether the job's answer is the partitions' 192-byte proofs concatenated (not snarkjs's
 * JSON). */
static inline bool job_kind_has_filecoin_proofs(enum job_kind kind) {
        return kind == JOB_SYNTHETIC_PCE || kind == JOB_POREP_C2;
}

/* A circuit file opened for its shape: the name it goes by, its descriptor and size. */
struct job_file {
        const char *path;
        int fd;
        uint64_t size;
};

/* The circuit's shape from its files (job-shape.c): opened already, or opened with the
 * daemon's own rights by path. */
int job_shape_snarkjs_file(const struct job_file *zkey, unsigned prover_threads,
                           struct job_shape *ret, char *ret_message, size_t message_size);
int job_shape_pce_files(const struct job_file *pce, const struct job_file *params,
                        unsigned prover_threads, struct job_shape *ret, char *ret_message,
                        size_t message_size);
int job_shape_snarkjs(const char *zkey_path, unsigned prover_threads, struct job_shape *ret,
                      char *ret_message, size_t message_size);
int job_shape_pce(const char *pce_path, const char *params_path, unsigned prover_threads,
                  struct job_shape *ret, char *ret_message, size_t message_size);
/* The key file of a circuit id (job-shape.c): a .zkey is its own, PCE+PARAMS has PARAMS.
 * -ENAMETOOLONG when it does not fit size. */
int job_circuit_key(const char *circuit_id, enum job_kind *ret_kind, char *ret_key, size_t size);
/* Splits groth16_partition_bytes() into the two release phases. */
void job_shape_split(unsigned log_domain_size, uint64_t partition_bytes, struct job_shape *ret);
/* The compact witness's two phases for a PCE circuit of n_vars wires (ONE included) whose
 * worker reads the full witness (a .wtns) and makes the compact one of it. */
void job_shape_compact(uint64_t n_vars, uint64_t n_public, struct job_shape *ret);
/* The same for a circuit whose worker synthesizes the compact witness itself, never the
 * full one (PoRep: circuits/cs), from shape's n_vars, n_public and max_aux_values. */
void job_shape_compact_synthesized(struct job_shape *shape);
