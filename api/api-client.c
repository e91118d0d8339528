/* SPDX-License-Identifier: Apache-2.0 */
#include "api-client.h"

#include <assert.h>
#include <errno.h>
#include <nghttp2/nghttp2.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api-h2.h"
#include "api-socket.h"
#include "common/cleanup.h"

/* Server-initiated streams (push) are refused; this only bounds them. */
#define CLIENT_MAX_CONCURRENT_STREAMS 16

struct client_call {
        int32_t stream_id;
        const uint8_t *body;
        size_t body_length, body_sent;
        struct grpc_frame_reader reader;
        struct api_call_result result;
        bool done;
        struct client_call *next;
};

struct api_client {
        int fd;
        nghttp2_session *session;
        size_t max_data_frame;
        int broken; /* negative errno once the connection failed */
        struct client_call *calls;
};

#define NV(name, value) \
        { (uint8_t *)(name), (uint8_t *)(value), strlen(name), strlen(value), NGHTTP2_NV_FLAG_NONE }

void api_call_result_done(struct api_call_result *result) {
        if (!result)
                return;
        free(result->message);
        free(result->body);
        *result = (struct api_call_result){.grpc_status = -1};
}

static struct client_call *client_find_call(struct api_client *client, int32_t stream_id) {
        for (struct client_call *c = client->calls; c; c = c->next)
                if (c->stream_id == stream_id)
                        return c;
        return NULL;
}

static void client_remove_call(struct api_client *client, struct client_call *call) {
        for (struct client_call **p = &client->calls; *p; p = &(*p)->next)
                if (*p == call) {
                        *p = call->next;
                        break;
                }
        grpc_frame_reader_done(&call->reader);
        api_call_result_done(&call->result);
        free(call);
}

/* --- nghttp2 callbacks --- */

static ssize_t on_send(nghttp2_session *session, const uint8_t *data, size_t length, int flags,
                       void *user_data) {
        struct api_client *client = user_data;

        (void)session;
        (void)flags;
        return api_h2_write(client->fd, data, length);
}

static int on_header(nghttp2_session *session, const nghttp2_frame *frame, const uint8_t *name,
                     size_t name_length, const uint8_t *value, size_t value_length, uint8_t flags,
                     void *user_data) {
        struct client_call *call = client_find_call(user_data, frame->hd.stream_id);
        char number[16];

        (void)session;
        (void)flags;
        if (!call || frame->hd.type != NGHTTP2_HEADERS)
                return 0;
        if (api_h2_equal(name, name_length, ":status") ||
            api_h2_equal(name, name_length, "grpc-status")) {
                if (value_length == 0 || value_length >= sizeof(number))
                        return 0;
                memcpy(number, value, value_length);
                number[value_length] = 0;
                if (name[0] == ':')
                        call->result.http_status = atoi(number);
                else
                        call->result.grpc_status = atoi(number);
        } else if (api_h2_equal(name, name_length, "grpc-message")) {
                free(call->result.message);
                call->result.message = grpc_message_decode((const char *)value, value_length);
        }
        return 0;
}

static int on_data_chunk(nghttp2_session *session, uint8_t flags, int32_t stream_id,
                         const uint8_t *data, size_t length, void *user_data) {
        struct client_call *call = client_find_call(user_data, stream_id);

        (void)session;
        (void)flags;
        if (call)
                (void)grpc_frame_reader_feed(&call->reader, data, length);
        return 0;
}

static int on_stream_close(nghttp2_session *session, int32_t stream_id, uint32_t error_code,
                           void *user_data) {
        struct client_call *call = client_find_call(user_data, stream_id);

        (void)session;
        (void)error_code;
        if (call)
                call->done = true;
        return 0;
}

static ssize_t request_read(nghttp2_session *session, int32_t stream_id, uint8_t *buf,
                            size_t length, uint32_t *data_flags, nghttp2_data_source *source,
                            void *user_data) {
        struct client_call *call = source->ptr;
        struct api_client *client = user_data;
        size_t n = call->body_length - call->body_sent;

        (void)session;
        (void)stream_id;
        if (n > length)
                n = length;
        if (client->max_data_frame && n > client->max_data_frame)
                n = client->max_data_frame;
        if (n > 0) /* an empty body may have no buffer at all */
                memcpy(buf, call->body + call->body_sent, n);
        call->body_sent += n;
        if (call->body_sent == call->body_length)
                *data_flags |= NGHTTP2_DATA_FLAG_EOF;
        return (ssize_t)n;
}

