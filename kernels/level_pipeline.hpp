// The host-driven breadth-first perft search, written once over an executor
// that launches the per-item work of level_work.hpp: DeviceExec (CUDA kernels,
// device_exec.cuh) or HostExec (plain loops that model the warps and blocks,
// host_exec.hpp). The executor provides the arena, element reads, uploads,
// for_each, accumulate (warp-segmented sums into counters), generate (block-
// staged move writing) and an exclusive scan.
//
// A level at remaining depth r >= 2 is expanded chunk by chunk:
//   scan its move counts -> each parent's first item; generate the moves and
//   each item's parent index; then either the fused leaf (r <= 3: play the
//   item, count one or two more plies, add into the parent's counter) or make
//   the children with their move counts (the next level), run it, and roll its
//   counters up into the parents'. Chunks are sized from the exact item
//   counts, the level's branching factor and the free arena, so memory never
//   decides the result: a level that does not fit is split (and split again
//   when the levels below turn out bigger than estimated), and when not even
//   one parent's subtree fits the run throws.
//
// Where deeper features plug in: every made level has per-position node
// counters that hold perft(remaining) of each position once its subtree is
// rolled up. A transposition table per remaining depth probes right after a
// level is made (a hit sets the position's move count to 0, so the scan gives
// it no items, and its counter to the stored count, which the roll-up
// carries) and stores after the level's roll-up. Duplicate removal within a
// level does the same for repeated positions (move count 0) and lets the
// roll-up read each duplicate's counter through an index to its kept copy.
#pragma once

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu_perft.hpp"
#include "level_work.hpp"
#include "stack_arena.hpp"

namespace gperft::gpu {

// Items one chunk may hold: parent indices are 32-bit and launch sizes fit an int.
constexpr uint64_t MAX_CHUNK_ITEMS = (uint64_t(1) << 31) - 1;

// Bytes of one leaf item (parent index + move) and of one made item (parent
constexpr double LEAF_ITEM_BYTES = sizeof(uint32_t) + sizeof(uint16_t);
// index, move, the child with its move count and counter, its slot in the
// child level's prefix sums, and a byte for the scan's scratch space).
constexpr double MADE_ITEM_BYTES =
    sizeof(uint32_t) + sizeof(uint16_t) + sizeof(Position) + sizeof(uint32_t) + 2 * sizeof(uint64_t) + 1;

// Estimated bytes for one item made from a level at remaining depth r and
// everything below it, when every level below is expanded whole with
// `branching` moves per position. It only sizes chunks; a level below that
// does not fit its share splits again.
inline double subtree_bytes(int r, double branching) {
    if (r <= 3) return LEAF_ITEM_BYTES;
    return MADE_ITEM_BYTES + branching * subtree_bytes(r - 1, branching);
}

template <class Exec>
class LevelPipeline {
   public:
    LevelPipeline(Exec& exec, Stats& stats, double estimate_scale)
        : exec_(exec), arena_(exec.arena()), stats_(stats), at_(exec.tables()), estimate_scale_(estimate_scale) {}

    // perft(depth) of n roots whose side to move is Us, 1 <= depth <=
    // MAX_DEVICE_DEPTH, into out[0, n).
    template <Color Us>
    void run(const Position* roots, uint64_t n, int depth, uint64_t* out) {
        ArenaScope scope(arena_);
        Level level;
        level.size = n;
        level.pos = arena_.alloc<Position>(n, "root positions");
        level.counts = arena_.alloc<uint32_t>(n, "root move counts");
        level.nodes = arena_.alloc<uint64_t>(n, "root node counters");
        exec_.upload(level.pos, roots, n);
        exec_.for_each(n, CountRoots<Us>{level.pos, level.counts, level.nodes, at_});
        process<Us>(level, depth);
        exec_.check_error("move generation disagreed with move counting");
        exec_.download(out, level.nodes, n);
        ++stats_.batches;
    }

