// perftide where other tools expect a batch tool: `perft --file` (JSON Lines
// and EPD out),
// `suite` reporting skipped depths and `--json`, `--fen startpos`, divides
// sorted by move text, and the progress line of long runs.
#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <regex>
#include <sstream>

#include "chess/io/fen.hpp"
#include "support/json_reader.hpp"
#include "support/run_process.hpp"

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string temp(const std::string& name) { return "/tmp/perftide_cli_tools_" + std::to_string(getpid()) + name; }

}  // namespace

TEST(PerftFile, WritesJsonLinesAndEpdSuites) {
    const std::string in = temp(".in");
    std::ofstream(in) << "# a comment\n"
                      << chess::START_FEN << "\n"
                      << "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - bm Rb1; id \"position 3\";\n"
                      << "\n"
                      << "4k3/8/8/8/8/8/8/4K2R w K - ;D1 15 ;D2 66\n";
    const auto json = run_perftide("perft --file " + in + " --depth 3 --backend cpu");
    ASSERT_EQ(json.status, 0) << json.err;
    const auto rows = lines_of(json.out);
    ASSERT_EQ(rows.size(), 3u) << json.out;
    const testjson::Value first = testjson::parse(rows[0]);
    EXPECT_EQ(first["line"].text, "2");
    EXPECT_EQ(first["nodes"].text, "8902");
    ASSERT_EQ(first["perft"].items.size(), 3u);
    EXPECT_EQ(first["perft"].items[1].text, "400");
    EXPECT_EQ(testjson::parse(rows[1])["nodes"].text, "2812");
    EXPECT_EQ(testjson::parse(rows[2])["line"].text, "5");

    const auto epd = run_perftide("perft --file - --epd --depth 2 --backend cpu < " + in);
    ASSERT_EQ(epd.status, 0) << epd.err;
    EXPECT_EQ(epd.out, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - ;D1 20 ;D2 400\n"
                       "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - ;D1 14 ;D2 191\n"
                       "4k3/8/8/8/8/8/8/4K2R w K - ;D1 15 ;D2 66\n");
    // The EPD it writes is a suite perftide itself passes.
    const std::string suite = temp(".epd");
    std::ofstream(suite) << epd.out;
    EXPECT_EQ(run_perftide("suite --backend cpu " + suite).status, 0);
    std::remove(suite.c_str());
    std::remove(in.c_str());
}

// Every front end counts as `perft` does: bare kings to depth 30 take
// `perft` a fraction of a second through its tables, and would take hours
// counted plainly. perftree and perft --file answer too, with its count
// (each run under `timeout`, so that a plain count fails instead of hanging).
TEST(PerftFile, EveryFrontEndCountsDeepAsPerftDoes) {
    const std::string fen = "8/8/8/8/8/8/8/K1k5 w - - 0 1";
    const auto perft = run_shell("timeout 60 " + std::string(PERFTIDE_BINARY) + " perft --backend cpu --quiet --depth 30 --fen " +
                                 shell_quote(fen));
    ASSERT_EQ(perft.status, 0) << perft.err;
    const std::string count = perft.out.substr(perft.out.rfind(' ') + 1);
    const auto tree = run_shell("timeout 60 " + std::string(PERFTIDE_BINARY) + " perftree --backend cpu 30 " + shell_quote(fen));
    ASSERT_EQ(tree.status, 0) << tree.err;
    const auto tree_lines = lines_of(tree.out);
    ASSERT_FALSE(tree_lines.empty());
    EXPECT_EQ(tree_lines.back() + "\n", count);
    const std::string in = temp(".kings");
    std::ofstream(in) << fen << "\n";
    const auto file = run_shell("timeout 120 " + std::string(PERFTIDE_BINARY) + " perft --backend cpu --quiet --depth 30 --file " + in);
    ASSERT_EQ(file.status, 0) << file.err;
    EXPECT_EQ(testjson::parse(file.out)["nodes"].text + "\n", count);
    std::remove(in.c_str());
}

