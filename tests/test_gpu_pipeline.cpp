// The GPU engine's breadth-first pipeline run on the host (label
// gpu-pipeline): the same level code, chunking, block staging, warp
// accumulation, transposition tables, duplicate removal and statistics leaf
// as the kernels, checked against the CPU engine. Runs on any machine; no GPU
// needed. Its memory is tested in test_gpu_memory.cpp, what a user sees of
// device faults in test_gpu_faults.cpp.
#include <map>
#include <random>

#include "gpu/host_exec.hpp"
#include "gpu/host_pipeline.hpp"
#include "gpu/level_pipeline.hpp"
#include "support/engine_check.hpp"

using perftide::gpu::Options;
using perftide::gpu::Stats;
namespace host = perftide::gpu::host;

namespace {

constexpr double SHALLOW = 1e6;  // per (entry, depth); the host pipeline is single-threaded

BatchEngine pipeline(Options o = {}) {
    return [o](const std::vector<chess::Position>& roots, int depth) { return host::perft_batch(roots, depth, o); };
}

// The pipeline with the given options, summing every call's statistics.
BatchEngine counting(Options o, Stats& total) {
    return [o, &total](const std::vector<chess::Position>& roots, int depth) {
        Stats s;
        auto counts = host::perft_batch(roots, depth, o, &s);
        total.table_probes += s.table_probes;
        total.table_hits += s.table_hits;
        total.table_stores += s.table_stores;
        total.dedup_levels += s.dedup_levels;
        total.duplicates += s.duplicates;
        total.chunk_retries += s.chunk_retries;
        return counts;
    };
}

const char* const POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const char* const POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";


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

// Chess960 and Double Chess960: every position of the three files, each to
// the depths with at most 2e5 nodes (D1-D3, some D4), and with tables and
// duplicate removal, whose keys carry the castling rooks.
TEST(GpuPipeline, Chess960SuitesMatchCpuDivides) {
    EXPECT_GE(check_suite_divides(pipeline(), "perft/fischer.epd", 2e6), 960 * 4);
    EXPECT_GE(check_suite_divides(pipeline(), "perft/chess960.perft", 2e5), 960 * 3);
    EXPECT_GE(check_suite_divides(pipeline(), "perft/dfrc.epd", 2e5), 100 * 3);
    // Rook-and-king endings full of transpositions, castling rights kept or
    // lost along the way: tables and duplicate removal must tell them apart.
    std::vector<chess::Position> roots;  // one ply below, so that the tables' levels hold transpositions
    for (const chess::Position& p : positions({"1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", "rk6/8/8/8/8/8/8/RK4R1 w GA - 0 1"})) {
        chess::MoveList list;
        chess::generate_moves(p, chess::host_attacks(), list);
        for (chess::Move m : list) roots.push_back(chess::apply_move(p, m));
    }
    Stats total;
    Options o = keyed(1 << 20, true);
    o.arena_bytes = 256 << 10;  // many chunks: later ones find the earlier ones' stores
    EXPECT_EQ(text(counting(o, total)(roots, 5)), text(perftide::cpu_perft_batch(roots, 5, 0)));
    EXPECT_GT(total.table_hits, 100u);
    EXPECT_GT(total.duplicates, 100u);
}

// A tiny arena forces every level to be split into many chunks; the counts
// must not change and the run must report the splits.
TEST(GpuPipeline, TinyArenaSplitsLevelsIntoChunks) {
    const auto roots = positions({"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1"});
    Stats stats;
    const auto got = host::perft_batch(roots, 5, Options{.arena_bytes = 8 << 10}, &stats);
    EXPECT_EQ(text(got), text(perftide::cpu_perft_batch(roots, 5, 0)));
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
    const auto want = text(perftide::cpu_perft_batch(roots, 5, 0));
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
    } catch (const perftide::gpu::ArenaExhausted& e) {
        EXPECT_NE(std::string(e.what()).find("working memory exhausted"), std::string::npos) << e.what();
    }
}

