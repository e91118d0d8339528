/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What keeps one client from holding the server's connections: a limit per
 * uid and a global one, and three timeouts.
 *
 * Limits. A new connection from a user at its limit, or one that finds the
 * server full, is served at the cost of an idle connection (no call: nothing
 * is lost but a socket the client reopens): at the per-user limit, the
 * user's own oldest idle connection; at the global limit, the oldest idle
 * connection of the user who holds the most (else the oldest idle one of
 * anyone). Only when there is none is the newcomer refused. So a user with a
 * thousand idle sockets cannot lock others out, and even that user's fresh
 * connections work. Root is not exempt: a runaway root client is as able to
 * lock others out, and no well-behaved one needs 64 connections.
 *
 * Timeouts, one timer per connection, armed for the earliest that applies:
 *   handshake: the preface and SETTINGS not in after handshake_timeout;
 *   stall: a call still receiving its request (not one waiting for room
 *     under the request memory cap, which holds it), and no byte for
 *     stall_timeout; this also covers a frame sent in part;
 *   idle: no call at all, and no byte (nor a call's end) for idle_timeout.
 * A client awaiting an answer has an open call and is neither stalled nor
 * idle. The timer is not moved on every read: when it fires early it is armed
 * again for the deadline that holds now.
 */
#include "api-server-internal.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>

#include "common/clock.h"
#include "common/log.h"

/* One line per 10 s at most about refused or closed connections. */
#define LOG_INTERVAL_USEC (10ull * 1000000)
/* Fds beyond the connections: listeners, the spool, workers' pipes, journald. */
#define FDS_RESERVED 256
/* Every TCP peer counts as this one user. */
#define ANONYMOUS_UID ((uid_t)-1)

void api_limits_log(struct api_server *server, const char *what) {
        struct api_log_limit *limit = &server->connection_log;
        uint64_t now = clock_now_usec();

        assert(what);
        if (limit->last_usec && now - limit->last_usec < LOG_INTERVAL_USEC) {
                limit->suppressed++;
                return;
        }
        if (limit->suppressed)
                log_warning("api: %s (and %u more connection(s) refused or closed in the last "
                            "%llu s)",
                            what, limit->suppressed,
                            (unsigned long long)((now - limit->last_usec) / 1000000));
        else
                log_warning("api: %s", what);
        limit->last_usec = now;
        limit->suppressed = 0;
}

static uid_t connection_uid(const struct api_peer *peer) {
        return peer->known ? peer->uid : ANONYMOUS_UID;
}

static unsigned connections_of(const struct api_server *server, uid_t uid) {
        unsigned n = 0;

        for (const struct api_connection *c = server->connections; c; c = c->next)
                n += connection_uid(&c->peer) == uid;
        return n;
}

/* The oldest connection with no call, of uid (or of anyone: any_user). */
static struct api_connection *oldest_idle(const struct api_server *server, uid_t uid,
                                          bool any_user) {
        struct api_connection *oldest = NULL;

        for (struct api_connection *c = server->connections; c; c = c->next)
                if (!c->calls && (any_user || connection_uid(&c->peer) == uid) &&
                    (!oldest || c->accepted_usec < oldest->accepted_usec))
                        oldest = c;
        return oldest;
}

/* The user with the most connections (a scan per connection: only when full). */
static uid_t heaviest_user(const struct api_server *server) {
        uid_t heaviest = ANONYMOUS_UID;
        unsigned most = 0;

        for (const struct api_connection *c = server->connections; c; c = c->next) {
                uid_t uid = connection_uid(&c->peer);
                unsigned n = connections_of(server, uid);

                if (n > most) {
                        most = n;
                        heaviest = uid;
                }
        }
        return heaviest;
}

static void close_for_newcomer(struct api_server *server, struct api_connection *victim,
                               const char *limit) {
        char what[160];

        snprintf(what, sizeof(what), "%s reached: closed an idle connection of uid %d", limit,
                 (int)connection_uid(&victim->peer));
        api_limits_log(server, what);
        api_connection_free(victim);
}

int api_limits_admit_connection(struct api_server *server, const struct api_peer *peer) {
        uid_t uid;
        struct api_connection *victim;
        char what[160];

        assert(server);
        assert(peer);
        uid = connection_uid(peer);

        if (connections_of(server, uid) >= server->options.max_connections_per_user) {
                victim = oldest_idle(server, uid, false);
                if (!victim) {
                        snprintf(what, sizeof(what),
                                 "uid %d has %u connections, all busy (the per-user limit): "
                                 "refused another",
                                 (int)uid, server->options.max_connections_per_user);
                        api_limits_log(server, what);
                        return -EUSERS;
                }
                close_for_newcomer(server, victim, "per-user connection limit");
        }
        if (server->n_connections < server->options.max_connections)
                return 0;
        victim = oldest_idle(server, heaviest_user(server), false);
        if (!victim)
                victim = oldest_idle(server, uid, true);
        if (!victim) {
                snprintf(what, sizeof(what), "%u connections, all busy: refused another",
                         server->n_connections);
                api_limits_log(server, what);
                return -EMFILE;
        }
        close_for_newcomer(server, victim, "connection limit");
        return 0;
}

/* Whether a call still waits for request bytes that the client may send. */
static bool connection_owes_request(const struct api_connection *c) {
        for (const struct api_call *call = c->calls; call; call = call->next)
                if (call->state == CALL_RECEIVING && call->admission != ADMISSION_WAITING)
                        return true;
        return false;
}

static uint64_t after(uint64_t start_usec, uint64_t timeout_usec) {
        return timeout_usec == API_TIMEOUT_NEVER ? API_TIMER_NEVER : start_usec + timeout_usec;
}

/* When the connection is to be closed, as things stand; the reason in *ret_why. */
static uint64_t connection_deadline(const struct api_connection *c, const char **ret_why) {
        const struct api_server_options *o = &c->server->options;

        if (!c->handshake_done) {
                *ret_why = "no HTTP/2 preface and SETTINGS";
                return after(c->accepted_usec, o->handshake_timeout_usec);
        }
        if (connection_owes_request(c)) {
                *ret_why = "a request begun and not continued";
                return after(c->last_activity_usec, o->stall_timeout_usec);
        }
        if (!c->calls) {
                *ret_why = "idle";
                return after(c->last_activity_usec, o->idle_timeout_usec);
        }
        *ret_why = NULL;
        return API_TIMER_NEVER;
}

static void connection_timer_arm(struct api_connection *c, uint64_t usec) {
        const struct api_event_loop *loop = c->server->loop;

        if (loop->timer_set(loop->loop_data, c->timer, usec) < 0)
                usec = API_TIMER_NEVER;
        c->timer_usec = usec;
}

static void on_connection_timer(void *userdata) {
        struct api_connection *c = userdata;
        const char *why;
        uint64_t deadline = connection_deadline(c, &why);
        char what[160];

        c->timer_usec = API_TIMER_NEVER; /* it fired: disarmed */
        if (deadline > clock_now_usec()) {
                /* Moved on since it was armed (bytes came, a call began or ended). */
                if (deadline != API_TIMER_NEVER)
                        connection_timer_arm(c, deadline);
                return;
        }
        snprintf(what, sizeof(what), "closed a connection of uid %d: %s for too long",
                 (int)connection_uid(&c->peer), why);
        api_limits_log(c->server, what);
        api_connection_free(c);
}

int api_limits_timer_start(struct api_connection *c) {
        const struct api_event_loop *loop = c->server->loop;
        const char *why;
        int r;

        assert(c);
        c->timer_usec = API_TIMER_NEVER;
        if (!loop->timer_add)
                return 0; /* a loop without timers: nothing times out */
        c->timer_usec = connection_deadline(c, &why);
        r = loop->timer_add(loop->loop_data, c->timer_usec, on_connection_timer, c, &c->timer);
        if (r < 0)
                c->timer = NULL;
        return r;
}

void api_limits_timer_update(struct api_connection *c) {
        const char *why;
        uint64_t deadline;

        assert(c);
        if (!c->timer || c->closing)
                return;
        deadline = connection_deadline(c, &why);
        /* Only an earlier deadline needs the timer moved; a later one is found when
         * it fires. */
        if (deadline < c->timer_usec)
                connection_timer_arm(c, deadline);
}

void api_limits_ensure_fds(unsigned max_connections) {
        rlim_t needed = (rlim_t)max_connections + FDS_RESERVED;
        struct rlimit limit;

        if (getrlimit(RLIMIT_NOFILE, &limit) < 0 || limit.rlim_cur >= needed)
                return;
        /* The soft limit is ours to raise up to the hard one (systemd's default
         * soft limit is 1024 for select()'s sake; we use poll and epoll). */
        limit.rlim_cur = limit.rlim_max < needed ? limit.rlim_max : needed;
        if (setrlimit(RLIMIT_NOFILE, &limit) < 0 || limit.rlim_cur < needed)
                log_warning("api: RLIMIT_NOFILE is %llu, below the %llu fds that %u connections "
                            "need; raise LimitNOFILE= or lower MaxConnections=",
                            (unsigned long long)limit.rlim_cur, (unsigned long long)needed,
                            max_connections);
}
