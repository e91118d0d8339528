/* SPDX-License-Identifier: Apache-2.0 */
/* The `cuzk` command's subcommands and what they share. */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zk/groth16.h"

struct pce;

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
/* cuzk setup --r1cs FILE --zkey OUT [--vk OUT]: a snarkjs .zkey from toxic
 * waste (cmd-setup-zkey.c), chosen by cmd_setup when cli_setup_wants_zkey(). */
/* A key pair for pce written as bellperson's .params and .vk (cmd-setup.c). */
struct cli_setup_request {
        const struct pce *pce;
        const char *pce_name; /* for messages */
        const char *seed_hex; /* NULL: toxic waste from getrandom(2) */
        bool timing_only, bellperson_layout;
        const char *params_path, *vk_path;
};
/* Returns an exit status (EXIT_OK, EXIT_BAD_INPUT, ...), messages on stderr. */
int cli_setup_keys(const struct cli_setup_request *req, unsigned threads);

int cmd_setup_zkey(int argc, char **argv, const struct cli_options *opts);
bool cli_setup_wants_zkey(int argc, char **argv);
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

/* For a subcommand of n_args arguments (cli-options.c): false, with the exit
 * status in *ret_exit, after -h/--help (usage on stdout, EXIT_OK) or a wrong
 * count (why and usage on stderr, EXIT_BAD_INPUT); true to go on. */
bool cli_arguments_ok(int argc, char **argv, int n_args, const char *command, const char *usage,
                      int *ret_exit);

/* One option of a subcommand that takes only options (cli-options.c):
 * --NAME VALUE (or --NAME=VALUE) stores VALUE in *value; with value NULL,
 * --NAME is a flag that sets *flag. */
struct cli_option {
        const char *name;
        const char **value;
        bool *flag;
        bool required;
};
/*
 * Parses argv (argv[0] is the subcommand, e.g. "setup") against options,
 * restarting getopt. Nothing but the options may follow. On a usage error
 * prints what is wrong to stderr (with usage when an option or argument is
 * missing or extra) and returns -EINVAL; 0 otherwise.
 */
int cli_parse_options(int argc, char **argv, const char *command, const struct cli_option *options,
                      size_t n_options, const char *usage);

/* Loads the proof of `cuzk verify` from a file (cmd-verify.c). */
typedef int (*cli_proof_loader_fn)(const char *path, struct groth16_proof *ret);
/*
 * The tail of `cuzk verify` once the key is loaded: loads the public inputs
 * (public.json) and the proof, checks their count against the key's, verifies
 * and prints OK or INVALID. Returns the exit status.
 */
int cli_verify_with_key(const struct groth16_vk *vk, const char *vk_path, const char *public_path,
                        const char *proof_path, cli_proof_loader_fn load_proof);

/* What a bellperson key file looks like from its size and IC count alone
 * (cmd-verify-bellperson.c); decides without logging anything. */
enum cli_bellperson_kind {
        CLI_BELLPERSON_NONE,
        CLI_BELLPERSON_VK,     /* exactly a verifying key */
        CLI_BELLPERSON_PARAMS, /* a verifying key and more: a .params file */
};
enum cli_bellperson_kind cli_bellperson_kind(const uint8_t *data, size_t size);

/* The `key: value` lines of a checked PCE file after its name and size,
 * shared by `cuzk info` and `cuzk pce info` (cmd-info.c). */
void cli_print_pce_info(const struct pce *pce);
