// The same suites at every published depth (label: slow).
#include "suite_check.hpp"

constexpr double ALL = 1e30;

TEST(SuitesDeep, ClassicPerftsuite126) { EXPECT_TRUE(check_suite("perft/perftsuite.epd", ALL).empty()); }

TEST(SuitesDeep, ChessprogrammingPositions1To6) { EXPECT_TRUE(check_suite("perft/cpw_positions.epd", ALL).empty()); }

TEST(SuitesDeep, SedlakEdgeCasesAndGrandChessTree) {
    EXPECT_TRUE(check_suite("perft/grandchesstree.epd", ALL).empty());
}

TEST(SuitesDeep, PythonChessTricky) { EXPECT_EQ(check_suite("perft/tricky.perft", ALL).size(), 6u); }
