// `perftide uci`: Stockfish's `go perft` and `d` through pipes, and an engine
// that always answers: isready during a count, stop ending it, quit and the
// end of the input letting it finish (as Stockfish's scripts expect),
// run-time errors as info strings, a line to wait for after every go.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <regex>
#include <sstream>

#include "support/run_process.hpp"
#include "uci_client/child_process.hpp"

namespace {

using perftide::engine::ChildProcess;
using Clock = std::chrono::steady_clock;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// perftide uci fed `session` on stdin.
ProcessResult uci(const std::string& session, const std::string& env = "") {
    return run_shell("printf '%s' " + shell_quote(session) + " | " + env + PERFTIDE_BINARY + " uci");
}

// A live session: commands written one at a time, answers read with
// deadlines.
class Session {
   public:
    explicit Session(const std::string& env = "") : child_(env + PERFTIDE_BINARY + " uci") {}
    void send(const std::string& line) { ASSERT_TRUE(child_.write(line + "\n")) << line; }
    // The lines up to and including the first that starts with `prefix`,
    // read within `seconds`; empty when it did not come.
    std::vector<std::string> until(const std::string& prefix, double seconds = 60) {
        std::vector<std::string> seen;
        const auto deadline = Clock::now() + std::chrono::milliseconds(long(seconds * 1000));
        for (std::string line; child_.read_line(line, deadline) == ChildProcess::Read::Line;) {
            seen.push_back(line);
            if (line.starts_with(prefix)) return seen;
        }
        return {};
    }
    // The lines up to and including the first that a harness takes for a
    // count (`^Nodes searched: \d+$`), read within `seconds`; empty when the
    // output ended or the time ran out first.
    std::vector<std::string> until_count(double seconds = 120) {
        std::vector<std::string> seen;
        const auto deadline = Clock::now() + std::chrono::milliseconds(long(seconds * 1000));
        for (std::string line; child_.read_line(line, deadline) == ChildProcess::Read::Line;) {
            seen.push_back(line);
            if (is_count(line)) return seen;
        }
        return {};
    }
    // Every line until the output ends, read within `seconds`, and whether it
    // ended by then.
    std::pair<std::vector<std::string>, bool> until_end(double seconds) {
        std::vector<std::string> seen;
        const auto deadline = Clock::now() + std::chrono::milliseconds(long(seconds * 1000));
        std::string line;
        ChildProcess::Read read;
        while ((read = child_.read_line(line, deadline)) == ChildProcess::Read::Line) seen.push_back(line);
        return {seen, read == ChildProcess::Read::End};
    }
    static bool is_count(const std::string& line) {
        static const std::regex count(R"(^Nodes searched: \d+$)");
        return std::regex_match(line, count);
    }
    ChildProcess& child() { return child_; }

   private:
    ChildProcess child_;
};

std::string joined(const std::vector<std::string>& lines) {
    std::string s;
    for (const auto& l : lines) s += l + "\n";
    return s;
}

// Without an end of its own: start position perft 9 on one thread takes
// minutes whatever the machine.
const char* LONG_COUNT = "go perft 9";
// Long enough to be running when the next line comes, short enough to wait
// for: start position perft 7 on one thread takes a second or so.
const char* WAITED_COUNT = "go perft 7";
const char* WAITED_NODES = "Nodes searched: 3195901860";

}  // namespace

TEST(Uci, AnswersGoPerftAsStockfishDoes) {
    const auto r = uci("uci\nisready\nposition startpos moves e2e4\ngo perft 1\n");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "id name perftide\n")) << r.out;
    EXPECT_TRUE(contains(r.out, "uciok\nreadyok\n")) << r.out;
    // Black's twenty replies, a blank line, the total, a blank line.
    EXPECT_TRUE(contains(r.out, "\ng8f6: 1\n")) << r.out;
    EXPECT_TRUE(r.out.ends_with(": 1\n\nNodes searched: 20\n\n")) << r.out;
    // After moves, the count perft --moves gives.
    const std::string fen = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";
    const auto after = uci("position fen " + fen + " moves b4b1 h5h6\ngo perft 2\n");
    const auto expected = run_perftide("perft --depth 2 --backend cpu --fen " + shell_quote(fen) + " --moves 'b4b1 h5h6'");
    ASSERT_EQ(expected.status, 0) << expected.err;
    EXPECT_TRUE(after.out.ends_with("\n" + expected.out + "\n")) << after.out << expected.out;
}

