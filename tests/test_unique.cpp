// Distinct positions per ply: A083276, the multi-pass path, agreement with an
// independent enumeration, --reach and --emit.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <set>
#include <thread>

#include "chess/identity.hpp"
#include "chess/movegen.hpp"
#include "chess/packed_position.hpp"
#include "frontier/frontier_expand.hpp"
#include "frontier/frontier_file.hpp"

#include "chess/stats.hpp"
#include "gpu/gpu_perft.hpp"
#include "journal/journal.hpp"
#include "support/json_reader.hpp"
#include "support/run_process.hpp"
#include "support/test_data.hpp"
#include "support/unique_check.hpp"

using namespace perftide;

namespace {

// The engines that hold a frontier on the host: the CPU's, and the GPU
// pipeline's algorithm run with Thrust's host system.
struct NamedEngine {
    const char* name;
    std::unique_ptr<frontier::Expander> (*make)(const frontier::Options&);
};
const NamedEngine ENGINES[] = {{"cpu", frontier::make_cpu_expander}, {"host pipeline", frontier::make_host_pipeline_expander}};

std::vector<frontier::PlyCounts> run(const NamedEngine& e, const chess::Position& root, int depth,
                                     const frontier::Options& o, frontier::Frontier* final_ply) {
    return frontier::run_plies(*e.make(o), frontier::root_frontier(root), depth, nullptr, final_ply);
}

PathCounts by_key(const frontier::Frontier& f) {
    PathCounts out;
    for (size_t i = 0; i < f.positions.size(); ++i) {
        const auto [it, fresh] = out.insert({position_key(f.positions[i]), {f.positions[i], f.counts[i]}});
        EXPECT_TRUE(fresh) << "twice in one frontier: " << chess::to_fen(f.positions[i]);
    }
    return out;
}

void expect_same_plies(const std::vector<frontier::PlyCounts>& a, const std::vector<frontier::PlyCounts>& b,
                       const std::string& what) {
    ASSERT_EQ(a.size(), b.size()) << what;
    for (size_t i = 0; i < a.size(); ++i) {
        EXPECT_EQ(a[i].distinct, b[i].distinct) << what << ", ply " << i;
        EXPECT_EQ(chess::to_string(a[i].paths), chess::to_string(b[i].paths)) << what << ", ply " << i;
        EXPECT_EQ(a[i].in_check, b[i].in_check) << what << ", ply " << i;
        EXPECT_EQ(a[i].checkmates, b[i].checkmates) << what << ", ply " << i;
        EXPECT_EQ(a[i].stalemates, b[i].stalemates) << what << ", ply " << i;
        EXPECT_EQ(a[i].insufficient, b[i].insufficient) << what << ", ply " << i;
        EXPECT_EQ(a[i].en_passant, b[i].en_passant) << what << ", ply " << i;
        EXPECT_EQ(a[i].castling, b[i].castling) << what << ", ply " << i;
        EXPECT_EQ(chess::to_string(a[i].checkmate_paths), chess::to_string(b[i].checkmate_paths)) << what << ", ply " << i;
    }
}

}  // namespace

// Ply 6 (9,417,681) on the CPU engine in two passes.
std::vector<frontier::PlyCounts> cpu_ply6() {
    frontier::Options two;
    two.passes = 2;
    return frontier::unique_cpu(chess::parse_fen(chess::START_FEN), 6, two, nullptr);
}

TEST(Unique, ReproducesA083276ToPly6) {
    const auto terms = a083276();
    const auto cpu = cpu_ply6();
    ASSERT_EQ(cpu.size(), 7u);
    for (const auto& p : cpu) EXPECT_EQ(p.distinct, terms.at(p.ply)) << "ply " << p.ply;
    EXPECT_EQ(cpu[6].passes, 2);
    EXPECT_EQ(chess::to_string(cpu[6].paths), "119060324");  // perft(6)
}

// The host pipeline (the GPU's algorithm) agrees with the CPU engine on
// every class of every ply to 6.
TEST(Unique, HostPipelineAgreesWithTheCpuEngineToPly6) {
    const auto pipeline = frontier::run_plies(*frontier::make_host_pipeline_expander({}),
                                              frontier::root_frontier(chess::parse_fen(chess::START_FEN)), 6, nullptr,
                                              nullptr);
    expect_same_plies(cpu_ply6(), pipeline, "cpu against host pipeline");
}

