// What every subcommand file shares: exit codes, the Command pair that
// main() dispatches on, and validators built on the real parsers.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/errors.hpp"
#include "chess/io/fen.hpp"
#include "chess/stats.hpp"
#include "count/backend.hpp"
#include "inputs/position_line.hpp"

namespace perftide::cli {

using perftide::EXIT_BAD_INPUT;  // base/errors.hpp: the statuses and the error kinds
using perftide::EXIT_INTERNAL;
using perftide::EXIT_MISMATCH;
using perftide::EXIT_OK;
using perftide::EXIT_OUTPUT;
using perftide::OutputError;

struct Command {
    CLI::App* app = nullptr;
    std::function<int()> run;
};

// Accepts a FEN that parse_fen accepts (or "startpos"); the error is
// parse_fen's message.
CLI::Validator fen_validator();
using perftide::sorted_divide;  // count/perft_result.hpp

// A file name: refuses the empty one.
CLI::Validator file_name_validator();
// Throws std::invalid_argument naming both options when two of the output
// files (option name, path) are one file: the same path written two ways,
// or two names of one existing file. /dev/null may be given any number of
// times.
void check_distinct_outputs(const std::vector<std::pair<std::string, std::string>>& outputs);
// Only the "startpos" replacement, for options that take illegal positions.
CLI::Validator startpos_alias();

// A 64-bit seed in decimal or 0x-prefixed hexadecimal (no sign).
CLI::Validator seed_validator();
// A finite number of nodes, at least 1 (1e9 and 1000000000 alike).
CLI::Validator positive_count_validator();

// A thread count written as a whole number (check it before its Range, which
// calls a word "not in range").
CLI::Validator thread_count_validator();

// Adds -t,--threads T (1..MAX_THREADS); by_default words its default.
CLI::Option* add_threads_option(CLI::App& app, int& threads, const std::string& by_default = "all cores");
// Adds --backend cpu|gpu|auto.
CLI::Option* add_backend_option(CLI::App& app, BackendChoice& backend);
// Adds --progress SECONDS: where stderr is no terminal, a progress line
// every SECONDS for logs (on a terminal the bar is drawn anyway).
CLI::Option* add_progress_option(CLI::App& app);

using perftide::position_from;  // position_line.hpp

// Adds --chess960: castling by Chess960's rule, written king takes rook.
CLI::Option* add_chess960_flag(CLI::App& app, bool& chess960);
// Adds --shredder-fen: FENs written with rook files for castling (HAha)
// rather than X-FEN (KQkq).
CLI::Option* add_shredder_flag(CLI::App& app, chess::CastlingNotation& notation);

// Words joined by single spaces; `none` when there are none.
std::string join_words(const std::vector<std::string>& words, const std::string& none = "(none)");

// Message to stderr as "perftide: <what>".
void error(const std::string& what);

Command setup_perft(CLI::App& app);
// perft --stats below the deep engine: every ply's statistics, counted on
// the backend opened.
int run_perft_stats(const chess::Position& root, int depth, const Backend& backend, bool json_output, bool quiet);
// Statistics rows (row k: ply k + 1) as the three text tables, and as a JSON
// array of objects keyed by the Grand Chess Tree's column names.
void print_stats_tables(std::ostream& out, const std::vector<chess::BasicPerftStats<chess::u128>>& rows);
std::string stats_json(const std::vector<chess::BasicPerftStats<chess::u128>>& rows);
Command setup_suite(CLI::App& app);
Command setup_analyze(CLI::App& app);
Command setup_unique(CLI::App& app);
Command setup_verify(CLI::App& app);
Command setup_compare(CLI::App& app);
Command setup_perftree(CLI::App& app);
Command setup_proof(CLI::App& app);
Command setup_uci(CLI::App& app);
Command setup_bench(CLI::App& app);

// The fixed benchmark workload of `perftide bench` (bench.cpp), counted on the
// CPU engine: its nodes, wall time, threads and the machine that ran it.
struct BenchResult {
    uint64_t nodes = 0;
    double seconds = 0;
    int threads = 1;
    std::string machine;  // host name and CPU model
    uint64_t nps() const { return seconds > 0 ? uint64_t(double(nodes) / seconds) : 0; }
};
// A count of the workload that differs from its known value.
struct BenchMismatch : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// Counts the workload on `threads` threads; throws BenchMismatch on a wrong count.
BenchResult run_bench(int threads);
// "bench: nodes N seconds S nps R threads T backend cpu machine M", and the
// same fields as one JSON object.
std::string bench_line(const BenchResult& r);
std::string bench_json(const BenchResult& r);

// `perftide` with no arguments.
int run_default_job();

}  // namespace perftide::cli
