// The position analyzer: lenient FEN reading, legality problems, insufficient
// material, the quick mating-chance verdicts, the quick mode, repetition
// rules and the `analyze` command line (--side, streaming from stdin).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include "analysis/legality.hpp"
#include "analysis/repetition.hpp"
#include "analysis/report.hpp"
#include "chess/io/fen.hpp"
#include "frontier/position_facts.hpp"
#include "inputs/position_line.hpp"
#include "inputs/suite.hpp"
#include "support/json_reader.hpp"
#include "support/run_process.hpp"

using namespace chess;
using namespace perftide::analysis;

namespace {

std::string data_path(const std::string& file) { return std::string(PERFTIDE_TEST_DATA) + "/" + file; }

std::vector<std::string> problems_of(const std::string& fen) { return legality_problems(read_fen(fen)); }

std::string joined(const std::vector<std::string>& v) {
    std::string out;
    for (const auto& s : v) out += s + " | ";
    return out;
}

// CHA's test positions with their verdicts (WB, W-, -B, --).
struct ChaPositions {
    std::vector<std::string> verdicts, fens;
};
ChaPositions cha_positions(const std::string& file = "dead/chasolver-positions.txt") {
    std::ifstream in(data_path(file));
    ChaPositions cha;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        cha.verdicts.push_back(line.substr(0, 2));
        cha.fens.push_back(line.substr(3));
    }
    return cha;
}

// How many sides the reports decide; each must agree with the file, and
// so must insufficient material and every dead verdict.
int decided_soundly(const ChaPositions& cha, const std::vector<PositionReport>& reports) {
    int decided = 0;
    for (size_t i = 0; i < cha.fens.size(); ++i) {
        const std::string& verdict = cha.verdicts[i];
        const bool can_win[2] = {verdict[0] == 'W', verdict[1] == 'B'};
        for (Color c : {WHITE, BLACK}) {
            const auto& v = reports[i].can_mate[c];
            if (!v || v->answer == MateAnswer::Unknown) continue;
            ++decided;
            EXPECT_EQ(v->answer == MateAnswer::Yes, can_win[c]) << verdict << " " << cha.fens[i] << ": " << v->reason;
        }
        if (reports[i].insufficient_material.value_or(false)) {
            EXPECT_EQ(verdict, "--") << cha.fens[i];
        }
        if (reports[i].dead) {
            EXPECT_EQ(*reports[i].dead, verdict == "--") << cha.fens[i];
        }
    }
    return decided;
}

}  // namespace

TEST(ReadFen, AgreesWithParseFen) {
    for (const perftide::SuiteEntry& e : perftide::read_suite_file(data_path("perft/perftsuite.epd"))) {
        const FenReading r = read_fen(e.fen);
        ASSERT_TRUE(r.refusals.empty()) << e.fen << ": " << joined(r.refusals);
        EXPECT_EQ(r.pos, parse_fen(e.fen));
    }
}

TEST(ReadFen, KeepsWhatParseFenRefuses) {
    const FenReading r = read_fen("k7/8/8/8/8/8/p7/KK6 w Q e6 0 1");
    EXPECT_EQ(r.kings[WHITE], 2);
    EXPECT_FALSE(r.kings_valid);
    EXPECT_EQ(r.board[SQ_B1], make_piece(WHITE, KING));
    EXPECT_EQ(r.ep_written, SQ_E6);
    ASSERT_EQ(r.refusals.size(), 3u) << joined(r.refusals);
    EXPECT_EQ(r.refusals[0], "FEN position: White has 2 kings, expected exactly one");
    EXPECT_NE(r.refusals[1].find("FEN en passant: 'e6' has no Black pawn on e5"), std::string::npos);
    EXPECT_EQ(r.refusals[2], "FEN position: castling right 'Q' but no White rook on rank 1 between the king and the a-file");
    try {
        parse_fen("k7/8/8/8/8/8/p7/KK6 w Q e6 0 1");
        FAIL();
    } catch (const FenError& e) {
        EXPECT_EQ(std::string(e.what()), r.refusals[0]);
    }
    EXPECT_THROW(read_fen("8/8/8/8/8/8/8/K6x w - - 0 1"), FenError);
}

