/* SPDX-License-Identifier: Apache-2.0 */
/* The HTTP/2 plumbing that the server and the client share: settings and
 * flow-control windows, and moving bytes between a non-blocking socket and
 * an nghttp2 session. */
#pragma once

#include <nghttp2/nghttp2.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * Flow control sized for messages of up to a few hundred MiB: a 51 MB C1
 * envelope fits in one stream window, and the connection window holds a few
 * of them, so a sender is rarely stalled waiting for WINDOW_UPDATE.
 * The client's nghttp2 sends the updates itself as data is consumed. The
 * server opens a stream's window only as far as its request memory cap
 * admits the message (api-admission.c): a stream starts with the HTTP/2
 * default window, enough for any small request.
 */
#define API_H2_STREAM_WINDOW_BYTES (64u * 1024 * 1024)
#define API_H2_SERVER_INITIAL_STREAM_WINDOW_BYTES 65535u
#define API_H2_CONNECTION_WINDOW_BYTES (256u * 1024 * 1024)
/* Larger DATA frames than the 16 KiB default mean fewer frames per message. */
#define API_H2_MAX_FRAME_BYTES (1u * 1024 * 1024)

/* Queues our SETTINGS (stream_window_bytes: SETTINGS_INITIAL_WINDOW_SIZE) and widens
 * the connection window. */
int api_h2_submit_settings(nghttp2_session *session, uint32_t max_concurrent_streams,
                           uint32_t stream_window_bytes);

/* For an nghttp2 send callback: writes to fd, returning what nghttp2 expects
 * (bytes written, NGHTTP2_ERR_WOULDBLOCK or NGHTTP2_ERR_CALLBACK_FAILURE). */
ssize_t api_h2_write(int fd, const uint8_t *data, size_t length);
/* Reads what fd has (a bounded amount, so one busy peer cannot starve the
 * others) into the session. 0, -ECONNRESET at end of file, -EPROTO when the
 * peer broke the protocol, or another negative errno. */
int api_h2_read(int fd, nghttp2_session *session);
/* Sends what the session has queued, as far as the socket takes it. */
int api_h2_flush(nghttp2_session *session);
/* The poll() events the session waits for; 0 when it is done. */
uint32_t api_h2_wanted_events(nghttp2_session *session);

/* True when a header name or value equals the C string s. */
bool api_h2_equal(const uint8_t *value, size_t length, const char *s);
