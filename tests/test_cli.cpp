// The command line as users meet it: outputs, formats and exit statuses.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>

#include "support/run_process.hpp"
#include "verify/reference.hpp"

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST(Cli, PerftPrintsNodesSearched) {
    const auto r = run_perftide("perft --depth 4 --backend cpu");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "Nodes searched: 197281\n");
}

TEST(Cli, DivideUsesStockfishFormat) {
    const auto r = run_perftide("perft --depth 3 --divide --backend cpu");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "e2e4: 600\n"));
    EXPECT_TRUE(contains(r.out, "g1f3: 440\n"));
    EXPECT_TRUE(r.out.ends_with("\n\nNodes searched: 8902\n")) << r.out;
    int lines = 0;
    for (char c : r.out) lines += c == '\n';
    EXPECT_EQ(lines, 20 + 2);
}

TEST(Cli, JsonHasTheDocumentedFields) {
    const auto r = run_perftide("perft --depth 2 --json --divide --backend cpu --fen " +
                              shell_quote("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"));
    ASSERT_EQ(r.status, 0) << r.err;
    for (const char* field : {"\"fen\": \"8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1\"", "\"depth\": 2",
                              "\"nodes\": 191", "\"seconds\": ", "\"nps\": ", "\"divide\": {", "\"b4b1\": "})
        EXPECT_TRUE(contains(r.out, field)) << field << " missing from " << r.out;
}

TEST(Cli, MovesArePlayedBeforeCounting) {
    const auto r = run_perftide("perft --depth 1 --backend cpu --moves " + shell_quote("e2e4 e7e5 g1f3"));
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "Nodes searched: 29\n");
}

struct BadInvocation {
    const char* args;
    const char* message;
};

class CliRefusal : public testing::TestWithParam<BadInvocation> {};

std::string case_name(const testing::TestParamInfo<BadInvocation>& info) { return "case" + std::to_string(info.index); }

TEST_P(CliRefusal, ExitsTwoWithAMessage) {
    const auto r = run_perftide(GetParam().args);
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, GetParam().message)) << "stderr: " << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(BadInput, CliRefusal, testing::Values(
    BadInvocation{"perft", "--depth is required"},
    BadInvocation{"perft --depth x", "--depth"},
    BadInvocation{"perft --depth -1", "--depth"},
    BadInvocation{"perft --depth 2 --threads 0", "--threads"},
    BadInvocation{"perft --depth 2 --backend tpu", "--backend"},
    BadInvocation{"perft --depth 2 --fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1'", "unknown piece letter 'X'"},
    BadInvocation{"perft --depth 2 --fen '8/8/8/8/8/8/8/K7 w - - 0 1'", "Black has 0 kings"},
    BadInvocation{"perft --depth 2 --moves 'e2e5'", "move 'e2e5' is not legal"},
    BadInvocation{"perft --depth 2 --moves 'zz'", "move 'zz' is not UCI move text"},
    BadInvocation{"suite /nonexistent/file.epd", "file.epd"},
    BadInvocation{"perft --depth 1 --fen '4k3/8/8/8/8/8/8/4K2R w HA -'", "castling right 'A' but no White rook on a1"},
    BadInvocation{"perft --depth 1 --fen '4k3/8/8/8/8/8/8/R3K2R w KQkq -'", "castling right 'k' but no Black rook on rank 8"},
    BadInvocation{"perft --depth 1 --moves e1h1 --fen '4k3/8/8/8/8/8/8/4K1R1 w G -'", "move 'e1h1' is not legal"},
    BadInvocation{"perftree", "depth is required"},
    BadInvocation{"perftree 2", "fen is required"},
    BadInvocation{"perftree 31 '4k3/8/8/8/8/8/8/4K3 w - - 0 1'", "depth"},
    BadInvocation{"perftree 2 '4k3/8/8/8/8/8/8/4K3 w - -  0 x'", "fullmove number"},
    BadInvocation{"perftree 2 '4k3/8/8/8/8/8/8/4K3 w - - 0 1' 'e1e2 e8e6'", "move 'e8e6' is not legal"},
    BadInvocation{"perftree 2 '4k3/8/8/8/8/8/8/4K3 w - - 0 1' 'e1e2' extra", "extra"},
    BadInvocation{"verify --depth 9", "--depth"},
    BadInvocation{"verify --seed -1", "--seed: '-1' is not a 64-bit number"},
    BadInvocation{"perft --depth 1 --device-memory 10", "--device-memory: Value 10 not in range 64"},
    BadInvocation{"perft --depth 1 --device -1", "--device"},
    BadInvocation{"unique --depth 1 --device-memory x", "--device-memory"},
    BadInvocation{"suite /dev/null --max-nodes 0", "--max-nodes: '0' is not a node count of 1 or more"},
    BadInvocation{"suite /dev/null --max-nodes nan", "--max-nodes: 'nan' is not a node count of 1 or more"},
    BadInvocation{"perft --depth 1 --fen '8/8/8/8/8/8/8/44K2k w - - 0 1'", "rank 1 has two digits in a row"},
    BadInvocation{"verify --positions 0", "--positions"},
    BadInvocation{"verify --suite /nonexistent/file.epd", "file.epd"},
    BadInvocation{"compare --engine x --depth 0", "--depth"},
    BadInvocation{"compare --engine '' --depth 1", "--engine: the engine command is empty"},
    BadInvocation{"compare --engine '  ' --depth 1", "--engine: the engine command is empty"},
    BadInvocation{"perft --depth 31", "--depth"},
    BadInvocation{"suite /dev/null --max-depth 31", "--max-depth"},
    BadInvocation{"compare --engine x --depth 1 --timeout 0", "--timeout"},
    BadInvocation{"frobnicate", "frobnicate"},
    BadInvocation{"perft --depth 1 --threads abc", "--threads: 'abc' is not a number of threads"},
    BadInvocation{"bench --threads 2x", "--threads: '2x' is not a number of threads"},
    BadInvocation{"perft --depth 1 --progress nan", "--progress: 'nan' is not a number of seconds greater than 0"},
    BadInvocation{"perft --depth 1 --progress inf", "--progress: 'inf' is not a number of seconds greater than 0"},
    BadInvocation{"perft --depth 1 --progress 0", "--progress: '0' is not a number of seconds greater than 0"}), case_name);
