// The parts of distributed runs that need no MPI: message packing (counts
// past 2^64, positions, malformed messages refused), the schedule (largest
// first, every unit handed out once, shares shrinking towards the end), the
// launcher's environment, the GPU per local rank, the test fault syntax,
// rank 0's counting thread, and the frontier exchange on a single rank.
#include <gtest/gtest.h>

#include <signal.h>

#include <cstdlib>
#include <set>
#include <thread>

#include "chess/count.hpp"
#include "chess/io/fen.hpp"
#include "chess/perft.hpp"
#include "count/cpu_perft.hpp"
#include "deep/deep_perft.hpp"
#include "deep/host_table.hpp"
#include "deep/unit_counter.hpp"
#include "deep/work_units.hpp"
#include "frontier/frontier.hpp"
#include "inputs/suite.hpp"
#include "journal/journal.hpp"
#include "mpi/dispatcher.hpp"
#include "mpi/dist_unique.hpp"
#include "mpi/faults.hpp"
#include "mpi/frontier_exchange.hpp"
#include "mpi/local_worker.hpp"
#include "mpi/session.hpp"
#include "mpi/wire.hpp"
#include "output/progress.hpp"

using namespace chess;
using namespace perftide;
using namespace perftide::dist;

namespace {

const std::string KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

// Sets an environment variable for the life of the object.
struct EnvVar {
    std::string name;
    EnvVar(const std::string& n, const char* value) : name(n) {
        if (value)
            setenv(n.c_str(), value, 1);
        else
            unsetenv(n.c_str());
    }
    ~EnvVar() { unsetenv(name.c_str()); }
};

}  // namespace

TEST(DistWire, BatchAndResultSurviveTheRoundTrip) {
    const WorkUnits w = build_work_units(parse_fen(KIWIPETE), 2);
    Batch b;
    b.remaining = 7;
    for (uint32_t u : {5u, 0u, 1999u}) b.units.push_back(u), b.positions.push_back(w.positions[u % w.positions.size()]);
    const Batch back = unpack_batch(pack(b));
    EXPECT_EQ(back.remaining, 7);
    EXPECT_EQ(back.units, b.units);
    ASSERT_EQ(back.positions.size(), 3u);
    for (size_t i = 0; i < 3; ++i) EXPECT_EQ(to_fen(back.positions[i]), to_fen(b.positions[i]));

    BatchResult r;
    r.units = {3, 4};
    const u128 big = u128(0x0123456789abcdefULL) << 64 | 0xfedcba9876543210ULL;  // both halves matter
    r.counts = {big, 1};
    r.seconds = 0.25;
    const BatchResult rb = unpack_result(pack(r));
    EXPECT_EQ(rb.units, r.units);
    EXPECT_TRUE(rb.counts[0] == big);
    EXPECT_TRUE(rb.counts[1] == 1);
    EXPECT_EQ(rb.seconds, 0.25);
}

TEST(DistWire, HelloAndFailureSurviveTheRoundTrip) {
    const Hello h = unpack_hello(pack(Hello{BackendKind::Gpu, 12, "gpu NVIDIA H200 (CUDA_VISIBLE_DEVICES=3)"}));
    EXPECT_EQ(h.backend, BackendKind::Gpu);
    EXPECT_EQ(h.threads, 12);
    EXPECT_EQ(h.device, "gpu NVIDIA H200 (CUDA_VISIBLE_DEVICES=3)");
    EXPECT_EQ(unpack_hello(pack(Hello{BackendKind::Cpu, 1, ""})).device, "");
    Words torn = pack(Hello{BackendKind::Cpu, 1, "cpu"});
    torn.pop_back();
    EXPECT_THROW(unpack_hello(torn), WireError);
    for (const std::string text : {"", "x", "exactly8", "no CUDA device on this node: cudaErrorNoDevice"}) {
        const Failure f = unpack_failure(pack(Failure{2, text}));
        EXPECT_EQ(f.status, 2);
        EXPECT_EQ(f.message, text);
    }
}

