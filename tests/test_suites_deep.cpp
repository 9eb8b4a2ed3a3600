// The same suites at every published depth (label: slow).
#include <map>
#include <sstream>

#include "support/suite_check.hpp"

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

// python-chess's file holds the same 960 positions as fischer.epd, which the
// test above counts to D6: here D1-D5 are counted, and every published count
// (D6 included) must be fischer.epd's for the same position, so each D6
// count is computed once for both publications.
TEST(SuitesDeep, Chess960PythonChess) {
    int checked = 0;
    EXPECT_TRUE(check_suite("perft/chess960.perft", ALL, &checked, 5, true).empty());
    EXPECT_EQ(checked, 960 * 5);
    const auto four_fields = [](const std::string& fen) {
        std::istringstream in(fen);
        std::string f, out;
        for (int k = 0; k < 4 && in >> f; ++k) out += (k ? " " : "") + f;
        return out;
    };
    std::map<std::string, std::vector<std::pair<int, chess::u128>>> fischer;
    for (const auto& e : perftide::read_suite_file(std::string(PERFTIDE_TEST_DATA) + "/perft/fischer.epd"))
        fischer[four_fields(e.fen)] = e.expected;
    int same = 0;
    for (const auto& e : perftide::read_suite_file(std::string(PERFTIDE_TEST_DATA) + "/perft/chess960.perft")) {
        const auto it = fischer.find(four_fields(e.fen));
        ASSERT_NE(it, fischer.end()) << e.id << ": " << e.fen << " is not in fischer.epd";
        ASSERT_EQ(e.expected.size(), 6u) << e.id;
        for (size_t d = 0; d < 6; ++d) EXPECT_EQ(chess::to_string(e.expected[d].second), chess::to_string(it->second.at(d).second)) << e.id;
        ++same;
    }
    EXPECT_EQ(same, 960);
}

TEST(SuitesDeep, DoubleChess960) {
    int checked = 0;
    EXPECT_TRUE(check_suite("perft/dfrc.epd", ALL, &checked, 99, true).empty());
    EXPECT_EQ(checked, 100 * 5);
}
