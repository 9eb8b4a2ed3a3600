// perftide unique: distinct positions after each ply (FIDE 9.2 identity), with
// each ply classified, path counts to chosen positions (--reach), and the
// final ply's mates, stalemates or dead positions written out (--emit).
#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>

#include "analysis/report.hpp"
#include "base/machine.hpp"
#include "base/parallel.hpp"
#include "chess/identity.hpp"
#include "chess/io/count_text.hpp"
#include "chess/io/fen.hpp"
#include "commands/cli.hpp"
#include "deep/deep_perft.hpp"
#include "frontier/diagrams.hpp"
#include "frontier/frontier.hpp"
#include "journal/unique_journal.hpp"
#include "mpi/dist_perft.hpp"
#include "mpi/dist_unique.hpp"
#include "mpi/faults.hpp"
#include "mpi/frontier_exchange.hpp"
#include "output/interrupt_note.hpp"
#include "output/json.hpp"
#include "output/progress.hpp"
#include "output/text_table.hpp"
#include "output/words.hpp"

namespace perftide::cli {
namespace {

struct UniqueOptions {
    std::string fen = chess::START_FEN;
    int depth = 0;
    bool json = false;
    BackendChoice backend = BackendChoice::Auto;
    int threads = 0;
    uint64_t memory_mb = 0;
    int passes = 1;
    std::string journal;
    std::string work_dir;
    bool exact = false;  // the last ply kept and compared as whole positions
    bool diagrams = false;  // diagrams per ply: distinct, first reached, reached by one path
    std::vector<std::string> reach;
    std::vector<std::pair<std::string, std::string>> emit;  // (kind, file)
    bool dead_search = false;
    bool chess960 = false;
    chess::CastlingNotation notation = chess::CastlingNotation::XFen;
};

enum Class { MATE, STALEMATE, DEAD, OTHER, DEAD_UNKNOWN };

// What each final position is; the helpmate search runs (for positions the
// cheap tests leave open) only when asked, since it is costly.
std::vector<Class> classify_final(const frontier::Frontier& f, bool search, int threads) {
    std::vector<Class> out(f.positions.size());
    analysis::AnalyzeOptions o;
    o.mode = search ? analysis::SearchMode::Full : analysis::SearchMode::NoSearch;
    const chess::Attacks at = chess::host_attacks();
    parallel_for(out.size(), threads, [&](size_t i) {
        analysis::PositionReport r;
        analysis::fill_position(r, f.positions[i], at);
        if (*r.checkmate) {
            out[i] = MATE;
        } else if (*r.stalemate) {
            out[i] = STALEMATE;
        } else {
            if (search) analysis::finish_analysis(r, o);
            out[i] = r.dead ? (*r.dead ? DEAD : OTHER) : (search ? DEAD_UNKNOWN : OTHER);
        }
    });
    return out;
}

// The final ply's positions of class c.
frontier::Frontier pick(const frontier::Frontier& f, const std::vector<Class>& classes, Class c) {
    frontier::Frontier out;
    for (size_t i = 0; i < classes.size(); ++i)
        if (classes[i] == c) out.positions.push_back(f.positions[i]), out.counts.push_back(f.counts[i]);
    return out;
}

// One "EPD ; paths" line per position, in identity order (so the file
// does not depend on how the frontier was held or split).
void write_emitted(const frontier::Frontier& f, const std::string& path, chess::CastlingNotation notation) {
    std::vector<size_t> order(f.positions.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return chess::identity_less(f.positions[a], f.positions[b]); });
    std::ofstream out(path);
    if (!out) throw std::invalid_argument("--emit: cannot open " + path + " for writing: " + std::strerror(errno));
    for (size_t i : order) {
        std::string fen = chess::to_fen(f.positions[i], notation);
        fen = fen.substr(0, fen.rfind(' ', fen.rfind(' ') - 1));  // the four EPD fields
        out << fen << " ; " << f.counts[i] << "\n";
    }
    out.close();  // the last buffer is written here: a full disk shows now
    if (out.fail()) throw OutputError("--emit: writing " + path + " failed: " + std::strerror(errno));
}

uint64_t paths_to(const frontier::Frontier& f, const std::string& fen, bool chess960) {
    const chess::Position target = chess::canonical(position_from(fen, "", chess960), chess::host_attacks());
    for (size_t i = 0; i < f.positions.size(); ++i)
        if (f.positions[i] == target) return f.counts[i];
    return 0;
}

const std::map<std::string, Class> EMIT_KINDS{{"mates", MATE}, {"stalemates", STALEMATE}, {"dead", DEAD}};

// What a run found, over every rank.
struct UniqueResult {
    std::vector<frontier::PlyCounts> plies;
    uint64_t searched_dead = 0, unknown = 0;
    std::vector<std::pair<std::string, uint64_t>> reached;
    std::string backend;
    std::optional<size_t> passes_resumed;  // with --journal: the last ply's passes found done
    bool last_ply_kept = false;            // compared as whole positions, not by 87 bits of their keys
    std::vector<frontier::DiagramCounts> diagrams;  // with --diagrams: a row per ply
};

// One process alone takes every core by default, a rank its share.
int threads_of(const dist::Session& s, const UniqueOptions& o) {
    return s.distributed() ? dist::rank_threads(s, o.threads) : o.threads;
}

// The engine of this rank's backend (on every rank: one may lack the GPU).
std::unique_ptr<frontier::Expander> make_expander(const dist::Session& s, const UniqueOptions& o, bool& gpu,
                                              frontier::PassLog* journal, std::optional<Progress>* bar) {
    frontier::Options fo;
    fo.pass_log = journal;
    // A bar per ply (or log lines, --progress): parent expansions of its
    // passes, the children per second, and the ETA of the ply.
    if (!s.distributed())
        fo.progress = [bar](uint64_t done, uint64_t total, uint64_t children) {
            if (!*bar || total != (*bar)->total()) bar->emplace(total, Progress::Options{.what = "expansions"});
            (*bar)->update(done, children);
        };
    fo.budget_bytes = o.memory_mb << 20;
    fo.memory_sharers = s.local_size();
    fo.passes = o.passes;
    fo.work_dir = o.work_dir;
    return dist::on_every_rank(s, [&] {
        const std::unique_ptr<Backend> backend = open_backend(o.backend, threads_of(s, o));
        gpu = backend->gpu();
        if (gpu && journal) throw std::invalid_argument("--journal: only the CPU backend keeps a journal of unique");
        if (gpu && !o.work_dir.empty())
            throw std::invalid_argument("--work-dir: only the CPU backend keeps a frontier on disk");
        // A host budget the machine cannot give would end in an allocation
        // failure mid-run: refused up front (the GPU's is checked there).
        const size_t free_mb = machine::available_mb() / size_t(std::max(s.local_size(), 1));
        if (!gpu && o.memory_mb > 0 && double(o.memory_mb) > 0.9 * double(free_mb))
            throw std::invalid_argument("--memory " + std::to_string(o.memory_mb) + " MiB is more than the " +
                                        std::to_string(free_mb) + " MiB free" +
                                        (s.local_size() > 1 ? " to each rank of this machine" : ""));
        return backend->make_expander(fo);
    });
}

// The final ply's classes, the --reach counts and the --emit files (written
// by rank 0 from every rank's positions).
void finish(const dist::Session& s, const UniqueOptions& o, const frontier::Frontier& final_part, UniqueResult& r) {
    const int threads = threads_of(s, o);
    const bool need_classes = o.dead_search || !o.emit.empty();
    const std::vector<Class> classes = dist::on_every_rank(s, [&] {
        return need_classes ? classify_final(final_part, o.dead_search, threads) : std::vector<Class>{};
    });
    std::vector<chess::u128> sums(2, 0);
    for (Class c : classes) sums[0] += c == DEAD, sums[1] += c == DEAD_UNKNOWN;
    for (const std::string& fen : o.reach) sums.push_back(paths_to(final_part, fen, o.chess960 || chess::parse_fen(o.fen).chess960));
    sums = dist::sum_over_ranks(s, sums);
    r.searched_dead = uint64_t(sums[0]), r.unknown = uint64_t(sums[1]);
    for (size_t i = 0; i < o.reach.size(); ++i) r.reached.emplace_back(o.reach[i], uint64_t(sums[2 + i]));
    for (const auto& [kind, file] : o.emit) {
        const frontier::Frontier all = dist::gather_frontier(s, pick(final_part, classes, EMIT_KINDS.at(kind)));
        dist::on_every_rank(s, [&] {
            if (s.rank() == 0) write_emitted(all, file, o.notation);
        });
    }
}

UniqueResult compute(const dist::Session& s, const UniqueOptions& o, const chess::Position& root) {
    UniqueResult r;
    bool gpu = false;
    frontier::Frontier final_part;
    // The last ply's positions are kept only for what needs them.
    const bool keep_final = o.exact || o.diagrams || o.dead_search || !o.emit.empty() || !o.reach.empty();
    std::optional<UniqueJournal> journal;
    std::unique_ptr<frontier::PassLog> rank_log;  // under a launcher: the rank's passes of the last ply
    if (!o.journal.empty()) {
        if (keep_final)
            throw std::invalid_argument("--journal cannot be combined with --exact, --diagrams, --reach, --emit or --dead");
        // Under a launcher each rank journals its own passes, in FILE.rank<R>.
        const std::string path = s.distributed() ? o.journal + ".rank" + std::to_string(s.rank()) : o.journal;
        const std::string fen = chess::to_fen(root, o.notation);
        dist::on_every_rank(s, [&] {
            journal.emplace(path, fen, root.chess960, o.depth, s.rank(), s.distributed() ? s.size() : 1);
        });
        const size_t done = journal->finished_count();
        r.passes_resumed = s.distributed() ? size_t(dist::sum_over_ranks(s, {done})[0]) : done;
        if (journal->passes())
            std::fprintf(stderr, "perftide: resuming from journal %s: %zu of the last ply's %s done\n", path.c_str(),
                         done, counted(journal->passes(), "pass", "passes").c_str());
        if (s.distributed()) rank_log = dist::make_rank_pass_log(s, *journal, o.passes);
    }
    std::optional<InterruptNote> note;
    if (journal) note.emplace(journal->path());  // this rank's own file under a launcher
    {
        std::optional<Progress> bar;  // cleared before anything is printed
        frontier::PassLog* log = rank_log ? rank_log.get() : journal ? &*journal : nullptr;
        const std::unique_ptr<frontier::Expander> expander = make_expander(s, o, gpu, log, &bar);
        // Diagrams are counted on rank 0 from every rank's part of each ply.
        frontier::DiagramBook book;
        const auto count_diagrams = [&](int ply, const frontier::Frontier& part) {
            const frontier::Frontier all = s.distributed() ? dist::gather_frontier(s, part) : frontier::Frontier{};
            if (s.rank() == 0) r.diagrams.push_back(book.add(ply, s.distributed() ? all : part));
        };
        r.plies = dist::unique_over_ranks(s, *expander, root, o.depth, keep_final ? &final_part : nullptr,
                                          rank_log != nullptr, o.diagrams ? count_diagrams : frontier::PlyObserver{});
    }
    r.last_ply_kept = keep_final || gpu || o.depth == 0;  // the GPU pipeline merges whole positions
    finish(s, o, final_part, r);
    r.backend = dist::backend_over_ranks(s, gpu);
    return r;
}

void print_json(const UniqueOptions& o, const chess::Position& root, const UniqueResult& r, double seconds) {
    json::Array rows;
    for (const auto& p : r.plies) {
        json::Object row;
        row.integer("ply", p.ply);
        const std::vector<chess::u128> fields = frontier::count_fields(p);
        for (size_t i = 0; i < fields.size(); ++i) row.cnt(frontier::count_field_names()[i], fields[i]);
        if (!r.diagrams.empty()) {
            const frontier::DiagramCounts& d = r.diagrams.at(size_t(p.ply));
            row.cnt("diagrams", d.diagrams).cnt("diagrams_first", d.first).cnt("diagrams_unique", d.unique);
        }
        row.integer("passes", p.passes);
        rows.raw(row.text());
    }
    json::Object obj;
    obj.str("fen", chess::to_fen(root, o.notation)).integer("depth", o.depth).str("backend", r.backend);
    obj.num("seconds", seconds).str("last_ply_identity", r.last_ply_kept ? "positions" : "zobrist 87 bits");
    obj.raw("plies", rows.text());
    if (o.dead_search) obj.cnt("dead_searched", r.searched_dead).cnt("dead_unknown", r.unknown);
    if (r.passes_resumed) obj.integer("passes_resumed", *r.passes_resumed);
    if (!r.reached.empty()) {
        json::Object reach;
        for (const auto& [fen, n] : r.reached) reach.cnt(fen, n);
        obj.raw("reach", reach.text());
    }
    std::cout << obj.text() << std::endl;
}

void print_text(const UniqueOptions& o, const UniqueResult& r) {
    std::vector<std::string> head{"ply", "distinct", "paths", "in check", "checkmates", "stalemates", "dead", "e.p.",
                                  "castling", "passes"};
    if (!r.diagrams.empty()) head.insert(head.end() - 1, {"diagrams", "first", "one path"});
    TextTable table(head);
    for (const auto& p : r.plies) {
        std::vector<std::string> row{std::to_string(p.ply),        std::to_string(p.distinct),  chess::to_string(p.paths),
                                     std::to_string(p.in_check),   std::to_string(p.checkmates), std::to_string(p.stalemates),
                                     std::to_string(p.insufficient), std::to_string(p.en_passant), std::to_string(p.castling),
                                     std::to_string(p.passes)};
        if (!r.diagrams.empty()) {
            const frontier::DiagramCounts& d = r.diagrams.at(size_t(p.ply));
            row.insert(row.end() - 1, {std::to_string(d.diagrams), std::to_string(d.first), std::to_string(d.unique)});
        }
        table.add(row);
    }
    table.print(std::cout);
    if (o.dead_search)
        std::cout << "dead at ply " << o.depth << " with the helpmate search: " << r.searched_dead << " (" << r.unknown
                  << " undecided)\n";
    for (const auto& [fen, n] : r.reached) std::cout << "paths to " << fen << ": " << n << "\n";
}

// Every rank computes its part; rank 0 alone prints. Under a launcher a
// rank that fails stops all of them (dist::on_every_rank), and one that
// dies ends the job: it names itself, and rank 0 says that nothing was
// printed.
int run_unique_command(const UniqueOptions& o) {
    for (const auto& [kind, file] : o.emit)
        if (!EMIT_KINDS.count(kind))
            throw std::invalid_argument("--emit: '" + kind + "' is not one of mates, stalemates, dead");
    std::vector<std::pair<std::string, std::string>> outputs;
    for (const auto& [kind, file] : o.emit) outputs.emplace_back("--emit " + kind, file);
    check_distinct_outputs(outputs);
    const dist::Session& s = dist::world();
    const chess::Position root = position_from(o.fen, "", o.chess960);
    const auto start = std::chrono::steady_clock::now();
    std::optional<UniqueResult> r;
    if (!s.distributed()) {
        r = compute(s, o, root);
    } else {
        dist::install_crash_reporter(s.describe(s.rank()));
        std::optional<dist::StopReporter> reporter;
        if (s.rank() == 0)
            reporter.emplace(s.describe(0), o.journal.empty()
                                                ? "without --journal: run the command again"
                                                : "run the same command again: each rank resumes from " + o.journal +
                                                      ".rank<R>");
        try {
            r = compute(s, o, root);
        } catch (const dist::DistributedFailure& e) {
            if (s.rank() == 0) error(e.what());
            return e.status;
        } catch (const dist::MpiError& e) {
            s.abort_job(e.what(), 3);
        }
        if (s.rank() != 0) return EXIT_OK;
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (o.json) {
        print_json(o, root, *r, seconds);
        return EXIT_OK;
    }
    print_text(o, *r);
    const std::string ranks = s.distributed() ? std::to_string(s.size()) + " ranks, " : "";
    std::fprintf(stderr, "%s backend, %s%.3f s\n", r->backend.c_str(), ranks.c_str(), seconds);
    return EXIT_OK;
}

}  // namespace

Command setup_unique(CLI::App& app) {
    auto o = std::make_shared<UniqueOptions>();
    CLI::App* sub = app.add_subcommand("unique", "Count the distinct positions after each ply (FIDE 9.2 identity)");
    sub->add_option("--fen", o->fen, "Root position (default: the start position)")->transform(fen_validator());
    sub->add_option("-d,--depth", o->depth, "Number of plies")->required()->check(CLI::Range(0, 20));
    sub->add_flag("--json", o->json, "Print one JSON object");
    add_chess960_flag(*sub, o->chess960);
    add_shredder_flag(*sub, o->notation);
    add_backend_option(*sub, o->backend);
    add_progress_option(*sub);
    add_threads_option(*sub, o->threads);
    sub->add_option("--memory", o->memory_mb,
                    "Memory in MiB: on the CPU for the frontiers and their tables, on the GPU for one ply's "
                    "children; past it a ply runs in several passes (default: 60% of the free memory, or half "
                    "the GPU's)")
        ->check(CLI::Range(uint64_t(1), uint64_t(1) << 24));
    sub->add_option("--passes", o->passes,
                    "CPU: split each ply into at least this many passes by hash (the counts do not change)")
        ->check(CLI::Range(1, 4096));
    sub->add_option("--journal", o->journal,
                    "CPU: keep the last ply's finished passes in this file; the same command run again resumes a "
                    "killed run there (the plies before the last are computed again). Under mpirun each rank keeps "
                    "its own passes in FILE.rank<R>")
        ->check(file_name_validator());
    sub->add_option("--work-dir", o->work_dir,
                    "CPU: a directory for a frontier larger than half of --memory, kept in a file (deleted when "
                    "the run ends) and read back by each pass; its free space is checked before the ply")
        ->check(CLI::ExistingDirectory);
    sub->add_option("--reach", o->reach, "Print how many move paths of length depth end in this position (repeatable)")
        ->transform(fen_validator());
    sub->add_option("--emit", o->emit,
                    "KIND FILE: write the final ply's positions of KIND (mates, stalemates or dead) as 'EPD ; paths' "
                    "lines: the four EPD fields, then the number of move paths reaching the position (repeatable)");
    sub->add_flag("--exact", o->exact,
                  "Compare whole positions in the last ply too (it is kept: twice the memory of the 87-bit keys "
                  "it is otherwise counted by)");
    sub->add_flag("--diagrams", o->diagrams,
                  "Also count per ply the distinct diagrams (men on squares, whatever the side to move, castling "
                  "rights or e.p.: OEIS A019319), those reached at no earlier ply (A209433), and of those the ones "
                  "reached by one move path (A209080); keeps the last ply and every ply's diagrams (one process)");
    sub->add_flag("--dead", o->dead_search,
                  "Run the helpmate search on the final ply's positions that the cheap tests leave open (slow)");
    return {sub, [o] { return run_unique_command(*o); }};
}

}  // namespace perftide::cli
