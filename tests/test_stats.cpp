// Perft statistics against the published tables (rows small enough for the
// unit set), the leaf that counts from move sets against playing every move,
// the early-exit legal-move test, and `perft --stats` output (on the GPU too
// when there is one).
#include "support/stats_check.hpp"

#include <random>

#include "chess/perft.hpp"
#include "gpu/gpu_perft.hpp"
#include "inputs/suite.hpp"

namespace {

constexpr double UNIT_NODES = 5e6;

}  // namespace

TEST(Stats, GrandChessTreeRows) {
    for (const char* file : {"perft/grandchesstree_p0_results.json", "perft/grandchesstree_p1_results.json",
                             "perft/grandchesstree_p2_results.json"}) {
        const StatsTable t = read_gct_table(file);
        EXPECT_GE(check_stats_table(t, UNIT_NODES), 4) << file;
    }
}

TEST(Stats, ChessprogrammingRows) {
    const auto tables = read_cpw_tables();
    ASSERT_EQ(tables.size(), 3u);
    for (const StatsTable& t : tables) EXPECT_GE(check_stats_table(t, UNIT_NODES), 4) << t.name;
}

namespace {

// The plain definition the fast leaf must match: every move played and
// classified on the position it leads to.
chess::PerftStats played_leaf(const chess::Position& p, const chess::Attacks& at) {
    chess::PerftStats s;
    chess::MoveList list;
    chess::generate_moves(p, at, list);
    for (chess::Move m : list) chess::classify_move(m, chess::apply_move(p, m), at, s);
    return s;
}

constexpr const char* SLOT_NAMES[chess::STAT_COUNT] = {
    "nodes", "captures", "e.p.", "castles", "promotions", "direct checks", "single discovered checks",
    "direct+discovered checks", "double discovered checks", "direct mates", "single discovered mates",
    "direct+discovered mates", "double discovered mates", "stalemates"};

// Compares the two leaves on p; adds the reference's counts to `seen`.
void expect_same_leaf(const chess::Position& p, const chess::Attacks& at, chess::PerftStats& seen) {
    const chess::PerftStats want = played_leaf(p, at);
    chess::PerftStats got;
    chess::leaf_stats(p, at, got);
    for (int k = 0; k < chess::STAT_COUNT; ++k)
        ASSERT_EQ(got.c[k], want.c[k]) << SLOT_NAMES[k] << " of " << chess::to_fen(p);
    seen += want;
}

}  // namespace

// Random games from every suite position, standard and Chess960 (castling
// with any files, e.p., promotions, pins, discovered and double checks,
// mates and stalemates in the endgame positions): at every position of the
// game and at every child of every fourth, the leaf that counts from move
// sets gives the same counts as playing and classifying every move.
TEST(Stats, FastLeafMatchesPlayingEveryMove) {
    const chess::Attacks at = chess::host_attacks();
    // Beside the suites: e.p. opening two lines at once (double discovered
    // check), castling that checks, castling along the enemy king's rank.
    std::vector<std::string> fens = {"4R3/1B6/8/3pP3/4k3/8/8/7K w - d6 0 1", "5k2/8/8/8/8/8/8/4K2R w K - 0 1",
                                     "8/8/8/8/8/8/8/R3K2k w Q - 0 1", "r3k3/8/8/8/8/8/8/7K b q - 0 1"};
    for (const char* file : {"perft/perftsuite.epd", "perft/fischer.epd", "perft/dfrc.epd", "perft/cpw_positions.epd"}) {
        int taken = 0;
        for (const perftide::SuiteEntry& e : perftide::read_suite_file(data_path(file)))
            if (taken++ < 120) fens.push_back(e.fen);
    }
    std::mt19937_64 rng(20261204);
    chess::PerftStats seen;
    long positions = 0;
    for (const std::string& fen : fens) {
        for (int game = 0; game < 3; ++game) {
            chess::Position p = chess::parse_fen(fen);
            for (int ply = 0; ply < 80; ++ply) {
                ASSERT_NO_FATAL_FAILURE(expect_same_leaf(p, at, seen));
                ++positions;
                chess::MoveList list;
                chess::generate_moves(p, at, list);
                if (list.size == 0) break;
                if (ply % 4 == 0)
                    for (chess::Move m : list) {
                        ASSERT_NO_FATAL_FAILURE(expect_same_leaf(chess::apply_move(p, m), at, seen));
                        ++positions;
                    }
                p = chess::apply_move(p, list.moves[rng() % list.size]);
            }
        }
    }
    EXPECT_GT(positions, 200000);
    // Every kind of move the leaf treats apart was met many times.
    for (int k : {chess::STAT_EN_PASSANT, chess::STAT_CASTLES, chess::STAT_PROMOTIONS,
                  chess::STAT_CHECKS + chess::DIRECT, chess::STAT_CHECKS + chess::SINGLE_DISCOVERED,
                  chess::STAT_CHECKS + chess::DIRECT_DISCOVERED, chess::STAT_CHECKS + chess::DOUBLE_DISCOVERED,
                  chess::STAT_MATES + chess::DIRECT,
                  chess::STAT_MATES + chess::SINGLE_DISCOVERED, chess::STAT_MATES + chess::DIRECT_DISCOVERED,
                  chess::STAT_STALEMATES})
        EXPECT_GT(seen.c[k], k == chess::STAT_CHECKS + chess::DOUBLE_DISCOVERED ? 0u : 20u) << SLOT_NAMES[k];
    std::cout << "positions " << positions;
    for (int k = 0; k < chess::STAT_COUNT; ++k) std::cout << ", " << SLOT_NAMES[k] << " " << seen.c[k];
    std::cout << "\n";
}

