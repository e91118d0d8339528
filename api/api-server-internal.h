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

/* Enough for every client of a large host, within the fds that api-limits.c
 * makes sure of. */
#define DEFAULT_MAX_CONNECTIONS 1024
#define DEFAULT_MAX_CONCURRENT_STREAMS 128
/* Eight messages of 128 MiB (the MaxMessageSize default), or twenty 51 MB C1
 * envelopes, in flight at once; beyond that senders wait on flow control. */
#define DEFAULT_MAX_REQUEST_MEMORY_BYTES ((size_t)1 << 30)
/* cuzkctl holds one connection and cuzk-bench one per concurrent job; a
 * client needing more than this is leaking them. */
#define DEFAULT_MAX_CONNECTIONS_PER_USER 64
/* A local client sends its preface and SETTINGS at once; 10 s also covers a
 * TCP client across a slow network. */
#define DEFAULT_HANDSHAKE_TIMEOUT_USEC (10ull * 1000000)
/* A sender with flow-control credit that sends nothing for 30 s is stuck or
 * hostile; a 128 MiB message takes well under a second on a local socket. */
#define DEFAULT_STALL_TIMEOUT_USEC (30ull * 1000000)
/* Clients reconnect cheaply; 60 s keeps a connection across calls a few
 * seconds apart (cuzk-bench, Curio's polling) without holding it forever. */
#define DEFAULT_IDLE_TIMEOUT_USEC (60ull * 1000000)
#define ACCEPTS_PER_CALL 16
/* Enough of an unknown :path to name it in the error message. */
#define MAX_PATH_IN_MESSAGE 200

enum call_admission {
        ADMISSION_NONE,    /* the message's length is not known yet */
        ADMISSION_WAITING, /* in the server's queue for room under the cap */
        ADMISSION_GRANTED, /* its whole length is reserved */
        ADMISSION_DONE,    /* decoded or refused; memory given back */
};

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
        enum call_admission admission;
        size_t reserved_bytes;   /* taken from the cap: the message's length */
        size_t unadmitted_bytes; /* message bytes buffered before admission */
        size_t uncredited_bytes; /* DATA bytes not yet credited to the stream's window */
        struct api_call *wait_prev, *wait_next; /* the server's admission queue */
        uint8_t *response;                      /* prefix + message, until sent */
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
        bool in_session;             /* inside nghttp2 recv/send: replies are flushed after */
        bool closing;                /* being freed: replies are dropped */
        bool handshake_done;         /* the client's SETTINGS came */
        uint64_t accepted_usec;      /* order of age for eviction; handshake timeout */
        uint64_t last_activity_usec; /* bytes read, or a call ended */
        void *timer;                 /* the loop's timer, NULL without timers */
        uint64_t timer_usec;         /* what the timer is armed for */
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

/* The request memory cap's books (api-admission.c). */
struct api_request_memory {
        size_t cap_bytes;
        size_t reserved_bytes;
        /* Bytes a stream sends within its initial window before its message is
         * admitted are buffered on trust, up to this much in all. */
        size_t unadmitted_limit_bytes;
        size_t unadmitted_bytes;
        size_t peak_bytes;
        unsigned waiting_calls;
        struct api_call *waiting_head, *waiting_tail;
        bool admitting; /* inside admission_grant_waiting(): no recursion */
};

/* Refused or closed connections, logged at most once per interval with a count. */
struct api_log_limit {
        uint64_t last_usec;
        unsigned suppressed;
};

struct api_server {
        const struct api_event_loop *loop;
        const struct api_handler *handler;
        void *userdata;
        struct api_server_options options;
        nghttp2_session_callbacks *callbacks;
        nghttp2_option *session_option;
        struct api_listener *listeners;
        struct api_connection *connections;
        unsigned n_connections;
        struct api_request_memory memory;
        struct api_log_limit connection_log;
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
/* Sends what was queued on the session (unless nghttp2 is on the stack), and
 * updates the events the connection waits for. Never frees it. */
void api_connection_kick(struct api_connection *connection);

/* api-admission.c: the request memory cap. */
void api_admission_init(struct api_request_memory *memory, size_t cap_bytes);
/* DATA for a call that is receiving: charged, buffered, credited as the cap admits. */
void api_admission_on_data(struct api_call *call, const uint8_t *data, size_t length);
/* Frees the call's request buffer and gives its memory back; waiting calls that
 * now fit are admitted. */
void api_admission_release(struct api_call *call);

/* api-limits.c: connection limits and timeouts. */
/* Makes room for a connection from peer: 0 (an idle connection may have been closed
 * for it) or -EUSERS / -EMFILE when it is refused. */
int api_limits_admit_connection(struct api_server *server, const struct api_peer *peer);
/* Arms the connection's timer for what it is doing now (handshake, stall, idle). */
int api_limits_timer_start(struct api_connection *connection);
void api_limits_timer_update(struct api_connection *connection);
/* Makes sure the process may open the fds max_connections needs. */
void api_limits_ensure_fds(unsigned max_connections);
/* Logs "what" now, or counts it when a line went out less than 10 s ago. */
void api_limits_log(struct api_server *server, const char *what);
