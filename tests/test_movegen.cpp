// Move generation: invariants checked at every node of small trees, and the
// rule cases one by one (FIDE 3.7-3.9).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "chess/io/fen.hpp"
#include "chess/perft.hpp"

using namespace chess;

namespace {

std::set<std::string> uci_moves(const std::string& fen) {
    const Position p = parse_fen(fen);
    MoveList list;
    generate_moves(p, host_attacks(), list);
    std::set<std::string> out;
    for (Move m : list) out.insert(move_to_uci(m, p.chess960));
    return out;
}

// Walks the tree below p and checks, at every node: the counting sink agrees
// with the list, moves are distinct, no move leaves the mover in check, move
// flags describe the board, and FEN print -> parse gives the position back.
void check_invariants(const Position& p, int depth, long& nodes) {
    const Attacks at = host_attacks();
    MoveList list;
    generate_moves(p, at, list);
    ASSERT_EQ(count_moves(p, at), uint32_t(list.size)) << to_fen(p);
    ASSERT_EQ(parse_fen(to_fen(p)), p) << to_fen(p);
    std::set<uint16_t> seen;
    for (Move m : list) {
        ASSERT_TRUE(seen.insert(m.bits).second) << "duplicate " << move_to_uci(m, p.chess960) << " in " << to_fen(p);
        const Bitboard to = square_bb(m.to());
        ASSERT_TRUE(p.color[p.stm] & square_bb(m.from())) << to_fen(p);
        ASSERT_EQ(m.is_capture() && !m.is_en_passant(), bool(p.color[~p.stm] & to)) << move_to_uci(m, p.chess960);
        const Position c = apply_move(p, m);
        ASSERT_FALSE(attackers_to(c, at, c.king[p.stm], c.occupied(), c.stm))
            << move_to_uci(m, p.chess960) << " leaves the king in check in " << to_fen(p);
        ASSERT_EQ(popcount(c.color[WHITE] & c.color[BLACK]), 0);
        ++nodes;
        if (depth > 1) check_invariants(c, depth - 1, nodes);
    }
}

}  // namespace

TEST(MoveGen, InvariantsHoldThroughoutSmallTrees) {
    const std::pair<const char*, int> roots[] = {
        {START_FEN, 4},
        {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3},
        {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 5},
        {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3},
        {"rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3},
    };
    for (const auto& [fen, depth] : roots) {
        long nodes = 0;
        check_invariants(parse_fen(fen), depth, nodes);
        EXPECT_GT(nodes, 0) << fen;
    }
}

TEST(MoveGen, EnPassantThatExposesTheKingAlongTheRankIsIllegal) {
    // 3.7d with 3.9: capturing e.p. would remove both pawns from the 5th rank.
    EXPECT_FALSE(uci_moves("8/8/8/K2pP2r/8/8/8/7k w - d6 0 1").count("e5d6"));
    EXPECT_TRUE(uci_moves("8/8/8/K2pP3/8/8/8/7k w - d6 0 1").count("e5d6"));
}

TEST(MoveGen, EnPassantCanCaptureTheCheckingPawn) {
    const auto moves = uci_moves("8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1");
    EXPECT_TRUE(moves.count("e4d3"));
}

TEST(MoveGen, EnPassantAlongADiagonalPin) {
    // The capturing pawn is pinned on the diagonal the capture follows.
    EXPECT_TRUE(uci_moves("8/8/1b6/2Pp4/8/4K3/8/7k w - d6 0 1").count("c5d6") == 0);
    EXPECT_TRUE(uci_moves("7k/8/5b2/3pP3/8/8/8/K7 w - d6 0 1").count("e5d6") == 0);
    EXPECT_TRUE(uci_moves("7k/8/8/3pP3/8/8/8/K7 w - d6 0 1").count("e5d6"));
}

TEST(MoveGen, CastlingRules) {
    // 3.8: not out of, through, or into check; squares between must be empty.
    EXPECT_TRUE(uci_moves("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").count("e1g1"));
    EXPECT_TRUE(uci_moves("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").count("e1c1"));
    EXPECT_FALSE(uci_moves("4k3/8/8/8/8/8/8/R3K2R w - - 0 1").count("e1g1"));       // no right
    EXPECT_FALSE(uci_moves("4k3/8/8/8/8/8/8/R3KB1R w KQ - 0 1").count("e1g1"));     // blocked
    EXPECT_FALSE(uci_moves("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1").count("e1c1"));     // b1 occupied
    EXPECT_FALSE(uci_moves("4k3/8/8/8/8/5r2/8/R3K2R w KQ - 0 1").count("e1g1"));    // crosses f1
    EXPECT_FALSE(uci_moves("4k3/8/8/8/8/6r1/8/R3K2R w KQ - 0 1").count("e1g1"));    // lands on g1
    EXPECT_FALSE(uci_moves("4k3/8/8/8/8/4r3/8/R3K2R w KQ - 0 1").count("e1g1"));    // in check
    EXPECT_TRUE(uci_moves("4k3/8/8/8/8/1r6/8/R3K2R w KQ - 0 1").count("e1c1"));     // b1 attacked: allowed
    EXPECT_FALSE(uci_moves("4k3/8/8/8/8/3r4/8/R3K2R w KQ - 0 1").count("e1c1"));    // crosses d1
    const auto black = uci_moves("r3k2r/8/8/8/8/8/8/4K1R1 b kq - 0 1");                // rook on g-file
    EXPECT_TRUE(black.count("e8c8"));
    EXPECT_FALSE(black.count("e8g8"));
}

TEST(MoveGen, PromotionsGiveFourMovesEach) {
    const auto moves = uci_moves("1n5k/P7/8/8/8/8/8/K7 w - - 0 1");
    for (const char* m : {"a7a8q", "a7a8r", "a7a8b", "a7a8n", "a7b8q", "a7b8r", "a7b8b", "a7b8n"})
        EXPECT_TRUE(moves.count(m)) << m;
}

TEST(MoveGen, DoubleCheckAllowsOnlyKingMoves) {
    // Knight on d6 and rook on e1 both check the king on e8.
    const auto moves = uci_moves("4k3/8/3N4/8/8/8/8/K3R2q b - - 0 1");
    for (const auto& m : moves) EXPECT_EQ(m.substr(0, 2), "e8") << m;
    EXPECT_FALSE(moves.empty());
}

TEST(MoveGen, PinnedPiecesMoveOnlyAlongThePin) {
    // The e-file rook pins the bishop (no moves) and the e-pawn can push only.
    const auto moves = uci_moves("4r2k/8/8/8/8/8/4B3/4K3 w - - 0 1");
    for (const auto& m : moves) EXPECT_NE(m.substr(0, 2), "e2") << m;
    const auto pawn = uci_moves("4r2k/8/8/8/8/3p1p2/4P3/4K3 w - - 0 1");
    EXPECT_TRUE(pawn.count("e2e3") && pawn.count("e2e4"));
    EXPECT_FALSE(pawn.count("e2d3") || pawn.count("e2f3"));
}

TEST(MoveGen, CheckmateAndStalemateHaveNoMoves) {
    EXPECT_TRUE(uci_moves("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1").empty());  // mate
    EXPECT_TRUE(uci_moves("7k/8/6QK/8/8/8/8/8 b - - 0 1").empty());    // stalemate
}
