#include "deep/deep_perft.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <stdexcept>
#include <string>

#include "base/errors.hpp"
#include "base/machine.hpp"
#include "chess/count.hpp"
#include "chess/io/fen.hpp"
#include "chess/perft.hpp"
#include "count/cpu_perft.hpp"
#include "count/cpu_stats.hpp"
#include "count/stats_tt.hpp"
#include "count/tt.hpp"
#include "deep/host_table.hpp"
#include "deep/unit_book.hpp"
#include "deep/unit_counter.hpp"
#include "deep/work_units.hpp"
#include "journal/tally.hpp"
#include "output/interrupt_note.hpp"
#include "output/progress.hpp"

namespace perftide {

using namespace chess;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// Counts every unit not already in the journal, in batches.
void count_units(int depth, const WorkUnits& w, const Backend& backend, const DeepOptions& o, UnitBook& book,
                 TableCounter& table_counter, HostTable& table) {
    const int remaining = depth - w.split;
    Progress progress(book.total(), {.resumed = book.resumed(), .wanted = o.progress});
    UnitCounter counter(table_counter, table, o.stats);
    BatchSizer sizer(o.batch_units, backend.profile(), backend.threads());
    const std::vector<uint32_t> todo = book.todo();
    for (size_t next = 0; next < todo.size();) {
        const size_t n = std::min(sizer.size(), todo.size() - next);
        const std::vector<uint32_t> units(todo.begin() + next, todo.begin() + next + n);
        std::vector<Position> batch;
        for (uint32_t u : units) batch.push_back(w.positions[u]);
        const auto start = Clock::now();
        const std::vector<u128> counts = counter.count(batch, remaining);
        sizer.observe(n, seconds_since(start));
        book.record(units, counts);
        next += n;
        progress.update(book.done(), book.nodes());
    }
}

}  // namespace

int auto_split(int depth, const BackendProfile& profile) {
    if (depth < profile.deep_threshold) return 0;
    // Leave each unit enough plies to amortise a backend call, and keep the
    // unit count in the tens of thousands.
    return std::clamp(depth - profile.unit_plies, 1, profile.max_split);
}


// Positions `plies` below root: exact to 3 plies, then grown by the last
// branching factor (transpositions ignored, so an upper estimate).
double estimated_perft(const Position& root, int plies) {
    const Attacks at = host_attacks();
    double n = double(chess::perft(root, at, std::min(plies, 3)));
    if (plies > 3) {
        const double b = n / std::max(1.0, double(chess::perft(root, at, 2)));
        n *= std::pow(std::max(b, 1.0), plies - 3);
    }
    return n;
}

// An upper bound on the distinct positions reachable from root, by its men:
// every man on any square (a pawn also as any promoted piece), either side
// to move, every subset of its castling rights, any e.p. file. Infinite
// (no bound worth having) from six men on.
double distinct_position_bound(const Position& root) {
    const int men = popcount(root.occupied());
    if (men > 5) return INFINITY;
    const double pawn_choices = root.pawns ? 64.0 * 5 : 64.0;
    double n = 2.0 * std::pow(2.0, popcount(root.castle_rooks)) * (root.pawns ? 9.0 : 1.0);
    for (int i = 0; i < men; ++i) n *= i < 2 ? 64.0 : pawn_choices;
    return n;
}

namespace {

// A note of the run (a setting it changed), to the front end's sink or, by
// default, to stderr in the command line's words.
void note(const DeepOptions& o, const std::string& text) {
    if (o.note) return o.note(text);
    std::fprintf(stderr, "perftide: note: %s\n", in_words(text, Vocabulary::Cli).c_str());
}

}  // namespace

