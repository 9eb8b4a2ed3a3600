// Deep runs from the command line: the output of the plain run, a journal
// that survives SIGKILL and resumes to the exact total without redoing
// finished units, refusals of torn-free corrupt or foreign journals with
// status 2, and the progress bar on a terminal stderr only.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "inputs/suite.hpp"
#include "support/run_process.hpp"

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The published count of the start position at `depth`, from the data file.
std::string start_count(int depth) {
    for (const auto& e : perftide::read_suite_file(std::string(PERFTIDE_TEST_DATA) + "/perft/cpw_positions.epd"))
        if (e.fen == chess::START_FEN)
            for (const auto& [d, n] : e.expected)
                if (d == depth) return chess::to_string(n);
    return "missing from cpw_positions.epd";
}

std::string json_field(const std::string& json, const std::string& key) {
    const size_t at = json.find("\"" + key + "\": ");
    if (at == std::string::npos) return "";
    const size_t start = at + key.size() + 4;
    return json.substr(start, json.find_first_of(",}", start) - start);
}

struct Journal {
    std::string path = "/tmp/perftide_deep_cli_" + std::to_string(getpid()) + ".journal";
    Journal() { std::remove(path.c_str()); }
    ~Journal() { std::remove(path.c_str()); }
};

const std::string DEPTH6 = "perft --depth 6 --backend cpu --threads 1 --split 3 --quiet ";

}  // namespace

TEST(DeepCli, DeepRunPrintsWhatThePlainRunPrints) {
    const auto plain = run_perftide("perft --depth 4 --divide --backend cpu");
    for (const char* extra : {"--split 2", "--split 3 --hash 1 --host-hash 1", "--split 0 --hash 4", "--split 4"}) {
        const auto deep = run_perftide(std::string("perft --depth 4 --divide --backend cpu --quiet ") + extra);
        EXPECT_EQ(deep.status, 0) << extra << deep.err;
        EXPECT_EQ(deep.out, plain.out) << extra;
    }
}

TEST(DeepCli, KilledRunResumesToTheExactTotal) {
    Journal j;
    // Sixteen units per fsync'd batch: the run takes seconds, so it is
    // killed well before the end.
    const std::string args = DEPTH6 + "--json --batch-units 16 --journal " + j.path;
    const std::string out = j.path + ".out";
    const pid_t pid = spawn_perftide(args, out, 2);
    wait_for_lines(j.path, 1 + 48);
    ASSERT_EQ(kill(pid, SIGKILL), 0);
    int status = 0;
    waitpid(pid, &status, 0);
    ASSERT_TRUE(WIFSIGNALED(status)) << "the run finished before it could be killed";
    EXPECT_EQ(slurp(out), "");  // nothing printed before the end

    const int finished = count_lines(slurp(j.path)) - 1;  // complete unit lines survive the kill
    ASSERT_GE(finished, 48);
    const auto r = run_perftide(args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(json_field(r.out, "nodes"), start_count(6));
    EXPECT_EQ(json_field(r.out, "units_resumed"), std::to_string(finished));
    EXPECT_EQ(count_lines(slurp(j.path)) - 1, std::stoi(json_field(r.out, "units")));
    // A run that finds every unit in the journal counted nothing itself: no
    // nodes per second to claim.
    const auto resumed_all = run_perftide(args);
    ASSERT_EQ(resumed_all.status, 0) << resumed_all.err;
    EXPECT_EQ(json_field(resumed_all.out, "nodes"), start_count(6));
    EXPECT_EQ(json_field(resumed_all.out, "nps"), "0") << resumed_all.out;

    // A third run finds every unit done.
    const auto again = run_perftide(args);
    EXPECT_EQ(json_field(again.out, "nodes"), start_count(6));
    EXPECT_EQ(json_field(again.out, "units_resumed"), json_field(again.out, "units"));
    std::remove(out.c_str());
}

// A journal written before the program was renamed perftide (its header
// says gperft-journal; 150 of 400 units done) resumes to the exact total, is
// appended to under its old header, and a new journal gets the new name.
TEST(DeepCli, AJournalFromBeforeTheRenameResumes) {
    Journal j;
    const std::string old = slurp(std::string(PERFTIDE_TEST_DATA) + "/journal/before_rename_perft_d5.journal");
    ASSERT_TRUE(old.starts_with("gperft-journal ")) << "the fixture is not a journal of the old name";
    std::ofstream(j.path) << old;
    const std::string args = "perft --depth 5 --backend cpu --threads 1 --split 2 --quiet --json --journal " + j.path;
    const auto r = run_perftide(args);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(json_field(r.out, "nodes"), start_count(5));
    EXPECT_EQ(json_field(r.out, "units_resumed"), "150");
    EXPECT_EQ(json_field(r.out, "units"), "400");
    const std::string after = slurp(j.path);
    EXPECT_TRUE(after.starts_with(old)) << "the old journal's lines must stay as they were";
    EXPECT_EQ(count_lines(after), 1 + 400);
    std::remove(j.path.c_str());
    ASSERT_EQ(run_perftide(args).status, 0);
    EXPECT_TRUE(slurp(j.path).starts_with("perftide-journal ")) << slurp(j.path);
}

// SIGINT or SIGTERM during a journaled run: the message names the journal
// and how to resume, the status is the signal's, and the resumed run gives
// the exact total.
TEST(DeepCli, InterruptedRunSaysWhereItsJournalIs) {
    for (int sig : {SIGINT, SIGTERM}) {
        Journal j;
        const std::string args = DEPTH6 + "--json --batch-units 16 --journal " + j.path;
        const std::string out = j.path + ".out";
        const pid_t pid = spawn_perftide(args, out);
        wait_for_lines(j.path, 1 + 16);
        ASSERT_EQ(kill(pid, sig), 0);
        int status = 0;
        waitpid(pid, &status, 0);
        ASSERT_TRUE(WIFSIGNALED(status)) << "the run finished before the signal";
        EXPECT_EQ(WTERMSIG(status), sig);
        EXPECT_EQ(slurp(out), "perftide: interrupted; the finished work is in the journal " + j.path +
                                  ": run the same command again to resume\n");
        const auto r = run_perftide(args);
        ASSERT_EQ(r.status, 0) << r.err;
        EXPECT_EQ(json_field(r.out, "nodes"), start_count(6));
        std::remove(out.c_str());
    }
}

TEST(DeepCli, TornTailIsDiscardedAndTheRunCompletes) {
    Journal j;
    const std::string args = DEPTH6 + "--journal " + j.path;
    ASSERT_EQ(run_perftide(args).status, 0);
    std::string text = slurp(j.path);
    const size_t last = text.rfind('\n', text.size() - 2);
    text.resize(last + 1 + (text.size() - last - 1) / 2);  // half of the last line
    { std::ofstream(j.path, std::ios::trunc) << text; }
    const auto r = run_perftide(args);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "Nodes searched: " + start_count(6) + "\n");
}

