/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The spool writer: a job's result and its removals written off the event loop.
 *
 * Writing a result fsyncs the file and the directory; removing a job renames and
 * fsyncs. On a slow disk that is seconds, and on the loop it would stall GetStatus,
 * the watchdog and every answer. So the loop queues each write here and goes on; one
 * thread does them in the order they were queued (a job's result before its removal),
 * and tells the loop of each written result through an eventfd: only then is the job
 * answered as ended (job.h: result_spooling), so a client that hears COMPLETED can
 * count on the result surviving a crash.
 *
 * spool_writer_free() drains the queue: a SIGTERM loses no result that was queued.
 * The intake (intake.h) spools new jobs on its own thread; the writer only touches
 * jobs the loop has taken from it.
 */
#pragma once

#include <stdbool.h>

#include <systemd/sd-event.h>

#include "api/cuzk.pb-c.h"
#include "daemon/supervisor/spool.h"

struct spool_writer;

/* Called on the loop once job_id's result is written; r: 0 or the spool's negative errno
 * (logged already). */
typedef void (*spool_writer_done_fn)(void *userdata, const char *job_id, int r);

int spool_writer_new(sd_event *event, struct spool *spool, spool_writer_done_fn done,
                     void *userdata, struct spool_writer **ret);
/* Writes what is queued (no done callbacks: the loop is over), stops the thread, frees. */
struct spool_writer *spool_writer_free(struct spool_writer *writer);

/* Queues job_id's result (encoded now, so result may go on return), and the removal of
 * its inline input when remove_input (a failed or cancelled job never reads it). The
 * done callback follows, from the loop. Should the queue have no memory, it is written
 * here and now, and the done callback still follows. */
int spool_writer_save_result(struct spool_writer *writer, const char *job_id,
                             const Cuzk__V1__AwaitProofResponse *result, bool remove_input);
/* Queues the removal of job_id's directory (no callback); done here and now when the
 * queue has no memory. */
void spool_writer_remove_job(struct spool_writer *writer, const char *job_id);
