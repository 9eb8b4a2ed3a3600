// The GPU backend on a CUDA device (label gpu): divides against the CPU
// engine on the suite positions, with the arena sized from free memory and
// deliberately small, with transposition tables (also tiny ones, under two
// Zobrist seeds) and duplicate removal on and off, the statistics leaf
// against the CPU statistics, and the command line with --backend gpu
// against --backend cpu. Without a usable device every test skips and says
// why. The same checks run on the host pipeline in test_gpu_pipeline.cpp.
#include <regex>

#include "gpu/gpu_perft.hpp"
#include "support/engine_check.hpp"
#include "support/run_process.hpp"

using perftide::gpu::Options;
using perftide::gpu::Stats;

namespace {

#define SKIP_WITHOUT_DEVICE()                                      \
    do {                                                           \
        const perftide::gpu::Status s = perftide::gpu::status();       \
        if (!s.available) GTEST_SKIP() << "no GPU: " << s.message; \
    } while (0)

constexpr double DEEP = 2e8;  // per (entry, depth): the CPU engine computes the reference

BatchEngine device(Options o = {}) {
    return [o](const std::vector<chess::Position>& roots, int depth) {
        return perftide::gpu::perft_batch(roots, depth, o);
    };
}

// Every position two plies below the start position and one below
// Kiwipete, counted 4 plies deep (perft 6 and 5 of the two): levels full of
// transpositions, with both sides to move among the roots.
std::vector<chess::Position> wide_transposing_batch() {
    std::vector<chess::Position> batch;
    for (const auto& [fen, plies] : {std::pair{chess::START_FEN, 2}, std::pair{KIWIPETE, 1}}) {
        std::vector<chess::Position> level = {chess::parse_fen(fen)};
        for (int ply = 0; ply < plies; ++ply) {
            std::vector<chess::Position> next;
            for (const chess::Position& p : level) {
                chess::MoveList list;
                chess::generate_moves(p, chess::host_attacks(), list);
                for (chess::Move m : list) next.push_back(chess::apply_move(p, m));
            }
            level.swap(next);
        }
        batch.insert(batch.end(), level.begin(), level.end());
    }
    return batch;
}
constexpr int WIDE_TRANSPOSING_DEPTH = 4;

// JSON output without the fields that differ between backends.
// The fields that may differ by backend: times, the backend's name, and how
// unique's last ply was compared (whole positions on the GPU, keys on the CPU).
std::string comparable_json(const std::string& s) {
    static const std::regex volatile_fields(R"re(, "(seconds|nps|backend|last_ply_identity)": ("[^"]*"|[^,}]*))re");
    return std::regex_replace(s, volatile_fields, "");
}

}  // namespace

// The suite sweeps check a sample on the device: every SAMPLE-th entry
// (every entry runs on the host pipeline, test_gpu_pipeline), so that the
// whole `gpu` label fits the device check's 90 s. The first device run saw
// the full perftsuite sweep alone pass 120 s, most of it the CPU reference
// and a 0.33 s arena per call, since gone.
constexpr int SAMPLE = 4;

TEST(GpuBackend, ClassicPerftsuiteMatchesCpuDivides) {
    SKIP_WITHOUT_DEVICE();
    EXPECT_GT(check_suite_divides(device(), "perft/perftsuite.epd", DEEP, 31, SAMPLE), 126 / SAMPLE * 4);
}

TEST(GpuBackend, ChessprogrammingPositionsMatchCpuDivides) {
    SKIP_WITHOUT_DEVICE();
    EXPECT_GE(check_suite_divides(device(), "perft/cpw_positions.epd", DEEP), 7 * 5);
}

TEST(GpuBackend, GrandChessTreeMatchesCpuDivides) {
    SKIP_WITHOUT_DEVICE();
    EXPECT_GT(check_suite_divides(device(), "perft/grandchesstree.epd", DEEP, 31, SAMPLE), 100 / SAMPLE);
}

TEST(GpuBackend, PythonChessTrickyMatchesCpuDivides) {
    SKIP_WITHOUT_DEVICE();
    EXPECT_GT(check_suite_divides(device(), "perft/tricky.perft", DEEP, 31, SAMPLE), 30 / SAMPLE);
}

