// Shortest proof games (host/analysis/proof_game): published problems found
// with their lengths and solution counts, every listed game replayed, and
// the command's answers and refusals.
#include <gtest/gtest.h>

#include <fstream>
#include <set>
#include <sstream>

#include "analysis/proof_game.hpp"
#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "chess/io/san.hpp"
#include "support/json_reader.hpp"
#include "support/run_process.hpp"

using namespace perftide;

namespace {

struct Problem {
    std::string id, diagram;
    int plies = 0;
    uint64_t games = 0;
};

std::vector<Problem> published() {
    std::ifstream in(std::string(PERFTIDE_TEST_DATA) + "/proof/proof_games.txt");
    std::vector<Problem> out;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream f(line);
        Problem p;
        std::string author, source;
        f >> p.id >> author >> source >> p.plies >> p.games >> p.diagram;
        out.push_back(p);
    }
    return out;
}

// The diagram a game's SAN text leads to from the start position.
analysis::Diagram replay(const std::string& text) {
    chess::Position p = chess::parse_fen(chess::START_FEN);
    std::istringstream in(text);
    for (std::string word; in >> word;) {
        if (word.back() == '.') continue;  // a move number
        p = chess::apply_move(p, chess::parse_san(p, word));
    }
    return analysis::diagram_of(p);
}

}  // namespace

// Every published problem of `from` to `to` plies: the length and number of
// its shortest games, and each game listed replays to the diagram.
void expect_published(int from, int to) {
    int checked = 0;
    for (const Problem& p : published()) {
        if (p.plies < from || p.plies > to) continue;
        const analysis::Diagram target = analysis::parse_diagram(p.diagram);
        analysis::ProofGameOptions o;
        o.max_plies = p.plies;
        const analysis::ProofGames r = analysis::find_proof_games(target, o);
        ASSERT_TRUE(r.complete) << p.id;
        ASSERT_TRUE(r.shortest.has_value()) << p.id;
        EXPECT_EQ(*r.shortest, p.plies) << p.id;
        EXPECT_EQ(chess::to_string(r.games), std::to_string(p.games)) << p.id;
        ASSERT_EQ(r.lines.size(), p.games) << p.id;
        std::set<std::string> texts;
        for (const auto& line : r.lines) {
            const std::string text = analysis::proof_game_text(line);
            EXPECT_EQ(line.size(), size_t(p.plies)) << p.id << ": " << text;
            EXPECT_TRUE(replay(text) == target) << p.id << ": " << text;
            texts.insert(text);
        }
        EXPECT_EQ(texts.size(), r.lines.size()) << p.id << ": a game listed twice";
        ++checked;
    }
    EXPECT_GE(checked, 3) << "problems of " << from << " to " << to << " plies";
}

TEST(ProofGames, PublishedProblemsToTenPliesHaveTheirLengthAndSolutions) { expect_published(0, 10); }
TEST(ProofGames, PublishedProblemsOfThirteenAndFourteenPlies) { expect_published(11, 14); }

// The start position's diagram is its own proof game of no plies; the
// diagram after 1. Nf3 Nf6 2. Ng1 Ng8 is the start's again, so the shortest
// game of a knight's return is the empty one too.
TEST(ProofGames, TheStartDiagramNeedsNoMove) {
    const analysis::ProofGames r =
        analysis::find_proof_games(analysis::parse_diagram("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"));
    ASSERT_TRUE(r.shortest.has_value());
    EXPECT_EQ(*r.shortest, 0);
    EXPECT_EQ(chess::to_string(r.games), "1");
}

// The diagram after 1. e4 is reached by one game of one ply, and the one
// after 1. e3 e5 2. e4 (the diagram of 1. e4 e5) is found at two plies.
TEST(ProofGames, ADiagramIsFoundAtItsShortestLength) {
    const auto e4 = analysis::find_proof_games(analysis::parse_diagram("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR"));
    ASSERT_TRUE(e4.shortest.has_value());
    EXPECT_EQ(*e4.shortest, 1);
    ASSERT_EQ(e4.lines.size(), 1u);
    EXPECT_EQ(analysis::proof_game_text(e4.lines[0]), "1. e4");
    const auto e4e5 = analysis::find_proof_games(analysis::parse_diagram("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR"));
    ASSERT_TRUE(e4e5.shortest.has_value());
    EXPECT_EQ(*e4e5.shortest, 2);
    EXPECT_EQ(chess::to_string(e4e5.games), "1");
}

TEST(ProofGames, NoGameWithinTheLimitIsSaid) {
    analysis::ProofGameOptions o;
    o.max_plies = 3;  // P0008141 needs 6
    const analysis::ProofGames r =
        analysis::find_proof_games(analysis::parse_diagram("rnb1kbnr/pppp1ppp/8/4p3/3q4/4KP2/PPPPP1PP/RNBQ1BNR"), o);
    EXPECT_TRUE(r.complete);
    EXPECT_FALSE(r.shortest.has_value());
    o.max_plies = 12;
    o.max_positions = 10;  // far too few: no claim
    const analysis::ProofGames cut =
        analysis::find_proof_games(analysis::parse_diagram("rnb1kbnr/pppp1ppp/8/4p3/3q4/4KP2/PPPPP1PP/RNBQ1BNR"), o);
    EXPECT_FALSE(cut.complete);
    EXPECT_FALSE(cut.shortest.has_value());
}

TEST(ProofCli, DualFreeAndCookedProblems) {
    const auto run = [](const std::string& diagram) {
        const ProcessResult r = run_shell(std::string(PERFTIDE_BINARY) + " proof " + diagram + " --json");
        EXPECT_EQ(r.status, 0) << r.err;
        return testjson::parse(r.out);
    };
    const testjson::Value unique = run("rnb1kbnr/pppp1ppp/8/4p3/3q4/4KP2/PPPPP1PP/RNBQ1BNR");
    EXPECT_EQ(unique["verdict"].text, "dual-free");
    EXPECT_EQ(unique["shortest"].text, "6");
    ASSERT_EQ(unique["lines"].items.size(), 1u);
    EXPECT_TRUE(replay(unique["lines"].items[0].text) ==
                analysis::parse_diagram("rnb1kbnr/pppp1ppp/8/4p3/3q4/4KP2/PPPPP1PP/RNBQ1BNR"));
    const testjson::Value cooked = run("r1bqkbnr/pppppppp/1B6/8/3P4/1n6/PPP1PPPP/RN1QKBNR");
    EXPECT_EQ(cooked["verdict"].text, "cooked");
    EXPECT_EQ(cooked["games"].text, "2");
    const ProcessResult text = run_shell(std::string(PERFTIDE_BINARY) + " proof 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1'");
    EXPECT_EQ(text.status, 0) << text.err;
    EXPECT_EQ(text.out, "shortest proof games: 1 ply, 1 game (dual-free)\n1. e4\n");
}

TEST(ProofCli, BadDiagramsAreRefused) {
    for (const std::string bad : {"rnbqkbnr/ppp", "8/8/8/8/8/8/8/8", "8/8/8/8/8/8/8/Kk6", "4k3/8/8/8/8/8/8/P3K3", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNRX"}) {
        const ProcessResult r = run_shell(std::string(PERFTIDE_BINARY) + " proof " + bad);
        EXPECT_EQ(r.status, 2) << bad << ": " << r.out << r.err;
        EXPECT_FALSE(r.err.empty()) << bad;
    }
    const ProcessResult deep = run_shell(std::string(PERFTIDE_BINARY) + " proof 8/8/8/8/8/8/8/K1k5 --max-plies 41");
    EXPECT_EQ(deep.status, 2) << deep.err;
}
