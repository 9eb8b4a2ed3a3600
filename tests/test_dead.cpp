// The dead-position solver: positions whose answers follow from the rules
// alone, the batch entry point, the reach analysis's over-approximation
// checked against random play, and accuracy on a sample of the CHA test
// positions (every position runs under the slow label, test_dead_full.cpp).
#include <gtest/gtest.h>

#include <random>

#include "analysis/reach_analysis.hpp"
#include "support/dead_suite.hpp"

using namespace chess;
using namespace perftide::analysis;

namespace {

std::string data(const std::string& name) { return std::string(PERFTIDE_TEST_DATA) + "/dead/" + name; }

const char* side_name(Color c) { return c == WHITE ? "white" : "black"; }

}  // namespace

TEST(DeadSolver, RulesCasesAnsweredExactly) {
    const auto entries = dead_suite::read(data("solver-cases.txt"));
    ASSERT_GE(entries.size(), 14u);
    for (const auto& e : entries) {
        const Position p = parse_fen(e.fen);
        const DeadVerdict v = dead_position(p);
        for (Color c : {WHITE, BLACK}) {
            const MateVerdict& side = v.side(c);
            EXPECT_EQ(side.answer, e.can_mate[c] ? MateAnswer::Yes : MateAnswer::No)
                << e.fen << " " << side_name(c) << ": " << side.reason;
            if (side.answer == MateAnswer::Yes)
                EXPECT_TRUE(dead_suite::replays_to_mate(p, c, side.helpmate)) << e.fen << " " << side_name(c);
            else
                EXPECT_FALSE(side.reason.empty()) << e.fen;
        }
        EXPECT_EQ(v.dead(), !e.can_mate[WHITE] && !e.can_mate[BLACK] ? MateAnswer::Yes : MateAnswer::No) << e.fen;
    }
}

TEST(DeadSolver, MateOnTheBoardIsAnEmptyLine) {
    const MateVerdict v = can_checkmate(parse_fen("7k/6Q1/6K1/8/8/8/8/8 b - -"), WHITE);
    EXPECT_EQ(v.answer, MateAnswer::Yes);
    EXPECT_TRUE(v.helpmate.empty());
}

TEST(DeadSolver, ExhaustedBudgetIsUnknownNeverNo) {
    // King and knight against king and pawn: White mates only after the pawn
    // promotes to a blocker, far beyond ten nodes.
    const Position p = parse_fen("4k3/3p4/8/8/8/8/8/4KN2 w - -");
    const MateVerdict v = can_checkmate(p, WHITE, MateBudget{10});
    EXPECT_EQ(v.answer, MateAnswer::Unknown) << v.reason;
    const MateVerdict full = can_checkmate(p, WHITE);
    ASSERT_EQ(full.answer, MateAnswer::Yes) << full.reason;
    EXPECT_TRUE(dead_suite::replays_to_mate(p, WHITE, full.helpmate));
}

