// Whether a side can still checkmate by any sequence of legal moves (FIDE 1.3
// and 5.2b: a position is dead when neither side can). Sound before complete:
// the answer is never No when a mate exists; Unknown when the budget runs out.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "chess/position.hpp"

namespace gperft::analysis {

enum class MateAnswer { Yes, No, Unknown };

struct MateVerdict {
    MateAnswer answer = MateAnswer::Unknown;
    std::vector<chess::Move> helpmate;  // with Yes: a legal line ending in mate by the winner
    std::string reason;                 // with No or Unknown: why
};

struct MateBudget {
    uint64_t max_nodes = 2'000'000;  // search nodes per question
};

// Can `winner` deliver checkmate from p (the other side cooperating)?
MateVerdict can_checkmate(const chess::Position& p, chess::Color winner, const MateBudget& budget = {});

}  // namespace gperft::analysis
