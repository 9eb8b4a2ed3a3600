// Perft statistics on the CPU: the classification of every move at every ply
// (chess/stats.hpp), counted by threads that share out the subtrees the way
// cpu_perft does, with 128-bit totals.
#pragma once

#include <string>
#include <vector>

#include "chess/count.hpp"
#include "chess/stats.hpp"

namespace perftide {

using chess::StatsTotal;
class Progress;

// rows[k] holds the statistics of the moves made at ply k + 1, k < depth;
// threads <= 0 means all hardware threads. `progress` counts the subtrees
// done and their leaves.
std::vector<StatsTotal> cpu_perft_stats(const chess::Position& root, int depth, int threads,
                                        Progress* progress = nullptr);

// One column of the statistics tables: its JSON key (the Grand Chess Tree's
// name where it has one), its table heading, and its value.
struct StatColumn {
    const char* key;
    const char* title;
    chess::u128 (*value)(const StatsTotal&);
};

// The chessprogramming "Perft Results" columns, then the finer split of checks
// and mates, then stalemates.
const std::vector<StatColumn>& stat_columns();
const StatColumn& stat_column(const std::string& key);  // throws std::out_of_range

}  // namespace perftide
