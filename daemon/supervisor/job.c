/* SPDX-License-Identifier: Apache-2.0 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/cleanup.h"
#include "daemon/supervisor/job.h"
#include "daemon/supervisor/job-porep.h"
#include "daemon/supervisor/peer-files.h"

static const char *const state_names[_JOB_STATE_MAX] = {
        [JOB_QUEUED] = "queued", [JOB_RUNNING] = "running",     [JOB_COMPLETED] = "completed",
        [JOB_FAILED] = "failed", [JOB_CANCELLED] = "cancelled",
};

uint64_t job_now_usec(void) {
        struct timespec ts;

        clock_gettime(CLOCK_REALTIME, &ts);
        return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

const char *job_state_name(enum job_state state) {
        assert(state < _JOB_STATE_MAX);
        return state_names[state];
}

bool job_state_is_final(enum job_state state) {
        return state == JOB_COMPLETED || state == JOB_FAILED || state == JOB_CANCELLED;
}

static int dup_string(const char *s, char **ret) {
        *ret = strdup(s ? s : "");
        return *ret ? 0 : -ENOMEM;
}

/* A required path field of the request: present, then opened with the client's rights
 * (peer-files.h). Returns the descriptor.
 *
 * The worker and the prover open the file again later, by path, with the daemon's rights:
 * this check proves only that the owner could open it when the job came in; a file
 * replaced since is read as the daemon may read it (docs/DESIGN.md, the supervisor). */
static int open_field(const struct job_settings *settings, const char *field, const char *path,
                      struct job_file *ret, char *msg, size_t msg_size) {
        int fd;

        if (!path || !*path) {
                snprintf(msg, msg_size, "%s is required", field);
                return -EINVAL;
        }
        fd = peer_files_open(settings->files, field, path, &ret->size, msg, msg_size);
        if (fd < 0)
                return fd;
        ret->path = path;
        ret->fd = fd;
        return fd;
}

/* The same for a file that is only checked now (the worker reads it later). */
static int check_field(const struct job_settings *settings, const char *field, const char *path,
                       char *msg, size_t msg_size) {
        struct job_file file;
        int fd = open_field(settings, field, path, &file, msg, msg_size);

        if (fd < 0)
                return fd;
        close(fd);
        return 0;
}

static int job_alloc(const char *id, const Cuzk__V1__SubmitProofRequest *request,
                     uint64_t submitted_usec, unsigned partitions, struct job **ret) {
        _cleanup_free_ struct job *job = NULL;

        job = calloc(1, sizeof(*job));
        if (!job)
                return -ENOMEM;
        snprintf(job->id, sizeof(job->id), "%s", id);
        job->priority = request->priority;
        job->submitted_usec = submitted_usec;
        job->inputs.partitions = partitions;
        job->partitions = calloc(partitions, sizeof(*job->partitions));
        if (!job->partitions || dup_string(request->request_id, &job->request_id) < 0) {
                free(job->partitions);
                return -ENOMEM;
        }
        *ret = TAKE_PTR(job);
        return 0;
}

/* The witness: the spool's file (input_path), inline in the request (named once spooled),
 * or the client's wtns_path. */
static int check_witness(struct job *job, const Cuzk__V1__SubmitProofRequest *request,
                         const char *input_path, const struct job_settings *settings, char *msg,
                         size_t msg_size) {
        const char *wtns_path = input_path ? input_path : request->wtns_path;
        int r;

        if (!input_path && request->wtns.len > 0)
                return 0;
        if (!wtns_path || !*wtns_path) {
                snprintf(msg, msg_size, "GROTH16_SNARKJS needs wtns_path or an inline wtns");
                return -EINVAL;
        }
        if (input_path) {
                uint64_t size;

                /* The spool's file: the daemon's. */
                r = peer_files_open(NULL, NULL, input_path, &size, msg, msg_size);
                if (r >= 0)
                        close(r);
        } else
                r = check_field(settings, "wtns_path", wtns_path, msg, msg_size);
        if (r < 0)
                return r;
        return dup_string(wtns_path, &job->wtns_path);
}

