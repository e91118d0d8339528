/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading cuzkd.conf and its drop-ins: inih's parser driven through our own
 * line reader, so that every message can name the file and line (Debian's
 * inih is built without INI_HANDLER_LINENO).
 */
#include "config.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <inttypes.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "common/cleanup.h"
#include "common/log.h"
#include "common/parse-number.h"

#include "daemon/supervisor/config-keys.h"

/* The state of one file's parse. inih calls our reader once per line and the
 * handler right after the line it belongs to, so `line` is the handler's. */
struct config_parser {
        struct config *config;
        const char *path;
        FILE *file;
        unsigned line;
        char raw[1024];       /* the current line as read (BOM dropped), for the checks */
        int max_line;         /* inih's line buffer */
        bool too_long;        /* the reader stopped at a line that does not fit */
        bool section_unknown; /* the current section was refused (once, at its header) */
        unsigned first_error; /* line of the first error we logged (0: none) */
        unsigned last_error;  /* line of the latest: one message per line */
        int errors;
};

static void config_error(struct config_parser *p, const char *fmt, ...)
        __attribute__((format(printf, 2, 3)));
static void config_error(struct config_parser *p, const char *fmt, ...) {
        char message[512];
        va_list ap;

        if (p->last_error == p->line)
                return;
        p->last_error = p->line;
        va_start(ap, fmt);
        vsnprintf(message, sizeof(message), fmt, ap);
        va_end(ap);
        log_error("%s:%u: %s", p->path, p->line, message);
        if (!p->first_error)
                p->first_error = p->line;
        p->errors++;
}

/* Checks a line's shape as inih will read it, so that every bad line is
 * reported (inih returns only the first) and a section is judged at its
 * header even when no key follows. */
static void config_check_line(struct config_parser *p) {
        const char *s = p->raw + strspn(p->raw, " \t\r\n");
        const char *end;
        char section[64];

        if (!*s || *s == ';' || *s == '#')
                return;
        if (*s == '[') {
                end = strchr(s, ']');
                if (!end) {
                        config_error(p, "syntax error: '[' without ']', expected [Section]");
                        p->section_unknown = true;
                        return;
                }
                snprintf(section, sizeof(section), "%.*s", (int)(end - s - 1), s + 1);
                p->section_unknown = !config_section_known(section);
                if (p->section_unknown)
                        config_error(p, "unknown section [%s], expected " CONFIG_SECTIONS_EXPECTED,
                                     section);
                return;
        }
        if (!strpbrk(s, "=:"))
                config_error(p, "syntax error: '%.*s' has no '='%s, expected Key=Value",
                             (int)strcspn(s, "\r\n"), s,
                             s > p->raw ? " (an indented line does not continue a value)" : "");
}

static char *config_reader(char *str, int num, void *stream) {
        struct config_parser *p = stream;
        const char *line = p->raw;
        size_t len;

        assert(num > 2);

        if (!fgets(p->raw, sizeof(p->raw), p->file))
                return NULL;
        p->line++;
        p->max_line = num;
        if (p->line == 1 && !strncmp(line, "\xEF\xBB\xBF", 3)) /* UTF-8 byte order mark */
                memmove(p->raw, p->raw + 3, strlen(p->raw + 3) + 1);
        len = strlen(line);
        /* Longer than inih's buffer or ours (the last line may lack '\n'): end
         * the parse here and say so, rather than let the rest of the line be
         * read as a line of its own. */
        if ((len == sizeof(p->raw) - 1 && p->raw[len - 1] != '\n') || len + 1 > (size_t)num) {
                p->too_long = true;
                return NULL;
        }
        config_check_line(p);
        memcpy(str, p->raw, len + 1);
        return str;
}

/* inih reads an indented line after a key as a continuation of that key's
 * value and calls the handler with the same name again; systemd's syntax
 * has no such thing and an indented "Key=Value" would silently become part
 * of the previous value: refuse it. A line of our form is name, '=' or ':',
 * then the value inih passed. */
static bool raw_line_is_key_value(const char *raw, const char *name, const char *value) {
        size_t len = strlen(name);

        raw += strspn(raw, " \t");
        if (strncmp(raw, name, len))
                return false;
        raw += len;
        raw += strspn(raw, " \t");
        if (*raw != '=' && *raw != ':')
                return false;
        raw++;
        raw += strspn(raw, " \t");
        return !strncmp(raw, value, strlen(value));
}

static void config_unknown_key(struct config_parser *p, const char *section, const char *name) {
        char known[1024] = ""; /* every key of the largest section, named */
        size_t len = 0;

        for (size_t i = 0; i < config_n_keys; i++) {
                if (strcmp(config_keys[i].section, section))
                        continue;
                len += (size_t)snprintf(known + len, sizeof(known) - len, "%s%s", len ? ", " : "",
                                        config_keys[i].name);
                assert(len < sizeof(known));
        }
        config_error(p, "unknown key %s in section [%s], expected one of %s", name, section, known);
}

