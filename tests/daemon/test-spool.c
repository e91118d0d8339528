/* SPDX-License-Identifier: Apache-2.0 */
/* The spool: jobs saved and loaded back (with and without an inline witness
 * and a result), oldest first, corrupt jobs renamed and skipped, what a
 * crash leaves behind ignored, removal, and the refusals; the lock against a second
 * daemon, the SpoolMaxBytes= quota, a failed job's inline input removed, quarantined jobs
 * remembered with their reason, and the longest request id read back. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "common/log.h"
#include "daemon/supervisor/spool.h"
#include "tests/lib/fixture.h"

struct fixture {
        char top[64];
        char dir[128]; /* the spool, <top>/a/spool: spool_open creates it */
        struct spool *spool;
};

static int setup(void **state) {
        struct fixture *f = calloc(1, sizeof(*f));

        assert_non_null(f);
        strcpy(f->top, "/tmp/test-spool-XXXXXX");
        assert_non_null(mkdtemp(f->top));
        snprintf(f->dir, sizeof(f->dir), "%s/a/spool", f->top);
        test_log_capture(LOG_DEBUG);
        assert_int_equal(spool_open(f->dir, &f->spool), 0);
        *state = f;
        return 0;
}

static int teardown(void **state) {
        struct fixture *f = *state;

        spool_free(f->spool);
        test_remove_tree(f->top);
        free(f);
        test_log_capture_stop();
        return 0;
}

/* The submitting peer of the jobs saved here: uid 1000 in two groups. */
static const struct api_peer OWNER = {
        .known = true, .pid = 77, .uid = 1000, .gid = 100, .n_groups = 2, .groups = {100, 4242}};

/* What spool_load_all() handed over, copied out of the callback. */
struct loaded_job {
        char job_id[64];
        uint64_t submitted_usec;
        char request_id[64];
        char zkey_path[64];
        uint32_t partitions;
        size_t request_wtns_len, request_vanilla_len;
        char wtns_path[256];
        bool has_result;
        int status;
        uint8_t proof[8];
        size_t proof_len;
        char proof_json[64];
        struct api_peer owner;
};

struct loaded {
        struct loaded_job jobs[8];
        size_t n;
        int stop_after; /* return -ECANCELED from this call on (0: never) */
};

static int collect(void *userdata, const char *job_id, const Cuzk__V1__SubmitProofRequest *request,
                   uint64_t submitted_usec, const struct api_peer *owner, const char *wtns_path,
                   const Cuzk__V1__AwaitProofResponse *result) {
        struct loaded *l = userdata;
        struct loaded_job *j;

        assert_true(l->n < 8);
        if (l->stop_after && (int)l->n + 1 >= l->stop_after)
                return -ECANCELED;
        j = &l->jobs[l->n++];
        snprintf(j->job_id, sizeof(j->job_id), "%s", job_id);
        j->submitted_usec = submitted_usec;
        j->owner = *owner;
        snprintf(j->request_id, sizeof(j->request_id), "%s", request->request_id);
        snprintf(j->zkey_path, sizeof(j->zkey_path), "%s", request->zkey_path);
        j->partitions = request->partitions;
        j->request_wtns_len = request->wtns.len;
        j->request_vanilla_len = request->vanilla_proof.len;
        snprintf(j->wtns_path, sizeof(j->wtns_path), "%s", wtns_path ? wtns_path : "");
        j->has_result = result != NULL;
        if (result) {
                j->status = result->status;
                j->proof_len = result->proof.len;
                memcpy(j->proof, result->proof.data, result->proof.len < 8 ? result->proof.len : 8);
                snprintf(j->proof_json, sizeof(j->proof_json), "%s", result->proof_json);
        }
        return 0;
}

static void save(struct fixture *f, const char *job_id, const char *request_id,
                 uint64_t submitted_usec) {
        Cuzk__V1__SubmitProofRequest request = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
        char *wtns_path = (char *)"unset";

        request.request_id = (char *)request_id;
        request.proof_kind = CUZK__V1__PROOF_KIND__SYNTHETIC_PCE;
        request.pce_path = (char *)"/x/porep.pce";
        request.partitions = 10;
        assert_int_equal(
                spool_save_job(f->spool, job_id, &request, submitted_usec, &OWNER, &wtns_path), 0);
        assert_null(wtns_path);
}

