/* SPDX-License-Identifier: Apache-2.0 */
/* What memwatch.c (BPF build) and memwatch-disabled.c share with memwatch-util.c. */
#pragma once

/* Logs "BPF unavailable: <reason>; running on PSI alone" the first time it is called in
 * this process (at debug level afterwards) and returns -EOPNOTSUPP. */
int memwatch_unavailable(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
