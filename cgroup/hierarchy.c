/* SPDX-License-Identifier: Apache-2.0 */
#include "hierarchy.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cgroup/cg-files.h"
#include "common/cleanup.h"
#include "common/log.h"

/* Mount points we remember: the first cgroup2 mount and the first v1 mount with memory. */
typedef struct mount_found {
        char root[PATH_MAX];  /* the subtree of the hierarchy mounted there */
        char point[PATH_MAX]; /* where it is mounted */
        bool found;
} mount_found_t;

const char *cg_hierarchy_kind_name(cg_hierarchy_kind_t kind) {
        switch (kind) {
        case CG_HIERARCHY_V2:
                return "cgroup v2";
        case CG_HIERARCHY_V1_MEMORY:
                return "cgroup v1 memory";
        case CG_HIERARCHY_NONE:
                break;
        }
        return "none";
}

/* Whether a separator-delimited list contains word exactly. */
static bool list_contains(const char *list, size_t list_len, const char *separators,
                          const char *word) {
        size_t word_len = strlen(word);
        size_t i = 0;

        while (i < list_len) {
                size_t n = strcspn(list + i, separators);
                if (i + n > list_len)
                        n = list_len - i;
                if (n == word_len && memcmp(list + i, word, n) == 0)
                        return true;
                i += n + 1;
        }
        return false;
}

bool cg_controller_listed(const char *list, const char *controller) {
        assert(list);
        assert(controller);
        return list_contains(list, strlen(list), " \n", controller);
}

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static int unescape_octal(const char *in, size_t len, char *out, size_t size) {
        size_t o = 0;

        for (size_t i = 0; i < len; i++) {
                char c = in[i];
                if (c == '\\' && i + 3 < len) {
                        const char *d = in + i + 1;
                        if (d[0] >= '0' && d[0] <= '3' && d[1] >= '0' && d[1] <= '7' &&
                            d[2] >= '0' && d[2] <= '7') {
                                c = (char)((d[0] - '0') * 64 + (d[1] - '0') * 8 + (d[2] - '0'));
                                i += 3;
                        }
                }
                if (o + 1 >= size)
                        return -ENAMETOOLONG;
                out[o++] = c;
        }
        out[o] = '\0';
        return 0;
}

/* Splits one mountinfo line into its fields; returns false for lines we cannot read. */
static bool mountinfo_fields(const char *line, size_t len, const char *field[], size_t field_len[],
                             size_t n_fields, const char **fstype, size_t *fstype_len,
                             const char **superopts, size_t *superopts_len) {
        const char *p = line, *end = line + len;
        size_t n = 0;
        bool after_separator = false;
        size_t after = 0;

        while (p < end) {
                const char *start;
                while (p < end && *p == ' ')
                        p++;
                if (p == end)
                        break;
                start = p;
                while (p < end && *p != ' ')
                        p++;
                if (!after_separator) {
                        if (p - start == 1 && *start == '-' && n >= 6) {
                                after_separator = true;
                                continue;
                        }
                        if (n < n_fields) {
                                field[n] = start;
                                field_len[n] = (size_t)(p - start);
                        }
                        n++;
                } else {
                        if (after == 0) {
                                *fstype = start;
                                *fstype_len = (size_t)(p - start);
                        } else if (after == 2) {
                                *superopts = start;
                                *superopts_len = (size_t)(p - start);
                        }
                        after++;
                }
        }
        return after_separator && n >= n_fields && after >= 3;
}

static int remember_mount(mount_found_t *m, const char *root, size_t root_len, const char *point,
                          size_t point_len) {
        int r;

        if (m->found)
                return 0;
        r = unescape_octal(root, root_len, m->root, sizeof(m->root));
        if (r < 0)
                return r;
        r = unescape_octal(point, point_len, m->point, sizeof(m->point));
        if (r < 0)
                return r;
        m->found = true;
        return 0;
}