/* --- connection --- */

/* Takes fd, also on failure. */
static int client_new(int fd, struct api_client **ret) {
        struct api_client *client;
        nghttp2_session_callbacks *callbacks;
        int r;

        client = calloc(1, sizeof(*client));
        if (!client) {
                close(fd);
                return -ENOMEM;
        }
        client->fd = fd;
        client->session = NULL;
        if (nghttp2_session_callbacks_new(&callbacks) < 0) {
                api_client_free(client);
                return -ENOMEM;
        }
        nghttp2_session_callbacks_set_send_callback(callbacks, on_send);
        nghttp2_session_callbacks_set_on_header_callback(callbacks, on_header);
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks, on_data_chunk);
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks, on_stream_close);
        r = nghttp2_session_client_new(&client->session, callbacks, client);
        nghttp2_session_callbacks_del(callbacks);
        if (r < 0) {
                client->session = NULL;
                api_client_free(client);
                return -ENOMEM;
        }
        r = api_h2_submit_settings(client->session, CLIENT_MAX_CONCURRENT_STREAMS,
                                   API_H2_STREAM_WINDOW_BYTES);
        /* The preface and SETTINGS go now: the server closes a connection that has not
         * sent them within its HandshakeTimeout=, and a client may connect long before
         * its first call. */
        if (r >= 0)
                r = api_h2_flush(client->session);
        if (r < 0) {
                api_client_free(client);
                return r;
        }
        *ret = client;
        return 0;
}

int api_client_connect_unix_within(const char *path, int timeout_ms, struct api_client **ret) {
        int fd, r;

        assert(path);
        assert(ret);

        r = api_socket_connect_unix(path, timeout_ms, &fd);
        if (r < 0)
                return r;
        return client_new(fd, ret);
}

int api_client_connect_tcp_within(const char *host, uint16_t port, int timeout_ms,
                                  struct api_client **ret) {
        int fd, r;

        assert(host);
        assert(ret);

        r = api_socket_connect_tcp(host, port, timeout_ms, &fd);
        if (r < 0)
                return r;
        return client_new(fd, ret);
}

int api_client_connect_unix(const char *path, struct api_client **ret) {
        return api_client_connect_unix_within(path, -1, ret);
}

int api_client_connect_tcp(const char *host, uint16_t port, struct api_client **ret) {
        return api_client_connect_tcp_within(host, port, -1, ret);
}

void api_client_free(struct api_client *client) {
        if (!client)
                return;
        while (client->calls)
                client_remove_call(client, client->calls);
        nghttp2_session_del(client->session);
        close(client->fd);
        free(client);
}

void api_client_set_max_data_frame(struct api_client *client, size_t bytes) {
        assert(client);
        client->max_data_frame = bytes;
}

int api_client_start(struct api_client *client, const char *path, const void *body, size_t length,
                     int32_t *ret_call) {
        const nghttp2_nv headers[] = {
                NV(":method", "POST"),
                NV(":scheme", "http"),
                NV(":path", path),
                NV(":authority", "localhost"),
                NV("content-type", "application/grpc"),
                NV("te", "trailers"),
                NV("user-agent", "cuzk-api-client"),
        };
        nghttp2_data_provider provider;
        struct client_call *call;
        int32_t stream_id;
        int r;

        assert(client);
        assert(path);
        assert(body || length == 0);
        assert(ret_call);

        if (client->broken)
                return client->broken;
        call = calloc(1, sizeof(*call));
        if (!call)
                return -ENOMEM;
        call->body = body;
        call->body_length = length;
        call->result.grpc_status = -1;
        grpc_frame_reader_init(&call->reader, GRPC_DEFAULT_MAX_MESSAGE_BYTES);

        provider = (nghttp2_data_provider){.source.ptr = call, .read_callback = request_read};
        stream_id = nghttp2_submit_request(client->session, NULL, headers,
                                           sizeof(headers) / sizeof(headers[0]), &provider, NULL);
        if (stream_id < 0) {
                free(call);
                return stream_id == NGHTTP2_ERR_STREAM_ID_NOT_AVAILABLE ? -EMFILE : -ENOMEM;
        }
        call->stream_id = stream_id;
        call->next = client->calls;
        client->calls = call;
        *ret_call = stream_id;
        /* Send now, as far as the socket takes it: the server may start on the
         * call while this thread does something else before waiting. */
        r = api_h2_flush(client->session);
        if (r < 0)
                client->broken = r;
        return 0;
}