struct LegalityCase {
    const char* fen;
    const char* problem;  // a part of the one expected problem, or "" when legal
};

class Legality : public testing::TestWithParam<LegalityCase> {};

std::string case_name(const testing::TestParamInfo<LegalityCase>& info) { return "case" + std::to_string(info.index); }

TEST_P(Legality, FindsExactlyTheExpectedProblem) {
    const auto problems = problems_of(GetParam().fen);
    if (std::string(GetParam().problem).empty()) {
        EXPECT_TRUE(problems.empty()) << joined(problems);
        return;
    }
    ASSERT_EQ(problems.size(), 1u) << joined(problems);
    EXPECT_NE(problems[0].find(GetParam().problem), std::string::npos) << problems[0];
}

// clang-format off
INSTANTIATE_TEST_SUITE_P(Cases, Legality, testing::Values(
    LegalityCase{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", ""},
    LegalityCase{"k7/8/8/8/8/8/8/8 w - - 0 1", "White has 0 kings"},
    LegalityCase{"k7/8/8/8/8/8/8/KK6 w - - 0 1", "White has 2 kings"},
    LegalityCase{"k6P/8/8/8/8/8/8/K7 b - - 0 1", "White has a pawn on rank 1 or 8"},
    LegalityCase{"k6R/8/8/8/8/8/8/K7 w - - 0 1", "Black (not to move) is in check"},
    LegalityCase{"4k3/8/8/8/8/8/8/4K3 w K - 0 1", "castling right 'K' but no White rook on rank 1 between the king and the h-file"},
    LegalityCase{"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR b KQkq e3 0 1", "no White pawn on e4"},
    // Checks no single move gives.
    LegalityCase{"8/8/8/8/8/3k4/4P3/4K3 b - - 0 1", "the pawn on e2, which no last move of White"},
    LegalityCase{"4k3/8/3N1N2/8/8/8/8/4K3 b - - 0 1", "the knight on d6 and the knight on f6"},
    LegalityCase{"8/8/8/8/8/k1R5/1B6/K7 b - - 0 1", "the bishop on b2 and the rook on c3"},
    LegalityCase{"2R1k3/8/8/8/8/8/8/K3R3 b - - 0 1", "the rook on e1 and the rook on c8"},
    LegalityCase{"3k4/2P1P3/8/8/8/8/8/K7 b - - 0 1", "the pawn on c7 and the pawn on e7"},
    LegalityCase{"4k3/8/3N4/1B6/8/8/8/K3R3 b - - 0 1", "from 3 pieces"},
    LegalityCase{"8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1", "en passant square d3 says White's last move was d2d4"},
    LegalityCase{"8/8/4K3/2Pp4/8/8/8/7k w - d6 0 1", "en passant square d6 says Black's last move was d7d5"},
    LegalityCase{"8/8/8/2Pp4/4K3/8/8/7k w - d6 0 1", ""},
    // Checks one move does give: promotion capture discovering a rook, an
    // en-passant capture opening two lines, castling with the rook.
    LegalityCase{"4R3/R3k3/8/8/8/8/8/K7 b - - 0 1", ""},
    LegalityCase{"4R3/8/2BP4/8/4k3/8/8/K7 b - - 0 1", ""},
    LegalityCase{"3k4/8/8/8/8/8/8/2KR4 b - - 0 1", ""},
    LegalityCase{"5k2/8/8/8/8/8/8/5RK1 b - - 0 1", ""},
    LegalityCase{"1k6/2p5/N7/2p5/1p6/8/8/K7 b - - 0 1", "the knight on a6"},
    LegalityCase{"4k3/8/5N2/8/8/8/8/K7 b - - 0 1", ""},
    // Promotions the missing pawns cannot account for.
    LegalityCase{"QQQ5/8/8/8/8/8/PPPPPPP1/K6k b - - 0 1", "at least 2 promoted pieces"},
    LegalityCase{"k7/8/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1", ""},
    LegalityCase{"QQ6/8/8/8/8/8/PPPPPPP1/K6k b - - 0 1", ""},
    LegalityCase{"k7/8/8/8/8/8/PPPPPPPP/KB1B4 w - - 0 1", "at least 1 promoted pieces"},
    LegalityCase{"k7/8/8/8/8/8/PPPPPPPP/KBB5 w - - 0 1", ""},
    LegalityCase{"k7/8/8/8/8/P7/PPPPPPPP/K7 w - - 0 1", "White has 9 pawns"}), case_name);
// clang-format on

// Every position reached by a legal move from a position without problems is
// free of problems too: the retraction finds at least the move just played.
TEST(Legality, PositionsReachedByPlayHaveNoProblems) {
    const Attacks at = host_attacks();
    int checked = 0, checks = 0;
    for (const perftide::SuiteEntry& e : perftide::read_suite_file(data_path("perft/perftsuite.epd"))) {
        if (!problems_of(e.fen).empty()) continue;
        const Position root = parse_fen(e.fen);
        MoveList first;
        generate_moves(root, at, first);
        for (Move m : first) {
            const Position child = apply_move(root, m);
            MoveList second;
            generate_moves(child, at, second);
            for (Move n : second) {
                const Position leaf = apply_move(child, n);
                const std::string fen = to_fen(leaf);
                ASSERT_TRUE(problems_of(fen).empty()) << fen << ": " << joined(problems_of(fen));
                ++checked;
                checks += in_check(leaf, at);
            }
        }
    }
    EXPECT_GT(checked, 10000);
    EXPECT_GT(checks, 100);
}

TEST(InsufficientMaterial, FollowsTheDeadMaterialRule) {
    auto insufficient = [](const char* fen) { return insufficient_material(read_fen(fen).board); };
    EXPECT_TRUE(insufficient("8/8/8/8/8/8/8/K6k w - - 0 1"));
    EXPECT_TRUE(insufficient("8/8/8/8/8/8/8/KN5k w - - 0 1"));
    EXPECT_TRUE(insufficient("8/8/8/8/8/8/8/KB5k w - - 0 1"));
    EXPECT_TRUE(insufficient("8/8/8/8/8/8/b7/KB5k w - - 0 1"));          // bishops on light squares only
    EXPECT_TRUE(insufficient("B7/1B6/8/8/8/8/b7/KB5k w - - 0 1"));
    EXPECT_FALSE(insufficient("8/8/8/8/8/8/1b6/KB5k w - - 0 1"));        // opposite colours
    EXPECT_FALSE(insufficient("8/8/8/8/8/8/8/KNN4k w - - 0 1"));
    EXPECT_FALSE(insufficient("8/8/8/8/8/8/8/KN4nk w - - 0 1"));
    EXPECT_FALSE(insufficient("8/8/8/8/8/8/8/KB4nk w - - 0 1"));
    EXPECT_FALSE(insufficient("8/8/8/8/8/8/P7/K6k w - - 0 1"));
    EXPECT_FALSE(insufficient("8/8/8/8/8/8/8/KR5k w - - 0 1"));
}

// The quick verdicts (no search) against CHA's verdicts: a side the quick
// tests say cannot mate must be one CHA says cannot win, and likewise for
// insufficient material and dead positions.
TEST(QuickVerdicts, AreSoundOnTheChaPositions) {
    const ChaPositions cha = cha_positions();
    ASSERT_GT(cha.fens.size(), 3000u);
    AnalyzeOptions quick;
    quick.mode = SearchMode::NoSearch;
    EXPECT_GT(decided_soundly(cha, analyze_batch(cha.fens, quick, 0)), 500);
}
// The batch's GPU form takes move counts and check from
// frontier::position_facts_gpu; the same Thrust source on the host must give
// reports identical to the CPU path's, on legal and illegal positions alike.
TEST(PositionFacts, HostFormGivesTheCpuReports) {
    std::vector<std::string> fens;
    for (const auto& e : perftide::read_suite_file(data_path("perft/perftsuite.epd"))) fens.push_back(e.fen);
    std::ifstream in(data_path("dead/chasolver-positions.txt"));
    for (std::string line; std::getline(in, line);)
        if (!line.empty() && line[0] != '#') fens.push_back(line.substr(3));
    fens.push_back("k7/8/8/8/8/8/8/KK6 w - - 0 1");   // two white kings: no move generation
    fens.push_back("4k3/8/8/8/8/8/8/4K2R w Kq - 0 1");  // castling right without the rook
    std::vector<PositionReport> reports;
    std::vector<chess::Position> positions;
    for (const auto& fen : fens) {
        reports.push_back(read_report(fen));
        if (reports.back().movegen) positions.push_back(reports.back().position);
    }
    ASSERT_GT(positions.size(), 3000u);
    const auto facts = perftide::frontier::position_facts_host(positions);
    ASSERT_EQ(facts.size(), positions.size());
    size_t k = 0, in_check = 0;
    for (size_t i = 0; i < fens.size(); ++i) {
        if (reports[i].movegen) {
            set_facts(reports[i], positions[k], facts[k].moves, facts[k].check);
            in_check += facts[k++].check;
        }
        EXPECT_EQ(report_json(reports[i]), report_json(quick_analysis(fens[i]))) << fens[i];
    }
    EXPECT_GT(in_check, 10u);
}

TEST(Repetition, ThreefoldAndFivefold) {
    const Position start = parse_fen(START_FEN);
    const std::string dance = "g1f3 g8f6 f3g1 f6g8 ";
    auto report = repetition_report(play_line(start, dance + dance));
    EXPECT_EQ(report.occurrences, 3);
    EXPECT_TRUE(report.threefold_claim);
    EXPECT_FALSE(report.fivefold);
    report = repetition_report(play_line(start, dance + dance + dance + dance + "g1f3"));
    EXPECT_EQ(report.occurrences, 5);  // the position after g1f3, at plies 1, 5, 9, 13 and 17
    EXPECT_TRUE(report.threefold_claim);
    EXPECT_TRUE(report.fivefold);
    EXPECT_EQ(report.game_over_ply, 16);  // the start position's fifth time
}

TEST(Repetition, UnplayableEnPassantRightIsNotPartOfThePosition) {
    // After ...d7d5 a white pawn stands beside, but exd6 would expose the
    // white king to the rook on h5: the e.p. right cannot be used, so the
    // position recurs when the knights come back.
    const Position p = parse_fen("4k3/3p4/8/K3P2r/8/8/8/6N1 b - - 0 1");
    const auto game = play_line(p, "d7d5 g1f3 e8e7 f3g1 e7e8");
    EXPECT_EQ(game[1].ep, SQ_D6);  // recorded by the move, removed by canonical()
    EXPECT_EQ(repetition_report(game).occurrences, 2);
}

TEST(Repetition, MoveCountRules) {
    const Position p = parse_fen("7k/8/6K1/8/8/8/8/R7 w - - 99 100");
    EXPECT_FALSE(repetition_report(play_line(p, "")).fifty_move_claim);
    EXPECT_TRUE(repetition_report(play_line(p, "a1a2")).fifty_move_claim);
    const Position q = parse_fen("7k/8/6K1/8/8/8/8/R7 w - - 149 100");
    EXPECT_FALSE(repetition_report(play_line(q, "")).seventy_five_move);
    const auto quiet = repetition_report(play_line(q, "a1a2"));
    EXPECT_TRUE(quiet.seventy_five_move);
    EXPECT_EQ(quiet.game_over_ply, 1);
    EXPECT_FALSE(repetition_report(play_line(q, "a1a8")).seventy_five_move);  // mate takes precedence
    EXPECT_THROW(play_line(q, "a1b2"), std::invalid_argument);
}

TEST(LineParsing, EpdOperationsAndSuiteCountsAreCut) {
    EXPECT_EQ(perftide::split_position_line("8/8/8/8/8/8/8/K6k w - - 0 1").first, "8/8/8/8/8/8/8/K6k w - - 0 1");
    EXPECT_EQ(perftide::split_position_line("8/8/8/8/8/8/8/K6k w - - ;D1 3").first, "8/8/8/8/8/8/8/K6k w - -");
    EXPECT_EQ(perftide::split_position_line("8/8/8/8/8/8/8/K6k w - - bm Kb2; id \"x\";").first, "8/8/8/8/8/8/8/K6k w - -");
    // "startpos", as --fen takes it, for every reader of position lines.
    EXPECT_EQ(perftide::split_position_line("  startpos ;D1 20"),
              (std::pair<std::string, std::string>{chess::START_FEN, ";D1 20"}));
}

// analyze --file reads a startpos line as perft --file does.
TEST(AnalyzeCli, FileTakesAStartposLineAsPerftFileDoes) {
    const std::string path = "/tmp/perftide_analyze_startpos_" + std::to_string(getpid()) + ".fen";
    std::ofstream(path) << "startpos\n";
    const auto perft = run_perftide("perft --file " + path + " --depth 1 --backend cpu");
    EXPECT_EQ(perft.status, 0) << perft.err;
    const auto r = run_perftide("analyze --json --no-search --file " + path);
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    const testjson::Value v = testjson::parse(lines_of(r.out).front());
    EXPECT_EQ(v["fen"].text, chess::START_FEN);
    EXPECT_TRUE(v["legal"].boolean);
    EXPECT_EQ(v["moves"].text, "20");
    std::remove(path.c_str());
}

TEST(AnalyzeCli, JsonHasEveryField) {
    const auto r = run_perftide("analyze --json --fen " + shell_quote("8/8/8/8/8/8/8/KB5k w - - 0 1"));
    ASSERT_EQ(r.status, 0) << r.err;
    const testjson::Value v = testjson::parse(r.out);
    for (const char* f : {"fen", "legal", "static_checks", "problems", "check", "checkmate", "stalemate", "moves",
                          "insufficient_material", "white_can_mate", "black_can_mate", "dead"})
        EXPECT_TRUE(v.has(f)) << f;
    // No static check finds a contradiction, and nothing proves it reachable.
    EXPECT_EQ(v["legal"].kind, testjson::Value::Null);
    EXPECT_EQ(v["static_checks"].text, "pass");
    EXPECT_EQ(v["moves"].text, "9");
    EXPECT_EQ(v["insufficient_material"].kind, testjson::Value::Bool);
    EXPECT_FALSE(v["white_can_mate"].boolean);
    EXPECT_TRUE(v["dead"].boolean);
}

TEST(AnalyzeCli, IllegalPositionsAreReportedNotRefused) {
    const auto r = run_perftide("analyze --json --fen " + shell_quote("k7/8/8/8/8/8/8/KK6 w - - 0 1"));
    ASSERT_EQ(r.status, 0) << r.err;
    const testjson::Value v = testjson::parse(r.out);
    EXPECT_EQ(v["legal"].kind, testjson::Value::Bool);
    EXPECT_FALSE(v["legal"].boolean);
    EXPECT_EQ(v["static_checks"].text, "fail");
    ASSERT_EQ(v["problems"].items.size(), 1u);
    EXPECT_EQ(v["problems"].items[0].text, "White has 2 kings, expected exactly one");
    EXPECT_EQ(v["moves"].kind, testjson::Value::Null);
    EXPECT_EQ(v["dead"].kind, testjson::Value::Null);
}

// `legal: true` only with a proof: the start position itself, or moves
// given from it; a position that merely passes the static checks is
// `legal: null` (a passing check is no proof that it can be reached).
TEST(AnalyzeCli, LegalIsTrueOnlyWithAProof) {
    const auto start = run_perftide("analyze --json --no-search --fen startpos");
    const auto played = run_perftide("analyze --json --no-search --fen startpos --moves 'e2e4 e7e5 g1f3'");
    const auto fen_only = run_perftide(
        "analyze --json --no-search --fen 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2'");
    for (const auto* r : {&start, &played, &fen_only}) ASSERT_EQ(r->status, 0) << r->err;
    const testjson::Value s = testjson::parse(start.out), p = testjson::parse(played.out), f = testjson::parse(fen_only.out);
    EXPECT_TRUE(s["legal"].boolean);
    EXPECT_EQ(s["legal_proof"].text, "it is the start position");
    EXPECT_TRUE(p["legal"].boolean);
    EXPECT_EQ(p["legal_proof"].text, "the moves given lead to it from the start position");
    EXPECT_EQ(p["fen"].text, f["fen"].text);  // the same position, given without its game
    EXPECT_EQ(f["legal"].kind, testjson::Value::Null);
    EXPECT_FALSE(f.has("legal_proof"));
    EXPECT_EQ(f["static_checks"].text, "pass");
    const auto text = run_perftide("analyze --no-search --fen 'rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2'");
    EXPECT_NE(text.out.find("legal: not decided"), std::string::npos) << text.out;
}

TEST(AnalyzeCli, MovesAddRepetitionFields) {
    const auto r = run_perftide("analyze --json --no-search --moves " +
                              shell_quote("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"));
    EXPECT_NE(r.status, 0);  // --moves needs --fen
    const auto ok = run_perftide("analyze --json --no-search --fen " + shell_quote(START_FEN) + " --moves " +
                               shell_quote("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"));
    ASSERT_EQ(ok.status, 0) << ok.err;
    const testjson::Value v = testjson::parse(ok.out);
    EXPECT_TRUE(v["threefold_claim"].boolean);
    EXPECT_FALSE(v["fifty_move_claim"].boolean);
    EXPECT_FALSE(v["fivefold"].boolean);
    EXPECT_FALSE(v["seventy_five_move"].boolean);
    EXPECT_EQ(v["occurrences"].text, "3");
    const auto text = run_perftide("analyze --no-search --fen " + shell_quote(START_FEN) + " --moves " +
                                 shell_quote("g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"));
    EXPECT_NE(text.out.find("threefold repetition claim: yes (position occurred 3 times)"), std::string::npos) << text.out;
}

TEST(AnalyzeCli, FileModeSkipsCommentsAndFlagsBadLines) {
    const std::string path = "/tmp/perftide_analyze_" + std::to_string(getpid()) + ".txt";
    {
        std::ofstream f(path);
        f << "# a comment\n\n8/8/8/8/8/8/8/K6k w - - 0 1\r\nnot a fen\n7k/5Q2/6K1/8/8/8/8/8 b - - ;D1 0\n";
    }
    const auto r = run_perftide("analyze --json --file " + path);
    std::remove(path.c_str());
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("1 line is not FEN; the first is line 4: FEN: 3 fields"), std::string::npos) << r.err;
    std::vector<testjson::Value> records;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);) records.push_back(testjson::parse(line));
    ASSERT_EQ(records.size(), 3u);
    EXPECT_TRUE(records[0]["dead"].boolean);
    EXPECT_FALSE(records[1]["legal"].boolean);
    EXPECT_TRUE(records[2]["stalemate"].boolean);
}