static bool exists(const struct fixture *f, const char *name) {
        char path[256];

        snprintf(path, sizeof(path), "%s/%s", f->dir, name);
        return access(path, F_OK) == 0;
}

static void write_file(const struct fixture *f, const char *name, const void *data, size_t size) {
        char path[256];
        int fd;

        snprintf(path, sizeof(path), "%s/%s", f->dir, name);
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, data, size), (ssize_t)size);
        assert_int_equal(close(fd), 0);
}

static void test_round_trip(void **state) {
        static const uint8_t wtns[] = {'w', 't', 'n', 's', 2, 0, 0, 0, 0xff, 0x00, 0x7f};
        static const uint8_t proof[] = {1, 2, 3, 4, 5};
        Cuzk__V1__SubmitProofRequest request = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
        Cuzk__V1__AwaitProofResponse result = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
        struct fixture *f = *state;
        struct loaded l = {0};
        char *wtns_path = NULL, expected_path[256], buf[128];
        FILE *file;

        /* A snarkjs job with its witness inline: the bytes go to input.wtns. */
        request.request_id = (char *)"req\nwith\\odd bytes";
        request.proof_kind = CUZK__V1__PROOF_KIND__GROTH16_SNARKJS;
        request.zkey_path = (char *)"/data/c.zkey";
        request.wtns.data = (uint8_t *)wtns;
        request.wtns.len = sizeof(wtns);
        assert_int_equal(spool_save_job(f->spool, "job-1", &request, 1000, &OWNER, &wtns_path), 0);
        snprintf(expected_path, sizeof(expected_path), "%s/job-1/input.wtns", f->dir);
        assert_non_null(wtns_path);
        assert_string_equal(wtns_path, expected_path);
        file = fopen(wtns_path, "re");
        assert_non_null(file);
        assert_int_equal(fread(buf, 1, sizeof(buf), file), sizeof(wtns));
        fclose(file);
        assert_memory_equal(buf, wtns, sizeof(wtns));
        free(wtns_path);
        /* meta names the request id, escaped to stay on its line. */
        snprintf(expected_path, sizeof(expected_path), "%s/job-1/meta", f->dir);
        file = fopen(expected_path, "re");
        assert_non_null(file);
        memset(buf, 0, sizeof(buf));
        assert_true(fread(buf, 1, sizeof(buf) - 1, file) > 0);
        fclose(file);
        assert_string_equal(buf, "submitted_usec=1000\nowner_uid=1000\nowner_gid=100\n"
                                 "owner_groups=100,4242\nrequest_id=req\\x0awith\\x5codd bytes\n");

        /* A job without an inline witness. */
        save(f, "job-2", "r2", 2000);

        assert_int_equal(spool_load_all(f->spool, collect, &l), 0);
        assert_int_equal(l.n, 2);
        assert_string_equal(l.jobs[0].job_id, "job-1");
        assert_int_equal(l.jobs[0].submitted_usec, 1000);
        assert_string_equal(l.jobs[0].request_id, "req\nwith\\odd bytes");
        assert_string_equal(l.jobs[0].zkey_path, "/data/c.zkey");
        assert_int_equal(l.jobs[0].request_wtns_len, 0); /* stored once, as input.wtns */
        snprintf(expected_path, sizeof(expected_path), "%s/job-1/input.wtns", f->dir);
        assert_string_equal(l.jobs[0].wtns_path, expected_path);
        assert_false(l.jobs[0].has_result);
        assert_string_equal(l.jobs[1].job_id, "job-2");
        assert_int_equal(l.jobs[1].partitions, 10);
        assert_string_equal(l.jobs[1].wtns_path, "");
        assert_false(l.jobs[1].has_result);

        /* The result comes back with the job. */
        result.job_id = (char *)"job-2";
        result.status = CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED;
        result.proof.data = (uint8_t *)proof;
        result.proof.len = sizeof(proof);
        result.proof_json = (char *)"{\"pi_a\":[]}";
        assert_int_equal(spool_save_result(f->spool, "job-2", &result), 0);
        memset(&l, 0, sizeof(l));
        assert_int_equal(spool_load_all(f->spool, collect, &l), 0);
        assert_int_equal(l.n, 2);
        assert_false(l.jobs[0].has_result);
        assert_true(l.jobs[1].has_result);
        assert_int_equal(l.jobs[1].status, CUZK__V1__AWAIT_PROOF_RESPONSE__STATUS__COMPLETED);
        assert_int_equal(l.jobs[1].proof_len, sizeof(proof));
        assert_memory_equal(l.jobs[1].proof, proof, sizeof(proof));
        assert_string_equal(l.jobs[1].proof_json, "{\"pi_a\":[]}");

        /* Opening the spool again (a restart) sees the same. */
        spool_free(f->spool);
        assert_int_equal(spool_open(f->dir, &f->spool), 0);
        memset(&l, 0, sizeof(l));
        assert_int_equal(spool_load_all(f->spool, collect, &l), 0);
        assert_int_equal(l.n, 2);
}

