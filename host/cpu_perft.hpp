// The CPU perft engine: the root is split into (root move, reply) work items
// that threads take from a shared counter, and each item is counted with the
// shared recursive perft (bulk counting at the last ply).
#pragma once

#include "chess/position.hpp"
#include "perft_result.hpp"

namespace gperft {

// threads <= 0 means all hardware threads.
PerftResult cpu_perft(const chess::Position& root, int depth, int threads);

int default_threads();

}  // namespace gperft
