/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A client's files, opened with the client's rights.
 *
 * A request names its inputs by path. cuzkd opens them on the intake thread
 * (intake.h) with the filesystem identity of the peer that sent the request
 * (SO_PEERCRED, api-peer.h): for each open() the thread's fsgid, supplementary
 * groups and fsuid become the peer's, and the daemon's again right after, so a
 * client proves only with files it could read itself. The switch is the
 * calling thread's alone (setfsuid/setfsgid and the raw setgroups syscall;
 * glibc's setgroups() would change every thread of the daemon).
 *
 * A peer without credentials (TCP) is treated as nobody (65534). A daemon that
 * cannot switch (not root, no CAP_SETUID and CAP_SETGID: the packaged unit runs
 * as user cuzk) opens the path with its own rights and then judges, from mode
 * bits, whether the peer could have opened it (peer-access.h).
 *
 * Every open refuses what must never be opened for a client: a relative path
 * (it would resolve against the daemon's working directory) and anything but a
 * regular file. The path is stat()ed before it is opened, and opened
 * O_NONBLOCK|O_NOCTTY, so a FIFO never blocks the thread and a device is not
 * opened (a path swapped between the two leaves at most a non-blocking open of
 * a node the peer may open itself).
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "api/api-peer.h"

enum peer_files_mode {
        PEER_FILES_SELF,   /* the daemon's own rights: its own files, or a peer that is root
                            * or the daemon's own uid */
        PEER_FILES_SWITCH, /* the peer's uid, gid and groups for each open */
        PEER_FILES_JUDGE,  /* the daemon cannot take the peer's identity: its own open,
                            * then the peer's permission judged from mode bits */
};

struct peer_files {
        enum peer_files_mode mode;
        uid_t uid;
        gid_t gid;
        unsigned n_groups;
        gid_t groups[API_PEER_MAX_GROUPS];
};

/* How files are opened for peer (NULL: for the daemon itself). */
void peer_files_init(struct peer_files *ret, const struct api_peer *peer);

/*
 * Opens path, the value of the request's field (NULL: the daemon's own file, named by
 * path alone in messages), for reading: absolute, a regular file, opened with the rights
 * files says (NULL: the daemon's own). Returns the descriptor (O_CLOEXEC) and its size in
 * *ret_size; or a negative errno with msg naming the field and path: -EINVAL relative or
 * not a regular file, -EPERM the daemon cannot take the peer's identity, -EACCES the
 * peer may not read it, else open()'s error (-ENOENT, ...). No byte of the file goes
 * into msg.
 */
int peer_files_open(const struct peer_files *files, const char *field, const char *path,
                    uint64_t *ret_size, char *msg, size_t msg_size);
