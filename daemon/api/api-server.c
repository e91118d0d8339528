/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gRPC server: listeners accept connections, each connection is an nghttp2
 * server session, each HTTP/2 stream is one call (struct api_call). A call
 * collects its request message, is dispatched to the handler when the
 * client ends its stream, and is answered with HEADERS, one DATA message and
 * trailers, or with a single HEADERS frame carrying an error status
 * ("Trailers-Only").
 */
#include "api-server.h"

#include <assert.h>
#include <errno.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "api-h2.h"
#include "api-socket.h"
#include "common/cleanup.h"
#include "common/log.h"

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

/* --- calls --- */

static struct api_call *call_new(struct api_connection *connection, int32_t stream_id) {
        struct api_call *call = calloc(1, sizeof(*call));

        if (!call)
                return NULL;
        call->connection = connection;
        call->stream_id = stream_id;
        call->method = -ENOENT;
        call->state = CALL_RECEIVING;
        grpc_frame_reader_init(&call->reader, connection->server->options.max_message_bytes);
        call->next = connection->calls;
        if (connection->calls)
                connection->calls->prev = call;
        connection->calls = call;
        return call;
}

static void call_free(struct api_call *call) {
        struct api_connection *connection = call->connection;

        if (call->prev)
                call->prev->next = call->next;
        else
                connection->calls = call->next;
        if (call->next)
                call->next->prev = call->prev;
        grpc_frame_reader_done(&call->reader);
        free(call->response);
        free(call->path);
        free(call);
}

/* The client is gone before an open call was answered: tell the daemon. */
static void call_abandon(struct api_call *call) {
        struct api_server *server = call->connection->server;

        if (call->state != CALL_OPEN)
                return;
        call->state = CALL_ANSWERED;
        if (server->handler->call_abandoned)
                server->handler->call_abandoned(call, server->userdata);
}

enum api_method api_call_method(const struct api_call *call) {
        assert(call);
        assert(call->method >= 0);
        return (enum api_method)call->method;
}

void api_call_set_userdata(struct api_call *call, void *userdata) {
        assert(call);
        call->userdata = userdata;
}

void *api_call_get_userdata(const struct api_call *call) {
        assert(call);
        return call->userdata;
}

/* --- connections --- */

static void connection_free(struct api_connection *connection);

static void connection_update_events(struct api_connection *connection) {
        uint32_t events = api_h2_wanted_events(connection->session);
        const struct api_event_loop *loop = connection->server->loop;

        /* A finished session is closed from the io callback; make sure it runs. */
        if (events == 0) {
                (void)shutdown(connection->fd, SHUT_RDWR);
                events = POLLIN;
        }
        if (loop->io_set_events(loop->loop_data, connection->watch, events) < 0)
                (void)shutdown(connection->fd, SHUT_RDWR);
}

/* Sends what a reply queued, unless nghttp2 is on the stack (it is then sent
 * when that returns). Never frees the connection: the caller may be the
 * daemon walking its own lists, so a broken connection is shut down here and
 * freed by its io callback. */
static void connection_kick(struct api_connection *connection) {
        int r;

        if (connection->in_session || connection->closing)
                return;
        connection->in_session = true;
        r = api_h2_flush(connection->session);
        connection->in_session = false;
        if (r < 0)
                (void)shutdown(connection->fd, SHUT_RDWR);
        connection_update_events(connection);
}

static int send_error_headers(struct api_call *call, const char *http_status,
                              enum grpc_status status, const char *message) {
        _cleanup_free_ char *encoded = grpc_message_encode(message ? message : "");
        char status_text[12];

        snprintf(status_text, sizeof(status_text), "%d", (int)status);
        const nghttp2_nv headers[] = {
                NV(":status", http_status),
                NV("content-type", "application/grpc"),
                NV("grpc-status", status_text),
                NV("grpc-message", encoded ? encoded : "out of memory"),
        };
        return nghttp2_submit_response(call->connection->session, call->stream_id, headers,
                                       sizeof(headers) / sizeof(headers[0]), NULL);
}

