// The same suites at every published depth (label: slow).
#include "suite_check.hpp"

constexpr double ALL = 1e30;

TEST(SuitesDeep, ClassicPerftsuite126) { EXPECT_TRUE(check_suite("perft/perftsuite.epd", ALL).empty()); }

TEST(SuitesDeep, ChessprogrammingPositions1To6) { EXPECT_TRUE(check_suite("perft/cpw_positions.epd", ALL).empty()); }

TEST(SuitesDeep, SedlakEdgeCasesAndGrandChessTree) {
    EXPECT_TRUE(check_suite("perft/grandchesstree.epd", ALL).empty());
}

TEST(SuitesDeep, PythonChessTricky) { EXPECT_TRUE(check_suite("perft/tricky.perft", ALL).empty()); }

// The Chess960 suites at every published depth (D1-D6; D5 for Double
// Chess960), through the deep engine with a small table.
TEST(SuitesDeep, Chess960FischerEpd) {
    int checked = 0;
    EXPECT_TRUE(check_suite("perft/fischer.epd", ALL, &checked, 99, true).empty());
    EXPECT_EQ(checked, 960 * 6);
}

TEST(SuitesDeep, Chess960PythonChess) {
    int checked = 0;
    EXPECT_TRUE(check_suite("perft/chess960.perft", ALL, &checked, 99, true).empty());
    EXPECT_EQ(checked, 960 * 6);
}

TEST(SuitesDeep, DoubleChess960) {
    int checked = 0;
    EXPECT_TRUE(check_suite("perft/dfrc.epd", ALL, &checked, 99, true).empty());
    EXPECT_EQ(checked, 100 * 5);
}
