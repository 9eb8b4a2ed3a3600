// Accuracy of the dead-position solver on all 3,414 CHA test positions:
// zero unsound answers (no No where the file says a side can mate, and every
// Yes line replays to mate), at least 1,152 of the 1,157 dead positions
// proven dead and at most 88 sides left unknown (the figures when this floor
// was set). A quarter of the default budget keeps the run to a few minutes on
// two cores; bench/dead_positions records the default budget's figures.
// Prints the completeness on the winnable side.
#include <gtest/gtest.h>

#include "support/dead_suite.hpp"

using namespace chess;
using namespace perftide::analysis;

TEST(DeadAccuracy, AllChaPositions) {
    const auto entries = dead_suite::read(std::string(PERFTIDE_TEST_DATA) + "/dead/chasolver-positions.txt");
    ASSERT_EQ(entries.size(), 3414u);
    std::vector<Position> positions;
    for (const auto& e : entries) positions.push_back(parse_fen(e.fen));  // all parse; a refusal throws here
    const auto verdicts = classify_dead(positions, MateBudget{500'000}, 0);
    dead_suite::Score s;
    for (size_t i = 0; i < positions.size(); ++i) dead_suite::score(entries[i], positions[i], verdicts[i], s);
    EXPECT_EQ(s.unsound, 0);
    for (const auto& p : s.problems) ADD_FAILURE() << p;
    EXPECT_GE(s.dead_found, 1152) << s.dead_found << " of " << s.dead << " dead positions proven";
    EXPECT_LE(s.unknown, 88) << "sides left unknown";
    for (const auto& m : s.missed_dead) std::cout << "not proven dead: " << m << "\n";
    std::cout << "CHA: " << s.positions << " positions, " << s.dead_found << "/" << s.dead << " dead proven, "
              << s.winnable_found << "/" << s.winnable << " winnable sides proven, " << s.yes_against_file
              << " proven winnable against the file, " << s.unknown << " unknown\n";
}
