/* SPDX-License-Identifier: Apache-2.0 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <time.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "daemon/supervisor/log-journal.h"
#include "daemon/message-ids.h"
#include "daemon/supervisor/pressure.h"

#define PRESSURE_SYSTEM_FILE "/proc/pressure/memory"

struct pressure_source {
        psi_trigger_t trigger;
        sd_event_source *io;
        char name[320]; /* the pressure file, for messages */
        struct pressure *pressure;
};

struct pressure {
        sd_event *event;
        struct pressure_source sources[2];
        unsigned n_sources;
        sd_event_source *resume_timer;
        uint64_t resume_usec;
        bool paused;
        uint64_t events, pauses;
        uint64_t source_events[_PRESSURE_SOURCE_MAX], source_pauses[_PRESSURE_SOURCE_MAX];
        uint64_t paused_usec; /* CLOCK_MONOTONIC when the pause began */
        pressure_changed_fn changed;
        void *userdata;
        char system_file[256];
};

static int on_resume(sd_event_source *source, uint64_t usec, void *userdata) {
        struct pressure *p = userdata;

        char paused_usec[32];

        (void)source;
        p->paused = false;
        snprintf(paused_usec, sizeof(paused_usec), "%" PRIu64, usec - p->paused_usec);
        log_fields(LOG_INFO, 0,
                   LOG_FIELDS({"MESSAGE_ID", CUZK_MID_ADMISSION_RESUMED},
                              {"CUZK_PAUSED_USEC", paused_usec}),
                   "admission resumed: no memory pressure event for %" PRIu64 " ms",
                   p->resume_usec / 1000);
        if (p->changed)
                p->changed(p->userdata, false);
        return 0;
}

/* (Re)starts the quiet period after which admission resumes. */
static int arm_resume_timer(struct pressure *p) {
        uint64_t now;
        int r;

        r = sd_event_now(p->event, CLOCK_MONOTONIC, &now);
        if (r < 0)
                return r;
        if (!p->resume_timer)
                return sd_event_add_time(p->event, &p->resume_timer, CLOCK_MONOTONIC,
                                         now + p->resume_usec, 0, on_resume, p);
        r = sd_event_source_set_time(p->resume_timer, now + p->resume_usec);
        if (r < 0)
                return r;
        return sd_event_source_set_enabled(p->resume_timer, SD_EVENT_ONESHOT);
}

/* Counts an event of kind; pauses admission (logging `what`) when it is not paused. */
static int pressure_event(struct pressure *p, enum pressure_source_kind kind, const char *what) {
        int r;

        p->events++;
        p->source_events[kind]++;
        if (!p->paused) {
                p->paused = true;
                p->pauses++;
                p->source_pauses[kind]++;
                (void)sd_event_now(p->event, CLOCK_MONOTONIC, &p->paused_usec);
                log_fields(LOG_WARNING, 0,
                           LOG_FIELDS({"MESSAGE_ID", CUZK_MID_ADMISSION_PAUSED},
                                      {"CUZK_PRESSURE_SOURCE", pressure_source_kind_name(kind)}),
                           "admission paused: %s", what);
                if (p->changed)
                        p->changed(p->userdata, true);
        }
        r = arm_resume_timer(p);
        if (r < 0)
                return log_error_errno(r, "Failed to arm the admission resume timer: %m");
        return 0;
}

int pressure_report(struct pressure *p, enum pressure_source_kind kind, const char *what) {
        assert(p);
        assert(kind >= 0 && kind < _PRESSURE_SOURCE_MAX);
        assert(what);
        return pressure_event(p, kind, what);
}

static int on_trigger(sd_event_source *source, int fd, uint32_t revents, void *userdata) {
        struct pressure_source *s = userdata;
        struct pressure *p = s->pressure;
        psi_stats_t stats = {0};
        char what[512];
        int r;

        (void)fd;
        r = psi_trigger_event((short)revents);
        if (r < 0) {
                log_warning("%s: the pressure source went away; no longer watched", s->name);
                return sd_event_source_set_enabled(source, SD_EVENT_OFF);
        }
        if (r == 0)
                return 0;
        if (!p->paused)
                (void)psi_read(AT_FDCWD, p->system_file, &stats);
        snprintf(what, sizeof(what),
                 "memory pressure on %s (some stall above %" PRIu64 " ms per %" PRIu64
                 " ms window; system some avg10=%.2f%% full avg10=%.2f%%)",
                 s->name, s->trigger.stall_us / 1000, s->trigger.window_us / 1000, stats.some.avg10,
                 stats.full.avg10);
        return pressure_event(p, PRESSURE_SOURCE_PSI, what);
}