/* A PoRep job's C1 output (vanilla_proof, ~51 MB at 32 GiB) is stored once, as input.c1,
 * which its worker reads by path, and comes back as the job's input file. */
static void test_porep_c1(void **state) {
        static const char c1[] = "{\"SectorNum\":1,\"Phase1Out\":\"e30=\",\"SectorSize\":2048}";
        struct fixture *f = *state;
        Cuzk__V1__SubmitProofRequest request = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
        struct loaded l = {0};
        char *input_path = NULL, expected_path[256], buf[128] = "";
        FILE *file;

        request.proof_kind = CUZK__V1__PROOF_KIND__POREP_SEAL_COMMIT;
        request.registered_proof = 5;
        request.vanilla_proof.data = (uint8_t *)c1;
        request.vanilla_proof.len = strlen(c1);
        assert_int_equal(spool_save_job(f->spool, "job-p", &request, 1000, &OWNER, &input_path), 0);
        snprintf(expected_path, sizeof(expected_path), "%s/job-p/input.c1", f->dir);
        assert_non_null(input_path);
        assert_string_equal(input_path, expected_path);
        file = fopen(input_path, "re");
        assert_non_null(file);
        assert_int_equal(fread(buf, 1, sizeof(buf) - 1, file), strlen(c1));
        fclose(file);
        assert_string_equal(buf, c1);
        free(input_path);

        assert_int_equal(spool_load_all(f->spool, collect, &l), 0);
        assert_int_equal(l.n, 1);
        assert_int_equal(l.jobs[0].request_vanilla_len, 0); /* not in request.pb as well */
        assert_string_equal(l.jobs[0].wtns_path, expected_path);
}

static void test_oldest_first(void **state) {
        struct fixture *f = *state;
        struct loaded l = {0};

        save(f, "c", "rc", 300);
        save(f, "a", "ra", 100);
        save(f, "z", "rz", 200);
        save(f, "b", "rb", 200); /* same time: by job id */
        assert_int_equal(spool_load_all(f->spool, collect, &l), 0);
        assert_int_equal(l.n, 4);
        assert_string_equal(l.jobs[0].job_id, "a");
        assert_string_equal(l.jobs[1].job_id, "b");
        assert_string_equal(l.jobs[2].job_id, "z");
        assert_string_equal(l.jobs[3].job_id, "c");
        assert_string_equal(l.jobs[3].request_id, "rc");

        /* A negative return stops the walk and is returned. */
        memset(&l, 0, sizeof(l));
        l.stop_after = 2;
        assert_int_equal(spool_load_all(f->spool, collect, &l), -ECANCELED);
        assert_int_equal(l.n, 1);
}

static void test_corrupt(void **state) {
        static const uint8_t garbage[] = {0xff, 0xff, 0xff, 0xff, 0x07};
        struct fixture *f = *state;
        struct loaded l = {0};
        char path[256];

        save(f, "good", "r", 100);
        save(f, "bad-request", "r", 200);
        write_file(f, "bad-request/request.pb", garbage, sizeof(garbage));
        save(f, "bad-result", "r", 300);
        write_file(f, "bad-result/result.pb", garbage, sizeof(garbage));
        save(f, "bad-meta", "r", 400);
        write_file(f, "bad-meta/meta", "submitted_usec=soon\n", 20);
        save(f, "no-request", "r", 500);
        snprintf(path, sizeof(path), "%s/no-request/request.pb", f->dir);
        assert_int_equal(unlink(path), 0);

        assert_int_equal(spool_load_all(f->spool, collect, &l), 0);
        assert_int_equal(l.n, 1);
        assert_string_equal(l.jobs[0].job_id, "good");
        test_assert_logged("job bad-request: request.pb is not a SubmitProofRequest message");
        test_assert_logged("moved to bad-request.corrupt and skipped");
        test_assert_logged("job bad-result: result.pb is not an AwaitProofResponse message");
        test_assert_logged("job bad-meta: cannot read meta");
        test_assert_logged("job no-request: cannot read request.pb: No such file or directory");
        assert_false(exists(f, "bad-request"));
        assert_true(exists(f, "bad-request.corrupt/request.pb"));
        assert_true(exists(f, "bad-result.corrupt"));
        assert_true(exists(f, "bad-meta.corrupt"));
        assert_true(exists(f, "no-request.corrupt"));

        /* Skipped from then on, and a second corrupt copy of a job does not
         * overwrite the first. */
        memset(&l, 0, sizeof(l));
        save(f, "bad-request", "r", 600);
        write_file(f, "bad-request/meta", "", 0);
        assert_int_equal(spool_load_all(f->spool, collect, &l), 0);
        assert_int_equal(l.n, 1);
        assert_true(exists(f, "bad-request.corrupt-1/request.pb"));
        assert_true(exists(f, "bad-request.corrupt/request.pb"));
}

