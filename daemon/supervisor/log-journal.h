/* SPDX-License-Identifier: Apache-2.0 */
/*
 * cuzkd's log sink for journald: each message of common/log.h goes out with
 * sd_journal_sendv() as MESSAGE, PRIORITY and SYSLOG_IDENTIFIER=cuzkd, and
 * messages logged with log_fields() carry CODE_FILE, CODE_LINE, CODE_FUNC,
 * ERRNO and CUZK_* fields as well (journalctl CUZK_JOB_ID=... finds a job's
 * lines). Where the journal cannot take a message it goes to stderr.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/uio.h>

#include "common/log.h"
#include "daemon/supervisor/config.h"

/* One extra journal field: name is upper case letters, digits and '_',
 * not starting with '_' or a digit (journald drops other names). */
struct log_field {
        const char *name;
        const char *value;
};

/* A field list for log_fields(): LOG_FIELDS({"CUZK_JOB_ID", id}, {"CUZK_PARTITION", p}) */
#define LOG_FIELDS(...) ((const struct log_field[]){__VA_ARGS__, {NULL, NULL}})

/* Logs like log_full_errno() (same level filter, "%m", return value), and
 * when the journal sink is installed sends the fields and the call site too.
 * Under stderr the fields are not printed. */
#define log_fields(level, error, fields, ...) \
        log_fields_internal((level), (error), __FILE__, __LINE__, __func__, (fields), __VA_ARGS__)
int log_fields_internal(int level, int error, const char *file, int line, const char *func,
                        const struct log_field *fields, const char *fmt, ...)
        __attribute__((format(printf, 7, 8)));

/* Which sink cuzkd uses: CONFIG_LOG_JOURNAL or CONFIG_LOG_STDERR. auto
 * picks the journal when stderr is connected to it (systemd sets
 * JOURNAL_STREAM to the device and inode of that stream), else stderr;
 * journal falls back to stderr, with a warning, where journald's socket is
 * missing (sd_journal_sendv() would drop every message silently there).
 * Installs the sink (log_set_sink) and returns the target chosen. */
enum config_log_target log_journal_setup(enum config_log_target target);
/* While buf is set, the sink log_journal_setup() installs also copies the latest message at
 * LOG_ERR or worse into it, so that what a parser said in the log can be said to a client
 * too (a job's error message). NULL stops. */
void log_journal_capture(char *buf, size_t size);
/* Whether fd is the stream that journal_stream ("DEV:INODE", the value of
 * $JOURNAL_STREAM; NULL: not set) names. */
bool log_journal_stream_is(int fd, const char *journal_stream);

/* The journal entry of one message, built in place (no allocation, so that
 * logging works when memory is short): iov[0 .. n_iov) point into buf. */
#define LOG_JOURNAL_MAX_FIELDS 16
struct log_journal_entry {
        struct iovec iov[LOG_JOURNAL_MAX_FIELDS + 7];
        size_t n_iov;
        char buf[4096];
        size_t used;
};

/* Fills entry with MESSAGE, PRIORITY, SYSLOG_IDENTIFIER=cuzkd and, where
 * given, CODE_FILE/CODE_LINE/CODE_FUNC (file NULL: none), ERRNO (error 0:
 * none) and fields (NULL-terminated; NULL: none). A field with an invalid
 * name, beyond LOG_JOURNAL_MAX_FIELDS or past the buffer is left out; a long
 * MESSAGE is truncated. Returns the number of fields left out. */
int log_journal_entry_build(struct log_journal_entry *entry, int level, const char *message,
                            int error, const char *file, int line, const char *func,
                            const struct log_field *fields);

/* The sink log_journal_setup() installs: sends the message (with the fields
 * of a log_fields() call in progress). userdata is unused. */
void log_journal_sink(int level, const char *message, void *userdata);

/* What the sink sends with: sd_journal_sendv() unless replaced (tests look
 * at the entries; NULL restores it). A negative return sends the message
 * to stderr instead. */
typedef int (*log_journal_send_fn)(const struct iovec *iov, int n);
void log_journal_set_send(log_journal_send_fn send);
