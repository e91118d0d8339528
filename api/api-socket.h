/* SPDX-License-Identifier: Apache-2.0 */
/* Sockets of the API: unix and TCP, listening and connecting, all
 * non-blocking and close-on-exec. */
#pragma once

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* Binds a stream socket at path (a stale socket there is removed first; one that a
 * process answers on is left alone: -EADDRINUSE; any other file too: -EEXIST),
 * chmods it to mode and listens. */
int api_socket_listen_unix(const char *path, mode_t mode, int *ret_fd);
/* Binds and listens on host:port; port 0 picks a free one. */
int api_socket_listen_tcp(const char *host, uint16_t port, int *ret_fd);
/* 0 when fd is a listening stream socket (made non-blocking, as the server
 * accepts until EAGAIN), -ENOTSOCK / -EINVAL otherwise. */
int api_socket_check_listening(int fd);
/* The local port of a TCP socket. */
int api_socket_local_port(int fd, uint16_t *ret_port);

/* Connects (blocking connect, then non-blocking fd), giving up after timeout_ms (-1: no
 * limit) with -ETIMEDOUT: a listener that does not accept() lets a connect() wait. */
int api_socket_connect_unix(const char *path, int timeout_ms, int *ret_fd);
int api_socket_connect_tcp(const char *host, uint16_t port, int timeout_ms, int *ret_fd);