TEST(PerftFile, BadLinesAreNamedAndTheRestCounted) {
    const std::string in = temp(".bad");
    std::ofstream(in) << chess::START_FEN << "\nnot a position\n";
    const auto r = run_perftide("perft --file " + in + " --depth 1 --backend cpu");
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(lines_of(r.out).size(), 1u) << r.out;
    EXPECT_TRUE(contains(r.err, in + " line 2: ")) << r.err;
    EXPECT_TRUE(contains(r.err, "1 line is not a position")) << r.err;
    EXPECT_EQ(run_perftide("perft --file " + in + " --depth 1 --divide").status, 2);
    EXPECT_EQ(run_perftide("perft --depth 1 --epd").status, 2);
    EXPECT_EQ(run_perftide("perft --file /nonexistent/x --depth 1").status, 2);
    std::remove(in.c_str());
}

TEST(Suite, SkippedDepthsAreNamedNeverAPlainPass) {
    const std::string path = temp(".suite");
    std::ofstream(path) << "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66 ;D3 1197\n"
                        << "8/8/8/8/8/8/8/K6k w - - 0 1 ;D4 1000\n";
    const auto r = run_perftide("suite --backend cpu --max-depth 2 " + path);
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "partial")) << r.out;
    EXPECT_TRUE(contains(r.out, "checked depth 1,2; skipped depth 3")) << r.out;
    EXPECT_TRUE(contains(r.out, "0 passed, 1 partial (some depths skipped), 0 failed, 1 skipped")) << r.out;
    EXPECT_TRUE(contains(r.out, "2 depths checked, 2 skipped")) << r.out;
    // A count of one in the singular.
    const std::string one = temp(".one");
    std::ofstream(one) << "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15\n";
    const auto single = run_perftide("suite --backend cpu " + one);
    EXPECT_EQ(single.status, 0) << single.err;
    EXPECT_TRUE(contains(single.out, " 1 position; 1 depth checked, 0 skipped")) << single.out;
    std::remove(one.c_str());
    const auto j = run_perftide("suite --backend cpu --json --max-nodes 100 " + path);
    ASSERT_EQ(j.status, 0) << j.err;
    const auto rows = lines_of(j.out);
    ASSERT_EQ(rows.size(), 3u) << j.out;
    const testjson::Value first = testjson::parse(rows[0]);
    EXPECT_EQ(first["verdict"].text, "partial");
    EXPECT_EQ(first["checked"].items.size(), 2u);
    EXPECT_EQ(first["skipped"].items[0].text, "3");
    EXPECT_EQ(testjson::parse(rows[1])["verdict"].text, "skip");
    const testjson::Value sum = testjson::parse(rows[2])["summary"];
    EXPECT_EQ(sum["partial"].text, "1");
    EXPECT_EQ(sum["depths_skipped"].text, "2");
    std::remove(path.c_str());
}

TEST(Cli, StartposWorksWhereverAFenDoes) {
    EXPECT_EQ(run_perftide("perft --depth 2 --backend cpu --fen startpos").out, "Nodes searched: 400\n");
    const auto u = run_perftide("unique --depth 2 --json --fen startpos");
    EXPECT_EQ(testjson::parse(u.out)["fen"].text, chess::START_FEN);
    EXPECT_EQ(run_perftide("analyze --fen startpos").status, 0);
}

TEST(Cli, DivideIsSortedByMoveText) {
    const auto r = run_perftide("perft --depth 2 --divide --backend cpu");
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> moves;
    for (const std::string& l : lines_of(r.out))
        if (contains(l, ": ") && !l.starts_with("Nodes")) moves.push_back(l.substr(0, l.find(':')));
    ASSERT_EQ(moves.size(), 20u);
    EXPECT_TRUE(std::is_sorted(moves.begin(), moves.end())) << r.out;
}

namespace {

// Runs `perftide args` on a pseudo-terminal (its stdout and stderr, as in an
// interactive shell) until what it wrote matches `until` or `seconds` pass,
// then kills it; returns what it wrote.
std::string on_a_terminal(const std::string& args, const std::regex& until, double seconds) {
    int master = -1;
    const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
    if (pid < 0) return "forkpty failed";
    if (pid == 0) {
        const std::string command = std::string(PERFTIDE_BINARY) + " " + args;
        execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
        _exit(127);
    }
    std::string written;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
    while (std::chrono::steady_clock::now() < deadline && !std::regex_search(written, until)) {
        pollfd p{master, POLLIN, 0};
        if (poll(&p, 1, 100) <= 0) continue;
        char buf[4096];
        const ssize_t n = read(master, buf, sizeof buf);
        if (n <= 0) break;  // the child closed the terminal: it ended
        written.append(buf, size_t(n));
    }
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
    close(master);
    return written;
}

const std::string KIWIPETE_FEN = shell_quote("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1");

}  // namespace