TEST(AnalyzeCli, GpuBackendWithoutADeviceExitsTwo) {
    const auto r = run_perftide("analyze --no-search --backend gpu --file " + shell_quote(data_path("perft/perftsuite.epd")));
    if (r.status == 0) GTEST_SKIP() << "a CUDA device is present here";
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--backend gpu:"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(AnalyzeCli, Refusals) {
    EXPECT_EQ(run_perftide("analyze").status, 2);
    EXPECT_EQ(run_perftide("analyze --fen 'not a fen'").status, 2);
    EXPECT_EQ(run_perftide("analyze --file /nonexistent/x.txt").status, 2);
    const auto moves = run_perftide("analyze --fen 'k7/8/8/8/8/8/8/KK6 w - - 0 1' --moves a1a2");
    EXPECT_EQ(moves.status, 2);
    EXPECT_NE(moves.err.find("--moves: cannot play moves"), std::string::npos) << moves.err;
    const auto illegal_move = run_perftide("analyze --fen '8/8/8/8/8/8/8/K6k w - - 0 1' --moves a1a3");
    EXPECT_EQ(illegal_move.status, 2);
    EXPECT_NE(illegal_move.err.find("move 'a1a3' is not legal"), std::string::npos) << illegal_move.err;
}

// --side asks about one side (FIDE 6.9): the other is not searched and says
// so; what the board decides for it at no cost is still reported.
TEST(AnalyzeCli, SideAsksAboutOneSideOnly) {
    const std::string fen = shell_quote("8/8/8/8/8/4k3/8/R3K3 w Q - 0 1");  // Black has only its king
    const auto black = run_perftide("analyze --json --side black --fen " + fen);
    ASSERT_EQ(black.status, 0) << black.err;
    const testjson::Value b = testjson::parse(black.out);
    EXPECT_EQ(b["white_can_mate"].kind, testjson::Value::Null);
    EXPECT_EQ(b["white_reason"].text, "not asked (--side)");
    EXPECT_EQ(b["white_nodes"].text, "0");
    EXPECT_FALSE(b["black_can_mate"].boolean);
    EXPECT_EQ(b["dead"].kind, testjson::Value::Null);
    const auto white = run_perftide("analyze --json --side white --fen " + fen);
    ASSERT_EQ(white.status, 0) << white.err;
    const testjson::Value w = testjson::parse(white.out);
    EXPECT_TRUE(w["white_can_mate"].boolean);
    EXPECT_FALSE(w["white_helpmate"].text.empty());
    EXPECT_NE(w["white_nodes"].text, "0");
    EXPECT_FALSE(w["dead"].boolean);
    EXPECT_EQ(run_perftide("analyze --side red --fen " + fen).status, 2);
    EXPECT_EQ(run_perftide("analyze --quick --no-search --fen " + fen).status, 2);
}

