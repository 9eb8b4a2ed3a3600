// Checks another perft engine against the CPU engine on the suite files:
// per root move (a divide, so a failure names the move) and in total against
// the count the suite file publishes; and small helpers. Shared by the GPU pipeline tests (the
// pipeline run on the host) and the GPU backend tests (on a device).
#pragma once

#include <gtest/gtest.h>

#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "count/cpu_perft.hpp"
#include "count/cpu_stats.hpp"
#include "gpu/gpu_perft.hpp"
#include "inputs/suite.hpp"

using BatchEngine = std::function<std::vector<chess::u128>(const std::vector<chess::Position>&, int)>;

// The engine's divide of root at depth against the CPU engine's; returns the
// engine's total.
inline chess::u128 check_divide(const BatchEngine& engine, const chess::Position& root, int depth,
                                const std::string& where) {
    chess::MoveList moves;
    chess::generate_moves(root, chess::host_attacks(), moves);
    std::vector<chess::Position> children;
    for (chess::Move m : moves) children.push_back(chess::apply_move(root, m));
    const auto got = engine(children, depth - 1);
    const auto want = perftide::cpu_perft_batch(children, depth - 1, 0);
    chess::u128 total = 0;
    EXPECT_EQ(got.size(), want.size()) << where;
    for (std::size_t i = 0; i < got.size() && i < want.size(); ++i) {
        EXPECT_EQ(chess::to_string(got[i]), chess::to_string(want[i]))
            << where << " move " << chess::move_to_uci(moves.moves[i], false);
        total += got[i];
    }
    return total;
}

// Every parsable entry of a suite file at each depth whose published count is
// at most max_nodes: the engine's divide against the CPU's, the total against
// the file, and all those roots again as one batch per depth (mixed sides to
// move). With stride k only every k-th parsable entry is checked (a sample
// of the file). Returns the number of (entry, depth) pairs checked.
inline int check_suite_divides(const BatchEngine& engine, const std::string& file, double max_nodes, int max_depth = 31,
                               int stride = 1) {
    int checked = 0, entry = 0;
    std::vector<std::vector<chess::Position>> batch(32);
    std::vector<std::vector<chess::u128>> batch_expected(32);
    for (const perftide::SuiteEntry& e : perftide::read_suite_file(std::string(PERFTIDE_TEST_DATA) + "/" + file)) {
        chess::Position root;
        try {
            root = chess::parse_fen(e.fen);
        } catch (const chess::FenError&) {
            continue;  // the suite tests cover the refusals
        }
        if (entry++ % stride != 0) continue;
        for (const auto& [depth, expected] : e.expected) {
            if (double(expected) > max_nodes || depth < 1 || depth > max_depth || depth >= 32) continue;
            const std::string where = file + " " + e.id + " (" + e.fen + ") depth " + std::to_string(depth);
            EXPECT_EQ(chess::to_string(check_divide(engine, root, depth, where)), chess::to_string(expected)) << where;
            batch[depth].push_back(root);
            batch_expected[depth].push_back(expected);
            ++checked;
        }
    }
    for (int depth = 1; depth < 32; ++depth) {
        if (batch[depth].empty()) continue;
        const auto got = engine(batch[depth], depth);
        for (std::size_t i = 0; i < got.size(); ++i)
            EXPECT_EQ(chess::to_string(got[i]), chess::to_string(batch_expected[depth][i]))
                << file << " batch at depth " << depth << ", root " << chess::to_fen(batch[depth][i]);
    }
    return checked;
}

// Statistics rows as one line per (ply, counter), so that a failure names
// the counter that differs.
inline std::vector<std::string> stats_text(const std::vector<perftide::StatsTotal>& rows) {
    std::vector<std::string> v;
    for (std::size_t d = 0; d < rows.size(); ++d)
        for (int k = 0; k < chess::STAT_COUNT; ++k)
            v.push_back("ply " + std::to_string(d + 1) + " counter " + std::to_string(k) + ": " +
                        chess::to_string(rows[d].c[k]));
    return v;
}

// Positions from FENs.
inline std::vector<chess::Position> positions(std::initializer_list<const char*> fens) {
    std::vector<chess::Position> v;
    for (const char* f : fens) v.push_back(chess::parse_fen(f));
    return v;
}

inline const char* const KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
inline const char* const POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1";

// A batch whose levels hold many transpositions (king and rook moves
// commute): the positions one ply below position 3 and below a king and rook
// ending, to be counted TRANSPOSING_DEPTH plies deep.
inline std::vector<chess::Position> transposing_batch() {
    std::vector<chess::Position> batch;
    for (const char* fen : {POSITION_3, "4k3/8/8/8/8/8/8/4K2R w K - 0 1"}) {
        const chess::Position p = chess::parse_fen(fen);
        chess::MoveList list;
        chess::generate_moves(p, chess::host_attacks(), list);
        for (chess::Move m : list) batch.push_back(chess::apply_move(p, m));
    }
    return batch;
}
constexpr int TRANSPOSING_DEPTH = 5;

// Counts as decimal text, so that a failure prints them.
inline std::vector<std::string> text(const std::vector<chess::u128>& counts) {
    std::vector<std::string> v;
    for (chess::u128 c : counts) v.push_back(chess::to_string(c));
    return v;
}

// Options for tables of `bytes` and duplicate removal on every level when dedup.
inline perftide::gpu::Options keyed(long long bytes, bool dedup, uint64_t seed = chess::DEFAULT_ZOBRIST_SEED) {
    perftide::gpu::Options o;
    o.table_bytes = bytes;
    o.dedup = dedup;
    o.dedup_min_items = 0;
    o.zobrist_seed = seed;
    return o;
}
