// Distinct positions per ply: a sorted frontier of (position, multiplicity)
// pairs, expanded one ply at a time and deduplicated by sort + reduce_by_key
// (Thrust). One source runs on the host (Thrust's OpenMP or C++ system) and on
// the GPU (CUDA system); this header is plain C++ for host/ to call.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "chess/count.hpp"
#include "chess/position.hpp"

namespace gperft::frontier {

// What one ply holds. Classes count distinct positions; *_paths weight
// each by its multiplicity (the number of move paths that reach it).
struct PlyCounts {
    int ply = 0;
    uint64_t distinct = 0;
    chess::u128 paths = 0;  // the sum of multiplicities: perft(ply)
    uint64_t in_check = 0, checkmates = 0, stalemates = 0;
    uint64_t insufficient = 0;  // dead by material (insufficient material), mates and stalemates apart
    chess::u128 check_paths = 0, checkmate_paths = 0, stalemate_paths = 0, insufficient_paths = 0;
    int passes = 1;  // partitions the ply's children were split into
};

// The final ply's positions (canonical: FIDE 9.2 identity) and multiplicities.
struct Frontier {
    std::vector<chess::Position> positions;
    std::vector<uint64_t> counts;
};

struct Options {
    // Working memory for one ply's children (bytes): past it, the children
    // are split by hash into several passes. The frontiers are not counted.
    // 0: a quarter of the host's memory, or half the GPU's free memory.
    uint64_t budget_bytes = 0;
    int threads = 0;  // host threads (<= 0: all)
};

// Thrown when the budget cannot hold even the smallest pass.
struct BudgetTooSmall : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Distinct positions after each ply 0..depth from root, on the host.
std::vector<PlyCounts> unique_host(const chess::Position& root, int depth, const Options& o, Frontier* final_ply);

// The same on the GPU; throws std::runtime_error when no device is usable.
std::vector<PlyCounts> unique_gpu(const chess::Position& root, int depth, const Options& o, Frontier* final_ply);

// The order the frontier is sorted in (within each pass's partition).
bool position_less(const chess::Position& a, const chess::Position& b);

}  // namespace gperft::frontier
