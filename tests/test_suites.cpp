// Published perft suites at shallow depths (every count up to 2 million).
#include "suite_check.hpp"

constexpr double SHALLOW = 2e6;

TEST(Suites, ClassicPerftsuite126) {
    int checked = 0;
    EXPECT_TRUE(check_suite("perft/perftsuite.epd", SHALLOW, &checked).empty());
    EXPECT_GT(checked, 126 * 3);
}

TEST(Suites, ChessprogrammingPositions1To6) {
    int checked = 0;
    EXPECT_TRUE(check_suite("perft/cpw_positions.epd", SHALLOW, &checked).empty());
    EXPECT_GE(checked, 7 * 3);
}

TEST(Suites, SedlakEdgeCasesAndGrandChessTree) {
    int checked = 0;
    EXPECT_TRUE(check_suite("perft/grandchesstree.epd", SHALLOW, &checked).empty());
    EXPECT_GT(checked, 100);
}

// The Chess960 files to depth 4 (every row: the deep rows run under slow).
TEST(Suites, Chess960FischerEpdToDepth4) {
    int checked = 0;
    EXPECT_TRUE(check_suite("perft/fischer.epd", 1e30, &checked, 4).empty());
    EXPECT_EQ(checked, 960 * 4);
}

TEST(Suites, Chess960PythonChessToDepth4) {
    int checked = 0;
    EXPECT_TRUE(check_suite("perft/chess960.perft", 1e30, &checked, 4).empty());
    EXPECT_EQ(checked, 960 * 4);
}

TEST(Suites, DoubleChess960ToDepth4) {
    int checked = 0;
    EXPECT_TRUE(check_suite("perft/dfrc.epd", 1e30, &checked, 4).empty());
    EXPECT_EQ(checked, 100 * 4);
}

TEST(Suites, PythonChessTricky) {
    // Every entry, the Chess960 (X-FEN) ones included, must match.
    int checked = 0;
    EXPECT_TRUE(check_suite("perft/tricky.perft", SHALLOW, &checked).empty());
    EXPECT_GT(checked, 30);
}
