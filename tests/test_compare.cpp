// perftide compare and the UCI engine driver: the perft-answer parser, agreement
// with Stockfish on suite positions, bisection down to a planted bug in a
// broken engine, and every way an engine can fail (exit 2, never a hang).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <set>
#include <sstream>

#include "chess/io/fen.hpp"
#include "inputs/suite.hpp"
#include "support/json_reader.hpp"
#include "support/run_process.hpp"
#include "uci_client/perft_output.hpp"

using perftide::engine::EngineOutputError;
using perftide::engine::parse_perft_output;

namespace {

const std::string STOCKFISH = "/usr/games/stockfish";

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The value of a "  name: value" line of compare's report.
std::string field(const std::string& out, const std::string& name) {
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);) {
        const size_t at = line.find(name + ":");
        if (at != std::string::npos && line.find_first_not_of(' ') == at) {
            std::string v = line.substr(at + name.size() + 1);
            return v.erase(0, v.find_first_not_of(' '));
        }
    }
    return "(no field " + name + ")";
}

std::set<std::string> words(const std::string& s) {
    std::istringstream in(s);
    std::set<std::string> out;
    for (std::string w; in >> w;) out.insert(w);
    out.erase("(none)");
    return out;
}

ProcessResult compare(const std::string& engine, const std::string& fen, int depth, const std::string& extra = "") {
    return run_perftide("compare --backend cpu --engine " + shell_quote(engine) + " --fen " + shell_quote(fen) +
                      " --depth " + std::to_string(depth) + " " + extra);
}

std::string broken(const std::string& bug) { return std::string(BROKEN_ENGINE) + " " + bug; }
std::string script(const std::string& name) { return std::string(ENGINE_SCRIPTS) + "/" + name; }

// Replays the reported path from the root and checks that the missing moves
// are exactly the moves of `kind` in the reported position.
template <class Pred>
void expect_divergence_names(const ProcessResult& r, const std::string& root, Pred is_dropped_kind) {
    ASSERT_EQ(r.status, 1) << r.out << r.err;
    const std::string path = field(r.out, "path") == "(none)" ? "" : field(r.out, "path");
    const chess::Position p = [&] {
        chess::Position q = chess::parse_fen(root);
        std::istringstream in(path);
        for (std::string m; in >> m;) q = chess::apply_move(q, chess::parse_uci_move(q, m));
        return q;
    }();
    EXPECT_EQ(field(r.out, "position"), chess::to_fen(p)) << r.out;
    std::set<std::string> expected;
    chess::MoveList list;
    chess::generate_moves(p, chess::host_attacks(), list);
    for (chess::Move m : list)
        if (is_dropped_kind(p, m)) expected.insert(chess::move_to_uci(m, p.chess960));
    EXPECT_FALSE(expected.empty()) << r.out;
    EXPECT_EQ(words(field(r.out, "missing in the engine")), expected) << r.out;
    EXPECT_TRUE(words(field(r.out, "extra in the engine")).empty()) << r.out;
}

bool knight_promotion(const chess::Position&, chess::Move m) {
    return m.is_promotion() && m.promotion() == chess::KNIGHT;
}
bool ep_with_rook(const chess::Position& p, chess::Move m) { return m.is_en_passant() && p.rooks() != 0; }
// Castling whose king passes over or lands on its own rook's square.
bool castle_through_rook(const chess::Position&, chess::Move m) {
    if (!m.is_castle()) return false;
    const int king_to = chess::castle_king_to(m.from(), m.flag() == chess::KING_CASTLE);
    return m.to() >= std::min<int>(m.from(), king_to) && m.to() <= std::max<int>(m.from(), king_to);
}

}  // namespace

// --- the answer parser --------------------------------------------------------

TEST(PerftOutput, ReadsStockfishsFormat) {
    const auto d = parse_perft_output("info string NNUE evaluation\na2a3: 380\nb7b8q: 2\n\nNodes searched: 382\n\n");
    ASSERT_EQ(d.moves.size(), 2u);
    EXPECT_EQ(d.moves[0].first, "a2a3");
    EXPECT_TRUE(d.moves[1].second == 2);
    EXPECT_TRUE(d.total == 382);
    EXPECT_TRUE(parse_perft_output("\r\nNodes searched: 0\r\n").moves.empty());  // mate or stalemate
}

TEST(PerftOutput, RefusesMalformedAnswersWithAMessage) {
    const std::pair<const char*, const char*> cases[] = {
        {"a2a3: 1\nhello\nNodes searched: 1\n", "expected 'move: count'"},
        {"a2a3: 1\na2a3: 1\nNodes searched: 2\n", "listed twice"},
        {"a2a3: 1\nNodes searched: 2\n", "add up to 1"},
        {"a2a3: x\nNodes searched: 1\n", "bad node count"},
        {"a2a3: 1\n", "ends before"},
        {"a2a9: 1\nNodes searched: 1\n", "expected 'move: count'"},
        {"a7a8k: 1\nNodes searched: 1\n", "expected 'move: count'"},
        {"a2a3: 400000000000000000000000000000000000000\nNodes searched: 1\n", "bad node count"},
        {"Nodes searched: -1\n", "bad node count"},
        {"\x01\xff: 1\n", "\\x01\\xff"},
    };
    for (const auto& [text, message] : cases) {
        try {
            parse_perft_output(text);
            ADD_FAILURE() << "accepted " << text;
        } catch (const EngineOutputError& e) {
            EXPECT_TRUE(contains(e.what(), message)) << e.what();
        }
    }
}

