/* SPDX-License-Identifier: Apache-2.0 */
#include "bellperson_params.h"

#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bellperson_io.h"
#include "common/cleanup.h"
#include "common/log.h"
#include "zk/big_alloc.h"
#include "zk/point_encoding.h"
#include "zk/zk_error.h"

#define N_SECTIONS BELLPERSON_PARAMS_SECTIONS
typedef enum bellperson_params_section params_section_t;

static const char *const section_names[N_SECTIONS] = {"h", "l", "a", "b_g1", "b_g2"};
static const uint64_t section_point_bytes[N_SECTIONS] = {
        G1_UNCOMPRESSED_BYTES, G1_UNCOMPRESSED_BYTES, G1_UNCOMPRESSED_BYTES,
        G1_UNCOMPRESSED_BYTES, G2_UNCOMPRESSED_BYTES,
};

const char *bellperson_params_section_name(unsigned section) {
        assert(section < N_SECTIONS);
        return section_names[section];
}

uint64_t bellperson_params_bytes(uint32_t n_public, uint32_t n_h, uint32_t n_l, uint32_t n_a,
                                 uint32_t n_b_g1, uint32_t n_b_g2) {
        const uint32_t counts[N_SECTIONS] = {n_h, n_l, n_a, n_b_g1, n_b_g2};
        uint64_t bytes = bellperson_vk_bytes(n_public);

        for (int s = 0; s < N_SECTIONS; s++)
                bytes += 4 + counts[s] * section_point_bytes[s];
        return bytes;
}

int bellperson_params_walk(uint64_t size, uint64_t vk_bytes, bellperson_read_count_fn read_count,
                           void *userdata, struct bellperson_params_layout *ret) {
        uint64_t pos = vk_bytes;
        int r;

        assert(read_count);
        assert(ret);

        *ret = (struct bellperson_params_layout){.vk_bytes = vk_bytes, .end = pos};
        for (unsigned s = 0; s < N_SECTIONS; s++) {
                uint64_t need;

                if (pos > size || size - pos < 4)
                        return -EBADMSG;
                r = read_count(userdata, pos, &ret->count[s]);
                if (r < 0)
                        return r;
                ret->n_sections = s + 1;
                pos += 4;
                ret->offset[s] = pos;
                /* At most 2^32 * 192: no overflow. */
                need = ret->count[s] * section_point_bytes[s];
                ret->end = pos + need;
                if (need > size - pos)
                        return -EBADMSG;
                pos += need;
        }
        return 0;
}

static int read_count_in_image(void *userdata, uint64_t offset, uint32_t *ret) {
        const uint8_t *data = userdata;

        *ret = bellperson_be32(data + offset);
        return 0;
}

int bellperson_params_walk_image(const uint8_t *data, size_t size, uint64_t vk_bytes,
                                 struct bellperson_params_layout *ret) {
        assert(data || size == 0);
        /* The walk reads no count past size. */
        return bellperson_params_walk(size, vk_bytes, read_count_in_image, (void *)data, ret);
}

/* Walks the counts against the size; touches no point. */
static int params_measure(const uint8_t *data, size_t size, const char *origin,
                          struct bellperson_params_layout *ret) {
        struct bellperson_params_layout layout;
        uint64_t vk_bytes;
        int r;

        r = bellperson_vk_measure(data, size, origin, &vk_bytes);
        if (r < 0)
                return r;
        r = bellperson_params_walk_image(data, size, vk_bytes, &layout);
        if (r < 0 && layout.end <= size)
                return log_error_errno(EBADMSG,
                                       "%s: truncated: %s count at offset %" PRIu64
                                       " needs 4 bytes, the file has %zu bytes",
                                       origin, section_names[layout.n_sections], layout.end, size);
        if (r < 0) {
                unsigned s = layout.n_sections - 1;

                return log_error_errno(EBADMSG,
                                       "%s: %s section: count %" PRIu32 " needs %" PRIu64
                                       " bytes at offset %" PRIu64 ", the file has %zu bytes",
                                       origin, section_names[s], layout.count[s],
                                       layout.end - layout.offset[s], layout.offset[s], size);
        }
        if (layout.end != size)
                return log_error_errno(EBADMSG,
                                       "%s: %" PRIu64
                                       " bytes after the b_g2 section, expected none (the file "
                                       "has %zu bytes, its counts account for %" PRIu64 ")",
                                       origin, size - layout.end, size, layout.end);
        *ret = layout;
        return 0;
}