// Every pass count (forced, or forced by a budget far too small for one
// pass) gives the same plies and the same final frontier, on both engines,
// and with the last ply kept or only counted.
TEST(Unique, EveryPassCountGivesTheSameAnswer) {
    const chess::Position root = chess::parse_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");
    frontier::Options one;
    frontier::Frontier reference;
    const auto expected = run(ENGINES[0], root, 3, one, &reference);
    EXPECT_EQ(expected.back().passes, 1);
    for (int passes : {2, 3, 8, 64}) {
        frontier::Options o;
        o.passes = passes;
        frontier::Frontier f;
        const auto plies = run(ENGINES[0], root, 3, o, &f);
        expect_same_plies(expected, plies, std::to_string(passes) + " passes");
        EXPECT_EQ(plies.back().passes, passes);
        EXPECT_TRUE(by_key(f) == by_key(reference)) << passes << " passes";
        expect_same_plies(expected, run(ENGINES[0], root, 3, o, nullptr), std::to_string(passes) + " passes, not kept");
    }
    frontier::Options tiny;
    tiny.budget_bytes = 1;
    frontier::Frontier f;
    const auto plies = run(ENGINES[1], root, 3, tiny, &f);
    EXPECT_GT(plies.back().passes, 4);
    expect_same_plies(expected, plies, "host pipeline, tiny budget");
    EXPECT_TRUE(by_key(f) == by_key(reference));
    // The last ply only counted: each pass classified and dropped.
    const auto counted = run(ENGINES[1], root, 3, tiny, nullptr);
    EXPECT_EQ(counted.back().passes, plies.back().passes);
    expect_same_plies(expected, counted, "host pipeline, tiny budget, not kept");
}

// A frontier larger than half the budget goes to a file of the work
// directory and is read back a chunk at a time by every pass (a 2 MiB
// budget: chunks of 4,096 parents, ply 4's 72,078 positions on disk).
// The plies, the last one kept or only counted, and the final frontier
// equal those of a run in memory; the file is gone when the run ends.
TEST(Unique, WorkDirFrontierGivesTheSameAnswer) {
    const chess::Position root = chess::parse_fen(chess::START_FEN);
    frontier::Frontier reference;
    const auto expected = run(ENGINES[0], root, 5, {}, &reference);
    const std::string dir = "/tmp/perftide_work_dir_" + std::to_string(getpid());
    ASSERT_EQ(mkdir(dir.c_str(), 0700), 0);
    frontier::Options o;
    o.budget_bytes = uint64_t(2) << 20;
    o.work_dir = dir;
    frontier::Frontier f;
    const auto plies = run(ENGINES[0], root, 5, o, &f);
    expect_same_plies(expected, plies, "work dir, kept");
    EXPECT_GT(plies[5].passes, 1);
    EXPECT_TRUE(by_key(f) == by_key(reference));
    expect_same_plies(expected, run(ENGINES[0], root, 5, o, nullptr), "work dir, counted");
    EXPECT_EQ(rmdir(dir.c_str()), 0) << "a frontier file was left behind";
    // Without a work directory, the same budget cannot hold ply 4.
    frontier::Options memory_only;
    memory_only.budget_bytes = o.budget_bytes;
    try {
        run(ENGINES[0], root, 5, memory_only, nullptr);
        FAIL() << "ply 4 was kept in a 2 MiB budget";
    } catch (const frontier::BudgetTooSmall& e) {
        EXPECT_NE(std::string(e.what()).find("(--work-dir keeps a large frontier on disk)"), std::string::npos)
            << e.what();
    }
}

// Space the work directory's disk cannot give is refused with the sizes,
// before anything is written; so are a directory that is none and a GPU
// run (its engine keeps no frontier on disk).
TEST(Unique, WorkDirWithoutTheSpaceIsRefused) {
    try {
        frontier::check_free_space("/tmp", uint64_t(1) << 60, "ply 9's frontier");
        FAIL() << "an exbibyte was found free in /tmp";
    } catch (const frontier::WorkDirUnusable& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("--work-dir /tmp has "), std::string::npos) << what;
        EXPECT_NE(what.find(" MiB free; ply 9's frontier needs about 1099511627776 MiB"), std::string::npos) << what;
    }
    EXPECT_NO_THROW(frontier::check_free_space("/tmp", 1, "a byte"));
    const ProcessResult gpu = run_shell("PERFTIDE_HOST_GPU=1 " + std::string(PERFTIDE_BINARY) +
                                        " unique --depth 3 --backend gpu --work-dir /tmp");
    EXPECT_EQ(gpu.status, 2) << gpu.err;
    EXPECT_NE(gpu.err.find("--work-dir: only the CPU backend keeps a frontier on disk"), std::string::npos) << gpu.err;
    const auto missing = run_perftide("unique --depth 3 --work-dir /nonexistent/dir");
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.err.find("Directory does not exist: /nonexistent/dir"), std::string::npos) << missing.err;
}

// A work directory that cannot take ply 4's frontier (--memory 2 sends it
// to disk) is bad input, exit 2, refused before the ply with the directory,
// what failed and both sizes: /proc reads as a full disk (no space free),
// and an immutable directory (chattr +i: the tests run as root, for whom a
// read-only mode bit is no bar) has the space but takes no file.
TEST(UniqueCli, WorkDirThatCannotTakeTheFrontierIsBadInput) {
    const std::string args = "unique --depth 5 --memory 2 --threads 1 --backend cpu --work-dir ";
    const ProcessResult full = run_perftide(args + "/proc");
    EXPECT_EQ(full.status, 2) << full.err;
    EXPECT_EQ(full.out, "");
    EXPECT_NE(full.err.find("perftide: --work-dir /proc has 0 MiB free; this ply's frontier of about "),
              std::string::npos) << full.err;
    EXPECT_NE(full.err.find(" positions needs about "), std::string::npos) << full.err;
    const std::string dir = "/tmp/perftide_immutable_work_dir_" + std::to_string(getpid());
    ASSERT_EQ(mkdir(dir.c_str(), 0700), 0);
    if (run_shell("chattr +i " + dir + " 2>/dev/null").status != 0) {
        rmdir(dir.c_str());
        GTEST_SKIP() << "chattr +i is not supported on /tmp: only the full disk was tested";
    }
    const ProcessResult sealed = run_perftide(args + dir);
    run_shell("chattr -i " + dir);
    rmdir(dir.c_str());
    EXPECT_EQ(sealed.status, 2) << sealed.err;
    EXPECT_NE(sealed.err.find("perftide: --work-dir " + dir + ": cannot make a file there (Operation not permitted); "
                              "this ply's frontier of about "),
              std::string::npos) << sealed.err;
    EXPECT_NE(sealed.err.find(" MiB, the directory has "), std::string::npos) << sealed.err;
    EXPECT_EQ(sealed.err.find("internal error"), std::string::npos) << sealed.err;
}