void fit_run_memory(const Position& root, int depth, int split, const Backend& backend, const DeepOptions& o,
                    CounterPlan& plan) {
    const int sharers = std::max(o.memory_sharers, 1);
    // A table larger than the run can fill costs first-touch time for
    // nothing: the run stores at most one entry (16 bytes) per position and
    // remaining depth, two or more plies from the leaves. The automatic size
    // is cut to that silently, an explicit --hash with a note.
    if (!backend.gpu() && plan.tables.hash_mb > 0) {
        const double entries = std::min(estimated_perft(root, std::max(depth - 2, 0)),
                                        distinct_position_bound(root) * std::max(depth - 2, 1));
        const double entry_bytes = plan.tables.stats ? double(StatsTable::BUCKET_BYTES / StatsTable::SLOTS) : 16.0;
        const double fill = entries * entry_bytes / double(1 << 20);
        const long long useful = (long long)std::bit_ceil(size_t(std::max(1.0, std::min(fill, 1e9))));
        if (o.hash_mb < 0 && useful < plan.tables.hash_mb) plan.tables.hash_mb = useful;
        if (o.hash_mb > 0 && !o.hash_force && useful < plan.tables.hash_mb) {
            note(o, named(Setting::Hash, std::to_string(plan.tables.hash_mb)) +
                        " MiB is more than this run can fill (about " + std::to_string(std::llround(fill)) +
                        " MiB of entries); using " + std::to_string(useful) + " MiB" +
                        advice(" (", {Setting::HashForce}, " keeps the full size)"));
            plan.tables.hash_mb = useful;
        }
        const long long used = (long long)(PerftTable::buckets_for_mb(size_t(plan.tables.hash_mb)) * PerftTable::BUCKET_BYTES >> 20);
        if (o.hash_mb > 0 && used != plan.tables.hash_mb)
            note(o, named(Setting::Hash, std::to_string(plan.tables.hash_mb)) + " MiB: the table takes " +
                        std::to_string(used) + " MiB (a power of two)");
    }
    // Everything the run holds at once: its tables and the positions at the
    // split depth while they are merged into work units.
    const double unit_mb = split > 0 ? estimated_perft(root, split) * UNIT_MERGE_BYTES / double(1 << 20) : 0;
    const double cpu_mb = backend.gpu() ? 0 : double(std::max(plan.tables.hash_mb, 0LL));
    const double total_mb = cpu_mb + double(plan.host_hash_mb) + unit_mb;
    const size_t free_mb = machine::available_mb() / size_t(sharers);
    if (total_mb > 0.9 * double(free_mb)) {
        char text[400];
        std::snprintf(text, sizeof text,
                      "this run needs about %.0f MiB (table %.0f, host table %zu, work units at split %d about %.0f), "
                      "more than the %zu MiB free%s",
                      total_mb, cpu_mb, plan.host_hash_mb, split, unit_mb, free_mb,
                      sharers > 1 ? " to each rank of this machine" : "");
        // No one setting's limit: the sum of three is past 90% of the free
        // memory, so the numbers stay in the text.
        throw InputError(text + advice("; give a smaller ", {Setting::Split, Setting::Hash, Setting::HostHash}));
    }
}

size_t auto_hash_mb(int depth, int sharers, bool stats) {
    // A statistics entry is eight times a count's (a row of 14 words), so
    // its table is four times the size at a depth (measured at start d8:
    // 256 MiB 28.3 s, 1 GiB 25.1 s on 2 threads).
    const int scale = stats ? 2 : 0;
    const size_t by_depth = size_t(64) << (2 * std::clamp(depth - 7, 0, 6) + scale);
    return std::max<size_t>(1, std::min({machine::available_mb() / (4 * size_t(std::max(sharers, 1))), by_depth,
                                         size_t(4096) << scale}));
}

size_t auto_host_hash_mb(int depth, int sharers) {
    const size_t by_depth = size_t(16) << (2 * std::clamp(depth - 7, 0, 6));
    return std::max<size_t>(1, std::min({machine::available_mb() / (8 * size_t(std::max(sharers, 1))), by_depth, size_t(1024)}));
}

// Refused up front: an over-committed table would fail much later, as an
// out-of-memory kill mid-run rather than a message.
void check_fits(Setting table, long long mb, int sharers) {
    const size_t free_mb = machine::available_mb();
    if (mb <= 0 || size_t(mb) * size_t(sharers) <= free_mb) return;
    const std::string each = sharers > 1 ? " on each of " + std::to_string(sharers) + " ranks of this machine" : "";
    throw LimitError(table, mb, (long long)(free_mb / size_t(sharers)),
                     named(table, std::to_string(mb)) + " MiB" + each + " is more than the free memory (" +
                         std::to_string(free_mb) + " MiB)");
}

CounterPlan plan_counter(const Backend& backend, int depth, const DeepOptions& o) {
    const int sharers = std::max(o.memory_sharers, 1);
    if (!backend.gpu()) check_fits(Setting::Hash, o.hash_mb, sharers);
    check_fits(Setting::HostHash, o.host_hash_mb, sharers);
    if (o.stats && o.host_hash_mb > 0)
        throw InputError(named(Setting::HostHash) + ": the host table holds plain counts, statistics do not use it");
    CounterPlan p;
    const long long cpu_hash = o.hash_mb >= 0 ? o.hash_mb : (long long)auto_hash_mb(depth, sharers, o.stats);
    p.tables = {backend.gpu() ? o.hash_mb : cpu_hash, o.zobrist_seed, o.stats};
    p.host_hash_mb = o.host_hash_mb >= 0                      ? size_t(o.host_hash_mb)
                     : !backend.profile().host_table || o.stats ? 0
                                                              : auto_host_hash_mb(depth, sharers);
    return p;
}

int split_within(const Position& root, int depth, const BackendProfile& profile, size_t mb) {
    int split = auto_split(depth, profile);
    while (split > 0 && estimated_perft(root, split) * UNIT_MERGE_BYTES > double(mb) * double(1 << 20)) --split;
    return split;
}