static int reply_error_http(struct api_call *call, const char *http_status, enum grpc_status status,
                            const char *message) {
        int r;

        assert(call->state != CALL_ANSWERED);
        call->state = CALL_ANSWERED;
        if (call->connection->closing)
                return 0;
        log_debug("api: stream %d: %s: %s", call->stream_id, grpc_status_name(status),
                  message ? message : "");
        r = send_error_headers(call, http_status, status, message);
        if (r < 0)
                /* The stream cannot carry a status any more: reset it. */
                (void)nghttp2_submit_rst_stream(call->connection->session, NGHTTP2_FLAG_NONE,
                                                call->stream_id, NGHTTP2_INTERNAL_ERROR);
        connection_kick(call->connection);
        return r < 0 ? -ENOMEM : 0;
}

int api_reply_error(struct api_call *call, enum grpc_status status, const char *format, ...) {
        char message[1024];
        va_list ap;

        assert(call);
        assert(call->state == CALL_HANDLING || call->state == CALL_OPEN);
        assert(status != GRPC_STATUS_OK);
        assert(format);

        va_start(ap, format);
        vsnprintf(message, sizeof(message), format, ap);
        va_end(ap);
        return reply_error_http(call, "200", status, message);
}

static ssize_t response_read(nghttp2_session *session, int32_t stream_id, uint8_t *buf,
                             size_t length, uint32_t *data_flags, nghttp2_data_source *source,
                             void *user_data) {
        static const nghttp2_nv trailers[] = {NV("grpc-status", "0")};
        struct api_call *call = source->ptr;
        size_t n = call->response_length - call->response_sent;

        (void)user_data;
        if (n > length)
                n = length;
        memcpy(buf, call->response + call->response_sent, n);
        call->response_sent += n;
        if (call->response_sent == call->response_length) {
                /* The stream ends with the trailers, not with this DATA frame. */
                *data_flags |= NGHTTP2_DATA_FLAG_EOF | NGHTTP2_DATA_FLAG_NO_END_STREAM;
                if (nghttp2_submit_trailer(session, stream_id, trailers,
                                           sizeof(trailers) / sizeof(trailers[0])) < 0)
                        return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE;
                free(call->response);
                call->response = NULL;
        }
        return (ssize_t)n;
}

int api_reply(struct api_call *call, const ProtobufCMessage *response) {
        static const nghttp2_nv headers[] = {
                NV(":status", "200"),
                NV("content-type", "application/grpc"),
                NV("grpc-accept-encoding", "identity"),
        };
        const struct api_method_info *info;
        nghttp2_data_provider provider;
        size_t length;
        int r;

        assert(call);
        assert(call->state == CALL_HANDLING || call->state == CALL_OPEN);
        assert(response);
        info = api_method_info(api_call_method(call));
        assert(response->descriptor == info->response);

        if (call->connection->closing) {
                call->state = CALL_ANSWERED;
                return 0;
        }
        length = protobuf_c_message_get_packed_size(response);
        if (length > UINT32_MAX) {
                (void)reply_error_http(call, "200", GRPC_STATUS_INTERNAL,
                                       "response larger than 4 GiB");
                return -E2BIG;
        }
        call->response = malloc(GRPC_FRAME_PREFIX_BYTES + length);
        if (!call->response) {
                (void)reply_error_http(call, "200", GRPC_STATUS_RESOURCE_EXHAUSTED,
                                       "out of memory encoding the response");
                return -ENOMEM;
        }
        grpc_frame_prefix(call->response, (uint32_t)length);
        protobuf_c_message_pack(response, call->response + GRPC_FRAME_PREFIX_BYTES);
        call->response_length = GRPC_FRAME_PREFIX_BYTES + length;
        call->response_sent = 0;

        provider = (nghttp2_data_provider){.source.ptr = call, .read_callback = response_read};
        r = nghttp2_submit_response(call->connection->session, call->stream_id, headers,
                                    sizeof(headers) / sizeof(headers[0]), &provider);
        if (r < 0) {
                free(call->response);
                call->response = NULL;
                (void)reply_error_http(call, "200", GRPC_STATUS_INTERNAL,
                                       "cannot queue the response");
                return -ENOMEM;
        }
        call->state = CALL_ANSWERED;
        connection_kick(call->connection);
        return 0;
}

