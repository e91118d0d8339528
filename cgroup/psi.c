/* SPDX-License-Identifier: Apache-2.0 */
#include "psi.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cgroup/cg-files.h"
#include "common/cleanup.h"
#include "common/log.h"

#define PSI_WINDOW_MIN_US UINT64_C(500000)
#define PSI_WINDOW_MAX_US UINT64_C(10000000)
/* Unprivileged triggers need windows of whole 2 s (psi.rst; upstream d82caa273565). */
#define PSI_UNPRIVILEGED_STEP_US UINT64_C(2000000)

static atomic_bool said_rounding;

void psi_unprivileged_window(uint64_t stall_us, uint64_t window_us, uint64_t *ret_stall_us,
                             uint64_t *ret_window_us) {
        uint64_t window;

        assert(window_us > 0);
        assert(ret_stall_us);
        assert(ret_window_us);

        window = (window_us + PSI_UNPRIVILEGED_STEP_US - 1) / PSI_UNPRIVILEGED_STEP_US *
                 PSI_UNPRIVILEGED_STEP_US;
        /* Same stall per window ratio, so the trigger means what was asked. */
        *ret_stall_us = stall_us * window / window_us;
        *ret_window_us = window;
}

static int write_trigger(int fd, psi_kind_t kind, uint64_t stall_us, uint64_t window_us) {
        char request[64];
        int len;

        len = snprintf(request, sizeof(request), "%s %" PRIu64 " %" PRIu64,
                       kind == PSI_FULL ? "full" : "some", stall_us, window_us);
        /* The trailing NUL goes too, as in psi.rst's example (strlen + 1). */
        if (write(fd, request, (size_t)len + 1) < 0)
                return -errno;
        return 0;
}

int psi_trigger_arm(int dirfd, const char *file, psi_kind_t kind, uint64_t stall_us,
                    uint64_t window_us, psi_trigger_t *ret) {
        _cleanup_close_ int fd = -EBADF;
        char path[PATH_MAX + 64];
        uint64_t armed_stall = stall_us, armed_window = window_us;
        bool rounded = false;
        int r;

        assert(file);
        assert(kind == PSI_SOME || kind == PSI_FULL);
        assert(ret);

        cg_path_for_message(dirfd, file, path, sizeof(path));
        if (window_us < PSI_WINDOW_MIN_US || window_us > PSI_WINDOW_MAX_US)
                return log_error_errno(
                        EINVAL, "PSI trigger on %s: window %" PRIu64 " us outside 500000..10000000",
                        path, window_us);
        if (stall_us == 0 || stall_us > window_us)
                return log_error_errno(EINVAL,
                                       "PSI trigger on %s: stall %" PRIu64
                                       " us must be in 1..window (%" PRIu64 " us)",
                                       path, stall_us, window_us);

        fd = openat(dirfd, file, O_RDWR | O_NONBLOCK | O_CLOEXEC);
        if (fd < 0)
                return log_error_errno(errno, "Failed to open %s for a PSI trigger: %m", path);
        r = write_trigger(fd, kind, stall_us, window_us);
        if (r == -EINVAL && window_us % PSI_UNPRIVILEGED_STEP_US != 0) {
                /* Without CAP_SYS_RESOURCE the kernel refuses windows that are not whole 2 s.
                 * No trigger was created, so the same fd takes a second write. */
                psi_unprivileged_window(stall_us, window_us, &armed_stall, &armed_window);
                r = write_trigger(fd, kind, armed_stall, armed_window);
                if (r >= 0) {
                        rounded = true;
                        if (!atomic_exchange(&said_rounding, true))
                                log_info("PSI triggers need CAP_SYS_RESOURCE for windows "
                                         "other than whole 2 s: %s window %" PRIu64
                                         " us -> %" PRIu64 " us, stall %" PRIu64 " us -> %" PRIu64
                                         " us",
                                         path, window_us, armed_window, stall_us, armed_stall);
                }
        }
        if (r < 0)
                return log_error_errno(
                        r, "Failed to arm PSI trigger '%s %" PRIu64 " %" PRIu64 "' on %s: %m",
                        kind == PSI_FULL ? "full" : "some", armed_stall, armed_window, path);
        *ret = (psi_trigger_t){
                .fd = TAKE_FD(fd),
                .stall_us = armed_stall,
                .window_us = armed_window,
                .rounded = rounded,
        };
        return 0;
}

