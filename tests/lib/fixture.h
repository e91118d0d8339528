/* SPDX-License-Identifier: Apache-2.0 */
/* What the daemon's unit tests (test-config, test-spool) share: a record of every log
 * message of a case, and removing a case's temporary directory. */
#pragma once

#include <stddef.h>

/* Keeps every message from here on (one a line, each also echoed to stderr as "  log: ..."),
 * starting from an empty record, and lets messages up to max_level through. */
void test_log_capture(int max_level);
/* Empties the record and the count of errors. */
void test_log_reset(void);
/* Messages at LOG_ERR or more severe since the last reset. */
size_t test_log_errors(void);
/* Fails the test, showing the record, unless some message contains text. */
void test_assert_logged(const char *text);
/* Messages go to stderr again, up to LOG_INFO. */
void test_log_capture_stop(void);

/* Removes path and everything below it (links are removed, not followed). */
void test_remove_tree(const char *path);
