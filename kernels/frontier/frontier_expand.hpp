// The frontier pipeline's expansion step (frontier_impl.cuh), plain C++ so
// that a host test can plant the count mismatch it guards against, and the
// rule both frontier engines split a ply's children into passes by.
#pragma once

#include "chess/movegen.hpp"
#include "chess/zobrist.hpp"

namespace perftide::frontier::detail {

// A child's pass among `passes`: bits 32..63 of its key of men and side
// (chess::Zobrist::men_key, keys of frontier::PASS_SEED), which follows
// from the parent's key and the move before the child is made. Equal
// positions have equal men and side, so they always meet in one pass; the
// CPU engine and the pipeline split alike.
CHESS_FI uint32_t pass_of(uint64_t men_key, uint32_t passes) { return uint32_t(((men_key >> 32) * passes) >> 32); }

// Which of a parent's moves make children of one pass.
struct PassShare {
    chess::Zobrist keys;  // PASS_SEED's; unused with one pass
    uint32_t pass = 0, passes = 1;

    // Calls f(k) for each k whose move list.moves[k] is of the pass.
    template <class F>
    CHESS_FI void for_each(const chess::Position& parent, const chess::MoveList& list, F&& f) const {
        if (passes <= 1) {
            for (int k = 0; k < list.size; ++k) f(k);
            return;
        }
        const uint64_t men = keys.men_key(parent);
        for (int k = 0; k < list.size; ++k)
            if (pass_of(keys.child_men_key(parent, men, list.moves[k]), passes) == pass) f(k);
    }
};

// The number of a parent's children in the share (every move with one pass).
struct CountShareFn {
    chess::Attacks at;
    PassShare share;

    CHESS_HD uint64_t operator()(const chess::Position& p) const {
        if (share.passes <= 1) return chess::count_moves(p, at);
        chess::MoveList list;
        chess::generate_moves(p, at, list);
        uint64_t n = 0;
        share.for_each(p, list, [&](int) { ++n; });
        return n;
    }
};

// Writes the canonical children of parents [first, ...) that fall in the
// share at their offsets (relative to `base`), each with its parent's
// multiplicity. Never past a parent's slots: should generation give
// another number of the share's moves than counting did (offsets), `error`
// is set and the ply is abandoned.
struct ExpandFn {
    const chess::Position* parents;
    const uint64_t* counts;
    const uint64_t* offsets;
    uint64_t base;
    chess::Position* out;
    uint64_t* out_counts;
    uint32_t* error;
    chess::Attacks at;
    PassShare share{};

    CHESS_HD void operator()(uint64_t i) const {
        chess::MoveList list;
        chess::generate_moves(parents[i], at, list);
        const uint64_t o = offsets[i] - base, slots = offsets[i + 1] - offsets[i];
        uint64_t n = 0;
        share.for_each(parents[i], list, [&](int k) {
            if (n < slots) {
                out[o + n] = chess::canonical(chess::apply_move(parents[i], list.moves[k]), at);
                out_counts[o + n] = counts[i];
            }
            ++n;
        });
        if (n != slots) *error = 1;
    }
};

// A parent's paths to its children: its multiplicity times its children
// (offsets prefix-summed over every move), in double: for the bound on a
// ply's paths that 64-bit multiplicities must stay under.
struct PathsFn {
    const uint64_t* counts;
    const uint64_t* offsets;
    CHESS_HD double operator()(uint64_t i) const { return double(counts[i]) * double(offsets[i + 1] - offsets[i]); }
};

// The capacity a frontier vector grows to when a ply's records outrun it:
// a quarter more (at least what is needed), never a doubling. The next ply
// is reserved up front for its expected size; should it outgrow that, the
// copy holds old and new buffers at once, 2.25x the frontier rather than
// the 3x of Thrust's resize (which doubles).
CHESS_HD inline uint64_t grown_capacity(uint64_t capacity, uint64_t needed) {
    const uint64_t quarter = capacity + capacity / 4;
    return needed > quarter ? needed : quarter;
}

}  // namespace perftide::frontier::detail
