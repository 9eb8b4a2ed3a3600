// A083276 at ply 7 on the CPU engine (96,400,068 distinct positions from
// about 280 M children), in three passes, beside perft(7).
#include "support/unique_check.hpp"

TEST(UniqueDeep, ReproducesA083276Ply7) {
    perftide::frontier::Options o;
    o.passes = 3;
    const auto plies = perftide::frontier::unique_cpu(chess::parse_fen(chess::START_FEN), 7, o, nullptr);
    const auto terms = a083276();
    ASSERT_EQ(plies.size(), 8u);
    for (const auto& p : plies) EXPECT_EQ(p.distinct, terms.at(p.ply)) << "ply " << p.ply;
    EXPECT_EQ(plies[7].passes, 3);
    EXPECT_EQ(chess::to_string(plies[7].paths), "3195901860");  // perft(7), A048987
}