TEST(Uci, ChessNineSixtyOptionAndBoardDisplay) {
    const auto r = uci("setoption name UCI_Chess960 value true\nposition fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1\n"
                       "go perft 1\nd\n");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "e1h1: 1\n")) << r.out;  // castling as king takes rook
    EXPECT_TRUE(contains(r.out, " | k |   |   |   | 8\n")) << r.out;
    EXPECT_TRUE(contains(r.out, "\nFen: 4k3/8/8/8/8/8/8/4K2R w K - 0 1\nKey: ")) << r.out;
    const auto check = uci("position fen 4k3/8/8/8/8/8/8/4KR2 b - - 0 1 moves e8d8\nposition fen 4k3/4R3/8/8/8/8/8/4K3 b - - 0 1\nd\n");
    EXPECT_TRUE(contains(check.out, "Checkers: e7 \n")) << check.out;
}

// Switching Chess960 off again gives the current position standard notation,
// unless its castling rights need Chess960.
TEST(Uci, ChessNineSixtyOffAppliesToTheCurrentPosition) {
    const auto r = uci("setoption name UCI_Chess960 value true\nposition fen 4k3/8/8/8/8/8/8/4K2R w K - 0 1\n"
                       "setoption name UCI_Chess960 value false\ngo perft 1\n");
    EXPECT_TRUE(contains(r.out, "e1g1: 1\n")) << r.out;
    EXPECT_FALSE(contains(r.out, "e1h1")) << r.out;
    const auto needs = uci("setoption name UCI_Chess960 value true\nposition fen 4k3/8/8/8/8/8/8/1K5R w H - 0 1\n"
                           "setoption name UCI_Chess960 value false\ngo perft 1\n");
    EXPECT_TRUE(contains(needs.out, "b1h1: 1\n")) << needs.out;  // a king off e1 castles by Chess960's rule
}

TEST(Uci, BadCommandsGetOneInfoLineAndTheEngineReadsOn) {
    const auto r = uci("frobnicate\nposition fen not/a/fen w - - 0 1\nposition startpos moves e2e5\ngo depth 5\n"
                       "setoption name Threads value many\nsetoption name Nonsense value 1\ngo perft 31\ngo perft 1\n");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto l = lines_of(r.out);
    ASSERT_GE(l.size(), 9u) << r.out;
    EXPECT_EQ(l[0], "info string unknown command: 'frobnicate'");
    EXPECT_TRUE(l[1].starts_with("info string position: ")) << l[1];
    EXPECT_TRUE(l[2].starts_with("info string position: ")) << l[2];
    EXPECT_EQ(l[3], "info string perftide does not search: it answers only 'go perft N'");
    EXPECT_EQ(l[4], "bestmove 0000");  // a GUI waiting for the end of its go gets one
    EXPECT_EQ(l[5], "info string setoption: 'many' is not a value of Threads");
    EXPECT_EQ(l[6], "info string setoption: no option 'Nonsense'");
    EXPECT_EQ(l[7], "info string go perft: the depth must be a number from 0 to 30, not '31'");
    EXPECT_EQ(l[8], "Nodes searched: none");
    // The last position was refused: no position to count, and no count.
    EXPECT_TRUE(r.out.ends_with("\nNodes searched: none\n\n")) << r.out;
    for (const auto& line : l) EXPECT_FALSE(Session::is_count(line)) << line;
}

// A refused position leaves no position (never the one before it) until a
// good one arrives: go perft, perft and d say so, and nothing reads as a count.
TEST(Uci, ARefusedPositionLeavesNoPositionToCount) {
    for (const std::string refused : {"position startpos moves e2e4 e2e4", "position fen not/a/fen w - - 0 1",
                                      "position fen 8/8/8/8/8/8/8/K7 w - - 0 1", "position nonsense"}) {
        const auto r = uci("position startpos moves e2e4\n" + refused + "\ngo perft 1\nperft 1\nd\nucinewgame\n"
                           "setoption name UCI_Chess960 value true\ngo perft 1\nposition startpos\ngo perft 1\n");
        ASSERT_EQ(r.status, 0) << r.err;
        const auto l = lines_of(r.out);
        ASSERT_GE(l.size(), 10u) << r.out;
        EXPECT_TRUE(l[0].starts_with("info string position: ")) << refused << ": " << l[0];
        EXPECT_TRUE(l[0].ends_with(" (no position until a good 'position')")) << refused << ": " << l[0];
        for (size_t i : {1u, 4u, 8u}) {
            EXPECT_TRUE(l[i].starts_with("info string go perft: no position (the last 'position' was refused: "))
                << l[i];
            EXPECT_EQ(l[i + 1], "Nodes searched: none");
        }
        EXPECT_TRUE(l[7].starts_with("info string d: no position")) << l[7];
        for (size_t i = 0; i + 2 < l.size(); ++i) EXPECT_FALSE(Session::is_count(l[i])) << refused << ": " << l[i];
        EXPECT_TRUE(r.out.ends_with("\n\nNodes searched: 20\n\n")) << refused << ": " << r.out;  // the good one
    }
}