int plan_split(int depth, const BackendProfile& profile, const DeepOptions& o) {
    // --split 0 counts the root alone, with no work units: nothing a journal
    // could record, so asking for both is refused rather than split anyway.
    if (o.split == 0 && !o.journal.empty())
        throw InputError(named(Setting::Split, "0") + " counts the root without work units, and " +
                         named(Setting::Journal) + " records work units: give " + named(Setting::Split, "1") +
                         " or more, or leave it out");
    int split = o.split >= 0 ? o.split : auto_split(depth, profile);
    // A journal records units; statistics rows are counted per unit (on
    // threads), unless --split 0 asks for the root alone.
    if (split == 0 && (!o.journal.empty() || (o.stats && o.split < 0))) split = std::min(depth, 2);
    if (split > depth)
        throw LimitError(Setting::Split, split, depth,
                         named(Setting::Split, std::to_string(split)) + " is deeper than " +
                             named(Setting::Depth, std::to_string(depth)));
    return split;
}

namespace {

// The statistics rows of a unit run: plies 1..split counted from root (a few
// plies, cheap), the plies below from every unit's tally times its paths.
std::vector<StatsTotal> merge_unit_rows(const Position& root, const WorkUnits& w, const UnitBook& book) {
    std::vector<StatsTotal> rows = cpu_perft_stats(root, w.split, 1);
    const int remaining = book.remaining();
    rows.resize(size_t(w.split + remaining));
    const std::vector<u128>& tallies = book.tallies();
    for (size_t u = 0; u < w.positions.size(); ++u) {
        const u128* tally = tallies.data() + u * book.width();
        for (int j = 0; j < remaining; ++j) {
            StatsTotal& row = rows[size_t(w.split + j)];
            for (int c = 0; c < STAT_COUNT; ++c)
                row.c[c] = add_product(row.c[c], tally[size_t(j) * STAT_COUNT + size_t(c)], w.multiplicity[u]);
        }
    }
    return rows;
}

}  // namespace

void fill_unit_result(DeepResult& d, const Position& root, const WorkUnits& w, const UnitBook& book, size_t host_hits) {
    const UnitTotals t = merge_unit_counts(w, book.counts());
    d.split = w.split;
    d.units = w.positions.size();
    d.units_resumed = book.resumed();
    d.host_hits = host_hits;
    d.perft.nodes = t.total;
    d.nodes_counted = book.nodes();
    d.perft.divide.clear();
    for (size_t i = 0; i < w.root_moves.size(); ++i) d.perft.divide.emplace_back(w.root_moves[i], t.per_root_move[i]);
    if (book.stats()) d.stats = merge_unit_rows(root, w, book);
}

DeepResult run_deep_perft(const Backend& backend, const Position& root, int depth, const DeepOptions& o) {
    const auto start = Clock::now();
    DeepResult d;
    CounterPlan plan = plan_counter(backend, depth, o);
    d.split = plan_split(depth, backend.profile(), o);
    fit_run_memory(root, depth, d.split, backend, o, plan);
    d.zobrist_seed = o.zobrist_seed;
    const std::unique_ptr<TableCounter> counter = backend.open_counter(plan.tables);
    d.hash_mb = counter->cpu_table_mb();
    if (d.split == 0 && o.stats) {
        const std::vector<u128> tally = counter->stats_batch({root}, depth);
        d.stats.resize(size_t(depth));
        for (int j = 0; j < depth; ++j) std::copy_n(tally.data() + size_t(j) * STAT_COUNT, STAT_COUNT, d.stats[size_t(j)].c);
        d.perft.nodes = tally_nodes(tally.data(), true, depth);
    } else if (d.split == 0) {
        d.perft = divide_perft(root, depth, "", [&counter](const std::vector<Position>& children, int remaining) {
            return counter->perft_batch(children, remaining);
        });  // backend and seconds are set below
    } else {
        d.host_hash_mb = plan.host_hash_mb;
        HostTable table(d.host_hash_mb << 20);
        const WorkUnits w = build_work_units(root, d.split);
        UnitBook book(root, depth, w, o.zobrist_seed, o.journal, o.stats);
        std::optional<InterruptNote> note;
        if (!o.journal.empty()) note.emplace(o.journal);
        count_units(depth, w, backend, o, book, *counter, table);
        fill_unit_result(d, root, w, book, table.hits());
    }
    if (d.split == 0) d.nodes_counted = d.perft.nodes;
    d.device_hash_mb = (long long)counter->device_table_mb();  // what the device ended up with
    d.perft.backend = backend.name();
    d.perft.seconds = seconds_since(start);
    return d;
}

bool counts_deep(const Backend& backend, int depth, bool deep_asked) {
    return deep_asked || depth >= backend.profile().deep_threshold;
}

PerftResult count_perft(const Backend& backend, const Position& root, int depth, const DeepOptions& o,
                        Progress* progress) {
    if (!counts_deep(backend, depth)) return backend.perft(root, depth, progress);
    return run_deep_perft(backend, root, depth, o).perft;
}

}  // namespace perftide
