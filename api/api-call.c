/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A gRPC call, one HTTP/2 stream: it collects its request message, is
 * dispatched to the handler when the client ends its stream, and is answered
 * with HEADERS, one DATA message and trailers, or with a single HEADERS frame
 * carrying an error status ("Trailers-Only").
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
#include "api-wire.h"
#include "common/cleanup.h"
#include "common/clock.h"
#include "common/log.h"

/* --- calls --- */

struct api_call *api_call_new(struct api_connection *connection, int32_t stream_id) {
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
        /* A call begun: the connection owes its request, the stall timeout applies. */
        api_limits_timer_update(connection);
        return call;
}

void api_call_free(struct api_call *call) {
        struct api_connection *connection = call->connection;

        api_admission_release(call);
        if (call->prev)
                call->prev->next = call->next;
        else
                connection->calls = call->next;
        if (call->next)
                call->next->prev = call->prev;
        free(call->response);
        free(call->path);
        free(call);
        /* A call ended: the idle timeout counts from now. */
        connection->last_activity_usec = clock_now_usec();
        api_limits_timer_update(connection);
}

/* The client is gone before an open call was answered: tell the daemon. */
void api_call_abandon(struct api_call *call) {
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
void api_connection_kick(struct api_connection *connection) {
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

int api_reply_error_http(struct api_call *call, const char *http_status, enum grpc_status status,
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
        api_connection_kick(call->connection);
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
        return api_reply_error_http(call, "200", status, message);
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
                (void)api_reply_error_http(call, "200", GRPC_STATUS_INTERNAL,
                                           "response larger than 4 GiB");
                return -E2BIG;
        }
        call->response = malloc(GRPC_FRAME_PREFIX_BYTES + length);
        if (!call->response) {
                (void)api_reply_error_http(call, "200", GRPC_STATUS_RESOURCE_EXHAUSTED,
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
                (void)api_reply_error_http(call, "200", GRPC_STATUS_INTERNAL,
                                           "cannot queue the response");
                return -ENOMEM;
        }
        call->state = CALL_ANSWERED;
        api_connection_kick(call->connection);
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
void api_call_dispatch(struct api_call *call) {
        struct api_server *server = call->connection->server;
        const struct api_method_info *info = api_method_info(api_call_method(call));
        ProtobufCMessage *request;
        struct api_wire_nul nul;
        int r, found;

        r = grpc_frame_reader_finish(&call->reader);
        if (r < 0) {
                api_admission_release(call);
                api_reply_error_http(call, "200", call->reader.error, call->reader.error_message);
                return;
        }
        /* A string with a NUL byte would reach the handler cut short at it (protobuf-c
         * decodes strings into C strings): refused, naming the field. */
        found = api_wire_find_nul_string(info->request, call->reader.message,
                                         call->reader.message_length, &nul);
        request = found == 0 ? protobuf_c_message_unpack(info->request, NULL,
                                                         call->reader.message_length,
                                                         call->reader.message)
                             : NULL;
        /* Decoded: the request buffer's memory goes back to the cap. */
        api_admission_release(call);
        call->state = CALL_HANDLING;
        if (found > 0) {
                api_reply_error(call, GRPC_STATUS_INVALID_ARGUMENT,
                                "%s holds a NUL byte at offset %zu: cuzkd takes strings and "
                                "paths only without one, rather than cut them short there",
                                nul.field, nul.offset);
                return;
        }
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
void api_call_check_headers(struct api_call *call) {
        char message[MAX_PATH_IN_MESSAGE + 64];

        if (!call->method_is_post) {
                api_reply_error_http(call, "405", GRPC_STATUS_UNIMPLEMENTED,
                                     "gRPC calls use the POST method");
                return;
        }
        if (!call->content_type_is_grpc) {
                api_reply_error_http(call, "415", GRPC_STATUS_INVALID_ARGUMENT,
                                     "content-type must be application/grpc");
                return;
        }
        if (call->method < 0) {
                snprintf(message, sizeof(message), "unknown method %.*s", MAX_PATH_IN_MESSAGE,
                         call->path ? call->path : "(none)");
                api_reply_error_http(call, "200", GRPC_STATUS_UNIMPLEMENTED, message);
        }
}
