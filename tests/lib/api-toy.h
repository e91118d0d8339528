/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The API tests' server: the real api_server on a unix socket in a temporary
 * directory, run by a poll loop on its own thread, with a toy in-memory
 * handler. Jobs complete at once with the proof bytes the test supplies,
 * unless the test asks them to stay running until toy_server_complete_jobs().
 * The handler keeps the last request of each method (packed) so that the
 * test can check what arrived.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api-methods.h"
#include "api/api-server.h"

struct toy_server;

struct toy_server_options {
        const uint8_t *proof; /* the proof every job completes with */
        size_t proof_length;
        bool jobs_stay_running; /* until toy_server_complete_jobs() */
        bool socket_activation; /* serve a socket made beforehand (api_server_listen_fd) */
        bool tcp;               /* also listen on 127.0.0.1, a free port */
        /* The server's options (NULL: its defaults). */
        const struct api_server_options *server_options;
};

/* Starts the server thread; *ret holds the socket path. */
int toy_server_start(const struct toy_server_options *options, struct toy_server **ret);
/* Stops the thread, frees the server, removes the socket and directory. */
void toy_server_stop(struct toy_server *toy);
const char *toy_server_socket(const struct toy_server *toy);
/* The TCP port (options.tcp). */
uint16_t toy_server_tcp_port(const struct toy_server *toy);

/* Completes every running job (from the server thread, woken through an
 * eventfd); waiters are answered COMPLETED. Thread-safe. */
void toy_server_complete_jobs(struct toy_server *toy);

/* Copies the last request received for method (packed protobuf, malloc()ed);
 * -ENOENT if none came. Thread-safe. */
int toy_server_last_request(struct toy_server *toy, enum api_method method, uint8_t **ret,
                            size_t *ret_length);
/* Calls of each kind so far. Thread-safe. */
unsigned toy_server_abandoned_calls(struct toy_server *toy);
unsigned toy_server_open_waiters(struct toy_server *toy);
/* The server's request memory accounting as the last handler call found it (with
 * that call's own request already given back). Thread-safe. */
void toy_server_request_memory(struct toy_server *toy, struct api_request_memory_stats *ret);

/* The fixed answers of the toy handler, for comparisons in the tests. */
extern const char toy_metrics_text[];
void toy_fill_status(void *get_status_response); /* Cuzk__V1__GetStatusResponse * */
