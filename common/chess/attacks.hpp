// Attack lookups. An owning host object (AttackData, built once) holds every
// table; rules code reaches it through Attacks, a trivially copyable view that
// points at host memory on the host and at the one device copy on the GPU.
// Sliders use fancy magic bitboards: the one slider entry point is
// Attacks::rook/bishop, so another scheme can be swapped in behind it.
#pragma once

#include <cstring>
#include <memory>

#include "chess/bitboard.hpp"

namespace chess {

struct Magic {
    Bitboard mask;    // relevant occupancy (board edges excluded)
    Bitboard magic;   // multiplier mapping mask subsets to distinct indices
    uint32_t offset;  // first entry of this square in AttackData::slider
    uint32_t shift;   // 64 - popcount(mask)
};

constexpr int ROOK_TABLE_SIZE = 102400;
constexpr int BISHOP_TABLE_SIZE = 5248;

// All lookup tables, one plain struct (about 0.9 MB) so it can be copied to the
// device with a single memcpy.
struct AttackData {
    Bitboard pawn[2][64];  // squares a pawn of each colour on sq attacks
    Bitboard knight[64];
    Bitboard king[64];
    Bitboard rook_empty[64];    // rook attacks on an empty board
    Bitboard bishop_empty[64];  // bishop attacks on an empty board
    Bitboard between[64][64];   // squares strictly between a and b if aligned, else 0
    Bitboard line[64][64];      // the whole line through a and b if aligned, else 0
    Magic rook_magic[64];
    Magic bishop_magic[64];
    Bitboard slider[ROOK_TABLE_SIZE + BISHOP_TABLE_SIZE];
};

struct Attacks {
    const AttackData* d = nullptr;

    CHESS_FI Bitboard pawn(Color c, int sq) const { return intrin::load_ro(&d->pawn[c][sq]); }
    CHESS_FI Bitboard knight(int sq) const { return intrin::load_ro(&d->knight[sq]); }
    CHESS_FI Bitboard king(int sq) const { return intrin::load_ro(&d->king[sq]); }
    CHESS_FI Bitboard rook_empty(int sq) const { return intrin::load_ro(&d->rook_empty[sq]); }
    CHESS_FI Bitboard bishop_empty(int sq) const { return intrin::load_ro(&d->bishop_empty[sq]); }
    CHESS_FI Bitboard between(int a, int b) const { return intrin::load_ro(&d->between[a][b]); }
    CHESS_FI Bitboard line(int a, int b) const { return intrin::load_ro(&d->line[a][b]); }

    CHESS_FI Bitboard rook(int sq, Bitboard occ) const { return slider(d->rook_magic[sq], occ); }
    CHESS_FI Bitboard bishop(int sq, Bitboard occ) const { return slider(d->bishop_magic[sq], occ); }
    CHESS_FI Bitboard queen(int sq, Bitboard occ) const { return rook(sq, occ) | bishop(sq, occ); }