static int bad_point(const struct bellperson_params *p,
                     const struct bellperson_params_layout *layout, params_section_t s,
                     uint64_t bad, int zk_error) {
        return log_error_errno(
                EBADMSG,
                "%s: %s section: point %" PRIu64 " of %" PRIu32 " (offset %" PRIu64 "): %s",
                p->origin, section_names[s], bad, layout->count[s],
                layout->offset[s] + bad * section_point_bytes[s], zk_strerror(zk_error));
}

static int decode_section(struct bellperson_params *p, const uint8_t *data,
                          const struct bellperson_params_layout *layout, params_section_t s,
                          unsigned flags, void **ret) {
        uint64_t n = layout->count[s], bad = 0;
        size_t element = s == BELLPERSON_SECTION_B_G2 ? sizeof(g2_affine_t) : sizeof(g1_affine_t);
        const uint8_t *in = data + layout->offset[s];
        _cleanup_free_ void *points = NULL;
        int r;

        /* One element even for an empty section, so that NULL always means failure. */
        points = big_alloc((n ? n : 1) * element);
        if (!points)
                return log_error_errno(ENOMEM, "%s: out of memory for %" PRIu64 " %s points",
                                       p->origin, n, section_names[s]);
        if (s == BELLPERSON_SECTION_B_G2)
                r = bellperson_decode_g2_points(points, in, n, flags, &bad);
        else
                r = bellperson_decode_g1_points(points, in, n, flags, &bad);
        if (r < 0)
                return bad_point(p, layout, s, bad, r);
        *ret = TAKE_PTR(points);
        return 0;
}

/* Section s to the sink in pieces, each piece's pages dropped once the sink has it (map:
 * the file's mapping; NULL for an image in memory). */
static int sink_section(struct bellperson_params *p, const uint8_t *data,
                        const struct bellperson_params_layout *layout, params_section_t s,
                        unsigned flags, const struct bellperson_g1_sink *sink,
                        const struct bellperson_map *map) {
        const uint64_t n = layout->count[s], bytes = section_point_bytes[s];
        const uint64_t piece =
                sink->piece_points ? sink->piece_points : BELLPERSON_SINK_PIECE_POINTS;

        for (uint64_t first = 0; first < n; first += piece) {
                const uint64_t k = n - first < piece ? n - first : piece;
                const uint8_t *in = data + layout->offset[s] + first * bytes;
                uint64_t bad = 0;
                g1_affine_t point;
                int r;

                /* The next piece read from the disk while this one crosses to the sink. */
                if (map && first + k < n) {
                        const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE),
                                        next = (uintptr_t)(in + k * bytes);
                        (void)madvise((void *)(next - next % page), k * bytes + next % page,
                                      MADV_WILLNEED);
                }
                r = sink->put(sink->userdata, s, first, in, k, &bad);
                if (r < 0)
                        return r;
                if (r > 0) {
                        assert(bad >= first && bad < first + k);
                        r = bellperson_decode_g1_points(&point,
                                                        data + layout->offset[s] + bad * bytes, 1,
                                                        flags, &(uint64_t){0});
                        /* The host decoder's reason; the sink's word where it disagrees. */
                        return bad_point(p, layout, s, bad, r < 0 ? r : -ZK_E_NOT_ON_CURVE);
                }
                if (map)
                        bellperson_map_drop(map, p->origin, layout->offset[s] + first * bytes,
                                            k * bytes);
        }
        return 0;
}

