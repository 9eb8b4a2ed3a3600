// The GPU engine's breadth-first pipeline run on the host (label
// gpu-pipeline): the same level code, chunking, block staging, warp
// accumulation, transposition tables, duplicate removal and statistics leaf
// as the kernels, checked against the CPU engine. Runs on any machine; no GPU
// needed.
#include <cstring>
#include <map>
#include <random>

#include "support/engine_check.hpp"
#include "gpu/host_exec.hpp"
#include "gpu/host_pipeline.hpp"
#include "gpu/level_pipeline.hpp"
#include "support/run_process.hpp"

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

const char* const POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const char* const POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
const char* const POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8";

// A batch whose levels hold many transpositions (king and rook moves
// commute): the positions one ply below position 3 and below a king and rook
// ending, counted 5 plies deep.
std::vector<chess::Position> transposing_batch() {
    std::vector<chess::Position> batch;
    for (const char* fen : {POSITION_3, "4k3/8/8/8/8/8/8/4K2R w K - 0 1"}) {
        const chess::Position p = chess::parse_fen(fen);
        chess::MoveList list;
        chess::generate_moves(p, chess::host_attacks(), list);
        for (chess::Move m : list) batch.push_back(chess::apply_move(p, m));
    }
    return batch;
}
constexpr int TRANSPOSING_DEPTH = 5;

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
    EXPECT_EQ(text(counting(o, total)(roots, 5)), text(gperft::cpu_perft_batch(roots, 5, 0)));
    EXPECT_GT(total.table_hits, 100u);
    EXPECT_GT(total.duplicates, 100u);
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

// A count above what generation gives (the device-only fault the check
// guards against): every move slot and parent index is still written, so no
// later kernel follows garbage, and the flag is up.
TEST(GpuPipeline, FewerGeneratedMovesThanCountedLeaveNoSlotUnwritten) {
    using namespace gperft::gpu;
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
    const auto want = text(gperft::cpu_perft_batch(roots, TRANSPOSING_DEPTH, 0));
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
    const auto want = text(gperft::cpu_perft_batch(roots, TRANSPOSING_DEPTH, 0));
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
    const auto want = text(gperft::cpu_perft_batch(roots, TRANSPOSING_DEPTH, 0));
    for (const uint64_t seed : {uint64_t(1), uint64_t(0x9e3779b97f4a7c15ULL)}) {
        Options o = keyed(16 * 64, true, seed);
        o.arena_bytes = 256 << 10;
        Stats stats;
        EXPECT_EQ(text(host::perft_batch(roots, TRANSPOSING_DEPTH, o, &stats)), want) << seed;
        EXPECT_GT(stats.table_hits, 0u) << seed;
    }
    using gperft::gpu::HostExec;
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
    const auto want = text(gperft::cpu_perft_batch(roots, 3, 0));
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
    using gperft::gpu::DEDUP_MIN_ITEMS;
    const chess::Position p = chess::parse_fen(POSITION_3);
    const std::string one = chess::to_string(gperft::cpu_perft_batch({p}, 3, 0)[0]);
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
    using namespace gperft::gpu;
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
    using namespace gperft::gpu;
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
    using namespace gperft::gpu;
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
    using namespace gperft::gpu;
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
        EXPECT_EQ(stats_text(host::perft_stats({root}, depth)), stats_text(gperft::cpu_perft_stats(root, depth, 0)))
            << fen;
    }
    EXPECT_TRUE(host::perft_stats({chess::parse_fen(KIWIPETE)}, 0).empty());
}

