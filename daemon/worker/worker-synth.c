/* SPDX-License-Identifier: Apache-2.0 */
/* A synthesis worker's computation (see worker-synth.h). */
#include "worker-synth.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "circuits/cs/cs.h"
#include "circuits/pce-compact.h"
#include "circuits/pce-file.h"
#include "circuits/porep/stacked.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "daemon/executor/executor.h"
#include "daemon/executor/ipc-compact.h"
#include "filecoin/c1/c1.h"
#include "formats/bellperson_io.h"
#include "formats/wtns.h"
#include "formats/zkey-constraints.h"
#include "zk/groth16.h"

/* A memfd being filled: unmapped (and then sealed) when done. */
struct filling {
        int fd;
        void *map;
        size_t bytes;
};

static void filling_release(struct filling *f) {
        if (f->map)
                (void)munmap(f->map, f->bytes);
        if (f->fd >= 0)
                close(f->fd);
        *f = (struct filling){.fd = -EBADF};
}

static int filling_new(const char *name, size_t bytes, struct filling *ret) {
        int r;

        ret->bytes = bytes;
        r = ipc_memfd_new(name, bytes, &ret->fd, &ret->map);
        if (r < 0)
                *ret = (struct filling){.fd = -EBADF};
        return r;
}

/* Unmaps, seals (against writes too unless writable) and hands the fd out. */
static int filling_finish(struct filling *f, bool writable, int *ret_fd) {
        int r;

        (void)munmap(f->map, f->bytes);
        f->map = NULL;
        r = ipc_memfd_seal(f->fd, writable);
        if (r < 0)
                return r;
        *ret_fd = TAKE_FD(f->fd);
        return 0;
}

typedef int (*evaluate_fn)(const void *circuit, const fr_t *w, size_t n_vars,
                           unsigned log_domain_size, fr_t *a, fr_t *b, fr_t *c);

static int evaluate_zkey(const void *circuit, const fr_t *w, size_t n_vars,
                         unsigned log_domain_size, fr_t *a, fr_t *b, fr_t *c) {
        return groth16_evaluate(circuit, w, n_vars, log_domain_size, a, b, c);
}

static int evaluate_pce(const void *circuit, const fr_t *w, size_t n_vars, unsigned log_domain_size,
                        fr_t *a, fr_t *b, fr_t *c) {
        return pce_evaluate(circuit, w, n_vars, log_domain_size, a, b, c);
}

/* The two memfds from a loaded circuit and witness (n_values values). */
static int fill_outputs(const char *circuit_path, evaluate_fn evaluate, const void *circuit,
                        const fr_t *values, size_t n_values, unsigned log_domain_size,
                        struct worker_synth_output *ret) {
        _cleanup_(filling_release) struct filling abc = {.fd = -EBADF}, wit = {.fd = -EBADF};
        const size_t n = (size_t)1 << log_domain_size;
        fr_t *a;
        int r;

        r = filling_new("cuzk-abc", 3 * n * sizeof(fr_t), &abc);
        if (r < 0)
                return r;
        r = filling_new("cuzk-witness", n_values * sizeof(fr_t), &wit);
        if (r < 0)
                return r;
        a = abc.map;
        r = evaluate(circuit, values, n_values, log_domain_size, a, a + n, a + 2 * n);
        if (r < 0)
                return log_error_errno(r,
                                       "%s: evaluating the constraints on 2^%u points failed: %m",
                                       circuit_path, log_domain_size);
        memcpy(wit.map, values, n_values * sizeof(fr_t));

        r = filling_finish(&abc, true, &ret->abc_fd); /* the CPU prover writes H here */
        if (r < 0)
                return r;
        r = filling_finish(&wit, false, &ret->w_fd);
        if (r < 0) {
                close(TAKE_FD(ret->abc_fd));
                return r;
        }
        ret->n_vars = n_values;
        ret->log_domain_size = log_domain_size;
        return 0;
}

/* The compact witness into its memfd. */
static int fill_compact(const struct pce_compact_witness *w, unsigned log_domain_size,
                        struct worker_synth_output *ret) {
        _cleanup_(filling_release) struct filling f = {.fd = -EBADF};
        const uint64_t n_nums = pce_compact_nums(w);
        const size_t bytes = ipc_compact_bytes(w->n_inputs, w->n_aux, n_nums);
        int r;

        if (bytes == 0)
                return log_error_errno(E2BIG, "A compact witness of %" PRIu64 " aux: too large",
                                       w->n_aux);
        r = filling_new("cuzk-compact-witness", bytes, &f);
        if (r < 0)
                return r;
        ipc_compact_write(w, n_nums, f.map);
        r = filling_finish(&f, false, &ret->compact_fd);
        if (r < 0)
                return r;
        ret->compact_bytes = bytes;
        ret->n_vars = 1 + (uint64_t)w->n_inputs + w->n_aux;
        ret->log_domain_size = log_domain_size;
        return 0;
}