/* The owner comes back as saved: a local peer with its groups, an anonymous (TCP) one,
 * and root for a meta written before owners were recorded. */
static void test_owner(void **state) {
        static const struct api_peer anonymous = {.known = false};
        Cuzk__V1__SubmitProofRequest request = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
        struct fixture *f = *state;
        struct loaded l = {0};

        request.proof_kind = CUZK__V1__PROOF_KIND__SYNTHETIC_PCE;
        request.request_id = (char *)"";
        save(f, "a-local", "r", 100);
        assert_int_equal(spool_save_job(f->spool, "b-tcp", &request, 200, &anonymous, NULL), 0);
        save(f, "c-legacy", "r", 300);
        write_file(f, "c-legacy/meta", "submitted_usec=300\nrequest_id=r\n", 32);
        save(f, "d-bad-group", "r", 400);
        write_file(f, "d-bad-group/meta",
                   "submitted_usec=400\nowner_uid=5\nowner_gid=5\nowner_groups=5,x\n", 60);

        assert_int_equal(spool_load_all(f->spool, collect, &l), 0);
        assert_int_equal(l.n, 3);
        assert_true(l.jobs[0].owner.known);
        assert_int_equal(l.jobs[0].owner.uid, 1000);
        assert_int_equal(l.jobs[0].owner.gid, 100);
        assert_int_equal(l.jobs[0].owner.n_groups, 2);
        assert_int_equal(l.jobs[0].owner.groups[1], 4242);
        assert_int_equal(l.jobs[0].owner.pid, 0); /* a pid means nothing after a restart */
        assert_false(l.jobs[1].owner.known);
        assert_true(l.jobs[2].owner.known);
        assert_int_equal(l.jobs[2].owner.uid, 0);
        assert_int_equal(l.jobs[2].owner.n_groups, 0);
        test_assert_logged("job d-bad-group: cannot read meta");
}

static void test_leftovers(void **state) {
        struct fixture *f = *state;
        struct loaded l = {0};
        char path[256];

        save(f, "job", "r", 100);
        /* A result whose write was cut short, inside a job ... */
        write_file(f, "job/.result.pb.tmp-AbC123", "partial", 7);
        /* ... a job directory never renamed into place ... */
        snprintf(path, sizeof(path), "%s/.job2.tmp-XyZ789", f->dir);
        assert_int_equal(mkdir(path, 0750), 0);
        write_file(f, ".job2.tmp-XyZ789/request.pb", "", 0);
        /* ... and things that are not jobs at all. */
        write_file(f, "stray-file", "x", 1);
        write_file(f, ".hidden", "x", 1);

        assert_int_equal(spool_load_all(f->spool, collect, &l), 0);
        assert_int_equal(l.n, 1);
        assert_string_equal(l.jobs[0].job_id, "job");
        assert_false(l.jobs[0].has_result);
        assert_false(exists(f, "job/.result.pb.tmp-AbC123"));
        assert_false(exists(f, ".job2.tmp-XyZ789"));
        assert_true(exists(f, "stray-file")); /* left for a person to look at */
        test_assert_logged("stray-file is not a job directory, ignored");
}

