// Chess960 and Double Chess960: castling by the FIDE Laws' Chess960 rules
// (king to g/c, rook to f/d, from any start files), its FEN forms (X-FEN,
// Shredder-FEN, mixed), its move notation (king takes own rook) and the
// Scharnagl start arrays, checked against the independent reference.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "chess/io/chess960.hpp"
#include "chess/io/fen.hpp"
#include "chess/perft.hpp"
#include "chess/zobrist.hpp"
#include "verify/reference.hpp"

using namespace chess;
namespace ref = perftide::reference;

namespace {

Position chess960(const std::string& fen) {
    Position p = parse_fen(fen);
    p.chess960 = 1;
    return p;
}

// The divide of p in its mode's notation, from common/ and from the reference.
std::map<std::string, uint64_t> divide(const Position& p, int depth) {
    MoveList list;
    generate_moves(p, host_attacks(), list);
    std::map<std::string, uint64_t> out;
    for (Move m : list) out[move_to_uci(m, p.chess960)] = perft(apply_move(p, m), host_attacks(), depth - 1);
    return out;
}
std::map<std::string, uint64_t> reference_divide(const std::string& fen, bool chess960_mode, int depth) {
    ref::Board b = ref::parse_fen(fen);
    b.chess960 = b.chess960 || chess960_mode;
    std::map<std::string, uint64_t> out;
    for (const ref::Move& m : ref::legal_moves(b)) out[ref::uci(m, b.chess960)] = ref::perft(ref::play(b, m), depth - 1);
    return out;
}

std::set<std::string> castles(const Position& p) {
    MoveList list;
    generate_moves(p, host_attacks(), list);
    std::set<std::string> out;
    for (Move m : list)
        if (m.is_castle()) out.insert(move_to_uci(m, p.chess960));
    return out;
}

}  // namespace

