// What a perft run reports, whichever backend computed it.
#pragma once

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "chess/count.hpp"
#include "chess/io/fen.hpp"
#include "chess/position.hpp"
#include "chess/types.hpp"

namespace perftide {

// The deepest perft any command counts (perft(30) of any position is far
// beyond any machine; the cap keeps a typo from running for ever).
constexpr int MAX_PERFT_DEPTH = 30;

struct PerftResult {
    chess::u128 nodes = 0;
    std::vector<std::pair<chess::Move, chess::u128>> divide;  // per root move, in generation order
    double seconds = 0;
    std::string backend;  // "cpu" or "gpu"
};

// The divide as (UCI move, count), sorted by the move's text, so that it
// diffs cleanly against another engine's sorted divide.
inline std::vector<std::pair<std::string, chess::u128>> sorted_divide(const PerftResult& r,
                                                                     const chess::Position& root) {
    std::vector<std::pair<std::string, chess::u128>> out;
    for (const auto& [m, n] : r.divide) out.emplace_back(chess::move_to_uci(m, root.chess960), n);
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace perftide
