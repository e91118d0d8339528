/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What admission reserves for a PoRep partition's worker in the compact form
 * (job_shape_compact_synthesized plus twice the C1 output, as job-porep.c adds it)
 * against what the worker really holds, on sealed 2 KiB and 8 MiB sectors:
 *   1. the PCE of the sector size records the count of aux its circuit allocates as
 *      values, and the worker's compact witness has exactly that many;
 *   2. the worker's memory high-water mark while it synthesizes the compact witness
 *      (measured in a process that does nothing else, from a warm start: its OpenMP
 *      threads and libraries are the slack's, WorkerSlack=) stays within the reservation;
 *   3. the reservation is a small part of what "every aux a value" would reserve;
 *   4. a witness with more values than the PCE counts (here: a count lowered by one) is
 *      refused by the worker as not the PCE's circuit.
 */
#include <setjmp.h> /* cmocka.h needs these first */
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "circuits/pce-compact.h"
#include "circuits/pce-crc32c.h"
#include "circuits/pce-file.h"
#include "circuits/porep/porep-pce.h"
#include "common/cleanup.h"
#include "daemon/executor/ipc-compact.h"
#include "daemon/executor/ipc.h"
#include "daemon/supervisor/job.h"
#include "daemon/worker/worker-synth.h"
#include "filecoin/c1/c1.h"
#include "filecoin/porep/ids.h"
#include "filecoin/seal/seal.h"
#include "formats/binfile.h"

static char dir[] = "/tmp/test-porep-worker-bound-XXXXXX";
static char c1_path[128], pce_path[128], params_path[128];

static int setup(void **state) {
        (void)state;
        if (!mkdtemp(dir))
                return -1;
        snprintf(c1_path, sizeof(c1_path), "%s/c1.json", dir);
        snprintf(pce_path, sizeof(pce_path), "%s/porep.pce", dir);
        snprintf(params_path, sizeof(params_path), "%s/porep.params", dir);
        return 0;
}

static int teardown(void **state) {
        (void)state;
        unlink(c1_path);
        unlink(pce_path);
        unlink(params_path);
        return rmdir(dir);
}

/* A sealed 2 KiB sector's C1 output in a file; returns its size. */
static uint64_t write_sealed_c1(const struct porep_config *cfg) {
        struct seal_inputs in = {.cfg = cfg, .sector_id = 1};
        struct c1_output *c1 = NULL;
        struct stat st;
        FILE *f;

        memset(in.seed, 7, 32);
        assert_true(porep_prover_id_from_miner(1000, in.prover_id) > 0);
        assert_int_equal(porep_seal(&in, &c1), 0);
        f = fopen(c1_path, "w");
        assert_non_null(f);
        assert_int_equal(c1_write(c1, f), 0);
        assert_int_equal(fclose(f), 0);
        c1_output_free(c1);
        assert_int_equal(stat(c1_path, &st), 0);
        return (uint64_t)st.st_size;
}

/* A field of /proc/self/status, in bytes. */
static uint64_t status_bytes(const char *field) {
        char line[256];
        uint64_t kib = 0;
        FILE *f = fopen("/proc/self/status", "r");

        assert_non_null(f);
        while (fgets(line, sizeof(line), f))
                if (!strncmp(line, field, strlen(field)))
                        kib = strtoull(line + strlen(field), NULL, 10);
        fclose(f);
        return kib * 1024;
}

/* The worker's compact synthesis of partition 0, in this process: its answer. */
static int try_synthesize(struct worker_synth_output *ret) {
        struct ipc_task task = {.task_id = 1,
                                .kind = JOB_POREP_C2,
                                .partition = 0,
                                .witness_form = IPC_WITNESS_COMPACT};

        snprintf(task.circuit_path, sizeof(task.circuit_path), "%s", pce_path);
        snprintf(task.key_path, sizeof(task.key_path), "%s", params_path);
        snprintf(task.witness_path, sizeof(task.witness_path), "%s", c1_path);
        *ret = (struct worker_synth_output){.abc_fd = -EBADF, .w_fd = -EBADF, .compact_fd = -EBADF};
        return worker_synthesize(&task, ret);
}

static void synthesize(struct worker_synth_output *ret) {
        assert_int_equal(try_synthesize(ret), 0);
}

/* What the child measured. */
struct measured {
        uint32_t n_public;
        uint64_t n_aux, n_aux_values, max_aux_values;
        uint64_t compact_bytes;  /* the worker's compact witness */
        uint64_t reserved_bytes; /* what admission reserves for the worker */
        uint64_t peak_bytes;     /* its high-water mark above the warm process */
        uint64_t c1_bytes;
        int refused; /* the worker's answer with a PCE that counts one value fewer */
};

/* The peak of a second synthesis above what the process holds before it: the first one
 * started the OpenMP threads and touched the libraries. */
static uint64_t peak_of_second_synthesis(void) {
        struct worker_synth_output out;
        uint64_t before;
        int fd;

        synthesize(&out);
        worker_synth_output_close(&out);
        (void)malloc_trim(0);
        /* 5: the high-water mark starts again from what is resident now */
        fd = open("/proc/self/clear_refs", O_WRONLY | O_CLOEXEC);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, "5", 1), 1);
        close(fd);
        before = status_bytes("VmRSS:");
        synthesize(&out);
        worker_synth_output_close(&out);
        return status_bytes("VmHWM:") - before;
}

