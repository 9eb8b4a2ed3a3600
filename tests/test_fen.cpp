// FEN parsing, printing and every refusal.
#include <gtest/gtest.h>

#include "chess/io/fen.hpp"

using namespace chess;

TEST(Fen, StartPositionRoundTrips) {
    const Position p = parse_fen(START_FEN);
    EXPECT_EQ(to_fen(p), START_FEN);
    EXPECT_EQ(p.stm, WHITE);
    EXPECT_EQ(castling_rights(p), ALL_CASTLING);
    EXPECT_EQ(p.castle_rooks, square_bb(SQ_A1) | square_bb(SQ_H1) | square_bb(SQ_A8) | square_bb(SQ_H8));
    EXPECT_EQ(p.chess960, 0);
    EXPECT_EQ(p.ep, SQ_NONE);
    EXPECT_EQ(p.king[WHITE], SQ_E1);
    EXPECT_EQ(p.king[BLACK], SQ_E8);
    EXPECT_EQ(popcount(p.occupied()), 32);
    EXPECT_EQ(popcount(p.knights()), 4);
    EXPECT_EQ(p.piece_on(SQ_D8), make_piece(BLACK, QUEEN));
    EXPECT_EQ(p.piece_on(SQ_E4), NO_PIECE);
}

TEST(Fen, FourFieldFenGetsDefaultCounters) {
    const Position p = parse_fen("8/8/8/8/8/8/8/K6k b - -");
    EXPECT_EQ(p.halfmove, 0);
    EXPECT_EQ(p.fullmove, 1);
    EXPECT_EQ(to_fen(p), "8/8/8/8/8/8/8/K6k b - - 0 1");
}

TEST(Fen, RoundTripsKeepEveryField) {
    for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
                            "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1", "1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 17 42",
                            "4k3/8/8/8/8/8/8/4K2R w K - 99 120"}) {
        const Position p = parse_fen(fen);
        EXPECT_EQ(to_fen(p), fen);
        EXPECT_EQ(parse_fen(to_fen(p)), p);
    }
}

TEST(Fen, UselessEnPassantSquareIsDropped) {
    // After 1.e4 no black pawn can capture en passant: the position is the
    // same as without the square (FIDE 9.2), and prints without it.
    const Position p = parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1");
    EXPECT_EQ(p.ep, SQ_NONE);
    EXPECT_EQ(p, parse_fen("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"));
}

TEST(Fen, WhitespaceIsTolerated) {
    EXPECT_EQ(parse_fen("  8/8/8/8/8/8/8/K6k   w  -  -  3  9 \t"), parse_fen("8/8/8/8/8/8/8/K6k w - - 3 9"));
}

struct Refusal {
    const char* fen;
    const char* message;  // a part of the message that names field and problem
};

class FenRefusal : public testing::TestWithParam<Refusal> {};

// Stable test names (CTest discovers tests by name).
std::string case_name(const testing::TestParamInfo<Refusal>& info) { return "case" + std::to_string(info.index); }

TEST_P(FenRefusal, IsRefusedWithItsReason) {
    try {
        parse_fen(GetParam().fen);
        FAIL() << "accepted: " << GetParam().fen;
    } catch (const FenError& e) {
        EXPECT_NE(std::string(e.what()).find(GetParam().message), std::string::npos)
            << "message was: " << e.what();
    }
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Malformed, FenRefusal, testing::Values(
    Refusal{"", "FEN: empty"},
    Refusal{"8/8/8/8/8/8/8/K6k w -", "3 fields, expected 4 to 6"},
    Refusal{"8/8/8/8/8/8/8/K6k w - - 0 1 extra", "trailing text 'extra'"},
    Refusal{"8/8/8/8/8/8/K6k w - - 0 1", "7 ranks, expected 8"},
    Refusal{"8/8/8/8/8/8/8/8/K6k w - - 0 1", "more than 8 ranks"},
    Refusal{"9/8/8/8/8/8/8/K6k w - - 0 1", "digit '9' (runs of empty squares are 1 to 8)"},
    Refusal{"7/8/8/8/8/8/8/K6k w - - 0 1", "rank 8 has 7 squares, expected 8"},
    Refusal{"8/8/8/8/8/8/8/K6kk w - - 0 1", "rank 1 has more than 8 squares"},
    Refusal{"8/8/8/8/8/8/8/K5k w - - 0 1", "rank 1 has 7 squares"},
    Refusal{"8/8/8/8/8/8/8/K6x w - - 0 1", "unknown piece letter 'x'"},
    Refusal{"8/8/8/8/8/8/8/K6k x - - 0 1", "side to move: 'x'"},
    Refusal{"8/8/8/8/8/8/8/K6k W - - 0 1", "side to move: 'W'"},
    Refusal{"r3k2r/8/8/8/8/8/8/R3K2R w KX - 0 1", "castling: unexpected character 'X'"},
    Refusal{"r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1", "castling: 'KK' repeats 'K'"},
    Refusal{"r3k2r/8/8/8/8/8/8/R3K2R w KI - 0 1", "castling: unexpected character 'I'"},
    Refusal{"r3k2r/8/8/8/8/8/8/R3K2R w HH - 0 1", "castling: 'HH' repeats 'H'"},
    Refusal{"8/8/8/8/8/8/8/44K2k w - - 0 1", "rank 1 has two digits in a row"},
    Refusal{"8/8/8/8/8/8/8/K6k w - e9 0 1", "en passant: 'e9' is not '-' or a square"},
    Refusal{"8/8/8/8/8/8/8/K6k w - x 0 1", "en passant: 'x' is not '-' or a square"},
    Refusal{"8/8/8/8/8/8/8/K6k w - - -1 1", "halfmove clock: '-1' is not a non-negative integer"},
    Refusal{"8/8/8/8/8/8/8/K6k w - - 1x 1", "halfmove clock: '1x'"},
    Refusal{"8/8/8/8/8/8/8/K6k w - - 65536 1", "halfmove clock: '65536' is larger than 65535"},
    Refusal{"8/8/8/8/8/8/8/K6k w - - 0 z", "fullmove number: 'z' is not a non-negative integer"},
    Refusal{"8/8/8/8/8/8/8/K6k w - - 0 99999999999999999999", "fullmove number: '99999999999999999999' is larger"}), case_name);