TEST(DistWire, MalformedMessagesAreRefused) {
    Words batch = pack(Batch{3, {1, 2}, {parse_fen(START_FEN), parse_fen(KIWIPETE)}});
    batch.pop_back();
    EXPECT_THROW(unpack_batch(batch), WireError);
    EXPECT_THROW(unpack_batch({}), WireError);
    Words result = pack(BatchResult{{1}, {5}, 0.1});
    result.push_back(0);
    EXPECT_THROW(unpack_result(result), WireError);
    EXPECT_THROW(unpack_hello({7, 1}), WireError);
    EXPECT_THROW(unpack_failure({2, 100, 0}), WireError);
}

TEST(DistSchedule, LargestFirstOrdersByTwoPlyEstimate) {
    const WorkUnits w = build_work_units(parse_fen(KIWIPETE), 2);
    std::vector<uint32_t> todo;
    for (uint32_t u = 0; u < w.positions.size(); u += 3) todo.push_back(u);
    const std::vector<uint32_t> order = largest_first(w, todo, 4);
    ASSERT_EQ(order.size(), todo.size());
    EXPECT_EQ(std::set<uint32_t>(order.begin(), order.end()), std::set<uint32_t>(todo.begin(), todo.end()));
    const Attacks at = host_attacks();
    for (size_t i = 1; i < order.size(); ++i)
        EXPECT_GE(perft(w.positions[order[i - 1]], at, 2), perft(w.positions[order[i]], at, 2)) << i;
    // One ply left: the move count is the estimate.
    const std::vector<uint32_t> one = largest_first(w, todo, 1);
    for (size_t i = 1; i < one.size(); ++i)
        EXPECT_GE(count_moves(w.positions[one[i - 1]], at), count_moves(w.positions[one[i]], at)) << i;
}

TEST(DistSchedule, EveryUnitGoesOutOnceAndSharesShrink) {
    std::vector<uint32_t> order(1000);
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = 999 - i;
    Dispatcher d(order, 3, 64);
    std::vector<uint32_t> handed;
    size_t last = 0;
    for (int turn = 0; d.left() > 0; ++turn) {
        const int rank = turn % 3;
        const size_t left = d.left();
        const std::vector<uint32_t> b = d.next(rank);
        ASSERT_FALSE(b.empty());
        EXPECT_LE(b.size(), (left + 2) / 3) << "more than a third of what is left";
        EXPECT_LE(b.size(), 64u);
        handed.insert(handed.end(), b.begin(), b.end());
        d.finished(rank, b.size(), 0.01);
        last = b.size();
    }
    EXPECT_EQ(handed, order);  // in order, each once
    EXPECT_EQ(last, 1u);       // the tail is handed out in small pieces
    EXPECT_TRUE(d.next(0).empty());
    const auto& per = d.units_per_rank();
    EXPECT_EQ(per[0] + per[1] + per[2], 1000u);
}

TEST(DistSchedule, AdaptiveBatchesGrowForAFastRank) {
    std::vector<uint32_t> order(100000);
    for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
    Dispatcher d(order, 2, 0);
    d.set_rank(0, BackendKind::Cpu, 1);
    d.set_rank(1, BackendKind::Gpu, 1);
    const size_t first_cpu = d.next(0).size(), first_gpu = d.next(1).size();
    EXPECT_LT(first_cpu, first_gpu);  // a GPU rank starts with larger batches
    d.finished(0, first_cpu, 0.001);  // far below the target time
    EXPECT_EQ(d.next(0).size(), 2 * first_cpu);
}

// A CPU batch's units are shared among the threads: however slow a unit,
// a batch keeps four a thread (a start d10 statistics run, units of 0.3 s,
// once fell to batches of one and ran on one of its two threads).
TEST(DistSchedule, SlowUnitsStillFillEveryThread) {
    for (int threads : {1, 2, 7}) {
        BatchSizer cpu(0, profile_of(BackendKind::Cpu), threads);
        EXPECT_EQ(cpu.size(), size_t(4 * threads));
        cpu.observe(cpu.size(), 1000.0);  // far above the target time
        EXPECT_EQ(cpu.size(), size_t(4 * threads)) << threads << " threads";
        cpu.observe(cpu.size(), 1e-6);  // far below: it grows again
        EXPECT_EQ(cpu.size(), size_t(8 * threads));
    }
    BatchSizer gpu(0, profile_of(BackendKind::Gpu), 2);
    gpu.observe(gpu.size(), 1000.0);
    EXPECT_EQ(gpu.size(), 1u);  // the GPU shares a batch inside one call
    BatchSizer fixed(3, profile_of(BackendKind::Cpu), 2);
    fixed.observe(3, 1000.0);
    EXPECT_EQ(fixed.size(), 3u);  // --batch-units is taken as given
}

