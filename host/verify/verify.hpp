// Differential checking of the rules in common/ against the independent
// reference generator: random playouts sample positions, and the tree below
// each sample is walked by both generators side by side, comparing legal
// move sets, check status, make-move results and FEN round trips.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "chess/position.hpp"
#include "verify/reference.hpp"

namespace perftide {

class Progress;

struct VerifyOptions {
    int positions = 1000;  // samples to draw
    int depth = 2;         // plies below each sample (see run_verify)
    uint64_t seed = 1;
    int max_playout = 200;               // plies of random play before a sample, at most
    std::vector<chess::Position> roots;  // playouts start here (default: the start position)
    // Also start from random Chess960 and Double Chess960 arrays (Scharnagl
    // numbers drawn per sample): sample i takes roots[i % (size + 2)], the
    // last two kinds being those.
    bool chess960_starts = true;
    int threads = 0;               // <= 0: all hardware threads
    Progress* progress = nullptr;  // counts the samples done and their nodes
};

// What failed, where, and how the two generators differ there.
struct Mismatch {
    std::string check;  // which comparison failed
    std::string detail;
    int sample = 0;
    std::string root_fen;                                  // the playout's starting position
    std::vector<std::string> path;                         // UCI moves from the root
    std::string fen;                                       // the position, as common/ prints it
    std::string reference_fen;                             // the same position, as the reference prints it
    std::vector<std::string> only_common, only_reference;  // legal moves one side lacks
};

struct VerifyReport {
    int samples = 0;
    uint64_t nodes = 0;                // positions whose move sets were compared
    uint64_t leaves = 0;               // positions compared after make-move only
    std::optional<Mismatch> mismatch;  // the one in the lowest-numbered sample
    double seconds = 0;
};

// Draws options.positions samples; sample i plays a random number of random
// legal moves (0..max_playout, stopping at mate or stalemate) from its root.
// Every position of the playout and every node of the tree below the sample
// with fewer than `depth` plies below it is fully checked: the legal move
// sets agree, count_moves equals the list size, check status agrees, FEN
// print -> parse gives the position back (through both FEN readers), and
// both make-moves reached the same position. The perft(depth) leaves are
// compared after make-move (position and check status). Deterministic for a
// seed, whatever the thread count.
VerifyReport run_verify(const VerifyOptions& options);

// The report as one JSON object (verify --json): "clean" or "mismatch", the
// run's parameters and sizes, and a mismatch's fields.
std::string verify_json(const VerifyOptions& options, const VerifyReport& report);

// The tree below one position, walked by both generators side by side as
// run_verify walks it below each sample (p for common/, b for the
// reference); the first difference, or nothing.
std::optional<Mismatch> verify_tree(const chess::Position& p, const reference::Board& b, int depth);

}  // namespace perftide
