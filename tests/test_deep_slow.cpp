// Deep checks too slow for every build: distinct positions at ply 5, and
// deep totals with tables under two Zobrist seeds at published depths.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "deep/deep_perft.hpp"
#include "deep/work_units.hpp"
#include "inputs/suite.hpp"
#include "support/test_data.hpp"

using namespace chess;

TEST(DeepSlow, DistinctPositionsAtPly5MatchOeisA083276) {
    EXPECT_EQ(std::to_string(perftide::build_work_units(parse_fen(START_FEN), 5).positions.size()),
              distinct_positions_per_ply().at(5));
}

TEST(DeepSlow, TablesUnderTwoSeedsGiveThePublishedCounts) {
    int checked = 0;
    const auto cpu = perftide::open_backend(perftide::BackendChoice::Cpu);
    for (const auto& e : perftide::read_suite_file(std::string(PERFTIDE_TEST_DATA) + "/perft/cpw_positions.epd")) {
        for (const auto& [depth, expected] : e.expected) {
            if (double(expected) < 1e8 || double(expected) > 4e9) continue;
            for (uint64_t seed : {DEFAULT_ZOBRIST_SEED, uint64_t(0x5eed)}) {
                perftide::DeepOptions o;
                o.zobrist_seed = seed;
                o.split = 3;
                o.hash_mb = 64;
                const auto d = perftide::run_deep_perft(*cpu, parse_fen(e.fen), depth, o);
                EXPECT_EQ(to_string(d.perft.nodes), to_string(expected)) << e.fen << " depth " << depth << " seed " << seed;
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 6);
}
