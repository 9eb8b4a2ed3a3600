// The CPU transposition table: counts with the table equal counts without
// it on the suite positions, with ordinary tables and with tiny ones that
// force index collisions and evictions on every store, under any Zobrist
// seed; incremental keys (from the made child, or from the move alone)
// equal keys computed from scratch; and concurrent readers never see a
// count that belongs to another key.
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "chess/perft.hpp"
#include "chess/zobrist.hpp"
#include "count/tt_perft.hpp"
#include "inputs/suite.hpp"

using namespace chess;

namespace {

constexpr double MAX_NODES = 3e5;  // per (entry, depth): keeps the three table sizes in seconds

struct Case {
    Position root;
    int depth;
    u128 expected;
    std::string name;
};

std::vector<Case> suite_cases(const std::string& file) {
    std::vector<Case> cases;
    for (const perftide::SuiteEntry& e : perftide::read_suite_file(std::string(PERFTIDE_TEST_DATA) + "/" + file)) {
        Position root;
        try {
            root = parse_fen(e.fen);
        } catch (const FenError&) {
            continue;  // refused entries are covered by the suite tests
        }
        for (const auto& [depth, expected] : e.expected)
            if (double(expected) <= MAX_NODES && depth >= 1) cases.push_back({root, depth, expected, file + " " + e.id});
    }
    return cases;
}

// Checks every case with a table of `buckets` buckets on two threads.
void check_with_table(const std::string& file, size_t buckets, uint64_t seed) {
    const auto data = build_zobrist_data(seed);
    perftide::PerftTable table(buckets);
    const std::vector<Case> cases = suite_cases(file);
    ASSERT_GT(cases.size(), 20u) << file;
    for (const Case& c : cases) {
        const auto got = perftide::tt_perft_batch({c.root}, c.depth, 2, table, Zobrist{data.get()});
        const uint64_t plain = perft(c.root, host_attacks(), c.depth);
        EXPECT_EQ(to_string(got[0]), to_string(c.expected)) << c.name << " depth " << c.depth << ", " << buckets << " buckets";
        EXPECT_TRUE(got[0] == plain) << c.name << " depth " << c.depth;
    }
}

template <class F>
void walk(const Position& p, int depth, F&& f) {
    MoveList list;
    generate_moves(p, host_attacks(), list);
    for (Move m : list) {
        const Position c = apply_move(p, m);
        f(p, c);
        if (depth > 1) walk(c, depth - 1, f);
    }
}

}  // namespace

TEST(TranspositionTable, SuiteCountsMatchWithAnOrdinaryTable) {
    for (const char* file : {"perft/perftsuite.epd", "perft/cpw_positions.epd", "perft/grandchesstree.epd", "perft/tricky.perft"})
        check_with_table(file, perftide::PerftTable::buckets_for_mb(16), DEFAULT_ZOBRIST_SEED);
}

TEST(TranspositionTable, SuiteCountsMatchWithTinyTables) {
    // One bucket: every node of every depth competes for the same four slots.
    for (size_t buckets : {1, 4})
        for (const char* file : {"perft/perftsuite.epd", "perft/tricky.perft"}) check_with_table(file, buckets, 12345);
}

TEST(TranspositionTable, AnotherSeedGivesTheSameCounts) {
    check_with_table("perft/cpw_positions.epd", 1 << 10, 0xDEADBEEFULL);
}

