// The GPU engine's breadth-first pipeline run on the host (label
// gpu-pipeline): the same level code, chunking, block staging and warp
// accumulation as the kernels, checked against the CPU engine. Runs on any
// machine; no GPU needed.
#include <map>
#include <random>

#include "engine_check.hpp"
#include "host_exec.hpp"
#include "host_pipeline.hpp"
#include "level_pipeline.hpp"

using gperft::gpu::Options;
using gperft::gpu::Stats;
namespace host = gperft::gpu::host;

namespace {

constexpr double SHALLOW = 1e6;  // per (entry, depth); the host pipeline is single-threaded
const char* const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

BatchEngine pipeline(Options o = {}) {
    return [o](const std::vector<chess::Position>& roots, int depth) { return host::perft_batch(roots, depth, o); };
}

std::vector<chess::Position> positions(std::initializer_list<const char*> fens) {
    std::vector<chess::Position> v;
    for (const char* f : fens) v.push_back(chess::parse_fen(f));
    return v;
}

std::vector<std::string> text(const std::vector<chess::u128>& counts) {
    std::vector<std::string> v;
    for (chess::u128 c : counts) v.push_back(chess::to_string(c));
    return v;
}

}  // namespace

TEST(GpuPipeline, ClassicPerftsuiteMatchesCpuDivides) {
    EXPECT_GT(check_suite_divides(pipeline(), "perft/perftsuite.epd", SHALLOW), 126 * 3);
}

TEST(GpuPipeline, ChessprogrammingPositionsMatchCpuDivides) {
    EXPECT_GE(check_suite_divides(pipeline(), "perft/cpw_positions.epd", 2e6), 26);
}

TEST(GpuPipeline, GrandChessTreeMatchesCpuDivides) {
    EXPECT_GT(check_suite_divides(pipeline(), "perft/grandchesstree.epd", SHALLOW), 50);
}

TEST(GpuPipeline, PythonChessTrickyMatchesCpuDivides) {
    EXPECT_GT(check_suite_divides(pipeline(), "perft/tricky.perft", SHALLOW), 30);
}

// A tiny arena forces every level to be split into many chunks; the counts
// must not change and the run must report the splits.
TEST(GpuPipeline, TinyArenaSplitsLevelsIntoChunks) {
    const auto roots = positions({"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1"});
    Stats stats;
    const auto got = host::perft_batch(roots, 5, Options{.arena_bytes = 8 << 10}, &stats);
    EXPECT_EQ(text(got), text(gperft::cpu_perft_batch(roots, 5, 0)));
    EXPECT_GT(stats.leaf_launches, 20u);
    EXPECT_GT(stats.make_launches, 10u);
    EXPECT_LE(stats.peak_arena_bytes, std::size_t(8 << 10));
    Stats roomy;
    host::perft_batch(roots, 5, Options{}, &roomy);
    EXPECT_LT(roomy.leaf_launches, stats.leaf_launches);
}