// The GPU engine (here the host pipeline standing in for the device, with its
// pretend 1 GiB) refuses a ply whose frontiers would not fit beside the
// working budget, before the ply starts and with the sizes; the last ply
// needs no frontier of its own, so ply 6 fits where ply 7 does not.
TEST(UniqueCli, GpuPlyThatCannotFitIsRefusedBeforeItStarts) {
    const std::string gpu = "PERFTIDE_HOST_GPU=1 " + std::string(PERFTIDE_BINARY) + " unique --backend gpu --memory 500 ";
    const ProcessResult r = run_shell(gpu + "--depth 7");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("the next ply does not fit the device: 822518 parents (62 MiB) and about "), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("beside the working budget of 500 MiB need more than the 1024 MiB of device memory free"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(r.out, "");
    const ProcessResult five = run_shell(gpu + "--depth 5 --json");
    EXPECT_EQ(five.status, 0) << five.err;
    EXPECT_NE(five.out.find("\"ply\": 5, \"distinct\": 822518, \"paths\": 4865609,"), std::string::npos) << five.out;
}

// The CPU engine's budget holds the frontiers: one too small for them is
// refused, naming the sizes.
TEST(Unique, CpuBudgetTooSmallIsRefused) {
    frontier::Options o;
    o.budget_bytes = uint64_t(16) << 20;
    try {
        frontier::unique_cpu(chess::parse_fen(chess::START_FEN), 6, o, nullptr);  // ply 5 alone is 25 MiB
        FAIL() << "a 16 MiB budget was accepted";
    } catch (const frontier::BudgetTooSmall& e) {
        EXPECT_NE(std::string(e.what()).find("--memory 16 MiB cannot hold this ply's frontiers"), std::string::npos)
            << e.what();
    }
}

// The frontier against a depth-first enumeration (a std::map of canonical
// positions), and its classes against the perft statistics, on both engines.
TEST(Unique, AgreesWithEnumerationAndStatistics) {
    for (const char* fen : {"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
                            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
                            "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1", "4k3/8/8/3pP3/8/8/8/4K2R w K d6 0 1",
                            "rnbqkbnr/pppp1ppp/8/8/4p3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
                            // Chess960 castling, which transposes with rook and king moves
                            "1r2k1r1/8/8/8/8/8/8/1R2K1R1 w GBgb - 0 1", "rk6/8/8/8/8/8/8/RK4R1 w GA - 0 1"}) {
        const chess::Position root = chess::parse_fen(fen);
        PathCounts expected;
        enumerate(root, 3, expected);
        uint64_t en_passant = 0, castling = 0;
        for (const auto& [key, entry] : expected)
            en_passant += entry.first.ep != chess::SQ_NONE, castling += entry.first.castle_rooks != 0;
        for (const NamedEngine& e : ENGINES) {
            frontier::Frontier f;
            const auto plies = run(e, root, 3, frontier::Options{}, &f);
            ASSERT_EQ(f.positions.size(), expected.size()) << e.name << ": " << fen;
            for (size_t i = 0; i < f.positions.size(); ++i) {
                const auto it = expected.find(position_key(f.positions[i]));
                ASSERT_NE(it, expected.end()) << e.name << ": " << fen << ": " << chess::to_fen(f.positions[i]);
                EXPECT_TRUE(f.positions[i] == it->second.first) << e.name << ": " << chess::to_fen(f.positions[i]);
                EXPECT_EQ(f.counts[i], it->second.second) << e.name << ": " << chess::to_fen(f.positions[i]);
            }
            EXPECT_EQ(plies[3].en_passant, en_passant) << e.name << ": " << fen;
            EXPECT_EQ(plies[3].castling, castling) << e.name << ": " << fen;
            chess::PerftStats rows[3];
            chess::perft_stats(root, chess::host_attacks(), 3, rows);
            for (int d = 1; d <= 3; ++d) {
                EXPECT_EQ(chess::to_string(plies[d].paths), chess::to_string(rows[d - 1].c[chess::STAT_NODES])) << fen;
                EXPECT_EQ(chess::to_string(plies[d].checkmate_paths), chess::to_string(rows[d - 1].checkmates())) << fen;
                EXPECT_EQ(chess::to_string(plies[d].stalemate_paths),
                          chess::to_string(rows[d - 1].c[chess::STAT_STALEMATES]))
                    << fen;
                EXPECT_EQ(chess::to_string(plies[d].check_paths),
                          chess::to_string(rows[d - 1].checks_without_mate() + rows[d - 1].checkmates()))
                    << fen;
            }
        }
    }
}

// The GPU frontier's expansion with a planted count mismatch (the
// device-only fault it guards against): the flag goes up, and no child is
// written outside its parent's slots, whether generation gives more moves
// than counted or fewer.
TEST(UniqueFrontier, ExpansionNeverWritesOutsideAParentsSlots) {
    const chess::Position parents[2] = {chess::parse_fen(chess::START_FEN),
                                        chess::parse_fen("4k3/8/8/8/8/8/8/4K3 w - - 0 1")};  // 20 and 5 moves
    const chess::Position marker = chess::parse_fen("8/8/8/8/8/8/8/K6k w - - 0 1");
    const uint64_t counts[2] = {3, 7};
    for (const auto& [first, second] : {std::pair<uint64_t, uint64_t>{20, 5}, {25, 5}, {10, 5}, {20, 2}}) {
        const uint64_t offsets[3] = {0, first, first + second};
        std::vector<chess::Position> out(first + second + 1, marker);
        std::vector<uint64_t> out_counts(out.size(), 0);
        uint32_t error = 0;
        const frontier::detail::ExpandFn expand{parents, counts, offsets, 0, out.data(), out_counts.data(), &error,
                                                chess::host_attacks()};
        expand(0), expand(1);
        const bool planted = first != 20 || second != 5;
        EXPECT_EQ(error, planted ? 1u : 0u) << first << "/" << second;
        for (uint64_t i = 0; i < out.size(); ++i) {
            const bool of_first = i < std::min<uint64_t>(first, 20);
            const bool of_second = i >= first && i < first + std::min<uint64_t>(second, 5);
            EXPECT_EQ(out_counts[i], of_first ? 3u : of_second ? 7u : 0u) << first << "/" << second << " slot " << i;
            if (!of_first && !of_second) {
                EXPECT_TRUE(out[i] == marker) << "slot " << i << " written";
            }
        }
    }
}

// The next ply's vector outgrows its reservation only by grown_capacity's
// quarter steps: appended in uneven passes (one pass ten times the others),
// with a reservation that was too small, the capacity ends within a quarter
// of the frontier and the copy at any growth holds at most 2.25x of it, where
// a doubling vector held 3x (old buffer plus twice as much).
TEST(UniqueFrontier, TheNextPlyGrowsByQuartersNotByDoubling) {
    using frontier::detail::grown_capacity;
    const uint64_t reserved = 1000;  // the estimate: a tenth of what comes
    uint64_t size = 0, capacity = reserved, peak = 0;
    for (int pass = 0; pass < 16; ++pass) {
        const uint64_t n = pass == 7 ? 6000 : 270;
        if (size + n > capacity) {
            const uint64_t grown = grown_capacity(capacity, size + n);
            EXPECT_GE(grown, size + n);
            peak = std::max(peak, capacity + grown);  // both buffers during the copy
            capacity = grown;
        }
        size += n;
    }
    EXPECT_EQ(size, 15u * 270u + 6000u);
    EXPECT_LE(double(capacity), 1.25 * double(size) + 1);
    EXPECT_LE(double(peak), 2.25 * double(size) + 1);
    EXPECT_EQ(grown_capacity(0, 5), 5u);
    EXPECT_EQ(grown_capacity(800, 801), 1000u);
    EXPECT_EQ(grown_capacity(800, 5000), 5000u);
}

// A pass of the pipeline makes exactly its own children: for 1, 2, 3 and 8
// passes, the children counted and made for pass p are those whose key of
// men and side, computed from the made child, falls in p; each parent's
// children over all passes are its children, each once. The CPU engine
// chooses its passes by the same rule (detail::pass_of), so pass p of the
// two engines holds the same children. Parents: the CPW and Chess960
// suites' roots and their children.
TEST(UniqueFrontier, APassMakesExactlyItsOwnChildren) {
    const auto keys = chess::build_zobrist_data(frontier::PASS_SEED);
    const chess::Zobrist z{keys.get()};
    const chess::Attacks& at = chess::host_attacks();
    std::vector<chess::Position> parents;
    for (const char* file : {"perft/cpw_positions.epd", "perft/chess960.perft"}) {
        const auto suite = read_suite_file(std::string(PERFTIDE_TEST_DATA) + "/" + file);
        for (size_t i = 0; i < suite.size() && i < 12; ++i) {
            const chess::Position root = chess::parse_fen(suite[i].fen);
            parents.push_back(root);
            chess::MoveList list;
            chess::generate_moves(root, at, list);
            for (chess::Move m : list) parents.push_back(chess::canonical(chess::apply_move(root, m), at));
        }
    }
    ASSERT_GT(parents.size(), 500u);
    const auto sorted = [](std::vector<chess::Position> v) {
        std::sort(v.begin(), v.end(), chess::IdentityLess{});
        return v;
    };
    long made = 0;
    for (uint32_t passes : {1u, 2u, 3u, 8u}) {
        for (const chess::Position& parent : parents) {
            chess::MoveList list;
            chess::generate_moves(parent, at, list);
            std::vector<chess::Position> children;
            for (chess::Move m : list) children.push_back(chess::canonical(chess::apply_move(parent, m), at));
            std::vector<chess::Position> all;
            for (uint32_t pass = 0; pass < passes; ++pass) {
                const frontier::detail::PassShare share{z, pass, passes};
                const uint64_t n = frontier::detail::CountShareFn{at, share}(parent);
                const uint64_t offsets[2] = {0, n}, count = 5;
                std::vector<chess::Position> out(n);
                std::vector<uint64_t> out_counts(n, 0);
                uint32_t error = 0;
                frontier::detail::ExpandFn{&parent, &count, offsets, 0, out.data(), out_counts.data(), &error, at,
                                           share}(0);
                ASSERT_EQ(error, 0u) << chess::to_fen(parent) << ", pass " << pass << " of " << passes;
                for (uint64_t i = 0; i < n; ++i) {
                    EXPECT_EQ(frontier::detail::pass_of(z.men_key(out[i]), passes), pass)
                        << chess::to_fen(out[i]) << " made in pass " << pass << " of " << passes;
                    EXPECT_EQ(out_counts[i], count);
                    all.push_back(out[i]);
                }
                made += long(n);
            }
            ASSERT_TRUE(sorted(all) == sorted(children)) << chess::to_fen(parent) << ", " << passes << " passes";
        }
    }
    EXPECT_GT(made, 4 * 10000);
}

// The packed form: unpack(pack(p)) is p for every canonical position met,
// and two positions pack alike exactly when FIDE 9.2 calls them the same
// (the enumeration's key, e.p. square as canonical() keeps it).
TEST(PackedPosition, RoundTripAndIdentity) {
    std::map<std::tuple<uint64_t, uint64_t, uint64_t>, decltype(position_key(chess::Position{}))> seen;
    size_t positions = 0, with_ep = 0, with_castling = 0, black = 0;
    for (const char* fen : {chess::START_FEN, "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1", "4k3/8/8/3pP3/8/8/8/4K2R w K d6 0 1",
                            "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1",
                            "rk6/8/8/8/8/8/8/RK4R1 w GA - 0 1"}) {
        const chess::Position root = chess::parse_fen(fen);
        PathCounts all;
        enumerate(root, 3, all);
        for (const auto& [key, entry] : all) {
            const chess::Position& p = entry.first;
            const chess::PackedPosition k = chess::pack(p);
            const chess::Position back = chess::unpack(k, p.chess960);
            ASSERT_TRUE(back == p) << chess::to_fen(p) << " came back as " << chess::to_fen(back);
            const auto [it, fresh] = seen.insert({{k.occupied, k.men[0], k.men[1]}, key});
            EXPECT_TRUE(fresh || it->second == key) << "two positions pack alike: " << chess::to_fen(p);
            ++positions, with_ep += p.ep != chess::SQ_NONE, with_castling += p.castle_rooks != 0, black += p.stm;
        }
    }
    EXPECT_EQ(seen.size(), positions);  // (a position is in one enumeration once)
    EXPECT_GT(with_ep, 0u);
    EXPECT_GT(with_castling, 0u);
    EXPECT_GT(black, 0u);
    // The side to move and the e.p. square are part of the identity.
    const chess::Position a = chess::canonical(chess::parse_fen("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"), chess::host_attacks());
    const chess::Position b = chess::canonical(chess::parse_fen("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1"), chess::host_attacks());
    const chess::Position c = chess::canonical(chess::parse_fen("4k3/8/8/3pP3/8/8/8/4K3 b - - 0 1"), chess::host_attacks());
    EXPECT_FALSE(chess::pack(a) == chess::pack(b));
    EXPECT_FALSE(chess::pack(b) == chess::pack(c));
    EXPECT_TRUE(chess::unpack(chess::pack(c), false) == c);
}

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The "EPD ; paths" lines of an --emit file.
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
    const std::string base = "/tmp/perftide_emit_" + std::to_string(getpid());
    const auto r = run_perftide("unique --depth 3 --backend cpu --fen " + shell_quote(root_fen) + " --emit mates " + base +
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

// --help says what --emit writes (the four EPD fields and the paths, as
// read above), and docs/cli.md's synopsis names every option --help lists
// (the shared --device, --device-memory and --progress are said once there).
TEST(UniqueCli, HelpAndTheSynopsisSayWhatItTakes) {
    const auto help = run_perftide("unique --help");
    ASSERT_EQ(help.status, 0) << help.err;
    EXPECT_TRUE(contains(help.out, "'EPD ; paths' lines")) << help.out;
    EXPECT_FALSE(contains(help.out, "FEN ; count")) << help.out;
    std::ifstream doc(std::string(PERFTIDE_TEST_DATA) + "/../../docs/cli.md");
    std::string synopsis;
    for (std::string line; std::getline(doc, line);)
        if (line.starts_with("    perftide unique") || (!synopsis.empty() && line.starts_with("                  [")))
            synopsis += line;
        else if (!synopsis.empty())
            break;
    ASSERT_FALSE(synopsis.empty());
    const std::set<std::string> shared{"--help", "--device", "--device-memory", "--progress"};
    size_t options = 0;
    for (const std::string& line : lines_of(help.out)) {
        const size_t first = line.find_first_not_of(' '), at = line.find("--");
        if (first == std::string::npos || line[first] != '-' || at == std::string::npos) continue;  // an option's line
        const std::string option = line.substr(at, line.find_first_of(" ,", at) - at);
        if (shared.count(option)) continue;
        ++options;
        EXPECT_TRUE(contains(synopsis, "[" + option) || contains(synopsis, " " + option))
            << option << " in " << synopsis;
    }
    EXPECT_GT(options, 8u);
}

TEST(UniqueCli, ReachCountsPathsToAPosition) {
    // Paths of four plies back to the start position, counted independently.
    PathCounts all;
    const chess::Position start = chess::parse_fen(chess::START_FEN);
    enumerate(start, 4, all);
    const uint64_t expected = all.at(position_key(chess::canonical(start, chess::host_attacks()))).second;
    const auto r = run_perftide("unique --depth 4 --json --backend cpu --reach " + shell_quote(chess::START_FEN) +
                              " --reach " + shell_quote("4k3/8/8/8/8/8/8/4K3 w - - 0 1"));
    ASSERT_EQ(r.status, 0) << r.err;
    const testjson::Value v = testjson::parse(r.out);
    EXPECT_EQ(v["reach"][chess::START_FEN].text, std::to_string(expected));
    EXPECT_EQ(v["reach"]["4k3/8/8/8/8/8/8/4K3 w - - 0 1"].text, "0");
    ASSERT_EQ(v["plies"].items.size(), 5u);
    EXPECT_EQ(v["plies"].items[4]["distinct"].text, "72078");
    EXPECT_EQ(v["plies"].items[4]["checkmate_paths"].text, "8");
    const auto text = run_perftide("unique --depth 2 --backend cpu --memory 1");
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("  2       400    400"), std::string::npos) << text.out;
}

namespace {

// The "plies" array of unique's JSON, which must not depend on a journal.
std::string plies_of(const std::string& json) {
    const testjson::Value v = testjson::parse(json);
    std::string out;
    for (const auto& row : v["plies"].items)
        for (const char* f : {"ply", "distinct", "paths", "in_check", "checkmates", "stalemates", "dead", "en_passant",
                              "castling", "check_paths", "checkmate_paths", "passes"})
            out += std::string(f) + "=" + row[f].text + " ";
    return out;
}

// The last ply is counted by key (16-byte entries with the classes found
// as each child is made); kept (--reach), it is counted from the positions
// themselves. Both agree on every class, with the journal's passes too.
TEST(UniqueCli, LastPlyCountedByKeyEqualsItsPositions) {
    const auto exact = run_perftide("unique --depth 4 --backend cpu --json --exact");
    const auto keyed = run_perftide("unique --depth 4 --backend cpu --json");
    ASSERT_EQ(exact.status, 0) << exact.err;
    EXPECT_EQ(testjson::parse(exact.out)["last_ply_identity"].text, "positions");
    EXPECT_EQ(testjson::parse(keyed.out)["last_ply_identity"].text, "zobrist 87 bits");
    EXPECT_EQ(plies_of(exact.out), plies_of(keyed.out));
    const std::string kiwipete = "'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1'";
    for (const std::string& fen : {std::string("startpos"), kiwipete}) {
        const auto counted = run_perftide("unique --depth 4 --backend cpu --json --fen " + fen);
        const auto kept = run_perftide("unique --depth 4 --backend cpu --json --reach startpos --fen " + fen);
        ASSERT_EQ(counted.status, 0) << counted.err;
        ASSERT_EQ(kept.status, 0) << kept.err;
        EXPECT_EQ(plies_of(counted.out), plies_of(kept.out)) << fen;
    }
}

}  // namespace

// Bare kings past ply 17: a position's multiplicity outgrows the last
// ply's keyed 34-bit entries (the run used to end in "internal error"), so
// its pass is made again with whole entries. Every ply equals the kept
// count (--reach keeps the last ply's positions), the last ply's paths are
// perft's, and the GPU pipeline on the host agrees.
TEST(UniqueCli, MultiplicitiesPastTheKeyedEntryAreExact) {
    const std::string fen = shell_quote("8/8/8/8/8/8/8/K1k5 w - - 0 1");
    const std::string args = "unique --depth 19 --json --fen " + fen;
    const auto counted = run_perftide(args + " --backend cpu");
    const auto kept = run_perftide(args + " --backend cpu --reach startpos");
    const auto gpu = run_shell("PERFTIDE_HOST_GPU=1 " + std::string(PERFTIDE_BINARY) + " " + args + " --backend gpu");
    const auto perft = run_perftide("perft --backend cpu --quiet --json --depth 19 --fen " + fen);
    ASSERT_EQ(counted.status, 0) << counted.err;
    ASSERT_EQ(kept.status, 0) << kept.err;
    ASSERT_EQ(gpu.status, 0) << gpu.err;
    ASSERT_EQ(perft.status, 0) << perft.err;
    EXPECT_EQ(plies_of(counted.out), plies_of(kept.out));
    EXPECT_EQ(plies_of(counted.out), plies_of(gpu.out));
    const testjson::Value plies = testjson::parse(counted.out)["plies"];
    ASSERT_EQ(plies.items.size(), 20u);
    EXPECT_EQ(plies.items[19]["paths"].text, testjson::parse(perft.out)["nodes"].text);
}

// A journal written before the program was renamed perftide (its header
// says gperft-journal; two of four passes done) resumes to the counts of an
// uninterrupted run, and its header is kept as it was.
TEST(UniqueCli, AJournalFromBeforeTheRenameResumes) {
    const std::string journal = "/tmp/perftide_unique_old_journal_" + std::to_string(getpid());
    const std::string old = slurp(std::string(PERFTIDE_TEST_DATA) + "/journal/before_rename_unique_d4.journal");
    ASSERT_TRUE(old.starts_with("gperft-journal ")) << "the fixture is not a journal of the old name";
    std::ofstream(journal) << old;
    const std::string args = "unique --depth 4 --passes 4 --threads 1 --backend cpu --json";
    const auto plain = run_perftide(args);
    const auto resumed = run_perftide(args + " --journal " + journal);
    ASSERT_EQ(plain.status, 0) << plain.err;
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_EQ(plies_of(resumed.out), plies_of(plain.out));
    EXPECT_EQ(testjson::parse(resumed.out)["passes_resumed"].text, "2");
    const std::string after = slurp(journal);
    EXPECT_TRUE(after.starts_with(old)) << "the old journal's lines must stay as they were";
    EXPECT_EQ(count_lines(after), 1 + 4 * 12);
    // A new journal is written under the new name.
    std::remove(journal.c_str());
    ASSERT_EQ(run_perftide(args + " --journal " + journal).status, 0);
    EXPECT_TRUE(slurp(journal).starts_with("perftide-journal ")) << slurp(journal);
    std::remove(journal.c_str());
}

// The last ply's passes are journaled: a run killed with SIGKILL and run
// again with the same arguments gives the counts of an uninterrupted run,
// without redoing the passes it had finished.
TEST(UniqueCli, KilledRunResumesFromItsJournal) {
    const std::string base = "/tmp/perftide_unique_journal_" + std::to_string(getpid());
    const std::string journal = base + ".journal", out = base + ".out";
    std::remove(journal.c_str());
    const std::string args = "unique --depth 6 --passes 24 --threads 1 --backend cpu --json --journal " + journal;
    const auto plain = run_perftide("unique --depth 6 --passes 24 --backend cpu --json");
    ASSERT_EQ(plain.status, 0) << plain.err;

    const pid_t pid = spawn_perftide(args, out);
    wait_for_lines(journal, 1 + 2 * 12);
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the run finished before it could be killed";
    const int finished = (count_lines(slurp(journal)) - 1) / 12;  // a pass is twelve counters
    ASSERT_GE(finished, 2);
    ASSERT_LT(finished, 24);

    const auto resumed = run_perftide(args);
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_EQ(plies_of(resumed.out), plies_of(plain.out));
    EXPECT_EQ(testjson::parse(resumed.out)["passes_resumed"].text, std::to_string(finished));
    EXPECT_NE(resumed.err.find("resuming from journal " + journal + ": " + std::to_string(finished) +
                               " of the last ply's 24 passes done"),
              std::string::npos)
        << resumed.err;
    EXPECT_EQ(count_lines(slurp(journal)), 1 + 24 * 12);
    // Run again, everything is in the journal.
    const auto again = run_perftide(args);
    EXPECT_EQ(plies_of(again.out), plies_of(plain.out));
    EXPECT_EQ(testjson::parse(again.out)["passes_resumed"].text, "24");

    // Another run's journal, or a file that is none, is refused up front.
    const auto other = run_perftide("unique --depth 5 --backend cpu --journal " + journal);
    EXPECT_EQ(other.status, 2);
    EXPECT_NE(other.err.find("the journal is for depth 6, this run has depth 5"), std::string::npos) << other.err;
    std::ofstream(out) << "not a journal\n";
    const auto foreign = run_perftide("unique --depth 5 --backend cpu --journal " + out);
    EXPECT_EQ(foreign.status, 2);
    EXPECT_NE(foreign.err.find("is not a perftide journal"), std::string::npos) << foreign.err;
    const auto emit = run_perftide("unique --depth 2 --emit mates /tmp/x --journal " + journal);
    EXPECT_EQ(emit.status, 2);
    EXPECT_NE(emit.err.find("--journal cannot be combined with --exact, --diagrams, --reach, --emit or --dead"), std::string::npos)
        << emit.err;
    std::remove(journal.c_str());
    std::remove(out.c_str());
}

// SIGINT names the journal only once it exists: unique writes it from the
// last ply on, so a run stopped before that says nothing is kept yet; one
// stopped in the last ply names the file to resume from.
TEST(UniqueCli, InterruptNoteNamesTheJournalOnlyOnceItIsWritten) {
    const std::string base = "/tmp/perftide_unique_note_" + std::to_string(getpid());
    const std::string journal = base + ".journal", out = base + ".out";
    std::remove(journal.c_str());
    const auto interrupt = [&](const std::string& args, int journal_lines) {
        const pid_t pid = spawn_perftide(args + " --threads 1 --backend cpu --journal " + journal, out);
        if (journal_lines) wait_for_lines(journal, journal_lines);
        else std::this_thread::sleep_for(std::chrono::milliseconds(300));  // within plies 1..6 (seconds)
        EXPECT_EQ(kill(pid, SIGINT), 0);
        int status = 0;
        waitpid(pid, &status, 0);
        EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGINT) << "the run ended before the signal";
        return slurp(out);
    };
    EXPECT_EQ(interrupt("unique --depth 7", 0), "perftide: interrupted before the journal " + journal +
                                                    " was written (nothing finished is kept yet): the same command "
                                                    "starts over\n");
    EXPECT_FALSE(std::ifstream(journal).good()) << "the journal was made before the last ply";
    EXPECT_EQ(interrupt("unique --depth 6 --passes 24", 1 + 12),
              "perftide: interrupted; the finished work is in the journal " + journal +
                  ": run the same command again to resume\n");
    std::remove(journal.c_str());
    std::remove(out.c_str());
}

