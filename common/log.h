/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Minimal logging in the style of systemd's log.h: one line per message,
 * "%m" expands to the error passed in, and the *_errno variants return
 * -abs(error) so a caller can write `return log_error_errno(r, ...);`.
 * Messages go to stderr unless a sink is installed (the daemon routes them
 * to the journal, tests capture them).
 */
#pragma once

#include <stdarg.h>
#include <stddef.h>
#include <syslog.h>

/* Receives each message that passes the level filter, without newline. */
typedef void (*log_sink_fn)(int level, const char *message, void *userdata);

/* Messages with a level above max_level (LOG_ERR < LOG_INFO < LOG_DEBUG) are dropped. */
void log_set_max_level(int max_level);
int log_get_max_level(void);
/* Installs a sink; NULL restores stderr. */
void log_set_sink(log_sink_fn sink, void *userdata);

/* Copies message into buf (size bytes, NUL included) with control characters, C1
 * controls and bytes that are not UTF-8 escaped (\n, \r, \t, \xNN), so that it is one
 * line a terminal shows as text; valid UTF-8 is kept. Cut at a character's end when buf
 * is short. Returns the length written. Every message is escaped so before its sink. */
size_t log_escape(const char *message, char *buf, size_t size);

/* Formats and emits a message; returns -abs(error) (0 when error is 0). */
int log_internal(int level, int error, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define log_full_errno(level, error, ...) log_internal((level), (error), __VA_ARGS__)
#define log_error_errno(error, ...) log_full_errno(LOG_ERR, (error), __VA_ARGS__)
#define log_warning_errno(error, ...) log_full_errno(LOG_WARNING, (error), __VA_ARGS__)
#define log_debug_errno(error, ...) log_full_errno(LOG_DEBUG, (error), __VA_ARGS__)
#define log_error(...) ((void)log_full_errno(LOG_ERR, 0, __VA_ARGS__))
#define log_warning(...) ((void)log_full_errno(LOG_WARNING, 0, __VA_ARGS__))
#define log_info(...) ((void)log_full_errno(LOG_INFO, 0, __VA_ARGS__))
#define log_debug(...) ((void)log_full_errno(LOG_DEBUG, 0, __VA_ARGS__))
