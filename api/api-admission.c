/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The request memory cap: how many request bytes the server buffers at once,
 * all connections together, and how HTTP/2 flow control holds a sender that
 * would go past it (nghttp2's automatic WINDOW_UPDATE is off on the server).
 *
 * A stream starts with the HTTP/2 default window (64 KiB), which every small
 * request fits in. Once its message's prefix says how long the message is,
 * the whole length is reserved from the cap (admitted) or the stream waits,
 * in arrival order, with no further window; only an admitted stream's bytes
 * are credited back to it. Reserving whole messages, not bytes as they come,
 * is what keeps this free of deadlock: an admitted message can always
 * complete, and since the cap is at least the largest message, one message
 * alone always fits. When a message is decoded or its call ends, its memory
 * is given back and the waiting streams that now fit are admitted and sent
 * their WINDOW_UPDATE.
 *
 * The bytes a stream sends before its message is admitted (at most its
 * initial window) are buffered on trust and counted apart, up to an eighth
 * of the cap in all; a stream that would go past that is refused with
 * RESOURCE_EXHAUSTED. A message's 5-byte prefix is kept in the call itself,
 * so an empty request (GetStatus) never needs any of this. In all, request
 * buffers stay below cap + cap / 8. The connection-level window is credited
 * at once: the stream windows do the holding, and one waiting stream cannot
 * block the admitted streams of its connection.
 */
#include "api-server-internal.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>

#include "api-h2.h"
#include "common/clock.h"
#include "common/log.h"

void api_admission_init(struct api_request_memory *memory, size_t cap_bytes) {
        assert(memory);
        *memory = (struct api_request_memory){
                .cap_bytes = cap_bytes,
                .unadmitted_limit_bytes = cap_bytes / 8,
        };
}

static void memory_note_peak(struct api_request_memory *memory) {
        size_t now = memory->reserved_bytes + memory->unadmitted_bytes;

        if (now > memory->peak_bytes)
                memory->peak_bytes = now;
}

static void wait_queue_remove(struct api_request_memory *memory, struct api_call *call) {
        if (call->wait_prev)
                call->wait_prev->wait_next = call->wait_next;
        else
                memory->waiting_head = call->wait_next;
        if (call->wait_next)
                call->wait_next->wait_prev = call->wait_prev;
        else
                memory->waiting_tail = call->wait_prev;
        call->wait_prev = call->wait_next = NULL;
        memory->waiting_calls--;
}

static void wait_queue_append(struct api_request_memory *memory, struct api_call *call) {
        call->wait_prev = memory->waiting_tail;
        call->wait_next = NULL;
        if (memory->waiting_tail)
                memory->waiting_tail->wait_next = call;
        else
                memory->waiting_head = call;
        memory->waiting_tail = call;
        memory->waiting_calls++;
        call->admission = ADMISSION_WAITING;
}

/* Reserves the call's message and opens its stream's window for the rest of it. */
static void admission_grant(struct api_call *call) {
        struct api_request_memory *memory = &call->connection->server->memory;
        nghttp2_session *session = call->connection->session;
        size_t length = call->reader.message_length;
        size_t window = length - call->reader.message_filled + GRPC_FRAME_PREFIX_BYTES;

        if (call->admission == ADMISSION_WAITING)
                wait_queue_remove(memory, call);
        call->admission = ADMISSION_GRANTED;
        call->reserved_bytes = length;
        memory->reserved_bytes += length;
        /* What came before is now part of the reservation. */
        memory->unadmitted_bytes -= call->unadmitted_bytes;
        call->unadmitted_bytes = 0;
        memory_note_peak(memory);
        if (call->uncredited_bytes > 0)
                (void)nghttp2_session_consume_stream(session, call->stream_id,
                                                     call->uncredited_bytes);
        call->uncredited_bytes = 0;
        /* A larger window for a large message: fewer round trips. The message is
         * reserved whole, so whatever the client sends within it is paid for. */
        if (window > API_H2_STREAM_WINDOW_BYTES)
                window = API_H2_STREAM_WINDOW_BYTES;
        if (window > API_H2_SERVER_INITIAL_STREAM_WINDOW_BYTES)
                (void)nghttp2_session_set_local_window_size(session, NGHTTP2_FLAG_NONE,
                                                            call->stream_id, (int32_t)window);
}

/* Admits waiting calls, oldest first, while the oldest fits: a large message
 * is not passed over forever by smaller ones that come after it. */
static void admission_grant_waiting(struct api_request_memory *memory) {
        if (memory->admitting)
                return; /* the outer pass goes on with the queue */
        memory->admitting = true;
        while (memory->waiting_head) {
                struct api_call *call = memory->waiting_head;

                if (memory->reserved_bytes + call->reader.message_length > memory->cap_bytes)
                        break;
                admission_grant(call);
                /* Sends the WINDOW_UPDATE now, unless that session is on the stack;
                 * the client could send nothing while it waited: its stall timeout
                 * starts now. */
                call->connection->last_activity_usec = clock_now_usec();
                api_connection_kick(call->connection);
                api_limits_timer_update(call->connection);
        }
        memory->admitting = false;
}

static void admission_refuse(struct api_call *call, enum grpc_status status, const char *message) {
        api_admission_release(call);
        (void)api_reply_error_http(call, "200", status, message);
}

/* The prefix came: reserve the message, or queue the call until it fits. */
static void admission_request(struct api_call *call) {
        struct api_request_memory *memory = &call->connection->server->memory;
        size_t length = call->reader.message_length;
        char message[160];

        if (length > memory->cap_bytes) {
                snprintf(message, sizeof(message),
                         "message of %zu bytes is larger than the server's request memory "
                         "(%zu bytes)",
                         length, memory->cap_bytes);
                admission_refuse(call, GRPC_STATUS_RESOURCE_EXHAUSTED, message);
                return;
        }
        if (!memory->waiting_head && memory->reserved_bytes + length <= memory->cap_bytes) {
                admission_grant(call);
                return;
        }
        wait_queue_append(memory, call);
}

/* How many of length bytes, fed now, go into the message buffer (not the prefix). */
static size_t message_part(const struct grpc_frame_reader *reader, size_t length) {
        size_t prefix_left = GRPC_FRAME_PREFIX_BYTES - reader->prefix_filled;

        return length > prefix_left ? length - prefix_left : 0;
}

static void admission_feed(struct api_call *call, const uint8_t *data, size_t length) {
        int r = grpc_frame_reader_feed(&call->reader, data, length);

        if (r == -ENOMEM)
                admission_refuse(call, GRPC_STATUS_RESOURCE_EXHAUSTED,
                                 "out of memory receiving the request");
        else if (r < 0)
                admission_refuse(call, call->reader.error, call->reader.error_message);
}

void api_admission_on_data(struct api_call *call, const uint8_t *data, size_t length) {
        struct api_request_memory *memory;
        nghttp2_session *session;
        size_t part;

        assert(call);
        assert(call->state == CALL_RECEIVING);
        memory = &call->connection->server->memory;
        session = call->connection->session;

        if (call->admission == ADMISSION_GRANTED) {
                (void)nghttp2_session_consume(session, call->stream_id, length);
                admission_feed(call, data, length);
                return;
        }
        /* The connection window is credited whatever happens to the bytes. */
        (void)nghttp2_session_consume_connection(session, length);
        part = call->admission == ADMISSION_DONE ? 0 : message_part(&call->reader, length);
        if (memory->unadmitted_bytes + part > memory->unadmitted_limit_bytes) {
                admission_refuse(call, GRPC_STATUS_RESOURCE_EXHAUSTED,
                                 "the server's request memory is full, try again later");
                return;
        }
        memory->unadmitted_bytes += part;
        call->unadmitted_bytes += part;
        call->uncredited_bytes += length;
        memory_note_peak(memory);
        admission_feed(call, data, length);
        if (call->state == CALL_RECEIVING && call->admission == ADMISSION_NONE &&
            grpc_frame_reader_has_length(&call->reader))
                admission_request(call);
}

void api_admission_release(struct api_call *call) {
        struct api_request_memory *memory;

        assert(call);
        memory = &call->connection->server->memory;
        grpc_frame_reader_done(&call->reader);
        if (call->admission == ADMISSION_WAITING)
                wait_queue_remove(memory, call);
        memory->reserved_bytes -= call->reserved_bytes;
        memory->unadmitted_bytes -= call->unadmitted_bytes;
        call->reserved_bytes = call->unadmitted_bytes = 0;
        call->admission = ADMISSION_DONE;
        admission_grant_waiting(memory);
}

void api_server_request_memory(const struct api_server *server,
                               struct api_request_memory_stats *ret) {
        assert(server);
        assert(ret);
        *ret = (struct api_request_memory_stats){
                .cap_bytes = server->memory.cap_bytes,
                .reserved_bytes = server->memory.reserved_bytes,
                .unadmitted_bytes = server->memory.unadmitted_bytes,
                .peak_bytes = server->memory.peak_bytes,
                .waiting_calls = server->memory.waiting_calls,
        };
}