// A journal whose passes split the children by other keys (seed 0: the
// hash of the packed child, before the Zobrist keys chose the passes) is
// refused rather than resumed with passes that hold other children.
TEST(UniqueCli, JournalOfAnotherPassSplitIsRefused) {
    const std::string journal = "/tmp/perftide_unique_seed_" + std::to_string(getpid()) + ".journal";
    perftide::JournalHeader h;
    h.depth = 4, h.split = 3, h.seed = 0, h.units = 4 * 12;  // four passes of twelve counters
    h.fen = std::string("unique ") + chess::START_FEN;
    std::ofstream(journal) << perftide::journal_line(perftide::header_payload(h));
    const auto r = run_perftide("unique --depth 4 --passes 4 --backend cpu --journal " + journal);
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("the journal is for zobrist seed 0000000000000000"), std::string::npos) << r.err;
    std::remove(journal.c_str());
}

TEST(UniqueCli, Refusals) {
    const auto kind = run_perftide("unique --depth 1 --emit checks /tmp/x");
    EXPECT_EQ(kind.status, 2);
    EXPECT_NE(kind.err.find("'checks' is not one of mates, stalemates, dead"), std::string::npos) << kind.err;
    EXPECT_EQ(run_perftide("unique").status, 2);
    EXPECT_EQ(run_perftide("unique --depth 1 --reach 'not a fen'").status, 2);
    const auto huge = run_perftide("unique --depth 2 --backend cpu --memory 16000000");
    EXPECT_EQ(huge.status, 2) << huge.err;
    EXPECT_NE(huge.err.find("--memory 16000000 MiB is more than the"), std::string::npos) << huge.err;
    const auto file = run_perftide("unique --depth 1 --emit mates /nonexistent/dir/x");
    EXPECT_EQ(file.status, 2);
    EXPECT_NE(file.err.find("--emit: cannot open /nonexistent/dir/x for writing: No such file or directory"), std::string::npos) << file.err;
    // With a device the GPU run succeeds (test_gpu_backend compares it with
    // the CPU); without one it is refused, saying why.
    const auto gpu = run_perftide("unique --depth 1 --backend gpu");
    if (perftide::gpu::status().available) {
        EXPECT_EQ(gpu.status, 0) << gpu.err;
    } else {
        EXPECT_EQ(gpu.status, 2) << gpu.err;
        EXPECT_NE(gpu.err.find("--backend gpu: " + perftide::gpu::status().message), std::string::npos) << gpu.err;
    }
}

