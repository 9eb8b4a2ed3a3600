// How promising a move is for a helpmate by the intended winner, used by the
// helpmate search to spend its depth: rewarded moves cost nothing, normal ones
// one ply, punished ones several.
#pragma once

#include "chess/position.hpp"

namespace perftide::analysis {

enum class Progress : uint8_t { Reward, Normal, Punish };

// Per-node facts the classification needs, computed once per node.
struct MateTargets {
    int loser_king;     // the corner the loser's king should head for
    int winner_king;    // where the winner's king supports a corner mate
    int winner_knight;  // a square from which a knight reaches the mating net
    int loser_knight;   // where a loser's knight blocks the corner
    bool loser_must_promote;  // the winner's force mates only against a promoted blocker

    MateTargets(const chess::Position& p, chess::Color winner);
};

Progress classify(const chess::Position& p, chess::Move m, chess::Color winner, const MateTargets& t);

// Depth a move of each kind spends: rewarded moves nothing, punished ones
// three plies, normal ones one, or nothing right after a rewarded move (so
// one side's progress is not cancelled by the other's reply).
inline int progress_cost(Progress kind, bool past_progress) {
    switch (kind) {
        case Progress::Reward: return 0;
        case Progress::Punish: return 3;
        default: return past_progress ? 0 : 1;
    }
}

}  // namespace perftide::analysis