/* Calls the method's handler with its typed request. */
static int handler_invoke(struct api_server *server, struct api_call *call,
                          const ProtobufCMessage *request) {
        const struct api_handler *h = server->handler;
        void *u = server->userdata;

#define INVOKE(field, type) h->field ? h->field(call, (const type *)request, u) : -EOPNOTSUPP
        switch ((enum api_method)call->method) {
        case API_METHOD_SUBMIT_PROOF:
                return INVOKE(submit_proof, Cuzk__V1__SubmitProofRequest);
        case API_METHOD_AWAIT_PROOF:
                return INVOKE(await_proof, Cuzk__V1__AwaitProofRequest);
        case API_METHOD_PROVE:
                return INVOKE(prove, Cuzk__V1__ProveRequest);
        case API_METHOD_CANCEL_PROOF:
                return INVOKE(cancel_proof, Cuzk__V1__CancelProofRequest);
        case API_METHOD_GET_STATUS:
                return INVOKE(get_status, Cuzk__V1__GetStatusRequest);
        case API_METHOD_GET_METRICS:
                return INVOKE(get_metrics, Cuzk__V1__GetMetricsRequest);
        case API_METHOD_PRELOAD_SRS:
                return INVOKE(preload_srs, Cuzk__V1__PreloadSrsRequest);
        case API_METHOD_EVICT_SRS:
                return INVOKE(evict_srs, Cuzk__V1__EvictSrsRequest);
        case _API_METHOD_COUNT:
                break;
        }
#undef INVOKE
        return -EOPNOTSUPP;
}

/* The client ended its stream: decode the request and hand it over. */
static void call_dispatch(struct api_call *call) {
        struct api_server *server = call->connection->server;
        const struct api_method_info *info = api_method_info(api_call_method(call));
        ProtobufCMessage *request;
        int r;

        if (grpc_frame_reader_finish(&call->reader) < 0) {
                reply_error_http(call, "200", call->reader.error, call->reader.error_message);
                return;
        }
        request = protobuf_c_message_unpack(info->request, NULL, call->reader.message_length,
                                            call->reader.message);
        grpc_frame_reader_done(&call->reader);
        call->state = CALL_HANDLING;
        if (!request) {
                api_reply_error(call, GRPC_STATUS_INVALID_ARGUMENT, "malformed %s message",
                                info->request->name);
                return;
        }

        r = handler_invoke(server, call, request);
        protobuf_c_message_free_unpacked(request, NULL);
        if (call->state != CALL_HANDLING)
                return;
        if (r == -EOPNOTSUPP)
                api_reply_error(call, GRPC_STATUS_UNIMPLEMENTED, "%s is not implemented",
                                info->name);
        else if (r < 0)
                api_reply_error(call, grpc_status_from_errno(r), "%s: %s", info->name,
                                strerror(-r));
        else
                call->state = CALL_OPEN;
}

/* The request headers are complete: refuse what no handler can serve. */
static void call_check_headers(struct api_call *call) {
        char message[MAX_PATH_IN_MESSAGE + 64];

        if (!call->method_is_post) {
                reply_error_http(call, "405", GRPC_STATUS_UNIMPLEMENTED,
                                 "gRPC calls use the POST method");
                return;
        }
        if (!call->content_type_is_grpc) {
                reply_error_http(call, "415", GRPC_STATUS_INVALID_ARGUMENT,
                                 "content-type must be application/grpc");
                return;
        }
        if (call->method < 0) {
                snprintf(message, sizeof(message), "unknown method %.*s", MAX_PATH_IN_MESSAGE,
                         call->path ? call->path : "(none)");
                reply_error_http(call, "200", GRPC_STATUS_UNIMPLEMENTED, message);
        }
}

/* --- nghttp2 callbacks --- */

static ssize_t on_send(nghttp2_session *session, const uint8_t *data, size_t length, int flags,
                       void *user_data) {
        struct api_connection *connection = user_data;

        (void)session;
        (void)flags;
        return api_h2_write(connection->fd, data, length);
}

