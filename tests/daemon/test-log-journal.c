/* SPDX-License-Identifier: Apache-2.0 */
/* The journald sink: the fields of an entry, how LogTarget=auto recognizes
 * the journal's stream, and log_fields() through the sink (the fields on
 * the journal when journald listens here, the message on stderr otherwise). */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "daemon/supervisor/log-journal.h"

/* The entry's field NAME=..., as a string (fails when absent). */
static const char *entry_field(const struct log_journal_entry *e, const char *name) {
        static char value[4096];
        size_t len = strlen(name);

        for (size_t i = 0; i < e->n_iov; i++) {
                const char *p = e->iov[i].iov_base;

                if (e->iov[i].iov_len > len && !strncmp(p, name, len) && p[len] == '=') {
                        snprintf(value, sizeof(value), "%.*s", (int)(e->iov[i].iov_len - len - 1),
                                 p + len + 1);
                        return value;
                }
        }
        return NULL;
}

static void test_entry_fields(void **state) {
        struct log_journal_entry e;

        (void)state;
        /* A plain message: what every log_*() call sends. */
        assert_int_equal(log_journal_entry_build(&e, LOG_WARNING, "hello", 0, NULL, 0, NULL, NULL),
                         0);
        assert_int_equal(e.n_iov, 3);
        assert_string_equal(entry_field(&e, "MESSAGE"), "hello");
        assert_string_equal(entry_field(&e, "PRIORITY"), "4");
        assert_string_equal(entry_field(&e, "SYSLOG_IDENTIFIER"), "cuzkd");
        assert_null(entry_field(&e, "CODE_FILE"));
        assert_null(entry_field(&e, "ERRNO"));

        /* With the call site, an error and CUZK_* fields. */
        assert_int_equal(log_journal_entry_build(
                                 &e, LOG_ERR, "job j1 failed", -ENOMEM, "daemon/job.c", 42,
                                 "job_fail",
                                 LOG_FIELDS({"CUZK_JOB_ID", "j1"}, {"CUZK_PARTITION", "3"},
                                            {"MESSAGE_ID", "0123456789abcdef0123456789abcdef"})),
                         0);
        assert_int_equal(e.n_iov, 10);
        assert_string_equal(entry_field(&e, "MESSAGE"), "job j1 failed");
        assert_string_equal(entry_field(&e, "PRIORITY"), "3");
        assert_string_equal(entry_field(&e, "CODE_FILE"), "daemon/job.c");
        assert_string_equal(entry_field(&e, "CODE_LINE"), "42");
        assert_string_equal(entry_field(&e, "CODE_FUNC"), "job_fail");
        assert_string_equal(entry_field(&e, "ERRNO"), "12");
        assert_string_equal(entry_field(&e, "CUZK_JOB_ID"), "j1");
        assert_string_equal(entry_field(&e, "CUZK_PARTITION"), "3");
        assert_string_equal(entry_field(&e, "MESSAGE_ID"), "0123456789abcdef0123456789abcdef");
        /* Each iovec is exactly "NAME=value", no terminator, no newline. */
        assert_int_equal(e.iov[0].iov_len, strlen("MESSAGE=job j1 failed"));

        /* Names journald would drop are left out and counted; a value may
         * hold anything (sd_journal_sendv sends it in binary form). */
        assert_int_equal(log_journal_entry_build(
                                 &e, LOG_INFO, "m", 0, NULL, 0, NULL,
                                 LOG_FIELDS({"cuzk_lower", "x"}, {"_TRUSTED", "x"}, {"1DIGIT", "x"},
                                            {"", "x"}, {"CUZK-DASH", "x"}, {"CUZK_MULTI", "a\nb"})),
                         5);
        assert_int_equal(e.n_iov, 4);
        assert_string_equal(entry_field(&e, "CUZK_MULTI"), "a\nb");
}

