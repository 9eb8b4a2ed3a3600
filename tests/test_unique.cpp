// Distinct positions per ply: A083276, the multi-pass path, agreement with an
// independent enumeration, --reach and --emit.
#include <set>

#include "chess/stats.hpp"
#include "gpu_perft.hpp"
#include "json_reader.hpp"
#include "run_process.hpp"
#include "unique_check.hpp"

using namespace gperft;

TEST(Unique, ReproducesA083276ToPly5) {
    const auto terms = a083276();
    frontier::Options o;
    const auto plies = frontier::unique_host(chess::parse_fen(chess::START_FEN), 5, o, nullptr);
    ASSERT_EQ(plies.size(), 6u);
    for (const auto& p : plies) EXPECT_EQ(p.distinct, terms.at(p.ply)) << "ply " << p.ply;
}

// A budget far too small for one pass splits the plies into many passes; the
// counts and the final frontier must not change.
TEST(Unique, MultiPassGivesTheSameFrontier) {
    const chess::Position root = chess::parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    frontier::Options big, tiny;
    tiny.budget_bytes = 1;
    frontier::Frontier a, b;
    const auto one = frontier::unique_host(root, 3, big, &a);
    const auto many = frontier::unique_host(root, 3, tiny, &b);
    EXPECT_EQ(one.back().passes, 1);
    EXPECT_GT(many.back().passes, 4);
    for (size_t i = 0; i < one.size(); ++i) {
        EXPECT_EQ(one[i].distinct, many[i].distinct) << "ply " << i;
        EXPECT_EQ(chess::to_string(one[i].paths), chess::to_string(many[i].paths)) << "ply " << i;
    }
    PathCounts pa, pb;
    for (size_t i = 0; i < a.positions.size(); ++i) pa[position_key(a.positions[i])] = {a.positions[i], a.counts[i]};
    for (size_t i = 0; i < b.positions.size(); ++i) pb[position_key(b.positions[i])] = {b.positions[i], b.counts[i]};
    EXPECT_TRUE(pa == pb);
}

// The frontier against a depth-first enumeration (a std::map of canonical
// positions), and its classes against the perft statistics.
TEST(Unique, AgreesWithEnumerationAndStatistics) {
    for (const char* fen : {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                            "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1", "4k3/8/8/3pP3/8/8/8/4K2R w K d6 0 1",
                            // Chess960 castling, which transposes with rook and king moves
                            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", "rk6/8/8/8/8/8/8/RK4R1 w GA - 0 1"}) {
        const chess::Position root = chess::parse_fen(fen);
        frontier::Frontier f;
        const auto plies = frontier::unique_host(root, 3, frontier::Options{}, &f);
        PathCounts expected;
        enumerate(root, 3, expected);
        ASSERT_EQ(f.positions.size(), expected.size()) << fen;
        for (size_t i = 0; i < f.positions.size(); ++i) {
            const auto it = expected.find(position_key(f.positions[i]));
            ASSERT_NE(it, expected.end()) << fen << ": " << chess::to_fen(f.positions[i]);
            EXPECT_EQ(f.counts[i], it->second.second) << chess::to_fen(f.positions[i]);
        }
        chess::PerftStats rows[3];
        chess::perft_stats(root, chess::host_attacks(), 3, rows);
        for (int d = 1; d <= 3; ++d) {
            EXPECT_EQ(chess::to_string(plies[d].paths), chess::to_string(rows[d - 1].c[chess::STAT_NODES])) << fen;
            EXPECT_EQ(chess::to_string(plies[d].checkmate_paths), chess::to_string(rows[d - 1].checkmates())) << fen;
            EXPECT_EQ(chess::to_string(plies[d].stalemate_paths), chess::to_string(rows[d - 1].c[chess::STAT_STALEMATES]))
                << fen;
            EXPECT_EQ(chess::to_string(plies[d].check_paths),
                      chess::to_string(rows[d - 1].checks_without_mate() + rows[d - 1].checkmates()))
                << fen;
        }
    }
}

namespace {

// The "FEN ; count" lines of an --emit file.
std::map<std::string, uint64_t> read_emitted(const std::string& path) {
    std::map<std::string, uint64_t> out;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        const size_t semi = line.find(" ; ");
        out[line.substr(0, semi)] = std::stoull(line.substr(semi + 3));
    }
    return out;
}

std::string epd(const chess::Position& p) {
    const std::string fen = chess::to_fen(p);
    return fen.substr(0, fen.rfind(' ', fen.rfind(' ') - 1));
}

}  // namespace