/* A compact witness must fit the PCE it will be evaluated with. */
static int check_compact_shape(const char *witness_path, const struct pce_compact_witness *w,
                               const char *circuit_path, const struct pce_file_shape *shape) {
        if (w->n_inputs != shape->n_public || 1 + (uint64_t)w->n_inputs + w->n_aux != shape->n_cols)
                return log_error_errno(EINVAL,
                                       "%s: 1 + %" PRIu32 " inputs + %" PRIu64 " aux, %s expects "
                                       "%" PRIu32 " inputs of %" PRIu32 " wires",
                                       witness_path, w->n_inputs, w->n_aux, circuit_path,
                                       shape->n_public, shape->n_cols);
        /* Admission sized this worker by the count (job_shape_compact_synthesized). */
        if (pce_compact_nums(w) > shape->max_aux_values)
                return log_error_errno(EINVAL,
                                       "%s: %" PRIu64 " aux are values, not bits; %s counts at "
                                       "most %" PRIu64 ": not its circuit",
                                       witness_path, pce_compact_nums(w), circuit_path,
                                       shape->max_aux_values);
        return 0;
}

/* The task's .wtns, of the n_vars values its circuit expects. */
static int load_witness(const struct ipc_task *task, uint32_t n_vars, struct wtns **ret) {
        _cleanup_(wtns_freep) struct wtns *w = NULL;
        int r;

        r = wtns_load(task->witness_path, &w);
        if (r < 0)
                return r;
        if (w->n_values != n_vars)
                return log_error_errno(
                        EINVAL, "%s: the witness has %" PRIu32 " values, %s expects %" PRIu32,
                        task->witness_path, w->n_values, task->circuit_path, n_vars);
        *ret = TAKE_PTR(w);
        return 0;
}

/* Only the key's coefficient section is read: its points are the prover's. */
static int synthesize_snarkjs(const struct ipc_task *task, struct worker_synth_output *ret) {
        _cleanup_(zkey_constraints_free) struct zkey_constraints zc = {0};
        _cleanup_(wtns_freep) struct wtns *w = NULL;
        struct groth16_constraints cs = {.a = &zc.a, .b = &zc.b, .c = NULL};
        int r;

        r = zkey_constraints_load(task->circuit_path, &zc);
        if (r < 0)
                return r;
        r = load_witness(task, zc.n_vars, &w);
        if (r < 0)
                return r;
        return fill_outputs(task->circuit_path, evaluate_zkey, &cs, w->values, w->n_values,
                            zc.log2_domain_size, ret);
}

/* A synthetic job's compact witness: its .wtns's 0/1 aux become bits. */
static int synthesize_pce_compact(const struct ipc_task *task, struct worker_synth_output *ret) {
        _cleanup_(pce_compact_owned_free) struct pce_compact_owned cw = {0};
        _cleanup_(wtns_freep) struct wtns *w = NULL;
        struct pce_file_shape shape;
        int r;

        r = pce_file_shape(task->circuit_path, &shape);
        if (r < 0)
                return r;
        r = load_witness(task, shape.n_cols, &w);
        if (r < 0)
                return r;
        r = pce_compact_from_full(w->values, shape.n_public, shape.n_cols - 1 - shape.n_public,
                                  &cw);
        if (r < 0)
                return log_error_errno(r, "%s: the compact witness: %m", task->witness_path);
        return fill_compact(&cw.w, shape.log_domain_size, ret);
}

static int synthesize_pce(const struct ipc_task *task, struct worker_synth_output *ret) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_(wtns_freep) struct wtns *w = NULL;
        int r;

        if (task->witness_form == IPC_WITNESS_COMPACT)
                return synthesize_pce_compact(task, ret);
        r = pce_load(task->circuit_path, &pce);
        if (r < 0)
                return r;
        r = load_witness(task, pce->n_cols, &w);
        if (r < 0)
                return r;
        return fill_outputs(task->circuit_path, evaluate_pce, pce, w->values, w->n_values,
                            pce_log_domain_size(pce), ret);
}

/* Partition k's witness (its constraint system) from the C1 output at c1_path, bare or in
 * Curio's envelope (the supervisor checked it when the job came in). */
static int porep_partition_cs(const char *c1_path, unsigned k, struct cs **ret) {
        _cleanup_(c1_output_freep) struct c1_output *c1 = NULL;
        struct bellperson_map map;
        int r;

        r = bellperson_map_file(c1_path, &map);
        if (r < 0)
                return r;
        r = c1_parse_any((const char *)map.data, map.size, c1_path, &c1, NULL);
        bellperson_unmap_file(&map);
        if (r < 0)
                return r;
        if (k >= c1->n_partitions)
                return log_error_errno(EINVAL, "%s: partition %u, the C1 output has %u", c1_path, k,
                                       c1->n_partitions);
        r = porep_circuit_witness(c1, k, ret);
        if (r < 0)
                return log_error_errno(r, "%s: partition %u: cannot compute its witness: %m",
                                       c1_path, k);
        return 0;
}