// A small arena makes the device split levels into many chunks.
TEST(GpuBackend, SmallArenaSplitsAndAgrees) {
    SKIP_WITHOUT_DEVICE();
    const std::vector<chess::Position> roots = {chess::parse_fen(chess::START_FEN), chess::parse_fen(KIWIPETE)};
    Stats stats;
    const auto got = perftide::gpu::perft_batch(roots, 5, Options{.arena_bytes = 128 << 10}, &stats);
    EXPECT_EQ(text(got), text(perftide::cpu_perft_batch(roots, 5, 0)));
    EXPECT_GT(stats.leaf_launches, 4u);
    EXPECT_LE(stats.peak_arena_bytes, std::size_t(128 << 10));
}

// Chunks sized from a far too small estimate fail deeper down and are split
// again on the device; the retried chunks must count exactly once.
TEST(GpuBackend, ChunksThatOutgrowTheEstimateAreSplitAgain) {
    SKIP_WITHOUT_DEVICE();
    const std::vector<chess::Position> roots = {chess::parse_fen(chess::START_FEN), chess::parse_fen(KIWIPETE)};
    Stats stats;
    const auto got = perftide::gpu::perft_batch(
        roots, 5, Options{.arena_bytes = 256 << 10, .chunk_estimate_scale = 0.02}, &stats);
    EXPECT_EQ(text(got), text(perftide::cpu_perft_batch(roots, 5, 0)));
    EXPECT_GT(stats.chunk_retries, 0u);
}

TEST(GpuBackend, HostPliesAgree) {
    SKIP_WITHOUT_DEVICE();
    const std::vector<chess::Position> roots = {chess::parse_fen(KIWIPETE)};
    Stats stats;
    const auto got = perftide::gpu::perft_batch(roots, 5, Options{.max_device_depth = 3}, &stats);
    EXPECT_EQ(text(got), text(perftide::cpu_perft_batch(roots, 5, 0)));
    EXPECT_EQ(stats.host_plies, 2);
}

TEST(GpuBackend, CommandLineOutputsMatchCpu) {
    SKIP_WITHOUT_DEVICE();
    const std::vector<std::string> invocations = {"perft --depth 5 --divide",
                                                  "perft --depth 4 --divide --json --fen " + shell_quote(KIWIPETE),
                                                  "perft --depth 3 --moves " + shell_quote("e2e4 d7d5 e4d5 e7e5")};
    for (const std::string& args : invocations) {
        const auto gpu = run_perftide(args + " --backend gpu");
        const auto cpu = run_perftide(args + " --backend cpu");
        EXPECT_EQ(gpu.status, 0) << args << ": " << gpu.err;
        EXPECT_EQ(gpu.status, cpu.status) << args;
        EXPECT_EQ(comparable_json(gpu.out), comparable_json(cpu.out)) << args;
    }
}

// perftide unique on the GPU: the CPU's output (A083276 to ply 5 included),
// also within a small --device-memory; and a budget the device cannot hold
// is refused before the first ply.
TEST(GpuBackend, UniqueMatchesTheCpu) {
    SKIP_WITHOUT_DEVICE();
    const auto cpu = run_perftide("unique --depth 5 --json --backend cpu");
    ASSERT_EQ(cpu.status, 0) << cpu.err;
    EXPECT_NE(cpu.out.find("822518"), std::string::npos) << cpu.out;
    for (const std::string extra : {"", " --device-memory 256", " --memory 64"}) {
        const auto gpu = run_perftide("unique --depth 5 --json --backend gpu" + extra);
        ASSERT_EQ(gpu.status, 0) << extra << ": " << gpu.err;
        EXPECT_EQ(std::regex_replace(comparable_json(gpu.out), std::regex(R"re(, "passes": [0-9]+)re"), ""),
                  std::regex_replace(comparable_json(cpu.out), std::regex(R"re(, "passes": [0-9]+)re"), ""))
            << extra;
    }
    const auto huge = run_perftide("unique --depth 2 --backend gpu --memory 16000000");
    EXPECT_EQ(huge.status, 2) << huge.err;
    EXPECT_NE(huge.err.find("(--memory 16000000) is more than the device can give"), std::string::npos) << huge.err;
}

