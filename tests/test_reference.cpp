// The independent reference generator against the published suites (every
// count up to 50,000 nodes), plus its FEN reader and writer.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "chess/perft.hpp"
#include "inputs/suite.hpp"
#include "verify/reference.hpp"

namespace ref = perftide::reference;

namespace {

constexpr double SHALLOW = 50000;

// Checks every entry at the shallow depths; returns the ids the reference's
// FEN reader refuses, and the number of counts checked through `checked`.
std::set<std::string> check_suite_with_reference(const std::string& file, int& checked) {
    std::set<std::string> refused;
    checked = 0;
    for (const perftide::SuiteEntry& e : perftide::read_suite_file(std::string(PERFTIDE_TEST_DATA) + "/" + file)) {
        ref::Board b;
        try {
            b = ref::parse_fen(e.fen);
        } catch (const ref::ReferenceError&) {
            refused.insert(e.id);
            continue;
        }
        for (const auto& [depth, expected] : e.expected) {
            if (double(expected) > SHALLOW) continue;
            EXPECT_EQ(chess::to_string(ref::perft(b, depth)), chess::to_string(expected))
                << file << " " << e.id << " (" << e.fen << ") depth " << depth;
            ++checked;
        }
    }
    return refused;
}

}  // namespace

TEST(Reference, ClassicPerftsuite126) {
    int checked = 0;
    EXPECT_TRUE(check_suite_with_reference("perft/perftsuite.epd", checked).empty());
    EXPECT_GT(checked, 126 * 2);
}

TEST(Reference, ChessprogrammingPositions) {
    int checked = 0;
    EXPECT_TRUE(check_suite_with_reference("perft/cpw_positions.epd", checked).empty());
    EXPECT_GE(checked, 7 * 2);
}

TEST(Reference, SedlakEdgeCasesAndGrandChessTree) {
    int checked = 0;
    EXPECT_TRUE(check_suite_with_reference("perft/grandchesstree.epd", checked).empty());
    EXPECT_GT(checked, 100);
}

TEST(Reference, PythonChessTricky) {
    // Every entry, the Chess960 (X-FEN) ones included, must match.
    int checked = 0;
    EXPECT_TRUE(check_suite_with_reference("perft/tricky.perft", checked).empty());
    EXPECT_GT(checked, 20);
}

TEST(Reference, FenRoundTripAndEnPassantOnlyWhenLegal) {
    const std::string start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    EXPECT_EQ(ref::to_fen(ref::parse_fen(start)), start);
    // After 1. e4 no black pawn can capture on e3: the square is not written.
    EXPECT_EQ(ref::to_fen(ref::play_uci(ref::parse_fen(start), "e2e4")),
              "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
    const ref::Board b = ref::play_uci(ref::parse_fen("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1"), "e2e4");
    EXPECT_EQ(ref::to_fen(b), "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    EXPECT_EQ(ref::to_fen(ref::play_uci(b, "d4e3")), "4k3/8/8/8/8/4p3/8/4K3 w - - 0 2");
}

TEST(Reference, CastlingNeedsSafeSquaresAndMovesTheRook) {
    // 3.8: not out of, through or into check.
    const auto moves = [](const std::string& fen) {
        const auto v = ref::legal_moves_uci(ref::parse_fen(fen));
        return std::set<std::string>(v.begin(), v.end());
    };
    EXPECT_TRUE(moves("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").count("e1g1"));
    EXPECT_TRUE(moves("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").count("e1c1"));
    EXPECT_FALSE(moves("4k3/8/8/8/8/8/8/R3K2R w - - 0 1").count("e1g1"));
    EXPECT_FALSE(moves("4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1").count("e1g1"));  // f1 attacked
    EXPECT_FALSE(moves("4k3/8/8/8/8/8/6r1/R3K2R w KQ - 0 1").count("e1g1"));  // g1 attacked
    EXPECT_FALSE(moves("4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1").count("e1c1"));  // in check
    EXPECT_TRUE(moves("4k3/8/8/8/8/8/1r6/R3K2R w KQ - 0 1").count("e1c1"));   // only b1 attacked
    EXPECT_FALSE(moves("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1").count("e1c1"));   // b1 occupied
    EXPECT_EQ(ref::to_fen(ref::play_uci(ref::parse_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"), "e1c1")),
              "4k3/8/8/8/8/8/8/2KR3R b - - 1 1");
}

TEST(Reference, PromotionOffersFourPieces) {
    const auto v = ref::legal_moves_uci(ref::parse_fen("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"));
    const std::set<std::string> moves(v.begin(), v.end());
    for (const char* m : {"b7b8q", "b7b8r", "b7b8b", "b7b8n"}) EXPECT_TRUE(moves.count(m)) << m;
    EXPECT_FALSE(moves.count("b7b8"));
}

TEST(Reference, ReaderRefusesWithAMessage) {
    for (const char* fen : {"", "8/8/8/8/8/8/8/8 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 x - - 0 1",
                            "4k3/8/8/8/8/8/8/4K3 w K - 0 1", "4k3/8/8/8/8/8/8/4K3 w - e3 0 1",
                            "4k3/8/8/8/8/8/8/4K2Z w - - 0 1", "4k3/8/8/8/8/8/8/4K3/8 w - - 0 1",
                            "4k3/8/8/8/8/8/8/4K3 w - - x 1", "4k2R/8/8/8/8/8/8/4K3 w - - 0 1"}) {
        try {
            ref::parse_fen(fen);
            ADD_FAILURE() << "accepted '" << fen << "'";
        } catch (const ref::ReferenceError& e) {
            EXPECT_TRUE(std::string(e.what()).starts_with("FEN: ")) << e.what();
        }
    }
}

// Crowded boards past the 218 moves of any legal game, and the promotion-
// inconsistent material of unwinnability test sets: parse_fen accepts them
// (16 pieces a side at most), the move buffers hold every move, and the
// counts equal the reference's.
TEST(Reference, CrowdedBoardsPastTheLegalMaximum) {
    const chess::Attacks at = chess::host_attacks();
    for (const char* fen : {"k1KQ1Q2/ppQ3Qp/4Q3/1Q5Q/4Q3/Q5Q1/p1QQ1Q2/Q6Q w - - 0 1",
                            "qqrrknnq/bbbnnbbb/8/8/8/8/NPPNNBNP/RQNNKQQR w - - 0 1"}) {
        const chess::Position p = chess::parse_fen(fen);
        const ref::Board b = ref::parse_fen(fen);
        for (int depth = 1; depth <= 2; ++depth)
            EXPECT_EQ(chess::to_string(chess::perft(p, at, depth)), chess::to_string(ref::perft(b, depth)))
                << fen << " depth " << depth;
    }
    EXPECT_GT(chess::perft(chess::parse_fen("k1KQ1Q2/ppQ3Qp/4Q3/1Q5Q/4Q3/Q5Q1/p1QQ1Q2/Q6Q w - - 0 1"), at, 1), 218u);
}
