// Perft statistics against the published tables (rows small enough for the
// unit set), the early-exit legal-move test, and `perft --stats` output (on
// the GPU too when there is one).
#include "stats_check.hpp"

#include "chess/perft.hpp"
#include "gpu_perft.hpp"
#include "suite.hpp"

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

// has_legal_move must agree with counting on every position three plies
// below each suite position.
TEST(Stats, HasLegalMoveAgreesWithCounting) {
    const chess::Attacks at = chess::host_attacks();
    int positions = 0, without_moves = 0;
    for (const gperft::SuiteEntry& e : gperft::read_suite_file(data_path("perft/perftsuite.epd"))) {
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
        const auto rows = gperft::cpu_perft_stats(p, 4, threads);
        ASSERT_EQ(rows.size(), 4u);
        for (int d = 1; d <= 4; ++d)
            EXPECT_EQ(chess::to_string(rows[d - 1].c[chess::STAT_NODES]),
                      chess::to_string(chess::perft(p, chess::host_attacks(), d)))
                << "threads " << threads << " depth " << d;
    }
}

TEST(Stats, CliPrintsTablesAndJson) {
    const auto text = run_gperft("perft --stats --depth 3 --backend cpu");
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("    3   8902        34"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("checks (not mate)"), std::string::npos) << text.out;
    EXPECT_TRUE(text.out.ends_with("Nodes searched: 8902\n")) << text.out;

    const auto r = run_gperft("perft --stats --depth 4 --json --backend cpu");
    ASSERT_EQ(r.status, 0) << r.err;
    const testjson::Value doc = testjson::parse(r.out);
    EXPECT_EQ(doc["nodes"].text, "197281");
    ASSERT_EQ(doc["stats"].items.size(), 4u);
    const testjson::Value& last = doc["stats"].items[3];
    EXPECT_EQ(last["depth"].text, "4");
    for (const gperft::StatColumn& c : gperft::stat_columns()) EXPECT_TRUE(last.has(c.key)) << c.key;
    EXPECT_EQ(last["checks"].text, "469");
    EXPECT_EQ(last["total_checks"].text, "461");
    EXPECT_EQ(last["checkmates"].text, "8");
}

TEST(Stats, CliRefusals) {
    const auto divide = run_gperft("perft --stats --divide --depth 2");
    EXPECT_EQ(divide.status, 2);
    EXPECT_NE(divide.err.find("--divide"), std::string::npos) << divide.err;
}

// On the GPU the statistics are those of the CPU; without a device the
// request is refused with the reason.
TEST(Stats, CliGpuBackend) {
    const auto gpu = run_gperft("perft --stats --depth 3 --json --backend gpu");
    if (!gperft::gpu::status().available) {
        EXPECT_EQ(gpu.status, 2);
        EXPECT_NE(gpu.err.find("--stats --backend gpu: "), std::string::npos) << gpu.err;
        EXPECT_EQ(gpu.out, "");
        return;
    }
    EXPECT_EQ(gpu.status, 0) << gpu.err;
    const auto cpu = run_gperft("perft --stats --depth 3 --json --backend cpu");
    const testjson::Value g = testjson::parse(gpu.out), c = testjson::parse(cpu.out);
    EXPECT_EQ(g["backend"].text, "gpu");
    ASSERT_EQ(g["stats"].items.size(), c["stats"].items.size());
    for (size_t d = 0; d < c["stats"].items.size(); ++d)
        for (const gperft::StatColumn& col : gperft::stat_columns())
            EXPECT_EQ(g["stats"].items[d][col.key].text, c["stats"].items[d][col.key].text) << col.key << " ply " << d + 1;
}