TEST(DeepCli, CorruptOrForeignJournalsExitTwo) {
    Journal j;
    ASSERT_EQ(run_perftide(DEPTH6 + "--journal " + j.path).status, 0);
    const std::string good = slurp(j.path);
    struct Case {
        std::string args, message;
    };
    for (const Case& c : {Case{"perft --depth 7 --backend cpu --split 3 --quiet", "depth 6, this run has depth 7"},
                          Case{"perft --depth 6 --backend cpu --split 2 --quiet", "split depth 3, this run has split depth 2"},
                          Case{DEPTH6 + "--zobrist-seed 5", "zobrist seed"},
                          Case{DEPTH6 + "--moves e2e4", "for position"}}) {
        const auto r = run_perftide(c.args + " --journal " + j.path);
        EXPECT_EQ(r.status, 2) << c.args;
        EXPECT_TRUE(contains(r.err, c.message)) << c.args << ": " << r.err;
        EXPECT_TRUE(r.out.empty());
        EXPECT_EQ(slurp(j.path), good) << "a refused journal must not change";
    }
    std::string bad = good;
    bad[bad.find("\nunit 7 ") + 8] ^= 1;  // one bit of a unit line's fingerprint
    { std::ofstream(j.path, std::ios::trunc) << bad; }
    const auto r = run_perftide(DEPTH6 + "--journal " + j.path);
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "is corrupt")) << r.err;
}

// Memory is checked before it is taken: a split whose work units cannot fit
// is refused with the numbers; a table larger than the run can fill is cut,
// with a note, unless --hash-force.
TEST(DeepCli, MemoryIsCheckedBeforeItIsTaken) {
    const auto split = run_perftide("perft --depth 9 --split 8 --backend cpu");
    EXPECT_EQ(split.status, 2) << split.err;
    EXPECT_TRUE(contains(split.err, "this run needs about")) << split.err;
    EXPECT_TRUE(contains(split.err, "work units at split 8")) << split.err;
    const auto big = run_perftide("perft --depth 5 --hash 4096 --backend cpu --split 1 --json");
    EXPECT_EQ(big.status, 0) << big.err;
    EXPECT_TRUE(contains(big.err, "note: --hash 4096 MiB is more than this run can fill")) << big.err;
    EXPECT_EQ(json_field(big.out, "hash_mb"), "1") << big.out;
    const auto forced = run_perftide("perft --depth 5 --hash 64 --hash-force --backend cpu --split 1 --json");
    EXPECT_EQ(forced.status, 0) << forced.err;
    EXPECT_FALSE(contains(forced.err, "note:")) << forced.err;
    EXPECT_EQ(json_field(forced.out, "hash_mb"), "64") << forced.out;
    const auto odd = run_perftide("perft --depth 6 --hash 100 --hash-force --backend cpu --split 1 --json");
    EXPECT_TRUE(contains(odd.err, "note: --hash 100 MiB: the table takes 64 MiB (a power of two)")) << odd.err;
}