TEST(UniqueCli, EmitsMatesStalematesAndDeadPositions) {
    // Captures lead to bare kings and lone minor pieces; there are mates and
    // stalemates within three plies.
    const std::string root_fen = "k7/8/1QN5/8/8/8/1r6/K7 w - - 0 1";
    const std::string base = "/tmp/gperft_emit_" + std::to_string(getpid());
    const auto r = run_gperft("unique --depth 3 --backend cpu --fen " + shell_quote(root_fen) + " --emit mates " + base +
                              ".mates --emit stalemates " + base + ".stale --emit dead " + base + ".dead");
    ASSERT_EQ(r.status, 0) << r.err;

    PathCounts all;
    enumerate(chess::parse_fen(root_fen), 3, all);
    std::map<std::string, uint64_t> mates, stalemates, dead;
    const chess::Attacks at = chess::host_attacks();
    for (const auto& [key, entry] : all) {
        const chess::Position& p = entry.first;
        const bool check = chess::in_check(p, at), moves = chess::count_moves(p, at) != 0;
        if (check && !moves) mates[epd(p)] = entry.second;
        if (!check && !moves) stalemates[epd(p)] = entry.second;
        if (moves && chess::insufficient_material(p)) dead[epd(p)] = entry.second;
    }
    EXPECT_FALSE(mates.empty());
    EXPECT_FALSE(stalemates.empty());
    EXPECT_FALSE(dead.empty());
    EXPECT_EQ(read_emitted(base + ".mates"), mates);
    EXPECT_EQ(read_emitted(base + ".stale"), stalemates);
    EXPECT_EQ(read_emitted(base + ".dead"), dead);
    for (const char* ext : {".mates", ".stale", ".dead"}) std::remove((base + ext).c_str());
}

TEST(UniqueCli, ReachCountsPathsToAPosition) {
    // Paths of four plies back to the start position, counted independently.
    PathCounts all;
    const chess::Position start = chess::parse_fen(chess::START_FEN);
    enumerate(start, 4, all);
    const uint64_t expected = all.at(position_key(chess::canonical(start, chess::host_attacks()))).second;
    const auto r = run_gperft("unique --depth 4 --json --backend cpu --reach " + shell_quote(chess::START_FEN) +
                              " --reach " + shell_quote("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
    ASSERT_EQ(r.status, 0) << r.err;
    const testjson::Value v = testjson::parse(r.out);
    EXPECT_EQ(v["reach"][chess::START_FEN].text, std::to_string(expected));
    EXPECT_EQ(v["reach"]["4k3/8/8/8/8/8/8/4K3 w - - 0 1"].text, "0");
    ASSERT_EQ(v["plies"].items.size(), 5u);
    EXPECT_EQ(v["plies"].items[4]["distinct"].text, "72078");
    EXPECT_EQ(v["plies"].items[4]["checkmate_paths"].text, "8");
    const auto text = run_gperft("unique --depth 2 --backend cpu --memory 1");
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("  2       400    400"), std::string::npos) << text.out;
}

TEST(UniqueCli, Refusals) {
    const auto kind = run_gperft("unique --depth 1 --emit checks /tmp/x");
    EXPECT_EQ(kind.status, 2);
    EXPECT_NE(kind.err.find("'checks' is not one of mates, stalemates, dead"), std::string::npos) << kind.err;
    EXPECT_EQ(run_gperft("unique").status, 2);
    EXPECT_EQ(run_gperft("unique --depth 1 --reach 'not a fen'").status, 2);
    const auto huge = run_gperft("unique --depth 2 --backend cpu --memory 16000000");
    EXPECT_EQ(huge.status, 2) << huge.err;
    EXPECT_NE(huge.err.find("--memory 16000000 MiB is more than the"), std::string::npos) << huge.err;
    const auto file = run_gperft("unique --depth 1 --emit mates /nonexistent/dir/x");
    EXPECT_EQ(file.status, 2);
    EXPECT_NE(file.err.find("--emit: cannot open /nonexistent/dir/x for writing: No such file or directory"), std::string::npos) << file.err;
    // With a device the GPU run succeeds (test_gpu_backend compares it with
    // the CPU); without one it is refused, saying why.
    const auto gpu = run_gperft("unique --depth 1 --backend gpu");
    if (gperft::gpu::status().available) {
        EXPECT_EQ(gpu.status, 0) << gpu.err;
    } else {
        EXPECT_EQ(gpu.status, 2) << gpu.err;
        EXPECT_NE(gpu.err.find("--backend gpu: " + gperft::gpu::status().message), std::string::npos) << gpu.err;
    }
}