/* bellperson_params_parse, dropping each section's pages of `map` (the mapping of the file
 * origin names; NULL for an image in memory) once its points are decoded. */
static int params_parse(const uint8_t *data, size_t size, const char *origin, bool check_subgroup,
                        const struct bellperson_map *map, const struct bellperson_g1_sink *sink,
                        struct bellperson_params **ret) {
        _cleanup_(bellperson_params_freep) struct bellperson_params *p = NULL;
        _cleanup_free_ char *origin_copy = NULL;
        const unsigned flags = check_subgroup ? 0 : POINT_DECODE_SKIP_SUBGROUP_CHECK;
        struct bellperson_params_layout layout;
        void **arrays[N_SECTIONS];
        uint64_t vk_bytes;
        int r;

        assert(data || size == 0);
        assert(origin);
        assert(ret);

        r = params_measure(data, size, origin, &layout);
        if (r < 0)
                return r;

        origin_copy = strdup(origin);
        p = calloc(1, sizeof(*p));
        if (!origin_copy || !p)
                return log_error_errno(ENOMEM, "%s: out of memory", origin);
        p->origin = TAKE_PTR(origin_copy);

        r = bellperson_vk_parse(data, size, origin, &vk_bytes, &p->vk);
        if (r < 0)
                return r;
        assert(vk_bytes == layout.vk_bytes);
        p->timing_only = p->vk->timing_only;

        arrays[BELLPERSON_SECTION_H] = (void **)&p->h;
        arrays[BELLPERSON_SECTION_L] = (void **)&p->l;
        arrays[BELLPERSON_SECTION_A] = (void **)&p->a;
        arrays[BELLPERSON_SECTION_B_G1] = (void **)&p->b_g1;
        arrays[BELLPERSON_SECTION_B_G2] = (void **)&p->b_g2;
        if (sink && !check_subgroup) {
                r = sink->begin(sink->userdata, &layout, p->vk->vk.n_public);
                if (r < 0)
                        return r;
                p->g1_in_sink = r > 0;
        }
        for (int s = 0; s < N_SECTIONS; s++) {
                if (p->g1_in_sink && s != BELLPERSON_SECTION_B_G2) {
                        r = sink_section(p, data, &layout, s, flags, sink, map);
                        if (r < 0)
                                return r;
                        continue;
                }
                r = decode_section(p, data, &layout, s, flags, arrays[s]);
                if (r < 0)
                        return r;
                if (map)
                        bellperson_map_drop(map, origin, layout.offset[s],
                                            layout.count[s] * section_point_bytes[s]);
        }
        p->n_h = layout.count[BELLPERSON_SECTION_H];
        p->n_l = layout.count[BELLPERSON_SECTION_L];
        p->n_a = layout.count[BELLPERSON_SECTION_A];
        p->n_b_g1 = layout.count[BELLPERSON_SECTION_B_G1];
        p->n_b_g2 = layout.count[BELLPERSON_SECTION_B_G2];

        *ret = TAKE_PTR(p);
        return 0;
}

int bellperson_params_parse(const uint8_t *data, size_t size, const char *origin,
                            bool check_subgroup, struct bellperson_params **ret) {
        return params_parse(data, size, origin, check_subgroup, NULL, NULL, ret);
}

/* The file's pages go as its sections are decoded: memory.peak counts page cache, and a
 * 32 GiB sector's 47 GB file read into the key's own memory would otherwise double the
 * load's peak in the prover's cgroup. */
int bellperson_params_load_sink(const char *path, bool check_subgroup,
                                const struct bellperson_g1_sink *sink,
                                struct bellperson_params **ret) {
        _cleanup_(bellperson_unmap_file) struct bellperson_map map = {0};
        int r;

        assert(path);
        r = bellperson_map_file(path, &map);
        if (r < 0)
                return r;
        r = params_parse(map.data, map.size, path, check_subgroup, &map, sink, ret);
        bellperson_map_drop(&map, path, 0, map.size);
        return r;
}

