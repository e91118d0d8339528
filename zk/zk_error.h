/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Error codes of zk/ for rejected input (point and field encodings). They
 * are returned negated, like errno values, and start above every errno
 * value, so one int can carry either: zk_strerror() names both.
 */
#pragma once

#define ZK_ERROR_BASE 4096

typedef enum {
        ZK_E_WRONG_LENGTH = ZK_ERROR_BASE,
        ZK_E_BAD_FLAGS,
        ZK_E_NOT_CANONICAL,
        ZK_E_NOT_ON_CURVE,
        ZK_E_NOT_IN_SUBGROUP,
        ZK_E_INFINITY_NOT_ZERO,
        ZK_E_MAX_,
} zk_error_t;

/* A short description of r or -r: a zk_error_t, else an errno value. */
const char *zk_strerror(int r);
