// The CHA unwinnability test positions (a two-character verdict, then a FEN:
// "WB", "W-", "-B" or "--") and how perftide's answers are scored against them.
// Shared by the accuracy tests and bench/dead_positions. A Yes counts only
// when its helpmate line replays, move by move, through the rules code to a
// mate by the intended winner.
#pragma once

#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/unwinnable.hpp"
#include "chess/io/fen.hpp"

namespace dead_suite {

struct Entry {
    int line = 0;
    std::string fen;
    bool can_mate[2] = {false, false};  // by colour, as the file says
};

inline std::vector<Entry> read(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    std::vector<Entry> out;
    std::string text;
    for (int line = 1; std::getline(in, text); ++line) {
        if (text.empty() || text[0] == '#') continue;
        if (text.size() < 4 || text[2] != ' ' || (text[0] != 'W' && text[0] != '-') ||
            (text[1] != 'B' && text[1] != '-'))
            throw std::runtime_error(path + ":" + std::to_string(line) + ": expected 'WB|W-|-B|-- FEN'");
        Entry e;
        e.line = line;
        e.fen = text.substr(3);
        e.can_mate[chess::WHITE] = text[0] == 'W';
        e.can_mate[chess::BLACK] = text[1] == 'B';
        out.push_back(e);
    }
    return out;
}

// Replays `line` from p with the rules code: every move must be legal, and the
// last must checkmate the side other than `winner`.
inline bool replays_to_mate(chess::Position p, chess::Color winner, const std::vector<chess::Move>& line) {
    const chess::Attacks at = chess::host_attacks();
    for (const chess::Move m : line) {
        chess::MoveList legal;
        chess::generate_moves(p, at, legal);
        bool found = false;
        for (const chess::Move l : legal) found |= l == m;
        if (!found) return false;
        p = chess::apply_move(p, m);
    }
    return p.stm == ~winner && chess::in_check(p, at) && chess::count_moves(p, at) == 0;
}

struct Score {
    int positions = 0, refused = 0;
    int dead = 0, dead_found = 0;          // "--" entries; those where both answers are No
    int winnable = 0, winnable_found = 0;  // sides the file says can mate; those answered Yes
    int unsound = 0;                       // No where the file says Yes, or a Yes whose line fails
    int yes_against_file = 0;              // verified Yes where the file says No
    int unknown = 0;                       // sides answered Unknown
    std::vector<std::string> problems;     // one line per unsound answer
    std::vector<std::string> missed_dead;  // "--" entries not proven dead
};

inline void score(const Entry& e, const chess::Position& p, const perftide::analysis::DeadVerdict& v, Score& s) {
    using perftide::analysis::MateAnswer;
    ++s.positions;
    for (chess::Color c : {chess::WHITE, chess::BLACK}) {
        const auto& side = v.side(c);
        const char* who = c == chess::WHITE ? "white" : "black";
        if (e.can_mate[c]) ++s.winnable;
        if (side.answer == MateAnswer::Unknown) ++s.unknown;
        if (side.answer == MateAnswer::No && e.can_mate[c]) {
            ++s.unsound;
            s.problems.push_back("line " + std::to_string(e.line) + " " + e.fen + ": " + who + " no (" + side.reason +
                                 ") but the file says yes");
        }
        if (side.answer == MateAnswer::Yes) {
            if (!replays_to_mate(p, c, side.helpmate)) {
                ++s.unsound;
                s.problems.push_back("line " + std::to_string(e.line) + " " + e.fen + ": " + who +
                                     " helpmate line does not replay to mate");
            } else if (e.can_mate[c]) {
                ++s.winnable_found;
            } else {
                ++s.yes_against_file;
            }
        }
    }
    if (!e.can_mate[chess::WHITE] && !e.can_mate[chess::BLACK]) {
        ++s.dead;
        if (v.dead() == MateAnswer::Yes)
            ++s.dead_found;
        else
            s.missed_dead.push_back("line " + std::to_string(e.line) + " " + e.fen + " (white " +
                                    perftide::analysis::answer_name(v.white.answer) + ", black " +
                                    perftide::analysis::answer_name(v.black.answer) + ")");
    }
}

}  // namespace dead_suite
