// Legality of a position as written: the reasons a FEN describes a position
// that no legal game reaches (king counts, pawns on the back ranks, checks no
// last move can have given, castling and en-passant rights the board
// contradicts, more pieces than promotions allow), and insufficient material.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "chess/io/fen.hpp"

namespace perftide::analysis {

// Every problem found, each a sentence naming its reason; empty when none of
// the tests finds one (the position may still be unreachable in ways these
// tests do not look for).
std::vector<std::string> legality_problems(const chess::FenReading& r, const chess::Attacks& at = chess::host_attacks());

// The checks on the side to move, when a single last move of the other side
// cannot have produced them: more than two checkers, or no retracted move
// leaves the side to move out of check. ep_claim is a valid en-passant square
// as written (the last move was that double push), or SQ_NONE.
std::optional<std::string> impossible_check(const chess::Position& p, int ep_claim, const chess::Attacks& at);

// More pieces of a kind than the missing pawns can have promoted to, or more
// than 16 pieces or 8 pawns of one colour.
std::vector<std::string> material_problems(const chess::Piece board[64]);

// Neither side has material to checkmate by any sequence of moves: no pawns,
// rooks or queens, and at most one minor piece, or bishops only, all on
// squares of one colour.
bool insufficient_material(const chess::Piece board[64]);

}  // namespace perftide::analysis
