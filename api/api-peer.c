/* SPDX-License-Identifier: Apache-2.0 */
#include <assert.h>
#include <errno.h>
#include <string.h>
#include <sys/socket.h>

#include "api/api-peer.h"
#include "api/api-server-internal.h"

static int peer_groups(int fd, struct api_peer *peer) {
        gid_t groups[API_PEER_MAX_GROUPS];
        socklen_t length = sizeof(groups);

        if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &length) < 0) {
                /* ERANGE: more groups than we keep; the kernel wrote none. */
                if (errno == ERANGE || errno == ENOPROTOOPT)
                        return 0;
                return -errno;
        }
        peer->n_groups = length / sizeof(gid_t);
        memcpy(peer->groups, groups, peer->n_groups * sizeof(gid_t));
        return 0;
}

int api_peer_from_socket(int fd, struct api_peer *ret) {
        struct sockaddr_storage address;
        socklen_t address_length = sizeof(address);
        struct ucred cred;
        socklen_t cred_length = sizeof(cred);

        assert(ret);
        *ret = (struct api_peer){0};
        if (getsockname(fd, (struct sockaddr *)&address, &address_length) < 0)
                return -errno;
        if (address.ss_family != AF_UNIX)
                return 0;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &cred_length) < 0)
                return -errno;
        ret->pid = cred.pid;
        ret->uid = cred.uid;
        ret->gid = cred.gid;
        ret->known = true;
        return peer_groups(fd, ret);
}

bool api_peer_is_root(const struct api_peer *peer) {
        assert(peer);
        return peer->known && peer->uid == 0;
}

bool api_peer_in_group(const struct api_peer *peer, gid_t gid) {
        assert(peer);
        if (!peer->known)
                return false;
        if (peer->gid == gid)
                return true;
        for (unsigned i = 0; i < peer->n_groups; i++)
                if (peer->groups[i] == gid)
                        return true;
        return false;
}

const struct api_peer *api_call_peer(const struct api_call *call) {
        assert(call);
        return &call->connection->peer;
}
