// Shortest proof games: the move sequences from the start position that end
// in a given diagram (the men on their squares, whatever the side to move,
// castling rights or en passant), the classic chess-problem genre. For short
// games: an exhaustive search, deepening one ply at a time, that counts the
// move paths of each length which end in the diagram (positions met twice
// are counted once, with their paths), pruned by a sound lower bound on the
// moves each side still needs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "chess/count.hpp"
#include "chess/position.hpp"

namespace perftide::analysis {

// A diagram read from a FEN's placement field (a whole FEN is taken too, its
// other fields ignored). Throws chess::FenError for text that is no board,
// and std::invalid_argument for a board that is no legal position with
// either side to move (the reasons of both).
struct Diagram {
    chess::Piece board[64] = {};
};
Diagram parse_diagram(const std::string& text);
// The diagram of a position.
Diagram diagram_of(const chess::Position& p);
bool operator==(const Diagram& a, const Diagram& b);

// The longest games searched at most.
constexpr int MAX_PROOF_PLIES = 40;

struct ProofGameOptions {
    int max_plies = 12;                   // the longest games searched
    size_t list_limit = 10;               // games listed when there are at most this many
    uint64_t max_positions = 20'000'000;  // distinct (position, plies left) kept; past it the search gives up
};

struct ProofGames {
    std::optional<int> shortest;  // plies of the shortest proof games; none within max_plies
    chess::u128 games = 0;        // how many of that length (move paths)
    std::vector<std::vector<chess::Move>> lines;  // each game, when games <= list_limit
    uint64_t positions = 0;       // (position, plies left) pairs searched
    bool complete = true;         // false: max_positions reached before an answer (then nothing is claimed)
};

ProofGames find_proof_games(const Diagram& target, const ProofGameOptions& o = {});

// A game as SAN move text from the start position: "1. f3 e5 2. Kf2 ...".
std::string proof_game_text(const std::vector<chess::Move>& line);

// "dual-free" (one game), "cooked" (more), "none" (none within the plies
// searched) or "unknown" (the search gave up).
const char* proof_verdict(const ProofGames& r);

// perftide proof --json's object: the diagram's placement field, the plies
// searched, the verdict, the shortest length and number of games (null for
// none), the games listed, the positions kept and the seconds taken.
std::string proof_games_json(const std::string& placement, int max_plies, const ProofGames& r, double seconds);

}  // namespace perftide::analysis
