// FEN parse, validate and print, and UCI move text (host only). Parsing
// refuses anything malformed, and any position on which move generation is
// undefined, by throwing FenError with a message naming the field.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.hpp"
#include "chess/movegen.hpp"

namespace chess {

inline constexpr const char* START_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

struct FenError : perftide::InputError {
    using perftide::InputError::InputError;
};

// What a FEN says, read for syntax only. The board is kept as written (any
// number of kings); `pos` holds it too, but is meaningful for move generation
// only when `refusals` is empty.
struct FenReading {
    Position pos{};
    Piece board[64] = {};
    int kings[2] = {0, 0};
    bool kings_valid = false;  // exactly one king of each colour
    int ep_written = SQ_NONE;  // the en-passant field's square, or SQ_NONE for '-'
    // Every reason parse_fen refuses the position, in its order (parse_fen
    // throws the first): king counts, the en-passant square, then the
    // board's problems (the check test only when kings_valid).
    std::vector<std::string> refusals;
};

// Reads a FEN like parse_fen but throws FenError only for malformed text;
// positions that parse_fen refuses come back with their refusals.
FenReading read_fen(std::string_view fen, const Attacks& at = host_attacks());

// Parses a FEN with four (EPD-style) or six fields. Castling rights may be
// written KQkq, as rook files (Shredder-FEN: HAha) or mixed (X-FEN); rights
// that need Chess960's rule (a king off the e-file, a rook off its corner)
// set the position's chess960 mode. The en-passant square is
// kept only when a pawn of the side to move stands beside the pawn that
// double-pushed (the same rule apply_move follows), so equal positions
// compare equal; the given square is validated either way.
Position parse_fen(std::string_view fen, const Attacks& at = host_attacks());

// How castling rights are written: X-FEN (KQkq, with a rook's file letter
// only where another rook stands beyond it) or Shredder-FEN (the rooks'
// files, HAha). Both read back to the same position; standard chess's
// rights are KQkq in X-FEN.
enum class CastlingNotation { XFen, Shredder };

// Six-field FEN.
std::string to_fen(const Position& p, CastlingNotation notation = CastlingNotation::XFen);
std::string castling_field(const Position& p, CastlingNotation notation = CastlingNotation::XFen);

// The piece on each square of p.
void board_of(const Position& p, Piece board[64]);

std::string square_name(int sq);

// Long algebraic UCI text: e2e4, e7e8q; castling as the king's move (e1g1)
// in standard chess and as king takes own rook (e1h1) in Chess960 mode, as
// Stockfish writes them with UCI_Chess960 false and true.
std::string move_to_uci(Move m, bool chess960);

// The legal move of p that `text` names, in the notation of p's mode (or
// castling in the other mode's); throws std::invalid_argument with a
// message when the text is malformed or names no legal move.
Move parse_uci_move(const Position& p, std::string_view text, const Attacks& at = host_attacks());

}  // namespace chess
