// perftide under mpirun with three ranks on the CPU backend: the same stdout
// as the single-process run (totals and divide), JSON with the ranks, a
// worker killed midway ending the job with a message naming it and no
// total, a restart resuming from the journal to the exact total, and errors
// printed once. Skips (visibly) without mpirun or without MPI in the build.
#include <gtest/gtest.h>

#include <random>
#include <regex>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "support/mpi_cli_check.hpp"
#include "support/test_data.hpp"

namespace {

std::string json_field(const std::string& json, const std::string& key) {
    const size_t at = json.find("\"" + key + "\": ");
    if (at == std::string::npos) return "";
    const size_t start = at + key.size() + 4;
    const size_t end = json[start] == '[' ? json.find(']', start) + 1 : json.find_first_of(",}", start);
    return json.substr(start, end - start);
}

std::vector<long long> json_array(const std::string& text) {
    std::vector<long long> v;
    const std::regex number("[0-9]+");
    for (auto it = std::sregex_iterator(text.begin(), text.end(), number); it != std::sregex_iterator(); ++it)
        v.push_back(std::stoll(it->str()));
    return v;
}

struct Journal {
    std::string path = "/tmp/perftide_mpi_cli_" + std::to_string(getpid()) + ".journal";
    Journal() { std::remove(path.c_str()); }
    ~Journal() { std::remove(path.c_str()); }
};

const std::string KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
const std::string POSITION3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
const std::string CPU1 = " --backend cpu --threads 1 --quiet ";

}  // namespace

TEST_F(MpiCli, SuitePositionsPrintWhatTheSingleProcessRunPrints) {
    struct Case {
        std::string fen;
        int depth;
        std::string split;
    };
    for (const Case& c : {Case{chess::START_FEN, 5, "--split 2"}, Case{KIWIPETE, 4, "--split 3"},
                          Case{POSITION3, 6, "--split 3 --batch-units 16"}, Case{KIWIPETE, 1, ""}}) {
        const std::string args = "perft --fen '" + c.fen + "' --depth " + std::to_string(c.depth) + " --divide" + CPU1;
        const ProcessResult single = run_perftide(args);
        ASSERT_EQ(single.status, 0) << single.err;
        ASSERT_TRUE(contains(single.out, "Nodes searched: " + published_perft(c.fen, c.depth) + "\n")) << single.out;
        const ProcessResult many = mpirun(args + c.split);
        EXPECT_EQ(many.status, 0) << many.err;
        EXPECT_EQ(many.out, single.out) << c.fen << " depth " << c.depth;
    }
    // Chess960 (fischer.epd's first position): castling written king takes rook.
    const std::string args =
        "perft --fen 'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9' --depth 4 --divide" + CPU1;
    const ProcessResult single = run_perftide(args);
    ASSERT_TRUE(contains(single.out, "Nodes searched: 326672\n")) << single.out;
    const ProcessResult many = mpirun(args + "--split 2");
    EXPECT_EQ(many.status, 0) << many.err;
    EXPECT_EQ(many.out, single.out);
}

TEST_F(MpiCli, JsonAddsTheRanksAndTheUnitsEachCounted) {
    const ProcessResult r = mpirun("perft --depth 5 --split 3 --batch-units 8 --json" + CPU1);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(count_lines(r.out), 1) << "one JSON object, printed once: " << r.out;
    EXPECT_EQ(json_field(r.out, "nodes"), published_perft(chess::START_FEN, 5));
    EXPECT_EQ(json_field(r.out, "ranks"), std::to_string(RANKS));
    // Each rank names what it counted on (here the CPU).
    const size_t at = r.out.find("\"rank_devices\": [");
    ASSERT_NE(at, std::string::npos) << r.out;
    EXPECT_EQ(r.out.substr(at, r.out.find(']', at) - at + 1), "\"rank_devices\": [\"cpu\", \"cpu\", \"cpu\"]") << r.out;
    const std::vector<long long> per_rank = json_array(json_field(r.out, "units_per_rank"));
    ASSERT_EQ(per_rank.size(), size_t(RANKS)) << r.out;
    long long sum = 0;
    for (long long n : per_rank) {
        EXPECT_GE(n, 1) << "every rank gets a first batch: " << r.out;
        sum += n;
    }
    EXPECT_EQ(sum, std::stoll(json_field(r.out, "units")) - std::stoll(json_field(r.out, "units_resumed")));
}