static int on_begin_headers(nghttp2_session *session, const nghttp2_frame *frame, void *user_data) {
        struct api_connection *connection = user_data;
        struct api_call *call;

        if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST)
                return 0;
        call = call_new(connection, frame->hd.stream_id);
        if (!call)
                return NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE; /* resets this stream */
        nghttp2_session_set_stream_user_data(session, frame->hd.stream_id, call);
        return 0;
}

static bool content_type_is_grpc(const uint8_t *value, size_t length) {
        static const char grpc[] = "application/grpc";
        const size_t n = sizeof(grpc) - 1;

        /* application/grpc, application/grpc+proto, application/grpc;charset=... */
        return length >= n && memcmp(value, grpc, n) == 0 &&
               (length == n || value[n] == '+' || value[n] == ';');
}

static int on_header(nghttp2_session *session, const nghttp2_frame *frame, const uint8_t *name,
                     size_t name_length, const uint8_t *value, size_t value_length, uint8_t flags,
                     void *user_data) {
        struct api_call *call;

        (void)flags;
        (void)user_data;
        if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST)
                return 0;
        call = nghttp2_session_get_stream_user_data(session, frame->hd.stream_id);
        if (!call)
                return 0;
        if (api_h2_equal(name, name_length, ":path")) {
                call->method = api_method_from_path((const char *)value, value_length);
                free(call->path);
                call->path = strndup((const char *)value, value_length < MAX_PATH_IN_MESSAGE
                                                                  ? value_length
                                                                  : MAX_PATH_IN_MESSAGE);
        } else if (api_h2_equal(name, name_length, ":method"))
                call->method_is_post = api_h2_equal(value, value_length, "POST");
        else if (api_h2_equal(name, name_length, "content-type"))
                call->content_type_is_grpc = content_type_is_grpc(value, value_length);
        return 0;
}

static int on_data_chunk(nghttp2_session *session, uint8_t flags, int32_t stream_id,
                         const uint8_t *data, size_t length, void *user_data) {
        struct api_call *call = nghttp2_session_get_stream_user_data(session, stream_id);
        int r;

        (void)flags;
        (void)user_data;
        /* Data after an early answer (an error) is dropped. */
        if (!call || call->state != CALL_RECEIVING)
                return 0;
        r = grpc_frame_reader_feed(&call->reader, data, length);
        if (r == -ENOMEM)
                reply_error_http(call, "200", GRPC_STATUS_RESOURCE_EXHAUSTED,
                                 "out of memory receiving the request");
        else if (r < 0)
                reply_error_http(call, "200", call->reader.error, call->reader.error_message);
        return 0;
}

static int on_frame_recv(nghttp2_session *session, const nghttp2_frame *frame, void *user_data) {
        struct api_call *call;

        (void)user_data;
        if (frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA)
                return 0;
        call = nghttp2_session_get_stream_user_data(session, frame->hd.stream_id);
        if (!call)
                return 0;
        if (frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST)
                call_check_headers(call);
        if (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) {
                call->remote_closed = true;
                if (call->state == CALL_RECEIVING)
                        call_dispatch(call);
        }
        return 0;
}

static int on_frame_send(nghttp2_session *session, const nghttp2_frame *frame, void *user_data) {
        struct api_call *call;

        (void)user_data;
        if (frame->hd.type != NGHTTP2_HEADERS || !(frame->hd.flags & NGHTTP2_FLAG_END_STREAM))
                return 0;
        call = nghttp2_session_get_stream_user_data(session, frame->hd.stream_id);
        /* We answered before the client finished sending (an error): tell it to stop. */
        if (call && !call->remote_closed)
                (void)nghttp2_submit_rst_stream(session, NGHTTP2_FLAG_NONE, frame->hd.stream_id,
                                                NGHTTP2_NO_ERROR);
        return 0;
}

static int on_stream_close(nghttp2_session *session, int32_t stream_id, uint32_t error_code,
                           void *user_data) {
        struct api_call *call = nghttp2_session_get_stream_user_data(session, stream_id);

        (void)error_code;
        (void)user_data;
        if (!call)
                return 0;
        call_abandon(call);
        call_free(call);
        return 0;
}