// clang-format on

// Runs `perftide perftree 2 FEN "M1 M2"` and checks what it prints against
// the reference: the divide after the two moves in the mode's notation,
// sorted, a blank line, the total. Returns the output.
std::string perftree_against_reference(const std::string& fen, const std::string& m1, const std::string& m2,
                                       bool chess960) {
    const auto r = run_perftide("perftree 2 " + shell_quote(fen) + " " + shell_quote(m1 + " " + m2) + " --backend cpu");
    EXPECT_EQ(r.status, 0) << r.err;
    namespace ref = perftide::reference;
    const ref::Board b = ref::play_uci(ref::play_uci(ref::parse_fen(fen), m1), m2);
    std::vector<std::string> expected;
    uint64_t total = 0;
    for (const ref::Move& m : ref::legal_moves(b)) {
        const uint64_t n = ref::perft(ref::play(b, m), 1);
        expected.push_back(ref::uci(m, chess960) + " " + std::to_string(n) + "\n");
        total += n;
    }
    std::sort(expected.begin(), expected.end());
    std::string text;
    for (const auto& line : expected) text += line;
    EXPECT_EQ(r.out, text + "\n" + std::to_string(total) + "\n");
    return r.out;
}

TEST(Cli, PerftreeSpeaksTheScriptProtocol) {
    // perftree runs `script DEPTH FEN MOVES` and reads "move count" lines, a
    // blank line and the total; the counts here come from the reference.
    perftree_against_reference("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", "e1g1", "a6e2",
                               false);
}

// Chess960: castling is written king takes rook, as Stockfish writes it with
// UCI_Chess960, and MOVES may castle either way.
TEST(Cli, PerftreeSpeaksChess960) {
    const std::string out =
        perftree_against_reference("rkr5/pppppppp/8/8/8/8/PPPPPPPP/RKR5 w CAca - 0 1", "a2a3", "b8c8", true);
    EXPECT_TRUE(contains(out, "b1c1 ")) << out;  // White castles over its c1 rook
    // --chess960 writes standard castling the same way.
    const auto std960 = run_perftide("perftree 1 " + shell_quote("4k3/8/8/8/8/8/8/4K2R w K - 0 1") + " '' --chess960");
    EXPECT_TRUE(contains(std960.out, "e1h1 1\n")) << std960.out;
}

TEST(Cli, FensAreWrittenInXFenOrShredderFen) {
    const std::string fen = "'bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9'";
    const auto xfen = run_perftide("perft --depth 1 --json --fen " + fen);
    EXPECT_TRUE(contains(xfen.out, "BQ1BNRKR w KQkq - 2 9")) << xfen.out;
    const auto shredder = run_perftide("perft --depth 1 --json --shredder-fen --fen " + fen);
    EXPECT_TRUE(contains(shredder.out, "BQ1BNRKR w HFhf - 2 9")) << shredder.out;
}

