/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the daemon plugs into the API server: one function per method of
 * cuzk.v1.ProvingEngine, and the calls through which it answers.
 *
 * A handler gets the decoded request (valid only while the handler runs) and
 * answers in one of three ways:
 *   - api_reply() or api_reply_error() before returning 0;
 *   - returning 0 without answering: the call stays open and the daemon
 *     answers later from its event loop with api_reply()/api_reply_error()
 *     (AwaitProof waits for a job that way, with no thread);
 *   - returning a negative errno without answering: the client gets the
 *     gRPC status that errno stands for (grpc_status_from_errno()).
 * A method whose handler is NULL answers UNIMPLEMENTED.
 *
 * Everything here runs on the thread of the loop that drives the server;
 * another thread that finishes a job wakes the loop (an eventfd, say) and
 * answers from there.
 *
 * A call that is answered belongs to the server again: do not touch it after
 * api_reply(). A call left open is the daemon's until it answers, or until
 * call_abandoned() says the client went away (stream reset, connection
 * closed, server freed); the call must not be used after that.
 */
#pragma once

#include "api/api-methods.h"
#include "api/cuzk.pb-c.h"
#include "api/grpc-frame.h"

struct api_call;

struct api_handler {
        int (*submit_proof)(struct api_call *call, const Cuzk__V1__SubmitProofRequest *request,
                            void *userdata);
        int (*await_proof)(struct api_call *call, const Cuzk__V1__AwaitProofRequest *request,
                           void *userdata);
        int (*prove)(struct api_call *call, const Cuzk__V1__ProveRequest *request, void *userdata);
        int (*cancel_proof)(struct api_call *call, const Cuzk__V1__CancelProofRequest *request,
                            void *userdata);
        int (*get_status)(struct api_call *call, const Cuzk__V1__GetStatusRequest *request,
                          void *userdata);
        int (*get_metrics)(struct api_call *call, const Cuzk__V1__GetMetricsRequest *request,
                           void *userdata);
        int (*preload_srs)(struct api_call *call, const Cuzk__V1__PreloadSrsRequest *request,
                           void *userdata);
        int (*evict_srs)(struct api_call *call, const Cuzk__V1__EvictSrsRequest *request,
                         void *userdata);
        /* The client of an open call went away; forget the call. May be NULL. */
        void (*call_abandoned)(struct api_call *call, void *userdata);
};

/* Answers with a response of the method's response type (checked). Returns 0,
 * or a negative errno when it could not be encoded (the client then gets
 * INTERNAL); either way the call is answered. */
int api_reply(struct api_call *call, const ProtobufCMessage *response);
/* Answers with a non-OK status and a message (printf format). */
int api_reply_error(struct api_call *call, enum grpc_status status, const char *format, ...)
        __attribute__((format(printf, 3, 4)));

enum api_method api_call_method(const struct api_call *call);
/* A pointer of the daemon's own, kept with an open call (NULL at first). */
void api_call_set_userdata(struct api_call *call, void *userdata);
void *api_call_get_userdata(const struct api_call *call);
