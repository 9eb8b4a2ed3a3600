// `import perftide`: the engines of the command line as Python functions. Each
// returns what the matching `--json` command prints, as Python objects, with
// every count an exact Python int (no strings past 2^53). A call runs without
// the GIL on a thread of its own, while the calling thread watches for
// Ctrl-C: KeyboardInterrupt stops the engines between work items (a stopped
// call returns nothing). Calls run one at a time; each uses every core.
#include <nanobind/nanobind.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <chrono>
#include <condition_variable>
#include <filesystem>
#include <memory>
#include <mutex>
#include <thread>

#include "analysis/proof_game.hpp"
#include "analysis/report.hpp"
#include "base/errors.hpp"
#include "base/run_stop.hpp"
#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "count/backend.hpp"
#include "count/cpu_stats.hpp"
#include "deep/deep_perft.hpp"
#include "frontier/diagrams.hpp"
#include "frontier/frontier.hpp"
#include "inputs/position_line.hpp"
#include "output/json.hpp"
#include "pgn/compressed_input.hpp"
#include "pgn/game_analysis.hpp"
#include "verify/verify.hpp"

namespace nb = nanobind;
using namespace perftide;
using chess::u128;

namespace {

nb::int_ to_int(u128 v) {
    const std::string digits = chess::to_string(v);
    return nb::steal<nb::int_>(PyLong_FromString(digits.c_str(), nullptr, 10));
}

nb::object from_json(const std::string& text) { return nb::module_::import_("json").attr("loads")(text); }

int threads_of(const std::optional<int>& threads) {
    if (threads && (*threads < 1 || *threads > MAX_THREADS))
        throw std::invalid_argument("threads: " + std::to_string(*threads) + " is not in 1.." + std::to_string(MAX_THREADS));
    return threads.value_or(0);
}

// The backend a call asked for by name, opened once for the call.
std::unique_ptr<Backend> open_named(const std::string& name, const std::optional<int>& threads) {
    const std::optional<BackendChoice> choice = parse_backend(name);
    if (!choice) throw std::invalid_argument(not_a_backend(name));
    return open_backend(*choice, threads_of(threads));
}

void check_depth(int depth, int most) {
    if (depth < 0 || depth > most)
        throw std::invalid_argument("depth: " + std::to_string(depth) + " is not in 0.." + std::to_string(most));
}

std::mutex one_call;  // the engines' stop request is process-wide

// Runs f on a thread of its own without the GIL; the calling thread checks
// for signals every 50 ms and, on KeyboardInterrupt (or any exception a
// signal handler raises), asks the engines to stop and raises it once f has
// returned.
template <class F>
auto run(F&& f) -> decltype(f()) {
    std::optional<decltype(f())> result;
    std::exception_ptr error;
    bool interrupted = false;
    {
        nb::gil_scoped_release no_gil;
        std::lock_guard<std::mutex> only_me(one_call);
        StopScope stop;
        std::mutex m;
        std::condition_variable cv;
        bool done = false;
        std::thread worker([&] {
            try {
                result.emplace(f());
            } catch (...) {
                error = std::current_exception();
            }
            std::lock_guard<std::mutex> g(m);
            done = true;
            cv.notify_one();
        });
        std::unique_lock<std::mutex> lock(m);
        while (!cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return done; })) {
            if (interrupted) continue;
            lock.unlock();
            {
                nb::gil_scoped_acquire gil;
                interrupted = PyErr_CheckSignals() != 0;
            }
            if (interrupted) StopScope::request();
            lock.lock();
        }
        lock.unlock();
        worker.join();
    }
    if (interrupted) throw nb::python_error();
    if (error) std::rethrow_exception(error);
    return std::move(*result);
}

nb::object perft(const std::string& fen, int depth, const std::string& moves, bool divide, const std::string& backend,
                 const std::optional<int>& threads, bool chess960) {
    check_depth(depth, 30);
    const chess::Position root = position_from(fen, moves, chess960);
    const std::unique_ptr<Backend> b = open_named(backend, threads);
    const PerftResult r = run([&] { return count_perft(*b, root, depth, {}); });
    if (!divide) return to_int(r.nodes);
    nb::dict d;
    for (const auto& [move, n] : sorted_divide(r, root)) d[nb::str(move.c_str())] = to_int(n);
    return d;
}

