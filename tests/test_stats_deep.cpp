// The published statistics rows of the done-criteria: the start position to
// depth 6, Kiwipete to 5, positions 3 and 4 to 6 (position 3 to 7 and
// position 6 to 5 as well).
#include "support/stats_check.hpp"

TEST(StatsDeep, StartPositionDepth6) {
    EXPECT_EQ(check_stats_table(read_gct_table("perft/grandchesstree_p0_results.json"), 1.2e8), 6);
}

TEST(StatsDeep, KiwipeteDepth5) {
    EXPECT_EQ(check_stats_table(read_gct_table("perft/grandchesstree_p1_results.json"), 2e8), 5);
}

TEST(StatsDeep, Position6Depth5) {
    EXPECT_EQ(check_stats_table(read_gct_table("perft/grandchesstree_p2_results.json"), 2e8), 5);
}

TEST(StatsDeep, ChessprogrammingPosition3Depth7) { EXPECT_EQ(check_stats_table(cpw_table("Position 3"), 2e8), 7); }

TEST(StatsDeep, ChessprogrammingPosition4Depth6) { EXPECT_EQ(check_stats_table(cpw_table("Position 4"), 7.1e8), 6); }
