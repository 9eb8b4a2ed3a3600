// Published perft suites at shallow depths (every count up to 2 million),
// and the suite reader refusing what is not one count per depth.
#include <sstream>

#include "support/suite_check.hpp"

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

// The Chess960 files to depth 4, every position (the deep rows run under
// slow): the number of (position, depth) pairs checked.
int chess960_rows_to_depth4(const std::string& file) {
    int checked = 0;
    EXPECT_TRUE(check_suite(file, 1e30, &checked, 4).empty()) << file;
    return checked;
}

TEST(Suites, Chess960FischerEpdToDepth4) { EXPECT_EQ(chess960_rows_to_depth4("perft/fischer.epd"), 960 * 4); }
TEST(Suites, Chess960PythonChessToDepth4) { EXPECT_EQ(chess960_rows_to_depth4("perft/chess960.perft"), 960 * 4); }
TEST(Suites, DoubleChess960ToDepth4) { EXPECT_EQ(chess960_rows_to_depth4("perft/dfrc.epd"), 100 * 4); }

TEST(Suites, PythonChessTricky) {
    // Every entry, the Chess960 (X-FEN) ones included, must match.
    int checked = 0;
    EXPECT_TRUE(check_suite("perft/tricky.perft", SHALLOW, &checked).empty());
    EXPECT_GT(checked, 30);
}

// Two counts for one depth are a malformed line (SuiteError, exit 2), named
// by its line and the depth, in both formats; never a failed count.
TEST(Suites, TwoCountsForOneDepthAreRefused) {
    const std::string krk = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";
    for (const auto& [text, line] : {std::pair<std::string, int>{"\n" + krk + " ;D1 15 ;D1 16\n", 2},
                                     {krk + " ;D1 15 ;D2 66 ;D1 15\n", 1},
                                     {"id x\nepd " + krk + "\nperft 1 15\nperft 1 16\n", 4}}) {
        std::istringstream in(text);
        try {
            perftide::parse_suite(in, "suite file 'mine.epd'");
            ADD_FAILURE() << "read: " << text;
        } catch (const perftide::SuiteError& e) {
            EXPECT_EQ(std::string(e.what()),
                      "suite file 'mine.epd' line " + std::to_string(line) + ": two counts for depth 1")
                << text;
        }
    }
}