/* Partition k's full witness (PCE column order). */
static int porep_partition_witness(const char *c1_path, unsigned k, fr_t **ret, size_t *ret_n) {
        _cleanup_(cs_freep) struct cs *cs = NULL;
        int r;

        r = porep_partition_cs(c1_path, k, &cs);
        if (r >= 0 && (r = cs_witness_full(cs, ret, ret_n)) < 0)
                return log_error_errno(r, "%s: partition %u: cannot compute its witness: %m",
                                       c1_path, k);
        return r;
}

/* A PoRep task's compact witness, straight from the constraint system's bits. */
static int synthesize_porep_compact(const struct ipc_task *task, struct worker_synth_output *ret) {
        _cleanup_(cs_freep) struct cs *cs = NULL;
        _cleanup_free_ uint64_t *rank = NULL;
        struct pce_compact_witness cw;
        struct pce_file_shape shape;
        int r;

        r = pce_file_shape(task->circuit_path, &shape);
        if (r < 0)
                return r;
        r = porep_partition_cs(task->witness_path, task->partition, &cs);
        if (r < 0)
                return r;
        r = cs_witness_compact(cs, &cw, &rank);
        if (r < 0)
                return log_error_errno(r, "%s: partition %" PRIu32 ": its compact witness: %m",
                                       task->witness_path, task->partition);
        r = check_compact_shape(task->witness_path, &cw, task->circuit_path, &shape);
        if (r < 0)
                return r;
        return fill_compact(&cw, shape.log_domain_size, ret);
}

/* A PoRep task: the witness first, its C1 and constraint system freed before the memfds are
 * made, so that the worker's peak holds the witness twice (its copy and the memfd's), never
 * beside the C1 and a/b/c at once. */
static int synthesize_porep(const struct ipc_task *task, struct worker_synth_output *ret) {
        _cleanup_(pce_freep) struct pce *pce = NULL;
        _cleanup_free_ fr_t *w = NULL;
        size_t n = 0;
        int r;

        if (task->witness_form == IPC_WITNESS_COMPACT)
                return synthesize_porep_compact(task, ret);
        r = porep_partition_witness(task->witness_path, task->partition, &w, &n);
        if (r < 0)
                return r;
        r = pce_load(task->circuit_path, &pce);
        if (r < 0)
                return r;
        if (n != pce->n_cols)
                return log_error_errno(EINVAL,
                                       "%s: partition %" PRIu32 " has %zu witness values, %s "
                                       "expects %" PRIu32,
                                       task->witness_path, task->partition, n, task->circuit_path,
                                       pce->n_cols);
        return fill_outputs(task->circuit_path, evaluate_pce, pce, w, n, pce_log_domain_size(pce),
                            ret);
}

/* A client's input must be a regular file. The readers open it blocking: a FIFO would
 * hold the worker (and its slot) until a writer came, a device could react to the open.
 * This open does neither (O_NONBLOCK, O_NOCTTY), and the input fails at once instead. */
static int check_regular_file(const char *path) {
        _cleanup_close_ int fd = -EBADF;
        struct stat st;

        fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
        if (fd < 0)
                return log_error_errno(errno, "%s: cannot open: %m", path);
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
                return log_error_errno(EINVAL,
                                       "%s: not a regular file, expected a witness or a "
                                       "circuit file",
                                       path);
        return 0;
}

int worker_synthesize(const struct ipc_task *task, struct worker_synth_output *ret) {
        struct worker_synth_output out = {.witness_form = task->witness_form,
                                          .abc_fd = -EBADF,
                                          .w_fd = -EBADF,
                                          .compact_fd = -EBADF};
        int r;

        assert(task);
        assert(ret);

        r = check_regular_file(task->circuit_path);
        if (r >= 0)
                r = check_regular_file(task->witness_path);
        if (r < 0)
                return r;
        if (task->witness_form != IPC_WITNESS_FULL &&
            (task->witness_form != IPC_WITNESS_COMPACT || task->kind == JOB_GROTH16_SNARKJS))
                return log_error_errno(EINVAL,
                                       "Task %" PRIu64 ": witness form %" PRIu32
                                       " for job kind %" PRIu32
                                       ", expected the full form (a compact one needs a PCE)",
                                       task->task_id, task->witness_form, task->kind);
        switch (task->kind) {
        case JOB_GROTH16_SNARKJS:
                r = synthesize_snarkjs(task, &out);
                break;
        case JOB_SYNTHETIC_PCE:
                r = synthesize_pce(task, &out);
                break;
        case JOB_POREP_C2:
                r = synthesize_porep(task, &out);
                break;
        default:
                return log_error_errno(EINVAL, "Task %" PRIu64 ": unknown job kind %" PRIu32,
                                       task->task_id, task->kind);
        }
        if (r < 0)
                return r;
        *ret = out;
        return 0;
}

void worker_synth_output_close(struct worker_synth_output *output) {
        assert(output);
        if (output->abc_fd >= 0)
                close(output->abc_fd);
        if (output->w_fd >= 0)
                close(output->w_fd);
        if (output->compact_fd >= 0)
                close(output->compact_fd);
        output->abc_fd = output->w_fd = output->compact_fd = -EBADF;
}
