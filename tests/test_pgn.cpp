// PGN in: the SAN reader against the move generator, the PGN reader's
// syntax (comments, variations, NAGs, escapes, tags), games replayed to the
// final positions python-chess gives, compressed input, and analyze --pgn
// --timeouts against the CHA labels, each helpmate replayed by the
// independent reference generator.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>

#include "chess/identity.hpp"
#include "chess/io/fen.hpp"
#include "chess/io/san.hpp"
#include "inputs/suite.hpp"
#include "pgn/game_replay.hpp"
#include "pgn/pgn_reader.hpp"
#include "support/json_reader.hpp"
#include "support/run_process.hpp"
#include "verify/reference.hpp"

namespace ref = perftide::reference;

namespace {

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

std::string data(const std::string& name) { return std::string(PERFTIDE_TEST_DATA) + "/pgn/" + name; }

std::vector<perftide::pgn::Game> games_of(const std::string& text) {
    std::istringstream in(text);
    perftide::pgn::Reader reader(in, "test");
    std::vector<perftide::pgn::Game> out;
    for (perftide::pgn::Game g; reader.next(g);) out.push_back(g);
    return out;
}

std::vector<perftide::pgn::Game> games_in(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    perftide::pgn::Reader reader(in, path);
    std::vector<perftide::pgn::Game> out;
    for (perftide::pgn::Game g; reader.next(g);) out.push_back(g);
    return out;
}

chess::Move san(const std::string& fen, const std::string& text) { return chess::parse_san(chess::parse_fen(fen), text); }

}  // namespace

TEST(San, ReadsWhatPgnWritersWrite) {
    const std::string start = chess::START_FEN;
    EXPECT_EQ(chess::move_to_uci(san(start, "e4"), false), "e2e4");
    EXPECT_EQ(chess::move_to_uci(san(start, "Nf3"), false), "g1f3");
    EXPECT_EQ(chess::move_to_uci(san(start, "Ng1-f3"), false), "g1f3");
    EXPECT_EQ(chess::move_to_uci(san(start, "e2-e4!?"), false), "e2e4");
    EXPECT_EQ(chess::move_to_uci(san(start, "e2e4"), false), "e2e4");
    const std::string kiwi = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    EXPECT_EQ(chess::move_to_uci(san(kiwi, "O-O"), false), "e1g1");
    EXPECT_EQ(chess::move_to_uci(san(kiwi, "0-0-0"), false), "e1c1");
    EXPECT_EQ(chess::move_to_uci(san(kiwi, "Bxa6"), false), "e2a6");
    EXPECT_EQ(chess::move_to_uci(san(kiwi, "B:a6"), false), "e2a6");
    EXPECT_EQ(chess::move_to_uci(san(kiwi, "Nxf7"), false), "e5f7");
    EXPECT_EQ(chess::move_to_uci(san(kiwi, "Qxh3"), false), "f3h3");
    EXPECT_EQ(chess::move_to_uci(san(kiwi, "Ncb5"), false), "c3b5");  // disambiguated by file
    EXPECT_EQ(chess::move_to_uci(san(kiwi, "gxh3"), false), "g2h3");
    const std::string ep = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
    EXPECT_EQ(chess::move_to_uci(san(ep, "exd6"), false), "e5d6");
    EXPECT_EQ(chess::move_to_uci(san(ep, "exd6 e.p."), false), "e5d6");
    const std::string promo = "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    EXPECT_EQ(chess::move_to_uci(san(promo, "a8=Q+"), false), "a7a8q");
    EXPECT_EQ(chess::move_to_uci(san(promo, "axb8N"), false), "a7b8n");
    EXPECT_EQ(chess::move_to_uci(san(promo, "axb8=R+"), false), "a7b8r");
    // Chess960: O-O is the king to g, whatever its file.
    const auto c960 = chess::parse_fen("4k3/8/8/8/8/8/8/1K5R w H - 0 1");
    EXPECT_EQ(chess::move_to_uci(chess::parse_san(c960, "O-O"), true), "b1h1");
}

