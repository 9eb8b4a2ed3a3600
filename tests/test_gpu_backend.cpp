// The GPU backend on a CUDA device (label gpu): divides against the CPU
// engine on the suite positions, with the arena sized from free memory and
// deliberately small, and the command line with --backend gpu against
// --backend cpu. Without a usable device every test skips and says why.
#include <regex>

#include "engine_check.hpp"
#include "gpu_perft.hpp"
#include "run_process.hpp"

using gperft::gpu::Options;
using gperft::gpu::Stats;

namespace {

#define SKIP_WITHOUT_DEVICE()                                      \
    do {                                                           \
        const gperft::gpu::Status s = gperft::gpu::status();       \
        if (!s.available) GTEST_SKIP() << "no GPU: " << s.message; \
    } while (0)

constexpr double DEEP = 2e8;  // per (entry, depth): the CPU engine computes the reference
const char* const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

BatchEngine device(Options o = {}) {
    return [o](const std::vector<chess::Position>& roots, int depth) {
        return gperft::gpu::perft_batch(roots, depth, o);
    };
}

std::vector<std::string> text(const std::vector<chess::u128>& counts) {
    std::vector<std::string> v;
    for (chess::u128 c : counts) v.push_back(chess::to_string(c));
    return v;
}

// JSON output without the fields that differ between backends.
std::string comparable_json(const std::string& s) {
    static const std::regex volatile_fields(R"re(, "(seconds|nps|backend)": ("[^"]*"|[^,}]*))re");
    return std::regex_replace(s, volatile_fields, "");
}

}  // namespace

TEST(GpuBackend, ClassicPerftsuiteMatchesCpuDivides) {
    SKIP_WITHOUT_DEVICE();
    EXPECT_GT(check_suite_divides(device(), "perft/perftsuite.epd", DEEP), 126 * 4);
}

TEST(GpuBackend, ChessprogrammingPositionsMatchCpuDivides) {
    SKIP_WITHOUT_DEVICE();
    EXPECT_GE(check_suite_divides(device(), "perft/cpw_positions.epd", DEEP), 7 * 5);
}

TEST(GpuBackend, GrandChessTreeMatchesCpuDivides) {
    SKIP_WITHOUT_DEVICE();
    EXPECT_GT(check_suite_divides(device(), "perft/grandchesstree.epd", DEEP), 100);
}

TEST(GpuBackend, PythonChessTrickyMatchesCpuDivides) {
    SKIP_WITHOUT_DEVICE();
    EXPECT_GT(check_suite_divides(device(), "perft/tricky.perft", DEEP), 30);
}

// A small arena makes the device split levels into many chunks.
TEST(GpuBackend, SmallArenaSplitsAndAgrees) {
    SKIP_WITHOUT_DEVICE();
    const std::vector<chess::Position> roots = {chess::parse_fen(chess::START_FEN), chess::parse_fen(KIWIPETE)};
    Stats stats;
    const auto got = gperft::gpu::perft_batch(roots, 5, Options{.arena_bytes = 128 << 10}, &stats);
    EXPECT_EQ(text(got), text(gperft::cpu_perft_batch(roots, 5, 0)));
    EXPECT_GT(stats.leaf_launches, 4u);
    EXPECT_LE(stats.peak_arena_bytes, std::size_t(128 << 10));
}

// Chunks sized from a far too small estimate fail deeper down and are split
// again on the device; the retried chunks must count exactly once.
TEST(GpuBackend, ChunksThatOutgrowTheEstimateAreSplitAgain) {
    SKIP_WITHOUT_DEVICE();
    const std::vector<chess::Position> roots = {chess::parse_fen(chess::START_FEN), chess::parse_fen(KIWIPETE)};
    Stats stats;
    const auto got = gperft::gpu::perft_batch(
        roots, 5, Options{.arena_bytes = 256 << 10, .chunk_estimate_scale = 0.02}, &stats);
    EXPECT_EQ(text(got), text(gperft::cpu_perft_batch(roots, 5, 0)));
    EXPECT_GT(stats.chunk_retries, 0u);
}

TEST(GpuBackend, HostPliesAgree) {
    SKIP_WITHOUT_DEVICE();
    const std::vector<chess::Position> roots = {chess::parse_fen(KIWIPETE)};
    Stats stats;
    const auto got = gperft::gpu::perft_batch(roots, 5, Options{.max_device_depth = 3}, &stats);
    EXPECT_EQ(text(got), text(gperft::cpu_perft_batch(roots, 5, 0)));
    EXPECT_EQ(stats.host_plies, 2);
}

TEST(GpuBackend, CommandLineOutputsMatchCpu) {
    SKIP_WITHOUT_DEVICE();
    const std::vector<std::string> invocations = {"perft --depth 5 --divide",
                                                  "perft --depth 4 --divide --json --fen " + shell_quote(KIWIPETE),
                                                  "perft --depth 3 --moves " + shell_quote("e2e4 d7d5 e4d5 e7e5")};
    for (const std::string& args : invocations) {
        const auto gpu = run_gperft(args + " --backend gpu");
        const auto cpu = run_gperft(args + " --backend cpu");
        EXPECT_EQ(gpu.status, 0) << args << ": " << gpu.err;
        EXPECT_EQ(gpu.status, cpu.status) << args;
        EXPECT_EQ(comparable_json(gpu.out), comparable_json(cpu.out)) << args;
    }
}

TEST(GpuBackend, AutoChoosesTheDevice) {
    SKIP_WITHOUT_DEVICE();
    const auto r = run_gperft("perft --depth 3 --json");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_NE(r.out.find("\"backend\": \"gpu\""), std::string::npos) << r.out;
}