static int inputs_snarkjs(struct job *job, const Cuzk__V1__SubmitProofRequest *request,
                          const char *input_path, const struct job_settings *settings, char *msg,
                          size_t msg_size) {
        _cleanup_close_ int fd = -EBADF;
        struct job_file zkey;
        int r;

        fd = open_field(settings, "zkey_path", request->zkey_path, &zkey, msg, msg_size);
        if (fd < 0)
                return fd;
        r = check_witness(job, request, input_path, settings, msg, msg_size);
        if (r < 0)
                return r;
        r = job_shape_snarkjs_file(&zkey, settings->prover_threads, &job->shape, msg, msg_size);
        if (r < 0)
                return r;
        if (dup_string(request->zkey_path, &job->zkey_path) < 0)
                return -ENOMEM;
        job->inputs.kind = JOB_GROTH16_SNARKJS;
        job->inputs.zkey_path = job->zkey_path;
        job->inputs.wtns_path = job->wtns_path;
        return 0;
}

static int inputs_pce(struct job *job, const Cuzk__V1__SubmitProofRequest *request,
                      const struct job_settings *settings, char *msg, size_t msg_size) {
        _cleanup_close_ int pce_fd = -EBADF, params_fd = -EBADF;
        struct job_file pce, params;
        int r;

        pce_fd = open_field(settings, "pce_path", request->pce_path, &pce, msg, msg_size);
        if (pce_fd < 0)
                return pce_fd;
        params_fd =
                open_field(settings, "params_path", request->params_path, &params, msg, msg_size);
        if (params_fd < 0)
                return params_fd;
        r = check_field(settings, "witness_path", request->witness_path, msg, msg_size);
        if (r < 0)
                return r;
        r = job_shape_pce_files(&pce, &params, settings->prover_threads, &job->shape, msg,
                                msg_size);
        if (r < 0)
                return r;
        if (dup_string(request->pce_path, &job->pce_path) < 0 ||
            dup_string(request->params_path, &job->params_path) < 0 ||
            dup_string(request->witness_path, &job->witness_path) < 0)
                return -ENOMEM;
        job->inputs.kind = JOB_SYNTHETIC_PCE;
        job->inputs.pce_path = job->pce_path;
        job->inputs.params_path = job->params_path;
        job->inputs.witness_path = job->witness_path;
        return 0;
}

/* Partitions a job of this request has: -EOPNOTSUPP with a message when the kind is not
 * ours. */
static int request_partitions(const Cuzk__V1__SubmitProofRequest *request, unsigned *ret, char *msg,
                              size_t msg_size) {
        const ProtobufCEnumValue *v;

        switch (request->proof_kind) {
        case CUZK__V1__PROOF_KIND__GROTH16_SNARKJS:
                *ret = 1;
                return 0;
        case CUZK__V1__PROOF_KIND__SYNTHETIC_PCE:
                /* proto3 cannot tell 0 from unset: one partition. */
                *ret = request->partitions ? request->partitions : 1;
                return 0;
        case CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT:
                return job_porep_partitions(request, ret, msg, msg_size);
        default:
                v = protobuf_c_enum_descriptor_get_value(&cuzk__v1__proof_kind__descriptor,
                                                         request->proof_kind);
                snprintf(msg, msg_size,
                         "proof kind %s (%d) is not implemented by cuzkd; it proves "
                         "GROTH16_SNARKJS, SYNTHETIC_PCE and POREP_SEAL_COMMIT jobs",
                         v ? v->name : "unknown", request->proof_kind);
                return -EOPNOTSUPP;
        }
}

#define JOB_MAX_PARTITIONS 1024u

int job_new(const char *id, const Cuzk__V1__SubmitProofRequest *request, const char *input_path,
            uint64_t submitted_usec, const struct job_settings *settings, struct job **ret,
            char *msg, size_t msg_size) {
        _cleanup_(job_freep) struct job *job = NULL;
        unsigned partitions = 0;
        int r;

        assert(id);
        assert(request);
        assert(settings);
        assert(ret);
        assert(msg);
        r = request_partitions(request, &partitions, msg, msg_size);
        if (r < 0)
                return r;
        if (partitions > JOB_MAX_PARTITIONS) {
                snprintf(msg, msg_size, "partitions %u: at most %u", partitions,
                         JOB_MAX_PARTITIONS);
                return -EINVAL;
        }
        r = job_alloc(id, request, submitted_usec, partitions, &job);
        if (r < 0)
                return r;
        if (request->proof_kind == CUZK__V1__PROOF_KIND__GROTH16_SNARKJS)
                r = inputs_snarkjs(job, request, input_path, settings, msg, msg_size);
        else if (request->proof_kind == CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT)
                r = job_porep_inputs(job, request, input_path, settings, msg, msg_size);
        else
                r = inputs_pce(job, request, settings, msg, msg_size);
        if (r < 0)
                return r;
        *ret = TAKE_PTR(job);
        return 0;
}

