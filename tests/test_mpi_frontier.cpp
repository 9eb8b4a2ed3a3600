// The hash-partitioned frontier exchange, run under mpirun on several
// ranks: ply by ply from the start position, each rank expands the
// positions it owns and exchanges the children; the distinct positions over
// all ranks must be OEIS A083276 (tests/data), the paths perft(ply) (the
// published counts), and the set of positions the one a single process
// builds (the work units, and `perftide unique`'s engine). A frontier held
// whole by every rank must merge across ranks. `perftide unique`'s per-ply
// step over the ranks must give the single-process counts.
#include <gtest/gtest.h>

#include "chess/identity.hpp"
#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "chess/movegen.hpp"
#include "deep/host_table.hpp"
#include "deep/work_units.hpp"
#include "mpi/dist_unique.hpp"
#include "mpi/frontier_exchange.hpp"
#include "mpi/mpi_comm.hpp"
#include "support/test_data.hpp"

using namespace chess;
using namespace perftide;
using namespace perftide::dist;

namespace {

const std::string KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

frontier::Frontier expand(const frontier::Frontier& f) {
    const Attacks at = host_attacks();
    frontier::Frontier next;
    for (size_t i = 0; i < f.positions.size(); ++i) {
        MoveList list;
        generate_moves(f.positions[i], at, list);
        for (Move m : list) {
            next.positions.push_back(canonical(apply_move(f.positions[i], m), at));
            next.counts.push_back(f.counts[i]);
        }
    }
    return next;
}

// An order-free fingerprint of a set of (position, paths): sums of hashes.
std::pair<uint64_t, uint64_t> fingerprint(const std::vector<Position>& positions, const std::vector<uint64_t>& paths) {
    uint64_t a = 0, b = 0;
    for (size_t i = 0; i < positions.size(); ++i) {
        const uint64_t h = chess::identity_hash(positions[i], 1);
        a += h;
        b += h * paths[i];
    }
    return {a, b};
}

uint64_t sum_over_ranks(const Session& s, uint64_t v) {
    uint64_t total = 0;
    check_mpi(MPI_Allreduce(&v, &total, 1, MPI_UINT64_T, MPI_SUM, communicator(s)), "MPI_Allreduce");
    return total;
}

void expect_owned_sorted_distinct(const Session& s, const frontier::Frontier& part) {
    for (size_t i = 0; i < part.positions.size(); ++i) {
        EXPECT_EQ(frontier_owner(part.positions[i], s.size()), s.rank());
        if (i) {
            EXPECT_FALSE(part.positions[i] == part.positions[i - 1]) << "a duplicate survived the merge";
        }
    }
}

}  // namespace

TEST(MpiFrontier, DistinctPositionsPerPlyMatchA083276AndOneProcess) {
    const Session& s = world();
    ASSERT_GT(s.size(), 1) << "run this test under mpirun with several ranks";
    const std::map<int, std::string> distinct = distinct_positions_per_ply();
    // `perftide unique`'s own single-process engine, on rank 0: another reference.
    std::vector<frontier::PlyCounts> unique;
    if (s.rank() == 0) unique = frontier::unique_cpu(parse_fen(START_FEN), 5, {}, nullptr);
    frontier::Frontier part;
    if (s.rank() == 0) part = {{parse_fen(START_FEN)}, {1}};  // the others start empty
    for (int ply = 1; ply <= 5; ++ply) {
        part = expand(part);
        exchange_frontier(s, part);
        expect_owned_sorted_distinct(s, part);
        const FrontierTotals t = frontier_totals(s, part);
        EXPECT_EQ(to_string(t.distinct), distinct.at(ply)) << "ply " << ply;
        EXPECT_EQ(to_string(t.paths), published_perft(START_FEN, ply)) << "ply " << ply;

        const auto [mine_a, mine_b] = fingerprint(part.positions, part.counts);
        const uint64_t all_a = sum_over_ranks(s, mine_a), all_b = sum_over_ranks(s, mine_b);
        if (s.rank() != 0) continue;  // one single-process reference is enough
        EXPECT_TRUE(t.distinct == unique.at(size_t(ply)).distinct) << "ply " << ply;
        EXPECT_TRUE(t.paths == unique.at(size_t(ply)).paths) << "ply " << ply;
        const WorkUnits single = build_work_units(parse_fen(START_FEN), ply);
        const auto [one_a, one_b] = fingerprint(single.positions, single.multiplicity);
        EXPECT_EQ(all_a, one_a) << "ply " << ply << ": not the single-process positions";
        EXPECT_EQ(all_b, one_b) << "ply " << ply << ": not the single-process multiplicities";
    }
}