// Every ply of perft_stats (which uses the fast leaf at every ply) against
// the plain definition, on the published positions, a few plies deep.
TEST(Stats, RowsMatchPlayingEveryMove) {
    const chess::Attacks at = chess::host_attacks();
    for (const perftide::SuiteEntry& e : perftide::read_suite_file(data_path("perft/cpw_positions.epd"))) {
        const chess::Position root = chess::parse_fen(e.fen);
        std::vector<chess::Position> ply{root};
        chess::PerftStats rows[3];
        chess::perft_stats(root, at, 3, rows);
        for (int d = 0; d < 3; ++d) {
            chess::PerftStats want;
            std::vector<chess::Position> next;
            for (const chess::Position& p : ply) {
                want += played_leaf(p, at);
                chess::MoveList list;
                chess::generate_moves(p, at, list);
                for (chess::Move m : list) next.push_back(chess::apply_move(p, m));
            }
            for (int k = 0; k < chess::STAT_COUNT; ++k)
                EXPECT_EQ(rows[d].c[k], want.c[k]) << SLOT_NAMES[k] << " ply " << d + 1 << " of " << e.fen;
            ply.swap(next);
        }
    }
}

// has_legal_move must agree with counting on every position three plies
// below each suite position.
TEST(Stats, HasLegalMoveAgreesWithCounting) {
    const chess::Attacks at = chess::host_attacks();
    int positions = 0, without_moves = 0;
    for (const perftide::SuiteEntry& e : perftide::read_suite_file(data_path("perft/perftsuite.epd"))) {
        const chess::Position root = chess::parse_fen(e.fen);
        chess::MoveList first;
        chess::generate_moves(root, at, first);
        for (chess::Move m : first) {
            const chess::Position child = chess::apply_move(root, m);
            chess::MoveList second;
            chess::generate_moves(child, at, second);
            for (chess::Move n : second) {
                const chess::Position grandchild = chess::apply_move(child, n);
                chess::MoveList third;
                chess::generate_moves(grandchild, at, third);
                for (chess::Move o : third) {
                    const chess::Position leaf = chess::apply_move(grandchild, o);
                    const bool any = chess::count_moves(leaf, at) != 0;
                    ASSERT_EQ(chess::has_legal_move(leaf, at), any) << chess::to_fen(leaf);
                    ++positions;
                    without_moves += !any;
                }
            }
        }
    }
    EXPECT_GT(positions, 100000);
    EXPECT_GT(without_moves, 100);
}

TEST(Stats, RowsSumToPerft) {
    const chess::Position p = chess::parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    for (int threads : {1, 2, 3}) {
        const auto rows = perftide::cpu_perft_stats(p, 4, threads);
        ASSERT_EQ(rows.size(), 4u);
        for (int d = 1; d <= 4; ++d)
            EXPECT_EQ(chess::to_string(rows[d - 1].c[chess::STAT_NODES]),
                      chess::to_string(chess::perft(p, chess::host_attacks(), d)))
                << "threads " << threads << " depth " << d;
    }
}

TEST(Stats, CliPrintsTablesAndJson) {
    const auto text = run_perftide("perft --stats --depth 3 --backend cpu");
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("    3   8902        34"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("checks (not mate)"), std::string::npos) << text.out;
    EXPECT_TRUE(text.out.ends_with("Nodes searched: 8902\n")) << text.out;

    const auto r = run_perftide("perft --stats --depth 4 --json --backend cpu");
    ASSERT_EQ(r.status, 0) << r.err;
    const testjson::Value doc = testjson::parse(r.out);
    EXPECT_EQ(doc["nodes"].text, "197281");
    ASSERT_EQ(doc["stats"].items.size(), 4u);
    const testjson::Value& last = doc["stats"].items[3];
    EXPECT_EQ(last["depth"].text, "4");
    for (const perftide::StatColumn& c : perftide::stat_columns()) EXPECT_TRUE(last.has(c.key)) << c.key;
    EXPECT_EQ(last["checks"].text, "469");
    EXPECT_EQ(last["total_checks"].text, "461");
    EXPECT_EQ(last["checkmates"].text, "8");
}

TEST(Stats, CliRefusals) {
    const auto divide = run_perftide("perft --stats --divide --depth 2");
    EXPECT_EQ(divide.status, 2);
    EXPECT_NE(divide.err.find("--divide"), std::string::npos) << divide.err;
}

// On the GPU the statistics are those of the CPU; without a device the
// request is refused with the reason.
TEST(Stats, CliGpuBackend) {
    const auto gpu = run_perftide("perft --stats --depth 3 --json --backend gpu");
    if (!perftide::gpu::status().available) {
        EXPECT_EQ(gpu.status, 2);
        EXPECT_NE(gpu.err.find("--backend gpu: " + perftide::gpu::status().message), std::string::npos) << gpu.err;
        EXPECT_EQ(gpu.out, "");
        return;
    }
    EXPECT_EQ(gpu.status, 0) << gpu.err;
    const auto cpu = run_perftide("perft --stats --depth 3 --json --backend cpu");
    const testjson::Value g = testjson::parse(gpu.out), c = testjson::parse(cpu.out);
    EXPECT_EQ(g["backend"].text, "gpu");
    ASSERT_EQ(g["stats"].items.size(), c["stats"].items.size());
    for (size_t d = 0; d < c["stats"].items.size(); ++d)
        for (const perftide::StatColumn& col : perftide::stat_columns())
            EXPECT_EQ(g["stats"].items[d][col.key].text, c["stats"].items[d][col.key].text) << col.key << " ply " << d + 1;
}