int job_set_input_path(struct job *job, const char *input_path) {
        char **slot;
        char *copy;

        assert(job);
        if (!input_path)
                return 0;
        if (job->inputs.kind == JOB_POREP_C2)
                slot = &job->c1_path;
        else if (job->inputs.kind == JOB_GROTH16_SNARKJS)
                slot = &job->wtns_path;
        else
                return 0;
        copy = strdup(input_path);
        if (!copy)
                return -ENOMEM;
        free(*slot);
        *slot = copy;
        job->inputs.wtns_path = job->wtns_path;
        job->inputs.c1_path = job->c1_path;
        return 0;
}

int job_new_pending(const char *id, const Cuzk__V1__SubmitProofRequest *request,
                    uint64_t submitted_usec, struct job **ret, char *msg, size_t msg_size) {
        _cleanup_(job_freep) struct job *job = NULL;
        unsigned partitions = 0;
        int r;

        assert(id);
        assert(request);
        assert(ret);
        r = request_partitions(request, &partitions, msg, msg_size);
        if (r >= 0 && partitions > JOB_MAX_PARTITIONS) {
                snprintf(msg, msg_size, "partitions %u: at most %u", partitions,
                         JOB_MAX_PARTITIONS);
                r = -EINVAL;
        }
        if (r < 0)
                return r;
        r = job_alloc(id, request, submitted_usec, partitions, &job);
        if (r < 0)
                return r;
        job->inputs.kind = job_kind_of_request(request);
        *ret = TAKE_PTR(job);
        return 0;
}

#define SWAP_PTR(a, b)                  \
        do {                            \
                __typeof__(a) _t = (a); \
                (a) = (b);              \
                (b) = _t;               \
        } while (0)

void job_take_inputs(struct job *job, struct job *checked) {
        assert(job);
        assert(checked);
        assert(job->inputs.partitions == checked->inputs.partitions);
        /* The strings change hands; inputs' pointers go with them. */
        SWAP_PTR(job->zkey_path, checked->zkey_path);
        SWAP_PTR(job->wtns_path, checked->wtns_path);
        SWAP_PTR(job->pce_path, checked->pce_path);
        SWAP_PTR(job->params_path, checked->params_path);
        SWAP_PTR(job->witness_path, checked->witness_path);
        SWAP_PTR(job->c1_path, checked->c1_path);
        SWAP_PTR(job->porep, checked->porep);
        job->inputs = checked->inputs;
        job->shape = checked->shape;
}

enum job_kind job_kind_of_request(const Cuzk__V1__SubmitProofRequest *request) {
        assert(request);
        switch (request->proof_kind) {
        case CUZK__V1__PROOF_KIND__SYNTHETIC_PCE:
                return JOB_SYNTHETIC_PCE;
        case CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT:
                return JOB_POREP_C2;
        default:
                return JOB_GROTH16_SNARKJS;
        }
}

static enum job_state state_of_status(Cuzk__V1__AwaitProofResponse__Status status) {
        switch (status) {
        case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED:
                return JOB_COMPLETED;
        case CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED:
                return JOB_CANCELLED;
        default:
                return JOB_FAILED;
        }
}