TEST(Chess960Fen, ShredderXFenAndMixedNameTheSameRooks) {
    // Standard chess's rights in Shredder-FEN: the same position, standard mode.
    const Position start = parse_fen(START_FEN);
    EXPECT_EQ(parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1"), start);
    EXPECT_EQ(start.chess960, 0);
    // Scharnagl 0 (BBQNNRKR): KQkq means the outermost rooks.
    const Position a = parse_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1");
    EXPECT_EQ(parse_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1"), a);
    EXPECT_EQ(parse_fen("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HQkf - 0 1"), a);
    EXPECT_EQ(a.chess960, 1);
    EXPECT_EQ(a.castle_rooks, square_bb(SQ_F1) | square_bb(SQ_H1) | square_bb(SQ_F8) | square_bb(SQ_H8));
    EXPECT_EQ(castling_rights(a), ALL_CASTLING);
    // An inner rook is named by its file in X-FEN; K alone means the outer one.
    const Position inner = parse_fen("4k3/8/8/8/8/8/8/R1R1K2R w KC - 0 1");
    EXPECT_EQ(inner.castle_rooks, square_bb(SQ_C1) | square_bb(SQ_H1));
    EXPECT_EQ(castling_field(inner), "KC");
    EXPECT_EQ(castling_field(inner, CastlingNotation::Shredder), "HC");
    EXPECT_EQ(parse_fen("4k3/8/8/8/8/8/8/R1R1K2R w KQ - 0 1").castle_rooks, square_bb(SQ_A1) | square_bb(SQ_H1));
    EXPECT_EQ(castling_field(a), "KQkq");
    EXPECT_EQ(castling_field(a, CastlingNotation::Shredder), "HFhf");
}

TEST(Chess960Fen, EveryStartArrayRoundTripsInBothNotations) {
    std::set<std::string> arrays;
    for (int n = 0; n < 960; ++n) {
        const std::string rank = chess960_back_rank(n);
        arrays.insert(rank);
        // Bishops on opposite colours, the king between the rooks.
        EXPECT_NE(rank.find('B') % 2, rank.rfind('B') % 2) << n;
        EXPECT_LT(rank.find('R'), rank.find('K')) << n;
        EXPECT_GT(rank.rfind('R'), rank.find('K')) << n;
        const Position p = parse_fen(chess960_fen(n, 959 - n));
        for (const CastlingNotation notation : {CastlingNotation::XFen, CastlingNotation::Shredder}) {
            Position q = parse_fen(to_fen(p, notation));
            if (p.chess960) q.chess960 = 1;
            EXPECT_EQ(q, p) << to_fen(p, notation);
        }
        EXPECT_EQ(popcount(p.castle_rooks), 4) << n;
    }
    EXPECT_EQ(arrays.size(), 960u);
    EXPECT_EQ(chess960_back_rank(518), "RNBQKBNR");
    EXPECT_EQ(chess960_back_rank(0), "BBQNNRKR");
    EXPECT_EQ(chess960_back_rank(959), "RKRNNQBB");
    EXPECT_EQ(parse_fen(chess960_fen(518, 518)), parse_fen(START_FEN));
    EXPECT_THROW(chess960_back_rank(960), std::out_of_range);
}

TEST(Chess960Moves, CastlingIsWrittenKingTakesRookInChess960Mode) {
    const std::string fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    EXPECT_EQ(castles(parse_fen(fen)), (std::set<std::string>{"e1g1", "e1c1"}));
    EXPECT_EQ(castles(chess960(fen)), (std::set<std::string>{"e1h1", "e1a1"}));
    // Either notation is read in either mode; both name the same move.
    for (const Position& p : {parse_fen(fen), chess960(fen)}) {
        EXPECT_EQ(parse_uci_move(p, "e1g1"), parse_uci_move(p, "e1h1"));
        EXPECT_TRUE(parse_uci_move(p, "e1c1").is_castle());
    }
    // A king step to g1 is not castling even where castling also ends there.
    const Position f1 = chess960("4k3/8/8/8/8/8/8/5K1R w H - 0 1");
    EXPECT_FALSE(parse_uci_move(f1, "f1g1").is_castle());
    EXPECT_TRUE(parse_uci_move(f1, "f1h1").is_castle());
}

struct CastlingCase {
    const char* fen;
    std::set<std::string> castles;  // in Chess960 notation
    const char* why;
};

class Chess960Castling : public testing::TestWithParam<CastlingCase> {};

TEST_P(Chess960Castling, HasExactlyTheseCastlesAndAgreesWithTheReference) {
    const CastlingCase& c = GetParam();
    const Position p = chess960(c.fen);
    EXPECT_EQ(castles(p), c.castles) << c.why;
    for (int depth = 1; depth <= 3; ++depth) EXPECT_EQ(divide(p, depth), reference_divide(c.fen, true, depth)) << c.why;
    // After castling: king on g/c, rook on f/d, no rights left for that side.
    MoveList list;
    generate_moves(p, host_attacks(), list);
    for (Move m : list) {
        if (!m.is_castle()) continue;
        const bool king_side = m.flag() == KING_CASTLE;
        const Position q = apply_move(p, m);
        EXPECT_EQ(q.king[WHITE], king_side ? SQ_G1 : SQ_C1);
        EXPECT_TRUE(q.rooks() & q.color[WHITE] & square_bb(king_side ? SQ_F1 : SQ_D1));
        EXPECT_EQ(q.castle_rooks & RANK_1, 0u);
        EXPECT_EQ(popcount(q.color[WHITE]), popcount(p.color[WHITE]));
    }
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Cases, Chess960Castling, testing::Values(
    CastlingCase{"4k3/8/8/8/8/8/8/rR1K4 w B - 0 1", {},
                 "the b1 rook shields c1 from a1: once it has gone to d1 the king on c1 would be in check"},
    CastlingCase{"4k3/8/8/8/8/8/8/1R1K4 w B - 0 1", {"d1b1"}, "the same without the a1 rook"},
    CastlingCase{"4k3/8/8/8/8/8/8/6KR w H - 0 1", {"g1h1"}, "the king stays on g1, the rook goes to f1"},
    CastlingCase{"4k3/8/8/8/8/8/8/5KR1 w G - 0 1", {"f1g1"}, "the king lands on the rook's square"},
    CastlingCase{"4k3/8/8/8/8/8/8/1KR5 w C - 0 1", {"b1c1"}, "the king passes over its own rook"},
    CastlingCase{"4k3/8/8/8/8/8/5r2/1KR5 w C - 0 1", {}, "f1 on the king's path is attacked"},
    CastlingCase{"4k3/8/8/8/8/8/8/1KRn4 w C - 0 1", {}, "d1 on the king's path is occupied"},
    CastlingCase{"4k3/8/8/8/8/8/8/RK6 w A - 0 1", {"b1a1"}, "the king steps right to c1, the rook jumps to d1"},
    CastlingCase{"4k3/8/8/8/8/8/8/RKN5 w A - 0 1", {}, "the king's target c1 is occupied"},
    CastlingCase{"4k3/8/8/8/8/8/8/R1N1K2R w KQ - 0 1", {"e1h1"}, "the rook's path b1-d1 is blocked at c1"},
    CastlingCase{"1r2k3/8/8/8/8/8/8/RK6 w A - 0 1", {}, "the king is in check"},
    CastlingCase{"4k3/8/8/8/8/8/8/2R1KR2 w FC - 0 1", {"e1f1", "e1c1"}, "both rooks next to their targets"},
    CastlingCase{"4k3/8/8/8/8/8/8/3RK1R1 w GD - 0 1", {"e1g1", "e1d1"}, "the rook's target is its own square"}),
    [](const testing::TestParamInfo<CastlingCase>& i) { return "case" + std::to_string(i.index); });
// clang-format on

TEST(Chess960Castling, KeysFollowTheRooksAndTheMode) {
    const Zobrist z = host_zobrist();
    const Position standard = parse_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    EXPECT_NE(z.key(standard), z.key(chess960("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")));
    // Same board, different castling rook: different positions.
    EXPECT_NE(z.key(parse_fen("4k3/8/8/8/8/8/8/R1R1K2R w KC - 0 1")),
              z.key(parse_fen("4k3/8/8/8/8/8/8/R1R1K2R w KQ - 0 1")));
    // Incremental keys equal keys from scratch over two plies of 960 starts.
    for (int n : {0, 105, 518, 959}) {
        const Position root = parse_fen(chess960_fen(n, (n * 7) % 960));
        MoveList l1;
        generate_moves(root, host_attacks(), l1);
        for (Move m1 : l1) {
            const Position c1 = apply_move(root, m1);
            ASSERT_TRUE(z.child_key(root, c1, z.key(root)) == z.key(c1)) << to_fen(c1);
            MoveList l2;
            generate_moves(c1, host_attacks(), l2);
            for (Move m2 : l2) {
                const Position c2 = apply_move(c1, m2);
                ASSERT_TRUE(z.child_key(c1, c2, z.key(c1)) == z.key(c2)) << to_fen(c2);
            }
        }
    }
}

// Random Double Chess960 playouts: every position on the way has the same
// divide (depth 2) as the reference, castling included.
TEST(Chess960Castling, DoubleChess960PlayoutsAgreeWithTheReference) {
    uint64_t seed = 12345;
    const auto next = [&seed](int n) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        return int((seed >> 33) % uint64_t(n));
    };
    int castled = 0;
    for (int game = 0; game < 40; ++game) {
        Position p = chess960(chess960_fen(next(960), next(960)));
        for (int ply = 0; ply < 40; ++ply) {
            const std::string fen = to_fen(p);
            ASSERT_EQ(divide(p, 2), reference_divide(fen, true, 2)) << fen;
            MoveList list;
            generate_moves(p, host_attacks(), list);
            if (list.size == 0) break;
            Move pick = list.moves[next(list.size)];
            for (Move m : list)
                if (m.is_castle() && next(2)) pick = m;  // castle whenever it is offered, half the time
            castled += pick.is_castle();
            p = apply_move(p, pick);
        }
    }
    EXPECT_GT(castled, 20);
}