static void test_remove(void **state) {
        struct fixture *f = *state;
        struct loaded l = {0};
        char path[256];

        save(f, "one", "r1", 1);
        save(f, "two", "r2", 2);
        assert_int_equal(spool_remove_job(f->spool, "one"), 0);
        assert_false(exists(f, "one"));
        assert_int_equal(spool_remove_job(f->spool, "one"), -ENOENT);
        assert_int_equal(spool_load_all(f->spool, collect, &l), 0);
        assert_int_equal(l.n, 1);
        assert_string_equal(l.jobs[0].job_id, "two");
        /* Nothing else is left in the spool, but its lock. */
        assert_int_equal(spool_remove_job(f->spool, "two"), 0);
        assert_true(exists(f, ".lock"));
        snprintf(path, sizeof(path), "%s/.lock", f->dir);
        assert_int_equal(unlink(path), 0);
        assert_int_equal(rmdir(f->dir), 0);
        assert_int_equal(mkdir(f->dir, 0750), 0);
}

/* A second spool_open of the same directory (a second cuzkd) is refused while the first
 * holds it, naming the holder's pid; once the first closes, it opens. */
static void test_lock(void **state) {
        struct fixture *f = *state;
        struct spool *other = NULL;
        char expected[64];

        assert_int_equal(spool_open(f->dir, &other), -EBUSY);
        assert_null(other);
        snprintf(expected, sizeof(expected), "in use by another cuzkd (pid %ld holds",
                 (long)getpid());
        test_assert_logged(expected);
        spool_free(f->spool);
        f->spool = NULL;
        assert_int_equal(spool_open(f->dir, &f->spool), 0);
}

/* A daemon SIGKILLed while starting a worker leaves a child between fork and exec that
 * still holds the lock: a restart waits for it when the pid in the lock is dead, rather
 * than refusing the spool. The "child" here holds the lock 300 ms under a dead pid. */
static void test_lock_dead_holder(void **state) {
        struct fixture *f = *state;
        char path[PATH_MAX], pid_text[32];
        int ready[2], fd, len;
        pid_t dead, holder;
        struct timespec t0, t1;
        char byte;

        spool_free(f->spool);
        f->spool = NULL;
        dead = fork();
        assert_true(dead >= 0);
        if (dead == 0)
                _exit(0);
        assert_int_equal(waitpid(dead, NULL, 0), dead);
        snprintf(path, sizeof(path), "%s/.lock", f->dir);
        fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0640);
        assert_true(fd >= 0);
        len = snprintf(pid_text, sizeof(pid_text), "%ld\n", (long)dead);
        assert_int_equal(write(fd, pid_text, (size_t)len), len);
        assert_int_equal(pipe(ready), 0);
        holder = fork();
        assert_true(holder >= 0);
        if (holder == 0) {
                if (flock(fd, LOCK_EX) < 0 || write(ready[1], "x", 1) != 1)
                        _exit(1);
                usleep(300 * 1000);
                _exit(0);
        }
        close(fd);
        close(ready[1]);
        assert_int_equal(read(ready[0], &byte, 1), 1);
        close(ready[0]);
        clock_gettime(CLOCK_MONOTONIC, &t0);
        assert_int_equal(spool_open(f->dir, &f->spool), 0);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        assert_true((t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000 >= 200);
        test_assert_logged("is gone; waiting up to");
        assert_int_equal(waitpid(holder, NULL, 0), holder);
}

static void save_with_input(struct fixture *f, const char *job_id, size_t input_bytes, int r) {
        Cuzk__V1__SubmitProofRequest request = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
        static uint8_t input[4096];

        assert_true(input_bytes <= sizeof(input));
        request.proof_kind = CUZK__V1__PROOF_KIND__GROTH16_SNARKJS;
        request.zkey_path = (char *)"/x.zkey";
        request.wtns.data = input;
        request.wtns.len = input_bytes;
        assert_int_equal(spool_save_job(f->spool, job_id, &request, 1, &OWNER, NULL), r);
}

/* SpoolMaxBytes=: a job that would bring the spool above it is refused with -EDQUOT (and
 * leaves nothing behind); room comes back as jobs go; the count survives a restart. */
