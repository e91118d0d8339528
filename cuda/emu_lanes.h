/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The emulation's lanes (for steps launched by gpu_launch_lanes on the
 * device). down(x, d) only ever reads a lane above, so the lanes of a group
 * run one after another from the last to the first, each to its end: every
 * value a lane offers at its j-th exchange is kept, and a lane below reads
 * the one its source offered at the same exchange, as a warp's shuffle
 * would have given it. The very code of the device step runs, lane for
 * lane, on one thread.
 */
#pragma once

#include <errno.h>
#include <stdint.h>
#include <string.h>

#include <vector>

#include "hd.cuh"

namespace cuzk {

/* The values each lane of one group offered, exchange by exchange. */
struct emu_lane_group {
        static constexpr size_t max_value = 512; /* bytes: a G2 XYZZ point is 384 */
        uint32_t width;
        std::vector<std::vector<unsigned char>> offered; /* per lane */
        bool uneven = false; /* a lane exchanged more often than one above it */

        explicit emu_lane_group(uint32_t w) : width(w), offered(w) {
        }
};

struct emu_lanes {
        uint32_t lane;
        emu_lane_group *group;
        uint32_t *exchanges; /* this lane's so far */

        /* host and device as the steps are, to compile; it runs on the host only */
        template <class T> CUZK_HD T down(const T &x, uint32_t d) const {
                static_assert(sizeof(T) <= emu_lane_group::max_value, "a slot holds it");
#ifdef __CUDA_ARCH__
                (void)d;
                return x;
#else
                const size_t at = (size_t)(*exchanges)++ * emu_lane_group::max_value;
                std::vector<unsigned char> &mine = group->offered[lane];
                mine.resize(at + emu_lane_group::max_value);
                memcpy(&mine[at], &x, sizeof(T));
                T r = x;
                if (lane + d >= group->width)
                        return r;
                const std::vector<unsigned char> &source = group->offered[lane + d];
                if (source.size() < at + sizeof(T))
                        group->uneven = true; /* not every lane called down alike */
                else
                        memcpy(&r, &source[at], sizeof(T));
                return r;
#endif
        }
};

/* step(i, lanes) for i < count, in groups of width lanes. */
template <class Step> int emu_launch_lanes(const Step &step, uint64_t count, uint32_t width) {
        if (width == 0 || width > 32 || (width & (width - 1)) || count % width)
                return -EINVAL;
        for (uint64_t first = 0; first < count; first += width) {
                emu_lane_group group(width);
                for (uint32_t lane = width; lane-- > 0;) {
                        uint32_t exchanges = 0;
                        step(first + lane, emu_lanes{lane, &group, &exchanges});
                }
                if (group.uneven)
                        return -EPROTO;
        }
        return 0;
}

} // namespace cuzk
