// The frontier pipeline's expansion step (frontier_impl.cuh), plain C++ so
// that a host test can plant the count mismatch it guards against.
#pragma once

#include "chess/movegen.hpp"

namespace gperft::frontier::detail {

// Writes the canonical children of parents [first, ...) at their offsets
// (relative to `base`), each with its parent's multiplicity. Never past a
// parent's slots: should generation give another number of moves than
// counting did (offsets), `error` is set and the ply is abandoned.
struct ExpandFn {
    const chess::Position* parents;
    const uint64_t* counts;
    const uint64_t* offsets;
    uint64_t base;
    chess::Position* out;
    uint64_t* out_counts;
    uint32_t* error;
    chess::Attacks at;

    CHESS_HD void operator()(uint64_t i) const {
        chess::MoveList list;
        chess::generate_moves(parents[i], at, list);
        const uint64_t o = offsets[i] - base, slots = offsets[i + 1] - offsets[i];
        if (uint64_t(list.size) != slots) *error = 1;
        const uint64_t n = uint64_t(list.size) < slots ? uint64_t(list.size) : slots;
        for (uint64_t k = 0; k < n; ++k) {
            out[o + k] = chess::canonical(chess::apply_move(parents[i], list.moves[k]), at);
            out_counts[o + k] = counts[i];
        }
    }
};

}  // namespace gperft::frontier::detail
