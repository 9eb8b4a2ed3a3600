// Material too weak to ever checkmate, whatever the other side does: the
// classic cases of insufficient material, phrased for one intended winner.
#pragma once

#include "analysis/mate_patterns.hpp"
#include "analysis/square_sets.hpp"
#include "chess/position.hpp"

namespace perftide::analysis {

// Why `winner` can never mate from p on material alone, or nullptr when it
// might. Each case holds in every position reachable from p, since without
// pawns no piece is ever added:
//  - a lone king never gives check, and without pawns gains no pieces;
//  - king and knight against a bare king cannot mate (no blocker exists);
//  - the winner has only bishops on one square colour and no pawns, and the
//    loser no pawns, no knights and no bishops of the other colour. Bishops
//    of one colour never give double check without a promotion, so the mate
//    is one bishop's check along a diagonal whose first square s touches k.
//    The two orthogonal neighbours of k that touch s are on the board and of
//    the other colour: no bishop covers them and the winner's king, which may
//    not touch k, covers at most one. The other must hold a loser's rook or
//    queen (nothing else of the loser stands on that colour), which steps to
//    s and blocks or captures the checker: not pinned, since only a rook or
//    queen could pin it along that rank or file. So no check is mate;
//  - a lone knight against queens only (see mate_patterns.hpp).
inline const char* lacks_mating_material(const chess::Position& p, chess::Color winner) {
    using namespace chess;
    const Bitboard kings = p.kings();
    const Bitboard mine = p.color[winner] & ~kings;
    if (p.pawns & p.color[winner]) return nullptr;
    if (!mine) return "the winner has a lone king";
    const Bitboard theirs = p.color[~winner] & ~kings;
    if (!theirs && mine == (p.knights() & mine) && !more_than_one(mine)) return "king and knight against a bare king";
    const Bitboard colour = (mine & DARK_SQUARES) ? DARK_SQUARES : LIGHT_SQUARES;
    if (!p.pawns && mine == (p.bishops() & colour & mine) && !(theirs & (p.knights() | (p.bishops() & ~colour))))
        return "bishops of one square colour against no knight, pawn or bishop of the other colour";
    if (lone_knight_against_queens(p, winner)) return "a lone knight against queens";
    return nullptr;
}

}  // namespace perftide::analysis
