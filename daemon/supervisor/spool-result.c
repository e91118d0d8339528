/* SPDX-License-Identifier: Apache-2.0 */
/* The spool at a job's end (see spool.h): its result written, its inline input removed. */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/atomic-file.h"
#include "common/cleanup.h"
#include "common/log.h"

#include "daemon/supervisor/spool-internal.h"

void spool_slow_disk(void) {
#if CUZK_TEST_HOOKS
        /* CUZK_TEST_SPOOL_SYNC_DELAY_MS (tests only, tests/README.md): a disk whose fsyncs
         * take that long, to show who waits for them. */
        const char *delay = getenv("CUZK_TEST_SPOOL_SYNC_DELAY_MS");
        long msec = delay ? strtol(delay, NULL, 10) : 0;

        if (msec > 0)
                (void)nanosleep(&(struct timespec){.tv_sec = msec / 1000,
                                                   .tv_nsec = msec % 1000 * 1000000L},
                                NULL);
#endif
}

int spool_result_pack(const Cuzk__V1__AwaitProofResponse *result, uint8_t **ret, size_t *ret_size) {
        size_t size;
        _cleanup_free_ uint8_t *packed = NULL;

        assert(result && ret && ret_size);
        size = cuzk__v1__await_proof_response__get_packed_size(result);
        packed = malloc(size ? size : 1);
        if (!packed)
                return log_error_errno(ENOMEM, "job %s: out of memory for its result",
                                       result->job_id);
        if (cuzk__v1__await_proof_response__pack(result, packed) != size)
                return log_error_errno(EIO, "job %s: cannot encode its result", result->job_id);
        *ret = TAKE_PTR(packed);
        *ret_size = size;
        return 0;
}

int spool_save_result_packed(struct spool *spool, const char *job_id, const uint8_t *packed,
                             size_t size) {
        _cleanup_close_ int fd = -EBADF;
        int r;

        assert(spool);
        assert(job_id);
        assert(packed);

        fd = spool_open_job_checked(spool, job_id);
        if (fd < 0)
                return fd;
        spool_slow_disk();
        r = atomic_file_write_at(fd, SPOOL_RESULT, packed, size, SPOOL_FILE_MODE);
        if (r < 0)
                return log_error_errno(r, "spool %s: job %s: cannot write " SPOOL_RESULT ": %m",
                                       spool->dir, job_id);
        spool->used_bytes += size;
        return 0;
}

int spool_save_result(struct spool *spool, const char *job_id,
                      const Cuzk__V1__AwaitProofResponse *result) {
        _cleanup_free_ uint8_t *packed = NULL;
        size_t size = 0;
        int r;

        assert(spool);
        assert(job_id);
        r = spool_result_pack(result, &packed, &size);
        if (r < 0)
                return r;
        return spool_save_result_packed(spool, job_id, packed, size);
}

int spool_remove_input(struct spool *spool, const char *job_id) {
        _cleanup_close_ int fd = -EBADF;
        static const char *const names[] = {SPOOL_WTNS, SPOOL_C1};
        struct stat st;

        assert(spool);
        assert(job_id);

        fd = spool_open_job_checked(spool, job_id);
        if (fd < 0)
                return fd;
        for (size_t i = 0; i < ELEMENTSOF(names); i++) {
                if (fstatat(fd, names[i], &st, AT_SYMLINK_NOFOLLOW) < 0)
                        continue;
                if (unlinkat(fd, names[i], 0) < 0)
                        return log_error_errno(errno, "spool %s: job %s: cannot remove %s: %m",
                                               spool->dir, job_id, names[i]);
                spool_uncount(spool, (uint64_t)st.st_size);
                log_debug("spool %s: job %s: its inline input %s (%" PRIu64
                          " bytes) removed, the job ended without a proof",
                          spool->dir, job_id, names[i], (uint64_t)st.st_size);
        }
        return 0;
}
