/* SPDX-License-Identifier: Apache-2.0 */
/* cuzkctl: the commands and how they print the daemon's answers. */
#pragma once

#include <stdio.h>

#include "api/api-client.h"
#include "api/cuzk.pb-c.h"

/* Exit statuses of cuzkctl. */
enum {
        CTL_EXIT_OK = 0,
        CTL_EXIT_FAILED = 1, /* the daemon is unreachable, refused, or the job did not complete */
        CTL_EXIT_USAGE = 2,  /* bad arguments or unreadable input files */
};

#define CTL_TIMEOUT_DEFAULT (-2)

struct ctl_context {
        const char *socket_path; /* unix socket, unless tcp_host is set */
        const char *tcp_host;
        unsigned tcp_port;
        int timeout_ms; /* per call: -1 none, CTL_TIMEOUT_DEFAULT the command's own */
};

int ctl_connect(const struct ctl_context *ctx, struct api_client **ret);
/* Calls method; prints the daemon's error and returns CTL_EXIT_FAILED when
 * it does not answer OK. */
int ctl_call(const struct ctl_context *ctx, struct api_client *client, enum api_method method,
             const ProtobufCMessage *request, int timeout_ms, ProtobufCMessage **ret_response);

int ctl_status(const struct ctl_context *ctx, int argc, char **argv);
int ctl_metrics(const struct ctl_context *ctx, int argc, char **argv);
int ctl_submit(const struct ctl_context *ctx, int argc, char **argv);
int ctl_await(const struct ctl_context *ctx, int argc, char **argv);
int ctl_prove(const struct ctl_context *ctx, int argc, char **argv);
int ctl_cancel(const struct ctl_context *ctx, int argc, char **argv);
int ctl_preload(const struct ctl_context *ctx, int argc, char **argv);
int ctl_evict(const struct ctl_context *ctx, int argc, char **argv);

/* Plain-text forms of the answers (cuzkctl-print.c). */
void ctl_print_status(FILE *f, const Cuzk__V1__GetStatusResponse *status);
/* Prints a job's result; with proof_path the proof bytes go to that file
 * instead of stdout (as hex). Returns the exit status the result stands for. */
int ctl_print_result(FILE *f, const Cuzk__V1__AwaitProofResponse *result, const char *proof_path);
