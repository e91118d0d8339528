/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The gRPC server of cuzkd: HTTP/2 (nghttp2, server side, non-blocking) on
 * unix sockets and optionally TCP, driven by an external event loop
 * (api-loop.h), dispatching to a struct api_handler (api-handler.h).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "api/api-handler.h"
#include "api/api-loop.h"

#define API_DEFAULT_SOCKET_PATH "/run/cuzk/cuzk.sock"

/* A timeout that never expires (0 in an option means its default). */
#define API_TIMEOUT_NEVER UINT64_MAX

struct api_server_options {
        size_t max_message_bytes;        /* 0: GRPC_DEFAULT_MAX_MESSAGE_BYTES */
        unsigned max_connections;        /* 0: 1024 */
        unsigned max_concurrent_streams; /* per connection; 0: 128 */
        /* Request bytes buffered at once, all connections together (api-admission.c);
         * at least max_message_bytes, so that the largest message can complete alone.
         * 0: 1 GiB. */
        size_t max_request_memory_bytes;
        /* Connections of one uid (every TCP peer counts as one user). 0: 64. */
        unsigned max_connections_per_user;
        /* Closes a connection whose preface and SETTINGS are not in after this. 0: 10 s. */
        uint64_t handshake_timeout_usec;
        /* Closes a connection that owes the rest of a request (a frame or message
         * begun, with flow-control credit to send it) and sends nothing. 0: 30 s. */
        uint64_t stall_timeout_usec;
        /* Closes a connection with no call and no bytes for this long. 0: 60 s. */
        uint64_t idle_timeout_usec;
};

/* What api_server_request_memory() reports. */
struct api_request_memory_stats {
        size_t cap_bytes;        /* max_request_memory_bytes */
        size_t reserved_bytes;   /* messages admitted now, their whole lengths */
        size_t unadmitted_bytes; /* bytes that came before their message was admitted */
        size_t peak_bytes;       /* most of reserved + unadmitted so far */
        unsigned waiting_calls;  /* messages waiting for room */
};

struct api_server;

/* loop and handler must outlive the server; options may be NULL. */
int api_server_new(const struct api_event_loop *loop, const struct api_handler *handler,
                   void *userdata, const struct api_server_options *options,
                   struct api_server **ret);
/* Closes every connection (open calls are abandoned first) and listener; a
 * unix socket the server created is unlinked. Not from inside a handler. */
void api_server_free(struct api_server *server);

/* Binds and listens on a unix socket; a stale socket at path (nobody answers a
 * connect()) is replaced, a live one is left alone: -EADDRINUSE.
 * mode: the socket file's permission bits (e.g. 0660). */
int api_server_listen_unix(struct api_server *server, const char *path, mode_t mode);
/* Serves an already listening stream socket (socket activation); takes fd. */
int api_server_listen_fd(struct api_server *server, int fd);
/* Binds and listens on TCP, host a name or address ("127.0.0.1", "::1"). */
int api_server_listen_tcp(struct api_server *server, const char *host, uint16_t port);
/* The port of the last TCP listener (useful after listening on port 0). */
int api_server_tcp_port(const struct api_server *server, uint16_t *ret_port);

/* Connections being served now. */
unsigned api_server_connection_count(const struct api_server *server);
/* The request memory cap's accounting now. */
void api_server_request_memory(const struct api_server *server,
                               struct api_request_memory_stats *ret);