/* Rewrites the PCE file's count of value aux (and the header's checksum). */
static void set_aux_values(uint64_t n_aux_values) {
        uint8_t header[PCE_FILE_HEADER_BYTES];
        int fd = open(pce_path, O_RDWR | O_CLOEXEC);

        assert_true(fd >= 0);
        assert_int_equal(pread(fd, header, sizeof(header), 0), sizeof(header));
        bin_put_le64(header + PCE_FILE_AUX_VALUES_OFFSET, n_aux_values);
        bin_put_le32(header + PCE_FILE_HEADER_BYTES - 4,
                     pce_crc32c(0, header, PCE_FILE_HEADER_BYTES - 4));
        assert_int_equal(pwrite(fd, header, sizeof(header), 0), sizeof(header));
        close(fd);
}

/* The sealed sector's C1, the size's PCE and what admission reserves for its worker. */
static void prepare(const char *size_name, struct measured *ret) {
        const struct porep_config *cfg = porep_config_by_name(size_name);
        _cleanup_(pce_freep) struct pce *pce = NULL;
        struct job_shape shape;
        char msg[512];
        FILE *f;

        assert_non_null(cfg);
        ret->c1_bytes = write_sealed_c1(cfg);
        assert_int_equal(porep_pce_build(cfg, &pce), 0);
        assert_true(pce->flags & PCE_AUX_VALUES);
        assert_int_equal(pce_save(pce, pce_path), 0);
        /* The key's size says nothing of the worker: any file stands in for it. */
        f = fopen(params_path, "w");
        assert_non_null(f);
        fputs("params", f);
        assert_int_equal(fclose(f), 0);

        /* what admission reserves, as job_porep_inputs computes it */
        assert_int_equal(job_shape_pce(pce_path, params_path, 1, &shape, msg, sizeof(msg)), 0);
        job_shape_compact_synthesized(&shape);
        ret->max_aux_values = shape.max_aux_values;
        ret->reserved_bytes = shape.compact_abc_bytes + 2 * ret->c1_bytes;
        ret->n_public = pce->n_public;
        ret->n_aux = pce->n_cols - 1 - pce->n_public;
        ret->n_aux_values = pce->n_aux_values;
}

/* The worker's part, in a process that has done nothing else (as a worker has not). */
static void measure(const char *size_name, struct measured *ret) {
        struct worker_synth_output out;

        (void)size_name;
        synthesize(&out);
        ret->compact_bytes = out.compact_bytes;
        worker_synth_output_close(&out);
        ret->peak_bytes = peak_of_second_synthesis();

        /* A witness with more values than its PCE counts is refused, naming both. */
        set_aux_values(ret->n_aux_values - 1);
        ret->refused = try_synthesize(&out);
}

/* Runs fn in a child and takes its *m back. libgomp's threads do not survive a fork, so
 * this process never starts them: each child is forked from one that has none. */
static void in_child(void (*fn)(const char *, struct measured *), const char *size_name,
                     struct measured *m) {
        int fds[2], status;
        pid_t pid;

        assert_int_equal(pipe(fds), 0);
        pid = fork();
        assert_true(pid >= 0);
        if (pid == 0) {
                close(fds[0]);
                fn(size_name, m);
                _exit(write(fds[1], m, sizeof(*m)) == sizeof(*m) ? 0 : 3);
        }
        close(fds[1]);
        assert_int_equal(read(fds[0], m, sizeof(*m)), sizeof(*m));
        close(fds[0]);
        assert_int_equal(waitpid(pid, &status, 0), pid);
        assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static void check_within_reservation(const char *size_name) {
        struct measured m = {0};
        uint64_t every_aux;

        in_child(prepare, size_name, &m);
        in_child(measure, size_name, &m);

        /* 1: the recorded count bounds the witness, exactly */
        assert_int_equal(m.max_aux_values, m.n_aux_values);
        assert_int_equal(m.compact_bytes, ipc_compact_bytes(m.n_public, m.n_aux, m.n_aux_values));
        /* 2, 3 */
        every_aux = 6 * (pce_compact_bytes(m.n_public, m.n_aux, m.n_aux) + 64) + 2 * m.c1_bytes;
        print_message("%s: %" PRIu64 " of %" PRIu64 " aux are values; compact witness %" PRIu64
                      " bytes; worker peak %" PRIu64 ", reserved %" PRIu64
                      " (every aux a value: %" PRIu64 ")\n",
                      size_name, m.n_aux_values, m.n_aux, m.compact_bytes, m.peak_bytes,
                      m.reserved_bytes, every_aux);
#if !defined(__SANITIZE_ADDRESS__)
        /* AddressSanitizer's shadow memory and quarantine count in the resident peak (2 KiB:
         * 13.9 MB there, 5.3-7.5 MB with the production allocator): the bound is checked
         * where the allocator is the one the daemon runs with. */
        assert_true(m.peak_bytes <= m.reserved_bytes);
#endif
        assert_true(m.reserved_bytes < every_aux / 5);
        /* 4 */
        assert_int_equal(m.refused, -EINVAL);
}

static void test_2k_worker_within_reservation(void **state) {
        (void)state;
        check_within_reservation("StackedDrg2KiBV1_1");
}

static void test_8m_worker_within_reservation(void **state) {
        (void)state;
        check_within_reservation("StackedDrg8MiBV1_1");
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_2k_worker_within_reservation),
                cmocka_unit_test(test_8m_worker_within_reservation),
        };
        return cmocka_run_group_tests(tests, setup, teardown);
}