TEST(DistLaunch, EnvironmentNamesTheLauncherAndRank) {
    {
        EnvVar a("OMPI_COMM_WORLD_SIZE", "4"), b("OMPI_COMM_WORLD_RANK", "3");
        const LaunchInfo l = launch_from_env();
        EXPECT_TRUE(l.launched);
        EXPECT_EQ(l.size, 4);
        EXPECT_EQ(l.rank, 3);
    }
    {
        EnvVar a("PMI_SIZE", "2"), b("PMI_RANK", "1");
        const LaunchInfo l = launch_from_env();
        EXPECT_TRUE(l.launched);
        EXPECT_EQ(l.size, 2);
        EXPECT_EQ(l.rank, 1);
    }
    {
        EnvVar a("PMIX_RANK", "5");
        const LaunchInfo l = launch_from_env();
        EXPECT_TRUE(l.launched);
        EXPECT_EQ(l.rank, 5);
    }
    EXPECT_FALSE(launch_from_env().launched);
    EXPECT_FALSE(world().distributed());  // tests run without a launcher
}

// The local rank comes from the launcher's environment, so that a rank's GPU
// is chosen before MPI starts (a CUDA-aware MPI fixes the devices in MPI_Init).
TEST(DistLaunch, LocalRankFromTheLauncherChoosesTheGpuBeforeMpiStarts) {
    {
        EnvVar a("OMPI_COMM_WORLD_SIZE", "4"), b("OMPI_COMM_WORLD_RANK", "3"), c("OMPI_COMM_WORLD_LOCAL_RANK", "1");
        EXPECT_EQ(launch_from_env().local_rank, 1);
    }
    {
        EnvVar a("PMI_SIZE", "8"), b("PMI_RANK", "6"), c("MPI_LOCALRANKID", "2");
        EXPECT_EQ(launch_from_env().local_rank, 2);
    }
    {
        EnvVar a("PMIX_RANK", "5"), b("SLURM_LOCALID", "3");
        EXPECT_EQ(launch_from_env().local_rank, 3);
    }
    {
        EnvVar a("OMPI_COMM_WORLD_SIZE", "2"), b("OMPI_COMM_WORLD_RANK", "1");
        EXPECT_EQ(launch_from_env().local_rank, -1);  // not said: chosen from the node's ranks after MPI starts
    }
    {
        EnvVar v("CUDA_VISIBLE_DEVICES", "GPU-aaaa,GPU-bbbb,GPU-cccc");
        choose_gpu(4, 0);
        EXPECT_STREQ(std::getenv("CUDA_VISIBLE_DEVICES"), "GPU-bbbb");
    }
    {
        EnvVar v("CUDA_VISIBLE_DEVICES", nullptr);
        choose_gpu(5, 4);
        EXPECT_STREQ(std::getenv("CUDA_VISIBLE_DEVICES"), "1");
        unsetenv("CUDA_VISIBLE_DEVICES");
    }
}

TEST(DistLaunch, EachLocalRankGetsOneGpu) {
    EXPECT_EQ(gpu_for_local_rank(0, nullptr, 4), "0");
    EXPECT_EQ(gpu_for_local_rank(5, nullptr, 4), "1");
    EXPECT_EQ(gpu_for_local_rank(2, nullptr, 0), std::nullopt);
    EXPECT_EQ(gpu_for_local_rank(1, "2,3", 8), "3");  // the launcher's list wins
    EXPECT_EQ(gpu_for_local_rank(2, "GPU-aaaa,GPU-bbbb", 0), "GPU-aaaa");
    EXPECT_EQ(gpu_for_local_rank(0, "", 8), std::nullopt);  // the launcher gave this rank none
}

TEST(DistFaults, TestFaultSyntax) {
    const TestFault f = parse_test_fault("2:40:kill");
    EXPECT_EQ(f.rank, 2);
    EXPECT_EQ(f.after_units, 40u);
    EXPECT_EQ(f.mode, "kill");
    for (const char* bad : {"", "1", "1:2", "0:5:kill", "1:x:abort", "1:5:explode", "a:5:throw"})
        EXPECT_THROW(parse_test_fault(bad), std::invalid_argument) << bad;
    EXPECT_THROW(inject_fault("throw"), std::runtime_error);
}