static void test_quota(void **state) {
        struct fixture *f = *state;
        struct loaded l = {0};
        uint64_t one_job, after_two;

        assert_int_equal(spool_max_bytes(f->spool) > 0, 1);
        assert_int_equal(spool_used_bytes(f->spool), 0);
        save_with_input(f, "a", 3000, 0);
        one_job = spool_used_bytes(f->spool);
        assert_true(one_job > 3000 && one_job < 3200);
        assert_int_equal(spool_set_max_bytes(f->spool, 2 * one_job + 100), 0);
        save_with_input(f, "b", 3000, 0);
        after_two = spool_used_bytes(f->spool);
        assert_int_equal(after_two, 2 * one_job);
        save_with_input(f, "c", 3000, -EDQUOT);
        test_assert_logged("job c refused");
        assert_false(exists(f, "c"));
        assert_int_equal(spool_used_bytes(f->spool), after_two);
        assert_int_equal(spool_remove_job(f->spool, "a"), 0);
        assert_int_equal(spool_used_bytes(f->spool), one_job);
        save_with_input(f, "c", 3000, 0);

        /* Counted again at start-up from what is there. */
        spool_free(f->spool);
        assert_int_equal(spool_open(f->dir, &f->spool), 0);
        assert_int_equal(spool_load_all(f->spool, collect, &l), 0);
        assert_int_equal(l.n, 2);
        assert_int_equal(spool_used_bytes(f->spool), 2 * one_job);
}

/* A job that failed or was cancelled has its inline input removed at once. */
static void test_remove_input(void **state) {
        struct fixture *f = *state;
        struct loaded l = {0};
        uint64_t before;

        save_with_input(f, "failed", 3000, 0);
        before = spool_used_bytes(f->spool);
        assert_true(exists(f, "failed/input.wtns"));
        assert_int_equal(spool_remove_input(f->spool, "failed"), 0);
        assert_false(exists(f, "failed/input.wtns"));
        assert_int_equal(spool_used_bytes(f->spool), before - 3000);
        assert_int_equal(spool_remove_input(f->spool, "failed"), 0); /* nothing left: fine */
        assert_int_equal(spool_load_all(f->spool, collect, &l), 0);
        assert_int_equal(l.n, 1);
        assert_string_equal(l.jobs[0].wtns_path, "");
}

/* Quarantined jobs are remembered with why, their request id and owner where readable, at
 * this start and the next ones (the reason is kept in the directory). An empty request.pb,
 * an empty result.pb and a COMPLETED result without a proof are quarantined too. */
static void test_quarantine_record(void **state) {
        static const uint8_t completed_no_proof[] = {0x10, 0x01}; /* status = COMPLETED */
        struct fixture *f = *state;
        struct loaded l = {0};
        const struct spool_quarantined *q;

        save(f, "good", "r-good", 100);
        save(f, "empty-request", "r1", 200);
        write_file(f, "empty-request/request.pb", "", 0);
        save(f, "empty-result", "r-empty-result", 300);
        write_file(f, "empty-result/result.pb", "", 0);
        save(f, "cut-result", "r3", 400);
        write_file(f, "cut-result/result.pb", completed_no_proof, sizeof(completed_no_proof));
        save(f, "bad-meta", "r4", 500);
        write_file(f, "bad-meta/meta", "junk", 4);

        for (int start = 0; start < 2; start++) {
                memset(&l, 0, sizeof(l));
                if (start == 1) { /* a restart: the records come back from the directories */
                        spool_free(f->spool);
                        assert_int_equal(spool_open(f->dir, &f->spool), 0);
                }
                assert_int_equal(spool_load_all(f->spool, collect, &l), 0);
                assert_int_equal(l.n, 1);
                assert_int_equal(spool_n_quarantined(f->spool), 4);
                assert_null(spool_find_quarantined(f->spool, "good"));
                q = spool_find_quarantined(f->spool, "empty-request");
                assert_non_null(q);
                assert_string_equal(q->dir, "empty-request.corrupt");
                assert_non_null(strstr(q->reason, "request.pb is empty"));
                assert_true(q->owner_known);
                assert_int_equal(q->owner.uid, 1000);
                q = spool_find_quarantined(f->spool, "empty-result");
                assert_non_null(q);
                assert_non_null(strstr(q->reason, "result.pb is empty"));
                if (start == 0)
                        assert_string_equal(q->request_id, "r-empty-result");
                q = spool_find_quarantined(f->spool, "cut-result");
                assert_non_null(q);
                assert_non_null(strstr(q->reason, "COMPLETED but holds no proof"));
                q = spool_find_quarantined(f->spool, "bad-meta");
                assert_non_null(q);
                assert_non_null(strstr(q->reason, "cannot read meta"));
                assert_false(q->owner_known);
        }
        assert_true(exists(f, "empty-request.corrupt/quarantine"));
}