int psi_trigger_event(short revents) {
        /* A removed cgroup reports POLLERR together with POLLPRI: gone wins. */
        if (revents & (POLLERR | POLLHUP | POLLNVAL))
                return -ENODEV;
        return (revents & POLLPRI) ? 1 : 0;
}

/* Parses "12.34" (locale-independent: strtod would follow LC_NUMERIC). */
static const char *parse_percent(const char *p, double *ret) {
        uint64_t whole = 0, fraction = 0, scale = 1;

        if (*p < '0' || *p > '9')
                return NULL;
        for (; *p >= '0' && *p <= '9'; p++) {
                whole = whole * 10 + (uint64_t)(*p - '0');
                if (whole > 100)
                        return NULL;
        }
        if (*p == '.') {
                p++;
                for (; *p >= '0' && *p <= '9' && scale < 1000000; p++) {
                        fraction = fraction * 10 + (uint64_t)(*p - '0');
                        scale *= 10;
                }
        }
        *ret = (double)whole + (double)fraction / (double)scale;
        return p;
}

/* Parses " avg10=X avg60=Y avg300=Z total=N" after the "some"/"full" word. */
static int parse_psi_line(const char *p, psi_line_t *line) {
        static const char *const names[] = {" avg10=", " avg60=", " avg300="};
        double *avgs[] = {&line->avg10, &line->avg60, &line->avg300};
        uint64_t total = 0;

        for (size_t i = 0; i < ELEMENTSOF(names); i++) {
                size_t n = strlen(names[i]);
                if (strncmp(p, names[i], n) != 0)
                        return -EBADMSG;
                p = parse_percent(p + n, avgs[i]);
                if (!p)
                        return -EBADMSG;
        }
        if (strncmp(p, " total=", 7) != 0)
                return -EBADMSG;
        p += 7;
        if (*p < '0' || *p > '9')
                return -EBADMSG;
        for (; *p >= '0' && *p <= '9'; p++) {
                unsigned digit = (unsigned)(*p - '0');
                if (total > (UINT64_MAX - digit) / 10)
                        return -EBADMSG;
                total = total * 10 + digit;
        }
        if (*p != '\n' && *p != '\0')
                return -EBADMSG;
        line->total_us = total;
        line->present = true;
        return 0;
}

int psi_parse(const char *text, psi_stats_t *ret) {
        const char *line = text;
        psi_stats_t stats = {0};

        assert(text);
        assert(ret);

        while (*line) {
                const char *nl = strchr(line, '\n');
                int r = -EBADMSG;

                if (strncmp(line, "some", 4) == 0)
                        r = parse_psi_line(line + 4, &stats.some);
                else if (strncmp(line, "full", 4) == 0)
                        r = parse_psi_line(line + 4, &stats.full);
                else if (*line == '\n')
                        r = 0;
                if (r < 0)
                        return r;
                if (!nl)
                        break;
                line = nl + 1;
        }
        if (!stats.some.present)
                return -EBADMSG;
        *ret = stats;
        return 0;
}

int psi_read(int dirfd, const char *file, psi_stats_t *ret) {
        char text[512], path[PATH_MAX + 64];
        int r;

        assert(file);
        assert(ret);

        r = cg_read_string(dirfd, file, text, sizeof(text));
        if (r < 0)
                return r;
        r = psi_parse(text, ret);
        if (r < 0)
                return log_error_errno(r, "Failed to parse pressure file %s: '%.80s'",
                                       cg_path_for_message(dirfd, file, path, sizeof(path)), text);
        return 0;
}
