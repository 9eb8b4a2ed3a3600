// CPU perft with a transposition table at interior nodes. The last ply is
// bulk-counted as in the plain engine; nodes with MIN_TT_DEPTH or more plies
// left are looked up before and stored after being counted. Keys are updated
// per move (Zobrist::child_key), not recomputed.
#pragma once

#include <vector>

#include "chess/count.hpp"
#include "chess/zobrist.hpp"
#include "count/tt.hpp"

namespace perftide {

// Remaining depth from which nodes go through the table. 2 measured faster
// than 3 (start position perft(7), one thread: 1.5 s against 4.0 s of CPU).
constexpr int MIN_TT_DEPTH = 2;

// perft(depth) of one position with the table.
chess::u128 tt_perft(const chess::Position& p, int depth, PerftTable& table, const chess::Zobrist& keys);

// perft(depth) of every root on `threads` threads sharing the table.
std::vector<chess::u128> tt_perft_batch(const std::vector<chess::Position>& roots, int depth, int threads,
                                        PerftTable& table, const chess::Zobrist& keys);

}  // namespace perftide