int job_new_ended(const char *id, const Cuzk__V1__SubmitProofRequest *request,
                  uint64_t submitted_usec, const Cuzk__V1__AwaitProofResponse *result,
                  struct job **ret) {
        _cleanup_(job_freep) struct job *job = NULL;
        int r;

        assert(id);
        assert(request);
        assert(result);
        assert(ret);
        r = job_alloc(id, request, submitted_usec, 1, &job);
        if (r < 0)
                return r;
        job->state = state_of_status(result->status);
        job->from_spool = true;
        job->inputs.kind = job_kind_of_request(request);
        snprintf(job->error_message, sizeof(job->error_message), "%s",
                 result->error_message ? result->error_message : "");
        if (dup_string(result->proof_json, &job->proof_json) < 0 ||
            dup_string(result->public_json, &job->public_json) < 0)
                return -ENOMEM;
        if (result->proof.len > 0) {
                job->proof = malloc(result->proof.len);
                if (!job->proof)
                        return -ENOMEM;
                memcpy(job->proof, result->proof.data, result->proof.len);
                job->proof_size = result->proof.len;
        }
        /* Keep the stored timings: total from submission, the stages as sums. */
        job->finished_usec = submitted_usec + result->total_ms * 1000;
        job->started_usec = submitted_usec + result->queue_wait_ms * 1000;
        job->synthesis_usec = result->synthesis_ms * 1000;
        job->srs_load_usec = result->srs_load_ms * 1000;
        job->gpu_usec = result->gpu_compute_ms * 1000;
        *ret = TAKE_PTR(job);
        return 0;
}

struct job *job_free(struct job *job) {
        if (!job)
                return NULL;
        free(job->request_id);
        free(job->zkey_path);
        free(job->wtns_path);
        free(job->pce_path);
        free(job->params_path);
        free(job->witness_path);
        free(job->c1_path);
        job_porep_free(job->porep);
        free(job->partitions);
        free(job->proof_json);
        free(job->public_json);
        free(job->proof);
        free(job);
        return NULL;
}

void job_end(struct job *job, enum job_state state, uint64_t now_usec, const char *format, ...) {
        va_list ap;

        assert(job);
        assert(job_state_is_final(state));
        assert(!job_state_is_final(job->state));
        job->state = state;
        job->finished_usec = now_usec;
        if (format) {
                va_start(ap, format);
                vsnprintf(job->error_message, sizeof(job->error_message), format, ap);
                va_end(ap);
        }
        if (state == JOB_COMPLETED && job_kind_has_filecoin_proofs(job->inputs.kind)) {
                size_t size = (size_t)job->inputs.partitions * sizeof(job->partitions[0].proof);

                job->proof = malloc(size);
                if (job->proof) {
                        for (unsigned i = 0; i < job->inputs.partitions; i++)
                                memcpy(job->proof + i * sizeof(job->partitions[0].proof),
                                       job->partitions[i].proof, sizeof(job->partitions[i].proof));
                        job->proof_size = size;
                } else {
                        job->state = JOB_FAILED;
                        snprintf(job->error_message, sizeof(job->error_message),
                                 "out of memory assembling the proof of %u partitions",
                                 job->inputs.partitions);
                }
        }
        for (unsigned i = 0; i < job->inputs.partitions; i++)
                if (job->partitions[i].state == PARTITION_QUEUED)
                        job->partitions[i].state = PARTITION_DROPPED;
}

static uint64_t ms_between(uint64_t from_usec, uint64_t to_usec) {
        return to_usec > from_usec ? (to_usec - from_usec) / 1000 : 0;
}

void job_result(const struct job *job, Cuzk__V1__AwaitProofResponse *ret) {
        static const Cuzk__V1__AwaitProofResponse__Status status[_JOB_STATE_MAX] = {
                [JOB_QUEUED] = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__UNKNOWN,
                [JOB_RUNNING] = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__UNKNOWN,
                [JOB_COMPLETED] = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED,
                [JOB_FAILED] = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__FAILED,
                [JOB_CANCELLED] = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__CANCELLED,
        };

        assert(job);
        assert(ret);
        cuzk__v1__await_proof_response__init(ret);
        ret->job_id = (char *)job->id;
        ret->status = status[job->state];
        if (job->state == JOB_COMPLETED) {
                ret->proof.data = job->proof;
                ret->proof.len = job->proof_size;
                ret->proof_json = job->proof_json ? job->proof_json : (char *)"";
                ret->public_json = job->public_json ? job->public_json : (char *)"";
        }
        ret->error_message = (char *)job->error_message;
        if (job->started_usec)
                ret->queue_wait_ms = ms_between(job->submitted_usec, job->started_usec);
        ret->srs_load_ms = job->srs_load_usec / 1000;
        ret->synthesis_ms = job->synthesis_usec / 1000;
        ret->gpu_compute_ms = job->gpu_usec / 1000;
        if (job->finished_usec)
                ret->total_ms = ms_between(job->submitted_usec, job->finished_usec);
}
