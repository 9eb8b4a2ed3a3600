// A083276 at ply 6 on the CPU (9,417,681 distinct positions), in two passes.
#include "unique_check.hpp"

TEST(UniqueDeep, ReproducesA083276Ply6) {
    gperft::frontier::Options o;
    o.budget_bytes = uint64_t(2048) << 20;
    const auto plies = gperft::frontier::unique_host(chess::parse_fen(chess::START_FEN), 6, o, nullptr);
    const auto terms = a083276();
    ASSERT_EQ(plies.size(), 7u);
    for (const auto& p : plies) EXPECT_EQ(p.distinct, terms.at(p.ply)) << "ply " << p.ply;
    EXPECT_EQ(chess::to_string(plies[6].paths), "119060324");  // perft(6), A048987
}
