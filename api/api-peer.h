/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Who is on the other end of a connection: the kernel's word for it
 * (SO_PEERCRED and SO_PEERGROUPS on a unix socket), taken once at accept.
 * The daemon decides with it whose rights a request's files are opened
 * with and whose jobs a client may see, await or cancel.
 *
 * A TCP peer has no credentials: known is false, and the daemon treats it
 * as an anonymous client.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

/* NGROUPS_MAX is 65536; a client in more groups than this is cut to the
 * first ones, which only ever narrows what it may open. */
#define API_PEER_MAX_GROUPS 64

struct api_peer {
        bool known; /* the fields below hold the kernel's answer */
        pid_t pid;
        uid_t uid;
        gid_t gid;
        unsigned n_groups; /* supplementary groups, gid included or not */
        gid_t groups[API_PEER_MAX_GROUPS];
};

/* Fills *ret from a connected socket; a socket that is not AF_UNIX gives
 * known = false and returns 0. */
int api_peer_from_socket(int fd, struct api_peer *ret);

/* Whether the peer is uid 0 or a member (primary or supplementary) of gid. */
bool api_peer_is_root(const struct api_peer *peer);
bool api_peer_in_group(const struct api_peer *peer, gid_t gid);

struct api_call;
/* The peer of the connection that carries call (valid while the call is). */
const struct api_peer *api_call_peer(const struct api_call *call);