// Statistics rows summed over the ranks: the text output (printed once) is
// the single process's, and a journaled run whose worker is killed resumes
// to the same rows.
TEST_F(MpiCli, StatisticsRowsSumOverTheRanks) {
    const std::string args = "perft --stats --depth 5 --split 2 --batch-units 16" + CPU1;
    const ProcessResult single = run_perftide(args);
    ASSERT_EQ(single.status, 0) << single.err;
    ASSERT_TRUE(contains(single.out, "Nodes searched: 4865609\n")) << single.out;
    ASSERT_TRUE(contains(single.out, "checkmates")) << single.out;
    const ProcessResult many = mpirun(args);
    EXPECT_EQ(many.status, 0) << many.err;
    EXPECT_EQ(many.out, single.out);

    Journal j;
    const std::string journaled = args + " --journal " + j.path;
    const ProcessResult killed = mpirun_with_a_death(journaled, "PERFTIDE_TEST_FAULT=1:4:kill");
    EXPECT_NE(killed.status, 0);
    EXPECT_EQ(killed.out, "");
    ASSERT_GE(count_lines(slurp(j.path)) - 1, 4);
    const ProcessResult resumed = mpirun(journaled);
    EXPECT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_EQ(resumed.out, single.out);
}

// Every rank on the GPU backend, the host pipeline standing in for each
// rank's device (PERFTIDE_HOST_GPU): perft and unique give the CPU's counts,
// and the JSON names each rank's device.
TEST_F(MpiCli, GpuRanksOnTheHostStandInGiveTheCpuCounts) {
    const ProcessResult r = mpirun("perft --depth 5 --split 2 --json --backend gpu", "PERFTIDE_HOST_GPU=1");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(json_field(r.out, "nodes"), published_perft(chess::START_FEN, 5));
    EXPECT_EQ(json_field(r.out, "backend"), "\"gpu\"");
    const size_t at = r.out.find("\"rank_devices\": [\"gpu the host pipeline standing in for a GPU");
    EXPECT_NE(at, std::string::npos) << r.out;
    const ProcessResult u = mpirun("unique --depth 4 --json --backend gpu", "PERFTIDE_HOST_GPU=1");
    ASSERT_EQ(u.status, 0) << u.err;
    EXPECT_TRUE(contains(u.out, "\"ply\": 4, \"distinct\": 72078, \"paths\": 197281,")) << u.out;
}

TEST_F(MpiCli, KilledWorkerStopsTheJobAndTheRestartResumes) {
    Journal j;
    const std::string args = "perft --depth 6 --split 3 --batch-units 4 --json --journal " + j.path + CPU1;
    // Rank 1 raises SIGKILL once 16 units are journaled.
    const ProcessResult killed = mpirun_with_a_death(args, "PERFTIDE_TEST_FAULT=1:16:kill");
    EXPECT_NE(killed.status, 0);
    EXPECT_EQ(killed.out, "") << "no total after a rank died";
    // mpirun names the dead rank. Rank 0's own line ("stopped by signal 15
    // ... no total printed; ... resume") is not asserted: mpirun may end
    // before it has forwarded it (the line itself is tested in test_dist).
    EXPECT_TRUE(std::regex_search(killed.err, std::regex("process rank 1 .* signal 9"))) << killed.err;

    const int journaled = count_lines(slurp(j.path)) - 1;
    ASSERT_GE(journaled, 16);
    const ProcessResult resumed = mpirun(args);
    ASSERT_EQ(resumed.status, 0) << resumed.err;
    EXPECT_EQ(json_field(resumed.out, "nodes"), published_perft(chess::START_FEN, 6));
    EXPECT_EQ(json_field(resumed.out, "units_resumed"), std::to_string(journaled));
    long long sum = 0;
    for (long long n : json_array(json_field(resumed.out, "units_per_rank"))) sum += n;
    EXPECT_EQ(sum + journaled, std::stoll(json_field(resumed.out, "units")));
}