static void test_entry_limits(void **state) {
        struct log_field many[LOG_JOURNAL_MAX_FIELDS + 3];
        char names[LOG_JOURNAL_MAX_FIELDS + 2][16];
        static char long_text[8192];
        struct log_journal_entry e;

        (void)state;
        for (size_t i = 0; i < LOG_JOURNAL_MAX_FIELDS + 2; i++) {
                snprintf(names[i], sizeof(names[i]), "CUZK_F%zu", i);
                many[i] = (struct log_field){names[i], "v"};
        }
        many[LOG_JOURNAL_MAX_FIELDS + 2] = (struct log_field){NULL, NULL};
        assert_int_equal(log_journal_entry_build(&e, LOG_INFO, "m", 0, NULL, 0, NULL, many), 2);
        assert_int_equal(e.n_iov, 3 + LOG_JOURNAL_MAX_FIELDS);

        /* A huge message is cut, and the fixed fields still fit after it. */
        memset(long_text, 'x', sizeof(long_text) - 1);
        assert_int_equal(log_journal_entry_build(&e, LOG_INFO, long_text, 0, "f.c", 1, "fn",
                                                 LOG_FIELDS({"CUZK_JOB_ID", "j"})),
                         0);
        assert_true(strlen(entry_field(&e, "MESSAGE")) < sizeof(long_text) - 1);
        assert_true(strlen(entry_field(&e, "MESSAGE")) > 3000);
        assert_string_equal(entry_field(&e, "CODE_FUNC"), "fn");
        assert_string_equal(entry_field(&e, "CUZK_JOB_ID"), "j");
        /* A field that does not fit in what is left is left out. */
        assert_int_equal(log_journal_entry_build(&e, LOG_INFO, "m", 0, NULL, 0, NULL,
                                                 LOG_FIELDS({"CUZK_BIG", long_text})),
                         1);
}

static void test_stream_detection(void **state) {
        char text[64], path[] = "/tmp/test-log-journal-XXXXXX";
        struct stat st;
        int fd, saved_stderr;
        bool journald;

        (void)state;
        fd = mkstemp(path);
        assert_true(fd >= 0);
        unlink(path);
        assert_int_equal(fstat(fd, &st), 0);
        snprintf(text, sizeof(text), "%llu:%llu", (unsigned long long)st.st_dev,
                 (unsigned long long)st.st_ino);
        assert_true(log_journal_stream_is(fd, text));
        assert_false(log_journal_stream_is(fd, NULL));
        assert_false(log_journal_stream_is(fd, ""));
        assert_false(log_journal_stream_is(fd, "1:2"));
        snprintf(text, sizeof(text), "%llu:%llu", (unsigned long long)st.st_dev,
                 (unsigned long long)st.st_ino + 1);
        assert_false(log_journal_stream_is(fd, text));
        snprintf(text, sizeof(text), "%llu:%llux", (unsigned long long)st.st_dev,
                 (unsigned long long)st.st_ino);
        assert_false(log_journal_stream_is(fd, text));

        /* LogTarget=auto: the journal exactly when stderr is the stream named
         * (and journald listens: without its socket every message would be lost). */
        journald = access("/run/systemd/journal/socket", F_OK) == 0;
        saved_stderr = dup(STDERR_FILENO);
        assert_true(saved_stderr >= 0);
        assert_int_equal(dup2(fd, STDERR_FILENO), STDERR_FILENO);
        unsetenv("JOURNAL_STREAM");
        assert_int_equal(log_journal_setup(CONFIG_LOG_AUTO), CONFIG_LOG_STDERR);
        snprintf(text, sizeof(text), "%llu:%llu", (unsigned long long)st.st_dev,
                 (unsigned long long)st.st_ino);
        setenv("JOURNAL_STREAM", text, 1);
        assert_int_equal(log_journal_setup(CONFIG_LOG_AUTO),
                         journald ? CONFIG_LOG_JOURNAL : CONFIG_LOG_STDERR);
        assert_int_equal(dup2(saved_stderr, STDERR_FILENO), STDERR_FILENO);
        /* Our stderr is not that file now. */
        assert_int_equal(log_journal_setup(CONFIG_LOG_AUTO), CONFIG_LOG_STDERR);
        unsetenv("JOURNAL_STREAM");
        /* Explicit targets are taken as they are, the journal where it exists. */
        assert_int_equal(log_journal_setup(CONFIG_LOG_JOURNAL),
                         journald ? CONFIG_LOG_JOURNAL : CONFIG_LOG_STDERR);
        assert_int_equal(log_journal_setup(CONFIG_LOG_STDERR), CONFIG_LOG_STDERR);
        close(saved_stderr);
        close(fd);
}