static int add_source(struct pressure *p, int dirfd, const char *file, const char *name,
                      const struct pressure_options *options) {
        struct pressure_source *s = &p->sources[p->n_sources];
        int r;

        r = psi_trigger_arm(dirfd, file, PSI_SOME, options->stall_usec, options->window_usec,
                            &s->trigger);
        if (r < 0)
                return log_warning_errno(r,
                                         "%s: cannot arm a PSI trigger (%m); admission does not "
                                         "watch this pressure source",
                                         name);
        snprintf(s->name, sizeof(s->name), "%s", name);
        s->pressure = p;
        r = sd_event_add_io(p->event, &s->io, s->trigger.fd, EPOLLPRI, on_trigger, s);
        if (r < 0) {
                close(s->trigger.fd);
                return log_error_errno(r, "%s: cannot watch the PSI trigger: %m", name);
        }
        p->n_sources++;
        log_info("%s: PSI trigger armed: some %" PRIu64 " ms per %" PRIu64
                 " ms window pauses admission",
                 name, s->trigger.stall_us / 1000, s->trigger.window_us / 1000);
        return 0;
}

int pressure_new(sd_event *event, const struct pressure_options *options,
                 pressure_changed_fn changed, void *userdata, struct pressure **ret) {
        struct pressure *p;

        assert(event);
        assert(options);
        assert(ret);
        p = calloc(1, sizeof(*p));
        if (!p)
                return -ENOMEM;
        p->event = sd_event_ref(event);
        p->resume_usec = options->resume_usec;
        p->changed = changed;
        p->userdata = userdata;
        snprintf(p->system_file, sizeof(p->system_file), "%s",
                 options->system_file ? options->system_file : PRESSURE_SYSTEM_FILE);

        (void)add_source(p, AT_FDCWD, p->system_file, p->system_file, options);
        if (options->cgroup_dir) {
                _cleanup_close_ int dirfd =
                        open(options->cgroup_dir, O_DIRECTORY | O_PATH | O_CLOEXEC);
                char name[320];

                snprintf(name, sizeof(name), "%s/memory.pressure", options->cgroup_dir);
                if (dirfd < 0)
                        log_warning_errno(errno, "%s: cannot open: %m", options->cgroup_dir);
                else
                        (void)add_source(p, dirfd, "memory.pressure", name, options);
        }
        if (p->n_sources == 0)
                log_warning("no PSI trigger could be armed: admission is governed by the memory "
                            "budget alone");
        *ret = p;
        return 0;
}

struct pressure *pressure_free(struct pressure *p) {
        if (!p)
                return NULL;
        for (unsigned i = 0; i < p->n_sources; i++) {
                sd_event_source_disable_unref(p->sources[i].io);
                close(p->sources[i].trigger.fd);
        }
        sd_event_source_disable_unref(p->resume_timer);
        sd_event_unref(p->event);
        free(p);
        return NULL;
}

bool pressure_paused(const struct pressure *p) {
        assert(p);
        return p->paused;
}

uint64_t pressure_event_count(const struct pressure *p) {
        assert(p);
        return p->events;
}

uint64_t pressure_pause_count(const struct pressure *p) {
        assert(p);
        return p->pauses;
}

uint64_t pressure_source_event_count(const struct pressure *p, enum pressure_source_kind kind) {
        assert(p);
        assert(kind >= 0 && kind < _PRESSURE_SOURCE_MAX);
        return p->source_events[kind];
}

uint64_t pressure_source_pause_count(const struct pressure *p, enum pressure_source_kind kind) {
        assert(p);
        assert(kind >= 0 && kind < _PRESSURE_SOURCE_MAX);
        return p->source_pauses[kind];
}

const char *pressure_source_kind_name(enum pressure_source_kind kind) {
        static const char *const names[] = {
                [PRESSURE_SOURCE_PSI] = "psi",
                [PRESSURE_SOURCE_BPF] = "bpf",
        };

        assert(kind >= 0 && kind < _PRESSURE_SOURCE_MAX);
        return names[kind];
}

unsigned pressure_trigger_count(const struct pressure *p) {
        assert(p);
        return p->n_sources;
}

int pressure_read_system(const struct pressure *p, psi_stats_t *ret) {
        assert(p);
        assert(ret);
        return psi_read(AT_FDCWD, p->system_file, ret);
}
