/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzkd.conf's table of keys (config.c), as the file reader (config-load.c)
 * looks them up.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "daemon/supervisor/config.h"

/* A parser stores into field (whose size it knows) or returns -EINVAL (not
 * of the expected form) or -ERANGE (of the form, out of range). */
typedef int (*config_parse_fn)(const char *value, void *field);

struct config_key {
        const char *section;
        const char *name;
        config_parse_fn parse;
        size_t offset, size;
        const char *what;     /* "'value' is not <what>" */
        const char *expected; /* ", expected <expected>" */
};

/* The sections config_section_known() knows, for the messages that expect one. */
#define CONFIG_SECTIONS_EXPECTED "[Daemon], [Memory], [Scheduler], [Prover] or [GPU]"

extern const struct config_key config_keys[];
extern const size_t config_n_keys;
bool config_section_known(const char *section);
const struct config_key *config_key_find(const char *section, const char *name);