nb::dict stats(const std::string& fen, int depth, const std::string& moves, const std::string& backend,
               const std::optional<int>& threads, const std::optional<long long>& hash_mib, bool chess960) {
    check_depth(depth, 30);
    if (hash_mib && *hash_mib < 0) throw std::invalid_argument("hash_mib must be 0 (no table) or more, or None");
    const chess::Position root = position_from(fen, moves, chess960);
    const std::unique_ptr<Backend> b = open_named(backend, threads);
    const auto start = std::chrono::steady_clock::now();
    // As perft --stats: the deep engine (table, work units) with a table
    // size or from the deep threshold, else one plain pass.
    const bool deep = counts_deep(*b, depth, hash_mib.has_value());
    std::vector<std::string> notes;  // warned once the count is back (with the GIL)
    const std::vector<StatsTotal> rows = run([&] {
        if (deep) {
            DeepOptions o;
            o.stats = true;
            o.hash_mb = hash_mib.value_or(-1);
            o.note = [&](const std::string& text) { notes.push_back(in_words(text, Vocabulary::Python)); };
            return run_deep_perft(*b, root, depth, o).stats;
        }
        return b->stats_rows(root, depth);
    });
    for (const std::string& n : notes)
        if (PyErr_WarnEx(PyExc_UserWarning, n.c_str(), 1) != 0) throw nb::python_error();
    nb::list plies;
    for (size_t d = 0; d < rows.size(); ++d) {
        nb::dict row;
        row["depth"] = d + 1;
        for (const StatColumn& c : stat_columns()) row[c.key] = to_int(c.value(rows[d]));
        plies.append(row);
    }
    nb::dict out;
    out["fen"] = chess::to_fen(root);
    out["depth"] = depth;
    out["nodes"] = to_int(depth == 0 ? 1 : rows.back().c[chess::STAT_NODES]);
    out["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out["backend"] = b->name();
    out["stats"] = plies;
    return out;
}

constexpr uint64_t MAX_MEMORY_MIB = uint64_t(1) << 24;  // as unique --memory

nb::dict unique(int depth, const std::string& fen, const std::string& backend, const std::optional<int>& threads,
                const std::optional<uint64_t>& memory_mib, bool diagrams, bool chess960) {
    check_depth(depth, 20);
    const chess::Position root = position_from(fen, "", chess960);
    const std::unique_ptr<Backend> b = open_named(backend, threads);
    frontier::Options o;
    if (memory_mib && (*memory_mib < 1 || *memory_mib > MAX_MEMORY_MIB))
        throw std::invalid_argument("memory_mib: " + std::to_string(*memory_mib) + " is not in 1.." +
                                    std::to_string(MAX_MEMORY_MIB) + " (None: 60% of the free memory)");
    o.budget_bytes = memory_mib.value_or(0) << 20;
    const auto start = std::chrono::steady_clock::now();
    std::vector<frontier::DiagramCounts> diagram_rows;  // with diagrams: a row per ply
    const std::vector<frontier::PlyCounts> counts = run([&] {
        const auto expander = b->make_expander(o);
        if (!diagrams) return frontier::run_plies(*expander, frontier::root_frontier(root), depth, nullptr, nullptr);
        frontier::DiagramBook book;
        frontier::Frontier last;
        return frontier::run_plies(*expander, frontier::root_frontier(root), depth, nullptr, &last,
                                   [&](int ply, const frontier::Frontier& f) { diagram_rows.push_back(book.add(ply, f)); });
    });
    nb::list plies;
    for (const frontier::PlyCounts& p : counts) {
        nb::dict row;
        row["ply"] = p.ply;
        const std::vector<u128> fields = frontier::count_fields(p);
        for (size_t i = 0; i < fields.size(); ++i) row[frontier::count_field_names()[i]] = to_int(fields[i]);
        if (diagrams) {
            const frontier::DiagramCounts& d = diagram_rows.at(size_t(p.ply));
            row["diagrams"] = d.diagrams, row["diagrams_first"] = d.first, row["diagrams_unique"] = d.unique;
        }
        row["passes"] = p.passes;
        plies.append(row);
    }
    nb::dict out;
    out["fen"] = chess::to_fen(root);
    out["depth"] = depth;
    out["backend"] = b->name();
    out["seconds"] = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    out["plies"] = plies;
    return out;
}

analysis::AnalyzeOptions analyze_options(const std::string& mode, const std::string& side,
                                         const std::optional<uint64_t>& budget) {
    analysis::AnalyzeOptions a;
    if (mode == "full") a.mode = analysis::SearchMode::Full;
    else if (mode == "quick") a.mode = analysis::SearchMode::Quick;
    else if (mode == "fast") a.mode = analysis::SearchMode::Fast;
    else if (mode == "no-search") a.mode = analysis::SearchMode::NoSearch;
    else throw std::invalid_argument("mode: '" + mode + "' is not full, quick, fast or no-search");
    if (side != "white" && side != "black" && side != "both")
        throw std::invalid_argument("side: '" + side + "' is not white, black or both");
    a.side[chess::WHITE] = side != "black";
    a.side[chess::BLACK] = side != "white";
    if (budget && (*budget < 1 || *budget > uint64_t(1) << 40))
        throw std::invalid_argument("budget: " + std::to_string(*budget) + " is not in 1..2^40");
    if (budget) a.budget.max_nodes = *budget;
    return a;
}

// One position (a str: one dict, and a FEN that is not FEN raises) or many
// (a list of dicts; the index names a bad one).
nb::object analyze(nb::object fens, const std::string& side, const std::string& mode,
                   const std::optional<uint64_t>& budget, const std::string& backend,
                   const std::optional<int>& threads) {
    const bool one = nb::isinstance<nb::str>(fens);
    std::vector<std::string> lines;
    if (one) lines.push_back(nb::cast<std::string>(fens));
    else
        for (nb::handle item : fens) lines.push_back(nb::cast<std::string>(item));
    analysis::AnalyzeOptions a = analyze_options(mode, side, budget);
    a.gpu = open_named(backend, threads)->gpu() && !one;
    const int t = threads_of(threads);
    std::vector<std::string> positions, rests;
    for (const std::string& line : lines) {
        auto [fen, rest] = split_position_line(line);
        positions.push_back(fen_named(fen));
        rests.push_back(rest);
    }
    std::vector<analysis::PositionReport> reports = run([&] { return analysis::analyze_batch(positions, a, t); });
    nb::list out;
    for (size_t i = 0; i < reports.size(); ++i) {
        if (!reports[i].parsed)
            throw std::invalid_argument(one ? reports[i].problems.front()
                                            : "fens[" + std::to_string(i) + "]: " + reports[i].problems.front());
        analysis::set_origin(reports[i], rests[i], 0);
        out.append(from_json(analysis::report_json(reports[i])));
    }
    return one ? nb::object(out[0]) : nb::object(out);
}

// Where analyze_pgn's games come from: a file, or PGN bytes in memory.
struct PgnSource {
    std::string path;  // empty: `bytes`
    std::string bytes, name;
};

// A str that is not a file is PGN text when it holds a newline or starts
// (after blanks) with a tag pair, a comment, an escape line or a move
// number ("1.", "12...").
bool looks_like_pgn(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return false;
    if (s.find('\n') != std::string::npos || std::string("[{;%").find(s[a]) != std::string::npos) return true;
    size_t k = a;
    while (k < s.size() && s[k] >= '0' && s[k] <= '9') ++k;
    return k > a && k < s.size() && s[k] == '.';
}

// A str naming an existing file, or an os.PathLike: that file; bytes: PGN
// data as a file would hold it (plain, gzip or Zstandard); another str:
// PGN text when it looks like PGN, else refused.
PgnSource pgn_source(nb::handle source) {
    if (nb::isinstance<nb::bytes>(source)) {
        const nb::bytes b = nb::borrow<nb::bytes>(source);
        return {"", std::string(b.c_str(), b.size()), "bytes"};
    }
    if (!nb::isinstance<nb::str>(source) && nb::hasattr(source, "__fspath__"))
        return {nb::cast<std::string>(nb::module_::import_("os").attr("fsdecode")(source)), "", ""};
    if (!nb::isinstance<nb::str>(source))
        throw nb::type_error(("source: a str (a file name or PGN text), bytes or an os.PathLike, not " +
                              nb::cast<std::string>(nb::type_name(source.type())))
                                 .c_str());
    const std::string s = nb::cast<std::string>(source);
    std::error_code ec;
    if (std::filesystem::exists(s, ec) && !std::filesystem::is_directory(s, ec)) return {s, "", ""};
    if (looks_like_pgn(s)) return {"", s, "text"};
    throw std::invalid_argument("source: '" + s.substr(0, 80) +
                                "' is no file, nor PGN text (a tag pair, a move number or several lines)");
}

// PGN games (see pgn_source). A dict: "games" the rows of analyze --pgn
// --json, "skipped" a message for each game that could not be read or
// played out, "summary" the counts. Input that cannot be read to its end
// (cut short, a line over 64 KiB) raises ValueError.
nb::object analyze_pgn(nb::object source, bool timeouts, const std::string& mode,
                       const std::optional<uint64_t>& budget, const std::optional<int>& threads) {
    const PgnSource from = pgn_source(source);
    pgn::PgnOptions o;
    o.json = true, o.timeouts = timeouts, o.threads = threads_of(threads);
    o.analysis = analyze_options(mode, "both", budget);
    std::vector<std::string> rows, skipped;
    const auto keep_row = [&](const std::string& r) { rows.push_back(r); };
    const auto keep_skip = [&](const std::string& why) { skipped.push_back(why); };
    const auto start = std::chrono::steady_clock::now();
    const pgn::PgnTally t = run([&] {
        const auto input = from.path.empty() ? std::make_unique<pgn::CompressedInput>(from.name, from.bytes)
                                             : std::make_unique<pgn::CompressedInput>(from.path);
        std::istream in(input.get());
        return pgn::analyze_games(in, input->name(), o, 4096, keep_row, keep_skip);
    });
    if (!t.stopped.empty()) throw std::invalid_argument(t.stopped);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    nb::list games, skips;
    for (const std::string& r : rows) games.append(from_json(r));
    // Through JSON: bytes that are not UTF-8 become the code points of their values, as in the rows.
    for (const std::string& why : skipped) skips.append(from_json(json::quote(why)));
    nb::dict out;
    out["games"] = games;
    out["skipped"] = skips;
    out["summary"] = from_json(pgn::summary_json(t, timeouts, seconds));
    return out;
}

nb::object verify(int positions, int depth, uint64_t seed, const std::vector<std::string>& fens, bool chess960,
                  bool chess960_starts, int max_playout, const std::optional<int>& threads) {
    if (positions < 1) throw std::invalid_argument("positions: " + std::to_string(positions) + " is less than 1");
    check_depth(depth, 6);
    if (max_playout < 0) throw std::invalid_argument("max_playout: " + std::to_string(max_playout) + " is negative");
    VerifyOptions o;
    o.positions = positions, o.depth = depth, o.seed = seed, o.max_playout = max_playout;
    o.chess960_starts = chess960_starts;
    o.threads = threads_of(threads);
    o.roots.push_back(chess::parse_fen(chess::START_FEN));
    for (const std::string& fen : fens) o.roots.push_back(position_from(fen, "", chess960));
    const VerifyReport r = run([&] { return run_verify(o); });
    return from_json(verify_json(o, r));
}

nb::object proof(const std::string& diagram, int max_plies, size_t list_limit, uint64_t max_positions) {
    if (max_plies < 0 || max_plies > analysis::MAX_PROOF_PLIES)
        throw std::invalid_argument("max_plies: " + std::to_string(max_plies) + " is not in 0.." +
                                    std::to_string(analysis::MAX_PROOF_PLIES));
    if (max_positions < 1) throw std::invalid_argument("max_positions: 0 is less than 1");
    const analysis::Diagram target = analysis::parse_diagram(diagram);
    analysis::ProofGameOptions o;
    o.max_plies = max_plies, o.list_limit = list_limit, o.max_positions = max_positions;
    const auto start = std::chrono::steady_clock::now();
    const analysis::ProofGames r = run([&] { return analysis::find_proof_games(target, o); });
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return from_json(analysis::proof_games_json(diagram.substr(0, diagram.find_first_of(" \t")), max_plies, r, seconds));
}

// ValueError with the limit's facts: .setting (the argument's name, or the
// command line's where Python has no such argument), .asked and .limit.
void raise_limit(const LimitError& e) {
    const std::string python = std::string(name_in(e.setting, Vocabulary::Python));
    const std::string setting = python.empty() ? std::string(name_in(e.setting, Vocabulary::Cli)).substr(2) : python;
    nb::object error = nb::borrow(PyExc_ValueError)(nb::str(e.in_words(Vocabulary::Python).c_str()));
    nb::setattr(error, "setting", nb::str(setting.c_str()));
    nb::setattr(error, "asked", nb::int_(e.asked));
    nb::setattr(error, "limit", nb::int_(e.limit));
    PyErr_SetObject(PyExc_ValueError, error.ptr());
}

}  // namespace

