// Shared by the distinct-position tests: the OEIS A083276 terms, and an
// independent count by depth-first enumeration with a std::map.
#pragma once

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "frontier/frontier.hpp"

inline std::map<int, uint64_t> a083276() {
    std::ifstream in(std::string(PERFTIDE_TEST_DATA) + "/unique/a083276.txt");
    std::map<int, uint64_t> terms;
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream f(line);
        int ply;
        uint64_t n;
        f >> ply >> n;
        terms[ply] = n;
    }
    return terms;
}

inline auto position_key(const chess::Position& p) {
    return std::make_tuple(p.color[0], p.color[1], p.pawns, p.diag, p.orth, p.castle_rooks, p.king[0], p.king[1], p.stm,
                           p.ep, p.chess960);
}

using PathCounts = std::map<decltype(position_key(chess::Position{})), std::pair<chess::Position, uint64_t>>;

// Every position at exactly `depth` plies below p (canonical), with the
// number of move paths reaching it.
inline void enumerate(const chess::Position& p, int depth, PathCounts& out) {
    const chess::Attacks at = chess::host_attacks();
    if (depth == 0) {
        const chess::Position c = chess::canonical(p, at);
        auto& slot = out[position_key(c)];
        slot.first = c;
        ++slot.second;
        return;
    }
    chess::MoveList list;
    chess::generate_moves(p, at, list);
    for (chess::Move m : list) enumerate(chess::apply_move(p, m), depth - 1, out);
}
