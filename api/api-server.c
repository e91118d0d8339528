/* SPDX-License-Identifier: Apache-2.0 */
/*
 * gRPC server: listeners accept connections, each connection is an nghttp2
 * server session, each HTTP/2 stream is one call (struct api_call, api-call.c).
 */
#include "api-server-internal.h"

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
#include "common/clock.h"
#include "common/log.h"

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
        call = api_call_new(connection, frame->hd.stream_id);
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

        (void)flags;
        (void)user_data;
        /* Data after an early answer (an error) is dropped, and costs no memory. */
        if (!call || call->state != CALL_RECEIVING) {
                (void)nghttp2_session_consume_connection(session, length);
                return 0;
        }
        api_admission_on_data(call, data, length);
        return 0;
}

static int on_frame_recv(nghttp2_session *session, const nghttp2_frame *frame, void *user_data) {
        struct api_connection *connection = user_data;
        struct api_call *call;

        /* The preface came before it (nghttp2 checks it): the handshake is done. */
        if (frame->hd.type == NGHTTP2_SETTINGS && !(frame->hd.flags & NGHTTP2_FLAG_ACK) &&
            !connection->handshake_done) {
                connection->handshake_done = true;
                api_limits_timer_update(connection);
        }
        if (frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA)
                return 0;
        call = nghttp2_session_get_stream_user_data(session, frame->hd.stream_id);
        if (!call)
                return 0;
        if (frame->hd.type == NGHTTP2_HEADERS && frame->headers.cat == NGHTTP2_HCAT_REQUEST)
                api_call_check_headers(call);
        if (frame->hd.flags & NGHTTP2_FLAG_END_STREAM) {
                call->remote_closed = true;
                if (call->state == CALL_RECEIVING)
                        api_call_dispatch(call);
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
        api_call_abandon(call);
        api_call_free(call);
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

void api_connection_free(struct api_connection *connection) {
        struct api_server *server = connection->server;

        connection->closing = true;
        /* Abandon first: the daemon may answer other calls of this connection
         * from call_abandoned(), which closing turns into no-ops. */
        for (struct api_call *call = connection->calls; call; call = call->next)
                api_call_abandon(call);
        /* nghttp2_session_del() does not report stream closes: free calls here. */
        while (connection->calls)
                api_call_free(connection->calls);
        nghttp2_session_del(connection->session);
        server->loop->io_remove(server->loop->loop_data, connection->watch);
        if (connection->timer)
                server->loop->timer_remove(server->loop->loop_data, connection->timer);
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
                connection->last_activity_usec = clock_now_usec();
                connection->in_session = true;
                r = api_h2_read(fd, connection->session);
                connection->in_session = false;
                if (r < 0) {
                        if (r != -ECONNRESET)
                                log_debug_errno(r, "api: connection %d: %m", fd);
                        api_connection_free(connection);
                        return;
                }
        }
        connection->in_session = true;
        r = api_h2_flush(connection->session);
        connection->in_session = false;
        events = r < 0 ? 0 : api_h2_wanted_events(connection->session);
        if (events == 0) {
                api_connection_free(connection);
                return;
        }
        if (connection->server->loop->io_set_events(connection->server->loop->loop_data,
                                                    connection->watch, events) < 0) {
                api_connection_free(connection);
                return;
        }
        api_limits_timer_update(connection);
}

/* The connection's nghttp2 session, with our SETTINGS queued. */
static int connection_session_new(struct api_connection *connection) {
        struct api_server *server = connection->server;

        if (nghttp2_session_server_new2(&connection->session, server->callbacks, connection,
                                        server->session_option) != 0)
                return -ENOMEM;
        return api_h2_submit_settings(connection->session, server->options.max_concurrent_streams,
                                      API_H2_SERVER_INITIAL_STREAM_WINDOW_BYTES);
}

/* Takes fd, which is closed on failure; peer: its credentials. */
static int connection_new(struct api_server *server, int fd, const struct api_peer *peer) {
        struct api_connection *connection;
        int r;

        connection = calloc(1, sizeof(*connection));
        if (!connection) {
                close(fd);
                return -ENOMEM;
        }
        connection->server = server;
        connection->fd = fd;
        connection->peer = *peer;
        connection->accepted_usec = connection->last_activity_usec = clock_now_usec();
        r = connection_session_new(connection);
        /* Watch for POLLOUT too: our SETTINGS are queued. */
        if (r >= 0)
                r = server->loop->io_add(server->loop->loop_data, fd, POLLIN | POLLOUT,
                                         connection_io, connection, &connection->watch);
        if (r >= 0)
                r = api_limits_timer_start(connection);
        if (r < 0) {
                if (connection->watch)
                        server->loop->io_remove(server->loop->loop_data, connection->watch);
                nghttp2_session_del(connection->session);
                free(connection);
                close(fd);
                return r;
        }
        connection->next = server->connections;
        if (server->connections)
                server->connections->prev = connection;
        server->connections = connection;
        server->n_connections++;
        return 0;
}

/* A new connection: served, once the limits make room for it, or closed. */
static int listener_accept_one(struct api_server *server, int client) {
        struct api_peer peer;
        int r;

        r = api_peer_from_socket(client, &peer);
        if (r < 0) {
                close(client);
                return r;
        }
        if (api_limits_admit_connection(server, &peer) < 0) {
                close(client); /* said by api_limits_admit_connection() */
                return 0;
        }
        return connection_new(server, client, &peer);
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
                r = listener_accept_one(server, client);
                if (r < 0)
                        log_warning_errno(r, "api: cannot serve a new connection: %m");
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

/* The defaults of the options added for request memory and connection limits. */
static int server_options_defaults(struct api_server_options *o) {
        if (!o->max_request_memory_bytes)
                o->max_request_memory_bytes = DEFAULT_MAX_REQUEST_MEMORY_BYTES;
        if (o->max_request_memory_bytes < o->max_message_bytes)
                return log_error_errno(
                        -EINVAL,
                        "api: request memory cap (MaxRequestMemory=) %zu bytes is below "
                        "the largest message (MaxMessageSize=), %zu bytes: it could never be "
                        "received; expected a cap of at least the message size",
                        o->max_request_memory_bytes, o->max_message_bytes);
        if (!o->max_connections_per_user)
                o->max_connections_per_user = DEFAULT_MAX_CONNECTIONS_PER_USER;
        if (!o->handshake_timeout_usec)
                o->handshake_timeout_usec = DEFAULT_HANDSHAKE_TIMEOUT_USEC;
        if (!o->stall_timeout_usec)
                o->stall_timeout_usec = DEFAULT_STALL_TIMEOUT_USEC;
        if (!o->idle_timeout_usec)
                o->idle_timeout_usec = DEFAULT_IDLE_TIMEOUT_USEC;
        return 0;
}

/* Flow control by the request memory cap: no WINDOW_UPDATE but for consumed bytes. */
static int session_option_new(nghttp2_option **ret) {
        if (nghttp2_option_new(ret) != 0)
                return -ENOMEM;
        nghttp2_option_set_no_auto_window_update(*ret, 1);
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
        r = server_options_defaults(&server->options);
        if (r < 0) {
                free(server);
                return r;
        }
        api_admission_init(&server->memory, server->options.max_request_memory_bytes);
        api_limits_ensure_fds(server->options.max_connections);
        r = callbacks_new(&server->callbacks);
        if (r >= 0)
                r = session_option_new(&server->session_option);
        if (r < 0) {
                api_server_free(server);
                return r;
        }
        *ret = server;
        return 0;
}

void api_server_free(struct api_server *server) {
        if (!server)
                return;
        while (server->connections)
                api_connection_free(server->connections);
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
        nghttp2_option_del(server->session_option);
        free(server);
}

int api_server_listen_unix(struct api_server *server, const char *path, mode_t mode) {
        int fd, r;

        assert(server);
        assert(path);

        r = api_socket_listen_unix(path, mode, &fd);
        if (r == -EADDRINUSE)
                return log_error_errno(r,
                                       "api: socket %s is served by another process (it "
                                       "answered a connect()); not replacing it",
                                       path);
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