TEST(TranspositionTable, IncrementalKeysEqualKeysFromScratch) {
    const Zobrist z = host_zobrist();
    int checked = 0;
    for (const char* fen : {START_FEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"}) {
        walk(parse_fen(fen), 3, [&](const Position& parent, const Position& child) {
            ASSERT_TRUE(z.child_key(parent, child, z.key(parent)) == z.key(child)) << fen << " -> " << to_fen(child);
            ++checked;
        });
    }
    EXPECT_GT(checked, 100000);
}

TEST(TranspositionTable, KeysFromTheMoveEqualKeysOfTheCanonicalChild) {
    // The whole key and the key of men and side (which chooses a unique
    // pass). Every move of every suite position (the Chess960 files included) and
    // of the canonical positions one and two plies below it, as the frontier
    // walks them; the rare kinds are counted so that each is known covered.
    const Zobrist z = host_zobrist();
    const Attacks& at = host_attacks();
    long checked = 0, castles = 0, promotions = 0, ep_captures = 0, ep_kept = 0, ep_dropped = 0, chess960 = 0;
    for (const char* file : {"perft/perftsuite.epd", "perft/cpw_positions.epd", "perft/grandchesstree.epd",
                             "perft/tricky.perft", "perft/fischer.epd", "perft/chess960.perft", "perft/dfrc.epd"}) {
        for (const perftide::SuiteEntry& e : perftide::read_suite_file(std::string(PERFTIDE_TEST_DATA) + "/" + file)) {
            Position root;
            try {
                root = parse_fen(e.fen);
            } catch (const FenError&) {
                continue;  // refused entries are covered by the suite tests
            }
            const auto check = [&](const Position& parent, int depth, const auto& self) -> void {
                const Key128 k = z.key(parent);
                const uint64_t men = z.men_key(parent);
                MoveList list;
                generate_moves(parent, at, list);
                for (Move m : list) {
                    const Position made = apply_move(parent, m), child = canonical(made, at);
                    ASSERT_TRUE(z.child_key(parent, k, m, at) == z.key(child))
                        << file << " " << e.id << ": " << to_fen(parent) << " " << move_to_uci(m, parent.chess960);
                    ASSERT_EQ(z.child_men_key(parent, men, m), z.men_key(child))
                        << file << " " << e.id << ": " << to_fen(parent) << " " << move_to_uci(m, parent.chess960);
                    ++checked;
                    castles += m.is_castle(), promotions += m.is_promotion(), ep_captures += m.is_en_passant();
                    ep_kept += child.ep != SQ_NONE, ep_dropped += made.ep != SQ_NONE && child.ep == SQ_NONE;
                    chess960 += parent.chess960;
                    if (depth > 1) self(child, depth - 1, self);
                }
            };
            check(root, 3, check);
        }
    }
    EXPECT_GT(checked, 10000000);
    EXPECT_GT(castles, 100000);
    EXPECT_GT(promotions, 10000);
    EXPECT_GT(ep_captures, 1000);
    EXPECT_GT(ep_kept, 10000);
    EXPECT_GT(ep_dropped, 100);  // a pawn beside, but the capture illegal: no e.p. term
    EXPECT_GT(chess960, 10000000);
}

TEST(TranspositionTable, ConcurrentReadersNeverSeeAnotherKeysCount) {
    // One bucket (four slots) and eight keys, two threads probing and
    // storing at once: slots are overwritten constantly, so a reader meets
    // half-written slots if the layout lets it.
    perftide::PerftTable table(1);
    std::vector<Key128> keys(8);
    std::mt19937_64 rng(7);
    for (auto& k : keys) k = {rng(), rng()};
    auto count_of = [](const Key128& k) { return (k.lo ^ k.hi) & perftide::PerftTable::MAX_COUNT; };
    std::atomic<long> wrong{0}, hits{0};
    auto worker = [&](int seed) {
        std::mt19937_64 r(seed);
        long local_wrong = 0, local_hits = 0;
        for (int i = 0; i < 3000000; ++i) {
            const Key128& k = keys[r() % keys.size()];
            uint64_t got;
            if (table.probe(k, 5, got)) {
                ++local_hits;
                local_wrong += got != count_of(k);
            }
            const Key128& s = keys[r() % keys.size()];
            table.store(s, 5, count_of(s));
        }
        wrong += local_wrong;
        hits += local_hits;
    };
    std::vector<std::thread> pool;
    for (int t = 0; t < 2; ++t) pool.emplace_back(worker, t);
    for (auto& t : pool) t.join();
    EXPECT_EQ(wrong.load(), 0);
    EXPECT_GT(hits.load(), 1000);
}

TEST(TranspositionTable, DeepSubtreesAreNotStoredPastTheCountField) {
    perftide::PerftTable table(1);
    const Key128 k{1, 2};
    table.store(k, 9, perftide::PerftTable::MAX_COUNT + 1);
    uint64_t got;
    EXPECT_FALSE(table.probe(k, 9, got));
    table.store(k, 9, perftide::PerftTable::MAX_COUNT);
    ASSERT_TRUE(table.probe(k, 9, got));
    EXPECT_EQ(got, perftide::PerftTable::MAX_COUNT);
    EXPECT_FALSE(table.probe(k, 8, got));  // the depth is part of the key
}
