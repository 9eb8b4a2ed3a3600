// Compiled by g++ with Thrust's host systems (OpenMP where available, else
// plain C++): the same sort + reduce_by_key the GPU pipeline runs.
#include "deep/work_units.hpp"

#include <thrust/reduce.h>
#include <thrust/sort.h>

#include <stdexcept>

#include "chess/count.hpp"
#include "chess/identity.hpp"
#include "chess/movegen.hpp"
#include "chess/zobrist.hpp"

#include <thrust/system/cpp/execution_policy.h>
#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP
#include <thrust/system/omp/execution_policy.h>
#endif

namespace perftide {

using namespace chess;

namespace {

// One (canonical position, root move) pair of a frontier; paths are the
// values reduced over equal keys.
struct FrontierKey {
    Position pos;
    uint32_t root_move;
};

struct KeyLess {
    bool operator()(const FrontierKey& a, const FrontierKey& b) const {
        if (!same_position(a.pos, b.pos)) return identity_less(a.pos, b.pos);
        return a.root_move < b.root_move;
    }
};

struct KeyEqual {
    bool operator()(const FrontierKey& a, const FrontierKey& b) const {
        return a.root_move == b.root_move && same_position(a.pos, b.pos);
    }
};

struct Frontier {
    std::vector<FrontierKey> keys;
    std::vector<uint64_t> paths;
};

// Sorts by key and sums the paths of equal keys, on the given Thrust system.
template <class Policy, class Key, class Less, class Equal>
void merge_on(const Policy& policy, std::vector<Key>& keys, std::vector<uint64_t>& paths, Less less, Equal equal) {
    thrust::sort_by_key(policy, keys.begin(), keys.end(), paths.begin(), less);
    std::vector<Key> out_keys(keys.size());
    std::vector<uint64_t> out_paths(paths.size());
    const auto ends =
        thrust::reduce_by_key(policy, keys.begin(), keys.end(), paths.begin(), out_keys.begin(), out_paths.begin(), equal);
    out_keys.resize(size_t(ends.first - out_keys.begin()));
    out_paths.resize(out_keys.size());
    keys = std::move(out_keys);
    paths = std::move(out_paths);
}

// OpenMP pays off only on large frontiers: its barriers cost milliseconds
// on a busy machine, more than sorting a small frontier serially.
constexpr size_t PARALLEL_MERGE_MIN = size_t(1) << 20;

template <class Key, class Less, class Equal>
void merge_keys(std::vector<Key>& keys, std::vector<uint64_t>& paths, Less less, Equal equal) {
#if THRUST_DEVICE_SYSTEM == THRUST_DEVICE_SYSTEM_OMP
    if (keys.size() >= PARALLEL_MERGE_MIN) return merge_on(thrust::omp::par, keys, paths, less, equal);
#endif
    merge_on(thrust::cpp::par, keys, paths, less, equal);
}

void merge(Frontier& f) { merge_keys(f.keys, f.paths, KeyLess{}, KeyEqual{}); }

Frontier expand(const Frontier& f, const Attacks& at) {
    Frontier next;
    for (size_t i = 0; i < f.keys.size(); ++i) {
        MoveList list;
        generate_moves(f.keys[i].pos, at, list);
        for (Move m : list) {
            next.keys.push_back({canonical(apply_move(f.keys[i].pos, m), at), f.keys[i].root_move});
            next.paths.push_back(f.paths[i]);
        }
    }
    return next;
}

// Turns the merged (position, root move) pairs into units and shares.
void collect_units(const Frontier& f, WorkUnits& w) {
    for (size_t i = 0; i < f.keys.size(); ++i) {
        if (i == 0 || !same_position(f.keys[i].pos, f.keys[i - 1].pos)) {
            w.positions.push_back(f.keys[i].pos);
            w.multiplicity.push_back(0);
        }
        const uint32_t unit = uint32_t(w.positions.size() - 1);
        w.multiplicity.back() += f.paths[i];
        w.shares.push_back({unit, f.keys[i].root_move, f.paths[i]});
    }
}

}  // namespace

WorkUnits build_work_units(const Position& root, int split) {
    if (split < 1 || split > MAX_SPLIT)
        throw std::invalid_argument("split depth " + std::to_string(split) + " is outside 1.." +
                                    std::to_string(MAX_SPLIT));
    const Attacks at = host_attacks();
    WorkUnits w;
    w.split = split;
    MoveList list;
    generate_moves(root, at, list);
    Frontier f;
    for (int i = 0; i < list.size; ++i) {
        w.root_moves.push_back(list.moves[i]);
        f.keys.push_back({canonical(apply_move(root, list.moves[i]), at), uint32_t(i)});
        f.paths.push_back(1);
    }
    merge(f);
    for (int ply = 2; ply <= split; ++ply) {
        f = expand(f, at);
        merge(f);
    }
    collect_units(f, w);
    return w;
}

UnitTotals merge_unit_counts(const WorkUnits& units, const std::vector<u128>& unit_counts) {
    if (unit_counts.size() != units.positions.size()) throw std::logic_error("one count per work unit expected");
    UnitTotals t;
    t.per_root_move.assign(units.root_moves.size(), 0);
    for (const UnitShare& s : units.shares)
        t.per_root_move[s.root_move] = add_product(t.per_root_move[s.root_move], unit_counts[s.unit], s.paths);
    for (size_t u = 0; u < unit_counts.size(); ++u) t.total = add_product(t.total, unit_counts[u], units.multiplicity[u]);
    return t;
}

void merge_positions(std::vector<Position>& positions, std::vector<uint64_t>& paths) {
    if (positions.size() != paths.size()) throw std::logic_error("one path count per position expected");
    merge_keys(positions, paths, IdentityLess{}, SamePosition{});
}

uint64_t unit_fingerprint(const Position& canon) { return host_zobrist().key(canon).hi; }

}  // namespace perftide
