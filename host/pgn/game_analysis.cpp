#include "pgn/game_analysis.hpp"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <stdexcept>
#include <string>

#include "chess/io/fen.hpp"
#include "output/json.hpp"
#include "output/words.hpp"
#include "pgn/compressed_input.hpp"
#include "pgn/game_replay.hpp"
#include "pgn/pgn_reader.hpp"

namespace perftide::pgn {
namespace {


// One game to analyse: where it came from, and which side is asked about.
struct Entry {
    pgn::Game game;
    size_t plies = 0;
    std::string fen;
    std::optional<chess::Color> flagged;
};

const char* color_name(chess::Color c) { return c == chess::WHITE ? "white" : "black"; }

// unfair: the side that flagged lost a game its opponent could not have won.
std::optional<bool> unfair_of(const Entry& e, const analysis::PositionReport& r) {
    const auto& v = r.can_mate[!*e.flagged];
    if (!v || v->answer == analysis::MateAnswer::Unknown) return std::nullopt;
    return v->answer == analysis::MateAnswer::No;
}

std::string json_row(const Entry& e, const analysis::PositionReport& r, bool timeouts) {
    const pgn::Game& g = e.game;
    json::Object o;
    o.integer("game", g.number).integer("line", g.line);
    for (const char* tag : {"Site", "Link", "White", "Black", "Result", "Termination"})
        if (!g.tag(tag).empty()) o.str(std::string(1, char(std::tolower(tag[0]))) + (tag + 1), g.tag(tag));
    o.integer("plies", e.plies);
    if (timeouts) {
        o.str("flagged", color_name(*e.flagged));
        const auto unfair = unfair_of(e, r);
        o.raw("unfair", unfair ? (*unfair ? "true" : "false") : "null");
    }
    // One object: the game's fields, then the report's ("{a}" + "{b}" -> "{a, b}").
    std::string row = o.text();
    row.back() = ',';
    return row + " " + analysis::report_json(r).substr(1);
}

std::string text_row(const Entry& e, const analysis::PositionReport& r, bool timeouts) {
    const pgn::Game& g = e.game;
    std::string head = pgn::describe(g) + ": " + (g.result.empty() ? g.tag("Result") : g.result) + " after " +
                       counted(e.plies, "ply", "plies");
    if (!timeouts) return head + "\n" + analysis::report_text(r);
    const chess::Color winner = chess::Color(!*e.flagged);
    const auto& v = r.can_mate[winner];
    const auto unfair = unfair_of(e, r);
    const std::string who = winner == chess::WHITE ? "White" : "Black";
    std::string verdict = !unfair  ? "unknown: " + who + "'s mate was neither found nor ruled out"
                          : *unfair ? "UNFAIR: " + who + " cannot mate (" + v->reason + "); the game is a draw"
                                    : "fair: " + who + " can still mate";
    return head + ", " + color_name(*e.flagged) + " flagged: " + verdict + "\n  " + r.fen + "\n";
}

// The chunk's reports, in its order; with timeouts each asks about the side
// with time left only.
std::vector<analysis::PositionReport> analyse(const std::vector<Entry>& chunk, const PgnOptions& o) {
    std::vector<analysis::PositionReport> out(chunk.size());
    for (int pass = 0; pass < (o.timeouts ? 2 : 1); ++pass) {
        analysis::AnalyzeOptions a = o.analysis;
        std::vector<std::string> fens;
        std::vector<size_t> at;
        for (size_t i = 0; i < chunk.size(); ++i) {
            if (o.timeouts && chunk[i].flagged != chess::Color(pass)) continue;
            fens.push_back(chunk[i].fen);
            at.push_back(i);
        }
        if (o.timeouts) a.side[pass] = false, a.side[!pass] = true;
        if (fens.empty()) continue;
        auto reports = analysis::analyze_batch(fens, a, o.threads);
        for (size_t k = 0; k < at.size(); ++k) out[at[k]] = std::move(reports[k]);
    }
    return out;
}

void analyse_chunk(const std::vector<Entry>& chunk, const PgnOptions& o, PgnTally& t,
                   const std::function<void(const std::string&)>& row) {
    const auto reports = analyse(chunk, o);
    for (size_t i = 0; i < chunk.size(); ++i) {
        t.unfair += o.timeouts && unfair_of(chunk[i], reports[i]).value_or(false);
        row(o.json ? json_row(chunk[i], reports[i], o.timeouts) : text_row(chunk[i], reports[i], o.timeouts));
    }
    t.analysed += chunk.size();
}

// The next game, or false at the end of the input or where it cannot be
// read on (why in t.stopped: the games before it stay counted).
bool next_game(pgn::Reader& reader, pgn::Game& g, PgnTally& t) {
    try {
        return reader.next(g);
    } catch (const std::invalid_argument& e) {
        t.stopped = std::string(e.what()) + "; reading stopped there, after " + std::to_string(t.games) +
                    " complete game" + (t.games == 1 ? "" : "s");
        return false;
    }
}

}  // namespace

PgnTally analyze_games(std::istream& in, const std::string& name, const PgnOptions& o, size_t chunk_games,
                       const std::function<void(const std::string&)>& row,
                       const std::function<void(const std::string&)>& skipped) {
    pgn::Reader reader(in, name);
    PgnTally t;
    std::vector<Entry> chunk;
    for (pgn::Game g; next_game(reader, g, t);) {
        ++t.games;
        const pgn::Replay r = pgn::replay(g);
        if (!r.error.empty()) {
            ++t.skipped;
            skipped(pgn::describe(g) + ": " + r.error);
            continue;
        }
        Entry e{std::move(g), r.plies, chess::to_fen(r.final), std::nullopt};
        if (o.timeouts && !(e.flagged = pgn::flagged(e.game))) continue;
        t.timeouts += o.timeouts;
        chunk.push_back(std::move(e));
        if (chunk.size() >= chunk_games) {
            analyse_chunk(chunk, o, t, row);
            chunk.clear();
        }
    }
    if (!chunk.empty()) analyse_chunk(chunk, o, t, row);
    return t;
}

std::string summary_json(const PgnTally& t, bool timeouts, double seconds) {
    json::Object s;
    s.integer("games", t.games).integer("analysed", t.analysed);
    if (timeouts) s.integer("timeouts", t.timeouts).integer("unfair", t.unfair);
    s.integer("skipped", t.skipped).num("seconds", seconds);
    s.num("positions_per_second", seconds > 0 ? double(t.analysed) / seconds : 0);
    if (!t.stopped.empty()) s.str("stopped", t.stopped);
    return s.text();
}

}  // namespace perftide::pgn