static int callbacks_new(nghttp2_session_callbacks **ret) {
        nghttp2_session_callbacks *callbacks;

        if (nghttp2_session_callbacks_new(&callbacks) < 0)
                return -ENOMEM;
        nghttp2_session_callbacks_set_send_callback(callbacks, on_send);
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks, on_begin_headers);
        nghttp2_session_callbacks_set_on_header_callback(callbacks, on_header);
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, on_data_chunk);
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks, on_frame_recv);
        nghttp2_session_callbacks_set_on_frame_send_callback(callbacks, on_frame_send);
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, on_stream_close);
        *ret = callbacks;
        return 0;
}

/* --- connection lifetime --- */

static void connection_free(struct api_connection *connection) {
        struct api_server *server = connection->server;

        connection->closing = true;
        /* Abandon first: the daemon may answer other calls of this connection
         * from call_abandoned(), which closing turns into no-ops. */
        for (struct api_call *call = connection->calls; call; call = call->next)
                call_abandon(call);
        /* nghttp2_session_del() does not report stream closes: free calls here. */
        while (connection->calls)
                call_free(connection->calls);
        nghttp2_session_del(connection->session);
        server->loop->io_remove(server->loop->loop_data, connection->watch);
        close(connection->fd);

        if (connection->prev)
                connection->prev->next = connection->next;
        else
                server->connections = connection->next;
        if (connection->next)
                connection->next->prev = connection->prev;
        server->n_connections--;
        free(connection);
}

static void connection_io(int fd, uint32_t revents, void *userdata) {
        struct api_connection *connection = userdata;
        uint32_t events;
        int r;

        if (revents & (POLLIN | POLLHUP | POLLERR)) {
                connection->in_session = true;
                r = api_h2_read(fd, connection->session);
                connection->in_session = false;
                if (r < 0) {
                        if (r != -ECONNRESET)
                                log_debug_errno(r, "api: connection %d: %m", fd);
                        connection_free(connection);
                        return;
                }
        }
        connection->in_session = true;
        r = api_h2_flush(connection->session);
        connection->in_session = false;
        events = r < 0 ? 0 : api_h2_wanted_events(connection->session);
        if (events == 0) {
                connection_free(connection);
                return;
        }
        if (connection->server->loop->io_set_events(connection->server->loop->loop_data,
                                                    connection->watch, events) < 0)
                connection_free(connection);
}

static int connection_new(struct api_server *server, int fd) {
        struct api_connection *connection;
        int r = -ENOMEM;

        connection = calloc(1, sizeof(*connection));
        if (!connection)
                return -ENOMEM;
        connection->server = server;
        connection->fd = fd;
        if (nghttp2_session_server_new(&connection->session, server->callbacks, connection) == 0)
                r = api_h2_submit_settings(connection->session,
                                           server->options.max_concurrent_streams);
        /* Watch for POLLOUT too: our SETTINGS are queued. */
        if (r >= 0)
                r = server->loop->io_add(server->loop->loop_data, fd, POLLIN | POLLOUT,
                                         connection_io, connection, &connection->watch);
        if (r < 0) {
                nghttp2_session_del(connection->session);
                free(connection);
                return r;
        }
        connection->next = server->connections;
        if (server->connections)
                server->connections->prev = connection;
        server->connections = connection;
        server->n_connections++;
        return 0;
}

static void listener_io(int fd, uint32_t revents, void *userdata) {
        struct api_listener *listener = userdata;
        struct api_server *server = listener->server;

        (void)revents;
        for (int i = 0; i < ACCEPTS_PER_CALL; i++) {
                int client = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
                int r;

                if (client < 0) {
                        if (errno == EINTR || errno == ECONNABORTED)
                                continue;
                        if (errno != EAGAIN && errno != EWOULDBLOCK)
                                log_warning_errno(errno, "api: accept: %m");
                        return;
                }
                if (server->n_connections >= server->options.max_connections) {
                        log_warning("api: %u connections already, refusing another",
                                    server->n_connections);
                        close(client);
                        continue;
                }
                r = connection_new(server, client);
                if (r < 0) {
                        log_warning_errno(r, "api: cannot serve a new connection: %m");
                        close(client);
                }
        }
}

