// The working arena one breadth-first call wants, planned before it runs: a
// pure function of the call's shape (roots, depth, the remaining-depth
// thresholds, the growth per level, the position's size) and of the cap, so
// that the device and the host pipeline size their arenas alike and tests
// check the plan without a GPU. The pipeline splits what does not fit.
#pragma once

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "gpu/device_memory.hpp"

namespace perftide::gpu {

// Bytes of one leaf item (parent index + move).
constexpr double LEAF_ITEM_BYTES = sizeof(uint32_t) + sizeof(uint16_t);
// Bytes of one made item: parent index, move, the child with its move count
// and counter, its slot in the child level's prefix sums, and a byte for the
// scan's scratch space.
constexpr double made_item_bytes(std::size_t position_bytes) {
    return double(sizeof(uint32_t) + sizeof(uint16_t) + position_bytes + sizeof(uint32_t) + 2 * sizeof(uint64_t) + 1);
}
// A made item's statistics row (STAT_COUNT 64-bit counts), in statistics runs.
constexpr double ROW_ITEM_BYTES = 14 * sizeof(uint64_t);
// A made item's 128-bit key, and its duplicate link with its share of the
// sort's buffers (two keys, two ids) and scratch.
constexpr double KEY_ITEM_BYTES = 16;
constexpr double DEDUP_ITEM_BYTES = sizeof(uint32_t) + 2 * sizeof(uint64_t) + 2 * sizeof(uint32_t) + 1;
// A root's level arrays: always keyed and linked, with a row in statistics runs.
constexpr double root_item_bytes(std::size_t position_bytes, bool stats) {
    return made_item_bytes(position_bytes) + KEY_ITEM_BYTES + DEDUP_ITEM_BYTES + (stats ? ROW_ITEM_BYTES : 0);
}
// The arena's first part a slice of roots may take (1 / ROOT_SHARE of it).
constexpr double ROOT_SHARE = 8;

// Estimated bytes for one item made from a level at remaining depth r and
// everything below it, when every level below is expanded whole with
// `branching` moves per position, made items take `made_bytes` and levels
// up to `leaf_max` are the fused leaf's. It only sizes chunks; a level below
// that does not fit its share splits again.
inline double subtree_bytes(int r, double branching, double made_bytes, int leaf_max = 3) {
    if (r <= leaf_max) return LEAF_ITEM_BYTES;
    return made_bytes + branching * subtree_bytes(r - 1, branching, made_bytes, leaf_max);
}

struct ArenaInputs {
    uint64_t roots = 0;        // positions the call starts from
    int depth = 0;             // plies below them
    int max_device_depth = 7;  // plies above this are expanded on the host
    double growth = 1;         // positions per position and ply (measured on the roots, or estimated)
    std::size_t position_bytes = 0;
    bool tables = false;      // the call has transposition tables
    bool dedup = false;       // duplicate removal
    bool stats = false;       // the statistics leaf: one more made level, a row per position
    int keyed_min_depth = 3;  // device depths from which levels carry keys (tables, dedup)
    std::size_t cap = 0;      // the most the arena may take (the budget less the tables); 0: none
};

struct ArenaPlan {
    int host_plies = 0, device_depth = 0;
    uint64_t device_roots = 0;    // roots after the host plies (estimated from the growth)
    double made_bytes = 0;        // per made item, keys and links included
    std::size_t root_bytes = 0;   // the roots' level arrays
    std::size_t level_bytes = 0;  // everything below the roots, expanded whole (estimated)
    std::size_t want_bytes = 0;   // root_bytes + level_bytes
    std::size_t arena_bytes = 0;  // allocated: want rounded up to a power of two, MIN_ARENA_BYTES..cap
    uint64_t root_slices = 1;     // runs the roots are split into (each at most 1/ROOT_SHARE of the arena)
    uint64_t chunks = 1;          // estimated chunks below each slice (1: the levels fit whole)
};

inline ArenaPlan plan_arena(const ArenaInputs& in) {
    ArenaPlan p;
    const double g = std::max(1.0, in.growth);
    p.host_plies = std::max(0, in.depth - in.max_device_depth);
    p.device_depth = in.depth - p.host_plies;
    const double roots = double(in.roots) * std::pow(g, p.host_plies);
    p.device_roots = uint64_t(std::min(roots, 1e18));
    const bool keyed = p.device_depth >= in.keyed_min_depth && (in.tables || in.dedup);
    const double row = in.stats ? ROW_ITEM_BYTES : 0;
    p.made_bytes = made_item_bytes(in.position_bytes) + (keyed ? KEY_ITEM_BYTES : 0) +
                   (keyed && in.dedup ? DEDUP_ITEM_BYTES : 0) + row;
    const double root_item = root_item_bytes(in.position_bytes, in.stats);
    const double below =
        p.device_depth <= 1 && !in.stats
            ? 0.0
            : roots * (sizeof(uint64_t) + g * subtree_bytes(p.device_depth, g, p.made_bytes, in.stats ? 2 : 3));
    const double cap = in.cap ? double(in.cap) : 1e18;
    p.root_bytes = std::size_t(std::min(roots * root_item, cap));
    p.level_bytes = std::size_t(std::min(below, cap));
    p.want_bytes = std::size_t(std::min(double(p.root_bytes) + double(p.level_bytes), cap));
    const std::size_t rounded = std::bit_ceil(std::max(p.want_bytes, MIN_ARENA_BYTES));
    p.arena_bytes = in.cap ? std::min(rounded, std::max(in.cap, MIN_ARENA_BYTES)) : rounded;
    const double slice_room = double(p.arena_bytes) / ROOT_SHARE;
    p.root_slices = std::max<uint64_t>(1, uint64_t(std::ceil(roots * root_item / slice_room)));
    const double room = double(p.arena_bytes) - std::min(double(p.root_bytes), slice_room);
    p.chunks = std::max<uint64_t>(1, uint64_t(std::ceil(below / double(p.root_slices) / room)));
    return p;
}

}  // namespace perftide::gpu