static int64_t now_ms(void) {
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* One round of I/O: send what is queued, wait for the socket, read. */
static int client_step(struct api_client *client, int timeout_ms) {
        struct pollfd pfd;
        int r;

        r = api_h2_flush(client->session);
        if (r < 0)
                return r;
        pfd = (struct pollfd){.fd = client->fd,
                              .events = (short)api_h2_wanted_events(client->session)};
        if (pfd.events == 0)
                return -ECONNRESET; /* the session ended (GOAWAY) */
        r = poll(&pfd, 1, timeout_ms);
        if (r < 0)
                return errno == EINTR ? 0 : -errno;
        if (r == 0)
                return -ETIMEDOUT;
        if (pfd.revents & (POLLIN | POLLHUP | POLLERR))
                return api_h2_read(client->fd, client->session);
        return 0;
}

int api_client_wait(struct api_client *client, int32_t call_id, int timeout_ms,
                    struct api_call_result *result) {
        int64_t deadline = timeout_ms >= 0 ? now_ms() + timeout_ms : -1;
        struct client_call *call;
        int r = 0;

        assert(client);
        assert(result);

        *result = (struct api_call_result){.grpc_status = -1};
        call = client_find_call(client, call_id);
        if (!call)
                return -ENOENT;
        while (!call->done) {
                int wait_ms = -1;

                if (client->broken) {
                        r = client->broken;
                        break;
                }
                if (deadline >= 0) {
                        int64_t left = deadline - now_ms();
                        wait_ms = left > 0 ? (int)left : 0;
                }
                r = client_step(client, wait_ms);
                if (r == -ETIMEDOUT) {
                        /* Give up on this call only; the connection stays usable. */
                        (void)nghttp2_submit_rst_stream(client->session, NGHTTP2_FLAG_NONE,
                                                        call->stream_id, NGHTTP2_CANCEL);
                        (void)api_h2_flush(client->session);
                        break;
                }
                if (r < 0) {
                        client->broken = r;
                        break;
                }
        }
        /* A call reset on timeout is done too, but has no result to give; one
         * answered just before the connection closed has. */
        if (call->done && r != -ETIMEDOUT) {
                r = 0;
                *result = call->result;
                call->result = (struct api_call_result){.grpc_status = -1};
                if (call->reader.complete) {
                        result->body = TAKE_PTR(call->reader.message);
                        result->body_length = call->reader.message_length;
                }
        }
        client_remove_call(client, call);
        return r;
}

int api_client_call_raw(struct api_client *client, const char *path, const void *body,
                        size_t length, int timeout_ms, struct api_call_result *result) {
        int32_t call;
        int r;

        assert(result);

        *result = (struct api_call_result){.grpc_status = -1};
        r = api_client_start(client, path, body, length, &call);
        if (r < 0)
                return r;
        return api_client_wait(client, call, timeout_ms, result);
}

int api_client_call(struct api_client *client, enum api_method method,
                    const ProtobufCMessage *request, int timeout_ms, struct api_call_result *result,
                    ProtobufCMessage **ret_response) {
        const struct api_method_info *info = api_method_info(method);
        _cleanup_free_ uint8_t *body = NULL;
        size_t length;
        int r;

        assert(client);
        assert(request && request->descriptor == info->request);
        assert(result);
        assert(ret_response);

        *ret_response = NULL;
        length = protobuf_c_message_get_packed_size(request);
        if (length > UINT32_MAX)
                return -E2BIG;
        body = malloc(GRPC_FRAME_PREFIX_BYTES + length);
        if (!body)
                return -ENOMEM;
        grpc_frame_prefix(body, (uint32_t)length);
        protobuf_c_message_pack(request, body + GRPC_FRAME_PREFIX_BYTES);

        r = api_client_call_raw(client, info->path, body, GRPC_FRAME_PREFIX_BYTES + length,
                                timeout_ms, result);
        if (r < 0 || result->grpc_status != GRPC_STATUS_OK)
                return r;
        if (!result->body)
                return -EBADMSG;
        *ret_response =
                protobuf_c_message_unpack(info->response, NULL, result->body_length, result->body);
        return *ret_response ? 0 : -EBADMSG;
}