static int parse_mountinfo(const char *mountinfo, mount_found_t *v2, mount_found_t *v1_memory) {
        const char *line = mountinfo;

        while (*line) {
                const char *nl = strchr(line, '\n');
                size_t len = nl ? (size_t)(nl - line) : strlen(line);
                /* ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS [optional...] - FSTYPE SOURCE SUPER */
                const char *field[6], *fstype = NULL, *superopts = NULL;
                size_t field_len[6], fstype_len = 0, superopts_len = 0;
                int r = 0;

                if (len > 0 && !mountinfo_fields(line, len, field, field_len, 6, &fstype,
                                                 &fstype_len, &superopts, &superopts_len))
                        return log_error_errno(EBADMSG, "Malformed mountinfo line: %.*s", (int)len,
                                               line);
                if (len > 0 && fstype_len == 7 && memcmp(fstype, "cgroup2", 7) == 0)
                        r = remember_mount(v2, field[3], field_len[3], field[4], field_len[4]);
                else if (len > 0 && fstype_len == 6 && memcmp(fstype, "cgroup", 6) == 0 &&
                         list_contains(superopts, superopts_len, ",", "memory"))
                        r = remember_mount(v1_memory, field[3], field_len[3], field[4],
                                           field_len[4]);
                if (r < 0)
                        return log_error_errno(r, "Mount path too long in mountinfo: %.*s",
                                               (int)len, line);
                line += len;
                if (*line == '\n')
                        line++;
        }
        return 0;
}

/* Finds our path for a hierarchy in /proc/self/cgroup: "0::" for v2, or the line whose
 * controller list holds controller. */
static int find_proc_cgroup_path(const char *proc_self_cgroup, const char *controller, char *out,
                                 size_t size) {
        const char *line = proc_self_cgroup;

        while (*line) {
                const char *nl = strchr(line, '\n');
                size_t len = nl ? (size_t)(nl - line) : strlen(line);
                const char *c1 = memchr(line, ':', len);
                const char *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - line)) : NULL;

                if (len > 0 && !c2)
                        return log_error_errno(EBADMSG, "Malformed /proc/self/cgroup line: %.*s",
                                               (int)len, line);
                if (len > 0) {
                        const char *controllers = c1 + 1;
                        size_t controllers_len = (size_t)(c2 - controllers);
                        bool match = controller ? list_contains(controllers, controllers_len, ",",
                                                                controller)
                                                : (c1 - line == 1 && line[0] == '0' &&
                                                   controllers_len == 0);
                        if (match) {
                                size_t path_len = len - (size_t)(c2 + 1 - line);
                                if (path_len + 1 > size)
                                        return -ENAMETOOLONG;
                                memcpy(out, c2 + 1, path_len);
                                out[path_len] = '\0';
                                return 1;
                        }
                }
                line += len;
                if (*line == '\n')
                        line++;
        }
        return 0;
}

/* Joins mount point and our path below the mount's root into dir. */
static int cgroup_dir(const mount_found_t *m, const char *path, char *dir, size_t size) {
        const char *rest = path;
        size_t root_len = strlen(m->root);
        int n;

        /* A mount of a subtree (root "/a/b") shows our path "/a/b/c" as "<point>/c". */
        if (strcmp(m->root, "/") != 0) {
                if (strncmp(path, m->root, root_len) != 0 ||
                    (path[root_len] != '\0' && path[root_len] != '/'))
                        return log_error_errno(ENOENT,
                                               "Our cgroup %s lies outside the subtree %s "
                                               "mounted at %s",
                                               path, m->root, m->point);
                rest = path + root_len;
        }
        if (strcmp(rest, "/") == 0)
                rest = "";
        n = snprintf(dir, size, "%s%s", m->point, rest);
        if (n < 0 || (size_t)n >= size)
                return log_error_errno(ENAMETOOLONG, "cgroup path too long: %s%s", m->point, rest);
        return 0;
}