// The quick mode (reach analysis and a short helpmate search) decides many
// more sides of CHA's test positions than --no-search, and every side it
// decides agrees with the file's verdict.
TEST(QuickMode, DecidesFarMoreThanNoSearchAndStaysSound) {
    const ChaPositions cha = cha_positions();
    const auto decided = [&](SearchMode mode) {
        AnalyzeOptions o;
        o.mode = mode;
        return decided_soundly(cha, analyze_batch(cha.fens, o, 0));
    };
    const int none = decided(SearchMode::NoSearch), quick = decided(SearchMode::Quick);
    EXPECT_GT(quick, 3 * none) << "no search " << none << ", quick " << quick << " of " << 2 * cha.fens.size();
    EXPECT_GE(quick, 5000) << "5,035 of the 6,828 sides when this was written";
}

// The fast check (no search beyond a forced line's few positions) proves
// most sides that cannot mate and says nothing it cannot prove: every side
// it decides agrees with the file, and none of its answers is a "can mate".
TEST(FastMode, ProvesMostUnwinnableSidesAndStaysSound) {
    const ChaPositions cha = cha_positions();
    AnalyzeOptions o;
    o.mode = SearchMode::Fast;
    const auto reports = analyze_batch(cha.fens, o, 0);
    const int decided = decided_soundly(cha, reports);
    int yes = 0;
    for (const auto& r : reports)
        for (const auto& v : r.can_mate) yes += v && v->answer == MateAnswer::Yes && !r.checkmate.value_or(false);
    EXPECT_EQ(yes, 0);
    EXPECT_GE(decided, 2200) << "2,223 of the 2,877 sides that cannot mate when this was written";
    // On real games (65,536 Lichess positions) it proves nearly every side
    // that cannot mate.
    const ChaPositions lichess = cha_positions("dead/chasolver-lichess.txt");
    ASSERT_EQ(lichess.fens.size(), 65536u);
    EXPECT_GE(decided_soundly(lichess, analyze_batch(lichess.fens, o, 0)), 2400)
        << "2,402 of the 2,410 sides that cannot mate when this was written";
}