NB_MODULE(perftide, m) {
    m.doc() = "perftide: perft counts, perft statistics, distinct positions, position analysis and move-generator "
              "verification, on the CPU or a CUDA GPU. Every count is an exact int.";
    nb::register_exception_translator([](const std::exception_ptr& p, void*) {
        try {
            std::rethrow_exception(p);
        } catch (const BackendUnavailable& e) {  // the machine, not the arguments
            PyErr_SetString(PyExc_RuntimeError, e.in_words(Vocabulary::Python).c_str());
        } catch (const LimitError& e) {  // a number past a limit: its facts as attributes
            raise_limit(e);
        } catch (const InputError& e) {  // bad input: the command line's exit 2
            PyErr_SetString(PyExc_ValueError, e.in_words(Vocabulary::Python).c_str());
        }
    });
    using namespace nb::literals;
    m.def("perft", &perft, "fen"_a, "depth"_a, nb::kw_only(), "moves"_a = "", "divide"_a = false,
          "backend"_a = "auto", "threads"_a = nb::none(), "chess960"_a = false,
          "The number of legal move paths of `depth` plies from `fen` ('startpos' or a FEN; after `moves`, UCI text). With "
          "divide=True, a dict {UCI move: count}, sorted by move text as the command line's divide.");
    m.def("stats", &stats, "fen"_a, "depth"_a, nb::kw_only(), "moves"_a = "", "backend"_a = "auto",
          "threads"_a = nb::none(), "hash_mib"_a = nb::none(), "chess960"_a = false,
          "perft --stats --json as a dict: per ply, nodes, captures, e.p., castles, promotions, checks by kind, "
          "checkmates by kind, stalemates. hash_mib: the statistics table in MiB as perft --stats --hash "
          "(0: none; None: sized from the position and depth).");
    m.def("unique", &unique, "depth"_a, "fen"_a = "startpos", nb::kw_only(), "backend"_a = "auto",
          "threads"_a = nb::none(), "memory_mib"_a = nb::none(), "diagrams"_a = false, "chess960"_a = false,
          "unique --json as a dict: distinct positions (FIDE 9.2) after each ply 0..depth, classified, with "
          "their path counts; diagrams=True adds unique --diagrams' columns (OEIS A019319, A209433, A209080).");
    m.def("analyze", &analyze, "fens"_a, nb::kw_only(), "side"_a = "both", "mode"_a = "full",
          "budget"_a = nb::none(), "backend"_a = "auto", "threads"_a = nb::none(),
          "analyze --json: one dict for a FEN (or EPD line), a list of dicts for a list of them. mode: full, quick "
          "(reach analysis and a short helpmate search), fast (no search) or no-search; budget: search nodes per side.");
    m.def("analyze_pgn", &analyze_pgn, "source"_a, nb::kw_only(), "timeouts"_a = false, "mode"_a = "full",
          "budget"_a = nb::none(), "threads"_a = nb::none(),
          "analyze --pgn --json as a dict: 'games' (one row per game: its tags, plies and the final position's "
          "report; with timeouts=True only games lost on time, with 'flagged' and 'unfair'), 'skipped' (why each "
          "game that could not be read or played out was left out) and 'summary'. source: a file (a str naming an "
          "existing file, or an os.PathLike; plain, .gz or .zst), bytes (PGN data, compressed or not), or PGN "
          "text (any other str that holds a newline or starts with '[', '{', ';', '%' or a move number).");
    m.def("proof", &proof, "diagram"_a, nb::kw_only(), "max_plies"_a = 12, "list_limit"_a = 10,
          "max_positions"_a = 20'000'000,
          "perftide proof --json as a dict: the shortest proof games of a diagram (a FEN's placement field), "
          "'verdict' dual-free, cooked, none or unknown, 'shortest' plies, 'games' and the games listed in SAN.");
    m.def("verify", &verify, nb::kw_only(), "positions"_a = 1000, "depth"_a = 2, "seed"_a = 1,
          "fens"_a = std::vector<std::string>{}, "chess960"_a = false, "chess960_starts"_a = true,
          "max_playout"_a = 200, "threads"_a = nb::none(),
          "verify --json as a dict: the move generator checked against the independent reference generator on "
          "random positions ('result' is 'clean' or 'mismatch').");
    m.def("_int_of_count_text", [](const std::string& s) {
        const std::optional<u128> v = chess::parse_u128(s);
        if (!v) throw std::invalid_argument("'" + s + "' is not a 128-bit count");
        return to_int(*v);
    }, "The conversion every count goes through (for the tests).");
}