TEST(DistFaults, RankZeroSaysWhyItStoppedWithoutATotal) {
    EXPECT_EXIT(
        {
            const StopReporter reporter("rank 0 (node1)", "rerun to resume");
            raise(SIGTERM);
        },
        ::testing::KilledBySignal(SIGTERM),
        "perftide: rank 0 \\(node1\\): stopped by signal 15 \\(Terminated\\) before the count was complete, no total "
        "printed; rerun to resume");
    // Once the reporter is gone the signal is the default one again, silent.
    EXPECT_EXIT(
        {
            { const StopReporter reporter("rank 0 (node1)", "rerun to resume"); }
            raise(SIGINT);
        },
        ::testing::KilledBySignal(SIGINT), "^$");
}

TEST(DistFaults, ACrashingRankNamesItself) {
    EXPECT_EXIT(
        {
            install_crash_reporter("rank 3 (node2)");
            std::abort();
        },
        ::testing::KilledBySignal(SIGABRT), "perftide: rank 3 \\(node2\\) pid [0-9]+ died on signal 6 \\(Aborted\\)");
}

TEST(DistProgress, LogLinesComeWholeAndSpaced) {
    const auto start = std::chrono::steady_clock::now();
    testing::internal::CaptureStderr();
    {
        Progress p(10, {.resumed = 2, .line_seconds = 0.2});
        for (size_t done = 3; done <= 10; ++done) {
            p.update(done, 1000 * done);
            if (done == 5) std::this_thread::sleep_for(std::chrono::milliseconds(250));
        }
    }
    const std::string err = testing::internal::GetCapturedStderr();
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    int lines = 0;
    for (size_t at = 0; (at = err.find("perftide: [", at)) != std::string::npos; ++at) ++lines;
    EXPECT_GE(lines, 1) << err;
    EXPECT_LE(lines, int(elapsed / 0.2)) << err;  // at most one per interval
    EXPECT_EQ(err.find('\r'), std::string::npos) << "no redrawn bar in a log";
    EXPECT_TRUE(err.find("/10 units") != std::string::npos) << err;
}

TEST(DistLocalWorker, CountsWhatTheEngineCounts) {
    const WorkUnits w = build_work_units(parse_fen(KIWIPETE), 1);
    const auto table_counter = open_backend(BackendChoice::Cpu, 1)->open_counter({0, DEFAULT_ZOBRIST_SEED, false});
    HostTable table(0);
    UnitCounter counter(*table_counter, table);
    LocalWorker local(counter);
    Batch b{3, {0, 1, 2}, {w.positions[0], w.positions[1], w.positions[2]}};
    local.give(b);
    EXPECT_TRUE(local.busy());
    EXPECT_THROW(local.give(b), std::logic_error);
    std::optional<LocalOutcome> o;
    while (!(o = local.take(std::chrono::milliseconds(50)))) {
    }
    EXPECT_FALSE(local.busy());
    ASSERT_FALSE(o->failure);
    EXPECT_EQ(o->result.units, b.units);
    const std::vector<u128> direct = cpu_perft_batch(b.positions, 3, 1);
    EXPECT_EQ(o->result.counts, direct);
}

// A rank's failure carries the status main would give it: the one mapping
// (base/errors.hpp) from every kind of bad input to 2.
TEST(DistLocalWorker, ExitStatusOfAFailure) {
    EXPECT_EQ(exit_status_of(BackendUnavailable("x")), 2);
    EXPECT_EQ(exit_status_of(JournalError("x")), 2);
    EXPECT_EQ(exit_status_of(chess::FenError("x")), 2);
    EXPECT_EQ(exit_status_of(frontier::BudgetTooSmall(1, 2, "x")), 2);
    EXPECT_EQ(exit_status_of(frontier::WorkDirUnusable("x")), 2);
    EXPECT_EQ(exit_status_of(std::invalid_argument("x")), 2);
    EXPECT_EQ(exit_status_of(OutputError("x")), 4);
    EXPECT_EQ(exit_status_of(CountOverflow("x")), 3);
    EXPECT_EQ(exit_status_of(std::runtime_error("x")), 3);
}