TEST(DeadSolver, BatchAgreesWithSingleQuestions) {
    std::vector<Position> positions;
    for (const auto& e : dead_suite::read(data("solver-cases.txt"))) positions.push_back(parse_fen(e.fen));
    const auto cha = dead_suite::read(data("chasolver-positions.txt"));
    for (size_t i = 0; i < cha.size(); i += 101) positions.push_back(parse_fen(cha[i].fen));
    const MateBudget budget{50'000};
    for (int threads : {1, 2}) {
        const std::vector<DeadVerdict> batch = classify_dead(positions, budget, threads);
        ASSERT_EQ(batch.size(), positions.size());
        for (size_t i = 0; i < positions.size(); ++i) {
            const DeadVerdict one = dead_position(positions[i], budget);
            EXPECT_EQ(batch[i].white.answer, one.white.answer) << to_fen(positions[i]);
            EXPECT_EQ(batch[i].black.answer, one.black.answer) << to_fen(positions[i]);
        }
    }
}

namespace {

// Follows where each piece of the start position has gone: origin[sq] is the
// start square of the piece now on sq, or -1.
struct Tracker {
    int origin[64];

    explicit Tracker(const Position& p) {
        for (int sq = 0; sq < 64; ++sq) origin[sq] = (p.occupied() & square_bb(sq)) ? sq : -1;
    }
    void play(const Position& before, Move m) {
        const int from = m.from(), to = m.to();
        if (m.is_en_passant()) origin[to ^ 8] = -1;
        if (m.is_castle()) {  // king takes own rook: both land on the castling squares
            const int king = origin[from], rook = origin[to];
            origin[from] = origin[to] = -1;
            origin[castle_king_to(from, m.flag() == KING_CASTLE)] = king;
            origin[castle_rook_to(from, m.flag() == KING_CASTLE)] = rook;
            return;
        }
        origin[to] = origin[from];
        origin[from] = -1;
        (void)before;
    }
};

}  // namespace

// The analysis claims: until the game ends in stalemate, fixed pieces stay and
// every other piece stands inside its region; a side it rules out never mates.
// Random play from CHA positions (mostly blocked ones) must never catch it out.
TEST(ReachAnalysis, RandomPlayStaysInsideTheRegions) {
    const Attacks at = host_attacks();
    const auto entries = dead_suite::read(data("chasolver-positions.txt"));
    std::mt19937 rng(20260601);
    int checked = 0;
    for (size_t i = 0; i < entries.size(); i += 3) {
        const Position root = parse_fen(entries[i].fen);
        const ReachAnalysis ra(root, at);
        for (int game = 0; game < 6; ++game) {
            Position q = root;
            Tracker t(root);
            for (int ply = 0; ply < 150; ++ply) {
                MoveList list;
                generate_moves(q, at, list);
                if (list.size == 0) {
                    if (in_check(q, at)) {
                        EXPECT_TRUE(ra.mate_possible(~q.stm)) << entries[i].fen << " mated in " << to_fen(q);
                    }
                    break;
                }
                const Move m = list.moves[std::uniform_int_distribution<int>(0, list.size - 1)(rng)];
                t.play(q, m);
                q = apply_move(q, m);
                if (count_moves(q, at) == 0 && !in_check(q, at)) break;  // stalemate may leave the regions
                for (Bitboard b = q.occupied(); b;) {
                    const int sq = pop_lsb(b);
                    ASSERT_GE(t.origin[sq], 0);
                    ASSERT_TRUE(ra.reach(t.origin[sq]) & square_bb(sq))
                        << entries[i].fen << ": piece from " << square_name(t.origin[sq]) << " reached "
                        << square_name(sq) << " in " << to_fen(q);
                }
                for (Bitboard b = ra.fixed(); b;) {
                    const int sq = pop_lsb(b);
                    ASSERT_EQ(t.origin[sq], sq) << entries[i].fen << ": fixed piece on " << square_name(sq)
                                                << " moved or was taken in " << to_fen(q);
                }
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 300000);
}

// Every 32nd CHA position with a smaller budget: zero unsound answers and at
// least 99% of the dead positions proven dead. All 3,414 FENs parse (the few
// retro-illegal ones are still positions move generation is defined on), so
// none is left out; a refusal would fail here.
TEST(DeadAccuracy, ChaSample) {
    const auto entries = dead_suite::read(data("chasolver-positions.txt"));
    std::vector<Position> positions;
    std::vector<dead_suite::Entry> sample;
    int refused = 0;
    for (size_t i = 0; i < entries.size(); i += 32) {
        try {
            positions.push_back(parse_fen(entries[i].fen));
            sample.push_back(entries[i]);
        } catch (const FenError&) {
            ++refused;
        }
    }
    const auto verdicts = classify_dead(positions, MateBudget{400'000}, 0);
    dead_suite::Score s;
    for (size_t i = 0; i < positions.size(); ++i) dead_suite::score(sample[i], positions[i], verdicts[i], s);
    EXPECT_EQ(refused, 0);
    EXPECT_EQ(s.unsound, 0);
    for (const auto& p : s.problems) ADD_FAILURE() << p;
    EXPECT_GE(100 * s.dead_found, 99 * s.dead) << s.dead_found << " of " << s.dead << " dead positions proven";
    for (const auto& m : s.missed_dead) std::cout << "not proven dead: " << m << "\n";
    std::cout << "CHA sample: " << s.positions << " positions, " << s.dead_found << "/" << s.dead << " dead proven, "
              << s.winnable_found << "/" << s.winnable << " winnable sides proven, " << s.unknown << " unknown\n";
}