namespace {

// The sides a mode proves unable to mate, out of those the file says cannot
// mate (decided_soundly checks every answer against the file).
int proven_cannot_mate(const ChaPositions& cha, SearchMode mode, int& cannot_mate) {
    AnalyzeOptions o;
    o.mode = mode;
    const auto reports = analyze_batch(cha.fens, o, 0);
    decided_soundly(cha, reports);
    int proven = 0;
    cannot_mate = 0;
    for (size_t i = 0; i < cha.fens.size(); ++i)
        for (Color c : {WHITE, BLACK}) {
            if (cha.verdicts[i][c] != '-') continue;
            ++cannot_mate;
            const auto& v = reports[i].can_mate[c];
            proven += v && v->answer == MateAnswer::No;
        }
    return proven;
}

}  // namespace

// The short exhaustive search of the quick and fast checks settles small
// reachable sets, the hard case of FIDE 6.9 among them (the side to move has
// only moves into a capture or a stalemate): on real games they prove at
// least 99.9% of the sides that cannot mate (the full search proves them
// all), and on CHA's crafted positions quick proves at least 90% of them
// and fast 80%, every answer agreeing with the file.
TEST(QuickMode, ShortExhaustiveSearchProvesSmallReachableSets) {
    int cannot_mate = 0;
    const ChaPositions lichess = cha_positions("dead/chasolver-lichess.txt");
    for (SearchMode mode : {SearchMode::Quick, SearchMode::Fast}) {
        const int proven = proven_cannot_mate(lichess, mode, cannot_mate);
        EXPECT_GE(1000 * proven, 999 * cannot_mate) << proven << " of " << cannot_mate << " (Lichess)";
    }
    const ChaPositions cha = cha_positions();
    const int quick = proven_cannot_mate(cha, SearchMode::Quick, cannot_mate);
    EXPECT_GE(10 * quick, 9 * cannot_mate) << "quick " << quick << " of " << cannot_mate << " (CHA)";
    const int fast = proven_cannot_mate(cha, SearchMode::Fast, cannot_mate);
    EXPECT_GE(10 * fast, 8 * cannot_mate) << "fast " << fast << " of " << cannot_mate << " (CHA)";
}