/* --- server --- */

static int server_add_listener(struct api_server *server, int fd, const char *unix_path) {
        struct api_listener *listener;
        int r = -ENOMEM;

        listener = calloc(1, sizeof(*listener));
        if (!listener)
                return -ENOMEM;
        listener->server = server;
        listener->fd = fd;
        if (unix_path)
                listener->unix_path = strdup(unix_path);
        if (!unix_path || listener->unix_path)
                r = server->loop->io_add(server->loop->loop_data, fd, POLLIN, listener_io, listener,
                                         &listener->watch);
        if (r < 0) {
                free(listener->unix_path);
                free(listener);
                return r;
        }
        listener->next = server->listeners;
        server->listeners = listener;
        return 0;
}

int api_server_new(const struct api_event_loop *loop, const struct api_handler *handler,
                   void *userdata, const struct api_server_options *options,
                   struct api_server **ret) {
        struct api_server *server;
        int r;

        assert(loop && loop->io_add && loop->io_set_events && loop->io_remove);
        assert(handler);
        assert(ret);

        server = calloc(1, sizeof(*server));
        if (!server)
                return -ENOMEM;
        server->loop = loop;
        server->handler = handler;
        server->userdata = userdata;
        if (options)
                server->options = *options;
        if (!server->options.max_message_bytes)
                server->options.max_message_bytes = GRPC_DEFAULT_MAX_MESSAGE_BYTES;
        if (!server->options.max_connections)
                server->options.max_connections = DEFAULT_MAX_CONNECTIONS;
        if (!server->options.max_concurrent_streams)
                server->options.max_concurrent_streams = DEFAULT_MAX_CONCURRENT_STREAMS;
        r = callbacks_new(&server->callbacks);
        if (r < 0) {
                free(server);
                return r;
        }
        *ret = server;
        return 0;
}

void api_server_free(struct api_server *server) {
        if (!server)
                return;
        while (server->connections)
                connection_free(server->connections);
        while (server->listeners) {
                struct api_listener *listener = server->listeners;

                server->listeners = listener->next;
                server->loop->io_remove(server->loop->loop_data, listener->watch);
                close(listener->fd);
                if (listener->unix_path)
                        (void)unlink(listener->unix_path);
                free(listener->unix_path);
                free(listener);
        }
        nghttp2_session_callbacks_del(server->callbacks);
        free(server);
}

int api_server_listen_unix(struct api_server *server, const char *path, mode_t mode) {
        int fd, r;

        assert(server);
        assert(path);

        r = api_socket_listen_unix(path, mode, &fd);
        if (r < 0)
                return log_error_errno(r, "api: cannot listen on %s: %m", path);
        r = server_add_listener(server, fd, path);
        if (r < 0) {
                close(fd);
                (void)unlink(path);
                return r;
        }
        log_debug("api: listening on %s", path);
        return 0;
}

int api_server_listen_fd(struct api_server *server, int fd) {
        int r;

        assert(server);
        assert(fd >= 0);

        r = api_socket_check_listening(fd);
        if (r < 0) {
                close(fd);
                return log_error_errno(r, "api: fd %d is not a listening stream socket: %m", fd);
        }
        r = server_add_listener(server, fd, NULL);
        if (r < 0)
                close(fd);
        return r;
}

int api_server_listen_tcp(struct api_server *server, const char *host, uint16_t port) {
        int fd, r;

        assert(server);

        r = api_socket_listen_tcp(host, port, &fd);
        if (r < 0)
                return log_error_errno(r, "api: cannot listen on %s port %u: %m", host ? host : "*",
                                       port);
        r = server_add_listener(server, fd, NULL);
        if (r < 0)
                close(fd);
        return r;
}

int api_server_tcp_port(const struct api_server *server, uint16_t *ret_port) {
        assert(server);
        assert(ret_port);

        for (const struct api_listener *l = server->listeners; l; l = l->next)
                if (!l->unix_path && api_socket_local_port(l->fd, ret_port) == 0)
                        return 0;
        return -ENOENT;
}

unsigned api_server_connection_count(const struct api_server *server) {
        assert(server);
        return server->n_connections;
}