static int config_handler(void *userdata, const char *section, const char *name,
                          const char *value) {
        struct config_parser *p = userdata;
        const struct config_key *key;
        struct config defaults;
        int r;

        if (!raw_line_is_key_value(p->raw, name, value)) {
                config_error(p,
                             "'%s': an indented line continues the value of %s, expected "
                             "Key=Value at the start of the line",
                             value, name);
                return 0;
        }
        if (p->section_unknown)
                return 0; /* said once, at the section's header */
        if (!section[0]) {
                config_error(
                        p,
                        "key %s outside any section, expected it below " CONFIG_SECTIONS_EXPECTED,
                        name);
                return 0;
        }
        key = config_key_find(section, name);
        if (!key) {
                config_unknown_key(p, section, name);
                return 0;
        }

        /* An empty value restores the default, as in systemd's unit files. */
        if (!value[0]) {
                config_init(&defaults);
                memcpy((uint8_t *)p->config + key->offset, (const uint8_t *)&defaults + key->offset,
                       key->size);
                return 1;
        }
        r = key->parse(value, (uint8_t *)p->config + key->offset);
        if (r == -ERANGE) {
                config_error(p, "key %s: '%s' is out of range, expected %s", name, value,
                             key->expected);
                return 0;
        }
        if (r < 0) {
                config_error(p, "key %s: '%s' is not %s, expected %s", name, value, key->what,
                             key->expected);
                return 0;
        }
        return 1;
}

int config_load_file(struct config *config, const char *path) {
        _cleanup_fclose_ FILE *file = NULL;
        struct config_parser p = {.config = config, .path = path};
        struct stat st;
        int r;

        assert(config);
        assert(path);

        file = fopen(path, "re");
        if (!file) {
                r = -errno;
                if (r == -ENOENT)
                        return log_debug_errno(r, "%s: not found, nothing to load", path);
                return log_error_errno(r, "%s: cannot open: %m", path);
        }
        if (fstat(fileno(file), &st) < 0)
                return log_error_errno(errno, "%s: cannot stat: %m", path);
        if (S_ISDIR(st.st_mode))
                return log_error_errno(EISDIR, "%s: is a directory, expected a config file", path);

        p.file = file;
        r = ini_parse_stream(config_reader, &p, config_handler, &p);
        if (ferror(file))
                return log_error_errno(EIO, "%s:%u: cannot read: %m", path, p.line + 1);
        if (p.too_long) {
                config_error(&p, "line too long, expected at most %d characters", p.max_line - 3);
                return -EINVAL;
        }
        /* inih returns the first line with an error; one we did not log is its own. */
        if (r > 0 && (unsigned)r != p.first_error &&
            (!p.first_error || (unsigned)r < p.first_error))
                log_error("%s:%d: syntax error, expected [Section], Key=Value or a comment", path,
                          r);
        else if (r < 0)
                return log_error_errno(ENOMEM, "%s: out of memory while parsing", path);
        if (r > 0 || p.errors > 0)
                return -EINVAL;
        log_debug("%s: loaded", path);
        return 0;
}

static int drop_in_filter(const struct dirent *de) {
        size_t len = strlen(de->d_name);

        /* Hidden files are editors' and package managers' leftovers. */
        return de->d_name[0] != '.' && len > 5 && !strcmp(de->d_name + len - 5, ".conf");
}

/* Plain byte order: "lexical" must not depend on the locale. */
static int drop_in_compare(const struct dirent **a, const struct dirent **b) {
        return strcmp((*a)->d_name, (*b)->d_name);
}

int config_load(struct config *config, const char *path) {
        _cleanup_free_ char *dir = NULL;
        struct dirent **entries = NULL;
        int r, n, result = 0;

        assert(config);
        assert(path);

        config_init(config);
        r = config_load_file(config, path);
        if (r < 0 && r != -ENOENT)
                result = r;

        if (asprintf(&dir, "%s.d", path) < 0)
                return log_error_errno(ENOMEM, "%s.d: out of memory", path);
        n = scandir(dir, &entries, drop_in_filter, drop_in_compare);
        if (n < 0) {
                r = -errno;
                if (r != -ENOENT && r != -ENOTDIR) {
                        log_error_errno(r, "%s: cannot read the drop-in directory: %m", dir);
                        if (!result)
                                result = r;
                }
                n = 0;
        }
        for (int i = 0; i < n; i++) {
                _cleanup_free_ char *file = NULL;

                if (asprintf(&file, "%s/%s", dir, entries[i]->d_name) < 0) {
                        if (!result)
                                result = log_error_errno(ENOMEM, "%s: out of memory", dir);
                } else {
                        /* Keep going after an error: every bad line is reported at once. */
                        r = config_load_file(config, file);
                        if (r < 0 && !result)
                                result = r;
                }
                free(entries[i]);
        }
        free(entries);
        if (result < 0)
                return result;

        if (config->pressure_stall_msec > config->pressure_window_msec)
                return log_error_errno(
                        EINVAL,
                        "%s: PressureStall=%" PRIu64 " is longer than PressureWindow=%" PRIu64
                        ", expected a stall of at most the window",
                        path, config->pressure_stall_msec, config->pressure_window_msec);
        return 0;
}
