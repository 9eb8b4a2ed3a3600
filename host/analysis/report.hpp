// The analyzer's verdict on one position: legality problems, check, mate,
// stalemate, move count, insufficient material, whether each side can still
// checkmate, and whether the position is dead. Computed in two stages so that
// a batch runs the cheap tests for every position and the helpmate search
// only for the sides the cheap tests leave open.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analysis/repetition.hpp"
#include "analysis/unwinnable.hpp"
#include "chess/io/fen.hpp"

namespace perftide {
class Progress;
}

namespace perftide::analysis {

// How far the analysis goes for the sides the board and material leave open.
enum class SearchMode {
    Full,      // reach analysis, then the helpmate and exhaustive searches within the budget
    Quick,     // reach analysis, a short helpmate and a short exhaustive search only (can_checkmate_quickly)
    Fast,      // the board, material, reach analysis, a forced line's few positions: a sound No, else Unknown
    NoSearch,  // neither: those sides stay unknown
};

struct AnalyzeOptions {
    SearchMode mode = SearchMode::Full;
    bool side[2] = {true, true};  // the sides asked about (--side): the other is not searched
    bool gpu = false;  // batch: move counts and check on the GPU (throws when no device is usable)
    MateBudget budget;
};

struct PositionReport {
    std::string fen;  // as given
    bool parsed = false;  // false: the text is not FEN, problems[0] says why
    // Reachability from the start position: false where a static check
    // proves the position illegal (problems says which); true only with a
    // proof (legal_proof: the start position itself, or the moves given
    // from it); empty where the checks find no contradiction, which does
    // not prove the position can be reached.
    std::optional<bool> legal;
    std::string legal_proof;
    std::vector<std::string> problems;
    // Defined when move generation is (one king each, and none of parse_fen's
    // refusals); otherwise left empty.
    std::optional<bool> check, checkmate, stalemate;
    std::optional<int> moves;
    std::optional<bool> insufficient_material;  // defined with one king each
    std::optional<MateVerdict> can_mate[2];     // by colour; empty until decided or searched
    std::optional<bool> dead;                   // both No: true; either Yes: false
    std::optional<RepetitionReport> repetition;
    double seconds = 0;  // spent on the searches (finish_analysis)

    // Where the position came from, for the JSON of a file: its line, the
    // EPD `id` operation, and the rest of the line after its position.
    size_t line = 0;
    std::string id, comment;

    bool movegen = false;         // move generation is defined: one king each, none of parse_fen's refusals
    chess::Position position{};  // usable when movegen is set
    bool open[2] = {false, false};  // can_mate[c] waits for the search
};

// Whether p is the start position (FIDE 9.2 identity: clocks aside).
bool is_start_position(const chess::Position& p);
// Marks r reachable: the moves `how` lead to it from the start position.
void mark_reachable(PositionReport& r, const std::string& how);

// The text and legality part: parse, problems, insufficient material, and
// the position when it is fit for move generation (movegen). Never throws:
// text that is not FEN comes back with parsed = false.
PositionReport read_report(const std::string& fen, const chess::Attacks& at = chess::host_attacks());

// Everything but the search: read_report, then fill_position when it can.
PositionReport quick_analysis(const std::string& fen, const chess::Attacks& at = chess::host_attacks());

// The move-generation part of quick_analysis for a position known to be
// fit for it (one king each, none of parse_fen's refusals).
void fill_position(PositionReport& r, const chess::Position& p, const chess::Attacks& at = chess::host_attacks());
// The same from facts counted elsewhere (the GPU): the number of legal
// moves and whether the side to move is in check.
void set_facts(PositionReport& r, const chess::Position& p, int moves, bool check);

// Searches the open sides (or answers Unknown without searching) and sets dead.
void finish_analysis(PositionReport& r, const AnalyzeOptions& o);

// Both stages over a batch, with `threads` threads (<= 0: all); the quick
// stage's move generation runs on the GPU when o.gpu is set. `progress`
// counts the positions finished.
std::vector<PositionReport> analyze_batch(const std::vector<std::string>& fens, const AnalyzeOptions& o, int threads,
                                          Progress* progress = nullptr);

// Sets where a report's position came from: its line (0: none) and what
// the rest of that line says, the EPD `id` operation apart from the other
// operations or a ';' comment.
void set_origin(PositionReport& r, const std::string& rest_of_line, size_t line_no);

// Output: one JSON object (a JSON Lines record), or an indented text block.
std::string report_json(const PositionReport& r);
std::string report_text(const PositionReport& r);

}  // namespace perftide::analysis
