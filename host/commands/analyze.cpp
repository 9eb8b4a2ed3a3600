// perftide analyze: legality, check/mate/stalemate, insufficient material,
// mating chances and dead positions for one FEN or a file of them, with
// repetition and move-count rules when a move history is given.
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>

#include "analysis/report.hpp"
#include "chess/io/fen.hpp"
#include "commands/cli.hpp"
#include "inputs/line_reader.hpp"
#include "inputs/position_line.hpp"
#include "output/json.hpp"
#include "output/progress.hpp"
#include "output/words.hpp"
#include "pgn/compressed_input.hpp"
#include "pgn/game_analysis.hpp"

namespace perftide::cli {
namespace {

constexpr size_t CHUNK_GAMES = 4096;  // games read, analysed and written at a time

// analyze --pgn FILE: exit 0, or 2 when some games were skipped (each named
// on stderr) or the input could not be read to its end (the games before
// the cut are reported, then the summary, then why).
int run_analyze_pgn(const pgn::PgnOptions& o) {
    const auto start = std::chrono::steady_clock::now();
    pgn::CompressedInput input(o.path);
    std::istream in(&input);
    const pgn::PgnTally t = pgn::analyze_games(
        in, input.name(), o, o.path == "-" ? 1 : CHUNK_GAMES,
        [&](const std::string& row) { std::cout << row << (o.json ? "\n" : "") << std::flush; },
        [&](const std::string& why) { error(input.name() + ": " + why + "; skipped"); });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (o.json) {
        json::Object top;
        top.raw("summary", pgn::summary_json(t, o.timeouts, seconds));
        std::cout << top.text() << std::endl;
    } else {
        std::printf("\n%s read, %zu analysed", counted(t.games, "game", "games").c_str(), t.analysed);
        if (o.timeouts) std::printf(", %zu lost on time, %zu unfair", t.timeouts, t.unfair);
        std::printf(", %zu skipped; %.1f s, %.0f positions/s\n", t.skipped, seconds,
                    seconds > 0 ? double(t.analysed) / seconds : 0);
    }
    if (t.skipped)
        error(input.name() + ": " + std::to_string(t.skipped) + " of " + std::to_string(t.games) +
              " games could not be read or played out (named above) and were skipped");
    if (!t.stopped.empty()) error(t.stopped);
    return t.skipped || !t.stopped.empty() ? EXIT_BAD_INPUT : EXIT_OK;
}


constexpr size_t CHUNK_LINES = 1 << 16;  // positions read, analysed and written at a time

struct AnalyzeCommandOptions {
    std::string fen, file, moves, pgn;
    bool json = false;
    bool timeouts = false;
    bool no_search = false;
    bool quick = false;
    bool fast = false;
    std::string side = "both";
    uint64_t budget = analysis::MateBudget{}.max_nodes;
    int threads = 0;
    BackendChoice backend = BackendChoice::Auto;
};

// A batch counts moves on the GPU when the backend is one. A single position
// costs less than a device round trip and stays on the CPU (--backend gpu is
// still refused without a device).
analysis::AnalyzeOptions analyze_options(const AnalyzeCommandOptions& o, bool batch) {
    analysis::AnalyzeOptions a;
    a.mode = o.no_search ? analysis::SearchMode::NoSearch
             : o.quick   ? analysis::SearchMode::Quick
             : o.fast    ? analysis::SearchMode::Fast
                         : analysis::SearchMode::Full;
    a.side[chess::WHITE] = o.side != "black";
    a.side[chess::BLACK] = o.side != "white";
    a.budget.max_nodes = o.budget;
    const bool gpu = (batch || o.backend == BackendChoice::Gpu) && open_backend(o.backend)->gpu();
    a.gpu = batch && gpu;
    return a;
}

void write(const analysis::PositionReport& r, bool json) {
    std::cout << (json ? analysis::report_json(r) + "\n" : analysis::report_text(r));
}

int analyze_one(const AnalyzeCommandOptions& o) {
    std::string fen = o.fen;
    std::optional<analysis::RepetitionReport> repetition;
    bool from_start = false;  // the moves then prove the position reachable
    if (!o.moves.empty()) {
        const chess::FenReading reading = chess::read_fen(fen);
        if (!reading.refusals.empty())
            throw std::invalid_argument("--moves: cannot play moves from this position: " + reading.refusals.front());
        from_start = analysis::is_start_position(reading.pos);
        const auto game = analysis::play_line(reading.pos, o.moves);
        repetition = analysis::repetition_report(game);
        fen = chess::to_fen(game.back());
    }
    auto reports = analysis::analyze_batch({fen}, analyze_options(o, false), o.threads);
    if (!reports[0].parsed) throw chess::FenError(reports[0].problems.front());
    reports[0].repetition = repetition;
    if (from_start && reports[0].problems.empty())
        analysis::mark_reachable(reports[0], "the moves given lead to it from the start position");
    write(reports[0], o.json);
    return EXIT_OK;
}

// analyze --file: a file (or '-', standard input) read in chunks analysed in
// parallel; standard input one line at a time, each answer written and
// flushed as soon as its line is done, so that analyze serves as a
// co-process.
int analyze_file(const AnalyzeCommandOptions& o) {
    const bool streaming = o.file == "-";
    std::ifstream file;
    if (!streaming) {
        file.open(o.file, std::ios::binary);
        if (!file) throw std::invalid_argument("cannot open " + o.file);
    }
    std::istream& in = streaming ? std::cin : file;
    const std::string name = streaming ? "stdin" : o.file;
    const size_t chunk = streaming ? 1 : CHUNK_LINES;
    const analysis::AnalyzeOptions a = analyze_options(o, true);
    LineReader reader(in, name);
    size_t malformed = 0;
    std::string first_malformed;
    // Cleared for each chunk of reports written.
    Progress bar(streaming ? 0 : count_position_lines(o.file), {.what = "positions"});
    for (bool more = true; more;) {
        std::vector<std::string> fens, rests;
        std::vector<size_t> lines;
        std::string line;
        while (fens.size() < chunk && (more = reader.next(line))) {
            if (!is_position_line(line)) continue;
            auto [fen, rest] = split_position_line(line.substr(line.find_first_not_of(" \t")));
            fens.push_back(std::move(fen));
            rests.push_back(std::move(rest));
            lines.push_back(reader.line_number());
        }
        auto reports = analysis::analyze_batch(fens, a, o.threads, &bar);
        bar.finish();
        for (size_t i = 0; i < reports.size(); ++i) {
            analysis::set_origin(reports[i], rests[i], lines[i]);
            if (!reports[i].parsed && malformed++ == 0)
                first_malformed = "line " + std::to_string(lines[i]) + ": " + reports[i].problems.front();
            write(reports[i], o.json);
        }
        std::cout.flush();
    }
    bar.finish();
    std::cout.flush();
    if (malformed) {
        error(name + ": " + counted(malformed, "line is", "lines are") + " not FEN; the first is " + first_malformed);
        return EXIT_BAD_INPUT;
    }
    return EXIT_OK;
}

}  // namespace

Command setup_analyze(CLI::App& app) {
    auto o = std::make_shared<AnalyzeCommandOptions>();
    CLI::App* sub = app.add_subcommand(
        "analyze", "Legality, check/mate/stalemate, insufficient material and mating chances of positions");
    auto* fen = sub->add_option("--fen", o->fen, "The position (it may be illegal: the analysis says why)")
                    ->transform(startpos_alias());
    auto* file = sub->add_option("--file", o->file,
                                 "A file with one FEN or EPD per line ('#' comments); '-': standard input, each "
                                 "answer written as soon as its line is read")
                     ->check(CLI::ExistingFile | CLI::IsMember({"-"}));
    fen->excludes(file);
    auto* pgn = sub->add_option("--pgn", o->pgn,
                                "A PGN file of games (plain, .gz or .zst; '-': standard input): each game's final "
                                "position is analysed")
                    ->check(CLI::ExistingFile | CLI::IsMember({"-"}))
                    ->excludes(fen)
                    ->excludes(file);
    auto* timeouts = sub->add_flag("--timeouts", o->timeouts,
                                   "With --pgn: only games lost on time, asking whether the side with time left "
                                   "could still mate (FIDE 6.9); the ones it could not are unfair")
                         ->needs(pgn);
    sub->add_option("--moves", o->moves, "UCI moves played from --fen: the report adds repetition and move-count rules")
        ->needs(fen);
    sub->add_flag("--json", o->json, "Write one JSON object per position (JSON Lines)");
    sub->add_option("--budget", o->budget,
                    "Search nodes per side for the full search (default: " + std::to_string(o->budget) + ")")
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 40));
    auto* no_search = sub->add_flag("--no-search", o->no_search,
                                    "Skip the searches and the reach analysis (sides the board and material leave "
                                    "open stay unknown)");
    sub->add_flag("--quick", o->quick,
                  "Only the reach analysis, a short helpmate search (2000 nodes a side) and a short exhaustive "
                  "search (300 positions: small reachable sets, forced lines into a capture or a stalemate) for "
                  "the open sides: fast, sound, less complete")
        ->excludes(no_search);
    sub->add_flag("--fast", o->fast,
                  "The fast check: the board, the material and the reach analysis, and where the side to move has "
                  "at most 3 moves an exhaustive search of at most 16 positions; a sound 'cannot mate' or unknown, "
                  "microseconds a position (for game databases)")
        ->excludes(no_search)
        ->excludes("--quick");
    auto* side = sub->add_option("--side", o->side,
                    "The side whose mating chances are asked (FIDE 6.9: can the side with time left still mate?): "
                    "white, black or both (default); the other is not searched")
        ->check(CLI::IsMember({"white", "black", "both"}));
    side->excludes(timeouts);
    add_threads_option(*sub, o->threads);
    add_backend_option(*sub, o->backend)
        ->description("With --file: where the move counts and check tests run (cpu, gpu, or auto: the GPU when a CUDA device is usable)");
    add_progress_option(*sub);
    return {sub, [o, fen, file, pgn] {
                if (*pgn) return run_analyze_pgn({o->pgn, o->json, o->timeouts, o->threads, analyze_options(*o, true)});
                if (!*fen && !*file) throw std::invalid_argument("analyze: give --fen FEN, --file FILE or --pgn FILE");
                return *fen ? analyze_one(*o) : analyze_file(*o);
            }};
}

}  // namespace perftide::cli
