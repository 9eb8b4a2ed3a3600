// Shared by the suite tests: run every entry of a suite file at the depths
// whose expected count is at most max_nodes (and at most max_depth), and
// report mismatches by entry and depth. Entries the FEN parser refuses are
// returned by id. With `table`, counts from depth 6 on go through the deep
// engine with a small transposition table (a larger one costs more to touch
// than it saves at these depths).
#pragma once

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "count/cpu_perft.hpp"
#include "deep/deep_perft.hpp"
#include "inputs/suite.hpp"

inline std::set<std::string> check_suite(const std::string& file, double max_nodes, int* checked = nullptr,
                                         int max_depth = 99, bool table = false) {
    std::set<std::string> refused;
    int n = 0;
    const auto cpu = perftide::open_backend(perftide::BackendChoice::Cpu);
    for (const perftide::SuiteEntry& e : perftide::read_suite_file(std::string(PERFTIDE_TEST_DATA) + "/" + file)) {
        chess::Position root;
        try {
            root = chess::parse_fen(e.fen);
        } catch (const chess::FenError&) {
            refused.insert(e.id);
            continue;
        }
        for (const auto& [depth, expected] : e.expected) {
            if (double(expected) > max_nodes || depth > max_depth) continue;
            perftide::DeepOptions o;
            o.split = 0;
            o.hash_mb = 4;
            o.host_hash_mb = 0;
            const chess::u128 nodes = table && depth >= 6 ? perftide::run_deep_perft(*cpu, root, depth, o).perft.nodes
                                                          : perftide::cpu_perft(root, depth, 0).nodes;
            EXPECT_EQ(chess::to_string(nodes), chess::to_string(expected))
                << file << " " << e.id << " (" << e.fen << ") depth " << depth;
            ++n;
        }
    }
    if (checked) *checked = n;
    return refused;
}
