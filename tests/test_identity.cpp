// Position identity (chess/identity.hpp): its equality is the packed
// encoding's on canonical positions, its order is total and agrees with it,
// equal positions hash alike, and the move counters are no part of it.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <tuple>
#include <vector>

#include "chess/identity.hpp"
#include "chess/io/fen.hpp"
#include "chess/movegen.hpp"
#include "support/test_data.hpp"

using namespace chess;

namespace {

// Every canonical position `plies` below root, once a path (transpositions
// repeat).
std::vector<Position> leaves(const Position& root, int plies) {
    std::vector<Position> level{canonical(root, host_attacks())};
    for (int ply = 0; ply < plies; ++ply) {
        std::vector<Position> next;
        for (const Position& p : level) {
            MoveList list;
            generate_moves(p, host_attacks(), list);
            for (Move m : list) next.push_back(canonical(apply_move(p, m), host_attacks()));
        }
        level.swap(next);
    }
    return level;
}

std::tuple<uint64_t, uint64_t, uint64_t> words(const PackedPosition& k) { return {k.occupied, k.men[0], k.men[1]}; }

// Sorted by identity, positions fall into runs of one position each: two
// neighbours are the same position exactly when their packed forms are
// equal, and as many packed forms as runs. Returns the runs.
size_t check_against_packing(std::vector<Position> v, const char* where) {
    std::sort(v.begin(), v.end(), IdentityLess{});
    std::set<std::tuple<uint64_t, uint64_t, uint64_t>> packed;
    size_t runs = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        packed.insert(words(pack(v[i])));
        if (i == 0 || !same_position(v[i], v[i - 1])) {
            ++runs;
            if (i) {
                EXPECT_TRUE(identity_less(v[i - 1], v[i])) << where << ": " << to_fen(v[i - 1]) << " / " << to_fen(v[i]);
                EXPECT_FALSE(pack(v[i]) == pack(v[i - 1])) << where << ": " << to_fen(v[i]);
            }
            continue;
        }
        EXPECT_FALSE(identity_less(v[i - 1], v[i]) || identity_less(v[i], v[i - 1])) << where;
        EXPECT_TRUE(pack(v[i]) == pack(v[i - 1])) << where << ": " << to_fen(v[i]);
        EXPECT_EQ(identity_hash(v[i]), identity_hash(v[i - 1])) << where;
        EXPECT_EQ(identity_hash(v[i], 7), identity_hash(v[i - 1], 7)) << where;
        EXPECT_EQ(identity_hash(pack(v[i])), identity_hash(pack(v[i - 1]))) << where;
    }
    EXPECT_EQ(runs, packed.size()) << where;
    return runs;
}

}  // namespace

// Ply 4 of the start position: the runs are A083276's distinct positions.
TEST(Identity, EqualityIsThePackedFormsAndCountsTheDistinctPositions) {
    const std::vector<Position> v = leaves(parse_fen(START_FEN), 4);
    const size_t runs = check_against_packing(v, "start ply 4");
    EXPECT_EQ(std::to_string(runs), distinct_positions_per_ply().at(4));
}

// Positions with castling, e.p. and promotions, and Chess960 ones.
TEST(Identity, EqualityIsThePackedFormsOnSuitePositions) {
    for (const auto& e : cpw_positions()) check_against_packing(leaves(parse_fen(e.fen), 3), e.fen.c_str());
    for (const char* fen : {"bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9",
                            "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 1 9"}) {
        Position p = parse_fen(fen);
        p.chess960 = 1;
        check_against_packing(leaves(p, 3), fen);
    }
}

// The counters are no part of the identity; == compares them.
TEST(Identity, MoveCountersAreNoPartOfIt) {
    const Position a = parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    Position b = a;
    b.halfmove = 40, b.fullmove = 300;
    EXPECT_TRUE(same_position(a, b));
    EXPECT_FALSE(identity_less(a, b) || identity_less(b, a));
    EXPECT_EQ(identity_hash(a), identity_hash(b));
    EXPECT_FALSE(a == b);
    // Each identity field does count.
    Position c = a;
    c.stm = BLACK;
    EXPECT_FALSE(same_position(a, c));
    c = a, c.chess960 = 1;
    EXPECT_FALSE(same_position(a, c));
    c = a, c.castle_rooks &= ~square_bb(SQ_H1);
    EXPECT_FALSE(same_position(a, c));
    EXPECT_NE(identity_hash(a), identity_hash(c));
    c = a, c.ep = SQ_E3;
    EXPECT_FALSE(same_position(a, c));
    EXPECT_NE(identity_hash(a, 1), identity_hash(a, 2));  // salts give other hashes
}
