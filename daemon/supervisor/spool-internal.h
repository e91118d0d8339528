/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What spool.c (saving and removing jobs) and spool-load.c (reading them back
 * at start-up) share: the file names and the helpers both use.
 */
#pragma once

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
#define SPOOL_JOB_ID_MAX 128
/* A meta file is two short lines; anything larger is not one. */
#define SPOOL_META_MAX 4096

struct spool {
        char *dir;
        int dir_fd;
};

/* Job ids become directory names: see spool.c. */
bool spool_job_id_valid(const char *job_id);
/* Removes the directory name below parent_fd with the files in it. */
int spool_remove_dir_at(int parent_fd, const char *name);
/* The job's directory, opened (O_DIRECTORY); a negative errno. */
int spool_open_job_dir(const struct spool *spool, const char *job_id);
