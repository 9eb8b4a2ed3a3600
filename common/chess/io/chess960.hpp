// Chess960 start positions by Scharnagl number (0-959; 518 is the standard
// array), for Chess960 and Double Chess960 (each side its own array, as in
// DFRC). Host only.
#pragma once

#include <string>

namespace chess {

// The back rank of start position `number`, White's letters from the a-file
// ("RNBQKBNR" for 518); throws std::out_of_range outside 0-959.
std::string chess960_back_rank(int number);

// The FEN of the start position with White's array `white` and Black's
// `black` (the same number for Chess960), all four rights in Shredder-FEN.
std::string chess960_fen(int white, int black);

}  // namespace chess