// Statistics with a small arena and an optimistic estimate (chunks that fail
// deeper down and are retried: their counts must be taken back), and with
// plies expanded on the host.
TEST(GpuPipeline, StatisticsSurviveChunkRetriesAndHostPlies) {
    const chess::Position root = chess::parse_fen(POSITION_3);
    const auto want = stats_text(gperft::cpu_perft_stats(root, 5, 0));
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
    std::vector<gperft::StatsTotal> want;
    for (const chess::Position& root : roots)
        for (const auto& row : gperft::cpu_perft_stats(root, TRANSPOSING_DEPTH, 0)) want.push_back(row);
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

// The stand-in keeps its tables between calls as a device does: statistics
// after counts, counts after statistics and statistics again, all with the
// same tables asked for, each right (a table of one kind is cleared before
// it serves the other).
TEST(PipelineMemory, StandInTablesServeCountsAndRowsInTurn) {
    const auto roots = transposing_batch();
    const auto counts = text(gperft::cpu_perft_batch(roots, TRANSPOSING_DEPTH, 0));
    std::vector<gperft::StatsTotal> rows;
    for (const chess::Position& root : roots)
        for (const auto& row : gperft::cpu_perft_stats(root, TRANSPOSING_DEPTH, 0)) rows.push_back(row);
    Options o = keyed(1 << 20, false);
    o.arena_bytes = 256 << 10;  // chunks, so that later ones find what earlier ones stored
    for (int turn = 0; turn < 2; ++turn) {
        Stats s;
        EXPECT_EQ(stats_text(host::stand_in::perft_stats(roots, TRANSPOSING_DEPTH, o, &s)), stats_text(rows)) << turn;
        EXPECT_GT(s.table_hits, 0u) << turn;
        EXPECT_EQ(text(host::stand_in::perft_batch(roots, TRANSPOSING_DEPTH, o, &s)), counts) << turn;
        EXPECT_GT(s.table_hits, 0u) << turn;
    }
    host::stand_in::release_memory();
}

// The device memory plan (kernels/gpu/device_memory.hpp): a call takes its
// arena plan's want within the budget, never all free memory; tables and
// arena fit the budget or the request is refused naming the numbers and
// where the cap came from.
TEST(DeviceMemory, PlansWithinTheCapAndRefusesWhatDoesNotFit) {
    using namespace gperft::gpu;
    constexpr std::size_t GIB = std::size_t(1) << 30, MIB = DEVICE_MIB;
    // 140 GiB device, 100 GiB free: headroom max(total/32, 512 MiB) = 4.375 GiB.
    const DeviceFree d{100 * GIB, 140 * GIB};
    const std::size_t usable = d.free - d.total / 32;
    const std::size_t share = std::size_t(double(usable) * DEFAULT_DEVICE_SHARE);
    // The arena is what the call wants, not the rest of the budget.
    DeviceMemoryPlan p = plan_device_memory(d, {}, 0, 0, 64 * MIB, 0.5);
    EXPECT_EQ(p.arena_bytes, 64 * MIB);
    EXPECT_EQ(plan_device_memory(d, {}, 0, 0, 1, 0.5).arena_bytes, MIN_ARENA_BYTES);
    EXPECT_EQ(plan_device_memory(d, {}, 0, 0, 1000 * GIB, 0.5).arena_bytes, share);  // at most the budget
    // Automatic tables take their share of the budget; the arena its want within the rest.
    p = plan_device_memory(d, {}, -1, 0, 1000 * GIB, 0.5);
    EXPECT_EQ(p.table_bytes, std::size_t(double(share) * 0.5));
    EXPECT_EQ(p.table_bytes + p.arena_bytes, share);
    const DeviceMemoryCap flag{8 * GIB, CapSource::Flag};
    p = plan_device_memory(d, flag, -1, 0, 256 * MIB, 0.5);
    EXPECT_EQ(p.table_bytes, 4 * GIB);
    EXPECT_EQ(p.arena_bytes, 256 * MIB);
    p = plan_device_memory(d, flag, (long long)(2 * GIB), 256 * MIB, 8 * GIB, 0.5);  // an exact arena request
    EXPECT_EQ(p.table_bytes, 2 * GIB);
    EXPECT_EQ(p.arena_bytes, 256 * MIB);
    const auto refusal = [&](const DeviceFree& free, const DeviceMemoryCap& cap, long long tables) {
        try {
            plan_device_memory(free, cap, tables, 0, 0, 0.5);
        } catch (const std::invalid_argument& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    EXPECT_NE(refusal(d, flag, (long long)(8 * GIB))
                  .find("device tables of 8192 MiB and an arena of 64 MiB do not fit the 8192 MiB of device memory "
                        "this run may take (--device-memory 8192)"),
              std::string::npos);
    // A cap above what is free names its source, flag or variable.
    const std::string by_flag = refusal(d, {200 * GIB, CapSource::Flag}, 0);
    EXPECT_NE(by_flag.find("(--device-memory 204800)"), std::string::npos) << by_flag;
    EXPECT_NE(by_flag.find("102400 MiB free"), std::string::npos) << by_flag;
    const std::string by_env = refusal(d, {200 * GIB, CapSource::Environment}, 0);
    EXPECT_NE(by_env.find("(GPERFT_DEVICE_MEMORY=204800)"), std::string::npos) << by_env;
    EXPECT_EQ(by_env.find("--device-memory"), std::string::npos) << by_env;
    EXPECT_NE(refusal({256 * MIB, 140 * GIB}, {}, 0), "accepted");  // nothing usable
    // The frontier's budget: --memory, else the cap, else half the free memory.
    EXPECT_EQ(frontier_budget(d, {}, 0), 50 * GIB);
    EXPECT_EQ(frontier_budget(d, flag, 0), 8 * GIB);
    EXPECT_EQ(frontier_budget(d, flag, GIB), GIB);
    try {
        frontier_budget(d, {60 * GIB, CapSource::Environment}, 0);
        ADD_FAILURE() << "a frontier budget above half the free memory was accepted";
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("(GPERFT_DEVICE_MEMORY=61440)"), std::string::npos) << e.what();
    }
}

// The cap comes from set_device_memory_limit (--device-memory), else
// GPERFT_DEVICE_MEMORY, whose bad values are refused naming the variable
// and the value, even when the flag overrides it.
TEST(DeviceMemory, CapComesFromTheFlagOrTheVariableAndRefusesBadValues) {
    using namespace gperft::gpu;
    setenv("GPERFT_DEVICE_MEMORY", "1024", 1);
    EXPECT_EQ(device_memory_cap(), (DeviceMemoryCap{1024 * DEVICE_MIB, CapSource::Environment}));
    set_device_memory_limit(2048 * DEVICE_MIB);
    EXPECT_EQ(device_memory_cap(), (DeviceMemoryCap{2048 * DEVICE_MIB, CapSource::Flag}));
    for (const char* bad : {"abc", "0", "-5", "12x", " 64", "99999999999999999999", "10", "16777217"}) {
        setenv("GPERFT_DEVICE_MEMORY", bad, 1);
        try {
            device_memory_cap();
            ADD_FAILURE() << "GPERFT_DEVICE_MEMORY=" << bad << " was accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(std::string("GPERFT_DEVICE_MEMORY='") + bad + "'"), std::string::npos)
                << e.what();
        }
    }
    set_device_memory_limit(0);
    unsetenv("GPERFT_DEVICE_MEMORY");
    EXPECT_EQ(device_memory_cap(), DeviceMemoryCap{});
}

// The arena plan (kernels/gpu/arena_plan.hpp), a pure function: the arena a call
// wants from its shape, the plies left to the host, the root slices and the
// chunks under a cap.
TEST(ArenaPlan, SizesTheArenaFromTheCallsShape) {
    using namespace gperft::gpu;
    constexpr std::size_t MIB = DEVICE_MIB, POS = 48;
    ArenaInputs in;
    in.roots = 1, in.depth = 5, in.growth = 20, in.position_bytes = POS, in.dedup = true;
    ArenaPlan p = plan_arena(in);
    // By hand: keyed with dedup from device depth 3 on, two made levels above the leaf.
    const double made = double(4 + 2 + POS + 4 + 16 + 1) + 16 + (4 + 16 + 8 + 1);
    EXPECT_DOUBLE_EQ(p.made_bytes, made);
    const double s4 = made + 20 * 6.0, s5 = made + 20 * s4;
    EXPECT_EQ(p.level_bytes, std::size_t(8 + 20 * s5));
    EXPECT_EQ(p.want_bytes, p.root_bytes + p.level_bytes);
    EXPECT_EQ(p.arena_bytes, MIN_ARENA_BYTES);  // a small call: the smallest arena
    EXPECT_EQ(p.host_plies, 0);
    EXPECT_EQ(p.root_slices, 1u);
    EXPECT_EQ(p.chunks, 1u);
    // Deeper: plies above the device depth go to the host, and the arena is
    // the want rounded up to a power of two.
    in.depth = 9;
    p = plan_arena(in);
    EXPECT_EQ(p.host_plies, 2);
    EXPECT_EQ(p.device_depth, 7);
    EXPECT_EQ(p.device_roots, 400u);
    EXPECT_GE(p.arena_bytes, p.want_bytes);
    EXPECT_LT(p.arena_bytes / 2, p.want_bytes);
    EXPECT_EQ(p.arena_bytes & (p.arena_bytes - 1), 0u);
    // Under a cap: the arena is the cap and the levels come in chunks.
    in.cap = 256 * MIB;
    const ArenaPlan capped = plan_arena(in);
    EXPECT_EQ(capped.arena_bytes, 256 * MIB);
    EXPECT_GT(capped.chunks, 1u);
    EXPECT_GE(double(capped.chunks) * double(capped.arena_bytes), double(p.level_bytes) * 0.99);
    // Without keys (no tables, no dedup) made items are smaller; statistics
    // make one level more and carry a row per position; depth 1 makes no level.
    in.cap = 0, in.depth = 6, in.dedup = false;
    EXPECT_DOUBLE_EQ(plan_arena(in).made_bytes, made_item_bytes(POS));
    in.stats = true;
    EXPECT_DOUBLE_EQ(plan_arena(in).made_bytes, made_item_bytes(POS) + ROW_ITEM_BYTES);
    in.dedup = true;
    const ArenaPlan stats = plan_arena(in);
    EXPECT_DOUBLE_EQ(stats.made_bytes, made_item_bytes(POS) + ROW_ITEM_BYTES + KEY_ITEM_BYTES + DEDUP_ITEM_BYTES);
    in.stats = false, in.dedup = false;
    EXPECT_GT(stats.level_bytes, plan_arena(in).level_bytes);
    in.depth = 1;
    EXPECT_EQ(plan_arena(in).level_bytes, 0u);
    // Many roots: slices of at most an eighth of the arena.
    in.depth = 4, in.roots = 10'000'000, in.cap = 64 * MIB;
    p = plan_arena(in);
    EXPECT_GE(double(p.root_slices) * double(p.arena_bytes) / ROOT_SHARE,
              double(in.roots) * (made_item_bytes(POS) + KEY_ITEM_BYTES + DEDUP_ITEM_BYTES));
}

// A pretend device for PipelineMemory (kernels/gpu/pipeline_memory.hpp): a fixed
// capacity, every allocation and free counted.
struct PretendDevice {
    std::size_t capacity = 0, used = 0;
    int allocations = 0;
    std::map<void*, std::size_t> live;
};
struct PretendAllocator {
    PretendDevice* d = nullptr;
    void* allocate(std::size_t bytes) {
        if (bytes > d->capacity - d->used) return nullptr;
        void* p = ::operator new(bytes);
        d->used += bytes, ++d->allocations, d->live[p] = bytes;
        return p;
    }
    void deallocate(void* p, std::size_t bytes) noexcept {
        EXPECT_EQ(d->live.at(p), bytes);
        d->live.erase(p), d->used -= bytes;
        ::operator delete(p);
    }
    void zero(void* p, std::size_t bytes) { std::memset(p, 0, bytes); }
};

// The owner's rules for its memory, checked on the host: planned once, kept
// while the calls' wants fit it (no query, no allocation), the arena grown
// alone when a call wants more, tables kept (and cleared for another seed),
// an arena above the kept size given back at a call's end without tables,
// and all of it by release() or the owner's end.
TEST(PipelineMemory, KeptBetweenCallsGrownWhenNeededAndGivenBack) {
    using namespace gperft::gpu;
    constexpr std::size_t MIB = DEVICE_MIB;
    PretendDevice dev;
    dev.capacity = 2048 * MIB;
    const DeviceFree device{2048 * MIB, 2048 * MIB};  // kept size: max(64 MiB, 2048 / 16 MiB) = 128 MiB
    int queries = 0;
    const auto query = [&] { return ++queries, DeviceFree{device.free - dev.used, device.total}; };
    const DeviceMemoryCap cap{1024 * MIB, CapSource::Flag};
    {
        PipelineMemory<PretendAllocator> m(PretendAllocator{&dev});
        MemoryRequest r{0, 64 * MIB, (long long)(64 * MIB), cap, 1};
        EXPECT_TRUE(m.prepare(r, query));
        EXPECT_EQ(m.table_bytes(), 64 * MIB);
        EXPECT_EQ(m.arena_bytes(), 64 * MIB);
        EXPECT_EQ(dev.allocations, 2);
        m.end_call();
        static_cast<char*>(m.tables())[12345] = 7;  // an entry stored by the call
        r.arena_want = 32 * MIB;                    // a smaller want: served as it is
        EXPECT_FALSE(m.prepare(r, query));
        EXPECT_EQ(queries, 1);
        EXPECT_EQ(dev.allocations, 2);
        r.arena_want = 512 * MIB;  // a bigger one: the arena alone grows
        EXPECT_FALSE(m.prepare(r, query));
        EXPECT_EQ(m.arena_bytes(), 512 * MIB);
        EXPECT_EQ(dev.allocations, 3);
        EXPECT_EQ(static_cast<char*>(m.tables())[12345], 7);
        m.end_call();  // tables keep the arena for the run's next call
        EXPECT_EQ(dev.used, 576 * MIB);
        r.seed = 2;  // another seed: new keys, tables cleared, nothing allocated
        EXPECT_TRUE(m.prepare(r, query));
        EXPECT_EQ(static_cast<char*>(m.tables())[12345], 0);
        EXPECT_EQ(dev.allocations, 3);
        static_cast<char*>(m.tables())[12345] = 7;
        r.rows = true;  // statistics rows in the same tables: cleared, the keys kept
        EXPECT_FALSE(m.prepare(r, query));
        EXPECT_EQ(static_cast<char*>(m.tables())[12345], 0);
        static_cast<char*>(m.tables())[12345] = 7;
        EXPECT_FALSE(m.prepare(r, query));  // rows again: kept
        EXPECT_EQ(static_cast<char*>(m.tables())[12345], 7);
        EXPECT_EQ(dev.allocations, 3);
        r.cap = {900 * MIB, CapSource::Flag};  // another cap: all planned again
        EXPECT_TRUE(m.prepare(r, query));
        EXPECT_EQ(dev.allocations, 5);
        m.release();  // the run's end, or a trim
        EXPECT_EQ(dev.used, 0u);
        // Without tables: an arena within the kept size stays after its call
        // (the next call allocates nothing); a bigger one goes back.
        const MemoryRequest small{0, 100 * MIB, 0, cap, 2};
        for (int call = 0; call < 10; ++call) {
            m.prepare(small, query);
            m.end_call();
        }
        EXPECT_EQ(dev.allocations, 6);
        EXPECT_EQ(dev.used, 100 * MIB);
        m.prepare(MemoryRequest{0, 300 * MIB, 0, cap, 2}, query);
        EXPECT_EQ(dev.used, 300 * MIB);
        m.end_call();
        EXPECT_EQ(dev.used, 0u);
        m.prepare(MemoryRequest{256 << 10, 0, 0, cap, 2}, query);  // an exact size is kept exactly
        EXPECT_EQ(m.arena_bytes(), std::size_t(256) << 10);
        m.prepare(r, query);  // and the owner's end frees what is left
    }
    EXPECT_EQ(dev.used, 0u);
    EXPECT_TRUE(dev.live.empty());
}

// When the device has less than planned (another process took it), the
// arena is retried a quarter smaller down to its minimum; below that, and
// for tables that do not fit, the call fails naming the memory and holds
// nothing.
TEST(PipelineMemory, ShrinksTheArenaToWhatIsThereOrFailsHoldingNothing) {
    using namespace gperft::gpu;
    constexpr std::size_t MIB = DEVICE_MIB;
    PretendDevice dev;
    dev.capacity = 100 * MIB;
    PipelineMemory<PretendAllocator> m(PretendAllocator{&dev});
    m.allocate(DeviceMemoryPlan{0, 128 * MIB}, MIN_ARENA_BYTES);
    EXPECT_EQ(m.arena_bytes(), 96 * MIB);
    const auto message = [&](const DeviceMemoryPlan& p, std::size_t min_arena) {
        try {
            m.allocate(p, min_arena);
        } catch (const MemoryUnavailable& e) {
            return std::string(e.what());
        }
        return std::string("no failure");
    };
    EXPECT_EQ(message({90 * MIB, 64 * MIB}, 64 * MIB), "out of memory for a working arena of 64 MiB");
    EXPECT_EQ(dev.used, 0u);
    EXPECT_EQ(message({0, 400 * MIB}, 200 * MIB), "out of memory for a working arena of 400 MiB (nor of 225 MiB)");
    EXPECT_EQ(message({200 * MIB, 64 * MIB}, 64 * MIB), "out of memory for 200 MiB of transposition tables");
    EXPECT_EQ(dev.used, 0u);
    EXPECT_EQ(m.bytes_held(), 0u);
    EXPECT_TRUE(dev.live.empty());
}

// The host pipeline holds its memory through the same PipelineMemory, and
// every byte comes back when a call ends: after a count, after a count with
// tables, and after a call that fails part way.
TEST(PipelineMemory, HostPipelineCallsGiveAllTheirMemoryBack) {
    using namespace gperft::gpu;
    const std::size_t before = host_bytes_held();
    {
        HostExec exec(1 << 20, 1 << 16);
        EXPECT_EQ(host_bytes_held(), before + (1 << 20) + (1 << 16) / sizeof(TableEntry) * sizeof(TableEntry));
    }
    EXPECT_EQ(host_bytes_held(), before);
    const auto roots = positions({KIWIPETE});
    EXPECT_EQ(text(host::perft_batch(roots, 3, Options{.table_bytes = 1 << 20})), text(gperft::cpu_perft_batch(roots, 3, 0)));
    EXPECT_EQ(host_bytes_held(), before);
    EXPECT_THROW(host::perft_batch(roots, 3, Options{.arena_bytes = 1024}), ArenaExhausted);
    EXPECT_EQ(host_bytes_held(), before);
}

// The stand-in keeps its memory between calls, as a device's owner does:
// after a process's first call, 100 more start position perft 5 calls
// allocate nothing and each count stays the CPU engine's; statistics calls
// reuse it too; release_memory (a run's end, or a trim) gives it all back.
TEST(PipelineMemory, StandInCallsAfterTheFirstAllocateNothing) {
    using namespace gperft::gpu;
    const auto roots = positions({chess::START_FEN});
    const std::string want = chess::to_string(gperft::cpu_perft_batch(roots, 5, 0)[0]);
    const std::size_t before = host_bytes_held();
    EXPECT_EQ(chess::to_string(host::stand_in::perft_batch(roots, 5, Options{}, nullptr)[0]), want);
    EXPECT_GT(host_bytes_held(), before);  // kept for the next call
    const uint64_t after_first = host_allocations();
    for (int call = 0; call < 100; ++call)
        ASSERT_EQ(chess::to_string(host::stand_in::perft_batch(roots, 5, Options{}, nullptr)[0]), want) << "call " << call;
    const auto stats_want = stats_text(gperft::cpu_perft_stats(roots[0], 3, 0));
    EXPECT_EQ(stats_text(host::stand_in::perft_stats({roots[0]}, 3, Options{}, nullptr)), stats_want);
    EXPECT_EQ(host_allocations(), after_first);
    host::stand_in::release_memory();
    EXPECT_EQ(host_bytes_held(), before);
}

// What a user sees when the device faults, through the host pipeline standing
// in for it (GPERFT_HOST_GPU) with each planted fault (GPERFT_HOST_GPU_FAULT):
// the fault's own message, exit 3, and no count on standard output.
ProcessResult run_faulted(const std::string& fault, const std::string& args) {
    return run_shell("GPERFT_HOST_GPU=1 GPERFT_HOST_GPU_FAULT=" + fault + " " + GPERFT_BINARY + " " + args +
                     " --backend gpu");
}

TEST(GpuFaults, EachPlantedFaultEndsInItsMessageAndExit3WithNoCount) {
    const std::string analyze = "analyze --no-search --json --file " + shell_quote(std::string(GPERFT_TEST_DATA) + "/perft/cpw_positions.epd");
    const struct {
        const char* fault;
        std::string args;
        const char* message;
    } cases[] = {
        {"generation", "perft --depth 4 --divide", "host pipeline: move generation disagreed with move counting"},
        {"generation", "perft --stats --depth 4 --json", "host pipeline: move generation disagreed with move counting"},
        {"generation", "perft --depth 5 --split 2 --quiet", "host pipeline: move generation disagreed with move counting"},
        {"arena", "perft --depth 3 --fen " + shell_quote(KIWIPETE), "GPU working memory exhausted: "},
        {"allocation", "perft --depth 4", "GPU out of memory for a working arena of "},
        {"allocation", "perft --depth 5 --split 2 --quiet", "GPU out of memory for 192 MiB of transposition tables"},
        // The GPU calls outside the level pipeline: unique's frontier and analyze's move counts.
        {"generation", "unique --depth 3", "move generation disagreed with move counting in the frontier of gperft unique"},
        {"arena", "unique --depth 3", "GPU working memory exhausted: the frontier of gperft unique"},
        {"allocation", "unique --depth 3 --json", "GPU out of memory for the frontier of gperft unique"},
        {"generation", analyze, "move generation disagreed with move counting in the move counts of analyze"},
        {"arena", analyze, "GPU working memory exhausted: the move counts of analyze"},
        {"allocation", analyze, "GPU out of memory for the move counts of analyze"},
    };
    for (const auto& c : cases) {
        const ProcessResult r = run_faulted(c.fault, c.args);
        EXPECT_EQ(r.status, 3) << c.fault << ": " << c.args << ": " << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << c.fault << ": " << c.args << ": " << r.err;
        EXPECT_EQ(r.out, "") << c.fault << ": " << c.args;
    }
    // An unknown kind is refused by every kind of GPU call, naming the value.
    for (const std::string& args : {std::string("perft --depth 2"), std::string("perft --stats --depth 2"),
                                    std::string("unique --depth 2"), analyze}) {
        const ProcessResult bad = run_faulted("sometimes", args);
        EXPECT_EQ(bad.status, 2) << args << ": " << bad.err;
        EXPECT_NE(bad.err.find("GPERFT_HOST_GPU_FAULT=sometimes: give generation, arena or allocation"),
                  std::string::npos)
            << args << ": " << bad.err;
        EXPECT_EQ(bad.out, "") << args;
    }
}

// A journaled deep run whose device faults keeps no unit of the failed
// batch: run again without the fault, it ends at the exact count.
TEST(GpuFaults, AFaultedDeepRunJournalsNothingWrongAndResumesExactly) {
    const std::string journal = "/tmp/gperft_gpu_faults_" + std::to_string(getpid()) + ".journal";
    std::remove(journal.c_str());
    const std::string args = "perft --depth 5 --split 2 --json --journal " + journal;
    const ProcessResult faulted = run_faulted("generation", args);
    EXPECT_EQ(faulted.status, 3) << faulted.err;
    EXPECT_EQ(faulted.out, "");
    const ProcessResult again = run_shell("GPERFT_HOST_GPU=1 " + std::string(GPERFT_BINARY) + " " + args + " --backend gpu");
    EXPECT_EQ(again.status, 0) << again.err;
    EXPECT_NE(again.out.find("\"nodes\": 4865609,"), std::string::npos) << again.out;
    EXPECT_NE(again.out.find("\"units_resumed\": 0"), std::string::npos) << again.out;
    std::remove(journal.c_str());
}

// Device memory on the command line, through the stand-in (a pretend device
// of STAND_IN_BYTES, all free): a cap the device cannot give is refused in
// one wording by perft, statistics and unique, naming where the cap came
// from (--device-memory or GPERFT_DEVICE_MEMORY) and the same free memory;
// bad GPERFT_DEVICE_MEMORY values are refused by every GPU subcommand,
// naming the variable and the value.
TEST(GpuMemoryMessages, RefusalsNameTheirSourceInOneWording) {
    const std::string stand_in = "GPERFT_HOST_GPU=1 ";
    const std::string free_text = std::to_string(gperft::gpu::host::stand_in::STAND_IN_BYTES >> 20) + " MiB free";
    const std::string analyze = "analyze --no-search --file " + shell_quote(std::string(GPERFT_TEST_DATA) + "/perft/cpw_positions.epd");
    for (const char* args : {"perft --depth 3", "perft --stats --depth 3", "unique --depth 3"}) {
        const ProcessResult flag = run_shell(stand_in + GPERFT_BINARY + " " + args + " --backend gpu --device-memory 2000");
        EXPECT_EQ(flag.status, 2) << args << ": " << flag.err;
        EXPECT_NE(flag.err.find("(--device-memory 2000) is more than the device can give: "), std::string::npos)
            << args << ": " << flag.err;
        EXPECT_NE(flag.err.find(free_text), std::string::npos) << args << ": " << flag.err;
        const ProcessResult env =
            run_shell(stand_in + "GPERFT_DEVICE_MEMORY=2000 " + GPERFT_BINARY + " " + args + " --backend gpu");
        EXPECT_EQ(env.status, 2) << args << ": " << env.err;
        EXPECT_NE(env.err.find("(GPERFT_DEVICE_MEMORY=2000) is more than the device can give: "), std::string::npos)
            << args << ": " << env.err;
        EXPECT_NE(env.err.find(free_text), std::string::npos) << args << ": " << env.err;
        EXPECT_EQ(env.err.find("--device-memory"), std::string::npos) << args << ": " << env.err;
    }
    for (const std::string& args : {std::string("perft --depth 3"), std::string("perft --stats --depth 3"),
                                   std::string("unique --depth 3"), analyze}) {
        for (const char* bad : {"abc", "0", "-5", "12x", "10", "99999999999999999999"}) {
            const ProcessResult r = run_shell(stand_in + "GPERFT_DEVICE_MEMORY=" + shell_quote(bad) + " " +
                                              GPERFT_BINARY + " " + args + " --backend gpu");
            EXPECT_EQ(r.status, 2) << args << ", " << bad << ": " << r.err;
            EXPECT_NE(r.err.find(std::string("GPERFT_DEVICE_MEMORY='") + bad + "'"), std::string::npos)
                << args << ", " << bad << ": " << r.err;
            EXPECT_EQ(r.out, "") << args << ", " << bad;
        }
    }
}

// --device is checked against the devices present: the stand-in has one.
TEST(GpuMemoryMessages, DeviceChoiceIsCheckedAgainstTheStandInsOneDevice) {
    const std::string stand_in = "GPERFT_HOST_GPU=1 " + std::string(GPERFT_BINARY);
    const ProcessResult ok = run_shell(stand_in + " perft --depth 2 --backend gpu --device 0");
    EXPECT_EQ(ok.status, 0) << ok.err;
    for (const char* args : {"perft --depth 2 --backend gpu --device 3", "unique --depth 2 --backend gpu --device 1"}) {
        const ProcessResult bad = run_shell(stand_in + " " + args);
        EXPECT_EQ(bad.status, 2) << args << ": " << bad.err;
        EXPECT_NE(bad.err.find("the host pipeline standing in for a GPU (GPERFT_HOST_GPU) has 1 device"), std::string::npos)
            << args << ": " << bad.err;
        EXPECT_EQ(bad.out, "") << args;
    }
}