// Chunks sized from a far too small estimate fail deeper down and are split
// again; the retried chunks must count exactly once.
TEST(GpuPipeline, ChunksThatOutgrowTheEstimateAreSplitAgain) {
    const auto roots = positions({KIWIPETE, chess::START_FEN, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"});
    const auto want = text(gperft::cpu_perft_batch(roots, 5, 0));
    for (const std::size_t kib : {24, 64, 256}) {
        Stats stats;
        const auto got =
            host::perft_batch(roots, 5, Options{.arena_bytes = kib << 10, .chunk_estimate_scale = 0.02}, &stats);
        EXPECT_EQ(text(got), want) << kib << " KiB";
        EXPECT_GT(stats.chunk_retries, 0u) << kib << " KiB";
    }
    EXPECT_THROW(host::perft_batch(roots, 2, Options{.chunk_estimate_scale = 0}), std::invalid_argument);
}

TEST(GpuPipeline, ArenaTooSmallForOneParentThrows) {
    const auto roots = positions({KIWIPETE});
    try {
        host::perft_batch(roots, 3, Options{.arena_bytes = 1024});
        FAIL() << "expected the run to throw";
    } catch (const gperft::gpu::ArenaExhausted& e) {
        EXPECT_NE(std::string(e.what()).find("working memory exhausted"), std::string::npos) << e.what();
    }
}

TEST(GpuPipeline, PliesAboveTheDeviceDepthRunOnTheHost) {
    const auto roots = positions({KIWIPETE, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1"});
    const auto want = text(gperft::cpu_perft_batch(roots, 4, 0));
    for (int cap = 1; cap <= 4; ++cap) {
        Stats stats;
        EXPECT_EQ(text(host::perft_batch(roots, 4, Options{.max_device_depth = cap}, &stats)), want) << cap;
        EXPECT_EQ(stats.host_plies, 4 - cap);
    }
    EXPECT_THROW(host::perft_batch(roots, 2, Options{.max_device_depth = 0}), std::invalid_argument);
    EXPECT_THROW(host::perft_batch(roots, 2, Options{.max_device_depth = 9}), std::invalid_argument);
}

TEST(GpuPipeline, DepthZeroEmptyBatchAndPositionsWithoutMoves) {
    const auto roots = positions({chess::START_FEN, "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",  // stalemate
                                  "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"});                  // checkmate
    EXPECT_EQ(text(host::perft_batch(roots, 0)), (std::vector<std::string>{"1", "1", "1"}));
    EXPECT_EQ(text(host::perft_batch(roots, 1)), (std::vector<std::string>{"20", "0", "0"}));
    EXPECT_EQ(text(host::perft_batch(roots, 3)), (std::vector<std::string>{"8902", "0", "0"}));
    EXPECT_TRUE(host::perft_batch({}, 5).empty());
    EXPECT_THROW(host::perft_batch(roots, -1), std::invalid_argument);
}

// Generation writes each parent's moves in generation order after the
// previous parent's, with the parent's index beside each move, whether the
// block's moves fit the stage or not (a block of 218-move parents does not).
TEST(GpuPipeline, StagedGenerationWritesMovesInOrder) {
    using namespace gperft::gpu;
    const auto base = positions({"R6R/3Q4/1Q4Q1/4Q3/2Q4Q/Q4Q2/pp1Q4/kBNN1KB1 w - - 0 1", KIWIPETE, chess::START_FEN});
    for (const int copies : {1, 60}) {  // 60 * (218 + 48 + 20) moves overflow a block's stage
        std::vector<chess::Position> pos;
        for (int c = 0; c < copies; ++c) pos.insert(pos.end(), base.begin(), base.end());
        HostExec exec(1 << 20);
        std::vector<uint32_t> counts;
        std::vector<uint64_t> offsets;
        std::vector<uint16_t> want_moves;
        std::vector<uint32_t> want_parent;
        for (std::size_t p = 0; p < pos.size(); ++p) {
            chess::MoveList list;
            chess::generate_moves(pos[p], chess::host_attacks(), list);
            counts.push_back(list.size);
            offsets.push_back(want_moves.size());
            for (chess::Move m : list) want_moves.push_back(m.bits), want_parent.push_back(uint32_t(p));
        }
        const uint64_t items = want_moves.size();
        std::vector<uint16_t> moves(items);
        std::vector<uint32_t> parent(items);
        exec.generate(GenerateMoves<chess::WHITE>{pos.data(), counts.data(), offsets.data(), 0, pos.size(), items,
                                                  moves.data(), parent.data(), exec.error_flag(), exec.tables()});
        EXPECT_NO_THROW(exec.check_error("generation"));
        EXPECT_EQ(moves, want_moves) << copies;
        EXPECT_EQ(parent, want_parent) << copies;
        EXPECT_EQ(items > STAGE_CAPACITY, copies > 1);
    }
}

// A count that disagrees with generation is reported, never used.
TEST(GpuPipeline, GenerationCountMismatchIsAnError) {
    using namespace gperft::gpu;
    const auto pos = positions({chess::START_FEN});
    HostExec exec(1 << 20);
    const uint32_t wrong_count = 19;
    const uint64_t offset = 0;
    std::vector<uint16_t> moves(19);
    std::vector<uint32_t> parent(19);
    exec.generate(GenerateMoves<chess::WHITE>{pos.data(), &wrong_count, &offset, 0, 1, 19, moves.data(),
                                              parent.data(), exec.error_flag(), exec.tables()});
    EXPECT_THROW(exec.check_error("generation"), std::runtime_error);
}

// The warp's segmented sums against plain sums: one addition per run of
// equal keys, each with the run's total, also with idle lanes at the end.
TEST(GpuPipeline, WarpSumsAddEachRunOnce) {
    using namespace gperft::gpu;
    std::mt19937_64 rng(12345);
    for (int trial = 0; trial < 2000; ++trial) {
        Contribution c[WARP];
        uint32_t key = uint32_t(rng() % 5);
        const int active = 1 + int(rng() % WARP);
        std::map<uint32_t, uint64_t> want;
        for (int l = 0; l < WARP; ++l) {
            if (rng() % 4 == 0) key += 1 + uint32_t(rng() % 3);
            c[l] = l < active ? Contribution{key, rng() % 100000} : Contribution{NO_KEY, 0};
            if (l < active && c[l].value) want[key] += c[l].value;
        }
        std::map<uint32_t, uint64_t> got;
        int adds = 0;
        warp_sums(c, [&](uint32_t k, uint64_t s) {
            got[k] += s;
            ++adds;
        });
        ASSERT_EQ(got, want) << "trial " << trial;
        ASSERT_EQ(adds, int(want.size())) << "trial " << trial;
    }
}

TEST(GpuPipeline, ChunkSizingEstimateGrowsWithDepth) {
    using namespace gperft::gpu;
    EXPECT_EQ(subtree_bytes(2, 30), LEAF_ITEM_BYTES);
    EXPECT_EQ(subtree_bytes(3, 30), LEAF_ITEM_BYTES);
    EXPECT_EQ(subtree_bytes(4, 30), MADE_ITEM_BYTES + 30 * LEAF_ITEM_BYTES);
    EXPECT_GT(subtree_bytes(8, 30), 30 * subtree_bytes(7, 30));
}
