// Standard Algebraic Notation (SAN) as PGN writes moves (host only): piece
// letter, disambiguation, capture, destination, promotion, check and mate
// suffixes; castling as O-O / O-O-O (or with zeros), in Chess960 too.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "chess/movegen.hpp"

namespace chess {

// The legal move of p that `text` names. Accepted beside strict SAN, as PGN
// files written by people and servers have them: annotation suffixes (!, ?,
// !!, ?!, +, #), "e.p.", promotion with or without '=', ':' for 'x', the
// long form (Ng1-f3, e2e4 as a pawn move) and zeros in castling. Throws
// std::invalid_argument naming the text when it is malformed, names no
// legal move, or names more than one.
Move parse_san(const Position& p, std::string_view text, const Attacks& at = host_attacks());

// p's move m in SAN, with '+' or '#' when it checks or mates.
std::string move_to_san(const Position& p, Move m, const Attacks& at = host_attacks());

}  // namespace chess