   private:
    CHESS_FI Bitboard slider(const Magic& m, Bitboard occ) const {
        const Bitboard mask = intrin::load_ro(&m.mask);
        const Bitboard magic = intrin::load_ro(&m.magic);
        const uint32_t index = uint32_t(((occ & mask) * magic) >> intrin::load_ro(&m.shift));
        return intrin::load_ro(&d->slider[intrin::load_ro(&m.offset) + index]);
    }
};

// ---------------------------------------------------------------------------
// Host-side construction. Everything below runs once, on the host.

namespace detail {

// Slider attacks by walking rays: the slow, obviously right definition that
// the magic tables are built from (and tested against).
inline Bitboard ray_attacks(int sq, Bitboard occ, const int (*dirs)[2]) {
    Bitboard att = 0;
    for (int d = 0; d < 4; ++d) {
        int f = file_of(sq) + dirs[d][0], r = rank_of(sq) + dirs[d][1];
        while (f >= 0 && f < 8 && r >= 0 && r < 8) {
            att |= square_bb(make_square(f, r));
            if (occ & square_bb(make_square(f, r))) break;
            f += dirs[d][0];
            r += dirs[d][1];
        }
    }
    return att;
}

constexpr int ROOK_DIRS[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
constexpr int BISHOP_DIRS[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};

inline Bitboard leaper_attacks(int sq, const int (*steps)[2], int n) {
    Bitboard att = 0;
    for (int i = 0; i < n; ++i) {
        int f = file_of(sq) + steps[i][0], r = rank_of(sq) + steps[i][1];
        if (f >= 0 && f < 8 && r >= 0 && r < 8) att |= square_bb(make_square(f, r));
    }
    return att;
}

// Finds a magic for one square by trial with a fixed-seed generator, fills
// its part of the table and returns the number of entries used.
inline uint32_t init_magic(int sq, const int (*dirs)[2], Magic& m, uint32_t offset, Bitboard* table,
                           uint64_t& rng) {
    const Bitboard edges = ((RANK_1 | RANK_8) & ~rank_bb(rank_of(sq))) | ((FILE_A | FILE_H) & ~file_bb(file_of(sq)));
    m.mask = ray_attacks(sq, 0, dirs) & ~edges;
    m.shift = 64 - popcount(m.mask);
    m.offset = offset;
    const uint32_t size = 1u << popcount(m.mask);

    auto occupancy = std::make_unique<Bitboard[]>(size);
    auto reference = std::make_unique<Bitboard[]>(size);
    auto epoch = std::make_unique<uint32_t[]>(size);
    Bitboard b = 0;
    for (uint32_t i = 0; i < size; ++i) {  // carry-rippler over all subsets of the mask
        occupancy[i] = b;
        reference[i] = ray_attacks(sq, b, dirs);
        b = (b - m.mask) & m.mask;
    }
    auto next = [&rng] {  // xorshift64*
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        return rng * 2685821657736338717ULL;
    };
    for (uint32_t attempt = 1;; ++attempt) {
        do m.magic = next() & next() & next();
        while (popcount((m.mask * m.magic) >> 56) < 6);
        uint32_t i = 0;
        for (; i < size; ++i) {
            uint32_t idx = uint32_t(((occupancy[i] & m.mask) * m.magic) >> m.shift);
            if (epoch[idx] < attempt) {
                epoch[idx] = attempt;
                table[offset + idx] = reference[i];
            } else if (table[offset + idx] != reference[i]) {
                break;
            }
        }
        if (i == size) return size;
    }
}

}  // namespace detail

inline std::unique_ptr<AttackData> build_attack_data() {
    using namespace detail;
    auto t = std::make_unique<AttackData>();
    std::memset(t.get(), 0, sizeof(AttackData));
    constexpr int KNIGHT_STEPS[8][2] = {{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}};
    constexpr int KING_STEPS[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};
    constexpr int WPAWN_STEPS[2][2] = {{-1, 1}, {1, 1}};
    constexpr int BPAWN_STEPS[2][2] = {{-1, -1}, {1, -1}};
    for (int s = 0; s < 64; ++s) {
        t->knight[s] = leaper_attacks(s, KNIGHT_STEPS, 8);
        t->king[s] = leaper_attacks(s, KING_STEPS, 8);
        t->pawn[WHITE][s] = leaper_attacks(s, WPAWN_STEPS, 2);
        t->pawn[BLACK][s] = leaper_attacks(s, BPAWN_STEPS, 2);
        t->rook_empty[s] = ray_attacks(s, 0, ROOK_DIRS);
        t->bishop_empty[s] = ray_attacks(s, 0, BISHOP_DIRS);
    }
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    uint32_t offset = 0;
    for (int s = 0; s < 64; ++s) offset += init_magic(s, ROOK_DIRS, t->rook_magic[s], offset, t->slider, rng);
    for (int s = 0; s < 64; ++s) offset += init_magic(s, BISHOP_DIRS, t->bishop_magic[s], offset, t->slider, rng);
    for (int a = 0; a < 64; ++a) {
        for (int b = 0; b < 64; ++b) {
            if (a == b) continue;
            const Bitboard ab = square_bb(a) | square_bb(b);
            for (const auto* dirs : {ROOK_DIRS, BISHOP_DIRS}) {
                if (!(ray_attacks(a, 0, dirs) & square_bb(b))) continue;
                t->line[a][b] = (ray_attacks(a, 0, dirs) & ray_attacks(b, 0, dirs)) | ab;
                t->between[a][b] = ray_attacks(a, square_bb(b), dirs) & ray_attacks(b, square_bb(a), dirs);
            }
        }
    }
    return t;
}

// The host's tables, built on first use (thread-safe), alive for the program.
inline Attacks host_attacks() {
    static const std::unique_ptr<AttackData> data = build_attack_data();
    return Attacks{data.get()};
}

}  // namespace chess