TEST(San, RefusesWhatNamesNoOneLegalMove) {
    const std::string start = chess::START_FEN;
    for (const char* bad : {"", "e5", "Nf4", "O-O", "Ke2", "xx", "e8=Q", "Qd4", "Nd2=Q", "e9", "Z4"})
        EXPECT_THROW(san(start, bad), std::invalid_argument) << bad;
    const std::string two_knights = "4k3/8/8/8/8/8/8/2N1K1N1 w - - 0 1";
    try {
        san(two_knights, "Ne2");
        FAIL();
    } catch (const std::invalid_argument& e) {
        EXPECT_TRUE(contains(e.what(), "is ambiguous")) << e.what();
    }
    EXPECT_EQ(chess::move_to_uci(san(two_knights, "Nce2"), false), "c1e2");
    const std::string promo = "1r2k3/P7/8/8/8/8/8/4K3 w - - 0 1";
    EXPECT_THROW(san(promo, "a8"), std::invalid_argument);  // a promotion needs its piece
}

// Every legal move of every suite position, two plies deep, written as SAN
// and read back: the same move.
TEST(San, EveryMoveRoundTripsThroughItsSan) {
    const auto at = chess::host_attacks();
    size_t checked = 0;
    for (const auto& e : perftide::read_suite_file(std::string(PERFTIDE_TEST_DATA) + "/perft/perftsuite.epd")) {
        const chess::Position root = chess::parse_fen(e.fen);
        chess::MoveList first;
        chess::generate_moves(root, at, first);
        std::vector<chess::Position> positions{root};
        for (chess::Move m : first) positions.push_back(chess::apply_move(root, m));
        for (const auto& p : positions) {
            chess::MoveList list;
            chess::generate_moves(p, at, list);
            for (chess::Move m : list) {
                const std::string text = chess::move_to_san(p, m);
                ASSERT_EQ(chess::parse_san(p, text), m) << chess::to_fen(p) << " " << text;
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 20000u);
}

TEST(PgnReader, SkipsCommentsVariationsNagsAndEscapes) {
    const auto g = games_of(
        "% an escape line\n[Event \"a \\\"quoted\\\" name\"]\n[White \"x\"]\n\n"
        "1. e4 {a comment\nover [two] lines} e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 $1 Nc6 ; rest of line\n"
        "3.Bb5 a6 4. Ba4!? {last words} 1/2-1/2\n"
        "[Event \"second\"]\n1. d4 d5\n\n[Event \"third\"]\n\n1. c4 *\n");
    ASSERT_EQ(g.size(), 3u);
    EXPECT_EQ(g[0].tag("Event"), "a \"quoted\" name");
    EXPECT_EQ(g[0].moves, (std::vector<std::string>{"e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4!?"}));
    EXPECT_EQ(g[0].result, "1/2-1/2");
    EXPECT_EQ(g[0].last_comment, "last words");
    EXPECT_TRUE(g[0].error.empty()) << g[0].error;
    EXPECT_EQ(g[1].moves, (std::vector<std::string>{"d4", "d5"}));  // ended by the next game's tags
    EXPECT_EQ(g[1].result, "");
    EXPECT_EQ(g[1].number, 2u);
    EXPECT_EQ(g[2].tag("Event"), "third");
    EXPECT_EQ(g[2].line, 11u);
}

TEST(PgnReader, BrokenGamesAreNamedAndReadingGoesOn) {
    const auto g = games_of("[Event \"x\" junk\n1. e4 *\n[Event \"ok\"]\n1. e4 ) e5 *\n[Event \"y\"]\n1. e4 {never closed\n");
    ASSERT_EQ(g.size(), 3u);
    EXPECT_TRUE(contains(g[0].error, "line 1: malformed tag pair")) << g[0].error;
    EXPECT_TRUE(contains(g[1].error, "')' without its '('")) << g[1].error;
    EXPECT_TRUE(contains(g[2].error, "ends inside a {comment}")) << g[2].error;
}

// Import format lets a line hold several tag pairs: every one is read, and
// a tag line that goes on with moves is refused rather than cut short.
TEST(PgnReader, ReadsEveryTagPairOfALine) {
    const auto g = games_of("[Event \"a\"] [Result \"1-0\"]\t[Termination \"Time forfeit\"] ; a comment\n"
                            "[FEN \"3k2r1/8/8/8/8/8/8/3K4 w - - 0 1\"][SetUp \"1\"]\n\n1-0\n"
                            "[Event \"b\"] 1. e4 *\n");
    ASSERT_EQ(g.size(), 2u);
    EXPECT_TRUE(g[0].error.empty()) << g[0].error;
    EXPECT_EQ(g[0].tag("Event"), "a");
    EXPECT_EQ(g[0].tag("Result"), "1-0");
    EXPECT_EQ(g[0].tag("Termination"), "Time forfeit");
    EXPECT_EQ(g[0].tag("FEN"), "3k2r1/8/8/8/8/8/8/3K4 w - - 0 1");
    EXPECT_EQ(g[0].tag("SetUp"), "1");
    EXPECT_TRUE(contains(g[1].error, "line 5: text after a tag pair")) << g[1].error;
    // Through analyze --timeouts: the game with its tags on one line is lost on time.
    const std::string path = "/tmp/perftide_pgn_tags_" + std::to_string(getpid()) + ".pgn";
    std::ofstream(path) << "[Event \"a\"] [Result \"1-0\"] [Termination \"Time forfeit\"]\n"
                           "[FEN \"3k2r1/8/8/8/8/8/8/3K4 w - - 0 1\"] [SetUp \"1\"]\n\n1-0\n";
    const auto r = run_perftide("analyze --timeouts --pgn " + path);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(contains(r.out, "\n1 game read, 1 analysed, 1 lost on time")) << r.out;
    std::remove(path.c_str());
}

// Every game python-chess wrote ends where python-chess says it ends.
TEST(PgnReplay, FinalPositionsAreThoseOfPythonChess) {
    for (const std::string name : {"random_games", "famous_games"}) {
        const auto games = games_in(data(name + ".pgn"));
        std::ifstream fens(data(name + ".fens"));
        size_t n = 0;
        for (std::string fen; std::getline(fens, fen); ++n) {
            ASSERT_LT(n, games.size()) << name;
            const perftide::pgn::Replay r = perftide::pgn::replay(games[n]);
            ASSERT_TRUE(r.error.empty()) << name << " game " << n + 1 << ": " << r.error;
            chess::Position want = chess::parse_fen(fen);
            EXPECT_TRUE(chess::same_position(r.final, want) ||
                        (want.chess960 = r.final.chess960, chess::same_position(r.final, want)))
                << name << " game " << n + 1 << ": " << chess::to_fen(r.final) << " vs " << fen;
            EXPECT_EQ(r.plies, games[n].moves.size());
        }
        EXPECT_EQ(n, games.size()) << name;
        EXPECT_GT(n, 3u);
    }
}

TEST(PgnCli, PlainGzipZstdAndStdinGiveTheSameRows) {
    const std::string pgn = data("random_games.pgn");
    const std::string base = "/tmp/perftide_pgn_" + std::to_string(getpid());
    ASSERT_EQ(run_shell("{ gzip -c " + pgn + " > " + base + ".gz && zstd -q -c " + pgn + " > " + base + ".zst; }").status, 0);
    const auto plain = run_perftide("analyze --no-search --json --pgn " + pgn);
    ASSERT_EQ(plain.status, 0) << plain.err;
    EXPECT_EQ(count_lines(plain.out), 163);  // 162 games and the summary
    const auto strip = [](const std::string& s) { return s.substr(0, s.rfind("{\"summary\"")); };
    for (const std::string& cmd : {"analyze --no-search --json --pgn " + base + ".gz",
                                   "analyze --no-search --json --pgn " + base + ".zst",
                                   "analyze --no-search --json --pgn - < " + base + ".zst"}) {
        const auto r = run_perftide(cmd);
        EXPECT_EQ(r.status, 0) << cmd << r.err;
        EXPECT_TRUE(strip(r.out) == strip(plain.out)) << cmd << ": " << r.out.size() << " bytes, not " << plain.out.size();
    }
    for (const char* ext : {".gz", ".zst"}) std::remove((base + ext).c_str());
}

// Compressed data cut short (three quarters of each file kept: past zstd's
// first 128 KiB block, which decodes only whole), or a line over 64 KiB:
// every complete game before it is reported, as standard input with the
// same bytes reports them, then the summary, then the error naming the file
// and where it stopped; exit 2.
TEST(PgnCli, InputCutShortReportsTheGamesBeforeTheCut) {
    const std::string pgn = data("random_games.pgn");
    const std::string base = "/tmp/perftide_pgn_cut_" + std::to_string(getpid());
    const auto plain = run_perftide("analyze --no-search --json --pgn " + pgn);
    ASSERT_EQ(plain.status, 0) << plain.err;
    const std::vector<std::string> all = lines_of(plain.out);
    const std::string make = "{ gzip -c " + pgn + " > " + base + ".gz && zstd -q -c " + pgn + " > " + base +
                             ".zst && for x in gz zst; do head -c $(( $(stat -c %s " + base + ".$x) * 3 / 4 )) " + base +
                             ".$x > " + base + ".cut.$x; done && head -c 20000 " + pgn + " > " + base +
                             ".long.pgn && head -c 70000 /dev/zero | tr '\\0' x >> " + base + ".long.pgn; }";
    ASSERT_EQ(run_shell(make).status, 0);
    for (const std::string& name : {base + ".cut.gz", base + ".cut.zst", base + ".long.pgn"}) {
        const auto file = run_perftide("analyze --no-search --json --pgn " + name);
        const auto piped = run_perftide("analyze --no-search --json --pgn - < " + name);
        EXPECT_EQ(file.status, 2) << name << file.err;
        const std::vector<std::string> rows = lines_of(file.out);
        ASSERT_GT(rows.size(), 10u) << name << ": " << file.err;
        EXPECT_LT(rows.size(), all.size()) << name;
        const size_t games = rows.size() - 1;
        for (size_t i = 0; i < games; ++i) EXPECT_EQ(rows[i], all[i]) << name << " row " << i;
        EXPECT_EQ(lines_of(piped.out).size(), rows.size()) << name << ": stdin reports as many games";
        const testjson::Value summary = testjson::parse(rows.back())["summary"];
        EXPECT_EQ(summary["games"].text, std::to_string(games)) << rows.back();
        EXPECT_TRUE(contains(summary["stopped"].text, "reading stopped there")) << rows.back();
        const std::string why = name.ends_with(".pgn") ? name + " line [0-9]+ is longer than 64 KiB"
                                                       : name + ": the (gzip|zstd) data ends in the middle, cut after "
                                                                "[0-9]+ bytes \\([0-9]+ bytes of text\\)";
        EXPECT_TRUE(std::regex_search(file.err, std::regex("perftide: " + why + ".*; reading stopped there, after " +
                                                           std::to_string(games) + " complete games")))
            << file.err;
        const auto text = run_perftide("analyze --no-search --pgn " + name);
        EXPECT_EQ(text.status, 2);
        EXPECT_TRUE(contains(text.out, std::to_string(games) + " games read, " + std::to_string(games) + " analysed"))
            << text.out;
    }
    for (const char* ext : {".gz", ".zst", ".cut.gz", ".cut.zst", ".long.pgn"}) std::remove((base + ext).c_str());
}

// The timeouts of the test file against their labels (from CHA's verdicts,
// or the rules for the few written by hand); every "can mate" proof is a
// helpmate the reference generator plays to mate.
TEST(PgnCli, TimeoutsFindTheUnfairResults) {
    const auto r = run_perftide("analyze --json --timeouts --pgn " + data("timeouts.pgn"));
    EXPECT_EQ(r.status, 2) << r.err;  // one game has an illegal move
    EXPECT_TRUE(contains(r.err, "game 38, line ")) << r.err;
    EXPECT_TRUE(contains(r.err, "at move 2 (White): move 'Ke3' is not legal")) << r.err;
    std::map<int, std::string> expected;
    std::ifstream labels(data("timeouts.expected"));
    for (std::string word, label; labels >> word;) {
        int n;
        labels >> n >> label;
        expected[n] = label;
    }
    size_t rows = 0, unfair = 0;
    for (const std::string& line : lines_of(r.out)) {
        const testjson::Value v = testjson::parse(line);
        if (v.has("summary")) {
            EXPECT_EQ(v["summary"]["unfair"].text, std::to_string(unfair));
            EXPECT_EQ(v["summary"]["skipped"].text, "1");
            continue;
        }
        ++rows;
        const int game = std::stoi(v["game"].text);
        const std::string winner = v["flagged"].text == "white" ? "black" : "white";
        ASSERT_NE(v[winner + "_can_mate"].kind, testjson::Value::Null) << line;  // decided within the budget
        const bool can = v[winner + "_can_mate"].boolean;
        EXPECT_EQ(v["unfair"].boolean, !can) << line;
        unfair += !can;
        EXPECT_EQ(expected[game], can ? "fair" : "unfair") << line;
        if (!can) continue;
        ref::Board b = ref::parse_fen(v["fen"].text);
        std::istringstream moves(v[winner + "_helpmate"].text);
        for (std::string m; moves >> m;) b = ref::play_uci(b, m);
        EXPECT_TRUE(ref::in_check(b) && ref::legal_moves(b).empty()) << line;  // the helpmate mates
    }
    size_t asked = 0;
    for (const auto& [game, label] : expected) asked += label == "fair" || label == "unfair";
    EXPECT_EQ(rows, asked);
    EXPECT_GT(unfair, 3u);
}
