// The host-driven breadth-first perft search, written once over an executor
// that launches the per-item work of level_work.hpp: DeviceExec (CUDA kernels,
// device_exec.cuh) or HostExec (plain loops that model the warps and blocks,
// host_exec.hpp). The executor provides the arena, element reads, uploads,
// for_each, accumulate (warp-segmented sums into counters), generate (block-
// staged move writing), an exclusive scan, a stable key sort, a max-scan and
// block-reduced statistics.
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
// Keyed levels (level_keys.hpp). When the run has transposition tables or
// duplicate removal, every level carries 128-bit Zobrist keys (the roots'
// computed, the children's derived from their parents'). Right after a level
// is made:
//   1. duplicate removal, on levels of remaining depth >= 3 with at least
//      Options::dedup_min_items positions: a stable sort by key, runs of
//      identical positions, each duplicate linked to its run's first copy
//      (rep) and given move count 0; the roll-up reads its counter through rep;
//   2. the table of its remaining depth: a hit gets move count 0 (the scan
//      gives it no items) and the stored count in its counter, which the
//      roll-up carries.
// After the level's subtree is rolled up, every position that was expanded
// stores its count. Duplicate removal pays where a level is large (its sort
// is a few launches) and its subtrees are deep; below remaining depth 3 the
// positions are the fused leaf's and never made. Transpositions appear from
// the third ply below a root on, so large levels hold many (the start
// position's ply 5: 4.9 million paths, 0.82 million positions).
//
// Statistics (StatsRows, level_stats.hpp): the same levels, made one ply
// further (r >= 3), each position with a statistics row instead of a count:
// the leaf classifies the last ply's moves into its parent's row, rows roll
// up, and keyed levels look rows up in and store them to row tables (the
// same memory, laid out in 128-byte slots). A run's tables hold counts or
// rows, never both: the memory is cleared when the kind changes
// (pipeline_memory.hpp).
#pragma once

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpu/arena_plan.hpp"
#include "gpu/gpu_perft.hpp"
#include "gpu/level_keys.hpp"
#include "gpu/level_stats.hpp"
#include "gpu/level_work.hpp"
#include "gpu/stack_arena.hpp"

namespace perftide::gpu {

// Items one chunk may hold: parent indices are 32-bit and launch sizes fit an int.
constexpr uint64_t MAX_CHUNK_ITEMS = (uint64_t(1) << 31) - 1;

// Bytes of the pipeline's items (arena_plan.hpp, which sizes the arena from them).
constexpr double MADE_ITEM_BYTES = made_item_bytes(sizeof(Position));
static_assert(KEY_ITEM_BYTES == sizeof(Key128), "the arena plan counts 16 bytes a key");
static_assert(ROW_ITEM_BYTES == sizeof(chess::PerftStats), "the arena plan counts a row of 64-bit counts");

// What a run rolls up: node counts (perft) or statistics rows. A
// LevelPipeline is made for one (its Rollup parameter), so every level,
// chunk and leaf picks its work at compile time; the two differ only here.
struct NodeCounts {
    using Entry = TableEntry;
    static constexpr bool ROWS = false;
    static constexpr int LEAF_MAX = 3;  // the fused leaf counts the last one or two plies

    template <class Exec>
    static void download(Exec& x, uint64_t* out, const Level& l, uint64_t n) {
        x.download(out, l.nodes, n);
    }
    template <class Exec>
    static void resolve_duplicates(Exec& x, const Level& l, uint64_t n) {
        x.for_each(n, ResolveDuplicates{l.rep, l.nodes});
    }
    template <class Exec>
    static void probe(Exec& x, const Level& l, const DepthTableOf<Entry>& t, uint64_t* hits) {
        x.accumulate(l.size, ProbeTable{l.keys, l.counts, l.nodes, t}, hits);
    }
    template <class Exec>
    static void store(Exec& x, const Level& l, const DepthTableOf<Entry>& t, const uint32_t* error, uint64_t* stores) {
        x.accumulate(l.size, StoreTable{l.keys, l.counts, l.nodes, t, error}, stores);
    }
    template <class Exec>
    static void roll_up(Exec& x, uint64_t items, const uint32_t* parent, const Level& child, const Level& level) {
        x.accumulate(items, RollUp{parent, child.nodes, child.rep}, level.nodes);
    }
    template <Color Us, class Exec>
    static void leaf(Exec& x, const Level& level, const uint32_t* parent, const uint16_t* moves, uint64_t items, int r,
                     const Attacks& at) {
        if (r == 2)
            x.accumulate(items, LeafCount<Us, 1>{level.pos, parent, moves, at}, level.nodes);
        else
            x.accumulate(items, LeafCount<Us, 2>{level.pos, parent, moves, at}, level.nodes);
    }
};

struct StatsRows {
    using Entry = RowEntry;
    static constexpr bool ROWS = true;
    static constexpr int LEAF_MAX = 2;  // levels made one ply further: the leaf classifies the last ply's moves