   private:
    template <Color Us>
    void process(const Level& level, int r) {
        if (level.size == 0) return;
        if (r == 1) return exec_.for_each(level.size, CountsAreNodes{level.counts, level.nodes});
        ArenaScope scope(arena_);
        uint64_t* offsets = arena_.alloc<uint64_t>(level.size, "prefix sums");
        const uint64_t total = exec_.exclusive_scan(level.counts, offsets, level.size);
        const double branching = std::max(1.0, double(total) / double(level.size));
        const double per_item = estimate_scale_ * subtree_bytes(r, branching);
        for (uint64_t s = 0; s < level.size;) s = expand_fitting<Us>(level, offsets, total, s, per_item, r);
    }

    // Expands the largest chunk from parent s that the estimate lets fit;
    // when the levels below need more than estimated, retries with half the
    // chunk. A failed chunk has added nothing to this level's counters (they
    // change only after the chunk's subtree is done), so the retry is exact.
    // Returns the end of the chunk expanded.
    template <Color Us>
    uint64_t expand_fitting(const Level& level, const uint64_t* offsets, uint64_t total, uint64_t s,
                            double per_item, int r) {
        for (;; per_item *= 2) {
            const uint64_t e = chunk_end(level, offsets, total, s, per_item);
            try {
                expand<Us>(level, offsets, total, s, e, r);
                return e;
            } catch (const ArenaExhausted&) {
                if (e == s + 1) throw;  // one parent's subtree does not fit: nothing smaller to try
                ++stats_.chunk_retries;
            }
        }
    }

    // Item index of parent e's first move (total for e == size).
    uint64_t item_at(const Level& level, const uint64_t* offsets, uint64_t total, uint64_t e) {
        return e < level.size ? exec_.read(offsets + e) : total;
    }

    // The largest e such that parents [s, e) make a chunk whose items, with
    // their estimated subtrees, fit the free arena; at least s + 1.
    uint64_t chunk_end(const Level& level, const uint64_t* offsets, uint64_t total, uint64_t s, double per_item) {
        constexpr double SLACK = 16 * StackArena::ALIGN;  // padding of the chunk's and the next level's arrays
        const double room = std::max(0.0, double(arena_.free()) - SLACK);
        const uint64_t budget = uint64_t(std::min(double(MAX_CHUNK_ITEMS), room / per_item));
        const uint64_t start = exec_.read(offsets + s);
        if (total - start <= budget) return level.size;
        uint64_t lo = s + 1, hi = level.size;  // item_at(lo) - start fits or lo == s + 1; item_at(hi + 1) does not
        while (lo < hi) {
            const uint64_t mid = lo + (hi - lo + 1) / 2;
            if (item_at(level, offsets, total, mid) - start <= budget)
                lo = mid;
            else
                hi = mid - 1;
        }
        return lo;
    }

    template <Color Us>
    void expand(const Level& level, const uint64_t* offsets, uint64_t total, uint64_t s, uint64_t e, int r) {
        const uint64_t items = item_at(level, offsets, total, e) - exec_.read(offsets + s);
        if (items == 0) return;
        ArenaScope scope(arena_);
        uint32_t* parent = arena_.alloc<uint32_t>(items, "parent indices");
        Level child;
        if (r >= 4) {
            child.size = items;
            child.pos = arena_.alloc<Position>(items, "positions");
            child.counts = arena_.alloc<uint32_t>(items, "move counts");
            child.nodes = arena_.alloc<uint64_t>(items, "node counters");
        }
        const std::size_t moves_mark = arena_.mark();  // the moves are popped once the children exist
        uint16_t* moves = arena_.alloc<uint16_t>(items, "moves");
        exec_.generate(GenerateMoves<Us>{level.pos, level.counts, offsets, s, e - s, items, moves, parent,
                                         exec_.error_flag(), at_});
        if (r <= 3) return leaf<Us>(level, parent, moves, items, r);
        exec_.for_each(items, MakeChildren<Us>{level.pos, parent, moves, child, at_});
        ++stats_.make_launches;
        arena_.release(moves_mark);
        process<~Us>(child, r - 1);
        exec_.accumulate(items, RollUp{parent, child.nodes}, level.nodes);
    }

