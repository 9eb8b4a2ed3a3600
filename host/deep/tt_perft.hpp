// CPU perft with a transposition table at interior nodes. The last ply is
// bulk-counted as in the plain engine; nodes with MIN_TT_DEPTH or more plies
// left are looked up before and stored after being counted. Keys are updated
// per move (Zobrist::child_key), not recomputed.
#pragma once

#include <vector>

#include "chess/count.hpp"
#include "chess/zobrist.hpp"
#include "deep/tt.hpp"

namespace gperft {

// Remaining depth from which nodes go through the table (below it a probe
// costs more than recounting).
constexpr int MIN_TT_DEPTH = 3;

// perft(depth) of one position with the table.
chess::u128 tt_perft(const chess::Position& p, int depth, PerftTable& table, const chess::Zobrist& keys);

// perft(depth) of every root on `threads` threads sharing the table.
std::vector<chess::u128> tt_perft_batch(const std::vector<chess::Position>& roots, int depth, int threads,
                                        PerftTable& table, const chess::Zobrist& keys);

}  // namespace gperft
