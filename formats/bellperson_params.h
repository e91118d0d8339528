/* SPDX-License-Identifier: Apache-2.0 */
/*
 * bellperson Groth16 parameters (.params files, bellperson's
 * Parameters::write), the form Filecoin's proof parameters come in:
 *
 *   the verifying key (bellperson_vk.h)
 *   h     count (u32 big-endian), count G1 points  tau^i Z(tau) / delta
 *   l     count, G1 points   the private wires' (beta u + alpha v + w) / delta
 *   a     count, G1 points   the wires' u(tau)
 *   b_g1  count, G1 points   the wires' v(tau)
 *   b_g2  count, G2 points   the wires' v(tau)
 *
 * Points use the zcash uncompressed encoding (zk/point_encoding.h).
 *
 * The reader maps the file, checks every count against the file size
 * before it decodes any point, then decodes the sections in parallel.
 * Points must be on the curve; the verifying key's points are always
 * checked to be in the subgroup, the others only when asked (it costs about
 * as much again as decoding, and files from a trusted source may skip it).
 *
 * The point at infinity: bellperson's own generator drops it from a, b_g1
 * and b_g2 (wires whose polynomial is zero there) and its reader refuses it
 * everywhere, so its a/b_g1/b_g2 hold fewer points than there are wires and
 * its prover maps wires to points with density bitmaps. cuzk's files (this
 * writer, `cuzk setup`) instead store exactly one point per wire in a,
 * b_g1 and b_g2, infinity included, so that a prover needs no densities.
 * The reader accepts both. bellperson_params_to_pk() takes the former with
 * the circuit's densities (zk/density.h; pce_params_densities gives them
 * for a PCE) and refuses them without (-EOPNOTSUPP). A key with
 * densities is written in bellperson's layout, which bellperson reads;
 * files written here with points at infinity cannot be read back by it.
 *
 * Functions return 0 or a negative errno, logged naming the file:
 * -EBADMSG for malformed data, -EOPNOTSUPP, -EINVAL (arguments the writer
 * cannot write), -ENOMEM, or what open(2) or write(2) said.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bellperson_vk.h"
#include "zk/groth16.h"

struct bellperson_params {
        char *origin; /* the file name, for messages */
        struct bellperson_vk *vk;
        /* The file carried the timing-only marker (bellperson_vk.h): a key
         * for measuring provers; proofs made with it are never valid. */
        bool timing_only;
        uint32_t n_h, n_l, n_a, n_b_g1, n_b_g2;
        /* NULL (whatever the counts) where a sink took them (g1_in_sink). */
        g1_affine_t *h, *l, *a, *b_g1;
        g2_affine_t *b_g2;
        bool g1_in_sink;
};

/* The wires of the key: the constant, the public inputs, the private wires. */
static inline uint64_t bellperson_params_wires(const struct bellperson_params *p) {
        return (uint64_t)p->vk->vk.n_public + 1 + p->n_l;
}

/* Whether a, b_g1 and b_g2 hold a point per wire (cuzk's files), not
 * bellperson's layout (the A and B wires only). */
static inline bool bellperson_params_point_per_wire(const struct bellperson_params *p) {
        const uint64_t wires = bellperson_params_wires(p);
        return p->n_a == wires && p->n_b_g1 == wires && p->n_b_g2 == wires;
}

/* Bytes of a file with these counts (the vk holds n_public + 1 IC points);
 * a timing-only file has BELLPERSON_TIMING_ONLY_MARKER_BYTES more. */
uint64_t bellperson_params_bytes(uint32_t n_public, uint32_t n_h, uint32_t n_l, uint32_t n_a,
                                 uint32_t n_b_g1, uint32_t n_b_g2);

/* The sections after the verifying key, in file order. */
enum bellperson_params_section {
        BELLPERSON_SECTION_H,
        BELLPERSON_SECTION_L,
        BELLPERSON_SECTION_A,
        BELLPERSON_SECTION_B_G1,
        BELLPERSON_SECTION_B_G2,
};
#define BELLPERSON_PARAMS_SECTIONS 5
const char *bellperson_params_section_name(unsigned section);

/* Where a .params file's counts put its sections, as far as a walk got. */
struct bellperson_params_layout {
        uint64_t vk_bytes;   /* the verifying key's, a timing-only marker included */
        unsigned n_sections; /* the sections whose count was read */
        uint32_t count[BELLPERSON_PARAMS_SECTIONS];
        uint64_t offset[BELLPERSON_PARAMS_SECTIONS]; /* of a section's first point */
        /* Where the counts read so far end: after the last section, the size the file should
         * have. After -EBADMSG: past the file's size when section n_sections - 1's points run
         * past it, else the offset of section n_sections's count, which the file cuts. */
        uint64_t end;
};

