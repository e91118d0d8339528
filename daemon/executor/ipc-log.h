/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Logging in the helper processes (worker, prover): each message goes to
 * stderr, which they share with the supervisor, prefixed with the helper's
 * role and pid; the latest error is kept so that a failure can be sent up
 * with the text that names the file and the value.
 */
#pragma once

/* Installs the sink; who: "worker" or "prover". */
void ipc_log_setup(const char *who);
/* The latest message at LOG_ERR or worse, "" when none. */
const char *ipc_log_last_error(void);