// --device-memory bounds a perft run (arena and tables) and the counts do
// not change; a limit above the free memory is refused.
TEST(GpuBackend, DeviceMemoryLimitKeepsTheCounts) {
    SKIP_WITHOUT_DEVICE();
    const auto small = run_perftide("perft --depth 6 --backend gpu --device-memory 128 --json");
    const auto cpu = run_perftide("perft --depth 6 --backend cpu --json");
    ASSERT_EQ(small.status, 0) << small.err;
    EXPECT_EQ(comparable_json(small.out), comparable_json(cpu.out));
    const auto env = run_shell("PERFTIDE_DEVICE_MEMORY=128 " + std::string(PERFTIDE_BINARY) + " perft --depth 6 --backend gpu --json");
    EXPECT_EQ(comparable_json(env.out), comparable_json(cpu.out)) << env.err;
    const auto huge = run_perftide("perft --depth 3 --backend gpu --device-memory 16000000");
    EXPECT_NE(huge.status, 0);
    EXPECT_NE(huge.err.find("(--device-memory 16000000) is more than the device can give"), std::string::npos)
        << huge.err;
}

TEST(GpuBackend, AutoChoosesTheDevice) {
    SKIP_WITHOUT_DEVICE();
    const auto r = run_perftide("perft --depth 3 --json");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\"backend\": \"gpu\""), std::string::npos) << r.out;
}

// ---------------------------------------------------------------------------
// Transposition tables and duplicate removal on the device.

TEST(GpuBackend, TablesAndDedupMatchCpuDividesOnSuites) {
    SKIP_WITHOUT_DEVICE();
    const Options o = keyed(64 << 20, true);
    constexpr double NODES = 2e7;  // the CPU reference's cost; the plain suite tests go deeper
    EXPECT_GT(check_suite_divides(device(o), "perft/perftsuite.epd", NODES, 31, SAMPLE), 126 / SAMPLE * 3);
    EXPECT_GT(check_suite_divides(device(o), "perft/tricky.perft", NODES, 31, SAMPLE), 30 / SAMPLE);
    EXPECT_GE(check_suite_divides(device(o), "perft/cpw_positions.epd", NODES), 26);
}

TEST(GpuBackend, TablesAndDedupOnOrOffGiveIdenticalCounts) {
    SKIP_WITHOUT_DEVICE();
    const auto roots = wide_transposing_batch();
    const auto want = text(perftide::cpu_perft_batch(roots, WIDE_TRANSPOSING_DEPTH, 0));
    uint64_t seed = 1;
    for (const long long bytes : {0LL, 256LL << 20}) {
        for (const bool dedup : {false, true}) {
            // A seed of its own: tables kept from the call before (the same
            // sizes) are cleared, or that call's entries would answer this
            // one at its roots, with nothing left to store or de-duplicate.
            Options o = keyed(bytes, dedup, ++seed);
            o.arena_bytes = 64 << 20;  // chunks, so that later ones find what earlier ones stored
            Stats stats;
            EXPECT_EQ(text(perftide::gpu::perft_batch(roots, WIDE_TRANSPOSING_DEPTH, o, &stats)), want) << bytes << " bytes, dedup " << dedup;
            EXPECT_EQ(stats.duplicates > 0, dedup) << bytes << " bytes, dedup " << dedup;
            EXPECT_EQ(stats.table_stores > 0, bytes > 0) << bytes << " bytes, dedup " << dedup;
        }
    }
}

// A few hundred slots per depth, and the second run of the same batch finds
// the first run's entries (the tables persist between calls): with roomy
// tables it stores little or nothing, since its roots are found at once.
TEST(GpuBackend, TinyTablesAndTwoSeedsAgree) {
    SKIP_WITHOUT_DEVICE();
    const auto roots = wide_transposing_batch();
    const auto want = text(perftide::cpu_perft_batch(roots, WIDE_TRANSPOSING_DEPTH, 0));
    for (const uint64_t seed : {uint64_t(1), uint64_t(0x9e3779b97f4a7c15ULL)}) {
        for (const long long bytes : {16LL * 256, 16LL << 20}) {
            Options o = keyed(bytes, false, seed);
            o.arena_bytes = 64 << 20;
            for (int run = 0; run < 2; ++run) {
                Stats stats;
                EXPECT_EQ(text(perftide::gpu::perft_batch(roots, WIDE_TRANSPOSING_DEPTH, o, &stats)), want)
                    << seed << ", " << bytes << " bytes, run " << run;
                if (run == 0) {
                    EXPECT_GT(stats.table_stores, 0u) << seed << ", " << bytes << " bytes";
                } else if (bytes > 16 * 256) {
                    EXPECT_GT(stats.table_hits, 0u) << seed;
                }
            }
        }
    }
}