// --- against Stockfish ----------------------------------------------------------

TEST(Compare, AgreesWithStockfishOnSuitePositions) {
    if (access(STOCKFISH.c_str(), X_OK) != 0) GTEST_SKIP() << STOCKFISH << " is not installed (.ci/setup installs it)";
    int compared = 0;
    for (const char* file : {"perft/cpw_positions.epd", "perft/perftsuite.epd"}) {
        int line = 0;
        for (const auto& e : perftide::read_suite_file(std::string(PERFTIDE_TEST_DATA) + "/" + file)) {
            if (std::string(file) == "perft/perftsuite.epd" && line++ % 16 != 0) continue;  // every 16th
            const auto r = compare(STOCKFISH, e.fen, 3);
            EXPECT_EQ(r.status, 0) << e.fen << "\n" << r.out << r.err;
            EXPECT_TRUE(contains(r.out, "compare: agree at depth 3")) << r.out;
            ++compared;
        }
    }
    EXPECT_GE(compared, 15);
}

// Chess960 and Double Chess960: compare sends UCI_Chess960 and reads
// castling as king takes rook.
TEST(Compare, AgreesWithStockfishInChess960Mode) {
    if (access(STOCKFISH.c_str(), X_OK) != 0) GTEST_SKIP() << STOCKFISH << " is not installed (.ci/setup installs it)";
    int compared = 0;
    for (const auto& [file, every] : {std::pair{"perft/fischer.epd", 96}, std::pair{"perft/dfrc.epd", 10}}) {
        int line = 0;
        for (const auto& e : perftide::read_suite_file(std::string(PERFTIDE_TEST_DATA) + "/" + file)) {
            if (line++ % every != 0) continue;
            const auto r = compare(STOCKFISH, e.fen, 3);
            EXPECT_EQ(r.status, 0) << e.fen << "\n" << r.out << r.err;
            ++compared;
        }
    }
    EXPECT_GE(compared, 20);
    // Standard castling written the Chess960 way, after castling moves given both ways.
    const std::string kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    const auto r = compare(STOCKFISH, kiwipete, 3, "--chess960 --moves " + shell_quote("e1h1 e8g8"));
    EXPECT_EQ(r.status, 0) << r.out << r.err;
}

TEST(Compare, BisectsAPlantedChess960CastlingBug) {
    // The broken engine forgets castling whose king passes over its rook.
    // The knights on d1 and d8 must move first.
    const std::string root = "rkrn4/pppppppp/8/8/8/8/PPPPPPPP/RKRN4 w CAca - 0 1";
    const auto r = compare(broken("castle-through-rook"), root, 4);
    expect_divergence_names(r, root, castle_through_rook);
    EXPECT_EQ(field(r.out, "depth"), "1") << r.out;
    EXPECT_TRUE(contains(field(r.out, "missing in the engine"), "b1c1") ||
                contains(field(r.out, "missing in the engine"), "b8c8"))
        << r.out;
}

TEST(Compare, StockfishAfterMovesAndAtDepthOne) {
    if (access(STOCKFISH.c_str(), X_OK) != 0) GTEST_SKIP() << STOCKFISH << " is not installed";
    auto r = compare(STOCKFISH, chess::START_FEN, 2, "--moves " + shell_quote("e2e4 d7d5 e4e5 f7f5"));
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    r = compare(STOCKFISH, "k6R/8/1K6/8/8/8/8/8 b - - 0 1", 1);  // checkmate: no moves, 0 nodes
    EXPECT_EQ(r.status, 0) << r.out << r.err;
    EXPECT_TRUE(contains(r.out, "agree at depth 1: 0 nodes")) << r.out;
}

// --- a planted bug --------------------------------------------------------------

TEST(Compare, NamesTheMissingKnightPromotionAtTheRoot) {
    const auto r = compare(broken("knight-promotions"), "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", 2);
    ASSERT_EQ(r.status, 1) << r.out << r.err;
    EXPECT_EQ(field(r.out, "path"), "(none)");
    EXPECT_EQ(field(r.out, "missing in the engine"), "b7b8n");
    EXPECT_EQ(field(r.out, "depth"), "2");
}

