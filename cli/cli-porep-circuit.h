/* SPDX-License-Identifier: Apache-2.0 */
/* The `cuzk porep` subcommands about the circuit and its proofs. */
#pragma once

#include "circuits/porep/porep-pce.h"
#include "cli.h"
#include "filecoin/porep/registered-proof.h"

/* cuzk porep info | setup (cmd-porep-circuit.c); argv[0] names which. */
int cmd_porep_circuit(int argc, char **argv, const struct cli_options *opts);
/* cuzk porep prove | verify | snarkjs (cmd-porep-prove.c); argv[0] names which. */
int cmd_porep_proof(int argc, char **argv, const struct cli_options *opts);

/* Exactly one of --sector-size SIZE (2KiB ... 64GiB or bytes: the V1_1
 * proof) and --registered-proof NAME; prints why not to stderr. */
int cli_porep_select(const char *command, const char *sector_size, const char *registered_proof,
                     const struct porep_config **ret);
/* dir/<the network's file stem>.params and .vk. */
int cli_porep_params_paths(const struct porep_config *cfg, const char *dir,
                           char params[POREP_PCE_PATH_MAX], char vk[POREP_PCE_PATH_MAX]);