/* Captures what a log_fields() call hands to the sink in place of the journal. */
static char sink_message[1024];
static int sink_level;

static void capture_sink(int level, const char *message, void *userdata) {
        (void)userdata;
        sink_level = level;
        snprintf(sink_message, sizeof(sink_message), "%s", message);
}

/* Keeps a copy of each entry the sink sends (iovecs into our own buffer). */
static struct log_journal_entry sent;
static int sent_count, send_error;

static int capture_send(const struct iovec *iov, int n) {
        sent.n_iov = 0;
        sent.used = 0;
        for (int i = 0; i < n; i++) {
                assert_true(sent.used + iov[i].iov_len <= sizeof(sent.buf));
                memcpy(sent.buf + sent.used, iov[i].iov_base, iov[i].iov_len);
                sent.iov[sent.n_iov++] = (struct iovec){sent.buf + sent.used, iov[i].iov_len};
                sent.used += iov[i].iov_len;
        }
        sent_count++;
        return send_error;
}

static void test_log_fields(void **state) {
        char buf[4096], path[] = "/tmp/test-log-journal-XXXXXX";
        int fd, saved_stderr, line;
        ssize_t n;

        (void)state;
        /* Formatting, "%m" and the return value are those of log_internal(). */
        log_set_sink(capture_sink, NULL);
        log_set_max_level(LOG_INFO);
        assert_int_equal(
                log_fields(LOG_ERR, ENOENT, LOG_FIELDS({"CUZK_JOB_ID", "j7"}), "job %s: %m", "j7"),
                -ENOENT);
        assert_string_equal(sink_message, "job j7: No such file or directory");
        assert_int_equal(sink_level, LOG_ERR);
        /* Filtered by level like every message. */
        sink_message[0] = 0;
        assert_int_equal(log_fields(LOG_DEBUG, 0, LOG_FIELDS({"CUZK_JOB_ID", "j7"}), "quiet"), 0);
        assert_string_equal(sink_message, "");

        /* Through the journal sink: the entry carries the fields and the call
         * site of log_fields(), and a plain log_*() only the basics. */
        log_set_sink(log_journal_sink, NULL);
        log_journal_set_send(capture_send);
        line = __LINE__ + 1;
        log_fields(LOG_WARNING, EIO, LOG_FIELDS({"CUZK_JOB_ID", "j8"}), "partition %d: %m", 2);
        assert_int_equal(sent_count, 1);
        assert_string_equal(entry_field(&sent, "MESSAGE"), "partition 2: Input/output error");
        assert_string_equal(entry_field(&sent, "PRIORITY"), "4");
        assert_string_equal(entry_field(&sent, "SYSLOG_IDENTIFIER"), "cuzkd");
        assert_string_equal(entry_field(&sent, "CUZK_JOB_ID"), "j8");
        assert_string_equal(entry_field(&sent, "ERRNO"), "5");
        assert_non_null(strstr(entry_field(&sent, "CODE_FILE"), "test-log-journal.c"));
        snprintf(buf, sizeof(buf), "%d", line);
        assert_string_equal(entry_field(&sent, "CODE_LINE"), buf);
        assert_string_equal(entry_field(&sent, "CODE_FUNC"), "test_log_fields");
        log_info("plain %s", "message");
        assert_int_equal(sent_count, 2);
        assert_int_equal(sent.n_iov, 3);
        assert_string_equal(entry_field(&sent, "MESSAGE"), "plain message");
        assert_null(entry_field(&sent, "CUZK_JOB_ID")); /* the fields were for one call */

        /* A send that fails puts the message on stderr. */
        fd = mkstemp(path);
        assert_true(fd >= 0);
        unlink(path);
        saved_stderr = dup(STDERR_FILENO);
        assert_int_equal(dup2(fd, STDERR_FILENO), STDERR_FILENO);
        send_error = -EAGAIN;
        log_fields(LOG_ERR, 0, LOG_FIELDS({"CUZK_JOB_ID", "j9"}), "job %s lost its worker", "j9");
        send_error = 0;
        assert_int_equal(dup2(saved_stderr, STDERR_FILENO), STDERR_FILENO);
        close(saved_stderr);
        log_journal_set_send(NULL);
        log_set_sink(NULL, NULL);
        n = pread(fd, buf, sizeof(buf) - 1, 0);
        close(fd);
        assert_true(n > 0);
        buf[n] = 0;
        assert_string_equal(buf, "job j9 lost its worker\n");
}