TEST(Uci, GoPerftTakesAWholeDepthAndNothingElse) {
    const auto r = uci("go perft 1.5\ngo perft 3 extra\ngo perft\ngo perft -1\ngo perft 0x2\ngo perft 2\n");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "info string go perft: the depth must be a number from 0 to 30, not '1.5'\n"
                                "Nodes searched: none\n")) << r.out;
    EXPECT_TRUE(contains(r.out, "info string go perft: 'extra' after the depth (go perft takes only a depth)\n"
                                "Nodes searched: none\n")) << r.out;
    EXPECT_TRUE(
        contains(r.out, "info string go perft: the depth must be a number from 0 to 30\nNodes searched: none\n"))
        << r.out;
    EXPECT_TRUE(contains(r.out, "not '-1'\nNodes searched: none\n")) << r.out;
    EXPECT_TRUE(contains(r.out, "not '0x2'\nNodes searched: none\n")) << r.out;
    EXPECT_FALSE(contains(r.out, ": 1\n")) << r.out;  // no divide of depth 1, nor of depth 3
    EXPECT_FALSE(contains(r.out, "8902")) << r.out;
    EXPECT_TRUE(r.out.ends_with("\nNodes searched: 400\n\n")) << r.out;
}

// The divide lines as perft --divide prints them: sorted by move text, so a
// diff against a sorted Stockfish divide lines up.
TEST(Uci, DivideLinesAreSortedAsPerftDivide) {
    const std::string kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    const auto r = uci("position fen " + kiwi + "\ngo perft 2\n");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto divide = run_perftide("perft --depth 2 --divide --backend cpu --fen " + shell_quote(kiwi));
    ASSERT_EQ(divide.status, 0) << divide.err;
    std::vector<std::string> moves;
    for (const auto& line : lines_of(r.out))
        if (line.find(": ") == 4 || line.find(": ") == 5) moves.push_back(line);
    ASSERT_EQ(moves.size(), 48u) << r.out;
    EXPECT_TRUE(std::is_sorted(moves.begin(), moves.end())) << r.out;
    EXPECT_EQ(r.out, divide.out + "\n");
}

// With Hash set, a deep count's work units are bounded by it too (a split
// no deeper than they fit in): the count is still exact, here position 3
// at depth 7 (the deep engine's threshold) with Hash 1.
TEST(Uci, CountWithASmallHashIsExact) {
    const auto r = uci("setoption name Hash value 1\nsetoption name Threads value 1\n"
                       "position fen 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1\ngo perft 7\n");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.out.ends_with("\nNodes searched: 178633661\n\n")) << r.out;
}

// A table larger than the free memory, a device fault: one info string in
// UCI's words, a line to wait for, and the next go counts.
TEST(Uci, RunTimeErrorsAreInfoStringsAndTheEngineReadsOn) {
    const auto r = uci("setoption name Hash value 4194304\ngo perft 7\nsetoption name Hash value 0\ngo perft 3\n");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto l = lines_of(r.out);
    ASSERT_GE(l.size(), 2u) << r.out;
    EXPECT_TRUE(l[0].starts_with("info string go perft 7: Hash 4194304 MiB is more than the free memory")) << l[0];
    EXPECT_EQ(l[1], "Nodes searched: none");
    EXPECT_FALSE(contains(r.out, "--")) << r.out;  // no command-line flags
    EXPECT_TRUE(r.out.ends_with("\nNodes searched: 8902\n\n")) << r.out;
    const auto fault = uci("setoption name Backend value gpu\ngo perft 3\nsetoption name Backend value cpu\ngo perft 3\n",
                           "PERFTIDE_HOST_GPU=1 PERFTIDE_HOST_GPU_FAULT=generation ");
    ASSERT_EQ(fault.status, 0) << fault.err;
    const auto f = lines_of(fault.out);
    ASSERT_GE(f.size(), 2u) << fault.out;
    EXPECT_TRUE(f[0].starts_with("info string go perft 3: ")) << fault.out;
    EXPECT_EQ(f[1], "Nodes searched: none");
    EXPECT_TRUE(fault.out.ends_with("\nNodes searched: 8902\n\n")) << fault.out;
}

