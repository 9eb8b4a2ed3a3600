// perftide perft: count the leaf nodes of the legal move tree, optionally per
// root move in Stockfish's divide format, or as one JSON object. Deep runs
// (from a backend-dependent depth, or whenever a deep option is given) go
// through work units, transposition tables and an optional journal.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>

#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "commands/cli.hpp"
#include "deep/deep_perft.hpp"
#include "deep/work_units.hpp"
#include "inputs/line_reader.hpp"
#include "inputs/position_line.hpp"
#include "journal/journal.hpp"
#include "mpi/dist_perft.hpp"
#include "output/json.hpp"
#include "output/progress.hpp"
#include "output/words.hpp"

namespace perftide::cli {
namespace {

struct PerftOptions {
    std::string fen = chess::START_FEN;
    std::string moves;
    int depth = 0;
    bool divide = false;
    bool json = false;
    bool quiet = false;
    bool stats = false;
    bool chess960 = false;
    chess::CastlingNotation notation = chess::CastlingNotation::XFen;
    BackendChoice backend = BackendChoice::Auto;
    int threads = 0;  // 0: every core
    DeepOptions deep;
    bool deep_option_given = false;  // any of the options that only deep runs take
    std::string file;                // --file: one position a line ("-": stdin)
    bool epd = false;                // --file output as EPD with ;D1 .. ;DN
    bool single_option_given = false;  // --fen, --moves, --divide or --stats
};

std::string seed_hex(uint64_t seed) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(seed));
    return buf;
}

std::string units_per_rank_text(const std::vector<size_t>& units) {
    std::string t;
    for (size_t i = 0; i < units.size(); ++i) t += (i ? "/" : "") + std::to_string(units[i]);
    return t;
}

// What a count prints: its root and result, and the figures of the engine
// that made it. A deep run adds its work units and tables; a distributed run
// adds its ranks to those.
struct Report {
    chess::Position root;
    PerftResult perft;
    std::optional<DeepResult> deep;
    std::optional<dist::DistResult> dist;

    static Report plain(const chess::Position& root, const PerftResult& r) { return {root, r, {}, {}}; }
    static Report deep_run(const chess::Position& root, const DeepResult& d) { return {root, d.perft, d, {}}; }
    static Report distributed(const chess::Position& root, const dist::DistResult& r) {
        return {root, r.deep.perft, r.deep, r};
    }
};

void print_json(const PerftOptions& o, const Report& r, double nps) {
    json::Object obj;
    obj.str("fen", chess::to_fen(r.root, o.notation)).integer("depth", o.depth).cnt("nodes", r.perft.nodes);
    obj.num("seconds", r.perft.seconds).num("nps", nps).str("backend", r.perft.backend);
    if (r.deep) {
        if (o.stats) obj.raw("stats", stats_json(r.deep->stats));
        obj.integer("split", r.deep->split).cnt("units", r.deep->units);
        obj.cnt("units_resumed", r.deep->units_resumed).cnt("hash_mb", r.deep->hash_mb);
        obj.integer("device_hash_mb", r.deep->device_hash_mb).cnt("host_hash_mb", r.deep->host_hash_mb);
        obj.str("zobrist_seed", seed_hex(r.deep->zobrist_seed));
    }
    if (r.dist) {
        obj.integer("ranks", r.dist->ranks).raw("units_per_rank", json::Array::integers(r.dist->units_per_rank));
        obj.raw("rank_devices", json::strings(r.dist->devices));
    }
    if (o.divide) {
        json::Object d;
        for (const auto& [m, n] : sorted_divide(r.perft, r.root)) d.cnt(m, n);
        obj.raw("divide", d.text());
    }
    std::cout << obj.text() << std::endl;
}

void print_result(const PerftOptions& o, const Report& r) {
    // Nodes per second of what this run counted: units resumed from a journal
    // took no time here.
    const double counted = double(r.deep ? r.deep->nodes_counted : r.perft.nodes);
    const double nps = r.perft.seconds > 0 ? counted / r.perft.seconds : 0;
    if (o.json) return print_json(o, r, nps);
    if (o.divide) {
        for (const auto& [m, n] : sorted_divide(r.perft, r.root)) std::cout << m << ": " << chess::to_string(n) << "\n";
        std::cout << "\n";
    }
    if (o.stats && r.deep) print_stats_tables(std::cout, r.deep->stats);
    std::cout << "Nodes searched: " << chess::to_string(r.perft.nodes) << std::endl;
    std::fprintf(stderr, "%s backend, %.3f s, %.1f M nodes/s\n", r.perft.backend.c_str(), r.perft.seconds, nps / 1e6);
    if (o.quiet) return;
    if (r.deep)
        std::fprintf(stderr, "split %d: %s (%zu from the journal), table %zu MiB, host table %zu MiB\n",
                     r.deep->split, perftide::counted(r.deep->units, "work unit", "work units").c_str(),
                     r.deep->units_resumed,
                     r.deep->hash_mb + size_t(r.deep->device_hash_mb), r.deep->host_hash_mb);
    if (r.dist)
        std::fprintf(stderr, "%d ranks, units counted per rank: %s\n", r.dist->ranks,
                     units_per_rank_text(r.dist->units_per_rank).c_str());
}

