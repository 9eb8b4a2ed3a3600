#include "analysis/move_heuristics.hpp"

#include <array>

#include "analysis/square_sets.hpp"

namespace perftide::analysis {

using namespace chess;

namespace {

// Knight moves between any two squares, by breadth-first search.
const std::array<std::array<uint8_t, 64>, 64>& knight_distance() {
    static const auto table = [] {
        std::array<std::array<uint8_t, 64>, 64> d{};
        for (int from = 0; from < 64; ++from) {
            d[from].fill(255);
            d[from][from] = 0;
            Bitboard seen = square_bb(from), frontier = seen;
            for (uint8_t step = 1; frontier; ++step) {
                const Bitboard next = knight_spread(frontier) & ~seen;
                for (Bitboard b = next; b;) d[from][pop_lsb(b)] = step;
                seen |= next;
                frontier = next;
            }
        }
        return d;
    }();
    return table;
}

// A square given for White's mate in the h8 corner, moved to the chosen one.
int relative(int sq, bool light_corner, Color winner) {
    int file = file_of(sq), rank = rank_of(sq);
    if (light_corner) file = 7 - file;
    if (winner == BLACK) {
        file = 7 - file;
        rank = 7 - rank;
    }
    return make_square(file, rank);
}

}  // namespace

MateTargets::MateTargets(const Position& p, Color winner) {
    const Bitboard wb = p.bishops() & p.color[winner], lb = p.bishops() & p.color[~winner];
    // A bishop mates on its own colour; a loser's bishop blocks on its colour,
    // next to a corner of the other one.
    const bool dark = (wb & DARK_SQUARES) || (!wb && (lb & LIGHT_SQUARES));
    loser_king = relative(SQ_H8, !dark, winner);
    winner_king = relative(SQ_G6, !dark, winner);
    winner_knight = relative(SQ_E5, !dark, winner);
    loser_knight = relative(SQ_G8, !dark, winner);

    const Bitboard mine = p.color[winner] & ~p.kings(), theirs = p.color[~winner] & ~p.kings();
    const Bitboard their_blockers = theirs & (p.knights() | p.bishops() | p.rooks());
    const bool lone_knight = mine == (p.knights() & mine) && !more_than_one(mine) && mine;
    const Bitboard bishop_colour = (wb & DARK_SQUARES) ? DARK_SQUARES : LIGHT_SQUARES;
    const bool one_colour_bishops = mine && mine == wb && !(wb & ~bishop_colour);
    loser_must_promote = (lone_knight && !their_blockers) ||
                         (one_colour_bishops && !(theirs & p.knights()) && !(lb & ~bishop_colour));
}

Progress classify(const Position& p, Move m, Color winner, const MateTargets& t) {
    const int from = m.from(), to = m.to();
    const PieceType moved = p.type_on(from);
    const auto& kd = knight_distance();
    if (p.stm == winner) {
        if (m.is_capture() || moved == PAWN) return Progress::Reward;
        if (moved == KING && chebyshev(to, t.winner_king) < chebyshev(from, t.winner_king)) return Progress::Reward;
        if (moved == KNIGHT && kd[to][t.winner_knight] < kd[from][t.winner_knight]) return Progress::Reward;
        return Progress::Normal;
    }
    if (t.loser_must_promote) {
        const bool heavy = m.is_promotion() && m.promotion() >= ROOK;
        if (moved == PAWN && !heavy) return Progress::Reward;
        if (moved != KING) return Progress::Punish;
    }
    if (moved == KING && chebyshev(to, t.loser_king) < chebyshev(from, t.loser_king)) return Progress::Reward;
    if (moved == KNIGHT && kd[to][t.loser_knight] < kd[from][t.loser_knight]) return Progress::Reward;
    // Other pieces of the loser gather round the corner, where they block
    // the king's flight squares.
    if ((moved == BISHOP || moved == ROOK) && !m.is_capture() &&
        chebyshev(to, t.loser_king) < chebyshev(from, t.loser_king))
        return Progress::Reward;
    if (m.is_capture() || moved == PAWN) return Progress::Punish;
    return Progress::Normal;
}

}  // namespace perftide::analysis
