/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Blocking gRPC client of cuzk.v1.ProvingEngine over one HTTP/2 connection
 * (nghttp2, client side), for cuzkctl and the tests. A call is usually
 * api_client_call(); api_client_start() + api_client_wait() put several
 * calls in flight on the connection at once.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "api/api-methods.h"
#include "api/grpc-frame.h"

struct api_client;

/* What came back for one call. */
struct api_call_result {
        int http_status; /* :status, 0 if none came */
        int grpc_status; /* grpc-status, -1 if none came */
        char *message;   /* grpc-message, decoded; NULL if none */
        uint8_t *body;   /* the response message without its prefix; NULL if none */
        size_t body_length;
};

void api_call_result_done(struct api_call_result *result);

int api_client_connect_unix(const char *path, struct api_client **ret);
int api_client_connect_tcp(const char *host, uint16_t port, struct api_client **ret);
/* The same, giving up after timeout_ms (-1: no limit) with -ETIMEDOUT: a server that does
 * not accept() (hung, or its backlog full) would otherwise keep connect() waiting. */
int api_client_connect_unix_within(const char *path, int timeout_ms, struct api_client **ret);
int api_client_connect_tcp_within(const char *host, uint16_t port, int timeout_ms,
                                  struct api_client **ret);
void api_client_free(struct api_client *client);

/* Largest DATA frame the client sends (default: as large as the server
 * allows); tests set it low to split a message across many frames. */
void api_client_set_max_data_frame(struct api_client *client, size_t bytes);

/*
 * Sends body (already framed: prefix and message, or anything a test wants
 * to send) to path, e.g. "/cuzk.v1.ProvingEngine/GetStatus". body must stay
 * valid until api_client_wait() returns for this call.
 */
int api_client_start(struct api_client *client, const char *path, const void *body, size_t length,
                     int32_t *ret_call);
/*
 * Runs the connection until call ends, or timeout_ms passes (-1: no limit;
 * the call is then cancelled: -ETIMEDOUT). 0 when the stream ended with or
 * without a status (see result->grpc_status), a negative errno when the
 * connection failed.
 */
int api_client_wait(struct api_client *client, int32_t call, int timeout_ms,
                    struct api_call_result *result);

/* start + wait. */
int api_client_call_raw(struct api_client *client, const char *path, const void *body,
                        size_t length, int timeout_ms, struct api_call_result *result);

/*
 * Calls a method with a request of its type. Returns 0 when a status came:
 * with GRPC_STATUS_OK, *ret_response is the decoded response (free it with
 * protobuf_c_message_free_unpacked()); otherwise *ret_response is NULL and
 * result says why. A negative errno for transport failures, and -EBADMSG when
 * an OK answer does not decode.
 */
int api_client_call(struct api_client *client, enum api_method method,
                    const ProtobufCMessage *request, int timeout_ms, struct api_call_result *result,
                    ProtobufCMessage **ret_response);
