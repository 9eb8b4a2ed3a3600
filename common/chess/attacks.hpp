// Attack lookups. An owning host object (AttackData, built once) holds every
// table; rules code reaches it through Attacks, a trivially copyable view that
// points at host memory on the host and at the one device copy on the GPU.
// Sliders have one entry point, Attacks::rook/bishop, and two schemes behind
// it: on hosts with BMI2 a hardware pext of the occupancy under the square's
// mask indexes the table directly (one mask load, one pext, one table load);
// elsewhere, on the device included, fancy magics (multiply and shift). Both
// tables are always built, so the layout is the same for every compiler.
#pragma once

#include <memory>

#include "chess/bitboard.hpp"

// CHESS_PEXT: 1 when this compilation's slider lookups use pext. Host code
// built for a BMI2 target uses it unless CHESS_NO_PEXT is defined (pext is
// microcoded and slow on AMD before Zen 3: configure with PERFTIDE_PEXT=OFF).
#if defined(__BMI2__) && !defined(__CUDA_ARCH__) && !defined(CHESS_NO_PEXT)
#include <immintrin.h>
#define CHESS_PEXT 1
#else
#define CHESS_PEXT 0
#endif

namespace chess {

struct Magic {
    Bitboard mask;    // relevant occupancy (board edges excluded)
    Bitboard magic;   // multiplier mapping mask subsets to distinct indices
    uint32_t offset;  // first entry of this square in AttackData::slider and ::slider_pext
    uint32_t shift;   // 64 - popcount(mask)
};

constexpr int ROOK_TABLE_SIZE = 102400;
constexpr int BISHOP_TABLE_SIZE = 5248;

// All lookup tables, one plain struct (about 1.8 MB) so it can be copied to the
// device with a single memcpy.
struct AttackData {
    Bitboard pawn[2][64];  // squares a pawn of each colour on sq attacks
    Bitboard knight[64];
    Bitboard king[64];
    Bitboard rook_empty[64];    // rook attacks on an empty board
    Bitboard bishop_empty[64];  // bishop attacks on an empty board
    // The squares from which a rook (a bishop, a knight) on an empty board
    // attacks some square a king on sq could step to: the only enemy pieces
    // whose attacks a king-step danger map needs.
    Bitboard orth_near_king[64];
    Bitboard diag_near_king[64];
    Bitboard knight_near_king[64];
    // The same for the squares a king on sq passes over or lands on when it
    // castles to g ([sq][0]) or to c ([sq][1]) on its rank.
    Bitboard orth_near_castling[64][2];
    Bitboard diag_near_castling[64][2];
    Bitboard knight_near_castling[64][2];
    Bitboard between[64][64];   // squares strictly between a and b if aligned, else 0
    Bitboard line[64][64];      // the whole line through a and b if aligned, else 0
    Magic rook_magic[64];
    Magic bishop_magic[64];
    Bitboard slider[ROOK_TABLE_SIZE + BISHOP_TABLE_SIZE];       // by magic index
    Bitboard slider_pext[ROOK_TABLE_SIZE + BISHOP_TABLE_SIZE];  // by pext(occupancy, mask)
    // Castling by a king on file k with the rook on file r (FIDE 3.8 with
    // Chess960's start files), as back-rank bit sets (file f = bit f): the
    // low byte the squares that must be empty (those the king and the rook
    // pass over or land on, less their own), the high byte the king's path
    // from its square to g or c, both ends included.
    uint16_t castling[8][8];
};

struct Attacks {
    const AttackData* d = nullptr;

    CHESS_FI Bitboard pawn(Color c, int sq) const { return intrin::load_ro(&d->pawn[c][sq]); }
    CHESS_FI Bitboard knight(int sq) const { return intrin::load_ro(&d->knight[sq]); }
    CHESS_FI Bitboard king(int sq) const { return intrin::load_ro(&d->king[sq]); }
    CHESS_FI Bitboard rook_empty(int sq) const { return intrin::load_ro(&d->rook_empty[sq]); }
    CHESS_FI Bitboard bishop_empty(int sq) const { return intrin::load_ro(&d->bishop_empty[sq]); }
    CHESS_FI Bitboard orth_near_king(int sq) const { return intrin::load_ro(&d->orth_near_king[sq]); }
    CHESS_FI Bitboard diag_near_king(int sq) const { return intrin::load_ro(&d->diag_near_king[sq]); }
    CHESS_FI Bitboard knight_near_king(int sq) const { return intrin::load_ro(&d->knight_near_king[sq]); }
    CHESS_FI Bitboard orth_near_castling(int sq, int side) const {
        return intrin::load_ro(&d->orth_near_castling[sq][side]);
    }
    CHESS_FI Bitboard diag_near_castling(int sq, int side) const {
        return intrin::load_ro(&d->diag_near_castling[sq][side]);
    }
    CHESS_FI Bitboard knight_near_castling(int sq, int side) const {
        return intrin::load_ro(&d->knight_near_castling[sq][side]);
    }
    CHESS_FI Bitboard between(int a, int b) const { return intrin::load_ro(&d->between[a][b]); }
    CHESS_FI Bitboard line(int a, int b) const { return intrin::load_ro(&d->line[a][b]); }
    CHESS_FI uint32_t castling(int king_file, int rook_file) const {
        return intrin::load_ro(&d->castling[king_file][rook_file]);
    }

