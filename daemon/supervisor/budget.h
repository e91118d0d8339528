/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The memory budget that admission reserves from: every partition, SRS and
 * PCE in flight holds a reservation of bytes, and nothing is admitted that
 * would take the reserved total past the budget. The budget is bookkeeping
 * only; the kernel enforces the per-worker limits (cg-domain.h).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cgroup/hierarchy.h"

struct budget {
        uint64_t total_bytes;
        uint64_t reserved_bytes;
        uint64_t peak_reserved_bytes; /* the highest reserved_bytes seen */
};

void budget_init(struct budget *budget, uint64_t total_bytes);
/* A new total (a reloaded configuration): what is reserved stays reserved;
 * below it, nothing more is admitted until enough is released. */
void budget_set_total(struct budget *budget, uint64_t total_bytes);
/* Whether bytes more would still fit (never while more than the total is reserved). */
bool budget_fits(const struct budget *budget, uint64_t bytes);
/* Reserves bytes; -ENOSPC (nothing reserved) when they do not fit. */
int budget_reserve(struct budget *budget, uint64_t bytes);
/* Reserves bytes that are held already, whether they fit or not (a restarted prover
 * loading a key again that had been counted at what it kept of it): past the total,
 * nothing is admitted until enough is released. */
void budget_take(struct budget *budget, uint64_t bytes);
/* Gives bytes back; they must have been reserved. */
void budget_release(struct budget *budget, uint64_t bytes);

/*
 * TotalBudget=auto: the smaller of MemTotal - safety_margin and the memory
 * limit that holds for our cgroup, the smallest of its own and its
 * ancestors' (v2 memory.max, v1 memory.stat hierarchical_memory_limit; "max"
 * or the v1 "unlimited" figure count as no limit). *ret_source says which
 * one won ("MemTotal" or the path of the limit file that set it).
 */
uint64_t budget_auto_compute(uint64_t mem_total_bytes, uint64_t cgroup_limit_bytes,
                             uint64_t safety_margin_bytes);
int budget_auto_detect(uint64_t safety_margin_bytes, uint64_t *ret_bytes, char *ret_source,
                       size_t source_size);
/* The limit part of it for a hierarchy as cg_hierarchy_detect() fills it: CG_LIMIT_MAX
 * when none holds or it cannot be read (logged); ret_file names the file that set it. */
uint64_t budget_cgroup_limit(const cg_hierarchy_t *hierarchy, char *ret_file, size_t file_size);
/* MemTotal from a /proc/meminfo text, in bytes (-EBADMSG when absent). */
int budget_parse_meminfo(const char *text, uint64_t *ret_bytes);