TEST_F(MpiCli, CrashingWorkerNamesItself) {
    const ProcessResult r = mpirun_with_a_death("perft --depth 6 --split 3 --batch-units 4" + CPU1, "PERFTIDE_TEST_FAULT=2:8:abort");
    EXPECT_NE(r.status, 0);
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(std::regex_search(r.err, std::regex("perftide: rank 2 \\([^)]*\\) pid [0-9]+ died on signal 6"))) << r.err;
}

TEST_F(MpiCli, FailingWorkerIsReportedOnceByRankZero) {
    const ProcessResult r = mpirun("perft --depth 6 --split 3 --batch-units 4" + CPU1, "PERFTIDE_TEST_FAULT=1:8:throw");
    EXPECT_EQ(r.status, 3);
    EXPECT_EQ(r.out, "");
    EXPECT_TRUE(contains(r.err, "perftide: rank 1 (")) << r.err;
    EXPECT_TRUE(contains(r.err, "failed: fault injected for a test")) << r.err;
    EXPECT_TRUE(contains(r.err, "the job stopped without a total")) << r.err;
}

TEST_F(MpiCli, BadInputIsReportedOnceWithStatusTwo) {
    for (const auto& [args, message] :
         std::vector<std::pair<std::string, std::string>>{{"perft --depth 4 --moves e2e5" + CPU1, "move 'e2e5' is not legal"},
                                                          {"suite " + std::string(PERFTIDE_TEST_DATA) + "/perft/cpw_positions.epd",
                                                           "only `perftide perft` and `perftide unique` run on several ranks"}}) {
        const ProcessResult r = mpirun(args);
        EXPECT_EQ(r.status, 2) << args;
        EXPECT_EQ(r.out, "") << args;
        size_t n = 0;
        for (size_t at = 0; (at = r.err.find(message, at)) != std::string::npos; ++at) ++n;
        EXPECT_EQ(n, 1u) << args << ": " << r.err;
    }
}

// Soak: a journaled start position perft 8 on three ranks, the whole job
// (mpirun and every rank) killed with SIGKILL at a random time five times in
// a row, each time started again; the last run finishes with the exact total
// and every unit in the journal once.
TEST_F(MpiCli, RepeatedKillsAndResumesGiveTheExactTotal) {
    Journal j;
    const std::string args = "perft --depth 8 --split 3 --json --journal " + j.path + " --backend cpu --quiet";
    std::mt19937 rng(std::random_device{}());
    std::uniform_int_distribution<int> ms(1500, 6000);
    const std::string job = "setsid " + std::string(PERFTIDE_MPIEXEC) + " " + PERFTIDE_MPIEXEC_FLAGS + " -np " +
                            std::to_string(RANKS) + " " + PERFTIDE_BINARY + " " + args;
    std::string times;
    for (int round = 0; round < 5; ++round) {
        const int wait = ms(rng);
        times += std::to_string(wait) + " ms ";
        run_shell("timeout -s KILL " + std::to_string(wait / 1000.0) + " " + job);
        // Ranks that outlive their mpirun die too, before the next start.
        run_shell("pkill -KILL -f " + shell_quote(j.path) + "; sleep 0.2; pkill -KILL -f " + shell_quote(j.path));
    }
    const ProcessResult last = run_shell("timeout -s KILL 150 " + job);
    ASSERT_EQ(last.status, 0) << "after kills at " << times << "\n" << last.err;
    EXPECT_EQ(json_field(last.out, "nodes"), "84998978956") << last.out;
    const int units = std::stoi(json_field(last.out, "units"));
    EXPECT_EQ(count_lines(slurp(j.path)) - 1, units) << "each unit journaled once (kills at " << times << ")";
    EXPECT_GT(std::stoi(json_field(last.out, "units_resumed")), 0) << "kills at " << times;
}