// Under an MPI launcher with several ranks: rank 0 coordinates and prints,
// the others count.
int run_distributed(PerftOptions o) {
    const dist::Session& s = dist::world();
    const dist::RankBackend asked{o.backend, o.threads};
    if (s.rank() != 0) return dist::serve_perft(s, o.depth, asked, o.deep);
    o.deep.progress = !o.quiet;
    try {
        chess::Position root;
        const dist::DistResult r = dist::coordinate_perft(
            s, [&] { return root = position_from(o.fen, o.moves, o.chess960); }, o.depth, asked, o.deep);
        print_result(o, Report::distributed(root, r));
    } catch (const dist::DistributedFailure& e) {
        error(e.what());
        return e.status;
    } catch (const JournalError& e) {
        error(e.what());
        return EXIT_BAD_INPUT;
    }
    return EXIT_OK;
}

// perft --file: every position of the file counted at depths 1..N, written
// as JSON Lines or as EPD with ";D1 n ;D2 n ..." appended (a suite for
// another engine). A line that is no position is reported on stderr and
// makes the exit status 2; the other lines are still counted.
int run_perft_file(const PerftOptions& o) {
    if (o.single_option_given || o.deep_option_given)
        throw std::invalid_argument(
            "--file takes --depth, --epd, --json, --chess960, --shredder-fen, --backend, --threads, --progress and --quiet only");
    std::ifstream file;
    if (o.file != "-") {
        file.open(o.file, std::ios::binary);
        if (!file) throw std::invalid_argument("--file: cannot open " + o.file + ": " + std::strerror(errno));
    }
    std::istream& in = o.file == "-" ? std::cin : file;
    const std::string name = o.file == "-" ? "stdin" : o.file;
    const std::unique_ptr<Backend> backend = open_backend(o.backend, o.threads);
    int bad = 0;
    std::string line;
    // Cleared before each line of output.
    Progress bar(o.file == "-" ? 0 : count_position_lines(o.file), {.wanted = !o.quiet, .what = "positions"});
    LineReader reader(in, name);
    while (reader.next(line)) {
        const size_t n = reader.line_number();
        if (!is_position_line(line)) continue;
        const std::string fen = split_position_line(line).first;
        chess::Position root;
        try {
            root = position_from(fen, "", o.chess960);
        } catch (const chess::FenError& e) {
            bar.finish();
            error(name + " line " + std::to_string(n) + ": " + e.what());
            ++bad;
            continue;
        }
        std::vector<chess::u128> counts;
        for (int d = 1; d <= o.depth; ++d) counts.push_back(count_perft(*backend, root, d, o.deep).nodes);
        bar.finish();
        if (o.epd) {
            const std::string full = chess::to_fen(root, o.notation);
            std::string out = full.substr(0, full.rfind(' ', full.rfind(' ') - 1));  // the four EPD fields
            for (int d = 1; d <= o.depth; ++d) out += " ;D" + std::to_string(d) + " " + chess::to_string(counts[d - 1]);
            std::cout << out << "\n";
        } else {
            json::Array perft;
            for (const chess::u128& c : counts) perft.raw(json::count(c));
            json::Object row;
            row.integer("line", n).str("fen", chess::to_fen(root, o.notation));
            row.integer("depth", o.depth).cnt("nodes", counts.empty() ? chess::u128(1) : counts.back());
            row.raw("perft", perft.text());
            std::cout << row.text() << "\n";
        }
        std::cout.flush();
        chess::u128 nodes = 0;
        for (const chess::u128& c : counts) nodes += c;
        bar.advance(1, nodes);
    }
    bar.finish();
    if (bad) {
        error(name + ": " + counted(bad, "line is not a position", "lines are not positions") +
              " (see above); the others were counted");
        return EXIT_BAD_INPUT;
    }
    return EXIT_OK;
}

// How one position is counted, chosen from its options in one place: below
// the deep threshold, statistics or a plain count; else the deep engine (work
// units, tables, journal). A file's positions and a run on several ranks are
// the command's two other ways.
enum class Mode { Stats, Plain, Deep };

Mode mode_of(const PerftOptions& o, const Backend& backend) {
    if (counts_deep(backend, o.depth, o.deep_option_given)) return Mode::Deep;
    return o.stats ? Mode::Stats : Mode::Plain;
}

int run_deep(PerftOptions o, const chess::Position& root, const Backend& backend) {
    o.deep.progress = !o.quiet;
    try {
        print_result(o, Report::deep_run(root, run_deep_perft(backend, root, o.depth, o.deep)));
    } catch (const JournalError& e) {
        error(e.what());
        return EXIT_BAD_INPUT;
    }
    return EXIT_OK;
}

