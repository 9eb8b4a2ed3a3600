// 128-bit Zobrist keys for transposition tables, duplicate removal and
// repetition. Keys come from a seed (a second run with other keys confirms a
// deep result); like the attack tables, an owning host object holds them and
// code reaches them through a trivially copyable view.
#pragma once

#include <memory>

#include "chess/movegen.hpp"

namespace chess {

struct Key128 {
    uint64_t lo = 0, hi = 0;

    CHESS_FI void mix(const Key128& k) {
        lo ^= k.lo;
        hi ^= k.hi;
    }
    CHESS_FI bool operator==(const Key128& o) const { return lo == o.lo && hi == o.hi; }
    CHESS_FI bool operator!=(const Key128& o) const { return !(*this == o); }
    CHESS_FI bool operator<(const Key128& o) const { return hi != o.hi ? hi < o.hi : lo < o.lo; }
};

struct ZobristData {
    Key128 piece[16][64];  // indexed by Piece (type | colour << 3)
    Key128 castle_rook[64];  // per square of a rook that keeps a castling right
    Key128 ep_file[8];
    Key128 black_to_move;
    Key128 chess960;
};

struct Zobrist {
    const ZobristData* d = nullptr;

    // The key of everything FIDE 9.2 compares (side, pieces, castling rights
    // with their rooks, the stored e.p. square) and the Chess960 mode, not
    // the move counters. Computed from scratch.
    CHESS_HD Key128 key(const Position& p) const {
        Key128 k = men_words<Key128>(p);
        for (Bitboard b = p.castle_rooks; b;) k.mix(d->castle_rook[pop_lsb(b)]);
        if (p.ep != SQ_NONE) k.mix(d->ep_file[file_of(p.ep)]);
        if (p.chess960) k.mix(d->chess960);
        return k;
    }

    // A 64-bit key of the men and the side to move only (the high words of
    // their keys; no castling rights, no e.p. square): the child's follows
    // from the parent's and the move, with nothing to ask of the child, so
    // it can choose a child's share of a split cheaply.
    CHESS_HD uint64_t men_key(const Position& p) const { return men_words<uint64_t>(p); }
    CHESS_FI uint64_t child_men_key(const Position& parent, uint64_t k, Move m) const {
        mix_moved_men(parent, m, k);
        return k;
    }

    // The key of `child`, one move after `parent` whose key is k: only the
    // squares whose contents differ are rehashed, so the result equals
    // key(child) whatever move was played (no per-move-kind cases to keep in
    // step with apply_move).
    CHESS_HD Key128 child_key(const Position& parent, const Position& child, Key128 k) const {
        Bitboard changed = (parent.color[WHITE] ^ child.color[WHITE]) | (parent.color[BLACK] ^ child.color[BLACK]) |
                           (parent.pawns ^ child.pawns) | (parent.diag ^ child.diag) | (parent.orth ^ child.orth);
        while (changed) {
            const int sq = pop_lsb(changed);
            const Piece before = parent.piece_on(sq), after = child.piece_on(sq);
            if (before != NO_PIECE) k.mix(d->piece[before][sq]);
            if (after != NO_PIECE) k.mix(d->piece[after][sq]);
        }
        for (Bitboard b = parent.castle_rooks ^ child.castle_rooks; b;) k.mix(d->castle_rook[pop_lsb(b)]);
        if (parent.ep != SQ_NONE) k.mix(d->ep_file[file_of(parent.ep)]);
        if (child.ep != SQ_NONE) k.mix(d->ep_file[file_of(child.ep)]);
        if (parent.stm != child.stm) k.mix(d->black_to_move);
        return k;
    }

    // The key of canonical(apply_move(parent, m)) (FIDE 9.2 identity), from
    // the parent's key k without making the child: the men the move moves,
    // captures or promotes, the castling rights it clears, the e.p. terms
    // and the side. Only a double push that lands beside an enemy pawn makes
    // the child, to ask whether an e.p. capture is legal in it.
    CHESS_FI Key128 child_key(const Position& parent, Key128 k, Move m, const Attacks& at) const {
        mix_moved_men(parent, m, k);
        const Color us = parent.stm;
        const int from = m.from(), to = m.to();
        const Bitboard back_rank = us == WHITE ? RANK_1 : RANK_8;
        const Bitboard cleared = square_bb(from) | square_bb(to) | (from == parent.king[us] ? back_rank : 0);
        for (Bitboard b = parent.castle_rooks & cleared; b;) k.mix(d->castle_rook[pop_lsb(b)]);
        if (parent.ep != SQ_NONE) k.mix(d->ep_file[file_of(parent.ep)]);
        if (m.flag() == DOUBLE_PUSH && ep_is_legal_after(parent, m, at)) k.mix(d->ep_file[file_of(to)]);
        return k;
    }

