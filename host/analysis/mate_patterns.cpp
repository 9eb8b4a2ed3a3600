#include "analysis/mate_patterns.hpp"

namespace perftide::analysis {

using namespace chess;

namespace {

// The fewest queens that let a king and knight mate a king, over every
// picture: the knight checks from n, the winner's king stands on w, and queens
// fill exactly the flight squares neither attacks (99 when no picture mates).
// Queens elsewhere cannot help: a queen off the flight squares that stops
// another from taking the knight, or from attacking w, would itself attack
// the knight or w, so the picture with it removed is mate (and legal) too.
int fewest_queens_for_knight_mate() {
    const Attacks at = host_attacks();
    int fewest = 99;
    for (int k = 0; k < 64; ++k) {
        for (Bitboard ns = at.knight(k); ns;) {
            const int n = pop_lsb(ns);
            for (int w = 0; w < 64; ++w) {
                if (w == k || w == n || (at.king(k) & square_bb(w))) continue;
                const Bitboard queens = at.king(k) & ~at.knight(n) & ~at.king(w);
                if (popcount(queens) >= fewest) continue;
                Position p{};
                p.color[WHITE] = square_bb(w) | square_bb(n);
                p.color[BLACK] = square_bb(k) | queens;
                p.diag = p.orth = queens;
                p.king[WHITE] = uint8_t(w);
                p.king[BLACK] = uint8_t(k);
                p.stm = BLACK;
                p.ep = SQ_NONE;
                p.fullmove = 1;
                if (attackers_to(p, at, w, p.occupied(), BLACK)) continue;  // not a legal picture
                if (count_moves(p, at) == 0) fewest = popcount(queens);
            }
        }
    }
    return fewest;
}

}  // namespace

bool lone_knight_against_queens(const Position& p, Color winner) {
    const Bitboard mine = p.color[winner] & ~p.kings(), theirs = p.color[~winner] & ~p.kings();
    if (p.pawns || !mine || more_than_one(mine) || !(mine & p.knights()) || (theirs & ~p.queens())) return false;
    static const int fewest = fewest_queens_for_knight_mate();
    return popcount(theirs) < fewest;
}

}  // namespace perftide::analysis
