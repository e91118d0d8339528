# shellcheck shell=bash
# SPDX-License-Identifier: Apache-2.0
# Sourced: cgroup_child_make NAME prints the path of a new memory cgroup NAME
# below our own (the v1 memory hierarchy where it is mounted and writable,
# else cgroup v2 with memory.current), so that a daemon started in it has
# a memory peak of its own; status 1 where none can be made (not root, no
# memory controller). cgroup_child_remove PATH removes it and what the
# daemon made below it (deepest first). Nothing else is touched.

cgroup_child_make() {
        local name=$1 own base
        own=$(awk -F: '$2 == "memory" { print $3 }' /proc/self/cgroup)
        base=/sys/fs/cgroup/memory$own
        if [ -z "$own" ] || [ ! -w "$base" ]; then
                own=$(awk -F: '$1 == "0" { print $3 }' /proc/self/cgroup)
                base=/sys/fs/cgroup$own
                [ -f "$base/memory.max" ] || base=/sys/fs/cgroup/unified$own
                [ -f "$base/memory.current" ] && [ -w "$base" ] || return 1
        fi
        mkdir "${base%/}/$name" 2>/dev/null || return 1
        echo "${base%/}/$name"
}

cgroup_child_remove() {
        local path=$1
        [ -n "$path" ] && [ -d "$path" ] || return 0
        find "$path" -mindepth 1 -depth -type d -exec rmdir {} + 2>/dev/null
        rmdir "$path" 2>/dev/null || echo "note: $path not removed (still populated?)" >&2
}
