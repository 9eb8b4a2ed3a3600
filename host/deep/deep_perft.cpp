#include "deep/deep_perft.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>

#include "chess/io/fen.hpp"
#include "deep/count_math.hpp"
#include "deep/engine.hpp"
#include "deep/host_table.hpp"
#include "deep/journal.hpp"
#include "deep/progress.hpp"
#include "deep/unit_counter.hpp"
#include "deep/work_units.hpp"

namespace gperft {

using namespace chess;

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

PerftResult plain_run(const Position& root, int depth, PerftEngine& engine) {
    PerftResult r;
    if (depth <= 0) {
        r.nodes = 1;
        return r;
    }
    MoveList moves;
    generate_moves(root, host_attacks(), moves);
    std::vector<Position> children;
    for (Move m : moves) children.push_back(apply_move(root, m));
    const std::vector<u128> counts = engine.perft_batch(children, depth - 1);
    for (int i = 0; i < moves.size; ++i) {
        r.divide.emplace_back(moves.moves[i], counts[i]);
        r.nodes = checked_add(r.nodes, counts[i]);
    }
    return r;
}

JournalHeader journal_header(const Position& root, int depth, int split, uint64_t seed, size_t units) {
    JournalHeader h;
    h.depth = depth;
    h.split = split;
    h.seed = seed;
    h.units = units;
    h.fen = to_fen(root);
    return h;
}

struct UnitRun {
    std::vector<u128> counts;
    size_t resumed = 0;
};

// Counts every unit not already in the journal, in batches.
UnitRun count_units(const Position& root, int depth, const WorkUnits& w, const DeepOptions& o, PerftEngine& engine,
                    HostTable& table) {
    const int remaining = depth - w.split;
    std::vector<uint64_t> fingerprints;
    for (const Position& p : w.positions) fingerprints.push_back(unit_fingerprint(p));
    std::unique_ptr<Journal> journal;
    if (!o.journal.empty())
        journal = std::make_unique<Journal>(o.journal, journal_header(root, depth, w.split, o.zobrist_seed, w.positions.size()),
                                            fingerprints);
    UnitRun run;
    run.counts.assign(w.positions.size(), 0);
    std::vector<uint32_t> todo;
    const std::map<uint32_t, u128> none;
    const std::map<uint32_t, u128>& done = journal ? journal->done() : none;
    for (uint32_t u = 0; u < w.positions.size(); ++u) {
        if (const auto it = done.find(u); it != done.end())
            run.counts[u] = it->second, ++run.resumed;
        else
            todo.push_back(u);
    }
    Progress progress(w.positions.size(), run.resumed, o.progress && Progress::stderr_is_terminal());
    UnitCounter counter(engine, table);
    BatchSizer sizer(o.batch_units, engine.backend(), o.threads);
    u128 nodes = 0;
    for (size_t next = 0; next < todo.size();) {
        const size_t n = std::min(sizer.size(), todo.size() - next);
        std::vector<Position> batch;
        for (size_t i = 0; i < n; ++i) batch.push_back(w.positions[todo[next + i]]);
        const auto start = Clock::now();
        const std::vector<u128> counts = counter.count(batch, remaining);
        sizer.observe(n, seconds_since(start));
        std::vector<JournalUnit> lines;
        for (size_t i = 0; i < n; ++i) {
            const uint32_t u = todo[next + i];
            run.counts[u] = counts[i];
            nodes = add_product(nodes, counts[i], w.multiplicity[u]);
            lines.push_back({u, fingerprints[u], remaining, counts[i]});
        }
        if (journal) journal->append(lines);
        next += n;
        progress.update(run.resumed + next, nodes);
    }
    return run;
}

}  // namespace

int deep_threshold(Backend resolved) { return resolved == Backend::Gpu ? 9 : 7; }