// --file - reads standard input and answers each line as soon as it is read
// (a co-process: the second line is written only once the first answer is
// out), each row with its line number, the EPD id, the rest of the line, and
// what the searches cost.
TEST(AnalyzeCli, StdinIsAnsweredLineByLineWithIdsAndCosts) {
    const std::string out = "/tmp/perftide_analyze_stream_" + std::to_string(getpid());
    int to_child[2];
    ASSERT_EQ(pipe(to_child), 0);
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(to_child[0], 0);
        close(to_child[1]);
        const int fd = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 1);
        execl(PERFTIDE_BINARY, PERFTIDE_BINARY, "analyze", "--json", "--file", "-", static_cast<char*>(nullptr));
        _exit(127);
    }
    close(to_child[0]);
    const auto send = [&](const std::string& line) {
        ASSERT_EQ(write(to_child[1], line.data(), line.size()), ssize_t(line.size()));
    };
    send("8/8/8/8/8/4k3/8/R3K3 w - - bm Ra8; id \"rook.1\"; c0 \"one rook\";\n");
    wait_for_lines(out, 1);
    EXPECT_EQ(count_lines(slurp(out)), 1) << "the first answer comes while standard input is still open";
    send("# a comment line\n7k/5Q2/6K1/8/8/8/8/8 b - - 0 1 ; stalemate here\n");
    wait_for_lines(out, 2);
    close(to_child[1]);
    int status = 0;
    waitpid(pid, &status, 0);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    std::vector<testjson::Value> rows;
    std::istringstream lines(slurp(out));
    for (std::string line; std::getline(lines, line);) rows.push_back(testjson::parse(line));
    std::remove(out.c_str());
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0]["line"].text, "1");
    EXPECT_EQ(rows[0]["id"].text, "rook.1");
    EXPECT_EQ(rows[0]["comment"].text, "bm Ra8; c0 \"one rook\"");
    EXPECT_TRUE(rows[0]["white_can_mate"].boolean);
    EXPECT_NE(rows[0]["white_nodes"].text, "0");
    EXPECT_EQ(rows[0]["seconds"].kind, testjson::Value::Number);
    EXPECT_EQ(rows[1]["line"].text, "3");
    EXPECT_FALSE(rows[1].has("id"));
    EXPECT_EQ(rows[1]["comment"].text, "stalemate here");
    EXPECT_TRUE(rows[1]["stalemate"].boolean);
    EXPECT_EQ(rows[1]["black_reason"].text, "the game is over: stalemate");
}
