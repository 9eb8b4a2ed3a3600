// Every file perftide reads is read the same way (line_reader.hpp): a byte
// order mark skipped, LF, CRLF and CR endings alike, NUL refused with its
// line; suite files keeping EPD metadata, refusing what they cannot check,
// and never passing on nothing; outputs that are one file refused.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "inputs/line_reader.hpp"
#include "inputs/suite.hpp"
#include "support/run_process.hpp"

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string temp(const std::string& name) { return "/tmp/perftide_inputs_" + std::to_string(getpid()) + name; }

// Writes `text` as the bytes of a new file and returns its path.
std::string file_with(const std::string& name, const std::string& text) {
    const std::string path = temp(name);
    std::ofstream(path, std::ios::binary) << text;
    return path;
}

std::vector<std::string> read_all(const std::string& text) {
    std::istringstream in(text);
    perftide::LineReader reader(in, "input");
    std::vector<std::string> lines;
    for (std::string line; reader.next(line);) lines.push_back(line);
    return lines;
}

const std::string BOM = "\xEF\xBB\xBF";
const std::string KRK = "4k3/8/8/8/8/8/8/4K2R w K - 0 1";  // perft 1: 15, perft 2: 66

}  // namespace

TEST(LineReader, EveryLineEndAndTheByteOrderMark) {
    const std::vector<std::string> want = {"a", "b", "", "c"};
    EXPECT_EQ(read_all("a\nb\n\nc\n"), want);
    EXPECT_EQ(read_all("a\r\nb\r\n\r\nc"), want);
    EXPECT_EQ(read_all("a\rb\r\rc\r"), want);
    EXPECT_EQ(read_all("a\r\nb\n\rc"), want);
    EXPECT_EQ(read_all(BOM + "a\nb\n\nc\n"), want);
    EXPECT_EQ(read_all("a\n" + BOM + "b\n").at(1), BOM + "b");  // only a first line's mark is one
    EXPECT_EQ(read_all(BOM), std::vector<std::string>{});
}

TEST(LineReader, NulAndEndlessLinesAreRefusedWithTheirLine) {
    try {
        read_all("a\nb\n" + std::string("c\0d", 3) + "\n");
        FAIL() << "a NUL byte was read";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), "input line 3 holds a NUL byte (binary input?)");
    }
    try {
        read_all("a\r\n" + std::string(70000, 'x'));
        FAIL() << "a line over 64 KiB was read";
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), "input line 2 is longer than 64 KiB");
    }
}

TEST(Inputs, ByteOrderMarkAndLineEndsInEveryFileCommand) {
    const std::string suite = file_with(".epd", BOM + KRK + " ;D1 15\r\n" + KRK + " ;D2 66\r" + KRK + " ;D1 15\n");
    const auto s = run_perftide("suite --backend cpu " + suite);
    EXPECT_EQ(s.status, 0) << s.out << s.err;
    EXPECT_TRUE(contains(s.out, "3 passed")) << s.out;
    const auto p = run_perftide("perft --backend cpu --depth 1 --file " + suite);
    EXPECT_EQ(p.status, 0) << p.err;
    EXPECT_EQ(count_lines(p.out), 3) << p.out;
    // CR-only endings: every position is its own line.
    const std::string cr = file_with(".cr", BOM + KRK + "\r8/8/8/8/8/8/8/K6k w - - 0 1\r");
    const auto a = run_perftide("analyze --json --no-search --file " + cr);
    EXPECT_EQ(a.status, 0) << a.err;
    EXPECT_EQ(count_lines(a.out), 2) << a.out;
    EXPECT_TRUE(contains(a.out, "\"line\": 2")) << a.out;
    // A NUL byte: the line named, exit 2.
    const std::string nul = file_with(".nul", KRK + " ;D1 15\n" + std::string("8/8/8/8/8/8/8/K6k w\0 - - 0 1\n", 29));
    for (const std::string& cmd : {"analyze --file " + nul, "perft --depth 1 --backend cpu --file " + nul,
                                   "suite --backend cpu " + nul}) {
        const auto r = run_perftide(cmd);
        EXPECT_EQ(r.status, 2) << cmd;
        EXPECT_TRUE(contains(r.err, nul + "' line 2 holds a NUL byte") || contains(r.err, nul + " line 2 holds a NUL byte"))
            << cmd << "\n" << r.err;
    }
    for (const auto& f : {suite, cr, nul}) std::remove(f.c_str());
}

TEST(Inputs, SuiteKeepsEpdOperationsAsMetadata) {
    const std::string suite =
        file_with(".epd", "4k3/8/8/8/8/8/8/4K2R w K - bm Kf2; id \"rook ending\"; D1 15; c0 \"a comment\";\n" + KRK +
                              " ;D2 66 ;acd 12\n");
    const auto r = run_perftide("suite --backend cpu --json " + suite);
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "\"id\": \"rook ending\"")) << r.out;
    EXPECT_TRUE(contains(r.out, "\"operations\": \"bm Kf2; c0 \\\"a comment\\\"\"")) << r.out;
    EXPECT_TRUE(contains(r.out, "\"operations\": \"acd 12\"")) << r.out;
    EXPECT_TRUE(contains(r.out, "\"passed\": 2")) << r.out;
    std::remove(suite.c_str());
}

