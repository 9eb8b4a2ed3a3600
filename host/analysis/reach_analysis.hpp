// Static proof that a side can never checkmate. Pieces that can never move nor
// be captured (typically locked pawns and what they wall in) are found as a
// fixpoint, and for every other piece an over-approximation of the squares it
// can ever stand on is grown around them. If no square the loser's king can
// reach can both be checked and have every flight square covered, no mate
// exists in any continuation.
#pragma once

#include "chess/position.hpp"

namespace perftide::analysis {

class ReachAnalysis {
   public:
    // Runs the fixpoint for p.
    ReachAnalysis(const chess::Position& p, const chess::Attacks& at);

    // False only when `winner` can never deliver checkmate from p (nor from any
    // position reachable from it). p itself is not examined for mate.
    bool mate_possible(chess::Color winner) const;

    chess::Bitboard fixed() const { return fixed_; }
    // Squares the piece now on sq may ever stand on (its own square included).
    chess::Bitboard reach(int sq) const { return reach_[sq] | promoted_[sq]; }

   private:
    void permanent_attacks();
    void flood_pieces();
    void king_regions();
    void king_pairs(const chess::Bitboard allowed[2]);
    chess::Bitboard stalemating_steps(chess::Color mover, int victim_king) const;
    void flood_pawns();
    bool flood_pawn(int sq, chess::Color c, chess::Bitboard targets);
    chess::Bitboard conflicts() const;
    chess::Bitboard lock_conflicts() const;
    chess::Bitboard piece_attacks(chess::PieceType t, chess::Color c, int sq, chess::Bitboard occ) const;
    chess::Bitboard capture_targets(chess::Color c) const;
    chess::Color colour_on(int sq) const { return (p_.color[chess::WHITE] >> sq) & 1 ? chess::WHITE : chess::BLACK; }

    chess::Position p_;
    chess::Attacks at_;
    chess::Bitboard fixed_ = 0;
    // Pawns that never capture and are never captured (fixed pawns among
    // them): they never leave their file, so no opposing pawn pushes past.
    chess::Bitboard locked_ = 0;
    chess::Bitboard perm_attacked_[2] = {0, 0};  // squares a fixed piece of each colour always attacks
    chess::Bitboard reach_[64] = {};             // by current square; pawns: squares as a pawn
    chess::Bitboard promoted_[64] = {};          // pawns: squares as the promoted piece
    chess::Bitboard promoted_walls_[64] = {};    // the fixed set promoted_[sq] was flooded with
    // King pairs: white king squares possible together with the black king on
    // each square, when both kings' regions are small enough to track jointly.
    bool pairs_valid_ = false;
    chess::Bitboard pairs_[64] = {};
};

}  // namespace perftide::analysis
