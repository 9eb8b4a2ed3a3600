// Positions as text: a FEN with UCI moves played from it, and a line of a
// position file as every command reads it (suite, perft --file, analyze): a
// FEN or the four EPD fields, then EPD operations ("bm e4;", "id \"x\";",
// ";D1 20") or a ';' comment.
#pragma once

#include <string>
#include <utility>

#include "chess/position.hpp"

namespace perftide {

// The FEN that `text` names: "startpos" (as UCI writes the start position)
// is the start position's FEN; any other text is itself.
std::string fen_named(const std::string& text);

// The position after parsing `fen` (or "startpos") and playing the UCI `moves` (space
// separated), in Chess960 mode when `chess960` is set or the FEN's castling
// rights need it; throws with a message naming the bad FEN field or move.
chess::Position position_from(const std::string& fen, const std::string& moves, bool chess960);

// The FEN part of a line (text before any ';', and only the four EPD fields
// when EPD operations follow them; a line's "startpos" is the start
// position's FEN) and the rest of the line: the EPD operations, or the ';'
// and what follows it.
std::pair<std::string, std::string> split_position_line(const std::string& line);

// What the rest of a line says besides its position: the EPD `id` operation
// (unquoted), and every other operation or comment text, trimmed of
// surrounding blanks and semicolons.
struct LineMetadata {
    std::string id;
    std::string comment;
};
LineMetadata line_metadata(const std::string& rest_of_line);

}  // namespace perftide
