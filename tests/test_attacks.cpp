// Attack tables against their slow definitions.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "chess/attacks.hpp"

using namespace chess;

TEST(Attacks, MagicSlidersMatchRayWalkOnRandomOccupancies) {
    const Attacks at = host_attacks();
    std::mt19937_64 rng(12345);
    for (int trial = 0; trial < 2000; ++trial) {
        const Bitboard occ = rng() & rng();
        for (int sq = 0; sq < 64; ++sq) {
            ASSERT_EQ(at.rook(sq, occ), detail::ray_attacks(sq, occ, detail::ROOK_DIRS)) << "rook on " << sq;
            ASSERT_EQ(at.bishop(sq, occ), detail::ray_attacks(sq, occ, detail::BISHOP_DIRS)) << "bishop on " << sq;
        }
    }
}

TEST(Attacks, LeaperCounts) {
    const Attacks at = host_attacks();
    EXPECT_EQ(popcount(at.knight(SQ_A1)), 2);
    EXPECT_EQ(popcount(at.knight(SQ_D4)), 8);
    EXPECT_EQ(popcount(at.king(SQ_H8)), 3);
    EXPECT_EQ(popcount(at.king(SQ_E4)), 8);
    EXPECT_EQ(at.pawn(WHITE, SQ_E4), square_bb(SQ_D5) | square_bb(SQ_F5));
    EXPECT_EQ(at.pawn(BLACK, SQ_A7), square_bb(SQ_B6));
    EXPECT_EQ(at.pawn(WHITE, SQ_H8), 0u);
}

TEST(Attacks, BetweenAndLineAgreeWithGeometry) {
    const Attacks at = host_attacks();
    for (int a = 0; a < 64; ++a) {
        for (int b = 0; b < 64; ++b) {
            const int df = file_of(b) - file_of(a), dr = rank_of(b) - rank_of(a);
            const bool aligned = a != b && (df == 0 || dr == 0 || df == dr || df == -dr);
            if (!aligned) {
                EXPECT_EQ(at.between(a, b), 0u);
                EXPECT_EQ(at.line(a, b), 0u);
                continue;
            }
            const int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
            Bitboard between = 0;
            for (int f = file_of(a) + sf, r = rank_of(a) + sr; make_square(f, r) != b; f += sf, r += sr)
                between |= square_bb(make_square(f, r));
            EXPECT_EQ(at.between(a, b), between) << a << " " << b;
            const int fa = file_of(a), ra = rank_of(a);
            const int length = df == 0 || dr == 0 ? 8 : df == dr ? 8 - std::abs(fa - ra) : 8 - std::abs(fa + ra - 7);
            EXPECT_EQ(popcount(at.line(a, b)), length) << a << " " << b;
            EXPECT_TRUE(at.line(a, b) & square_bb(a));
            EXPECT_TRUE(at.line(a, b) & square_bb(b));
            EXPECT_EQ(at.line(a, b) & between, between);
            EXPECT_EQ(at.line(a, b), at.line(b, a));
        }
    }
}

// The written-out magics are the ones in use (no square fell back to the
// search, which would cost a third of a second at every start).
TEST(Attacks, TablesUseTheWrittenOutMagics) {
    const auto t = chess::build_attack_data();
    for (int s = 0; s < 64; ++s) {
        EXPECT_EQ(t->rook_magic[s].magic, chess::detail::ROOK_MAGICS[s]) << "rook square " << s;
        EXPECT_EQ(t->bishop_magic[s].magic, chess::detail::BISHOP_MAGICS[s]) << "bishop square " << s;
    }
}