TEST(DistFrontier, ASingleRankOnlyMerges) {
    // Every path of the start position to ply 3, unmerged, twice over.
    const Attacks at = host_attacks();
    frontier::Frontier part;
    const WorkUnits w = build_work_units(parse_fen(START_FEN), 3);
    for (int copy = 0; copy < 2; ++copy)
        for (size_t u = 0; u < w.positions.size(); ++u)
            for (uint64_t k = 0; k < w.multiplicity[u]; ++k) part.positions.push_back(w.positions[u]), part.counts.push_back(1);
    exchange_frontier(world(), part);
    ASSERT_EQ(part.positions.size(), w.positions.size());
    for (size_t u = 0; u < w.positions.size(); ++u) {
        EXPECT_TRUE(part.positions[u] == w.positions[u]) << u;  // the same order as the work units
        EXPECT_EQ(part.counts[u], 2 * w.multiplicity[u]) << u;
        EXPECT_TRUE(canonical(part.positions[u], at) == part.positions[u]);
    }
    const FrontierTotals t = frontier_totals(world(), part);
    u128 paths = 0;
    for (uint64_t m : w.multiplicity) paths += m;
    EXPECT_TRUE(t.distinct == w.positions.size());
    EXPECT_TRUE(t.paths == 2 * paths);
    for (int ranks : {1, 3, 8})
        for (const Position& p : part.positions) {
            const int owner = frontier_owner(p, ranks);
            EXPECT_TRUE(owner >= 0 && owner < ranks);
        }
}

// The distributed per-ply step on one rank (where CI may have no mpirun):
// the frontier leaves the engine, is exchanged (merged only) and comes back
// every ply, and the counts and final ply are those of the plain step.
TEST(DistUnique, TheExchangeStepOnOneRankChangesNothing) {
    const Position root = parse_fen(KIWIPETE);
    frontier::Options o;
    o.threads = 1;
    frontier::Frontier plain, exchanged;
    const auto a = frontier::run_plies(*frontier::make_cpu_expander(o), frontier::root_frontier(root), 3, nullptr, &plain);
    const auto x = make_rank_exchange(world());
    const auto b = frontier::run_plies(*frontier::make_cpu_expander(o), frontier::root_frontier(root), 3, x.get(), &exchanged);
    ASSERT_EQ(a.size(), 4u);
    ASSERT_EQ(b.size(), a.size());
    for (size_t ply = 0; ply < a.size(); ++ply) {
        EXPECT_EQ(b[ply].distinct, a[ply].distinct) << ply;
        EXPECT_TRUE(b[ply].paths == a[ply].paths) << ply;
        EXPECT_EQ(b[ply].checkmates, a[ply].checkmates) << ply;
        EXPECT_EQ(b[ply].in_check, a[ply].in_check) << ply;
    }
    EXPECT_EQ(a[3].distinct, plain.positions.size());
    merge_positions(plain.positions, plain.counts);  // into the exchange's order
    ASSERT_EQ(exchanged.positions.size(), plain.positions.size());
    for (size_t i = 0; i < plain.positions.size(); ++i) {
        EXPECT_TRUE(exchanged.positions[i] == plain.positions[i]) << i;
        EXPECT_EQ(exchanged.counts[i], plain.counts[i]) << i;
    }
}

TEST(DistUnique, OneRankAgreesByRethrowingItsOwnFailure) {
    const Session& s = world();
    EXPECT_NO_THROW(agree_on_failure(s, nullptr));
    EXPECT_THROW(agree_on_failure(s, std::make_exception_ptr(std::invalid_argument("x"))), std::invalid_argument);
    EXPECT_EQ(on_every_rank(s, [] { return 7; }), 7);
    EXPECT_THROW(on_every_rank(s, [] { throw frontier::BudgetTooSmall(1, 2, "x"); }), frontier::BudgetTooSmall);
    const std::vector<u128> v{u128(1) << 100, 5};
    EXPECT_TRUE(sum_over_ranks(s, v) == v);
    EXPECT_EQ(backend_over_ranks(s, true), "gpu");
    EXPECT_EQ(backend_over_ranks(s, false), "cpu");
}
