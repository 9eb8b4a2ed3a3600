// Diagrams per ply (kernels/frontier/diagrams): the published terms of OEIS
// A019319, A209433 and A209080, an independent enumeration from positions
// with castling rights and en passant, both frontier engines, and the CLI.
#include <gtest/gtest.h>

#include <array>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "chess/io/fen.hpp"
#include "frontier/diagrams.hpp"
#include "support/json_reader.hpp"
#include "support/run_process.hpp"
#include "support/unique_check.hpp"

using namespace perftide;

namespace {

using Terms = std::map<int, std::array<uint64_t, 3>>;  // ply -> A019319, A209433, A209080

Terms published() {
    std::ifstream in(std::string(PERFTIDE_TEST_DATA) + "/unique/diagrams.txt");
    Terms terms;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream f(line);
        int ply;
        std::array<uint64_t, 3> t;
        f >> ply >> t[0] >> t[1] >> t[2];
        terms[ply] = t;
    }
    return terms;
}

std::vector<frontier::DiagramCounts> diagrams(frontier::Expander& engine, const chess::Position& root, int depth) {
    frontier::DiagramBook book;
    std::vector<frontier::DiagramCounts> rows;
    frontier::Frontier last;
    frontier::run_plies(engine, frontier::root_frontier(root), depth, nullptr, &last,
                        [&](int ply, const frontier::Frontier& f) { rows.push_back(book.add(ply, f)); });
    return rows;
}

void expect_terms(const std::vector<frontier::DiagramCounts>& rows, int depth, const std::string& what) {
    const Terms terms = published();
    ASSERT_EQ(rows.size(), size_t(depth + 1)) << what;
    for (const auto& r : rows) {
        EXPECT_EQ(r.diagrams, terms.at(r.ply)[0]) << what << ", A019319 ply " << r.ply;
        EXPECT_EQ(r.first, terms.at(r.ply)[1]) << what << ", A209433 ply " << r.ply;
        EXPECT_EQ(r.unique, terms.at(r.ply)[2]) << what << ", A209080 ply " << r.ply;
    }
}

}  // namespace

TEST(Diagrams, CpuEngineGivesThePublishedTermsToPly6) {
    frontier::Options two;
    two.passes = 2;  // a ply split by hash gives the same diagrams
    expect_terms(diagrams(*frontier::make_cpu_expander(two), chess::parse_fen(chess::START_FEN), 6), 6, "cpu");
}

TEST(Diagrams, HostPipelineGivesThePublishedTermsToPly5) {
    expect_terms(diagrams(*frontier::make_host_pipeline_expander({}), chess::parse_fen(chess::START_FEN), 5), 5,
                 "host pipeline");
}

// From positions where castling rights and en passant tell positions of one
// diagram apart, and a diagram returns at a later ply: the book against
// diagrams counted by a depth-first enumeration of every ply.
TEST(Diagrams, AgreeWithAnEnumerationWhereCastlingAndEnPassantDiffer) {
    bool some_diagram_has_two_positions = false;
    for (const char* fen : {"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                            "4k3/8/8/8/2p5/8/3P4/R3K2R w KQ - 0 1", "r3k3/8/8/3pP3/8/8/8/4K2R w Kq d6 0 1"}) {
        const chess::Position root = chess::parse_fen(fen);
        const int depth = 3;
        const auto rows = diagrams(*frontier::make_cpu_expander({}), root, depth);
        std::set<chess::PackedPosition, decltype([](const auto& a, const auto& b) {
                     return std::tie(a.occupied, a.men[0], a.men[1]) < std::tie(b.occupied, b.men[0], b.men[1]);
                 })>
            seen;
        for (int ply = 0; ply <= depth; ++ply) {
            PathCounts positions;
            enumerate(root, ply, positions);
            std::map<std::tuple<uint64_t, uint64_t, uint64_t>, std::pair<chess::PackedPosition, uint64_t>> by_diagram;
            for (const auto& [key, entry] : positions) {
                const chess::PackedPosition d = frontier::diagram_of(entry.first);
                auto& slot = by_diagram[{d.occupied, d.men[0], d.men[1]}];
                some_diagram_has_two_positions |= slot.second > 0 && entry.second > 0 && slot.first == d;
                slot.first = d;
                slot.second += entry.second;
            }
            uint64_t first = 0, unique = 0;
            for (const auto& [key, entry] : by_diagram)
                if (!seen.count(entry.first)) ++first, unique += entry.second == 1;
            for (const auto& [key, entry] : by_diagram) seen.insert(entry.first);
            EXPECT_EQ(rows.at(size_t(ply)).diagrams, by_diagram.size()) << fen << " ply " << ply;
            EXPECT_EQ(rows.at(size_t(ply)).first, first) << fen << " ply " << ply;
            EXPECT_EQ(rows.at(size_t(ply)).unique, unique) << fen << " ply " << ply;
        }
    }
    EXPECT_TRUE(some_diagram_has_two_positions) << "no diagram of two positions: the test shows nothing";
}

TEST(DiagramsCli, ColumnsInTheJsonAndTheTable) {
    const ProcessResult json = run_shell(std::string(PERFTIDE_BINARY) + " unique --depth 4 --diagrams --json");
    ASSERT_EQ(json.status, 0) << json.err;
    const Terms terms = published();
    const testjson::Value plies = testjson::parse(json.out)["plies"];
    ASSERT_EQ(plies.items.size(), 5u) << json.out;
    for (int ply = 0; ply <= 4; ++ply) {
        const testjson::Value& row = plies.items[size_t(ply)];
        EXPECT_EQ(row["diagrams"].text, std::to_string(terms.at(ply)[0])) << json.out;
        EXPECT_EQ(row["diagrams_first"].text, std::to_string(terms.at(ply)[1])) << json.out;
        EXPECT_EQ(row["diagrams_unique"].text, std::to_string(terms.at(ply)[2])) << json.out;
    }
    const ProcessResult text = run_shell(std::string(PERFTIDE_BINARY) + " unique --depth 4 --diagrams");
    ASSERT_EQ(text.status, 0) << text.err;
    EXPECT_NE(text.out.find("diagrams"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find(" 69731 "), std::string::npos) << text.out;
    const ProcessResult plain = run_shell(std::string(PERFTIDE_BINARY) + " unique --depth 2 --json");
    EXPECT_EQ(plain.out.find("diagrams"), std::string::npos) << "asked for nothing, the columns stay out: " << plain.out;
}

TEST(DiagramsCli, AJournalIsRefusedBeforeAnyWork) {
    const ProcessResult r =
        run_shell(std::string(PERFTIDE_BINARY) + " unique --depth 3 --diagrams --journal /tmp/perftide_diagrams.journal");
    EXPECT_EQ(r.status, 2) << r.err;
    EXPECT_NE(r.err.find("--diagrams"), std::string::npos) << r.err;
}