    template <class Exec>
    static void download(Exec& x, uint64_t* out, const Level& l, uint64_t n) {
        x.download(out, l.rows, n * chess::STAT_COUNT);
    }
    template <class Exec>
    static void resolve_duplicates(Exec& x, const Level& l, uint64_t n) {
        x.for_each(n, ResolveDuplicateRows{l.rep, l.rows});
    }
    template <class Exec>
    static void probe(Exec& x, const Level& l, const DepthTableOf<Entry>& t, uint64_t* hits) {
        x.accumulate(l.size, ProbeRows{l.keys, l.counts, l.rows, t}, hits);
    }
    template <class Exec>
    static void store(Exec& x, const Level& l, const DepthTableOf<Entry>& t, const uint32_t* error, uint64_t* stores) {
        x.accumulate(l.size, StoreRows{l.keys, l.counts, l.rows, t, error}, stores);
    }
    template <class Exec>
    static void roll_up(Exec& x, uint64_t items, const uint32_t* parent, const Level& child, const Level& level) {
        x.accumulate_rows(items, RollUpRows{parent, child.rows, child.rep}, level.rows);
    }
    template <Color Us, class Exec>
    static void leaf(Exec& x, const Level& level, const uint32_t* parent, const uint16_t* moves, uint64_t items, int r,
                     const Attacks& at) {
        if (r == 1)
            x.accumulate_rows(items, LeafStats<Us, 0>{level.pos, parent, moves, at}, level.rows);
        else
            x.accumulate_rows(items, LeafStats<Us, 1>{level.pos, parent, moves, at}, level.rows);
    }
};

template <class Exec, class Rollup = NodeCounts>
class LevelPipeline {
   public:
    LevelPipeline(Exec& exec, Stats& stats, const Options& options)
        : exec_(exec),
          arena_(exec.arena()),
          stats_(stats),
          at_(exec.tables()),
          zobrist_(exec.zobrist()),
          tables_(layout_tables<typename Rollup::Entry>(exec.table_memory())),
          options_(options) {}

    // perft(depth) of n roots whose side to move is Us, 1 <= depth <=
    // MAX_DEVICE_DEPTH, into out[0, n); with StatsRows, the statistics rows
    // of the moves at ply `depth` into out[0, n * STAT_COUNT), STAT_COUNT
    // counts a root.
    template <Color Us>
    void run(const Position* roots, uint64_t n, int depth, uint64_t* out) {
        ArenaScope scope(arena_);
        const Level level = run_roots<Us>(roots, n, depth);
        Rollup::download(exec_, out, level, n);
    }

   private:
    // The roots' level with its subtree done (within the caller's arena scope).
    template <Color Us>
    Level run_roots(const Position* roots, uint64_t n, int depth) {
        keyed_ = depth >= TABLE_MIN_DEPTH && (tables_.any() || options_.dedup);
        made_bytes_ = MADE_ITEM_BYTES + (keyed_ ? KEY_ITEM_BYTES : 0) +
                      (keyed_ && options_.dedup ? DEDUP_ITEM_BYTES : 0) + (Rollup::ROWS ? ROW_ITEM_BYTES : 0);
        counters_ = arena_.alloc<uint64_t>(RUN_COUNTERS, "run counters");
        exec_.clear(counters_, RUN_COUNTERS);
        const Level level = make_roots<Us>(roots, n, depth);
        process<Us>(level, depth);
        if (level.rep) Rollup::resolve_duplicates(exec_, level, n);
        store(level, depth);
        exec_.check_error("move generation disagreed with move counting");
        uint64_t c[RUN_COUNTERS];
        exec_.download(c, counters_, RUN_COUNTERS);
        stats_.table_hits += c[COUNTER_TABLE_HITS];
        stats_.table_stores += c[COUNTER_TABLE_STORES];
        stats_.duplicates += c[COUNTER_DUPLICATES];
        ++stats_.batches;
        return level;
    }