TEST(Uci, BackendGpuWithoutADeviceIsRefusedAtSetoption) {
    if (run_perftide("perft --depth 1 --backend gpu").status == 0) GTEST_SKIP() << "a CUDA device is here";
    const auto r = uci("setoption name Backend value gpu\ngo perft 2\n");
    ASSERT_EQ(r.status, 0) << r.err;
    const auto l = lines_of(r.out);
    ASSERT_GE(l.size(), 1u) << r.out;
    EXPECT_TRUE(l[0].starts_with("info string setoption: Backend gpu: ")) << l[0];
    EXPECT_TRUE(l[0].ends_with("; Backend stays auto")) << l[0];
    EXPECT_TRUE(r.out.ends_with("\nNodes searched: 400\n\n")) << r.out;
}

TEST(Uci, IsreadyIsAnsweredAndStopEndsACount) {
    Session s;
    s.send("setoption name Threads value 1");
    s.send("setoption name Backend value cpu");
    s.send(LONG_COUNT);
    s.send("isready");
    const auto ready = s.until("readyok", 10);
    ASSERT_EQ(ready, std::vector<std::string>{"readyok"}) << joined(ready);  // nothing of the count before it
    s.send("stop");
    const auto stopped = s.until("Nodes searched:", 10);
    ASSERT_EQ(stopped.size(), 2u) << joined(stopped);
    EXPECT_EQ(stopped[0], "info string go perft 9: stopped, no count");
    EXPECT_EQ(stopped[1], "Nodes searched: none");
    // The engine reads on, and a stop with nothing running is no request.
    s.send("stop");
    s.send("go perft 2");
    const auto next = s.until("Nodes searched:", 60);
    ASSERT_FALSE(next.empty());
    EXPECT_EQ(next.back(), "Nodes searched: 400");
}

// A count below the tables (the start position to depth 30 never ends) is
// stopped at any table size: the recursion under the table looks at the
// request, so `Nodes searched: none` comes within a second of `stop`.
TEST(Uci, StopEndsATableCountWithinASecond) {
    for (const std::string hash : {"1", "default"}) {
        Session s;
        s.send("setoption name Threads value 1");
        s.send("setoption name Backend value cpu");
        if (hash != "default") s.send("setoption name Hash value " + hash);
        s.send("go perft 30");
        std::this_thread::sleep_for(std::chrono::seconds(2));  // well inside the recursion by now
        const auto sent = Clock::now();
        s.send("stop");
        const auto stopped = s.until("Nodes searched:", 10);
        const double seconds = std::chrono::duration<double>(Clock::now() - sent).count();
        ASSERT_FALSE(stopped.empty()) << "Hash " << hash << ": no answer to stop";
        EXPECT_EQ(stopped.back(), "Nodes searched: none") << "Hash " << hash << "\n" << joined(stopped);
        EXPECT_LT(seconds, 1.0) << "Hash " << hash << ": the stop took " << seconds << " s";
        s.send(WAITED_COUNT);  // the engine reads on and counts through the tables exactly
        const auto next = s.until("Nodes searched:", 120);
        ASSERT_FALSE(next.empty());
        EXPECT_EQ(next.back(), WAITED_NODES) << "Hash " << hash;
    }
}

// bench runs as a go does: isready is answered at once while it counts, and
// a stop ends it without its line.
TEST(Uci, IsreadyIsAnsweredDuringBench) {
    Session s;
    s.send("setoption name Threads value 1");
    s.send("bench");
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    s.send("isready");
    const auto ready = s.until("readyok", 2);
    ASSERT_EQ(ready, std::vector<std::string>{"readyok"}) << joined(ready);
    s.send("stop");
    const auto stopped = s.until("info string bench", 10);
    ASSERT_FALSE(stopped.empty());
    EXPECT_EQ(stopped.back(), "info string bench: stopped, no result");
    s.send("go perft 2");
    const auto next = s.until("Nodes searched:", 60);
    ASSERT_FALSE(next.empty());
    EXPECT_EQ(next.back(), "Nodes searched: 400");
}

