/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzkd's command line: options that override the configuration file's
 * keys, applied after every (re)load of it.
 */
#pragma once

#include "daemon/supervisor/config.h"

struct cuzkd_overrides {
        const char *config_path, *socket, *spool_dir, *budget, *max_workers, *log_level;
};

/* 1: run with *ret; 0: done (--help); negative: a bad option, said on stderr. */
int cuzkd_parse_args(int argc, char **argv, struct cuzkd_overrides *ret);
/* The options over config; negative (said on stderr) when one is not valid. */
int cuzkd_apply_overrides(struct config *config, const struct cuzkd_overrides *o);