int bellperson_params_load(const char *path, bool check_subgroup, struct bellperson_params **ret) {
        return bellperson_params_load_sink(path, check_subgroup, NULL, ret);
}

struct bellperson_params *bellperson_params_free(struct bellperson_params *p) {
        if (!p)
                return NULL;
        bellperson_vk_free(p->vk);
        free(p->h);
        free(p->l);
        free(p->a);
        free(p->b_g1);
        free(p->b_g2);
        free(p->origin);
        free(p);
        return NULL;
}

/* A per-wire array's point count against the wires, or the density's. */
static int check_wire_points(const struct bellperson_params *p, const char *name, uint32_t count,
                             uint64_t n_vars, const struct wire_density *d, const char *what) {
        if (!d) {
                if (count == n_vars)
                        return 0;
                return log_error_errno(EOPNOTSUPP,
                                       "%s: %s has %" PRIu32
                                       " points, expected one per wire: %" PRIu64
                                       "; bellperson's generator leaves out points at infinity, "
                                       "and proving with this file needs the circuit's %s "
                                       "density",
                                       p->origin, name, count, n_vars, what);
        }
        if (d->n_wires != n_vars)
                return log_error_errno(EINVAL,
                                       "%s: the circuit's %s density covers %zu wires, the file "
                                       "has %" PRIu64,
                                       p->origin, what, d->n_wires, n_vars);
        if (d->count != count)
                return log_error_errno(EBADMSG,
                                       "%s: %s has %" PRIu32 " points, expected %zu: the wires "
                                       "in the circuit's %s density (a file for another circuit?)",
                                       p->origin, name, count, d->count, what);
        return 0;
}

int bellperson_params_to_pk(const struct bellperson_params *p, const struct wire_density *a_density,
                            const struct wire_density *b_density, struct groth16_pk *ret) {
        uint64_t n_public, n_vars, domain_size;
        unsigned log_domain_size = 0;
        int r;

        assert(p);
        assert(p->vk);
        assert(ret);

        n_public = p->vk->vk.n_public;
        n_vars = bellperson_params_wires(p);
        if ((r = check_wire_points(p, "a", p->n_a, n_vars, a_density, "A")) < 0 ||
            (r = check_wire_points(p, "b_g1", p->n_b_g1, n_vars, b_density, "B")) < 0 ||
            (r = check_wire_points(p, "b_g2", p->n_b_g2, n_vars, b_density, "B")) < 0)
                return r;

        domain_size = (uint64_t)p->n_h + 1;
        if (domain_size & (domain_size - 1))
                return log_error_errno(EBADMSG,
                                       "%s: h has %" PRIu32
                                       " points, expected a power of two minus one (the domain "
                                       "size minus one)",
                                       p->origin, p->n_h);
        while (((uint64_t)1 << log_domain_size) < domain_size)
                log_domain_size++;
        /* bellperson binds each input (and the constant) with a constraint of its own. */
        if (domain_size < n_public + 1)
                return log_error_errno(EBADMSG,
                                       "%s: a domain of %" PRIu64 " points cannot hold the %" PRIu64
                                       " input constraints",
                                       p->origin, domain_size, n_public + 1);
        assert(groth16_h_bases(GROTH16_H_BELLPERSON, log_domain_size) == p->n_h);

        *ret = (struct groth16_pk){
                .h_convention = GROTH16_H_BELLPERSON,
                .n_vars = n_vars,
                .n_public = n_public,
                .log_domain_size = log_domain_size,
                .alpha1 = p->vk->vk.alpha1,
                .beta1 = p->vk->beta1,
                .delta1 = p->vk->delta1,
                .beta2 = p->vk->vk.beta2,
                .delta2 = p->vk->vk.delta2,
                .a = p->a,
                .b1 = p->b_g1,
                .b2 = p->b_g2,
                .l = p->l,
                .h = p->h,
                .a_density = a_density,
                .b_density = b_density,
        };
        return 0;
}

