#include "deep/backend_counter.hpp"

#include <cstdlib>
#include <stdexcept>

#include "count/cpu_perft.hpp"
#include "journal/tally.hpp"
#include "deep/tt_perft.hpp"
#include "gpu/gpu_perft.hpp"

namespace perftide {

BackendCounter::BackendCounter(const CounterOptions& o) : options_(o), backend_(resolve_backend(o.backend)) {
    if (backend_ == Backend::Cpu && o.hash_mb > 0) {
        keys_ = chess::build_zobrist_data(o.zobrist_seed);
        if (o.stats)
            stats_table_ = std::make_unique<StatsTable>(StatsTable::buckets_for_mb(size_t(o.hash_mb)));
        else
            table_ = std::make_unique<PerftTable>(PerftTable::buckets_for_mb(size_t(o.hash_mb)));
    }
}

std::string BackendCounter::device_name() const {
    if (backend_ == Backend::Cpu) return "cpu";
    const char* visible = std::getenv("CUDA_VISIBLE_DEVICES");
    return "gpu " + gpu::status().message + (visible ? std::string(" (CUDA_VISIBLE_DEVICES=") + visible + ")" : "");
}

// The run is over: its device tables and arena go back to the device.
BackendCounter::~BackendCounter() {
    if (backend_ == Backend::Gpu) gpu::release_device_memory();
}

// The device keeps its tables between calls with the same sizes, seed and
// kind, so later batches find the subtrees (or rows) earlier ones stored.
gpu::Options BackendCounter::device_options() const {
    gpu::Options o;
    o.table_bytes = options_.hash_mb < 0 ? gpu::AUTO_TABLES : options_.hash_mb << 20;
    o.zobrist_seed = options_.zobrist_seed;
    return o;
}

std::vector<chess::u128> BackendCounter::perft_batch(const std::vector<chess::Position>& roots, int depth) {
    if (table_) return tt_perft_batch(roots, depth, options_.threads, *table_, chess::Zobrist{keys_.get()});
    if (backend_ == Backend::Cpu) return perftide::perft_batch(roots, depth, backend_, options_.threads);
    gpu::Stats stats;
    auto counts = gpu::perft_batch(roots, depth, device_options(), &stats);
    device_table_bytes_ = stats.table_bytes;
    return counts;
}

std::vector<chess::u128> BackendCounter::stats_batch(const std::vector<chess::Position>& roots, int depth) {
    if (!options_.stats) throw std::logic_error("stats_batch on a counter made for plain counts");
    if (backend_ == Backend::Cpu)
        return stats_tallies(roots, depth, options_.threads, stats_table_.get(), chess::Zobrist{keys_.get()});
    // Root after root, the rows of plies 1..depth: the tally's layout.
    gpu::Stats stats;
    const std::vector<chess::StatsTotal> rows = gpu::perft_stats(roots, depth, device_options(), &stats);
    device_table_bytes_ = stats.table_bytes;
    std::vector<chess::u128> out;
    out.reserve(rows.size() * chess::STAT_COUNT);
    for (const chess::StatsTotal& row : rows) out.insert(out.end(), row.c, row.c + chess::STAT_COUNT);
    return out;
}

}  // namespace perftide