/* The longest request id, every byte escaped to \xNN in meta, is accepted and read back
 * (D6: a long one made meta unreadable at restart); one byte more is refused. */
static void test_meta_limit(void **state) {
        Cuzk__V1__SubmitProofRequest request = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
        struct fixture *f = *state;
        struct loaded l = {0};
        char id[SPOOL_REQUEST_ID_MAX + 2];

        memset(id, 0xe8, sizeof(id) - 1);
        id[sizeof(id) - 1] = 0;
        request.proof_kind = CUZK__V1__PROOF_KIND__SYNTHETIC_PCE;
        request.request_id = id; /* SPOOL_REQUEST_ID_MAX + 1 bytes */
        assert_int_equal(spool_save_job(f->spool, "too-long", &request, 1, &OWNER, NULL), -EINVAL);
        test_assert_logged("request id of 257 bytes, expected at most 256");
        id[SPOOL_REQUEST_ID_MAX] = 0;
        assert_int_equal(spool_save_job(f->spool, "longest", &request, 1, &OWNER, NULL), 0);
        assert_int_equal(spool_load_all(f->spool, collect, &l), 0);
        assert_int_equal(l.n, 1);
        assert_string_equal(l.jobs[0].job_id, "longest");
        assert_int_equal(spool_n_quarantined(f->spool), 0);
}

static void test_refusals(void **state) {
        Cuzk__V1__SubmitProofRequest request = CUZK__V1__SUBMIT_PROOF_REQUEST__INIT;
        Cuzk__V1__AwaitProofResponse result = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
        struct fixture *f = *state;
        struct spool *other;
        char path[256];

        save(f, "j", "r", 1);
        assert_int_equal(spool_save_job(f->spool, "j", &request, 2, &OWNER, NULL), -EEXIST);
        test_assert_logged("job j is already spooled");
        assert_int_equal(spool_save_result(f->spool, "missing", &result), -ENOENT);
        test_assert_logged("job missing: cannot open its directory");
        assert_int_equal(spool_save_job(f->spool, "../escape", &request, 2, &OWNER, NULL), -EINVAL);
        test_assert_logged("job id '../escape' is not usable as a directory name");
        assert_int_equal(spool_save_job(f->spool, ".hidden", &request, 2, &OWNER, NULL), -EINVAL);
        assert_int_equal(spool_save_job(f->spool, "x.corrupt", &request, 2, &OWNER, NULL), -EINVAL);
        assert_int_equal(spool_save_job(f->spool, "", &request, 2, &OWNER, NULL), -EINVAL);

        /* A spool that is a file, or below one. */
        snprintf(path, sizeof(path), "%s/a/file", f->top);
        write_file(f, "../file", "x", 1);
        assert_int_equal(spool_open(path, &other), -ENOTDIR);
        test_assert_logged("not a directory, expected the spool directory");
        snprintf(path, sizeof(path), "%s/a/file/spool", f->top);
        assert_int_equal(spool_open(path, &other), -ENOTDIR);
        assert_int_equal(spool_open("relative/spool", &other), -EINVAL);

        /* Not writable (root writes anywhere: only checked for others). */
        if (geteuid() != 0) {
                snprintf(path, sizeof(path), "%s/ro", f->top);
                assert_int_equal(mkdir(path, 0500), 0);
                assert_int_equal(spool_open(path, &other), -EACCES);
                test_assert_logged("not writable");
        }
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
                cmocka_unit_test_setup_teardown(test_porep_c1, setup, teardown),
                cmocka_unit_test_setup_teardown(test_oldest_first, setup, teardown),
                cmocka_unit_test_setup_teardown(test_corrupt, setup, teardown),
                cmocka_unit_test_setup_teardown(test_owner, setup, teardown),
                cmocka_unit_test_setup_teardown(test_leftovers, setup, teardown),
                cmocka_unit_test_setup_teardown(test_remove, setup, teardown),
                cmocka_unit_test_setup_teardown(test_refusals, setup, teardown),
                cmocka_unit_test_setup_teardown(test_lock, setup, teardown),
                cmocka_unit_test_setup_teardown(test_lock_dead_holder, setup, teardown),
                cmocka_unit_test_setup_teardown(test_quota, setup, teardown),
                cmocka_unit_test_setup_teardown(test_remove_input, setup, teardown),
                cmocka_unit_test_setup_teardown(test_quarantine_record, setup, teardown),
                cmocka_unit_test_setup_teardown(test_meta_limit, setup, teardown),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