TEST(MpiFrontier, TheSameFrontierOnEveryRankMergesAcrossRanks) {
    const Session& s = world();
    const WorkUnits w = build_work_units(parse_fen(START_FEN), 3);
    frontier::Frontier part{w.positions, w.multiplicity};
    exchange_frontier(s, part);
    expect_owned_sorted_distinct(s, part);
    const FrontierTotals t = frontier_totals(s, part);
    u128 paths = 0;
    for (uint64_t m : w.multiplicity) paths += m;
    EXPECT_TRUE(t.distinct == w.positions.size()) << to_string(t.distinct);
    EXPECT_TRUE(t.paths == paths * unsigned(s.size())) << to_string(t.paths);
}

// `perftide unique`'s per-ply step over the ranks (the exchange inside it):
// per-ply counts equal to one process's, and each rank's final part the
// positions it owns, which together are the one process's final ply.
TEST(MpiFrontier, PerPlyStepOverRanksEqualsOneProcess) {
    const Session& s = world();
    const Position root = parse_fen(KIWIPETE);
    frontier::Options o;
    o.threads = 1;
    frontier::Frontier one, part;
    const std::vector<frontier::PlyCounts> single = frontier::unique_cpu(root, 3, o, &one);
    const std::vector<frontier::PlyCounts> over_ranks = unique_over_ranks(s, *frontier::make_cpu_expander(o), root, 3, &part);
    ASSERT_EQ(over_ranks.size(), single.size());
    for (size_t ply = 0; ply < single.size(); ++ply) {
        const frontier::PlyCounts &a = single[ply], &b = over_ranks[ply];
        EXPECT_EQ(b.ply, a.ply);
        EXPECT_EQ(b.distinct, a.distinct) << "ply " << ply;
        EXPECT_TRUE(b.paths == a.paths && b.check_paths == a.check_paths && b.checkmate_paths == a.checkmate_paths &&
                    b.stalemate_paths == a.stalemate_paths && b.insufficient_paths == a.insufficient_paths)
            << "ply " << ply;
        EXPECT_EQ(b.in_check, a.in_check) << "ply " << ply;
        EXPECT_EQ(b.checkmates, a.checkmates) << "ply " << ply;
        EXPECT_EQ(b.stalemates, a.stalemates) << "ply " << ply;
        EXPECT_EQ(b.insufficient, a.insufficient) << "ply " << ply;
    }
    expect_owned_sorted_distinct(s, part);
    const auto [mine_a, mine_b] = fingerprint(part.positions, part.counts);
    const auto [one_a, one_b] = fingerprint(one.positions, one.counts);
    EXPECT_EQ(sum_over_ranks(s, mine_a), one_a);
    EXPECT_EQ(sum_over_ranks(s, mine_b), one_b);
}

// Every rank runs the tests; rank 0 prints them, other ranks print only
// their failures, and all ranks exit with the worst status.
class FailurePrinter : public ::testing::EmptyTestEventListener {
   public:
    explicit FailurePrinter(int rank) : rank_(rank) {}
    void OnTestPartResult(const ::testing::TestPartResult& r) override {
        if (r.failed())
            std::fprintf(stderr, "rank %d: %s:%d: %s\n", rank_, r.file_name() ? r.file_name() : "?", r.line_number(),
                         r.message());
    }

   private:
    int rank_;
};

int main(int argc, char** argv) {
    Session session(argc, argv);
    ::testing::InitGoogleTest(&argc, argv);
    if (session.rank() != 0) {
        auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
        delete listeners.Release(listeners.default_result_printer());
        listeners.Append(new FailurePrinter(session.rank()));
    }
    int status = RUN_ALL_TESTS();
    if (session.distributed())
        MPI_Allreduce(MPI_IN_PLACE, &status, 1, MPI_INT, MPI_MAX, communicator(session));
    return status;
}