TEST(Compare, JsonCarriesTheVerdictTheDescentAndTheDivergence) {
    const std::string root = "4k3/8/1P6/8/8/8/8/4K3 w - - 0 1";
    const auto r = compare(broken("knight-promotions"), root, 3, "--json");
    ASSERT_EQ(r.status, 1) << r.out << r.err;
    const testjson::Value v = testjson::parse(r.out);
    EXPECT_EQ(v["result"].text, "disagree");
    EXPECT_EQ(v["depth"].text, "3");
    ASSERT_EQ(v["descent"].items.size(), 2u) << r.out;
    EXPECT_EQ(v["descent"].items[0]["move"].text, "b6b7");
    const testjson::Value& d = v["first_divergence"];
    EXPECT_EQ(d["depth"].text, "1");
    EXPECT_EQ(d["path"].items.size(), 2u);
    ASSERT_EQ(d["missing_in_engine"].items.size(), 1u) << r.out;
    EXPECT_EQ(d["missing_in_engine"].items[0].text, "b7b8n");
    EXPECT_TRUE(d["extra_in_engine"].items.empty());
    const auto same = compare(broken("knight-promotions"), chess::START_FEN, 2, "--json");
    ASSERT_EQ(same.status, 0) << same.out << same.err;
    EXPECT_EQ(testjson::parse(same.out)["result"].text, "agree");
    EXPECT_EQ(testjson::parse(same.out)["nodes_engine"].text, "400");
}

TEST(Compare, BisectsDownToTheKnightPromotion) {
    const std::string root = "4k3/8/1P6/8/8/8/8/4K3 w - - 0 1";
    const auto r = compare(broken("knight-promotions"), root, 3);
    expect_divergence_names(r, root, knight_promotion);
    EXPECT_TRUE(field(r.out, "path").starts_with("b6b7 ")) << r.out;
    EXPECT_EQ(field(r.out, "depth"), "1");
}

TEST(Compare, BisectsInAFullPosition) {
    const std::string root = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1";
    expect_divergence_names(compare(broken("knight-promotions"), root, 3), root, knight_promotion);
}

TEST(Compare, NamesTheEnPassantCaptureDroppedWhileARookIsOnTheBoard) {
    const std::string root = "4k3/8/8/8/1p6/8/P7/R3K3 w - - 0 1";
    const auto r = compare(broken("ep-with-rook"), root, 2);
    expect_divergence_names(r, root, ep_with_rook);
    EXPECT_EQ(field(r.out, "path"), "a2a4");
    EXPECT_EQ(field(r.out, "missing in the engine"), "b4a3");
    EXPECT_EQ(field(r.out, "reproduce"), "position fen " + root + " moves a2a4");
    // Kiwipete: several e.p. captures deep in the tree.
    const std::string kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    expect_divergence_names(compare(broken("ep-with-rook"), kiwipete, 3), kiwipete, ep_with_rook);
}

TEST(Compare, TheBrokenEngineWithoutItsBugAgrees) {
    const auto r = compare(broken("none"), "4k3/8/1P6/8/8/8/8/4K3 w - - 0 1", 3);
    EXPECT_EQ(r.status, 0) << r.out << r.err;
}

// --- engines that fail ----------------------------------------------------------

struct FailingEngine {
    std::string command;
    const char* message;
};

void PrintTo(const FailingEngine& e, std::ostream* os) { *os << e.command; }

class CompareEngineFailure : public testing::TestWithParam<FailingEngine> {};

TEST_P(CompareEngineFailure, ExitsTwoSayingWhy) {
    const auto r = compare(GetParam().command, chess::START_FEN, 2, "--timeout 1");
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_TRUE(contains(r.err, GetParam().message)) << "stderr: " << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Engines, CompareEngineFailure,
    testing::Values(FailingEngine{script("exits_immediately.sh"), "the engine died: it exited with status 3"},
                    FailingEngine{"/nonexistent/engine", "(command not found?)"},
                    FailingEngine{script("silent.sh"), "the engine timed out: perftide waited 1 s for 'uciok'"},
                    FailingEngine{script("hangs_on_perft.sh"), "waited 1 s for the answer to 'go perft 2'"},
                    FailingEngine{script("dies_on_perft.sh"), "the engine died: it exited with status 1"},
                    FailingEngine{script("garbage.sh"), "garbage in the answer to 'go perft 2'"},
                    FailingEngine{script("wrong_total.sh"), "add up to 2, not to 'Nodes searched: 5'"},
                    FailingEngine{"yes", "lines without 'uciok'"},
                    FailingEngine{"tr '\\0' x < /dev/zero", "a line over 1 MiB"}),
    [](const testing::TestParamInfo<FailingEngine>& info) { return "case" + std::to_string(info.index); });

TEST(Compare, BadInputIsRefusedBeforeStartingTheEngine) {
    auto r = compare(script("exits_immediately.sh"), "4k3/8/8/8/8/8/8/4K3 w - - 0", 2, "--moves e2e4");
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "not legal")) << r.err;
    r = run_perftide("compare --depth 2");
    EXPECT_EQ(r.status, 2);
    EXPECT_TRUE(contains(r.err, "--engine")) << r.err;
}