int cg_hierarchy_parse(const char *mountinfo, const char *proc_self_cgroup,
                       const char *v2_controllers, cg_hierarchy_t *ret) {
        mount_found_t v2 = {0}, v1_memory = {0};
        char path[PATH_MAX];
        int r;

        assert(mountinfo);
        assert(proc_self_cgroup);
        assert(ret);

        *ret = (cg_hierarchy_t){.kind = CG_HIERARCHY_NONE};
        r = parse_mountinfo(mountinfo, &v2, &v1_memory);
        if (r < 0)
                return r;

        if (v2.found) {
                r = find_proc_cgroup_path(proc_self_cgroup, NULL, path, sizeof(path));
                if (r < 0)
                        return r;
                if (r > 0) {
                        r = cgroup_dir(&v2, path, ret->v2_dir, sizeof(ret->v2_dir));
                        if (r < 0)
                                return r;
                        /* v2_dir starts with the mount point, so it fits. */
                        snprintf(ret->v2_mount, sizeof(ret->v2_mount), "%s", v2.point);
                }
        }
        if (v1_memory.found) {
                r = find_proc_cgroup_path(proc_self_cgroup, "memory", path, sizeof(path));
                if (r < 0)
                        return r;
                if (r > 0) {
                        r = cgroup_dir(&v1_memory, path, ret->v1_memory_dir,
                                       sizeof(ret->v1_memory_dir));
                        if (r < 0)
                                return r;
                }
        }

        /* A controller is bound to one hierarchy at a time, so at most one of these holds. */
        if (ret->v2_dir[0] && v2_controllers && cg_controller_listed(v2_controllers, "memory"))
                ret->kind = CG_HIERARCHY_V2;
        else if (ret->v1_memory_dir[0])
                ret->kind = CG_HIERARCHY_V1_MEMORY;
        return 0;
}

/* Reads a /proc text file whole into buf. */
static int read_proc_text(const char *path, char *buf, size_t size) {
        return cg_read_string(AT_FDCWD, path, buf, size);
}

int cg_hierarchy_detect(cg_hierarchy_t *ret) {
        /* mountinfo can be long on container hosts; this runs once at start-up. */
        _cleanup_free_ char *mountinfo = NULL;
        char proc_cgroup[8192], controllers[1024];
        const size_t mountinfo_size = 1 << 20;
        _cleanup_close_ int dirfd = -EBADF;
        const char *v2_controllers = NULL;
        cg_hierarchy_t parsed;
        int r;

        assert(ret);

        mountinfo = malloc(mountinfo_size);
        if (!mountinfo)
                return log_error_errno(ENOMEM, "Out of memory reading /proc/self/mountinfo");
        r = read_proc_text("/proc/self/mountinfo", mountinfo, mountinfo_size);
        if (r < 0)
                return r;
        r = read_proc_text("/proc/self/cgroup", proc_cgroup, sizeof(proc_cgroup));
        if (r < 0)
                return r;
        /* First pass finds our v2 directory, whose cgroup.controllers decides v2. */
        r = cg_hierarchy_parse(mountinfo, proc_cgroup, NULL, &parsed);
        if (r < 0)
                return r;
        if (parsed.v2_dir[0]) {
                dirfd = open(parsed.v2_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
                if (dirfd < 0)
                        return log_error_errno(errno, "Failed to open our cgroup %s: %m",
                                               parsed.v2_dir);
                r = cg_read_string(dirfd, "cgroup.controllers", controllers, sizeof(controllers));
                if (r >= 0)
                        v2_controllers = controllers;
        }
        r = cg_hierarchy_parse(mountinfo, proc_cgroup, v2_controllers, ret);
        if (r < 0)
                return r;
        log_debug("cgroup hierarchy: %s (v2 %s, v1 memory %s)", cg_hierarchy_kind_name(ret->kind),
                  ret->v2_dir[0] ? ret->v2_dir : "-",
                  ret->v1_memory_dir[0] ? ret->v1_memory_dir : "-");
        return 0;
}