   private:
    CHESS_FI static void mix_into(Key128& k, const Key128& z) { k.mix(z); }
    CHESS_FI static void mix_into(uint64_t& k, const Key128& z) { k ^= z.hi; }

    // The pieces and the side, into a whole key or its high word.
    template <class K>
    CHESS_HD K men_words(const Position& p) const {
        K k{};
        for (int c = 0; c < 2; ++c) {
            for (int t = PAWN; t <= KING; ++t) {
                const int pc = make_piece(Color(c), PieceType(t));
                for (Bitboard b = p.pieces(Color(c), PieceType(t)); b;) mix_into(k, d->piece[pc][pop_lsb(b)]);
            }
        }
        if (p.stm == BLACK) mix_into(k, d->black_to_move);
        return k;
    }

    // Mixes into k the men the move m moves, captures or promotes, and the side.
    template <class K>
    CHESS_FI void mix_moved_men(const Position& parent, Move m, K& k) const {
        const Color us = parent.stm;
        const int from = m.from(), to = m.to();
        const Piece moved = make_piece(us, type_at(parent, from));
        mix_into(k, d->piece[moved][from]);
        if (m.is_castle()) {
            const bool king_side = m.flag() == KING_CASTLE;
            const Piece rook = make_piece(us, ROOK);
            mix_into(k, d->piece[moved][castle_king_to(from, king_side)]);
            mix_into(k, d->piece[rook][to]);
            mix_into(k, d->piece[rook][castle_rook_to(from, king_side)]);
        } else {
            mix_into(k, d->piece[m.is_promotion() ? make_piece(us, m.promotion()) : moved][to]);
            if (m.is_en_passant()) mix_into(k, d->piece[make_piece(~us, PAWN)][us == WHITE ? to - 8 : to + 8]);
            else if (m.is_capture()) mix_into(k, d->piece[make_piece(~us, type_at(parent, to))][to]);
        }
        mix_into(k, d->black_to_move);
    }

    // The type of the man on an occupied square, by table rather than by
    // branches (which the moves of a position mispredict).
    CHESS_FI static PieceType type_at(const Position& p, int sq) {
        // By pawn | diag << 1 | orth << 2 | king << 3: a knight has none.
        constexpr uint64_t TYPES = uint64_t(KNIGHT) | uint64_t(PAWN) << 4 | uint64_t(BISHOP) << 8 |
                                   uint64_t(ROOK) << 16 | uint64_t(QUEEN) << 24 | uint64_t(KING) << 32;
        const uint32_t code = uint32_t((p.pawns >> sq) & 1) | uint32_t((p.diag >> sq) & 1) << 1 |
                              uint32_t((p.orth >> sq) & 1) << 2 | uint32_t((p.kings() >> sq) & 1) << 3;
        return PieceType((TYPES >> (4 * code)) & 15);
    }

    // Whether the double push m leaves an e.p. capture legal: never without
    // an enemy pawn beside the pushed one, else asked of the child.
    CHESS_HD static bool ep_is_legal_after(const Position& parent, Move m, const Attacks& at) {
        const Bitboard to = square_bb(m.to());
        if (!((east(to) | west(to)) & parent.pawns & parent.color[~parent.stm])) return false;
        return has_legal_en_passant(apply_move(parent, m), at);
    }
};

// Keys drawn from splitmix64 started at `seed`.
inline std::unique_ptr<ZobristData> build_zobrist_data(uint64_t seed) {
    auto z = std::make_unique<ZobristData>();
    uint64_t s = seed;
    auto next = [&s] { return mix64(s += GOLDEN_GAMMA); };
    auto draw = [&] { return Key128{next(), next()}; };
    for (auto& row : z->piece)
        for (auto& k : row) k = draw();
    for (auto& k : z->castle_rook) k = draw();
    for (auto& k : z->ep_file) k = draw();
    z->black_to_move = draw();
    z->chess960 = draw();
    return z;
}

constexpr uint64_t DEFAULT_ZOBRIST_SEED = 0x67706572667431ULL;

// The host's keys for the default seed.
inline Zobrist host_zobrist() {
    static const std::unique_ptr<ZobristData> data = build_zobrist_data(DEFAULT_ZOBRIST_SEED);
    return Zobrist{data.get()};
}

}  // namespace chess
