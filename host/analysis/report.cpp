#include "analysis/report.hpp"

#include <chrono>
#include <sstream>

#include "analysis/legality.hpp"
#include "base/parallel.hpp"
#include "chess/identity.hpp"
#include "chess/io/fen.hpp"
#include "chess/stats.hpp"
#include "frontier/position_facts.hpp"
#include "inputs/position_line.hpp"
#include "output/json.hpp"
#include "output/progress.hpp"

namespace perftide::analysis {

using namespace chess;

namespace {

const char* const COLOR_NAME[2] = {"White", "Black"};

MateVerdict verdict(MateAnswer a, std::string reason) { return {a, {}, std::move(reason)}; }

// What the cheap tests decide about each side's mating chances.
void quick_mate_verdicts(PositionReport& r) {
    const Color stm = r.position.stm;
    if (*r.checkmate) {
        r.can_mate[~stm] = verdict(MateAnswer::Yes, "checkmate is on the board");
        r.can_mate[stm] = verdict(MateAnswer::No, "the game is over: " + std::string(COLOR_NAME[stm]) + " is checkmated");
        return;
    }
    if (*r.stalemate) {
        for (Color c : {WHITE, BLACK}) r.can_mate[c] = verdict(MateAnswer::No, "the game is over: stalemate");
        return;
    }
    if (*r.insufficient_material) {
        for (Color c : {WHITE, BLACK}) r.can_mate[c] = verdict(MateAnswer::No, "insufficient material");
        return;
    }
    for (Color c : {WHITE, BLACK}) {
        if (r.position.color[c] == square_bb(r.position.king[c]))
            r.can_mate[c] = verdict(MateAnswer::No, std::string(COLOR_NAME[c]) + " has only its king");
        else
            r.open[c] = true;
    }
}

void set_dead(PositionReport& r) {
    if (!r.can_mate[WHITE] || !r.can_mate[BLACK]) return;
    const MateAnswer w = r.can_mate[WHITE]->answer, b = r.can_mate[BLACK]->answer;
    if (w == MateAnswer::Yes || b == MateAnswer::Yes)
        r.dead = false;
    else if (w == MateAnswer::No && b == MateAnswer::No)
        r.dead = true;
}

template <class T>
std::string json_opt(const std::optional<T>& v) {
    if (!v) return "null";
    if constexpr (std::is_same_v<T, bool>)
        return *v ? "true" : "false";
    else
        return std::to_string(*v);
}

std::string uci_line(const std::vector<Move>& moves, bool chess960) {
    std::string out;
    for (Move m : moves) {
        if (!out.empty()) out += ' ';
        out += move_to_uci(m, chess960);
    }
    return out;
}

std::string yes_no(const std::optional<bool>& v) { return !v ? "undefined" : *v ? "yes" : "no"; }

}  // namespace

bool is_start_position(const Position& p) {
    static const Position start = chess::parse_fen(chess::START_FEN);
    return chess::SamePosition{}(p, start);
}

void mark_reachable(PositionReport& r, const std::string& how) {
    r.legal = true;
    r.legal_proof = how;
}

PositionReport read_report(const std::string& fen, const Attacks& at) {
    PositionReport r;
    r.fen = fen;
    FenReading reading;
    try {
        reading = read_fen(fen, at);
    } catch (const FenError& e) {
        r.problems.push_back(e.what());
        return r;
    }
    r.parsed = true;
    r.problems = legality_problems(reading, at);
    if (!r.problems.empty()) r.legal = false;
    else if (reading.refusals.empty() && is_start_position(reading.pos))
        mark_reachable(r, "it is the start position");
    if (reading.kings_valid) r.insufficient_material = insufficient_material(reading.board);
    r.movegen = reading.refusals.empty();
    if (r.movegen) r.position = reading.pos;
    return r;
}

PositionReport quick_analysis(const std::string& fen, const Attacks& at) {
    PositionReport r = read_report(fen, at);
    if (r.movegen) fill_position(r, r.position, at);
    return r;
}

void fill_position(PositionReport& r, const Position& p, const Attacks& at) {
    set_facts(r, p, int(count_moves(p, at)), in_check(p, at));
}

void set_facts(PositionReport& r, const Position& p, int moves, bool check) {
    r.position = p;
    r.movegen = true;
    r.moves = moves;
    r.check = check;
    r.checkmate = check && moves == 0;
    r.stalemate = !check && moves == 0;
    r.insufficient_material = chess::insufficient_material(p);
    quick_mate_verdicts(r);
    set_dead(r);
}

void finish_analysis(PositionReport& r, const AnalyzeOptions& o) {
    const auto start = std::chrono::steady_clock::now();
    bool searched = false;
    for (Color c : {WHITE, BLACK}) {
        if (!r.open[c]) continue;
        if (!o.side[c])
            r.can_mate[c] = verdict(MateAnswer::Unknown, "not asked (--side)");
        else if (o.mode == SearchMode::Full)
            r.can_mate[c] = can_checkmate(r.position, c, o.budget), searched = true;
        else if (o.mode == SearchMode::Quick)
            r.can_mate[c] = can_checkmate_quickly(r.position, c, o.budget), searched = true;
        else if (o.mode == SearchMode::Fast)
            r.can_mate[c] = can_checkmate_fast(r.position, c), searched = true;
        else
            r.can_mate[c] = verdict(MateAnswer::Unknown, "not searched");
        r.open[c] = false;
    }
    if (searched) r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    set_dead(r);
}

std::vector<PositionReport> analyze_batch(const std::vector<std::string>& fens, const AnalyzeOptions& o, int threads,
                                          Progress* progress) {
    std::vector<PositionReport> reports(fens.size());
    const Attacks at = host_attacks();
    if (!o.gpu) {
        parallel_for(fens.size(), threads, [&](size_t i) { reports[i] = quick_analysis(fens[i], at); });
    } else {
        // Text and legality on the host; move counts and check on the device.
        parallel_for(fens.size(), threads, [&](size_t i) { reports[i] = read_report(fens[i], at); });
        std::vector<size_t> fit;
        std::vector<Position> positions;
        for (size_t i = 0; i < reports.size(); ++i)
            if (reports[i].movegen) fit.push_back(i), positions.push_back(reports[i].position);
        const auto facts = frontier::position_facts_gpu(positions);
        for (size_t k = 0; k < fit.size(); ++k) set_facts(reports[fit[k]], positions[k], facts[k].moves, facts[k].check);
    }
    std::vector<size_t> open;
    for (size_t i = 0; i < reports.size(); ++i)
        if (reports[i].open[WHITE] || reports[i].open[BLACK]) open.push_back(i);
    if (progress) progress->advance(reports.size() - open.size());  // decided by the quick stage
    parallel_for(open.size(), threads, [&](size_t k) {
        finish_analysis(reports[open[k]], o);
        if (progress) progress->advance(1);
    });
    return reports;
}

// What a line of a position file says besides its position.
void set_origin(PositionReport& r, const std::string& rest_of_line, size_t line_no) {
    r.line = line_no;
    const LineMetadata m = line_metadata(rest_of_line);
    r.id = m.id;
    r.comment = m.comment;
}

std::string report_json(const PositionReport& r) {
    json::Object o;
    if (r.line) o.integer("line", r.line);
    if (!r.id.empty()) o.str("id", r.id);
    if (!r.comment.empty()) o.str("comment", r.comment);
    o.str("fen", r.fen).raw("legal", json_opt(r.legal));
    if (r.legal && *r.legal) o.str("legal_proof", r.legal_proof);
    o.str("static_checks", r.problems.empty() ? "pass" : "fail").raw("problems", json::strings(r.problems));
    o.raw("check", json_opt(r.check)).raw("checkmate", json_opt(r.checkmate)).raw("stalemate", json_opt(r.stalemate));
    o.raw("moves", json_opt(r.moves)).raw("insufficient_material", json_opt(r.insufficient_material));
    for (Color c : {WHITE, BLACK}) {
        const std::string side = c == WHITE ? "white" : "black";
        const auto& v = r.can_mate[c];
        o.raw(side + "_can_mate", !v || v->answer == MateAnswer::Unknown ? "null"
                                  : v->answer == MateAnswer::Yes         ? "true"
                                                                         : "false");
        if (v && v->answer == MateAnswer::Yes) o.str(side + "_helpmate", uci_line(v->helpmate, r.position.chess960));
        if (v && v->answer != MateAnswer::Yes) o.str(side + "_reason", v->reason);
        if (v) o.raw(side + "_nodes", std::to_string(v->nodes));
    }
    o.raw("dead", json_opt(r.dead)).num("seconds", r.seconds);
    if (const auto& rep = r.repetition) {
        o.boolean("threefold_claim", rep->threefold_claim).boolean("fifty_move_claim", rep->fifty_move_claim);
        o.boolean("fivefold", rep->fivefold).boolean("seventy_five_move", rep->seventy_five_move);
        o.integer("occurrences", rep->occurrences).integer("halfmove_clock", rep->halfmove_clock);
        o.raw("game_over_ply", rep->game_over_ply < 0 ? "null" : std::to_string(rep->game_over_ply));
    }
    return o.text();
}

std::string report_text(const PositionReport& r) {
    std::ostringstream out;
    out << r.fen;
    if (r.line) out << "  (line " << r.line << (r.id.empty() ? "" : ", id " + r.id) << ")";
    out << "\n  legal: "
        << (!r.legal ? "not decided (no static check finds a contradiction; that does not prove it reachable)"
            : *r.legal ? "yes (" + r.legal_proof + ")"
                       : "no")
        << "\n";
    for (const std::string& p : r.problems) out << "  problem: " << p << "\n";
    if (r.moves)
        out << "  check: " << yes_no(r.check) << ", checkmate: " << yes_no(r.checkmate)
            << ", stalemate: " << yes_no(r.stalemate) << ", legal moves: " << *r.moves << "\n";
    if (r.insufficient_material) out << "  insufficient material: " << yes_no(r.insufficient_material) << "\n";
    for (Color c : {WHITE, BLACK}) {
        const auto& v = r.can_mate[c];
        if (!v) continue;
        out << "  " << COLOR_NAME[c] << " can mate: ";
        if (v->answer == MateAnswer::Yes)
            out << "yes" << (v->helpmate.empty() ? " (" + v->reason + ")" : ", helpmate " + uci_line(v->helpmate, r.position.chess960)) << "\n";
        else
            out << (v->answer == MateAnswer::No ? "no" : "unknown") << " (" << v->reason << ")\n";
    }
    if (r.can_mate[WHITE] && r.can_mate[BLACK]) out << "  dead: " << (r.dead ? yes_no(r.dead) : "unknown") << "\n";
    if (const auto& rep = r.repetition) {
        out << "  threefold repetition claim: " << (rep->threefold_claim ? "yes" : "no") << " (position occurred "
            << rep->occurrences << (rep->occurrences == 1 ? " time)\n" : " times)\n");
        out << "  fifty-move claim: " << (rep->fifty_move_claim ? "yes" : "no") << " (halfmove clock "
            << rep->halfmove_clock << ")\n";
        out << "  fivefold repetition: " << (rep->fivefold ? "yes" : "no")
            << ", seventy-five-move rule: " << (rep->seventy_five_move ? "yes" : "no");
        if (rep->game_over_ply >= 0) out << " (the game ended at ply " << rep->game_over_ply << ")";
        out << "\n";
    }
    return out.str();
}

}  // namespace perftide::analysis
