// A PGN game played out with the rules header: its start position (the FEN
// and SetUp tags; Chess960 by the Variant tag), its SAN moves, and whether it
// was lost on time, as Lichess, chess.com and FICS write that.
#pragma once

#include <optional>
#include <string>

#include "chess/position.hpp"
#include "pgn/pgn_reader.hpp"

namespace perftide::pgn {

struct Replay {
    chess::Position final{};
    size_t plies = 0;
    std::string error;  // why the game cannot be played out; empty when it was
};

// Never throws: a game whose tags or moves are wrong comes back with error
// set, naming the move ("at move 23 (White): ...") or the tag.
Replay replay(const Game& g);

// The colour that ran out of time in a game lost on time (a Termination tag
// "Time forfeit" or "... won on time", or a last comment "... forfeits on
// time"), with a decisive result; nothing otherwise (a drawn time forfeit
// was already judged: the other side could not mate).
std::optional<chess::Color> flagged(const Game& g);

// "game 12 (Carlsen - Nepo, https://lichess.org/abc)": the game for messages.
std::string describe(const Game& g);

}  // namespace perftide::pgn
