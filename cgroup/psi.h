/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Pressure stall information: triggers (Documentation/accounting/psi.rst)
 * on a cgroup's memory.pressure or /proc/pressure/memory, and the
 * averages of a pressure file.
 */
#pragma once

#include <stdbool.h>
#include <stdint.h>

typedef enum psi_kind {
        PSI_SOME, /* some task stalled */
        PSI_FULL, /* all non-idle tasks stalled at once */
} psi_kind_t;

typedef struct psi_trigger {
        int fd; /* poll for POLLPRI; owned by the caller (closing removes the trigger) */
        uint64_t stall_us;
        uint64_t window_us;
        bool rounded; /* the window was rounded up to whole 2 s (see psi_trigger_arm) */
} psi_trigger_t;

/* Arms "<some|full> <stall_us> <window_us>" on file below dirfd (AT_FDCWD with an absolute
 * path for /proc/pressure/memory). The kernel wants 500 ms <= window <= 10 s and
 * 0 < stall <= window. Without CAP_SYS_RESOURCE it also wants a window of whole 2 s: then
 * the window is rounded up and the stall scaled by the same factor (logged once). */
int psi_trigger_arm(int dirfd, const char *file, psi_kind_t kind, uint64_t stall_us,
                    uint64_t window_us, psi_trigger_t *ret);

/* The unprivileged form of a trigger: window rounded up to whole 2 s, stall scaled alike. */
void psi_unprivileged_window(uint64_t stall_us, uint64_t window_us, uint64_t *ret_stall_us,
                             uint64_t *ret_window_us);

/* Reads poll's revents for a trigger fd: 1 fired, 0 nothing, -ENODEV when the source is
 * gone (POLLERR/POLLHUP, e.g. the cgroup was removed). */
int psi_trigger_event(short revents);

typedef struct psi_line {
        bool present;
        double avg10, avg60, avg300; /* percent of wall time stalled */
        uint64_t total_us;
} psi_line_t;

typedef struct psi_stats {
        psi_line_t some;
        psi_line_t full; /* absent in /proc/pressure/cpu before 5.13 */
} psi_stats_t;

/* Parses the "some ..." and "full ..." lines of a pressure file (-EBADMSG if malformed). */
int psi_parse(const char *text, psi_stats_t *ret);
int psi_read(int dirfd, const char *file, psi_stats_t *ret);
