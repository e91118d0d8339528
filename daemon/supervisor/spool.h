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
 *
 * Each file is written to a temporary name, fsync()ed and renamed, then
 * the directory is fsync()ed: a file is either whole or absent. A job
 * directory without result.pb is unfinished and runs again at start-up.
 */
#pragma once

#include <stdint.h>

#include "api/api-peer.h"
#include "api/cuzk.pb-c.h"

struct spool;

/* Creates dir (and parents, mode 0750) if missing; refuses a dir that is
 * not a directory or not writable, naming it. */
int spool_open(const char *dir, struct spool **ret);
void spool_free(struct spool *spool);

/* Saves an accepted job, owned by owner (the peer that submitted it; a job spooled
 * before owners were recorded loads as owned by root). If request->wtns is set, its bytes go to
 * input.wtns (a PoRep job's vanilla_proof to input.c1) and *ret_input_path
 * (malloc'd, may be NULL when the request had no inline input) names that
 * file. */
int spool_save_job(struct spool *spool, const char *job_id,
                   const Cuzk__V1__SubmitProofRequest *request, uint64_t submitted_usec,
                   const struct api_peer *owner, char **ret_input_path);
/* Records a finished job's answer (completed, failed or cancelled). */
int spool_save_result(struct spool *spool, const char *job_id,
                      const Cuzk__V1__AwaitProofResponse *result);
/* Forgets a job (its directory goes). */
int spool_remove_job(struct spool *spool, const char *job_id);

/* Called once per spooled job, oldest first. request and result (NULL for
 * an unfinished job) are valid during the call; input_path is input.wtns,
 * input.c1 or NULL. A negative return stops the walk and is returned. A job directory
 * that cannot be read is logged, renamed to <job_id>.corrupt and skipped. */
typedef int (*spool_job_fn)(void *userdata, const char *job_id,
                            const Cuzk__V1__SubmitProofRequest *request, uint64_t submitted_usec,
                            const struct api_peer *owner, const char *input_path,
                            const Cuzk__V1__AwaitProofResponse *result);
int spool_load_all(struct spool *spool, spool_job_fn callback, void *userdata);