TEST(Cli, PerftreeWithoutMoves) {
    const auto r = run_perftide("perftree 1 " + shell_quote("4k3/8/8/8/8/8/8/4K3 w - - 0 1") + " ''");
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "e1d1 1\ne1d2 1\ne1e2 1\ne1f1 1\ne1f2 1\n\n5\n");
}

TEST(Cli, UnknownBackendIsNamed) {
    const auto r = run_perftide("perft --depth 1 --backend xyz");
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "'xyz' is not a backend: use cpu, gpu or auto")) << r.err;
    const auto upper = run_perftide("perft --depth 1 --backend CPU");
    EXPECT_EQ(upper.status, 0) << upper.err;
    EXPECT_TRUE(contains(upper.out, "Nodes searched: 20")) << upper.out;
}

TEST(Cli, GpuBackendWithoutADeviceExitsTwo) {
    const auto r = run_perftide("perft --depth 2 --backend gpu");
    if (r.status == 0) GTEST_SKIP() << "a CUDA device is present here";
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "--backend gpu:")) << r.err;
    // On a machine with no NVIDIA driver, that is what it says.
    if (access("/proc/driver/nvidia/version", F_OK) != 0 && !contains(r.err, "without CUDA")) {
        EXPECT_TRUE(contains(r.err, "--backend gpu: no CUDA device found")) << r.err;
    }
}

// --device N picks the N-th GPU the runtime may see (CUDA_VISIBLE_DEVICES'
// list when set); a number past that list is refused before anything runs.
TEST(Cli, DeviceChoiceIsCheckedAgainstTheVisibleDevices) {
    const auto ok = run_shell("CUDA_VISIBLE_DEVICES=3,5 " + std::string(PERFTIDE_BINARY) +
                              " perft --depth 2 --device 1 --backend cpu");
    EXPECT_EQ(ok.status, 0) << ok.err;
    const auto bad = run_shell("CUDA_VISIBLE_DEVICES=3 " + std::string(PERFTIDE_BINARY) + " perft --depth 2 --device 1");
    EXPECT_EQ(bad.status, 2) << bad.err;
    EXPECT_TRUE(contains(bad.err, "--device: 1: CUDA_VISIBLE_DEVICES='3' lists 1 devices")) << bad.err;
}

TEST(Cli, SuiteReportsTheFirstFailure) {
    const std::string path = "/tmp/perftide_bad_suite.epd";
    {
        std::ofstream f(path);
        f << "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 66\r\n";
        f << "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 15 ;D2 67\r\n";
    }
    const auto r = run_perftide("suite --backend cpu " + path);
    EXPECT_EQ(r.status, 1);
    EXPECT_TRUE(contains(r.out, "first failure: line 2")) << r.out;
    EXPECT_TRUE(contains(r.out, "depth 2: expected 67, got 66")) << r.out;
    std::remove(path.c_str());
}

TEST(Cli, SuiteRefusesMalformedLines) {
    const std::string path = "/tmp/perftide_malformed_suite.epd";
    {
        std::ofstream f(path);
        f << "4k3/8/8/8/8/8/8/4K2R w K - 0 1 ;D1 fifteen\n";
    }
    const auto r = run_perftide("suite " + path);
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "line 1: bad node count 'fifteen'")) << r.err;
    std::remove(path.c_str());
}

TEST(Cli, DefaultJobChecksThePublishedCount) {
    const auto r = run_perftide("");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "match")) << r.out;
    EXPECT_TRUE(contains(r.out, "nodes/s")) << r.out;
}

// A result that cannot be written is an error: exit 4 with the stream or
// file named, never exit 0 (here /dev/full, and a file past `ulimit -f`).
class CliWriteFailure : public testing::TestWithParam<const char*> {};

TEST_P(CliWriteFailure, ExitsFourNamingTheStream) {
    const auto r = run_shell("{ " + std::string(PERFTIDE_BINARY) + " " + GetParam() + " > /dev/full; }");
    EXPECT_EQ(r.status, 4) << GetParam() << "\n" << r.err;
    EXPECT_TRUE(contains(r.err, "writing the result to standard output failed")) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Commands, CliWriteFailure,
    testing::Values("perft --depth 4 --divide --backend cpu", "perft --depth 3 --json --backend cpu",
                    "perft --depth 3 --stats --backend cpu", "perft --depth 7 --backend cpu --split 2 --quiet",
                    "perftree 3 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'",
                    "analyze --fen 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1' --json",
                    "unique --depth 3 --backend cpu", "verify --positions 20 --depth 1",
                    "suite " PERFTIDE_TEST_DATA "/perft/cpw_positions.epd --max-depth 2 --backend cpu", "--help"),
    [](const testing::TestParamInfo<const char*>& i) { return "case" + std::to_string(i.index); });

