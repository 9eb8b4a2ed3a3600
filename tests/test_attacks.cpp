// Attack tables against their slow definitions.
#include <gtest/gtest.h>

#include <cstdlib>
#include <random>

#include "chess/attacks.hpp"

using namespace chess;

// pext in software: the bits of occ under mask, packed from the lowest.
static uint64_t extract_bits(Bitboard occ, Bitboard mask) {
    uint64_t out = 0;
    for (int bit = 0; mask; ++bit, mask &= mask - 1)
        if (occ & mask & (0 - mask)) out |= uint64_t(1) << bit;
    return out;
}

// Both slider schemes, whichever this build looks up through Attacks: the
// magic table (the device's) and the pext table (BMI2 hosts') are read by
// their own index formulas here, so each is checked in every build.
TEST(Attacks, BothSliderTablesMatchRayWalkOnRandomOccupancies) {
    const Attacks at = host_attacks();
    const AttackData& d = *at.d;
    std::mt19937_64 rng(12345);
    for (int trial = 0; trial < 2000; ++trial) {
        const Bitboard occ = rng() & rng();
        for (int sq = 0; sq < 64; ++sq) {
            const Bitboard rook = detail::ray_attacks(sq, occ, detail::ROOK_DIRS);
            const Bitboard bishop = detail::ray_attacks(sq, occ, detail::BISHOP_DIRS);
            ASSERT_EQ(at.rook(sq, occ), rook) << "rook on " << sq << " (pext: " << CHESS_PEXT << ")";
            ASSERT_EQ(at.bishop(sq, occ), bishop) << "bishop on " << sq << " (pext: " << CHESS_PEXT << ")";
            for (const auto* m : {&d.rook_magic[sq], &d.bishop_magic[sq]}) {
                const Bitboard want = m == &d.rook_magic[sq] ? rook : bishop;
                ASSERT_EQ(d.slider[m->offset + (((occ & m->mask) * m->magic) >> m->shift)], want) << "magic, " << sq;
                ASSERT_EQ(d.slider_pext[m->offset + extract_bits(occ, m->mask)], want) << "pext, " << sq;
            }
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