INSTANTIATE_TEST_SUITE_P(Undefined, FenRefusal, testing::Values(
    Refusal{"8/8/8/8/8/8/8/K7 w - - 0 1", "Black has 0 kings, expected exactly one"},
    Refusal{"k7/8/8/8/8/8/8/KK6 w - - 0 1", "White has 2 kings, expected exactly one"},
    Refusal{"k7/8/8/8/8/N7/NNNNNNNN/NNNNNNNK w - - 0 1", "White has 17 pieces, more than the 16 a side starts with"},
    Refusal{"P6k/8/8/8/8/8/8/K7 w - - 0 1", "White has a pawn on rank 1 or 8"},
    Refusal{"7k/8/8/8/8/8/8/K6p w - - 0 1", "Black has a pawn on rank 1 or 8"},
    Refusal{"k6R/8/8/8/8/8/8/K7 w - - 0 1", "Black (not to move) is in check"},
    Refusal{"4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling right 'K' but no White rook on rank 1 between the king and the h-file"},
    Refusal{"4k3/8/8/8/8/8/8/R3K3 w K - 0 1", "castling right 'K' but no White rook on rank 1 between the king and the h-file"},
    Refusal{"4k3/8/8/8/8/8/4K3/7R w K - 0 1", "castling right 'K' but the White king is not on rank 1"},
    Refusal{"4k3/8/8/8/8/8/8/4K3 w q - 0 1", "castling right 'q' but no Black rook on rank 8 between the king and the a-file"},
    Refusal{"4k3/8/8/8/8/8/8/4K2R w G - 0 1", "castling right 'G' but no White rook on g1"},
    Refusal{"4k3/8/8/8/8/8/8/3R2K1 w E - 0 1", "castling right 'E' but no White rook on e1"},
    Refusal{"4k3/8/8/8/8/8/8/4K1RR w HG - 0 1", "castling field 'HG' gives White two rights on the king's side"},
    Refusal{"4k3/8/8/8/8/8/8/4K1RR w KG - 0 1", "castling field 'KG' gives White two rights on the king's side"},
    Refusal{"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", "'e4' is not on rank 3"},
    Refusal{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", "no White pawn on e4"},
    Refusal{"rnbqkbnr/pppppppp/8/8/4P3/4N3/PPPP1PPP/RNBQKB1R b KQkq e3 0 1", "needs e3 and e2 empty"}), case_name);
// clang-format on

TEST(UciMove, ParsesLegalMovesAndRefusesOthers) {
    const Position p = parse_fen(START_FEN);
    const Move m = parse_uci_move(p, "e2e4");
    EXPECT_EQ(m.from(), SQ_E2);
    EXPECT_EQ(m.to(), SQ_E4);
    EXPECT_EQ(m.flag(), DOUBLE_PUSH);
    EXPECT_EQ(move_to_uci(m, false), "e2e4");
    EXPECT_THROW(parse_uci_move(p, "e2e5"), std::invalid_argument);
    EXPECT_THROW(parse_uci_move(p, "e2"), std::invalid_argument);
    EXPECT_THROW(parse_uci_move(p, "i2i4"), std::invalid_argument);
    EXPECT_THROW(parse_uci_move(p, "e7e8x"), std::invalid_argument);
    const Position promo = parse_fen("8/4P3/8/8/8/8/8/K6k w - - 0 1");
    EXPECT_EQ(parse_uci_move(promo, "e7e8n").promotion(), KNIGHT);
    EXPECT_EQ(move_to_uci(parse_uci_move(promo, "e7e8q"), false), "e7e8q");
}
