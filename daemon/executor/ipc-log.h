/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Logging in the helper processes (worker, prover): each message goes to
 * stderr, which they share with the supervisor, prefixed with the helper's
 * role and pid; the latest error is kept so that a failure can be sent up
 * with the text that names the file and the value.
 */
#pragma once

/* Installs the sink; who: "worker" or "prover". The level is the
 * supervisor's, from the environment (ipc_log_export_level). */
void ipc_log_setup(const char *who);
/* The supervisor's side: helpers started from now on log up to level
 * (LogLevel=; a helper is a fresh exec of cuzkd, so nothing else carries
 * it). Call from the thread that starts helpers. */
void ipc_log_export_level(int level);
/* The latest message at LOG_ERR or worse, "" when none. */
const char *ipc_log_last_error(void);