// Stockfish counts `go perft` before it reads the next line, so scripts send
// quit right behind the go: the count finishes and prints, then the process
// ends.
TEST(Uci, PipedScriptWithQuitPrintsItsCount) {
    const auto r = uci("position startpos\ngo perft 4\nquit\n");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.out.ends_with("\n\nNodes searched: 197281\n\n")) << r.out;
    EXPECT_FALSE(contains(r.out, "info string")) << r.out;
}

TEST(Uci, BarePerftIsGoPerft) {
    const auto r = uci("perft 3\nposition startpos moves e2e4\nperft 1\nquit\n");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "\nNodes searched: 8902\n\n")) << r.out;
    EXPECT_TRUE(r.out.ends_with("\nNodes searched: 20\n\n")) << r.out;
}

TEST(Uci, QuitDuringACountWaitsForItsCount) {
    Session s;
    s.send("setoption name Threads value 1");
    s.send("setoption name Backend value cpu");
    s.send(WAITED_COUNT);
    s.send("isready");
    ASSERT_EQ(s.until("readyok", 10), std::vector<std::string>{"readyok"});  // the count is running
    s.send("quit");
    const auto [said, ended] = s.until_end(300);
    EXPECT_TRUE(ended) << joined(said);
    ASSERT_GE(said.size(), 2u) << joined(said);
    EXPECT_EQ(said[said.size() - 2], WAITED_NODES) << joined(said);
    EXPECT_EQ(s.child().exit_description(std::chrono::milliseconds(1000)), "exited with status 0");
}

// The end of the input (the pipe closed) is a quit.
TEST(Uci, EndOfInputDuringACountWaitsForItsCount) {
    Session s;
    s.send("setoption name Threads value 1");
    s.send("setoption name Backend value cpu");
    s.send(WAITED_COUNT);
    s.send("isready");
    ASSERT_EQ(s.until("readyok", 10), std::vector<std::string>{"readyok"});
    s.child().close_input();
    const auto counted = s.until_count(300);
    ASSERT_FALSE(counted.empty());
    EXPECT_EQ(counted.back(), WAITED_NODES);
    EXPECT_EQ(s.child().exit_description(std::chrono::milliseconds(10000)), "exited with status 0");
}

// A stop ends the count; the quit behind it ends the process without it,
// and nothing printed reads as a count.
TEST(Uci, StopThenQuitEndsWithoutACount) {
    Session s;
    s.send("setoption name Threads value 1");
    s.send("setoption name Backend value cpu");
    s.send(LONG_COUNT);
    s.send("isready");
    ASSERT_FALSE(s.until("readyok", 10).empty());  // the count is running
    s.send("stop");
    s.send("quit");
    // Perft 9 would take minutes: an end within this bound is the stop's.
    const auto [said, ended] = s.until_end(30);
    EXPECT_TRUE(ended) << joined(said);
    for (const auto& l : said) {
        EXPECT_FALSE(Session::is_count(l)) << l;
        EXPECT_TRUE(l.starts_with("info string ") || l == "Nodes searched: none" || l.empty()) << l;
    }
    EXPECT_EQ(s.child().exit_description(std::chrono::milliseconds(1000)), "exited with status 0");
}

// A harness that sends its script at once and reads until a line matches
// `^Nodes searched: \d+$` gets the count, not the line of a stopped go.
TEST(Uci, HarnessWaitingForTheCountRegexGetsTheCount) {
    Session s;
    s.send("position startpos");
    s.send("go perft 4");
    s.send("quit");
    const auto counted = s.until_count();
    ASSERT_FALSE(counted.empty());
    EXPECT_EQ(counted.back(), "Nodes searched: 197281");
    EXPECT_EQ(counted.size(), 22u) << joined(counted);  // twenty moves, a blank line, the total
}

TEST(Uci, CompareDrivesItLikeAnyEngine) {
    const std::string engine = std::string(PERFTIDE_BINARY) + " uci";
    const auto r = run_perftide("compare --backend cpu --engine " + shell_quote(engine) + " --depth 3 --fen " +
                              shell_quote("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"));
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "compare: agree at depth 3")) << r.out;
}