TEST(Cli, EmittedFileThatCannotBeWrittenIsAnError) {
    auto r = run_perftide("unique --depth 4 --backend cpu --emit mates /dev/full");
    EXPECT_EQ(r.status, 4) << r.err;
    EXPECT_TRUE(contains(r.err, "--emit: writing /dev/full failed: No space left on device")) << r.err;
    // Past a file size limit (the signal ignored, so the write fails instead).
    const std::string file = "/tmp/perftide_emit_" + std::to_string(getpid()) + ".txt";
    r = run_shell("trap '' XFSZ; ulimit -f 2; " + std::string(PERFTIDE_BINARY) +
                  " unique --depth 5 --backend cpu --emit mates " + file);
    std::remove(file.c_str());
    EXPECT_EQ(r.status, 4) << r.err;
    EXPECT_TRUE(contains(r.err, "--emit: writing " + file + " failed: File too large")) << r.err;
}

// Inputs without end and files that are not files are refused, never read
// into memory without bound or waited on forever.
TEST(Cli, EndlessInputsAndNonFilesAreRefused) {
    struct Case {
        std::string args, message;
    };
    const std::string fifo = "/tmp/perftide_fifo_" + std::to_string(getpid());
    ASSERT_EQ(run_shell("rm -f " + fifo + " && mkfifo " + fifo).status, 0);
    const std::string text = "/tmp/perftide_text_" + std::to_string(getpid());
    ASSERT_EQ(run_shell("{ printf 'hello\\nworld\\n' > " + text + "; }").status, 0);
    for (const Case& c : {Case{"suite /dev/zero", "suite file '/dev/zero' line 1 holds a NUL byte"},
                          Case{"analyze --file /dev/zero", "/dev/zero line 1 holds a NUL byte"},
                          Case{"suite /dev/urandom", "suite file '/dev/urandom' line "},
                          Case{"perft --depth 3 --journal /dev/zero", "journal /dev/zero is not a regular file"},
                          Case{"perft --depth 3 --journal " + fifo, "is not a regular file"},
                          Case{"perft --depth 3 --journal ''", "--journal: the file name is empty"},
                          Case{"perft --depth 3 --journal " + text, "is not a perftide journal"}}) {
        const auto r = run_shell("timeout 20 " + std::string(PERFTIDE_BINARY) + " " + c.args);
        EXPECT_EQ(r.status, 2) << c.args << "\n" << r.err;
        EXPECT_TRUE(contains(r.err, c.message)) << c.args << "\n" << r.err;
    }
    EXPECT_EQ(slurp(text), "hello\nworld\n");  // left as it was
    std::remove(fifo.c_str());
    std::remove(text.c_str());
}

// Binary input to analyze --file: the JSON stays valid UTF-8 (checked by
// iconv), the bad bytes escaped.
TEST(Cli, AnalyzeJsonStaysUtf8OnBinaryInput) {
    const std::string file = "/tmp/perftide_binary_" + std::to_string(getpid());
    ASSERT_EQ(run_shell("{ printf '\\351t\\351 \\377\\376\\n\\303\\251\\n' > " + file + "; }").status, 0);
    const auto r = run_perftide("analyze --json --file " + file);
    std::remove(file.c_str());
    EXPECT_EQ(r.status, 2) << r.err;  // the lines are not FEN
    const std::string out_file = file + ".json";
    {
        std::FILE* f = std::fopen(out_file.c_str(), "wb");
        ASSERT_TRUE(f);
        std::fwrite(r.out.data(), 1, r.out.size(), f);
        std::fclose(f);
    }
    EXPECT_EQ(run_shell("iconv -f UTF-8 -t UTF-8 " + out_file).status, 0) << r.out;
    std::remove(out_file.c_str());
    EXPECT_TRUE(contains(r.out, "\\u00e9t\\u00e9 \\u00ff\\u00fe")) << r.out;
    EXPECT_TRUE(contains(r.out, "\"fen\": \"\xc3\xa9\"")) << r.out;  // valid UTF-8 passes through
}
