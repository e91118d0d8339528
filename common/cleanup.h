/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Scope-bound release of resources, in the style of systemd's
 * _cleanup_free_ / _cleanup_close_: a variable declared with one of these
 * attributes is released when it goes out of scope, and ownership is handed
 * out explicitly with TAKE_PTR() / TAKE_FD().
 */
#pragma once

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static inline void freep(void *p) {
        free(*(void **)p);
}

static inline void closep(int *fd) {
        if (*fd >= 0) {
                int saved = errno;
                close(*fd);
                errno = saved;
        }
}

static inline void fclosep(FILE **f) {
        if (*f)
                fclose(*f);
}

static inline void closedirp(DIR **d) {
        if (*d)
                closedir(*d);
}

#define _cleanup_(f) __attribute__((cleanup(f)))
#define _cleanup_free_ _cleanup_(freep)
#define _cleanup_close_ _cleanup_(closep)
#define _cleanup_fclose_ _cleanup_(fclosep)
#define _cleanup_closedir_ _cleanup_(closedirp)

/* Returns the value of *p and clears it, so the cleanup handler skips it. */
#define TAKE_GENERIC(var, type, nullvalue) \
        ({                                 \
                type *_pvar_ = &(var);     \
                type _var_ = *_pvar_;      \
                *_pvar_ = (nullvalue);     \
                _var_;                     \
        })
#define TAKE_PTR(p) TAKE_GENERIC(p, __typeof__(p), NULL)
#define TAKE_FD(fd) TAKE_GENERIC(fd, int, -EBADF)

#define ELEMENTSOF(a) (sizeof(a) / sizeof((a)[0]))
