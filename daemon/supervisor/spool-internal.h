/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What spool.c (saving and removing jobs) and spool-load.c (reading them back
 * at start-up) share: the file names and the helpers both use.
 */
#pragma once

#include <stdatomic.h>
#include <stdbool.h>

#include "daemon/supervisor/spool.h"

#define SPOOL_DIR_MODE 0750
#define SPOOL_FILE_MODE 0640
#define SPOOL_REQUEST "request.pb"
#define SPOOL_RESULT "result.pb"
#define SPOOL_META "meta"
#define SPOOL_WTNS "input.wtns"
#define SPOOL_C1 "input.c1"
#define SPOOL_CORRUPT_SUFFIX ".corrupt"
#define SPOOL_LOCK ".lock"
#define SPOOL_QUARANTINE_REASON "quarantine"
/* A meta file is a few short lines; anything larger is not one. The largest a writer makes:
 * submitted_usec, the owner's uid, gid and groups, and the longest request id with every
 * byte escaped as \xNN. */
#define SPOOL_META_MAX 4096
#define SPOOL_META_WRITTEN_MAX                                                   \
        (sizeof("submitted_usec=18446744073709551615\n") +                       \
         sizeof("owner_uid=4294967295\nowner_gid=4294967295\nowner_groups=\n") + \
         11 * API_PEER_MAX_GROUPS + sizeof("request_id=\n") + 4 * SPOOL_REQUEST_ID_MAX)
_Static_assert(SPOOL_META_WRITTEN_MAX <= SPOOL_META_MAX,
               "a meta file cuzkd writes must be one it reads back");

struct spool {
        char *dir;
        int dir_fd;
        int lock_fd; /* <dir>/.lock, flock()ed while the spool is open */
        /* Atomic: jobs are spooled on the intake thread, results and removals on the
         * spool writer's (spool-writer.h). The quota check and the count that follows are two
         * steps: a result written between them can take the spool a little over, never a job. */
        _Atomic uint64_t max_bytes, used_bytes;
        struct spool_quarantined *quarantined; /* the first SPOOL_QUARANTINE_KEPT */
        size_t n_quarantined_kept, n_quarantined;
};

/* Reads <job_fd>/meta: the submission time and the owner (spool-load.c). */
int spool_read_meta(int job_fd, uint64_t *ret_submitted_usec, struct api_peer *ret_owner);
/* The sizes of the regular files in the directory name below parent_fd. */
uint64_t spool_dir_bytes_at(int parent_fd, const char *name);
/* Moves a job that cannot be read out of the way (<job_id>.corrupt, or .corrupt-N when
 * that exists), writes why into it, logs it and remembers it (spool-quarantine.c).
 * request_id and owner may be NULL (unreadable). Returns -error (error: an errno). */
int spool_quarantine(struct spool *spool, const char *job_id, const char *what, int error,
                     const char *request_id, const struct api_peer *owner);
/* Remembers a <job_id>.corrupt directory found at start-up (quarantined earlier). */
void spool_remember_quarantined(struct spool *spool, const char *dir_name);

/* Job ids become directory names: see spool.c. */
bool spool_job_id_valid(const char *job_id);
/* Removes the directory name below parent_fd with the files in it. */
int spool_remove_dir_at(int parent_fd, const char *name);
/* The job's directory, opened (O_DIRECTORY); a negative errno. */
int spool_open_job_dir(const struct spool *spool, const char *job_id);
/* The same, its id checked first; errors logged. */
int spool_open_job_checked(const struct spool *spool, const char *job_id);
/* Takes bytes off the count, never below 0 (a file changed behind our back). */
void spool_uncount(struct spool *spool, uint64_t bytes);
/* Before each write that syncs: nothing, unless the test hook
 * CUZK_TEST_SPOOL_SYNC_DELAY_MS makes the disk slow (spool-result.c). */
void spool_slow_disk(void);
