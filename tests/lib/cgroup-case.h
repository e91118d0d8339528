/* SPDX-License-Identifier: Apache-2.0 */
/* What the tests against real cgroups share (test-cgroup-real, test-bpf): this host's
 * hierarchy, the one cgroup each case creates below our own, and creating and removing it. */
#pragma once

#include <stdbool.h>

#include "cgroup/cg-domain.h"
#include "cgroup/hierarchy.h"

extern cg_hierarchy_t cgt_hierarchy;
extern bool cgt_hierarchy_known;
/* The one cgroup each case creates below our own: <prefix>-<pid>. */
extern char cgt_test_cgroup_name[64];

/* Names the test cgroup, detects the hierarchy and prints it as a "# hierarchy: ..." line
 * ending with note. */
void cgt_case_init(const char *name_prefix, const char *note);

/* For a case's setup: our own domain when we are root on a known hierarchy; otherwise
 * domain->own_dirfd is -EBADF. */
void cgt_case_open_domain(cg_domain_t *domain);

/* Whether capability cap is in our effective set. */
bool cgt_have_capability(int cap);

/* Creates the test cgroup below domain with memory enabled for its children and returns its
 * dirfd; skips the case (needs root, a writable memory cgroup) where that cannot be done. */
int cgt_create_memory_cgroup(const cg_domain_t *domain);

/* Kills what is left in the test cgroup below own_dirfd, reaps it, and removes the cgroup. */
void cgt_remove_test_cgroup(int own_dirfd);
