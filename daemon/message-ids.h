/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The MESSAGE_IDs cuzkd logs with (journald field MESSAGE_ID=): each has an
 * entry in units/cuzk.catalog, which `journalctl -x` shows beside the
 * message. The catalog text uses the CUZK_* fields listed here, so a
 * message with one of these ids should carry them:
 *
 *   log_fields(LOG_INFO, 0, LOG_FIELDS({"MESSAGE_ID", CUZK_MID_ADMISSION_PAUSED},
 *                                      {"CUZK_PRESSURE_SOURCE", source}), "...");
 *
 * An id, once released, is never reused for another meaning (new ids come
 * from `systemd-id128 new`).
 */
#pragma once

/* cuzkd is ready (READY=1 sent). Fields: CUZK_SOCKET, CUZK_BUDGET_BYTES,
 * CUZK_ENFORCEMENT, CUZK_SPOOL. */
#define CUZK_MID_DAEMON_STARTED "5c49f1908cec4906865c9b4467038aa9"
/* Memory pressure paused admission. Fields: CUZK_PRESSURE_SOURCE (the PSI
 * file or the eBPF probe that fired), CUZK_RESERVED_BYTES. */
#define CUZK_MID_ADMISSION_PAUSED "2e314d0e696a440eb586a90cc691f10b"
/* Admission resumed after the quiet time. Fields: CUZK_PAUSED_USEC. */
#define CUZK_MID_ADMISSION_RESUMED "092d2a53083c4442adb124232dedc6d1"
/* A job failed for good (after its retries). Fields: CUZK_JOB_ID,
 * CUZK_PARTITION, CUZK_ATTEMPTS, CUZK_ERROR. */
#define CUZK_MID_JOB_FAILED "7ca3e2fe5db34471a503ba89d665d0a6"
/* The kernel OOM-killed a synthesis worker in its cgroup. Fields:
 * CUZK_JOB_ID, CUZK_PARTITION, CUZK_CGROUP, CUZK_MEMORY_MAX_BYTES. */
#define CUZK_MID_WORKER_OOM_KILLED "943d718cea2e419f9432d34c51db30e8"
/* The eBPF probes could not be loaded; pressure comes from PSI only.
 * Fields: CUZK_BPF_ERROR. */
#define CUZK_MID_BPF_UNAVAILABLE "3a6198cf400e4cc9ad5a5a85977fa3aa"
/* How per-worker memory limits are enforced on this host (said once at
 * start). Fields: CUZK_ENFORCEMENT (cgroup2, cgroup1, rlimit, none). */
#define CUZK_MID_ENFORCEMENT_MODE "d73283789ddb4f4e993755b537f92107"
