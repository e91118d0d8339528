/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the gRPC server's two halves share: api-call.c (one HTTP/2 stream as
 * a call: its request, dispatch to the handler, its reply) and api-server.c
 * (listeners, connections, the nghttp2 session and its callbacks).
 */
#pragma once

#include <nghttp2/nghttp2.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "api/api-peer.h"
#include "api/api-server.h"

#define DEFAULT_MAX_CONNECTIONS 256
#define DEFAULT_MAX_CONCURRENT_STREAMS 128
#define ACCEPTS_PER_CALL 16
/* Enough of an unknown :path to name it in the error message. */
#define MAX_PATH_IN_MESSAGE 200

enum call_state {
        CALL_RECEIVING, /* request headers and message arriving */
        CALL_HANDLING,  /* inside the handler */
        CALL_OPEN,      /* the handler will answer later */
        CALL_ANSWERED,  /* response queued or sent; no handler owns it */
};

struct api_call {
        struct api_connection *connection;
        int32_t stream_id;
        int method; /* enum api_method, or -ENOENT for an unknown :path */
        char *path;
        bool method_is_post;
        bool content_type_is_grpc;
        bool remote_closed; /* the client ended its side of the stream */
        enum call_state state;
        struct grpc_frame_reader reader;
        uint8_t *response; /* prefix + message, until sent */
        size_t response_length, response_sent;
        void *userdata;
        struct api_call *prev, *next;
};

struct api_connection {
        struct api_server *server;
        int fd;
        void *watch;
        struct api_peer peer; /* taken at accept */
        nghttp2_session *session;
        bool in_session; /* inside nghttp2 recv/send: replies are flushed after */
        bool closing;    /* being freed: replies are dropped */
        struct api_call *calls;
        struct api_connection *prev, *next;
};

struct api_listener {
        struct api_server *server;
        int fd;
        void *watch;
        char *unix_path; /* unlinked on free when we created it */
        struct api_listener *next;
};

struct api_server {
        const struct api_event_loop *loop;
        const struct api_handler *handler;
        void *userdata;
        struct api_server_options options;
        nghttp2_session_callbacks *callbacks;
        struct api_listener *listeners;
        struct api_connection *connections;
        unsigned n_connections;
};

#define NV(name, value) \
        { (uint8_t *)(name), (uint8_t *)(value), strlen(name), strlen(value), NGHTTP2_NV_FLAG_NONE }

struct api_call *api_call_new(struct api_connection *connection, int32_t stream_id);
void api_call_free(struct api_call *call);
/* The client is gone before an open call was answered: tell the daemon. */
void api_call_abandon(struct api_call *call);
/* The client ended its stream: decode the request and hand it over. */
void api_call_dispatch(struct api_call *call);
/* The request headers are complete: refuse what no handler can serve. */
void api_call_check_headers(struct api_call *call);
/* An error status on the stream (Trailers-Only), with an HTTP status for requests that
 * are not gRPC at all. */
int api_reply_error_http(struct api_call *call, const char *http_status, enum grpc_status status,
                         const char *message);
void api_connection_free(struct api_connection *connection);