    CHESS_FI Bitboard rook(int sq, Bitboard occ) const { return slider(d->rook_magic[sq], occ); }
    CHESS_FI Bitboard bishop(int sq, Bitboard occ) const { return slider(d->bishop_magic[sq], occ); }
    CHESS_FI Bitboard queen(int sq, Bitboard occ) const { return rook(sq, occ) | bishop(sq, occ); }

   private:
    CHESS_FI Bitboard slider(const Magic& m, Bitboard occ) const {
        const Bitboard mask = intrin::load_ro(&m.mask);
#if CHESS_PEXT
        return d->slider_pext[m.offset + _pext_u64(occ, mask)];
#else
        const Bitboard magic = intrin::load_ro(&m.magic);
        const uint32_t index = uint32_t(((occ & mask) * magic) >> intrin::load_ro(&m.shift));
        return intrin::load_ro(&d->slider[intrin::load_ro(&m.offset) + index]);
#endif
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

// The same attacks from the eight empty-board rays (the rook's four, then
// the bishop's): a ray cut at its first blocker is the ray minus the
// blocker's own ray onward. A few instructions instead of a walk, for the
// hundred thousand occupancies the tables are built from at start-up.
struct Rays {
    Bitboard ray[8][64];
    bool upward[8];  // the ray runs to higher square numbers (first blocker: lowest bit)

    Rays() {
        for (int d = 0; d < 8; ++d) {
            const int* step = d < 4 ? ROOK_DIRS[d] : BISHOP_DIRS[d - 4];
            upward[d] = step[0] + 8 * step[1] > 0;
            for (int sq = 0; sq < 64; ++sq) {
                Bitboard att = 0;
                for (int f = file_of(sq) + step[0], r = rank_of(sq) + step[1]; f >= 0 && f < 8 && r >= 0 && r < 8;
                     f += step[0], r += step[1])
                    att |= square_bb(make_square(f, r));
                ray[d][sq] = att;
            }
        }
    }
    // Attacks of a slider on sq (first 0: a rook, 4: a bishop) given occ.
    Bitboard slide(int sq, Bitboard occ, int first) const {
        Bitboard att = 0;
        for (int d = first; d < first + 4; ++d) {
            Bitboard r = ray[d][sq];
            if (const Bitboard blockers = r & occ) r ^= ray[d][upward[d] ? lsb(blockers) : msb(blockers)];
            att |= r;
        }
        return att;
    }
};

inline Bitboard leaper_attacks(int sq, const int (*steps)[2], int n) {
    Bitboard att = 0;
    for (int i = 0; i < n; ++i) {
        int f = file_of(sq) + steps[i][0], r = rank_of(sq) + steps[i][1];
        if (f >= 0 && f < 8 && r >= 0 && r < 8) att |= square_bb(make_square(f, r));
    }
    return att;
}

// The magics the search below finds from its seed, written out so that the
// tables build in milliseconds instead of a third of a second of search at
// every start. Each is checked as the table is filled; a bad one would fall
// back to the search.
constexpr Bitboard ROOK_MAGICS[64] = {
    0x1080004008801020ULL, 0x0840092002C03000ULL, 0x1900200010400900ULL, 0x0880100008000480ULL,
    0x4200100420080200ULL, 0x8100020100080400ULL, 0x0200040110886200ULL, 0x0200008040220411ULL,
    0x0404800084400220ULL, 0x0000401000402000ULL, 0x0086001081220440ULL, 0x0408800800100280ULL,
    0x000A001201040820ULL, 0x8848800200840080ULL, 0x4001000100040200ULL, 0x0442000102105084ULL,
    0x9080010020804100ULL, 0x0040404000201009ULL, 0x0000808010002009ULL, 0x2200090021D00100ULL,
    0x0008008008040080ULL, 0x0004004002010040ULL, 0x0011040008015042ULL, 0x00000A0001768104ULL,
    0x0000800080204009ULL, 0x2010004140002001ULL, 0x9800200280100080ULL, 0x1000100080080080ULL,
    0x0442000A00049020ULL, 0x2100040080020080ULL, 0x0800120400900148ULL, 0x0010040A00128541ULL,
    0x2800804000800030ULL, 0x1010002000400041ULL, 0x4000200011004100ULL, 0x0610008410800800ULL,
    0x0400802402800800ULL, 0xC100020080800400ULL, 0x0002000802000401ULL, 0x0182085882000401ULL,
    0x0220204000808000ULL, 0x2860100040024022ULL, 0x0001002004110040ULL, 0x99101042000A0020ULL,
    0x0004080004008080ULL, 0x0010040002008080ULL, 0x2012004881020004ULL, 0x8300842444820011ULL,
    0x0088403882010200ULL, 0x0820400080210100ULL, 0x0110910040A00300ULL, 0x0801100280080480ULL,
    0x0242009008200600ULL, 0x1002000489500200ULL, 0x0040800200010080ULL, 0x0091800041000080ULL,
    0x0000209300488001ULL, 0x04C1002414824001ULL, 0x020020000B001041ULL, 0x7000100004200901ULL,
    0x8002002004100802ULL, 0x30010002084C0007ULL, 0x0888221800813004ULL, 0x4000002840840112ULL,
};
constexpr Bitboard BISHOP_MAGICS[64] = {
    0xA010041108003100ULL, 0x006082020A002900ULL, 0x6810010619200000ULL, 0x08281A0520000408ULL,
    0x0001104001000400ULL, 0x0018901008048400ULL, 0x00040A0210245280ULL, 0x000200210808A402ULL,
    0x9140048410821200ULL, 0x0800091010820041ULL, 0x20504804832202C0ULL, 0x0100091401081000ULL,
    0x8021011140000012ULL, 0x0810020804450400ULL, 0x208B0542109008A2ULL, 0x0080084A08040204ULL,
    0x0040E2A80811244CULL, 0x2505022008008108ULL, 0x0430220100420040ULL, 0x010A040420220040ULL,
    0x1105000290400000ULL, 0x0093001200822120ULL, 0x4000A62048043004ULL, 0x280120048A015004ULL,
    0x006090002A020814ULL, 0x44042000240800D0ULL, 0x01102800040A4400ULL, 0x1004080080220040ULL,
    0x0001001011004024ULL, 0x0010044000805040ULL, 0x0914041200820100ULL, 0x0004821012821480ULL,
    0x0024040500C05021ULL, 0x0088611002080200ULL, 0x0116080A00040020ULL, 0x4000020080080080ULL,
    0x2450450140840040ULL, 0x0000880201484100ULL, 0x0222020404020092ULL, 0x8081110600002E00ULL,
    0x2842101105000801ULL, 0x1100809008001025ULL, 0x00020202221C0400ULL, 0x0422014022009020ULL,
    0x0210046102100C00ULL, 0xC004008082029102ULL, 0x00AA461801101200ULL, 0x0404080080201108ULL,
    0x020542108C205002ULL, 0x0410544804100100ULL, 0x0040910841100000ULL, 0x0400200042021100ULL,
    0x00004204850400C0ULL, 0x0200100410A42102ULL, 0x1040020801210102ULL, 0x0805040410420000ULL,
    0x2884804130100200ULL, 0x800C262201242000ULL, 0x1058000194108800ULL, 0x0014221054420204ULL,
    0x0104000012A02200ULL, 0x0200881003300100ULL, 0x0140400202840100ULL, 0x0402020801010201ULL,
};

// Fills one square's part of the magic table with its known magic, or one
// found by trial with a fixed-seed generator when that fails, and its part of
// the pext table; returns the number of entries used (the same in both).
inline uint32_t init_magic(int sq, const Rays& rays, int first, Bitboard known, Magic& m, uint32_t offset,
                           Bitboard* table, Bitboard* pext_table, uint64_t& rng) {
    const Bitboard edges = ((RANK_1 | RANK_8) & ~rank_bb(rank_of(sq))) | ((FILE_A | FILE_H) & ~file_bb(file_of(sq)));
    m.mask = rays.slide(sq, 0, first) & ~edges;
    m.shift = 64 - popcount(m.mask);
    m.offset = offset;
    const uint32_t size = 1u << popcount(m.mask);

    auto occupancy = std::make_unique_for_overwrite<Bitboard[]>(size);
    auto reference = std::make_unique_for_overwrite<Bitboard[]>(size);
    auto epoch = std::make_unique<uint32_t[]>(size);
    Bitboard b = 0;
    for (uint32_t i = 0; i < size; ++i) {  // carry-rippler over all subsets of the mask
        occupancy[i] = b;
        reference[i] = rays.slide(sq, b, first);
        b = (b - m.mask) & m.mask;
    }
    auto next = [&rng] {  // xorshift64*
        rng ^= rng >> 12;
        rng ^= rng << 25;
        rng ^= rng >> 27;
        return rng * 2685821657736338717ULL;
    };
    for (uint32_t attempt = 1;; ++attempt) {
        if (attempt == 1 && known) {
            m.magic = known;
        } else {
            do m.magic = next() & next() & next();
            while (popcount((m.mask * m.magic) >> 56) < 6);
        }
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
        if (i == size) break;
    }
    // The carry-rippler lists the subsets in increasing order, which is the
    // order of their pext indices: subset i is pext index i.
    for (uint32_t i = 0; i < size; ++i) pext_table[offset + i] = reference[i];
    return size;
}

}  // namespace detail

inline std::unique_ptr<AttackData> build_attack_data() {
    using namespace detail;
    auto t = std::make_unique<AttackData>();  // value-initialised: every table zero
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
    for (int s = 0; s < 64; ++s)
        for (Bitboard steps = t->king[s]; steps; steps &= steps - 1) {
            const int z = lsb(steps);
            t->orth_near_king[s] |= t->rook_empty[z];
            t->diag_near_king[s] |= t->bishop_empty[z];
            t->knight_near_king[s] |= t->knight[z];
        }
    for (int s = 0; s < 64; ++s)
        for (int side = 0; side < 2; ++side) {
            const int to = (s & 56) + (side == 0 ? 6 : 2), step = to > s ? 1 : -1;
            for (int z = s; z != to;) {
                z += step;
                t->orth_near_castling[s][side] |= t->rook_empty[z];
                t->diag_near_castling[s][side] |= t->bishop_empty[z];
                t->knight_near_castling[s][side] |= t->knight[z];
            }
        }
    const Rays rays;
    uint64_t rng = 0x9E3779B97F4A7C15ULL;
    uint32_t offset = 0;
    for (int s = 0; s < 64; ++s)
        offset += init_magic(s, rays, 0, ROOK_MAGICS[s], t->rook_magic[s], offset, t->slider, t->slider_pext, rng);
    for (int s = 0; s < 64; ++s)
        offset += init_magic(s, rays, 4, BISHOP_MAGICS[s], t->bishop_magic[s], offset, t->slider, t->slider_pext, rng);
    for (int a = 0; a < 64; ++a) {
        for (int b = 0; b < 64; ++b) {
            if (a == b) continue;
            const Bitboard ab = square_bb(a) | square_bb(b);
            for (const int first : {0, 4}) {
                const Bitboard* empty = first == 0 ? t->rook_empty : t->bishop_empty;
                if (!(empty[a] & square_bb(b))) continue;
                t->line[a][b] = (empty[a] & empty[b]) | ab;
                t->between[a][b] = rays.slide(a, square_bb(b), first) & rays.slide(b, square_bb(a), first);
            }
        }
    }
    const auto span = [](int a, int b) { return uint32_t((2u << (a > b ? a : b)) - (1u << (a < b ? a : b))); };
    for (int k = 0; k < 8; ++k)
        for (int r = 0; r < 8; ++r) {
            if (r == k) continue;
            const bool king_side = r > k;
            const uint32_t king_path = span(k, king_side ? 6 : 2);
            const uint32_t empty = (king_path | span(r, king_side ? 5 : 3)) & ~((1u << k) | (1u << r));
            t->castling[k][r] = uint16_t(empty | king_path << 8);
        }
    return t;
}

// The host's tables, built on first use (thread-safe), alive for the program.
inline Attacks host_attacks() {
    static const std::unique_ptr<AttackData> data = build_attack_data();
    return Attacks{data.get()};
}

}  // namespace chess
