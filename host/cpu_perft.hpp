// The CPU perft engine. Work is a batch of roots counted to one depth: the
// batch is expanded ply by ply until there are enough independent items to
// keep every thread busy, then threads take items from a shared counter and
// count each with the shared recursive perft (bulk counting at the last ply).
#pragma once

#include <vector>

#include "chess/count.hpp"
#include "chess/position.hpp"
#include "perft_result.hpp"

namespace gperft {

int default_threads();

// perft(depth) of every root; threads <= 0 means all hardware threads.
std::vector<chess::u128> cpu_perft_batch(const std::vector<chess::Position>& roots, int depth, int threads);

// perft(depth) of one root with its divide.
PerftResult cpu_perft(const chess::Position& root, int depth, int threads);

}  // namespace gperft
