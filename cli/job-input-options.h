/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The long options that name a job's inputs, which `cuzkctl submit` and `cuzk-bench batch`
 * both take, so that the two spell them alike. Each program reads their values its own way
 * (cuzkctl into the request, cuzk-bench into its options) under its own numbers: the
 * including file defines OPT_REGISTERED_PROOF ... OPT_PARTITIONS.
 */
#pragma once

#include <getopt.h>

/* One option a line, as in the tables that use it. */
/* clang-format off */
#define JOB_INPUT_LONG_OPTIONS                                               \
        {"registered-proof", required_argument, NULL, OPT_REGISTERED_PROOF}, \
        {"miner-id", required_argument, NULL, OPT_MINER_ID},                 \
        {"randomness", required_argument, NULL, OPT_RANDOMNESS},             \
        {"comm-r-old", required_argument, NULL, OPT_COMM_R_OLD},             \
        {"comm-r-new", required_argument, NULL, OPT_COMM_R_NEW},             \
        {"comm-d-new", required_argument, NULL, OPT_COMM_D_NEW},             \
        {"zkey", required_argument, NULL, OPT_ZKEY},                         \
        {"wtns", required_argument, NULL, OPT_WTNS},                         \
        {"pce", required_argument, NULL, OPT_PCE},                           \
        {"params", required_argument, NULL, OPT_PARAMS},                     \
        {"witness", required_argument, NULL, OPT_WITNESS},                   \
        {"partitions", required_argument, NULL, OPT_PARTITIONS}
/* clang-format on */