TEST(GpuBackend, AutomaticTablesShareTheMemoryWithTheArena) {
    SKIP_WITHOUT_DEVICE();
    const std::vector<chess::Position> roots = {chess::parse_fen(KIWIPETE)};
    Stats stats;
    const auto got = perftide::gpu::perft_batch(roots, 5, keyed(perftide::gpu::AUTO_TABLES, true), &stats);
    EXPECT_EQ(text(got), text(perftide::cpu_perft_batch(roots, 5, 0)));
    EXPECT_GT(stats.table_bytes, std::size_t(0));
    EXPECT_GT(stats.arena_bytes, std::size_t(0));
    EXPECT_THROW(perftide::gpu::perft_batch(roots, 3, keyed(1LL << 50, false)), perftide::InputError);
}

// ---------------------------------------------------------------------------
// Statistics on the device.

TEST(GpuBackend, StatisticsMatchCpu) {
    SKIP_WITHOUT_DEVICE();
    const std::pair<const char*, int> cases[] = {
        {chess::START_FEN, 6}, {KIWIPETE, 5}, {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 6},
        {"r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 5}};
    for (const auto& [fen, depth] : cases) {
        const chess::Position root = chess::parse_fen(fen);
        EXPECT_EQ(stats_text(perftide::gpu::perft_stats({root}, depth)), stats_text(perftide::cpu_perft_stats(root, depth, 0)))
            << fen;
    }
    const chess::Position kiwipete = chess::parse_fen(KIWIPETE);
    Stats stats;
    const auto small = perftide::gpu::perft_stats({kiwipete}, 4, Options{.arena_bytes = 256 << 10, .chunk_estimate_scale = 0.02},
                                                &stats);
    EXPECT_EQ(stats_text(small), stats_text(perftide::cpu_perft_stats(kiwipete, 4, 0)));
    EXPECT_GT(stats.chunk_retries, 0u);
}

TEST(GpuBackend, CommandLineStatisticsAndDeepRunsMatchCpu) {
    SKIP_WITHOUT_DEVICE();
    const std::vector<std::string> invocations = {
        "perft --stats --depth 5 --json", "perft --stats --depth 4 --json --fen " + shell_quote(KIWIPETE),
        "perft --stats --depth 5 --json --split 2 --batch-units 32 --quiet",
        "perft --depth 6 --divide --json --split 2 --hash 64 --quiet",
        "perft --depth 5 --json --split 2 --hash 64 --zobrist-seed 12345 --quiet --fen " + shell_quote(KIWIPETE)};
    static const std::regex volatile_fields(R"re(, "(seconds|nps|backend|hash_mb|device_hash_mb|host_hash_mb)": ("[^"]*"|[^,}]*))re");
    for (const std::string& args : invocations) {
        const auto gpu = run_perftide(args + " --backend gpu");
        const auto cpu = run_perftide(args + " --backend cpu");
        EXPECT_EQ(gpu.status, 0) << args << ": " << gpu.err;
        EXPECT_EQ(cpu.status, 0) << args << ": " << cpu.err;
        EXPECT_EQ(std::regex_replace(gpu.out, volatile_fields, ""), std::regex_replace(cpu.out, volatile_fields, ""))
            << args;
        EXPECT_NE(gpu.out.find("\"backend\": \"gpu\""), std::string::npos) << gpu.out;
    }
}

TEST(GpuBackend, AnalyzeFileGivesTheCpuReports) {
    SKIP_WITHOUT_DEVICE();
    for (const char* file : {"/perft/perftsuite.epd", "/perft/grandchesstree.epd", "/perft/cpw_positions.epd"}) {
        const std::string args = "analyze --json --no-search --file " + shell_quote(std::string(PERFTIDE_TEST_DATA) + file);
        const auto gpu = run_perftide(args + " --backend gpu");
        const auto cpu = run_perftide(args + " --backend cpu");
        EXPECT_EQ(gpu.status, cpu.status) << file << ": " << gpu.err;
        EXPECT_FALSE(cpu.out.empty()) << file;
        EXPECT_EQ(gpu.out, cpu.out) << file;
    }
}