// The default table is sized from what the run can fill too: a bare K v K
// at depth 10 takes a small table, not a share of the machine's memory.
TEST(DeepCli, DefaultTableIsSizedFromThePositionAndDepth) {
    const auto bare = run_perftide("perft --fen '4k3/8/8/8/8/8/8/4K3 w - -' --depth 10 --backend cpu --json");
    ASSERT_EQ(bare.status, 0) << bare.err;
    EXPECT_EQ(json_field(bare.out, "hash_mb"), "1") << bare.out;
    EXPECT_FALSE(contains(bare.err, "note:")) << bare.err;  // the default is cut silently
    const auto start = run_perftide("perft --depth 7 --backend cpu --json --quiet");
    ASSERT_EQ(start.status, 0) << start.err;
    EXPECT_GT(std::stoll(json_field(start.out, "hash_mb")), 1) << start.out;
}

// --split 0 is the root alone, with no work units to journal: refused with
// --journal (not run at another split), and no journal is written.
TEST(DeepCli, SplitZeroWithAJournalIsRefused) {
    const std::string journal = "/tmp/perftide_split0_" + std::to_string(getpid()) + ".journal";
    std::remove(journal.c_str());
    const auto r = run_perftide("perft --depth 3 --backend cpu --split 0 --quiet --journal " + journal);
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "--split 0 counts the root without work units")) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
    EXPECT_NE(::access(journal.c_str(), F_OK), 0) << "a journal was written";
    const auto one = run_perftide("perft --depth 3 --backend cpu --split 1 --quiet --journal " + journal);
    EXPECT_EQ(one.status, 0) << one.err;
    EXPECT_TRUE(contains(one.out, "8902")) << one.out;
    std::remove(journal.c_str());
}

TEST(DeepCli, BadDeepOptionsExitTwo) {
    for (const auto& [args, message] :
         std::vector<std::pair<std::string, std::string>>{{"perft --depth 3 --split 4 --backend cpu", "--split 4 is deeper than --depth 3"},
                                                          {"perft --depth 3 --split 11", "--split"},
                                                          {"perft --depth 3 --hash -1", "--hash"},
                                                          {"perft --depth 3 --backend cpu --hash 4000000", "more than the free memory"},
                                                          {"perft --depth 3 --host-hash 4000000", "more than the free memory"},
                                                          {"perft --depth 3 --zobrist-seed 0xZZ", "not a 64-bit number"},
                                                          {"perft --depth 3 --zobrist-seed 18446744073709551616", "does not fit"},
                                                          {"perft --depth 3 --journal /nonexistent/dir/j", "/nonexistent/dir/j"}}) {
        const auto r = run_perftide(args);
        EXPECT_EQ(r.status, 2) << args;
        EXPECT_TRUE(contains(r.err, message)) << args << ": " << r.err;
    }
}

TEST(DeepCli, ProgressBarGoesToATerminalStderrOnly) {
    const int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0) GTEST_SKIP() << "no pseudo-terminal here to stand in for a terminal stderr";
    ASSERT_EQ(grantpt(master), 0);
    ASSERT_EQ(unlockpt(master), 0);
    const int tty = open(ptsname(master), O_RDWR | O_NOCTTY);
    ASSERT_GE(tty, 0);
    const std::string out = "/tmp/perftide_progress_" + std::to_string(getpid());
    // Perft 8: the bar is drawn once a run has taken a second; the test
    // stops the run when it has seen it.
    const pid_t pid = spawn_perftide("perft --depth 8 --backend cpu --split 3 --batch-units 64", out, tty);
    close(tty);
    std::string err;
    char buf[4096];
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!contains(err, "ETA") && std::chrono::steady_clock::now() < deadline) {
        const ssize_t n = read(master, buf, sizeof buf);  // EIO once the child exits
        if (n <= 0) break;
        err.append(buf, size_t(n));
    }
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    close(master);
    EXPECT_EQ(slurp(out), "") << "nothing but the result goes to stdout";
    EXPECT_TRUE(contains(err, "/5362 units")) << err;
    EXPECT_TRUE(contains(err, "nodes/s  ETA")) << err;
    std::remove(out.c_str());

    // Not on a terminal, or with --quiet: no bar.
    const auto r = run_perftide("perft --depth 5 --backend cpu --split 3 --batch-units 64");
    EXPECT_FALSE(contains(r.err, "ETA")) << r.err;
    EXPECT_FALSE(contains(r.err, "\r")) << r.err;
}
