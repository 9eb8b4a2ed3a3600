// The CPU perft engine. Work is a batch of roots counted to one depth: the
// batch is expanded ply by ply until there are enough independent items to
// keep every thread busy, then threads take items from a shared counter and
// count each with the shared recursive perft (bulk counting at the last ply).
#pragma once

#include <functional>
#include <vector>

#include "base/machine.hpp"
#include "chess/count.hpp"
#include "chess/position.hpp"
#include "count/perft_result.hpp"

namespace perftide {

class Progress;

using machine::default_threads;  // every hardware thread

// Counts one item (a position and its remaining depth) on one thread.
using ItemCounter = std::function<chess::u128(const chess::Position&, int depth)>;

// The batch driver behind every CPU engine: expands the roots until the
// items keep `threads` threads busy, counts each item with `count`, and
// sums the items of each root. A progress line, when given, counts the
// items done (its total set here) and their nodes.
std::vector<chess::u128> cpu_parallel_batch(const std::vector<chess::Position>& roots, int depth, int threads,
                                            const ItemCounter& count, Progress* progress = nullptr);

// perft(depth) of every root; threads <= 0 means all hardware threads.
std::vector<chess::u128> cpu_perft_batch(const std::vector<chess::Position>& roots, int depth, int threads,
                                         Progress* progress = nullptr);

// Counts a batch of roots to one depth (any backend's perft_batch).
using BatchCounter = std::function<std::vector<chess::u128>(const std::vector<chess::Position>&, int depth)>;

// perft(depth) of root with its divide: the root moves' positions counted to
// depth - 1 as one batch by `batch`. `backend` names it in the result.
PerftResult divide_perft(const chess::Position& root, int depth, const char* backend, const BatchCounter& batch);

// perft(depth) of one root with its divide.
PerftResult cpu_perft(const chess::Position& root, int depth, int threads, Progress* progress = nullptr);

}  // namespace perftide