/* Refuses what cannot be written, before a file is created. */
static int check_writable(const char *path, const struct groth16_pk *pk,
                          const struct groth16_vk *vk) {
        if (pk->h_convention != GROTH16_H_BELLPERSON)
                return log_error_errno(EINVAL,
                                       "%s: the proving key's H bases follow snarkjs's "
                                       "convention, bellperson parameters need bellperson's",
                                       path);
        if (vk->n_public != pk->n_public || !g1_affine_equal(&vk->alpha1, &pk->alpha1) ||
            !g2_affine_equal(&vk->beta2, &pk->beta2) || !g2_affine_equal(&vk->delta2, &pk->delta2))
                return log_error_errno(EINVAL,
                                       "%s: the verifying key does not belong to the proving "
                                       "key (n_public, alpha, beta or delta differ)",
                                       path);
        if (pk->n_public >= UINT32_MAX || pk->n_vars < pk->n_public + 1 || pk->n_vars > UINT32_MAX)
                return log_error_errno(EINVAL,
                                       "%s: %zu wires with %zu public inputs do not fit the "
                                       "format's u32 counts",
                                       path, pk->n_vars, pk->n_public);
        if (pk->log_domain_size > FR_TWO_ADICITY)
                return log_error_errno(EINVAL, "%s: a domain of 2^%u points is too large", path,
                                       pk->log_domain_size);
        if (groth16_pk_check_density(pk) < 0)
                return log_error_errno(EINVAL, "%s: the key's density does not cover its %zu wires",
                                       path, pk->n_vars);
        return 0;
}

static int params_save(const char *path, const struct groth16_pk *pk, const struct groth16_vk *vk,
                       bool timing_only) {
        _cleanup_(bellperson_writer_freep) struct bellperson_writer *w = NULL;
        size_t n_h, n_l, n_a, n_b;
        int r;

        assert(path);
        assert(pk);
        assert(vk);

        r = check_writable(path, pk, vk);
        if (r < 0)
                return r;
        n_h = groth16_h_bases(pk->h_convention, pk->log_domain_size);
        n_l = pk->n_vars - pk->n_public - 1;
        /* With a density, only the set wires' points (bellperson's layout). */
        n_a = groth16_pk_a_points(pk);
        n_b = groth16_pk_b_points(pk);

        r = bellperson_writer_open(path, &w);
        if (r < 0)
                return r;
        if (timing_only) {
                r = bellperson_write_timing_only_marker(w);
                if (r < 0)
                        return r;
        }
        r = bellperson_vk_write(w, vk, &pk->beta1, &pk->delta1);
        if (r < 0)
                return r;

        r = bellperson_write_u32(w, (uint32_t)n_h);
        if (r < 0)
                return r;
        r = bellperson_write_g1_points(w, pk->h, n_h);
        if (r < 0)
                return r;
        r = bellperson_write_u32(w, (uint32_t)n_l);
        if (r < 0)
                return r;
        r = bellperson_write_g1_points(w, pk->l, n_l);
        if (r < 0)
                return r;
        r = bellperson_write_u32(w, (uint32_t)n_a);
        if (r < 0)
                return r;
        r = bellperson_write_g1_points(w, pk->a, n_a);
        if (r < 0)
                return r;
        r = bellperson_write_u32(w, (uint32_t)n_b);
        if (r < 0)
                return r;
        r = bellperson_write_g1_points(w, pk->b1, n_b);
        if (r < 0)
                return r;
        r = bellperson_write_u32(w, (uint32_t)n_b);
        if (r < 0)
                return r;
        r = bellperson_write_g2_points(w, pk->b2, n_b);
        if (r < 0)
                return r;

        return bellperson_writer_finish(w);
}

int bellperson_params_save(const char *path, const struct groth16_pk *pk,
                           const struct groth16_vk *vk) {
        return params_save(path, pk, vk, false);
}

int bellperson_params_save_timing_only(const char *path, const struct groth16_pk *pk,
                                       const struct groth16_vk *vk) {
        return params_save(path, pk, vk, true);
}