    template <Color Us>
    Level make_roots(const Position* roots, uint64_t n, int depth) {
        const Level level = alloc_level(n, depth);
        exec_.upload(level.pos, roots, n);
        exec_.for_each(n, CountRoots<Us>{level.pos, level.counts, level.nodes, at_});
        if (level.keys) exec_.for_each(n, RootKeys{level.pos, level.keys, zobrist_});
        prepare(level, depth);
        return level;
    }

    Level alloc_level(uint64_t n, int r) {
        Level l;
        l.size = n;
        l.pos = arena_.alloc<Position>(n, "positions");
        l.counts = arena_.alloc<uint32_t>(n, "move counts");
        l.nodes = arena_.alloc<uint64_t>(n, "node counters");
        if constexpr (Rollup::ROWS) {
            l.rows = arena_.alloc<uint64_t>(n * chess::STAT_COUNT, "statistics rows");
            exec_.clear(l.rows, n * chess::STAT_COUNT);
        }
        if (keyed_ && r >= TABLE_MIN_DEPTH) l.keys = arena_.alloc<Key128>(n, "keys");
        if (keyed_ && options_.dedup && r >= TABLE_MIN_DEPTH && n > 1 && n >= options_.dedup_min_items)
            l.rep = arena_.alloc<uint32_t>(n, "duplicate links");
        return l;
    }

    // Right after a level is made: duplicate removal, then the table probe.
    void prepare(const Level& level, int r) {
        if (level.rep) remove_duplicates(level);
        if (!keyed_ || !has_table(r)) return;
        Rollup::probe(exec_, level, tables_.at(r), counters_ + COUNTER_TABLE_HITS);
        stats_.table_probes += level.size;
    }

    // After the level's subtree is rolled up.
    void store(const Level& level, int r) {
        if (!keyed_ || !has_table(r)) return;
        Rollup::store(exec_, level, tables_.at(r), exec_.error_flag(), counters_ + COUNTER_TABLE_STORES);
    }

    bool has_table(int r) const { return tables_.at(r).size != 0; }

    void remove_duplicates(const Level& level) {
        ArenaScope scope(arena_);
        const uint64_t n = level.size;
        SortBuffers b{arena_.alloc<uint64_t>(n, "sort keys"), arena_.alloc<uint64_t>(n, "sort keys"),
                      arena_.alloc<uint32_t>(n, "sort ids"), arena_.alloc<uint32_t>(n, "sort ids")};
        exec_.for_each(n, DedupSortKeys{level.keys, b.keys, b.ids});
        exec_.sort_pairs(b, n);
        uint32_t* head = b.ids_alt;  // free once the sort is done
        exec_.for_each(n, MarkRunHeads{b.keys, b.ids, level.pos, head});
        exec_.inclusive_max_scan(head, n);
        exec_.accumulate(n, LinkDuplicates{b.ids, head, level.rep, level.counts}, counters_ + COUNTER_DUPLICATES);
        ++stats_.dedup_levels;
        stats_.dedup_positions += n;
    }

    template <Color Us>
    void process(const Level& level, int r) {
        if (level.size == 0) return;
        if constexpr (!Rollup::ROWS)
            if (r == 1) return exec_.for_each(level.size, CountsAreNodes{level.counts, level.nodes});
        ArenaScope scope(arena_);
        uint64_t* offsets = arena_.alloc<uint64_t>(level.size, "prefix sums");
        const uint64_t total = exec_.exclusive_scan(level.counts, offsets, level.size);
        const double branching = std::max(1.0, double(total) / double(level.size));
        const double per_item = options_.chunk_estimate_scale * subtree_bytes(r, branching, made_bytes_, Rollup::LEAF_MAX);
        for (uint64_t s = 0; s < level.size;) s = expand_fitting<Us>(level, offsets, total, s, per_item, r);
    }