TEST(GpuPipeline, PliesAboveTheDeviceDepthRunOnTheHost) {
    const auto roots = positions({KIWIPETE, "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 b - - 0 1"});
    const auto want = text(perftide::cpu_perft_batch(roots, 4, 0));
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
    using namespace perftide::gpu;
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
    using namespace perftide::gpu;
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

// A count above what generation gives (the device-only fault the check
// guards against): every move slot and parent index is still written, so no
// later kernel follows garbage, and the flag is up.
TEST(GpuPipeline, FewerGeneratedMovesThanCountedLeaveNoSlotUnwritten) {
    using namespace perftide::gpu;
    const auto pos = positions({chess::START_FEN, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"});
    HostExec exec(1 << 20);
    const uint32_t counts[2] = {25, 9};  // 20 and 5 legal moves
    const uint64_t offsets[2] = {0, 25};
    std::vector<uint16_t> moves(34, 0xBEEF);
    std::vector<uint32_t> parent(34, 0xDEADBEEF);
    exec.generate(GenerateMoves<chess::WHITE>{pos.data(), counts, offsets, 0, 2, 34, moves.data(), parent.data(),
                                              exec.error_flag(), exec.tables()});
    EXPECT_THROW(exec.check_error("generation"), std::runtime_error);
    for (int i = 0; i < 34; ++i) {
        EXPECT_EQ(parent[size_t(i)], i < 25 ? 0u : 1u) << i;
        if ((i >= 20 && i < 25) || i >= 30) {
            EXPECT_EQ(moves[size_t(i)], 0) << i;  // padded with the null move
        }
    }
}

// The warp's segmented sums against plain sums: one addition per run of
// equal keys, each with the run's total, also with idle lanes at the end.
TEST(GpuPipeline, WarpSumsAddEachRunOnce) {
    using namespace perftide::gpu;
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
    using namespace perftide::gpu;
    EXPECT_EQ(subtree_bytes(2, 30, MADE_ITEM_BYTES), LEAF_ITEM_BYTES);
    EXPECT_EQ(subtree_bytes(3, 30, MADE_ITEM_BYTES), LEAF_ITEM_BYTES);
    EXPECT_EQ(subtree_bytes(4, 30, MADE_ITEM_BYTES), MADE_ITEM_BYTES + 30 * LEAF_ITEM_BYTES);
    EXPECT_GT(subtree_bytes(8, 30, MADE_ITEM_BYTES), 30 * subtree_bytes(7, 30, MADE_ITEM_BYTES));
}

// ---------------------------------------------------------------------------
// Transposition tables and duplicate removal.

// Every suite position's divide with tables and duplicate removal on every
// level, and with a small arena so that levels come in chunks and later
// chunks find what earlier ones stored.
TEST(GpuPipeline, TablesAndDedupMatchCpuDividesOnSuites) {
    Stats total;
    Options o = keyed(1 << 20, true);
    o.arena_bytes = 256 << 10;
    EXPECT_GT(check_suite_divides(counting(o, total), "perft/perftsuite.epd", SHALLOW), 126 * 3);
    EXPECT_GT(check_suite_divides(counting(o, total), "perft/tricky.perft", SHALLOW), 30);
    EXPECT_GE(check_suite_divides(counting(o, total), "perft/cpw_positions.epd", 2e6), 26);
    EXPECT_GT(total.table_hits, 1000u);
    EXPECT_GT(total.duplicates, 1000u);
}

// The same batch with tables on and off, duplicate removal on and off: the
// same counts as the CPU engine in every combination, and each feature did
// its work only when on.
TEST(GpuPipeline, TablesAndDedupOnOrOffGiveIdenticalCounts) {
    const auto roots = transposing_batch();
    const auto want = text(perftide::cpu_perft_batch(roots, TRANSPOSING_DEPTH, 0));
    for (const long long bytes : {0LL, 1LL << 20}) {
        for (const bool dedup : {false, true}) {
            Options o = keyed(bytes, dedup);
            o.arena_bytes = 256 << 10;
            Stats stats;
            EXPECT_EQ(text(host::perft_batch(roots, TRANSPOSING_DEPTH, o, &stats)), want) << bytes << " bytes, dedup " << dedup;
            EXPECT_EQ(stats.table_hits > 0, bytes > 0) << bytes << " bytes, dedup " << dedup;
            EXPECT_EQ(stats.duplicates > 0, dedup) << bytes << " bytes, dedup " << dedup;
            EXPECT_EQ(stats.table_bytes, std::size_t(bytes));
        }
    }
}

// Tables of a few dozen slots per depth: nearly every store evicts another
// position and most probes land on a slot holding another key, which the
// check must reject.
TEST(GpuPipeline, TinyTablesForceCollisionsAndEvictions) {
    const auto roots = transposing_batch();
    const auto want = text(perftide::cpu_perft_batch(roots, TRANSPOSING_DEPTH, 0));
    for (const long long bytes : {16LL * 16, 16LL * 16 * 16}) {
        Options o = keyed(bytes, false);
        o.arena_bytes = 256 << 10;
        Stats stats;
        EXPECT_EQ(text(host::perft_batch(roots, TRANSPOSING_DEPTH, o, &stats)), want) << bytes;
        EXPECT_GT(stats.table_stores, 4 * bytes / 16) << "stores must evict: " << bytes;
        EXPECT_GT(stats.table_hits, 0u) << bytes;
        EXPECT_LT(stats.table_hits * 2, stats.table_probes) << bytes;
    }
}

// Two Zobrist seeds give the same counts, with tiny tables so that the keys
// decide which positions share slots; and the seed reaches the keys.
TEST(GpuPipeline, TwoSeedsGiveIdenticalCounts) {
    const auto roots = transposing_batch();
    const auto want = text(perftide::cpu_perft_batch(roots, TRANSPOSING_DEPTH, 0));
    for (const uint64_t seed : {uint64_t(1), uint64_t(0x9e3779b97f4a7c15ULL)}) {
        Options o = keyed(16 * 64, true, seed);
        o.arena_bytes = 256 << 10;
        Stats stats;
        EXPECT_EQ(text(host::perft_batch(roots, TRANSPOSING_DEPTH, o, &stats)), want) << seed;
        EXPECT_GT(stats.table_hits, 0u) << seed;
    }
    using perftide::gpu::HostExec;
    const chess::Position start = chess::parse_fen(chess::START_FEN);
    const auto one = chess::build_zobrist_data(1), two = chess::build_zobrist_data(2);
    EXPECT_EQ(HostExec(1 << 16, 0, 1).zobrist().key(start), chess::Zobrist{one.get()}.key(start));
    EXPECT_EQ(HostExec(1 << 16, 0, 2).zobrist().key(start), chess::Zobrist{two.get()}.key(start));
    EXPECT_NE(chess::Zobrist{one.get()}.key(start), chess::Zobrist{two.get()}.key(start));
}

// Duplicate roots (also ones that differ only in the move counters, which
// perft does not depend on) are counted once and each gets the count.
TEST(GpuPipeline, DuplicateRootsAreCountedOnceEach) {
    auto roots = positions({KIWIPETE, POSITION_3, KIWIPETE, chess::START_FEN, KIWIPETE});
    roots[4].halfmove = 7;
    roots[4].fullmove = 30;
    const auto want = text(perftide::cpu_perft_batch(roots, 3, 0));
    Stats stats;
    EXPECT_EQ(text(host::perft_batch(roots, 3, keyed(0, true), &stats)), want);
    EXPECT_EQ(stats.duplicates, 2u);
    EXPECT_EQ(stats.dedup_levels, 1u);  // the roots only: the children are a leaf's
    Stats off;
    host::perft_batch(roots, 3, keyed(0, false), &off);
    EXPECT_EQ(off.duplicates, 0u);
}

// Default options de-duplicate only levels of at least DEDUP_MIN_ITEMS
// positions (here: the roots).
TEST(GpuPipeline, DedupSkipsSmallLevelsByDefault) {
    using perftide::gpu::DEDUP_MIN_ITEMS;
    const chess::Position p = chess::parse_fen(POSITION_3);
    const std::string one = chess::to_string(perftide::cpu_perft_batch({p}, 3, 0)[0]);
    for (const uint64_t n : {DEDUP_MIN_ITEMS - 1, DEDUP_MIN_ITEMS}) {
        Stats stats;
        const auto got = text(host::perft_batch(std::vector<chess::Position>(n, p), 3, Options{}, &stats));
        EXPECT_EQ(got, std::vector<std::string>(n, one)) << n;
        EXPECT_EQ(stats.dedup_levels, n >= DEDUP_MIN_ITEMS ? 1u : 0u) << n;
        EXPECT_EQ(stats.duplicates, n >= DEDUP_MIN_ITEMS ? n - 1 : 0u) << n;
    }
}

// Runs of identical positions: equal keys are only the cue. Different
// positions under one key (A, B, A') each start a run; identical ones that
// follow each other share one.
TEST(GpuPipeline, RunHeadsCompareWholePositions) {
    using namespace perftide::gpu;
    auto pos = positions({KIWIPETE, POSITION_3, KIWIPETE, KIWIPETE});
    pos[3].halfmove = 9;  // the counters do not matter to perft
    const std::vector<uint64_t> same_key(4, 42);
    auto heads = [&](std::vector<uint32_t> ids) {
        std::vector<uint32_t> head(ids.size());
        for (uint64_t j = 0; j < ids.size(); ++j) MarkRunHeads{same_key.data(), ids.data(), pos.data(), head.data()}(j);
        return head;
    };
    EXPECT_EQ(heads({0, 1, 2, 3}), (std::vector<uint32_t>{0, 1, 2, 0}));  // A B A' A'': B splits the As
    EXPECT_EQ(heads({0, 2, 3, 1}), (std::vector<uint32_t>{0, 0, 0, 3}));
    const std::vector<uint64_t> keys = {1, 1, 2, 2};
    std::vector<uint32_t> head(4), ids = {0, 2, 3, 1};
    for (uint64_t j = 0; j < 4; ++j) MarkRunHeads{keys.data(), ids.data(), pos.data(), head.data()}(j);
    EXPECT_EQ(head, (std::vector<uint32_t>{0, 0, 2, 3}));  // a key change starts a run whatever the positions
}

// A slot is accepted only when check ^ count equals the key's high half: an
// empty slot, another key's slot, and a slot torn between two writes are
// misses, except a torn slot whose halves carry the same count.
TEST(GpuPipeline, TableSlotsVerifyTheKeyAndDetectTornWrites) {
    using namespace perftide::gpu;
    TableEntry slot[1] = {};
    const DepthTable t{slot, 1};  // one slot: every key maps to it
    const chess::Key128 a{0x1111, 0xAAAA0000AAAA0000ULL}, b{0x2222, 0xBBBB0000BBBB0000ULL};
    uint64_t got = 0;
    EXPECT_FALSE(table_probe(t, a, got));
    EXPECT_FALSE(table_probe(t, chess::Key128{5, 0}, got)) << "an empty slot matches no key, not even hi == 0";
    table_store(t, a, 123);
    EXPECT_TRUE(table_probe(t, a, got));
    EXPECT_EQ(got, 123u);
    EXPECT_FALSE(table_probe(t, b, got));
    table_store(t, b, 0);  // counts of 0 are not stored
    EXPECT_TRUE(table_probe(t, a, got));
    const TableEntry from_a = slot[0];
    table_store(t, b, 456);
    const TableEntry from_b = slot[0];
    slot[0] = TableEntry{from_a.check, from_b.count};  // torn: check of a's write, count of b's
    EXPECT_FALSE(table_probe(t, a, got));
    EXPECT_FALSE(table_probe(t, b, got));
    slot[0] = TableEntry{from_b.check, from_a.count};
    EXPECT_FALSE(table_probe(t, a, got));
    EXPECT_FALSE(table_probe(t, b, got));
    table_store(t, b, 123);  // torn between writes of equal counts: the count is right either way
    slot[0] = TableEntry{slot[0].check, from_a.count};
    EXPECT_TRUE(table_probe(t, b, got));
    EXPECT_EQ(got, 123u);
}

// A row slot is accepted only when its check matches the key and every word
// of the row read: an empty slot, another key's slot and a slot whose words
// come from two writes of different rows are misses; a slot torn between two
// writes of the same row is that row.
TEST(GpuPipeline, RowSlotsVerifyTheKeyAndDetectTornWrites) {
    using namespace perftide::gpu;
    RowEntry slot[1] = {};
    const RowTable t{slot, 1};
    const chess::Key128 a{0x1111, 0xAAAA0000AAAA0000ULL}, b{0x2222, 0xBBBB0000BBBB0000ULL};
    chess::PerftStats ra, rb, got;
    for (int k = 0; k < chess::STAT_COUNT; ++k) ra.c[k] = 1000 - k, rb.c[k] = 2000 + 3 * k;
    EXPECT_FALSE(row_probe(t, a, got.c));
    EXPECT_FALSE(row_probe(t, chess::Key128{5, 0}, got.c)) << "an empty slot matches no key";
    row_store(t, a, ra.c);
    ASSERT_TRUE(row_probe(t, a, got.c));
    EXPECT_EQ(std::vector<uint64_t>(got.c, got.c + chess::STAT_COUNT), std::vector<uint64_t>(ra.c, ra.c + chess::STAT_COUNT));
    EXPECT_FALSE(row_probe(t, b, got.c));
    const RowEntry from_a = slot[0];
    row_store(t, b, rb.c);
    const RowEntry from_b = slot[0];
    for (int k = 0; k < chess::STAT_COUNT; ++k) {  // b's write, one word of a's: neither key's row
        slot[0] = from_b;
        slot[0].row[k] = from_a.row[k];
        EXPECT_FALSE(row_probe(t, a, got.c)) << k;
        EXPECT_FALSE(row_probe(t, b, got.c)) << k;
    }
    slot[0] = from_a;
    slot[0].check = from_b.check;
    EXPECT_FALSE(row_probe(t, a, got.c));
    EXPECT_FALSE(row_probe(t, b, got.c));
    slot[0] = from_a;
    chess::PerftStats empty;
    row_store(t, b, empty.c);  // rows without nodes are not stored
    EXPECT_TRUE(row_probe(t, a, got.c));
    row_store(t, a, ra.c);  // two writes of a's row: the same words, so any mix of them is a's row
    EXPECT_EQ(std::memcmp(&slot[0], &from_a, sizeof(RowEntry)), 0);
}

TEST(GpuPipeline, TableLayoutSplitsTheMemoryByDepth) {
    using namespace perftide::gpu;
    int weights = 0;
    for (int w : TABLE_WEIGHT) weights += w;
    std::vector<TableEntry> memory(100 * weights);
    const TableMemory m{memory.data(), memory.size() * sizeof(TableEntry)};
    const PerftTables t = layout_tables<TableEntry>(m);
    uint64_t slots = 0;
    for (int r = 0; r <= MAX_DEVICE_DEPTH; ++r) {
        EXPECT_EQ(t.at(r).size, r < TABLE_MIN_DEPTH ? 0u : 100u * TABLE_WEIGHT[r]) << r;
        if (r > TABLE_MIN_DEPTH) {
            EXPECT_EQ(t.at(r).entries, t.at(r - 1).entries + t.at(r - 1).size) << r;
        }
        slots += t.at(r).size;
    }
    EXPECT_EQ(slots, memory.size());
    const RowTables rows = layout_tables<RowEntry>(m);  // the same memory in 128-byte slots, split alike
    for (int r = 0; r <= MAX_DEVICE_DEPTH; ++r)
        EXPECT_EQ(rows.at(r).size, memory.size() / 8 / weights * TABLE_WEIGHT[r]) << r;
    EXPECT_EQ(static_cast<void*>(rows.at(TABLE_MIN_DEPTH).entries), static_cast<void*>(memory.data()));
    EXPECT_FALSE(layout_tables<TableEntry>(TableMemory{}).any());
    EXPECT_FALSE(layout_tables<TableEntry>(TableMemory{memory.data(), (weights - 1) * sizeof(TableEntry)}).any());  // less than one slot per weight
    for (const uint64_t size : {1ULL, 7ULL, 1000ULL, 1ULL << 40}) {  // slots spread over the whole table
        for (const uint64_t lo : {0ULL, 1ULL << 63, ~0ULL}) EXPECT_LT(mul_hi64(lo, size), size);
        EXPECT_EQ(mul_hi64(~0ULL, size), size - 1);
    }
    EXPECT_EQ(mul_hi64(~0ULL, ~0ULL), ~0ULL - 1);
    EXPECT_EQ(mul_hi64(1ULL << 63, 6), 3u);
}

// ---------------------------------------------------------------------------
// Statistics leaf.

TEST(GpuPipeline, StatisticsMatchCpuOnSuitePositions) {
    const std::pair<const char*, int> cases[] = {
        {chess::START_FEN, 4}, {KIWIPETE, 3}, {POSITION_3, 5}, {POSITION_4, 3}, {POSITION_5, 3},
        {"4k3/8/8/8/8/8/8/4K2R w K - 0 1", 4},  // castling with checks
        {"3k4/3p4/8/K1P4r/8/8/8/8 b - - 0 1", 5}};  // en passant, discovered checks
    for (const auto& [fen, depth] : cases) {
        const chess::Position root = chess::parse_fen(fen);
        EXPECT_EQ(stats_text(host::perft_stats({root}, depth)), stats_text(perftide::cpu_perft_stats(root, depth, 0)))
            << fen;
    }
    EXPECT_TRUE(host::perft_stats({chess::parse_fen(KIWIPETE)}, 0).empty());
}

// Statistics with a small arena and an optimistic estimate (chunks that fail
// deeper down and are retried: their counts must be taken back), and with
// plies expanded on the host.
TEST(GpuPipeline, StatisticsSurviveChunkRetriesAndHostPlies) {
    const chess::Position root = chess::parse_fen(POSITION_3);
    const auto want = stats_text(perftide::cpu_perft_stats(root, 5, 0));
    Stats stats;
    EXPECT_EQ(stats_text(host::perft_stats({root}, 5, Options{.arena_bytes = 24 << 10, .chunk_estimate_scale = 0.02},
                                           &stats)),
              want);
    EXPECT_GT(stats.chunk_retries, 0u);
    Stats host_plies;
    EXPECT_EQ(stats_text(host::perft_stats({root}, 5, Options{.max_device_depth = 2}, &host_plies)), want);
    EXPECT_EQ(host_plies.host_plies, 3);
}

// A batch's statistics, root after root, through row tables (roomy ones,
// and ones so small that most stores evict and most probes meet another
// key) and duplicate removal, each on and off: every root's rows are the
// CPU engine's, and each feature did its work only when on.
TEST(GpuPipeline, StatisticsThroughRowTablesAndDedupMatchCpuPerRoot) {
    const auto roots = transposing_batch();
    std::vector<perftide::StatsTotal> want;
    for (const chess::Position& root : roots)
        for (const auto& row : perftide::cpu_perft_stats(root, TRANSPOSING_DEPTH, 0)) want.push_back(row);
    const auto want_text = stats_text(want);
    for (const long long bytes : {0LL, 128LL * 15 * 4, 1LL << 22}) {
        for (const bool dedup : {false, true}) {
            Options o = keyed(bytes, dedup);
            o.arena_bytes = 1 << 20;
            Stats stats;
            EXPECT_EQ(stats_text(host::perft_stats(roots, TRANSPOSING_DEPTH, o, &stats)), want_text)
                << bytes << " bytes, dedup " << dedup;
            EXPECT_EQ(stats.table_hits > 0, bytes > 0) << bytes << " bytes, dedup " << dedup;
            EXPECT_EQ(stats.duplicates > 0, dedup) << bytes << " bytes, dedup " << dedup;
            EXPECT_EQ(stats.table_bytes, std::size_t(bytes));
            if (bytes > 0 && bytes < (1 << 20)) {
                EXPECT_LT(stats.table_hits * 2, stats.table_probes) << "most probes miss";
            }
        }
    }
}
