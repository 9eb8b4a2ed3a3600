// Work units: the merged frontier holds exactly the distinct positions
// (OEIS A083276 for the start position), multiplicities sum to perft(split)
// overall and per root move, and deep totals built from units equal the
// published counts for every split depth, with and without tables.
#include <gtest/gtest.h>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "count/cpu_perft.hpp"
#include "deep/deep_perft.hpp"
#include "deep/host_table.hpp"
#include "deep/work_units.hpp"
#include "inputs/suite.hpp"
#include "support/test_data.hpp"

using namespace chess;

namespace {

std::vector<perftide::SuiteEntry> cpw() { return cpw_positions(); }

}  // namespace

TEST(WorkUnits, DistinctPositionsMatchOeisA083276) {
    int checked = 0;
    for (const auto& [ply, count] : distinct_positions_per_ply()) {
        if (ply < 1 || ply > 4) continue;  // deeper plies: slow label
        const perftide::WorkUnits w = perftide::build_work_units(parse_fen(START_FEN), ply);
        EXPECT_EQ(std::to_string(w.positions.size()), count) << "ply " << ply;
        ++checked;
    }
    EXPECT_EQ(checked, 4);
}

TEST(WorkUnits, UnitsAreDistinctCanonicalPositions) {
    const perftide::WorkUnits w = perftide::build_work_units(parse_fen(cpw()[1].fen), 2);
    for (size_t i = 0; i < w.positions.size(); ++i) {
        EXPECT_TRUE(canonical(w.positions[i], host_attacks()) == w.positions[i]);
        if (i) {
            EXPECT_FALSE(w.positions[i] == w.positions[i - 1]);
        }
    }
}

TEST(WorkUnits, MultiplicitiesSumToPerftOfTheSplitDepth) {
    for (const perftide::SuiteEntry& e : cpw()) {
        const Position root = parse_fen(e.fen);
        for (const auto& [depth, expected] : e.expected) {
            if (depth > 3) continue;
            const perftide::WorkUnits w = perftide::build_work_units(root, depth);
            u128 sum = 0, share_sum = 0;
            for (uint64_t m : w.multiplicity) sum += m;
            for (const perftide::UnitShare& s : w.shares) share_sum += s.paths;
            EXPECT_EQ(to_string(sum), to_string(expected)) << e.fen << " split " << depth;
            EXPECT_EQ(to_string(share_sum), to_string(expected)) << e.fen << " split " << depth;
            // Per root move: the paths through it are its divide count.
            const perftide::PerftResult divide = perftide::cpu_perft(root, depth, 1);
            std::vector<u128> per_move(w.root_moves.size(), 0);
            for (const perftide::UnitShare& s : w.shares) per_move[s.root_move] += s.paths;
            ASSERT_EQ(per_move.size(), divide.divide.size());
            for (size_t i = 0; i < per_move.size(); ++i) {
                EXPECT_TRUE(w.root_moves[i] == divide.divide[i].first);
                EXPECT_EQ(to_string(per_move[i]), to_string(divide.divide[i].second)) << e.fen << " move " << i;
            }
        }
    }
}

TEST(WorkUnits, DeepTotalsEqualPublishedCountsForEverySplit) {
    int checked = 0;
    for (const perftide::SuiteEntry& e : cpw()) {
        const Position root = parse_fen(e.fen);
        for (const auto& [depth, expected] : e.expected) {
            if (double(expected) > 1e6) continue;
            const perftide::PerftResult plain = perftide::cpu_perft(root, depth, 2);
            for (int split = 1; split <= std::min(depth, 3); ++split) {
                for (long long tables : {0, 1}) {
                    // The shared table under two threads.
                    const auto cpu = perftide::open_backend(perftide::BackendChoice::Cpu, tables ? 2 : 1);
                    perftide::DeepOptions o;
                    o.split = split;
                    o.hash_mb = tables;
                    o.host_hash_mb = tables;
                    o.batch_units = split == 1 ? 7 : 0;  // fixed batches (the last one short), or adaptive
                    const perftide::DeepResult d = perftide::run_deep_perft(*cpu, root, depth, o);
                    const std::string what = e.fen + " depth " + std::to_string(depth) + " split " +
                                             std::to_string(split) + (tables ? " with tables" : "");
                    EXPECT_EQ(to_string(d.perft.nodes), to_string(expected)) << what;
                    ASSERT_EQ(d.perft.divide.size(), plain.divide.size()) << what;
                    for (size_t i = 0; i < plain.divide.size(); ++i)
                        EXPECT_TRUE(d.perft.divide[i] == plain.divide[i]) << what << " move " << i;
                    ++checked;
                }
            }
        }
    }
    EXPECT_GT(checked, 30);
}

