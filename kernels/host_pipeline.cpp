#include "host_pipeline.hpp"

#include "host_exec.hpp"
#include "level_pipeline.hpp"

namespace gperft::gpu::host {

std::vector<chess::u128> perft_batch(const std::vector<chess::Position>& roots, int depth, const Options& options,
                                     Stats* stats) {
    constexpr std::size_t DEFAULT_ARENA = std::size_t(256) << 20;
    HostExec exec(options.arena_bytes ? options.arena_bytes : DEFAULT_ARENA);
    Stats local;
    return perft_batch_with(exec, roots, depth, options, stats ? *stats : local);
}

}  // namespace gperft::gpu::host