// A plain perft of about ten seconds (Kiwipete perft 6 on one thread) draws
// its bar on the terminal, redrawn in place, with subtrees done, the rate
// and the ETA (seconds, minutes or hours: a slow build, under a sanitizer,
// shows 1m06s; "?" until the first subtree is done); the test stops it once
// a bar with an ETA has shown.
TEST(Progress, APlainPerftDrawsItsBarWithRateAndEtaOnATerminal) {
    const std::regex bar(
        R"(\r\[[#.]{20}\] [0-9]+/[0-9]+ subtrees  [0-9.]+ M nodes/s  ETA ([0-9]+s|[0-9]+m[0-9]{2}s|[0-9]+h[0-9]{2}m)\x1b\[K)");
    const std::string seen = on_a_terminal("perft --depth 6 --threads 1 --fen " + KIWIPETE_FEN, bar, 20);
    EXPECT_TRUE(std::regex_search(seen, bar)) << seen;
}

// Without a terminal nothing is drawn, unless --progress N asks for log
// lines: then whole lines, from perft, --stats, verify, perft --file, suite
// and analyze alike (each run stopped after 3 s).
TEST(Progress, LogLinesOnlyWhenAskedFor) {
    const auto logged = [](const std::string& args) {
        return run_shell("timeout -s KILL 3 " + std::string(PERFTIDE_BINARY) + " " + args).err;
    };
    const std::string quiet = logged("perft --depth 6 --threads 1 --fen " + KIWIPETE_FEN);
    EXPECT_EQ(quiet.find("perftide: ["), std::string::npos) << quiet;
    EXPECT_EQ(quiet.find('\r'), std::string::npos) << quiet;
    const std::string data = std::string(PERFTIDE_TEST_DATA);
    const std::string hard = temp("_cha.fen");  // CHA's positions without their verdicts
    ASSERT_EQ(run_shell("grep -v '^#' " + shell_quote(data + "/dead/chasolver-positions.txt") + " | cut -c4- >" + hard +
                        " && echo").status,
              0);
    // Each run lasts well past the 0.3 s of its first line: perft --file
    // and suite count the suite twenty times over (its 126 positions to
    // depth 5 take about a quarter of a second; a line comes as positions
    // finish).
    const std::string many = temp("_many.epd");
    ASSERT_EQ(run_shell("for i in $(seq 20); do cat " + shell_quote(data + "/perft/perftsuite.epd") + "; done >" + many +
                        " && echo")
                  .status,
              0);
    const std::pair<std::string, std::string> runs[] = {
        {"perft --depth 6 --threads 1 --progress 0.3 --fen " + KIWIPETE_FEN, " subtrees  "},
        {"perft --stats --depth 6 --threads 1 --progress 0.3 --fen " + KIWIPETE_FEN, " subtrees  "},
        {"verify -n 1000000 --depth 3 --threads 1 --progress 0.3", "/1000000 samples  "},
        {"perft --file " + many + " --depth 5 --threads 1 --progress 0.3", "/2520 positions  "},
        {"suite " + many + " --max-depth 5 --threads 1 --progress 0.3", "/2520 positions  "},
        {"analyze --threads 1 --progress 0.3 --file " + hard, "/3414 positions  "},
    };
    for (const auto& [args, unit] : runs) {
        const std::string err = logged(args);
        EXPECT_NE(err.find("perftide: ["), std::string::npos) << args << ": " << err;
        EXPECT_NE(err.find(unit), std::string::npos) << args << ": " << err;
        EXPECT_NE(err.find("ETA "), std::string::npos) << args << ": " << err;
        EXPECT_EQ(err.find('\r'), std::string::npos) << args << ": " << err;
    }
    std::remove(hard.c_str());
    std::remove(many.c_str());
}
