// The GPU pipeline run on the host (label slow): the Chess960 suite to depth
// 5, every position, divides against the CPU engine and totals against the
// file. The two Chess960 files hold the same 960 positions and counts
// (tests/data/SOURCES.md); this one is fischer.epd. Minutes of work.
#include "gpu/host_pipeline.hpp"
#include "support/engine_check.hpp"

TEST(GpuPipelineDeep, Chess960ToDepth5MatchesCpuDivides) {
    const BatchEngine pipeline = [](const std::vector<chess::Position>& roots, int depth) {
        return perftide::gpu::host::perft_batch(roots, depth, perftide::gpu::Options{});
    };
    EXPECT_EQ(check_suite_divides(pipeline, "perft/fischer.epd", 1e30, 5), 960 * 5);
}
