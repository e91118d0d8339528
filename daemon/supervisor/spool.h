/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The spool: every accepted job on disk before SubmitProof answers, so that
 * a restart of cuzkd (crash, SIGTERM, reboot) loses nothing.
 *
 *   <dir>/<job_id>/request.pb   the SubmitProofRequest as received (with
 *                               its inline input moved out to input.*)
 *   <dir>/<job_id>/meta         submission time, the owner (the submitting
 *                               peer's uid, gid and groups), the request id
 *   <dir>/<job_id>/input.wtns   an inline witness (SubmitProofRequest.wtns)
 *   <dir>/<job_id>/input.c1     a PoRep job's C1 output (vanilla_proof)
 *   <dir>/<job_id>/result.pb    the AwaitProofResponse once the job ended
 *   <dir>/.lock                 flock()ed by the cuzkd that uses the spool; holds its pid
 *   <dir>/<job_id>.corrupt      a job that could not be read at start-up, kept for a
 *                               person to look at, with a file "quarantine" saying why
 *
 * Each file is written to a temporary name, fsync()ed and renamed, then
 * the directory is fsync()ed: a file is either whole or absent. A job
 * directory without result.pb is unfinished and runs again at start-up.
 */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api-peer.h"
#include "api/cuzk.pb-c.h"

struct spool;

/* Job ids become directory names: at most this long (spool.c says which characters). */
#define SPOOL_JOB_ID_MAX 128
/* A request id is at most this many bytes: SubmitProof refuses a longer one, and so does
 * spool_save_job, so that every meta file written can be read back (SPOOL_META_MAX). */
#define SPOOL_REQUEST_ID_MAX 256
/* SpoolMaxBytes=auto: a tenth of the spool's filesystem, at most this. 16 GiB holds 128
 * inline witnesses of the largest message (MaxMessageSize=128M) or ~300 PoRep C1 outputs
 * (~51 MB at 32 GiB), more than a busy queue has in flight; a tenth leaves the rest of a
 * shared /var (logs, the journal, package state) to the host when clients flood it. */
#define SPOOL_AUTO_MAX_BYTES (UINT64_C(16) << 30)

/* Creates dir (and parents, mode 0750) if missing; refuses a dir that is
 * not a directory or not writable, naming it, and a dir that another process holds
 * (-EBUSY, naming its pid: two daemons on one spool would run every job twice). */
int spool_open(const char *dir, struct spool **ret);
void spool_free(struct spool *spool);

/* The most bytes the spool's job directories may hold (SpoolMaxBytes=; 0: auto, see
 * SPOOL_AUTO_MAX_BYTES): spool_save_job refuses a job above it with -EDQUOT. Results are
 * always written (a job that ran is not thrown away). */
int spool_set_max_bytes(struct spool *spool, uint64_t max_bytes);
uint64_t spool_max_bytes(const struct spool *spool);
/* What the job directories hold now (their files' sizes, counted at load and kept up to
 * date by every write and removal). */
uint64_t spool_used_bytes(const struct spool *spool);

/* Saves an accepted job, owned by owner (the peer that submitted it; a job spooled
 * before owners were recorded loads as owned by root). If request->wtns is set, its bytes go to
 * input.wtns (a PoRep job's vanilla_proof to input.c1) and *ret_input_path
 * (malloc'd, may be NULL when the request had no inline input) names that
 * file. */
int spool_save_job(struct spool *spool, const char *job_id,
                   const Cuzk__V1__SubmitProofRequest *request, uint64_t submitted_usec,
                   const struct api_peer *owner, char **ret_input_path);
/* Removes a job's inline input (input.wtns or input.c1): a job that failed or was
 * cancelled never reads it again, and it may be MaxMessageSize bytes, kept otherwise for
 * ResultRetention=. 0 when there was none. */
int spool_remove_input(struct spool *spool, const char *job_id);
/* Records a finished job's answer (completed, failed or cancelled). */
int spool_save_result(struct spool *spool, const char *job_id,
                      const Cuzk__V1__AwaitProofResponse *result);
/* The same in two steps, for a writer on another thread (spool-writer.h): the result
 * encoded (*ret malloc'd; -ENOMEM or -EIO, logged), then written. */
int spool_result_pack(const Cuzk__V1__AwaitProofResponse *result, uint8_t **ret, size_t *ret_size);
int spool_save_result_packed(struct spool *spool, const char *job_id, const uint8_t *packed,
                             size_t size);
/* Forgets a job (its directory goes). */
int spool_remove_job(struct spool *spool, const char *job_id);

/* Called once per spooled job, oldest first. request and result (NULL for
 * an unfinished job) are valid during the call; input_path is input.wtns,
 * input.c1 or NULL. A negative return stops the walk and is returned. A job directory
 * that cannot be read (an unreadable or empty request.pb, meta or result.pb, a result that
 * is not a final one) is logged, renamed to <job_id>.corrupt, remembered
 * (spool_find_quarantined) and skipped. */
typedef int (*spool_job_fn)(void *userdata, const char *job_id,
                            const Cuzk__V1__SubmitProofRequest *request, uint64_t submitted_usec,
                            const struct api_peer *owner, const char *input_path,
                            const Cuzk__V1__AwaitProofResponse *result);
int spool_load_all(struct spool *spool, spool_job_fn callback, void *userdata);

/* A job quarantined at this start-up or an earlier one: what AwaitProof and CancelProof
 * answer for it instead of "no such job". */
struct spool_quarantined {
        char job_id[SPOOL_JOB_ID_MAX + 1];
        char dir[NAME_MAX + 1]; /* its name in the spool now: <job_id>.corrupt[-N] */
        char reason[512];       /* what could not be read, and why */
        bool owner_known;       /* meta could be read: owner is the job's */
        struct api_peer owner;  /* else anyone may hear about it */
        char request_id[SPOOL_REQUEST_ID_MAX + 1]; /* "" when request.pb was unreadable */
};
/* The quarantine record of job_id, NULL if none. The spool remembers up to
 * SPOOL_QUARANTINE_KEPT of them (the first found); spool_n_quarantined counts all. */
#define SPOOL_QUARANTINE_KEPT 4096
const struct spool_quarantined *spool_find_quarantined(const struct spool *spool,
                                                       const char *job_id);
size_t spool_n_quarantined(const struct spool *spool);