TEST(WorkUnits, SplitBeyondTheDepthIsRefused) {
    perftide::DeepOptions o;
    o.split = 4;
    const auto cpu = perftide::open_backend(perftide::BackendChoice::Cpu);
    try {
        perftide::run_deep_perft(*cpu, parse_fen(START_FEN), 3, o);
        ADD_FAILURE() << "a split deeper than the depth was counted";
    } catch (const perftide::LimitError& e) {
        EXPECT_EQ(e.setting, perftide::Setting::Split);
        EXPECT_EQ(e.asked, 4);
        EXPECT_EQ(e.limit, 3);
    }
}

TEST(HostTable, ExactKeysAndClearingWhenFull) {
    perftide::HostTable table(3 * perftide::HostTable::ENTRY_BYTES);  // room for three entries
    const perftide::WorkUnits w = perftide::build_work_units(parse_fen(START_FEN), 1);
    for (int i = 0; i < 3; ++i) table.insert(w.positions[i], 4, u128(100 + i));
    EXPECT_TRUE(table.find(w.positions[1], 4) == u128(101));
    EXPECT_FALSE(table.find(w.positions[1], 5).has_value());  // the depth is part of the key
    EXPECT_FALSE(table.find(w.positions[3], 4).has_value());
    table.insert(w.positions[3], 4, 103);  // full: starts over rather than guess
    EXPECT_EQ(table.size(), 1u);
    EXPECT_FALSE(table.find(w.positions[0], 4).has_value());
    EXPECT_TRUE(table.find(w.positions[3], 4) == u128(103));
    EXPECT_FALSE(perftide::HostTable(0).enabled());
}

// A memory bound on the work units (UCI's Hash): the deepest split whose
// estimated positions, at UNIT_MERGE_BYTES each, fit; never deeper than the
// automatic split; none when not even one ply fits.
TEST(WorkUnits, SplitWithinAMemoryBound) {
    const Position start = parse_fen(START_FEN);
    const Position kiwipete = parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    const perftide::BackendProfile& cpu = perftide::profile_of(perftide::BackendKind::Cpu);
    for (const auto& [root, mb] : {std::pair<Position, size_t>{start, 1}, {start, 4096}, {kiwipete, 1}, {kiwipete, 0}}) {
        const int split = perftide::split_within(root, 9, cpu, mb);
        EXPECT_LE(split, perftide::auto_split(9, cpu));
        const double bytes = double(mb) * double(1 << 20);
        if (split > 0) {
            EXPECT_LE(perftide::estimated_perft(root, split) * perftide::UNIT_MERGE_BYTES, bytes) << mb << " MiB";
        }
        if (split < perftide::auto_split(9, cpu)) {
            EXPECT_GT(perftide::estimated_perft(root, split + 1) * perftide::UNIT_MERGE_BYTES, bytes) << mb << " MiB";
        }
    }
    EXPECT_EQ(perftide::split_within(start, 9, cpu, 1), 2);  // 8,902 positions at ply 3 take 5 MiB
    EXPECT_EQ(perftide::split_within(start, 9, cpu, 4096), perftide::auto_split(9, cpu));
    EXPECT_EQ(perftide::split_within(kiwipete, 9, cpu, 0), 0);
    EXPECT_EQ(perftide::split_within(start, 6, cpu, 4096), 0);  // below the deep engine: no units
}
