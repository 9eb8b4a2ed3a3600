// Whether a side can still checkmate by any sequence of legal moves (FIDE 1.3
// and 5.2b: a position is dead when neither side can). Sound before complete:
// the answer is never No when a mate exists; Unknown when the budget runs out.
// A position that is already checkmate counts as mated by the side that just
// moved (Yes with an empty line) and as No for the mated side; stalemate is No
// for both. Move counters play no part (the 50- and 75-move rules are ignored).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chess/position.hpp"

namespace perftide::analysis {

enum class MateAnswer { Yes, No, Unknown };

struct MateVerdict {
    MateAnswer answer = MateAnswer::Unknown;
    std::vector<chess::Move> helpmate;  // with Yes: a legal line ending in mate by the winner
    std::string reason;                 // with No or Unknown: why
    uint64_t nodes = 0;                 // positions searched to decide
};

struct MateBudget {
    uint64_t max_nodes = 2'000'000;  // search nodes per question
};

// Can `winner` deliver checkmate from p (the other side cooperating)? p must
// be a position parse_fen accepts (move generation defined on it). Safe to
// call from several threads at once (each thread keeps its own tables).
MateVerdict can_checkmate(const chess::Position& p, chess::Color winner, const MateBudget& budget = {});

// Its cheap stages only: the board, the material, the reach analysis, a
// short helpmate search (at most 2,000 nodes) and a short exhaustive search
// (at most about 300 positions: a small reachable set, such as a forced line
// into a capture or a stalemate, is walked to its end, proving No). Unknown,
// with the reason "short searches found nothing", where only the full search
// could say more.
MateVerdict can_checkmate_quickly(const chess::Position& p, chess::Color winner, const MateBudget& budget = {});

// The fast check: the board, the material and the reach analysis, and where
// the side to move has at most three moves an exhaustive search of at most
// about 16 positions (a forced line into a capture or a stalemate). Sound: No
// is a proof; anything else is Unknown ("not proven unwinnable by the fast
// check"), a mate the search meets included, which for a game lost on time
// means the result stands. A few microseconds a position.
MateVerdict can_checkmate_fast(const chess::Position& p, chess::Color winner);

// Both sides' answers for one position.
struct DeadVerdict {
    MateVerdict white, black;  // can White, can Black checkmate

    // Yes when neither side can mate, No when one can, Unknown otherwise.
    MateAnswer dead() const;
    const MateVerdict& side(chess::Color c) const { return c == chess::WHITE ? white : black; }
};

DeadVerdict dead_position(const chess::Position& p, const MateBudget& budget = {});

// Batch form for many positions: a cheap pass (mate on the board, material,
// the static reach analysis, the short helpmate and exhaustive searches)
// runs over all positions in parallel first, then the full search runs only
// for the sides still undecided. threads <= 0 means all hardware threads.
std::vector<DeadVerdict> classify_dead(const std::vector<chess::Position>& positions, const MateBudget& budget = {},
                                       int threads = 0);

// The two passes of classify_dead on their own: the cheap pass leaves Unknown
// (reason "short searches found nothing") where a search is needed;
// complete_dead runs the search for every side still Unknown.
std::vector<DeadVerdict> classify_dead_quick(const std::vector<chess::Position>& positions,
                                             const MateBudget& budget = {}, int threads = 0);
void complete_dead(const std::vector<chess::Position>& positions, std::vector<DeadVerdict>& verdicts,
                   const MateBudget& budget = {}, int threads = 0);

const char* answer_name(MateAnswer a);  // "yes", "no", "unknown"

}  // namespace perftide::analysis
