/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What the bellperson .params and .vk readers and writers share: a
 * read-only mapping of a file, arrays of points in the zcash uncompressed
 * encoding (zk/point_encoding.h) decoded in parallel, and a buffered writer
 * that encodes points in parallel and gives the file its name only once it
 * is complete (a crash never leaves a truncated parameter file behind).
 * Integers in these files are big-endian.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "zk/g1.h"
#include "zk/g2.h"

struct bellperson_map {
        const uint8_t *data; /* NULL for an empty file */
        size_t size;
};

/* Maps a regular file read-only. Returns 0 or a negative errno (logged). */
int bellperson_map_file(const char *path, struct bellperson_map *ret);
/* Unmaps m, if mapped, and clears it: usable as
 * _cleanup_(bellperson_unmap_file) struct bellperson_map map = {0}; */
void bellperson_unmap_file(struct bellperson_map *m);

/* Lets go of the pages of [offset, offset + len) of m, the mapping of path: out of this
 * process's mapping, then (advice: pages that another process maps or that are dirty
 * stay) out of the page cache, where they would stay charged to the reader's memory
 * cgroup. For a file read once into memory of its own, such as a 47 GB .params file. */
void bellperson_map_drop(const struct bellperson_map *m, const char *path, uint64_t offset,
                         uint64_t len);

/* A parser of a whole file image; origin names it in messages. */
typedef int (*bellperson_parse_fn)(const uint8_t *data, size_t size, const char *origin, void *ret);
/* Maps path, parses it with parse (origin: path) into ret, and unmaps it: for what
 * keeps nothing of the mapping. Returns parse's result or the mapping's error (logged). */
int bellperson_load_file(const char *path, bellperson_parse_fn parse, void *ret);

static inline uint32_t bellperson_be32(const uint8_t *p) {
        return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/*
 * Decodes n uncompressed points (infinity allowed) from in into out, in
 * parallel when n is large. flags as for g1_decode(). Returns 0, or the
 * zk_error_t of the first bad point, whose index goes to *ret_bad_index.
 */
int bellperson_decode_g1_points(g1_affine_t *out, const uint8_t *in, uint64_t n, unsigned flags,
                                uint64_t *ret_bad_index);
int bellperson_decode_g2_points(g2_affine_t *out, const uint8_t *in, uint64_t n, unsigned flags,
                                uint64_t *ret_bad_index);

/*
 * The writer: data goes to a temporary file beside path, which
 * bellperson_writer_finish() syncs and renames to path; freeing an
 * unfinished writer deletes the temporary file. All functions return 0 or
 * a negative errno, logged with the path.
 */
struct bellperson_writer;

int bellperson_writer_open(const char *path, struct bellperson_writer **ret);
int bellperson_write_u32(struct bellperson_writer *w, uint32_t v);
int bellperson_write_g1_points(struct bellperson_writer *w, const g1_affine_t *p, uint64_t n);
int bellperson_write_g2_points(struct bellperson_writer *w, const g2_affine_t *p, uint64_t n);
int bellperson_writer_finish(struct bellperson_writer *w);
struct bellperson_writer *bellperson_writer_free(struct bellperson_writer *w);
static inline void bellperson_writer_freep(struct bellperson_writer **w) {
        bellperson_writer_free(*w);
}
