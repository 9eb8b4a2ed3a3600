#include "analysis/repetition.hpp"

#include <map>
#include <sstream>
#include <tuple>

#include "chess/io/fen.hpp"

namespace perftide::analysis {

using namespace chess;

namespace {

// Position identity for a map: every field FIDE 9.2 compares.
auto identity(const Position& c) {
    return std::make_tuple(c.color[0], c.color[1], c.pawns, c.diag, c.orth, c.castle_rooks, c.king[0], c.king[1], c.stm,
                           c.ep, c.chess960);
}

}  // namespace

std::vector<Position> play_line(const Position& start, const std::string& moves, const Attacks& at) {
    std::vector<Position> game{start};
    std::istringstream in(moves);
    for (std::string m; in >> m;) game.push_back(apply_move(game.back(), parse_uci_move(game.back(), m, at)));
    return game;
}

RepetitionReport repetition_report(const std::vector<Position>& game, const Attacks& at) {
    RepetitionReport r;
    std::map<decltype(identity(Position{})), int> seen;
    for (size_t ply = 0; ply < game.size(); ++ply) {
        const Position& p = game[ply];
        const int n = ++seen[identity(canonical(p, at))];
        const bool mate = in_check(p, at) && count_moves(p, at) == 0;
        if (n >= 5 && !r.fivefold) {
            r.fivefold = true;
            if (r.game_over_ply < 0) r.game_over_ply = int(ply);
        }
        if (p.halfmove >= 150 && !mate && !r.seventy_five_move) {
            r.seventy_five_move = true;
            if (r.game_over_ply < 0) r.game_over_ply = int(ply);
        }
        if (ply + 1 == game.size()) r.occurrences = n;
    }
    r.halfmove_clock = game.back().halfmove;
    r.threefold_claim = r.occurrences >= 3;
    r.fifty_move_claim = r.halfmove_clock >= 100;
    return r;
}

}  // namespace perftide::analysis