// The estimate that sizes a ply's tables, against the ratios of distinct
// positions to children enumerated here: the last ply's ratio until four
// are known, then at ply 5 a little above the ratio the ply turns out to
// have (the last ply's ratio, 0.61, is 33% above it).
TEST(DistinctRatio, EstimatesPly5FromPlies1To4) {
    frontier::DistinctRatio ratio;
    EXPECT_EQ(ratio.estimate(), 1.0);
    std::vector<chess::Position> level{chess::parse_fen(chess::START_FEN)};
    std::vector<double> seen;  // the ratios of plies 1..
    double actual = 0, estimate = 0;
    for (int ply = 1; ply <= 5; ++ply) {
        std::vector<chess::Position> next;
        for (const chess::Position& p : level) {
            chess::MoveList list;
            chess::generate_moves(p, chess::host_attacks(), list);
            for (chess::Move m : list) next.push_back(chess::canonical(chess::apply_move(p, m), chess::host_attacks()));
        }
        const uint64_t children = next.size();
        std::sort(next.begin(), next.end(), chess::IdentityLess{});
        next.erase(std::unique(next.begin(), next.end(), chess::SamePosition{}), next.end());
        estimate = ratio.estimate();
        actual = double(next.size()) / double(children);
        if (ply > 1 && ply < 5) {
            EXPECT_EQ(estimate, seen.back()) << ply;  // fewer than four known: the last
        }
        ratio.record(next.size(), children);
        seen.push_back(actual);
        level.swap(next);
    }
    EXPECT_EQ(std::to_string(level.size()), distinct_positions_per_ply().at(5));
    EXPECT_GE(estimate, actual);
    EXPECT_LE(estimate, actual * 1.05);
}