    // Expands the largest chunk from parent s that the estimate lets fit;
    // when the levels below need more than estimated, retries with half the
    // chunk. A failed chunk has added nothing to this level's counters or
    // rows (they change only after the chunk's subtree is done, or in its
    // leaf, which allocates before it adds), so the retry is exact.
    // Returns the end of the chunk expanded.
    template <Color Us>
    uint64_t expand_fitting(const Level& level, const uint64_t* offsets, uint64_t total, uint64_t s, double per_item,
                            int r) {
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
        const bool made = r > Rollup::LEAF_MAX;
        const Level child = made ? alloc_level(items, r - 1) : Level{};
        const std::size_t moves_mark = arena_.mark();  // the moves are popped once the children exist
        uint16_t* moves = arena_.alloc<uint16_t>(items, "moves");
        exec_.generate(GenerateMoves<Us>{level.pos, level.counts, offsets, s, e - s, items, moves, parent,
                                         exec_.error_flag(), at_});
        if (!made) return leaf<Us>(level, parent, moves, items, r);
        exec_.for_each(items, MakeChildren<Us>{level.pos, level.keys, parent, moves, child, at_, zobrist_});
        ++stats_.make_launches;
        arena_.release(moves_mark);
        prepare(child, r - 1);
        process<~Us>(child, r - 1);
        Rollup::roll_up(exec_, items, parent, child, level);
        store(child, r - 1);
    }

    template <Color Us>
    void leaf(const Level& level, const uint32_t* parent, const uint16_t* moves, uint64_t items, int r) {
        Rollup::template leaf<Us>(exec_, level, parent, moves, items, r, at_);
        ++stats_.leaf_launches;
        stats_.leaf_items += items;
        stats_.max_leaf_items = std::max(stats_.max_leaf_items, items);
    }

