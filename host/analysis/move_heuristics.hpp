// How promising a move is for a helpmate by the intended winner, used by the
// helpmate search to spend its depth: rewarded moves cost nothing, normal ones
// one ply, punished ones several.
#pragma once

#include "chess/position.hpp"

namespace gperft::analysis {

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

}  // namespace gperft::analysis
