// What a ply's counts say of each distinct position, and their sum over a
// ply: the one classifier of both frontier engines (the CPU's passes and the
// Thrust pipeline), compiled for host and device.
#pragma once

#include <cstdint>

#include "chess/position.hpp"
#include "chess/terminal.hpp"
#include "frontier/ply_counts.hpp"

namespace perftide::frontier {

// A position's classes, as bits of an unsigned (6 bits: the CPU's last-ply
// entries keep them beside the key).
constexpr unsigned CHECK = 1, MATE = 2, STALEMATE = 4, DEAD = 8, EN_PASSANT = 16, CASTLING = 32;

// Dead counts positions dead by material only, mates and stalemates apart.
CHESS_HD inline unsigned classes_of(const chess::Position& p, const chess::Attacks& at) {
    const bool check = chess::in_check(p, at), moves = chess::has_legal_move(p, at);
    return (check ? CHECK : 0) | (check && !moves ? MATE : 0) | (!check && !moves ? STALEMATE : 0) |
           (moves && chess::insufficient_material(p) ? DEAD : 0) | (p.ep != chess::SQ_NONE ? EN_PASSANT : 0) |
           (p.castle_rooks ? CASTLING : 0);
}

// A ply's counts, summed position by position. Count is the type of the
// path sums: 128-bit on the CPU; 64-bit in the GPU pipeline, which refuses
// a ply of 2^63 paths or more before it is expanded.
template <class Count>
struct PlyTally {
    uint64_t distinct = 0, in_check = 0, checkmates = 0, stalemates = 0, insufficient = 0, en_passant = 0, castling = 0;
    Count paths = 0, check_paths = 0, checkmate_paths = 0, stalemate_paths = 0, insufficient_paths = 0;

    // One distinct position of these classes, reached by n paths.
    CHESS_HD void add(unsigned classes, Count n) {
        ++distinct;
        paths += n;
        if (classes & CHECK) ++in_check, check_paths += n;
        if (classes & MATE) ++checkmates, checkmate_paths += n;
        if (classes & STALEMATE) ++stalemates, stalemate_paths += n;
        if (classes & DEAD) ++insufficient, insufficient_paths += n;
        en_passant += (classes & EN_PASSANT) != 0;
        castling += (classes & CASTLING) != 0;
    }

    CHESS_HD PlyTally operator+(const PlyTally& b) const {
        PlyTally t = *this;
        t.distinct += b.distinct, t.in_check += b.in_check, t.checkmates += b.checkmates;
        t.stalemates += b.stalemates, t.insufficient += b.insufficient;
        t.en_passant += b.en_passant, t.castling += b.castling;
        t.paths += b.paths, t.check_paths += b.check_paths, t.checkmate_paths += b.checkmate_paths;
        t.stalemate_paths += b.stalemate_paths, t.insufficient_paths += b.insufficient_paths;
        return t;
    }

    PlyCounts counts(int ply, int passes) const {
        PlyCounts c;
        c.ply = ply, c.passes = passes;
        c.distinct = distinct, c.paths = paths;
        c.in_check = in_check, c.checkmates = checkmates, c.stalemates = stalemates, c.insufficient = insufficient;
        c.check_paths = check_paths, c.checkmate_paths = checkmate_paths;
        c.stalemate_paths = stalemate_paths, c.insufficient_paths = insufficient_paths;
        c.en_passant = en_passant, c.castling = castling;
        return c;
    }
};

}  // namespace perftide::frontier