int auto_split(int depth, Backend resolved) {
    if (depth < deep_threshold(resolved)) return 0;
    // Leave each unit enough plies to amortise a backend call (the GPU wants
    // large subtrees), and keep the unit count in the tens of thousands.
    const int leave = resolved == Backend::Gpu ? 7 : 5;
    return std::clamp(depth - leave, 1, resolved == Backend::Gpu ? 5 : 4);
}

size_t available_memory_mb() {
    std::ifstream meminfo("/proc/meminfo");
    std::string key;
    size_t kb = 0;
    while (meminfo >> key >> kb) {
        if (key == "MemAvailable:") return kb >> 10;
        meminfo.ignore(64, '\n');
    }
    const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? size_t(pages) * size_t(page) >> 20 : 1024;
}

size_t auto_hash_mb(int depth) {
    const size_t by_depth = size_t(64) << (2 * std::clamp(depth - 7, 0, 6));
    return std::max<size_t>(1, std::min({available_memory_mb() / 4, by_depth, size_t(4096)}));
}

size_t auto_host_hash_mb(int depth) {
    const size_t by_depth = size_t(16) << (2 * std::clamp(depth - 7, 0, 6));
    return std::max<size_t>(1, std::min({available_memory_mb() / 8, by_depth, size_t(1024)}));
}

DeepResult run_deep_perft(const Position& root, int depth, const DeepOptions& o) {
    const auto start = Clock::now();
    DeepResult d;
    const Backend backend = resolve_backend(o.backend);
    d.split = o.split >= 0 ? o.split : auto_split(depth, backend);
    if (d.split == 0 && !o.journal.empty()) d.split = std::min(depth, 2);  // a journal needs units
    if (d.split > depth)
        throw std::invalid_argument("--split " + std::to_string(d.split) + " is deeper than --depth " + std::to_string(depth));
    d.zobrist_seed = o.zobrist_seed;
    // Refused up front: an over-committed table would fail much later, as an
    // out-of-memory kill mid-run rather than a message.
    const size_t free_mb = available_memory_mb();
    if (backend == Backend::Cpu && o.hash_mb > (long long)free_mb)
        throw std::invalid_argument("--hash " + std::to_string(o.hash_mb) + " MiB is more than the free memory (" +
                                    std::to_string(free_mb) + " MiB)");
    if (o.host_hash_mb > (long long)free_mb)
        throw std::invalid_argument("--host-hash " + std::to_string(o.host_hash_mb) +
                                    " MiB is more than the free memory (" + std::to_string(free_mb) + " MiB)");
    const long long cpu_hash = o.hash_mb >= 0 ? o.hash_mb : (long long)auto_hash_mb(depth);
    PerftEngine engine({backend, o.threads, backend == Backend::Cpu ? cpu_hash : o.hash_mb, o.zobrist_seed});
    d.hash_mb = engine.cpu_table_mb();
    if (d.split == 0) {
        d.perft = plain_run(root, depth, engine);
    } else {
        // On the CPU backend the transposition table already catches what the
        // host table would (measured: the host table only adds its cost), so
        // it is on by default only above the GPU.
        d.host_hash_mb = o.host_hash_mb >= 0        ? size_t(o.host_hash_mb)
                         : backend == Backend::Cpu ? 0
                                                   : auto_host_hash_mb(depth);
        HostTable table(d.host_hash_mb << 20);
        const WorkUnits w = build_work_units(root, d.split);
        const UnitRun run = count_units(root, depth, w, o, engine, table);
        const UnitTotals t = merge_unit_counts(w, run.counts);
        d.units = w.positions.size();
        d.units_resumed = run.resumed;
        d.host_hits = table.hits();
        d.perft.nodes = t.total;
        for (size_t i = 0; i < w.root_moves.size(); ++i) d.perft.divide.emplace_back(w.root_moves[i], t.per_root_move[i]);
    }
    d.device_hash_mb = (long long)engine.device_table_mb();  // what the device ended up with
    d.perft.backend = engine.backend_name();
    d.perft.seconds = seconds_since(start);
    return d;
}

}  // namespace gperft