int run_perft_command(PerftOptions o) {
    if (!o.file.empty()) return run_perft_file(o);
    if (o.epd) throw std::invalid_argument("--epd needs --file");
    o.deep.stats = o.stats;
    if (dist::world().distributed()) return run_distributed(o);
    const chess::Position root = position_from(o.fen, o.moves, o.chess960);
    const std::unique_ptr<Backend> backend = open_backend(o.backend, o.threads);
    switch (mode_of(o, *backend)) {
        case Mode::Stats:
            return run_perft_stats(root, o.depth, *backend, o.json, o.quiet);
        case Mode::Plain: {
            PerftResult r;
            {
                Progress bar(0, {.wanted = !o.quiet, .what = "subtrees"});  // cleared before the result is printed
                r = backend->perft(root, o.depth, &bar);
            }
            print_result(o, Report::plain(root, r));
            return EXIT_OK;
        }
        case Mode::Deep:
            break;
    }
    return run_deep(o, root, *backend);
}

void add_deep_options(CLI::App& sub, PerftOptions& o) {
    std::vector<CLI::Option*> deep;
    deep.push_back(sub.add_option("--split", o.deep.split,
                                  "Plies to the work units (0: none, not with --journal; default: chosen from depth "
                                  "and backend)")
                       ->check(CLI::Range(0, MAX_SPLIT)));
    deep.push_back(sub.add_option("--hash", o.deep.hash_mb,
                                  "Transposition table in MiB, the device's on the GPU (0: none; default: automatic)")
                       ->check(CLI::Range(0LL, MAX_HASH_MB)));
    deep.push_back(sub.add_option("--host-hash", o.deep.host_hash_mb,
                                  "Lossless host table above the backend calls, MiB (0: none; default: automatic)")
                       ->check(CLI::Range(0LL, MAX_HASH_MB)));
    deep.push_back(sub.add_option("--zobrist-seed", o.deep.zobrist_seed,
                                  "Seed of the hash keys (rerun with another to confirm a result)")
                       ->check(seed_validator()));
    deep.push_back(sub.add_option("--journal", o.deep.journal,
                                  "Append finished work units to FILE; rerun with the same arguments to resume")
                       ->check(file_name_validator()));
    deep.push_back(sub.add_option("--batch-units", o.deep.batch_units, "Work units per backend call (default: adaptive)")
                       ->check(CLI::Range(1, 1 << 24)));
    deep.push_back(sub.add_flag("--hash-force", o.deep.hash_force,
                                "Keep the full --hash even where the run cannot fill it (by default it is cut to what "
                                "the run can use, with a note)"));
    sub.add_flag("-q,--quiet", o.quiet, "No progress bar or work-unit summary on stderr");
    sub.callback([&o, deep] {
        for (CLI::Option* opt : deep) o.deep_option_given |= opt->count() > 0;
    });
}

}  // namespace

Command setup_perft(CLI::App& app) {
    auto o = std::make_shared<PerftOptions>();
    CLI::App* sub = app.add_subcommand("perft", "Count the legal move paths of a given length");
    auto* fen = sub->add_option("--fen", o->fen, "Root position (default: the start position)")->transform(fen_validator());
    auto* moves = sub->add_option("--moves", o->moves, "UCI moves to play from the FEN first, space separated");
    sub->add_option("--file", o->file,
                    "Count every position of FILE (one FEN or EPD a line, '#' comments; '-': stdin) at depths 1..N, "
                    "as JSON Lines")
        ->check(file_name_validator());
    sub->add_flag("--epd", o->epd, "With --file: write each position as EPD with ';D1 n ;D2 n ...' appended");
    add_chess960_flag(*sub, o->chess960);
    add_shredder_flag(*sub, o->notation);
    sub->add_option("-d,--depth", o->depth, "Number of plies")->required()->check(CLI::Range(0, MAX_PERFT_DEPTH));
    auto* divide = sub->add_flag("--divide", o->divide, "Print the count below each root move (Stockfish's format)");
    sub->add_flag("--stats", o->stats,
                  "Count captures, en passant, castles, promotions, checks by kind, mates and stalemates at every "
                  "ply (the chessprogramming Perft Results columns and the Grand Chess Tree split)")
        ->excludes(divide);
    add_threads_option(*sub, o->threads);
    add_backend_option(*sub, o->backend);
    add_progress_option(*sub);
    auto* stats = sub->get_option("--stats");
    sub->add_flag("--json", o->json, "Print one JSON object");
    add_deep_options(*sub, *o);
    return {sub, [o, fen, moves, divide, stats] {
                o->single_option_given = *fen || *moves || *divide || *stats;
                return run_perft_command(*o);
            }};
}

}  // namespace perftide::cli
