/* SPDX-License-Identifier: Apache-2.0 */
#include "log-journal.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* We send our own CODE_FILE/CODE_LINE/CODE_FUNC (the caller's, not this file's). */
#define SD_JOURNAL_SUPPRESS_LOCATION
#include <systemd/sd-journal.h>

#include "common/cleanup.h"

/* What a log_fields() call in progress adds to the message that
 * log_internal() hands to the sink; set only around that call. */
struct log_fields_context {
        const char *file;
        int line;
        const char *func;
        int error;
        const struct log_field *fields;
};
static _Thread_local const struct log_fields_context *log_fields_current;
static log_journal_send_fn log_journal_send;

#define JOURNAL_SOCKET "/run/systemd/journal/socket"

void log_journal_set_send(log_journal_send_fn send) {
        log_journal_send = send;
}

static bool field_name_valid(const char *name) {
        size_t len = strlen(name);

        if (len == 0 || len > 64 || name[0] == '_' || (name[0] >= '0' && name[0] <= '9'))
                return false;
        for (size_t i = 0; i < len; i++)
                if (!((name[i] >= 'A' && name[i] <= 'Z') || (name[i] >= '0' && name[i] <= '9') ||
                      name[i] == '_'))
                        return false;
        return true;
}

/* Appends "NAME=value" (value up to max_value bytes; SIZE_MAX: all) as one
 * iovec. Returns false when it does not fit. */
static bool entry_add(struct log_journal_entry *entry, const char *name, const char *value,
                      size_t max_value) {
        size_t name_len = strlen(name), value_len = strlen(value);
        char *p;

        if (value_len > max_value)
                value_len = max_value;
        if (entry->n_iov >= ELEMENTSOF(entry->iov) ||
            name_len + 1 + value_len > sizeof(entry->buf) - entry->used)
                return false;
        p = entry->buf + entry->used;
        memcpy(p, name, name_len);
        p[name_len] = '=';
        memcpy(p + name_len + 1, value, value_len);
        entry->iov[entry->n_iov++] = (struct iovec){p, name_len + 1 + value_len};
        entry->used += name_len + 1 + value_len;
        return true;
}

int log_journal_entry_build(struct log_journal_entry *entry, int level, const char *message,
                            int error, const char *file, int line, const char *func,
                            const struct log_field *fields) {
        /* Room kept for the fixed fields after MESSAGE, so a long message
         * cannot crowd them out. */
        const size_t reserved = 512;
        char number[24];
        size_t n_extra = 0;
        int left_out = 0;

        assert(entry);
        assert(message);
        assert(level >= LOG_EMERG && level <= LOG_DEBUG);

        entry->n_iov = 0;
        entry->used = 0;
        entry_add(entry, "MESSAGE", message, sizeof(entry->buf) - reserved - sizeof("MESSAGE="));
        snprintf(number, sizeof(number), "%d", level);
        entry_add(entry, "PRIORITY", number, SIZE_MAX);
        entry_add(entry, "SYSLOG_IDENTIFIER", "cuzkd", SIZE_MAX);
        if (file) {
                entry_add(entry, "CODE_FILE", file, 256);
                snprintf(number, sizeof(number), "%d", line);
                entry_add(entry, "CODE_LINE", number, SIZE_MAX);
                if (func)
                        entry_add(entry, "CODE_FUNC", func, 128);
        }
        if (error != 0) {
                snprintf(number, sizeof(number), "%d", abs(error));
                entry_add(entry, "ERRNO", number, SIZE_MAX);
        }
        for (const struct log_field *f = fields; f && f->name; f++) {
                if (!field_name_valid(f->name) || n_extra >= LOG_JOURNAL_MAX_FIELDS ||
                    !entry_add(entry, f->name, f->value ? f->value : "", SIZE_MAX)) {
                        left_out++;
                        continue;
                }
                n_extra++;
        }
        return left_out;
}

/* Per thread: the intake thread captures a PoRep check's errors while the loop logs. */
static _Thread_local char *capture_buf;
static _Thread_local size_t capture_size;

void log_journal_capture(char *buf, size_t size) {
        assert(!buf || size > 0);
        capture_buf = buf;
        capture_size = size;
}

static void capture_note(int level, const char *message) {
        if (capture_buf && level <= LOG_ERR)
                snprintf(capture_buf, capture_size, "%s", message);
}

/* cuzkd's stderr sink: as common/log.c prints without one, and the capture. */
static void log_stderr_sink(int level, const char *message, void *userdata) {
        (void)userdata;
        capture_note(level, message);
        fprintf(stderr, "%s\n", message);
}

void log_journal_sink(int level, const char *message, void *userdata) {
        const struct log_fields_context *c = log_fields_current;
        struct log_journal_entry entry;
        int r;

        (void)userdata;
        assert(message);
        capture_note(level, message);

        if (level < LOG_EMERG || level > LOG_DEBUG)
                level = LOG_ERR;
        log_journal_entry_build(&entry, level, message, c ? c->error : 0, c ? c->file : NULL,
                                c ? c->line : 0, c ? c->func : NULL, c ? c->fields : NULL);
        r = log_journal_send ? log_journal_send(entry.iov, (int)entry.n_iov)
                             : sd_journal_sendv(entry.iov, (int)entry.n_iov);
        /* The journal refused it (full socket buffer, journald restarting):
         * the message still goes somewhere. */
        if (r < 0)
                fprintf(stderr, "%s\n", message);
}

int log_fields_internal(int level, int error, const char *file, int line, const char *func,
                        const struct log_field *fields, const char *fmt, ...) {
        const struct log_fields_context context = {
                .file = file,
                .line = line,
                .func = func,
                .error = error,
                .fields = fields,
        };
        char message[1024];
        int saved_errno = errno;
        va_list ap;
        int r;

        assert(fmt);

        if (level > log_get_max_level())
                return -abs(error);
        /* "%m" prints errno: make it the error we were given, as log_internal() does. */
        errno = abs(error);
        va_start(ap, fmt);
        vsnprintf(message, sizeof(message), fmt, ap);
        va_end(ap);
        errno = saved_errno;

        log_fields_current = &context;
        r = log_internal(level, error, "%s", message);
        log_fields_current = NULL;
        return r;
}

bool log_journal_stream_is(int fd, const char *journal_stream) {
        uintmax_t dev, ino;
        struct stat st;
        char tail;

        assert(fd >= 0);

        if (!journal_stream ||
            sscanf(journal_stream, "%" SCNuMAX ":%" SCNuMAX "%c", &dev, &ino, &tail) != 2)
                return false;
        if (fstat(fd, &st) < 0)
                return false;
        return (uintmax_t)st.st_dev == dev && (uintmax_t)st.st_ino == ino;
}

enum config_log_target log_journal_setup(enum config_log_target target) {
        bool journald = access(JOURNAL_SOCKET, F_OK) == 0;

        if (target == CONFIG_LOG_AUTO)
                target = journald && log_journal_stream_is(STDERR_FILENO, getenv("JOURNAL_STREAM"))
                                 ? CONFIG_LOG_JOURNAL
                                 : CONFIG_LOG_STDERR;
        else if (target == CONFIG_LOG_JOURNAL && !journald) {
                log_set_sink(log_stderr_sink, NULL);
                log_warning("LogTarget=journal: " JOURNAL_SOCKET
                            " does not exist (journald is not running), logging to stderr");
                return CONFIG_LOG_STDERR;
        }
        log_set_sink(target == CONFIG_LOG_JOURNAL ? log_journal_sink : log_stderr_sink, NULL);
        return target;
}