// What cannot be checked is refused, named by file, line and depth.
TEST(Inputs, SuiteRefusesDepthsBeyondPerftAndNamesItsFile) {
    for (const std::string depth : {"31", "64", "65", "999"}) {
        const std::string suite = file_with(".epd", KRK + " ;D1 15\n" + KRK + " ;D" + depth + " 5\n");
        const auto r = run_perftide("suite --backend cpu " + suite);
        EXPECT_EQ(r.status, 2) << depth;
        EXPECT_TRUE(contains(r.err, "suite file '" + suite + "' line 2: ")) << r.err;
        EXPECT_TRUE(contains(r.err, "depth " + depth + " is deeper than perft counts (at most 30)") ||
                    contains(r.err, "bad depth '" + depth + "'"))
            << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
        std::remove(suite.c_str());
    }
}

// A deep count expected below what one subtree alone holds (a typo like
// ";D30 5") fails at once instead of running for ever.
TEST(Inputs, SuiteTypoDeepCountFailsAtOnce) {
    const std::string suite = file_with(".epd", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 ;D1 20 ;D30 5\n");
    const auto r = run_shell("timeout 120 " + std::string(PERFTIDE_BINARY) + " suite --backend cpu " + suite);
    EXPECT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "depth 30: expected 5, but one subtree 5 plies deep alone has")) << r.out;
    std::remove(suite.c_str());
}

// A suite that checked nothing proves nothing: exit 2, never a green job.
TEST(Inputs, SuiteThatChecksNothingFails) {
    const std::string empty = file_with(".empty", "");
    const std::string comments = file_with(".comments", BOM + "# nothing here\r\n\r\n");
    const std::string suite = file_with(".epd", KRK + " ;D1 15 ;D2 66\n");
    for (const std::string& file : {empty, comments}) {
        const auto r = run_perftide("suite --backend cpu " + file);
        EXPECT_EQ(r.status, 2) << file << r.out;
        EXPECT_TRUE(contains(r.err, "holds no entries")) << r.err;
    }
    const auto zero = run_perftide("suite --backend cpu --max-depth 0 " + suite);
    EXPECT_EQ(zero.status, 2) << zero.out;
    EXPECT_TRUE(contains(zero.err, "nothing was checked")) << zero.err;
    EXPECT_TRUE(contains(zero.out, "skipped depth 1,2 (--max-depth)")) << zero.out;
    // Skipped depths name the limit that skipped them, and only it.
    const auto nodes = run_perftide("suite --backend cpu --max-nodes 20 " + suite);
    EXPECT_EQ(nodes.status, 0) << nodes.err;
    EXPECT_TRUE(contains(nodes.out, "skipped depth 2 (--max-nodes)")) << nodes.out;
    for (const auto& f : {empty, comments, suite}) std::remove(f.c_str());
}

// Ids need not be unique: the failure names its line.
TEST(Inputs, SuiteFailureNamesItsLineWhateverTheIds) {
    const std::string suite = file_with(".perft", "id 0\nepd " + KRK + "\nperft 1 15\n\nid 0\nepd " + KRK + "\nperft 2 67\n");
    const auto r = run_perftide("suite --backend cpu " + suite);
    EXPECT_EQ(r.status, 1) << r.err;
    EXPECT_TRUE(contains(r.out, "first failure: line 6 (id 0) (" + KRK + ") at depth 2: expected 67, got 66")) << r.out;
    std::remove(suite.c_str());
}

TEST(Inputs, SuiteWithTwoCountsForOneDepthIsBadInput) {
    const std::string suite = file_with(".epd", KRK + " ;D1 15 ;D1 16\n");
    const auto r = run_perftide("suite --backend cpu " + suite);
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, "line 1: two counts for depth 1")) << r.err;
    std::remove(suite.c_str());
}

TEST(Inputs, ParseSuiteNamesWhatItReads) {
    std::istringstream in("\n" + KRK + " ;D1 x\n");
    try {
        perftide::parse_suite(in, "suite file 'mine.epd'");
        FAIL() << "a bad count was read";
    } catch (const perftide::SuiteError& e) {
        EXPECT_EQ(std::string(e.what()), "suite file 'mine.epd' line 2: bad node count 'x'");
    }
}

TEST(Inputs, OneFileForTwoOutputsIsRefused) {
    const std::string f = temp(".emit");
    for (const std::string& second : {f, "/tmp/./" + f.substr(5)}) {
        const auto r = run_perftide("unique --depth 4 --backend cpu --emit mates " + f + " --emit stalemates " + second);
        EXPECT_EQ(r.status, 2) << r.err;
        EXPECT_TRUE(contains(r.err, "are one file")) << r.err;
        EXPECT_TRUE(r.out.empty()) << r.out;
    }
    std::ofstream(f) << "";  // an existing file, and a second name for it
    const std::string link = f + ".link";
    ASSERT_EQ(::link(f.c_str(), link.c_str()), 0);
    const auto linked = run_perftide("unique --depth 3 --backend cpu --emit mates " + f + " --emit dead " + link);
    EXPECT_EQ(linked.status, 2) << linked.err;
    EXPECT_TRUE(contains(linked.err, "are one file")) << linked.err;
    // Two files are two files.
    const auto two = run_perftide("unique --depth 4 --backend cpu --emit mates " + f + " --emit stalemates " + link + ".2");
    EXPECT_EQ(two.status, 0) << two.err;
    EXPECT_EQ(count_lines(slurp(f)), 4);  // the four mates of ply 4
    for (const auto& p : {f, link, link + ".2"}) std::remove(p.c_str());
}

TEST(Inputs, PerftFileNamesEveryOptionItTakes) {
    const auto r = run_perftide("perft --file /dev/null --depth 1 --divide");
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "--shredder-fen")) << r.err;
}

TEST(Inputs, PerftreeDepthZeroAsPerft) {
    const auto r = run_perftide("perftree 0 '" + KRK + "'");
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out, "\n1\n");
}