    Exec& exec_;
    StackArena& arena_;
    Stats& stats_;
    Attacks at_;
    Zobrist zobrist_;
    TablesOf<typename Rollup::Entry> tables_;  // counts or rows, in the executor's table memory
    Options options_;
    bool keyed_ = false;  // this run's levels carry keys
    double made_bytes_ = MADE_ITEM_BYTES;
    uint64_t* counters_ = nullptr;  // the run's counters in the arena (RUN_COUNTERS)
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

inline void check_options(const Options& options, int depth) {
    if (options.max_device_depth < 1 || options.max_device_depth > MAX_DEVICE_DEPTH)
        throw std::invalid_argument("max_device_depth must be 1.." + std::to_string(MAX_DEVICE_DEPTH) + ", not " +
                                    std::to_string(options.max_device_depth));
    if (depth < 0) throw std::invalid_argument("perft depth must be >= 0, not " + std::to_string(depth));
    if (!(options.chunk_estimate_scale > 0)) throw std::invalid_argument("chunk_estimate_scale must be positive");
}

// The batch made ready for the device: plies above options.max_device_depth
// expanded on the host (owner[i]: the root position i descends from).
// Returns the depth left for the device.
inline int expand_to_device_depth(std::vector<Position>& pos, std::vector<uint32_t>& owner, int depth,
                                  const Options& options, Stats& stats) {
    owner.resize(pos.size());
    std::iota(owner.begin(), owner.end(), 0u);
    for (; depth > options.max_device_depth; --depth, ++stats.host_plies) expand_on_host(pos, owner);
    return depth;
}

// Calls fn(us, roots, n, index) for the positions of each side to move (a
// level has one side to move) in slices whose root arrays (with rows in
// statistics runs) take at most an eighth (1 / ROOT_SHARE) of the arena;
// index[k] is roots[k]'s index in pos.
template <class Fn>
void for_each_root_slice(const std::vector<Position>& pos, const StackArena& arena, bool stats, Fn&& fn) {
    const double fit =
        std::min<double>(double(MAX_CHUNK_ITEMS), arena.free() / ROOT_SHARE / root_item_bytes(sizeof(Position), stats));
    const uint64_t slice = std::max<uint64_t>(1, uint64_t(fit));
    for (const Color us : {chess::WHITE, chess::BLACK}) {
        std::vector<Position> group;
        std::vector<uint32_t> index;
        for (std::size_t i = 0; i < pos.size(); ++i)
            if (pos[i].stm == us) group.push_back(pos[i]), index.push_back(uint32_t(i));
        for (uint64_t s = 0; s < group.size(); s += slice)
            fn(us, group.data() + s, std::min<uint64_t>(slice, group.size() - s), index.data() + s);
    }
}

}  // namespace detail

// The arena plan's inputs for a call: its shape, with the growth measured
// as the mean move count of up to 64 of the roots (evenly spaced).
inline ArenaInputs call_arena_inputs(const std::vector<Position>& roots, int depth, const Options& o, bool stats) {
    ArenaInputs in;
    in.roots = roots.size();
    in.depth = depth;
    in.max_device_depth = o.max_device_depth;
    in.position_bytes = sizeof(Position);
    in.tables = o.table_bytes != 0;
    in.dedup = o.dedup;
    in.stats = stats;
    in.keyed_min_depth = TABLE_MIN_DEPTH;
    const std::size_t step = std::max<std::size_t>(1, roots.size() / 64);
    double moves = 0, sampled = 0;
    for (std::size_t i = 0; i < roots.size(); i += step, ++sampled)
        moves += double(chess::count_moves(roots[i], chess::host_attacks()));
    in.growth = sampled ? std::max(1.0, moves / sampled) : 1.0;
    return in;
}

// perft(depth) of every root on one executor. Plies above
// options.max_device_depth are expanded on the host; the batch runs once per
// side to move and root slice.
template <class Exec>
std::vector<chess::u128> perft_batch_with(Exec& exec, const std::vector<Position>& roots, int depth,
                                          const Options& options, Stats& stats) {
    detail::check_options(options, depth);
    stats = Stats{};
    stats.table_bytes = exec.table_bytes();
    std::vector<chess::u128> out(roots.size(), depth == 0 ? 1 : 0);
    if (depth == 0 || roots.empty()) return out;

    std::vector<Position> pos = roots;
    std::vector<uint32_t> owner;
    depth = detail::expand_to_device_depth(pos, owner, depth, options, stats);
    StackArena& arena = exec.arena();
    arena.reset_peak();
    LevelPipeline<Exec> pipeline(exec, stats, options);
    detail::for_each_root_slice(pos, arena, /*stats=*/false,
                                [&](Color us, const Position* r, uint64_t n, const uint32_t* index) {
                                    std::vector<uint64_t> nodes(n);
                                    if (us == chess::WHITE)
                                        pipeline.template run<chess::WHITE>(r, n, depth, nodes.data());
                                    else
                                        pipeline.template run<chess::BLACK>(r, n, depth, nodes.data());
                                    for (uint64_t k = 0; k < n; ++k) out[owner[index[k]]] += nodes[k];
                                });
    stats.arena_bytes = arena.capacity();
    stats.peak_arena_bytes = arena.peak();
    return out;
}

// Statistics rows of plies 1..depth below every root on one executor,
// rows[root * depth + ply - 1]: the pipeline runs once per depth with the
// statistics leaf, so the tables the shallower runs fill serve the deeper.
template <class Exec>
std::vector<StatsTotal> perft_stats_with(Exec& exec, const std::vector<Position>& roots, int depth,
                                       const Options& options, Stats& stats) {
    detail::check_options(options, depth);
    stats = Stats{};
    stats.table_bytes = exec.table_bytes();
    std::vector<StatsTotal> rows(roots.size() * std::size_t(depth));
    StackArena& arena = exec.arena();
    arena.reset_peak();
    LevelPipeline<Exec, StatsRows> pipeline(exec, stats, options);
    for (int d = 1; d <= depth && !roots.empty(); ++d) {
        std::vector<Position> pos = roots;
        std::vector<uint32_t> owner;
        Stats expansion;
        const int device_depth = detail::expand_to_device_depth(pos, owner, d, options, expansion);
        stats.host_plies = std::max(stats.host_plies, expansion.host_plies);
        detail::for_each_root_slice(
            pos, arena, /*stats=*/true, [&](Color us, const Position* r, uint64_t n, const uint32_t* index) {
                std::vector<chess::PerftStats> part(n);
                static_assert(sizeof(chess::PerftStats) == chess::STAT_COUNT * sizeof(uint64_t),
                              "rows are plain counts");
                if (us == chess::WHITE)
                    pipeline.template run<chess::WHITE>(r, n, device_depth, part.data()->c);
                else
                    pipeline.template run<chess::BLACK>(r, n, device_depth, part.data()->c);
                for (uint64_t k = 0; k < n; ++k) rows[std::size_t(owner[index[k]]) * depth + (d - 1)] += part[k];
            });
    }
    stats.arena_bytes = arena.capacity();
    stats.peak_arena_bytes = arena.peak();
    return rows;
}

}  // namespace perftide::gpu