    template <Color Us>
    void leaf(const Level& level, const uint32_t* parent, const uint16_t* moves, uint64_t items, int r) {
        if (r == 2)
            exec_.accumulate(items, LeafCount<Us, 1>{level.pos, parent, moves, at_}, level.nodes);
        else
            exec_.accumulate(items, LeafCount<Us, 2>{level.pos, parent, moves, at_}, level.nodes);
        ++stats_.leaf_launches;
        stats_.leaf_items += items;
        stats_.max_leaf_items = std::max(stats_.max_leaf_items, items);
    }

    Exec& exec_;
    StackArena& arena_;
    Stats& stats_;
    Attacks at_;
    double estimate_scale_;
};

namespace detail {

// One ply of the batch on the host: every position replaced by its children,
// each keeping its root's index.
inline void expand_on_host(std::vector<Position>& pos, std::vector<uint32_t>& owner) {
    const Attacks at = chess::host_attacks();
    std::vector<Position> next_pos;
    std::vector<uint32_t> next_owner;
    for (std::size_t i = 0; i < pos.size(); ++i) {
        chess::MoveList list;
        chess::generate_moves(pos[i], at, list);
        for (Move m : list) {
            next_pos.push_back(chess::apply_move(pos[i], m));
            next_owner.push_back(owner[i]);
        }
    }
    pos.swap(next_pos);
    owner.swap(next_owner);
}

}  // namespace detail

// perft(depth) of every root on one executor. Plies above
// options.max_device_depth are expanded on the host; the batch runs once per
// side to move (a level has one side to move) in slices whose root arrays
// take at most an eighth of the arena.
template <class Exec>
std::vector<chess::u128> perft_batch_with(Exec& exec, const std::vector<Position>& roots, int depth,
                                          const Options& options, Stats& stats) {
    if (options.max_device_depth < 1 || options.max_device_depth > MAX_DEVICE_DEPTH)
        throw std::invalid_argument("max_device_depth must be 1.." + std::to_string(MAX_DEVICE_DEPTH) + ", not " +
                                    std::to_string(options.max_device_depth));
    if (depth < 0) throw std::invalid_argument("perft depth must be >= 0, not " + std::to_string(depth));
    if (!(options.chunk_estimate_scale > 0))
        throw std::invalid_argument("chunk_estimate_scale must be positive");
    stats = Stats{};
    std::vector<chess::u128> out(roots.size(), depth == 0 ? 1 : 0);
    if (depth == 0 || roots.empty()) return out;

    std::vector<Position> pos = roots;
    std::vector<uint32_t> owner(roots.size());
    std::iota(owner.begin(), owner.end(), 0u);
    for (; depth > options.max_device_depth; --depth, ++stats.host_plies) detail::expand_on_host(pos, owner);

    StackArena& arena = exec.arena();
    arena.reset_peak();
    constexpr double ROOT_BYTES = sizeof(Position) + sizeof(uint32_t) + 2 * sizeof(uint64_t);
    const uint64_t slice = std::max<uint64_t>(1, std::min<double>(MAX_CHUNK_ITEMS, arena.free() / 8 / ROOT_BYTES));
    LevelPipeline<Exec> pipeline(exec, stats, options.chunk_estimate_scale);
    for (const Color us : {chess::WHITE, chess::BLACK}) {
        std::vector<Position> group;
        std::vector<uint32_t> group_owner;
        for (std::size_t i = 0; i < pos.size(); ++i)
            if (pos[i].stm == us) group.push_back(pos[i]), group_owner.push_back(owner[i]);
        std::vector<uint64_t> nodes(group.size());
        for (uint64_t s = 0; s < group.size(); s += slice) {
            const uint64_t n = std::min<uint64_t>(slice, group.size() - s);
            if (us == chess::WHITE)
                pipeline.template run<chess::WHITE>(group.data() + s, n, depth, nodes.data() + s);
            else
                pipeline.template run<chess::BLACK>(group.data() + s, n, depth, nodes.data() + s);
        }
        for (std::size_t i = 0; i < group.size(); ++i) out[group_owner[i]] += nodes[i];
    }
    stats.arena_bytes = arena.capacity();
    stats.peak_arena_bytes = arena.peak();
    return out;
}

}  // namespace gperft::gpu