/* Reads the big-endian u32 at offset (which the walk has checked lies in the file):
 * 0, or a negative errno. */
typedef int (*bellperson_read_count_fn)(void *userdata, uint64_t offset, uint32_t *ret);

/*
 * Walks the section counts of a .params file of size bytes whose verifying key takes
 * vk_bytes (bellperson_vk_measure), touching no point, and logs nothing: the callers say
 * what a refusal means for them. Returns 0 when every section lies in the file (bytes may
 * follow the last: ret->end < size), -EBADMSG when a count or a section runs past the end,
 * or read_count's error. ret is filled as far as the walk got, even on failure.
 */
int bellperson_params_walk(uint64_t size, uint64_t vk_bytes, bellperson_read_count_fn read_count,
                           void *userdata, struct bellperson_params_layout *ret);
/* The same over a file image in memory. */
int bellperson_params_walk_image(const uint8_t *data, size_t size, uint64_t vk_bytes,
                                 struct bellperson_params_layout *ret);

/* Decodes a whole .params image; origin names it in messages. */
int bellperson_params_parse(const uint8_t *data, size_t size, const char *origin,
                            bool check_subgroup, struct bellperson_params **ret);
int bellperson_params_load(const char *path, bool check_subgroup, struct bellperson_params **ret);

/*
 * Takes the G1 sections (h, l, a, b_g1) of a .params file in their file encoding as they
 * are read, in place of host arrays: a GPU backend decodes them on its card, where they
 * stay, so that the host never holds them (a 32 GiB sector's 38 GiB). The loader hands
 * each section over in order, in pieces of at most piece_points (0: 2^20), and drops each
 * piece's pages from the page cache once the sink has it.
 */
#define BELLPERSON_SINK_PIECE_POINTS ((uint64_t)1 << 20)
struct bellperson_g1_sink {
        /* Every count checked, no point read: 1 when the sink takes the G1 sections, 0
         * when they are to be decoded into host memory, or a negative errno (logged). */
        int (*begin)(void *userdata, const struct bellperson_params_layout *layout,
                     uint32_t n_public);
        /* n points of section s (h, l, a or b_g1) from index first, 96 bytes each: 0; 1 with
         * *ret_bad the section's index of the first point it refuses (the loader says
         * why); or a negative errno (logged). */
        int (*put)(void *userdata, enum bellperson_params_section s, uint64_t first,
                   const uint8_t *encoded, uint64_t n, uint64_t *ret_bad);
        void *userdata;
        uint64_t piece_points;
};
/* bellperson_params_load, the G1 sections to sink (NULL: none) where it takes them. A
 * sink checks the curve equation only: with check_subgroup it is not asked. */
int bellperson_params_load_sink(const char *path, bool check_subgroup,
                                const struct bellperson_g1_sink *sink,
                                struct bellperson_params **ret);
struct bellperson_params *bellperson_params_free(struct bellperson_params *p);
static inline void bellperson_params_freep(struct bellperson_params **p) {
        bellperson_params_free(*p);
}

/*
 * Fills a proving key whose arrays borrow p's (p, and the densities, must
 * outlive it): h_convention GROTH16_H_BELLPERSON, n_public = ic count - 1,
 * n_vars = n_public + 1 + l count, and a domain of h count + 1 points,
 * which must be a power of two. a (b_g1 and b_g2) must hold a point per
 * wire when a_density (b_density) is NULL, else one per wire the density
 * sets (-EOPNOTSUPP, -EBADMSG otherwise; -EINVAL for a density of another
 * wire count).
 */
int bellperson_params_to_pk(const struct bellperson_params *p, const struct wire_density *a_density,
                            const struct wire_density *b_density, struct groth16_pk *ret);

/*
 * Writes pk (which must use GROTH16_H_BELLPERSON) and vk (which must agree
 * with pk on n_public, alpha, beta and delta) as a .params file, streamed
 * through a buffer.
 */
int bellperson_params_save(const char *path, const struct groth16_pk *pk,
                           const struct groth16_vk *vk);
/* The same with the timing-only marker first (bellperson_vk.h). */
int bellperson_params_save_timing_only(const char *path, const struct groth16_pk *pk,
                                       const struct groth16_vk *vk);