/* A client's path with a newline cannot forge a second log line, on stderr or in the
 * journal; UTF-8 stays as it is, other bytes are escaped. */
static void test_log_escapes_control_characters(void **state) {
        const char *forged = "/nonexistent\njob job-99-deadbeef completed";
        char buf[4096], path[] = "/tmp/test-log-journal-XXXXXX";
        int fd, saved_stderr;
        ssize_t n;

        (void)state;
        assert_int_equal(log_escape("a\nb\r\tc\x1b[31m\x7f", buf, sizeof(buf)), 21);
        assert_string_equal(buf, "a\\nb\\r\\tc\\x1b[31m\\x7f");
        log_escape("\xe8\xaf\x81 \xff\xfe \xc2\x9b \xc3\xa9 \xed\xa0\x80", buf, sizeof(buf));
        assert_string_equal(buf, "\xe8\xaf\x81 \\xff\\xfe \\xc2\\x9b \xc3\xa9 \\xed\\xa0\\x80");
        /* Cut at a whole character or escape. */
        assert_int_equal(log_escape("ab\n", buf, 4), 2);
        assert_string_equal(buf, "ab");
        assert_int_equal(log_escape("a\xe8\xaf\x81", buf, 4), 1);

        log_set_max_level(LOG_INFO);
        log_set_sink(log_journal_sink, NULL);
        log_journal_set_send(capture_send);
        log_error("zkey_path %s: No such file or directory", forged);
        assert_string_equal(entry_field(&sent, "MESSAGE"),
                            "zkey_path /nonexistent\\njob job-99-deadbeef completed: No such file "
                            "or directory");
        log_journal_set_send(NULL);

        fd = mkstemp(path);
        assert_true(fd >= 0);
        unlink(path);
        saved_stderr = dup(STDERR_FILENO);
        assert_int_equal(dup2(fd, STDERR_FILENO), STDERR_FILENO);
        log_set_sink(NULL, NULL);
        log_error("zkey_path %s: No such file or directory", forged);
        assert_int_equal(log_journal_setup(CONFIG_LOG_STDERR), CONFIG_LOG_STDERR);
        log_warning("request id %s", "r\n1");
        assert_int_equal(dup2(saved_stderr, STDERR_FILENO), STDERR_FILENO);
        close(saved_stderr);
        log_set_sink(NULL, NULL);
        n = pread(fd, buf, sizeof(buf) - 1, 0);
        close(fd);
        assert_true(n > 0);
        buf[n] = 0;
        assert_string_equal(buf, "zkey_path /nonexistent\\njob job-99-deadbeef completed: No "
                                 "such file or directory\nrequest id r\\n1\n");
}

int main(void) {
        const struct CMUnitTest tests[] = {
                cmocka_unit_test(test_entry_fields),
                cmocka_unit_test(test_entry_limits),
                cmocka_unit_test(test_stream_detection),
                cmocka_unit_test(test_log_fields),
                cmocka_unit_test(test_log_escapes_control_characters),
        };

        return cmocka_run_group_tests(tests, NULL, NULL);
}
