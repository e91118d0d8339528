/* SPDX-License-Identifier: Apache-2.0 */
/* What the `cuzk porep` subcommands share (cmd-porep.c). */
#pragma once

#include <stdint.h>

#include "cli.h"
#include "filecoin/c1/c1.h"
#include "filecoin/porep/registered-proof.h"

/* cuzk porep seal | synth-c1 | verify-c1 | parents: cmd-porep.c dispatches. */
int cmd_porep(int argc, char **argv, const struct cli_options *opts);
/* cuzk porep seal | synth-c1 (cmd-porep-seal.c). */
int cmd_porep_seal(int argc, char **argv, const struct cli_options *opts);
int cmd_porep_synth_c1(int argc, char **argv, const struct cli_options *opts);
/* cuzk porep parents: writes a parent cache file (cmd-porep-parents.c). */
int cmd_porep_parents(int argc, char **argv, const struct cli_options *opts);

/* A registered proof by name ("StackedDrg2KiBV1_1") or number; prints why not to stderr. */
int cli_porep_config(const char *command, const char *value, const struct porep_config **ret);
/* 64 hex digits (an optional 0x) into 32 bytes; NULL leaves zeros. */
int cli_porep_hex32(const char *command, const char *option, const char *value, uint8_t out[32]);
/* Writes the C1 output to path, and its envelope to envelope_path when not NULL. */
int cli_porep_save_c1(const struct c1_output *c1, uint64_t sector_id, const char *path,
                      const char *envelope_path);
