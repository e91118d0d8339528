/* SPDX-License-Identifier: Apache-2.0 */
/*
 * May this client read that file? The kernel's answer, computed from mode
 * bits for the peer's uid, gid and groups, when the daemon cannot simply
 * take the peer's filesystem identity: the packaged cuzkd runs as user cuzk
 * without CAP_SETUID, so it opens a client's file with its own rights and
 * then judges, as the kernel would for the peer, search permission on every
 * directory of the file's real path and read permission on the file.
 * POSIX ACLs are not read: a file the peer may read only through an ACL is
 * refused (never the other way round).
 */
#pragma once

#include <stddef.h>

#include "api/api-peer.h"

/* 0 when peer may read the regular file open at fd; -EACCES with msg naming path
 * (the client's name for it) and the directory or file that stops the peer. A peer
 * without credentials is judged as nobody (65534); root may read anything the
 * daemon opened. */
int peer_access_check(const struct api_peer *peer, int fd, const char *path, char *msg,
                      size_t msg_size);
