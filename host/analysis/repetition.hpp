// Repetition and move-count rules over a game given as a start position and
// moves (FIDE 9.2, 9.3, 9.6). Positions are compared as FIDE 9.2 compares
// them (chess::canonical). Kept simple, as documented in the README:
// a threefold claim is reported when the current position has occurred at
// least three times (the claim of 9.2.1 by a written intended move is not
// modelled), a 50-move claim when the halfmove clock is at least 100.
#pragma once

#include <string>
#include <vector>

#include "chess/movegen.hpp"

namespace perftide::analysis {

struct RepetitionReport {
    int occurrences = 1;        // of the current position, the start included
    int halfmove_clock = 0;     // of the current position (saturates at 65535)
    bool threefold_claim = false;
    bool fifty_move_claim = false;
    bool fivefold = false;            // some position occurred a fifth time: the game was over (9.6.1)
    bool seventy_five_move = false;   // 150 plies without pawn move or capture, not ending in mate (9.6.2)
    int game_over_ply = -1;           // the first ply at which either ended the game, or -1
};

// The positions of the game: the start, then one after each UCI move (space
// separated). Throws std::invalid_argument naming a malformed or illegal move.
std::vector<chess::Position> play_line(const chess::Position& start, const std::string& moves,
                                       const chess::Attacks& at = chess::host_attacks());

RepetitionReport repetition_report(const std::vector<chess::Position>& game,
                                   const chess::Attacks& at = chess::host_attacks());

}  // namespace perftide::analysis
