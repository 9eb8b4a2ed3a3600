// Differential checking (perftide verify): clean runs with a fixed seed,
// determinism, and how a difference between the generators is reported.
#include <gtest/gtest.h>

#include "chess/io/fen.hpp"
#include "support/json_reader.hpp"
#include "support/run_process.hpp"
#include "verify/verify.hpp"

namespace ref = perftide::reference;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST(Verify, CleanOnRandomPositionsFromTheStartAndTheSuite) {
    const auto r = run_perftide("verify --positions 300 --depth 2 --seed 12345 --suite " +
                              shell_quote(std::string(PERFTIDE_TEST_DATA) + "/perft/perftsuite.epd"));
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "verify: clean: 300 positions from 127 roots and random Chess960 and Double Chess960 starts (depth 2, seed 12345)")) << r.out;
}

TEST(Verify, JsonNamesTheResultAndTheSizes) {
    const auto r = run_perftide("verify --positions 20 --depth 1 --seed 7 --json");
    ASSERT_EQ(r.status, 0) << r.err;
    const testjson::Value v = testjson::parse(r.out);
    EXPECT_EQ(v["result"].text, "clean");
    EXPECT_EQ(v["samples"].text, "20");
    EXPECT_EQ(v["seed"].text, "7");
    EXPECT_GT(std::stoull(v["nodes"].text), 20u);
}

TEST(Verify, SameSeedSameWorkWhateverTheThreadCount) {
    perftide::VerifyOptions o;
    o.positions = 40;
    o.depth = 2;
    o.seed = 99;
    o.threads = 1;
    const auto one = perftide::run_verify(o);
    o.threads = 3;
    const auto three = perftide::run_verify(o);
    o.seed = 100;
    const auto other = perftide::run_verify(o);
    ASSERT_FALSE(one.mismatch || three.mismatch || other.mismatch);
    EXPECT_EQ(one.samples, 40);
    EXPECT_EQ(one.nodes, three.nodes);
    EXPECT_EQ(one.leaves, three.leaves);
    EXPECT_GT(one.leaves, one.nodes);
    EXPECT_NE(one.leaves, other.leaves);
}

TEST(Verify, NamesTheMovesOnlyOneSideHas) {
    // The same board, but the reference is told White has lost the right to
    // castle king side: the walk stops at the root with that move.
    const auto m = perftide::verify_tree(chess::parse_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"),
                                       ref::parse_fen("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1"), 2);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->check, "legal moves");
    EXPECT_EQ(m->only_common, std::vector<std::string>{"e1g1"});
    EXPECT_TRUE(m->only_reference.empty());
    EXPECT_TRUE(m->path.empty());
    EXPECT_EQ(m->fen, "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    EXPECT_EQ(m->reference_fen, "4k3/8/8/8/8/8/8/R3K2R w Q - 0 1");
}

TEST(Verify, EnPassantDifferenceIsNamed) {
    // The reference is given no e.p. square: only perftide has the capture.
    const auto m = perftide::verify_tree(chess::parse_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"),
                                       ref::parse_fen("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1"), 1);
    ASSERT_TRUE(m);
    EXPECT_EQ(m->check, "legal moves");
    EXPECT_EQ(m->only_common, std::vector<std::string>{"d4e3"});
    EXPECT_TRUE(perftide::verify_tree(chess::parse_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"),
                                    ref::parse_fen("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1"), 3) == std::nullopt);
}

TEST(Verify, MoveNumbersSaturateInsteadOfWrapping) {
    // Both make-moves are compared after every move, counters included.
    const auto r = run_perftide("verify --positions 4 --depth 2 --max-playout 2 --fen " +
                              shell_quote("4k3/8/8/8/8/8/8/4K3 b - - 0 65535"));
    EXPECT_EQ(r.status, 0) << r.out << r.err;
}

TEST(Verify, BadFenIsRefused) {
    const auto r = run_perftide("verify --fen " + shell_quote("4k3/8/8/8/8/8/8/4K3 x - - 0 1"));
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "FEN")) << r.err;
}
