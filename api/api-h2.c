/* SPDX-License-Identifier: Apache-2.0 */
#include "api-h2.h"

#include <assert.h>
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Per api_h2_read() call: 16 reads of 64 KiB, then back to the loop. */
#define READ_CHUNK_BYTES (64 * 1024)
#define READS_PER_CALL 16

int api_h2_submit_settings(nghttp2_session *session, uint32_t max_concurrent_streams,
                           uint32_t stream_window_bytes) {
        const nghttp2_settings_entry settings[] = {
                {NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, max_concurrent_streams},
                {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, stream_window_bytes},
                {NGHTTP2_SETTINGS_MAX_FRAME_SIZE, API_H2_MAX_FRAME_BYTES},
        };
        int r;

        assert(session);

        r = nghttp2_submit_settings(session, NGHTTP2_FLAG_NONE, settings,
                                    sizeof(settings) / sizeof(settings[0]));
        if (r < 0)
                return -ENOMEM;
        r = nghttp2_session_set_local_window_size(session, NGHTTP2_FLAG_NONE, 0,
                                                  API_H2_CONNECTION_WINDOW_BYTES);
        return r < 0 ? -ENOMEM : 0;
}

ssize_t api_h2_write(int fd, const uint8_t *data, size_t length) {
        ssize_t n;

        do
                n = send(fd, data, length, MSG_NOSIGNAL | MSG_DONTWAIT);
        while (n < 0 && errno == EINTR);
        if (n >= 0)
                return n;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
                return NGHTTP2_ERR_WOULDBLOCK;
        return NGHTTP2_ERR_CALLBACK_FAILURE;
}

int api_h2_read(int fd, nghttp2_session *session) {
        uint8_t buffer[READ_CHUNK_BYTES];

        assert(fd >= 0);
        assert(session);

        for (int i = 0; i < READS_PER_CALL; i++) {
                ssize_t n = read(fd, buffer, sizeof(buffer));
                ssize_t consumed;

                if (n < 0) {
                        if (errno == EINTR)
                                continue;
                        if (errno == EAGAIN || errno == EWOULDBLOCK)
                                return 0;
                        return -errno;
                }
                if (n == 0)
                        return -ECONNRESET;
                consumed = nghttp2_session_mem_recv(session, buffer, (size_t)n);
                if (consumed < 0)
                        return consumed == NGHTTP2_ERR_NOMEM ? -ENOMEM : -EPROTO;
        }
        return 0;
}

int api_h2_flush(nghttp2_session *session) {
        int r;

        assert(session);
        r = nghttp2_session_send(session);
        if (r == 0)
                return 0;
        return r == NGHTTP2_ERR_NOMEM ? -ENOMEM : -EPIPE;
}

uint32_t api_h2_wanted_events(nghttp2_session *session) {
        uint32_t events = 0;

        assert(session);
        if (nghttp2_session_want_read(session))
                events |= POLLIN;
        if (nghttp2_session_want_write(session))
                events |= POLLOUT;
        return events;
}

bool api_h2_equal(const uint8_t *value, size_t length, const char *s) {
        return strlen(s) == length && memcmp(value, s, length) == 0;
}
