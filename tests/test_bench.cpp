// `perftide bench` and `bench` in `perftide uci`: the fixed workload, counted and
// checked, as one line a regex parses or one JSON object, and --threads
// refused below one.
#include <gtest/gtest.h>

#include <regex>

#include "support/json_reader.hpp"
#include "support/run_process.hpp"

namespace {

// The workload's published counts (bench.cpp): start position perft 7,
// Kiwipete 5, positions 3 to 6 at 7, 6, 5 and 5.
const uint64_t WORKLOAD_NODES =
    3195901860ull + 193690690ull + 178633661ull + 706045033ull + 89941194ull + 164075551ull;

const std::regex BENCH_LINE(
    R"(^bench: nodes (\d+) seconds (\d+\.\d{3}) nps (\d+) threads (\d+) backend cpu machine (\S.*)$)");

}  // namespace

TEST(Bench, PrintsOneLineWithTheWorkloadsNodes) {
    const auto r = run_perftide("bench --threads 2");
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const auto l = lines_of(r.out);
    ASSERT_EQ(l.size(), 1u) << r.out;
    std::smatch m;
    ASSERT_TRUE(std::regex_match(l[0], m, BENCH_LINE)) << l[0];
    EXPECT_EQ(std::stoull(m[1]), WORKLOAD_NODES);
    EXPECT_GT(std::stod(m[2]), 0.0);
    EXPECT_GT(std::stoull(m[3]), 0u);
    EXPECT_EQ(m[4], "2");
}

TEST(Bench, JsonHasTheLinesFields) {
    const auto r = run_perftide("bench --json --threads 2");
    ASSERT_EQ(r.status, 0) << r.out << r.err;
    const testjson::Value v = testjson::parse(r.out);
    EXPECT_EQ(v["nodes"].text, std::to_string(WORKLOAD_NODES));
    EXPECT_GT(std::stod(v["seconds"].text), 0.0);
    EXPECT_GT(std::stoull(v["nps"].text), 0u);
    EXPECT_EQ(v["threads"].text, "2");
    EXPECT_EQ(v["backend"].text, "cpu");
    EXPECT_FALSE(v["machine"].text.empty());
}

TEST(Bench, ThreadsZeroIsRefused) {
    const auto r = run_perftide("bench --threads 0");
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_TRUE(r.err.find("--threads") != std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

// Stockfish's `bench` command: the same line, on the Threads option's threads.
TEST(Bench, UciBenchPrintsTheSameLine) {
    const auto r = run_shell("printf 'setoption name Threads value 2\\nbench\\nquit\\n' | " +
                             std::string(PERFTIDE_BINARY) + " uci");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto l = lines_of(r.out);
    ASSERT_EQ(l.size(), 1u) << r.out;
    std::smatch m;
    ASSERT_TRUE(std::regex_match(l[0], m, BENCH_LINE)) << l[0];
    EXPECT_EQ(std::stoull(m[1]), WORKLOAD_NODES);
    EXPECT_EQ(m[4], "2");
}
