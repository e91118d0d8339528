/* SPDX-License-Identifier: Apache-2.0 */
/* The `cuzk` command's subcommands and what they share. */
#pragma once

#include <stdbool.h>

/* Exit statuses of every cuzk subcommand. */
enum {
        EXIT_OK = 0,
        EXIT_INVALID_PROOF = 1, /* the input was well-formed, the proof does not verify */
        EXIT_BAD_INPUT = 2,     /* usage errors, unreadable or malformed files */
        EXIT_INTERNAL = 3,      /* out of memory, I/O errors writing results */
};

struct cli_options {
        unsigned threads; /* 0: all CPUs */
        bool verbose;
};

int cmd_prove(int argc, char **argv, const struct cli_options *opts);
int cmd_verify(int argc, char **argv, const struct cli_options *opts);
int cmd_info(int argc, char **argv, const struct cli_options *opts);
int cmd_setup(int argc, char **argv, const struct cli_options *opts);
/* cuzk pce from-r1cs | synth | info: precompiled constraints (circuits/). */
int cmd_pce(int argc, char **argv, const struct cli_options *opts);
/* cuzk prove --pce ... (bellperson parameters from `cuzk setup`), chosen by
 * cmd_prove when cli_prove_wants_pce() says so. */
int cmd_prove_pce(int argc, char **argv, const struct cli_options *opts);
bool cli_prove_wants_pce(int argc, char **argv);
/* cuzk verify with a bellperson .vk, chosen by cmd_verify when
 * cli_is_bellperson_vk() says so; refuses timing-only keys (exit 2). */
int cmd_verify_bellperson(int argc, char **argv, const struct cli_options *opts);
bool cli_is_bellperson_vk(const char *path);

/* Seconds on the monotonic clock, for progress lines. */
double cli_now(void);
/* True when argv has -h/--help; prints usage to stdout. */
bool cli_wants_help(int argc, char **argv, const char *usage);
/* Exit status for a negative errno from a loader: memory and I/O failures are
 * internal, everything else is bad input. */
int cli_exit_for_error(int r);
