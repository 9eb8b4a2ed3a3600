#include "host_pipeline.hpp"

#include <stdexcept>

#include "host_exec.hpp"
#include "level_pipeline.hpp"

namespace gperft::gpu::host {

namespace {

HostExec make_exec(const Options& options) {
    constexpr std::size_t DEFAULT_ARENA = std::size_t(256) << 20;
    if (options.table_bytes < AUTO_TABLES)
        throw std::invalid_argument("table_bytes must be >= 0 or AUTO_TABLES, not " + std::to_string(options.table_bytes));
    const long long tables = options.table_bytes == AUTO_TABLES ? HOST_AUTO_TABLE_BYTES : options.table_bytes;
    return HostExec(options.arena_bytes ? options.arena_bytes : DEFAULT_ARENA, std::size_t(tables), options.zobrist_seed);
}

}  // namespace

std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                     Stats* stats) {
    HostExec exec = make_exec(options);
    Stats local;
    return perft_batch_with(exec, roots, depth, options, stats ? *stats : local);
}

std::vector<StatsRow> perft_stats(const chess::Position& root, int depth, const Options& options, Stats* stats) {
    HostExec exec = make_exec(options);
    Stats local;
    return perft_stats_with(exec, root, depth, options, stats ? *stats : local);
}

}  // namespace gperft::gpu::host
