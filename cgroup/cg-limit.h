/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The limit that holds for a cgroup: the smallest of its own and every ancestor's, since
 * the kernel charges a cgroup's memory to each ancestor too. cgroup v1 sums this up in
 * memory.stat's hierarchical_memory_limit; v2 has no such file, so we walk the path.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

/*
 * The smallest value of file (e.g. "memory.max") in base_dir and in each cgroup on the way
 * from it down cgroup_path (relative to base_dir, as "/a/b/c"), the last one included.
 * base_dir is where the hierarchy is mounted: its own file counts when it has one (the top
 * of a cgroup namespace or of a subtree mount is a cgroup with limits; the real root has
 * none). A level without the file (the root, or a controller its parent does not enable)
 * is skipped. *ret_bytes is CG_LIMIT_MAX when no level sets a limit; ret_file gets the path
 * of the file that set the smallest value, the outermost of equal ones ("" for none).
 * Negative errno, logged naming the directory or file, when a cgroup on the way cannot be
 * opened, a file there cannot be read or holds no number, or the path holds ".." or ".".
 */
int cg_limit_smallest(const char *base_dir, const char *cgroup_path, const char *file,
                      uint64_t *ret_bytes, char *ret_file, size_t file_size);
