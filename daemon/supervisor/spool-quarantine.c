/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Quarantine: a job directory that cannot be read at start-up is renamed
 * <job_id>.corrupt and kept for a person to look at, with a file "quarantine" saying why.
 * The spool remembers each one, found at this start-up or left by an earlier one, so that
 * AwaitProof and CancelProof can say what happened to the job ("quarantined at start-up:
 * ...") instead of "no such job", until an operator removes the directory.
 */
#include "spool.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/atomic-file.h"
#include "common/cleanup.h"
#include "common/log.h"

#include "daemon/supervisor/spool-internal.h"

/* A new record for job_id, NULL past SPOOL_QUARANTINE_KEPT (still counted) or without
 * memory. */
static struct spool_quarantined *remember(struct spool *spool, const char *job_id,
                                          const char *dir_name) {
        struct spool_quarantined *q;
        size_t n = spool->n_quarantined_kept;

        spool->n_quarantined++;
        if (n == SPOOL_QUARANTINE_KEPT)
                return NULL;
        /* Grown at powers of two. */
        if ((n & (n - 1)) == 0) {
                q = reallocarray(spool->quarantined, n ? 2 * n : 1, sizeof(*q));
                if (!q)
                        return NULL;
                spool->quarantined = q;
        }
        q = &spool->quarantined[spool->n_quarantined_kept++];
        *q = (struct spool_quarantined){0};
        snprintf(q->job_id, sizeof(q->job_id), "%s", job_id);
        snprintf(q->dir, sizeof(q->dir), "%s", dir_name);
        return q;
}

/* Renames job_id to <job_id>.corrupt, or .corrupt-N where that is taken: the name in
 * name, or -errno. */
static int rename_corrupt(const struct spool *spool, const char *job_id, char *name, size_t size) {
        for (unsigned i = 0; i < 100; i++) {
                if (i == 0)
                        snprintf(name, size, "%s" SPOOL_CORRUPT_SUFFIX, job_id);
                else
                        snprintf(name, size, "%s" SPOOL_CORRUPT_SUFFIX "-%u", job_id, i);
                if (renameat2(spool->dir_fd, job_id, spool->dir_fd, name, RENAME_NOREPLACE) == 0) {
                        (void)fsync(spool->dir_fd);
                        return 0;
                }
                if (errno != EEXIST)
                        break;
        }
        return -errno;
}

/* Writes the reason into the quarantined directory, for the next start-up and for people. */
static void write_reason(const struct spool *spool, const char *dir_name, const char *reason) {
        _cleanup_close_ int fd = spool_open_job_dir(spool, dir_name);
        char text[sizeof(((struct spool_quarantined *)0)->reason) + 1];
        int r;

        if (fd < 0)
                return;
        snprintf(text, sizeof(text), "%s\n", reason);
        r = atomic_file_write_at(fd, SPOOL_QUARANTINE_REASON, text, strlen(text), SPOOL_FILE_MODE);
        if (r < 0)
                log_warning_errno(r, "spool %s: cannot write %s/" SPOOL_QUARANTINE_REASON ": %m",
                                  spool->dir, dir_name);
}

int spool_quarantine(struct spool *spool, const char *job_id, const char *what, int error,
                     const char *request_id, const struct api_peer *owner) {
        char name[NAME_MAX + 1], reason[sizeof(((struct spool_quarantined *)0)->reason)];
        struct spool_quarantined *q;
        int r;

        assert(spool);
        assert(job_id);
        assert(what);
        error = abs(error);
        snprintf(reason, sizeof(reason), "%s: %s", what, strerror(error));
        r = rename_corrupt(spool, job_id, name, sizeof(name));
        if (r < 0) {
                log_error_errno(error, "spool %s: job %s: %s: %m; skipped (cannot rename it: %s)",
                                spool->dir, job_id, what, strerror(-r));
                snprintf(name, sizeof(name), "%s", job_id);
        } else {
                write_reason(spool, name, reason);
                log_error_errno(error, "spool %s: job %s: %s: %m; moved to %s and skipped",
                                spool->dir, job_id, what, name);
        }
        q = remember(spool, job_id, name);
        if (q) {
                snprintf(q->reason, sizeof(q->reason), "%s", reason);
                snprintf(q->request_id, sizeof(q->request_id), "%s", request_id ? request_id : "");
                q->owner_known = owner != NULL;
                if (owner)
                        q->owner = *owner;
        }
        return -error;
}

/* The first line of <dir>/quarantine into buf; "" when there is none. */
static void read_reason(int dir_fd, char *buf, size_t size) {
        _cleanup_close_ int fd =
                openat(dir_fd, SPOOL_QUARANTINE_REASON, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        ssize_t n = fd >= 0 ? read(fd, buf, size - 1) : -1;

        buf[n > 0 ? n : 0] = 0;
        buf[strcspn(buf, "\n")] = 0;
}

void spool_remember_quarantined(struct spool *spool, const char *dir_name) {
        _cleanup_close_ int fd = -EBADF;
        const char *suffix = strstr(dir_name, SPOOL_CORRUPT_SUFFIX);
        char job_id[SPOOL_JOB_ID_MAX + 1];
        struct spool_quarantined *q;
        struct api_peer owner;
        uint64_t usec;

        assert(spool);
        assert(dir_name);
        if (!suffix || (size_t)(suffix - dir_name) >= sizeof(job_id))
                return;
        snprintf(job_id, sizeof(job_id), "%.*s", (int)(suffix - dir_name), dir_name);
        if (!spool_job_id_valid(job_id))
                return;
        fd = spool_open_job_dir(spool, dir_name);
        if (fd < 0)
                return;
        q = remember(spool, job_id, dir_name);
        if (!q)
                return;
        read_reason(fd, q->reason, sizeof(q->reason));
        if (!*q->reason)
                snprintf(q->reason, sizeof(q->reason), "unreadable (no reason recorded)");
        if (spool_read_meta(fd, &usec, &owner) == 0) {
                q->owner_known = true;
                q->owner = owner;
        }
}

const struct spool_quarantined *spool_find_quarantined(const struct spool *spool,
                                                       const char *job_id) {
        assert(spool);
        if (!job_id)
                return NULL;
        for (size_t i = 0; i < spool->n_quarantined_kept; i++)
                if (!strcmp(spool->quarantined[i].job_id, job_id))
                        return &spool->quarantined[i];
        return NULL;
}

size_t spool_n_quarantined(const struct spool *spool) {
        assert(spool);
        return spool->n_quarantined;
}
