// host/count: the backend vocabulary every front end shares, and the backend
// object a front end opens once.
#include <gtest/gtest.h>

#include <string>

#include "chess/io/fen.hpp"
#include "count/backend.hpp"
#include "gpu/gpu_perft.hpp"

namespace {

using perftide::BackendChoice;
using perftide::BackendKind;

TEST(Backend, NamesParseInAnyCaseAndPrintBack) {
    for (const BackendChoice b : {BackendChoice::Cpu, BackendChoice::Gpu, BackendChoice::Auto}) {
        const std::string name = perftide::to_string(b);
        EXPECT_EQ(perftide::parse_backend(name), b) << name;
        std::string upper = name;
        for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
        EXPECT_EQ(perftide::parse_backend(upper), b) << upper;
    }
    for (const char* bad : {"", "cuda", "cpu ", "gpus"}) EXPECT_FALSE(perftide::parse_backend(bad).has_value()) << bad;
    EXPECT_EQ(perftide::not_a_backend("cuda"), "'cuda' is not a backend: use cpu, gpu or auto");
}

// Auto opens the GPU exactly where a device is usable; Gpu without one is
// refused with the reason; Cpu always opens, with the threads asked.
TEST(Backend, OpensWhatWasAskedForOrSaysWhyNot) {
    const bool device = perftide::gpu::status().available;
    EXPECT_EQ(perftide::open_backend(BackendChoice::Auto)->gpu(), device);
    const auto cpu = perftide::open_backend(BackendChoice::Cpu, 3);
    EXPECT_EQ(cpu->kind(), BackendKind::Cpu);
    EXPECT_STREQ(cpu->name(), "cpu");
    EXPECT_EQ(cpu->threads(), 3);
    EXPECT_EQ(cpu->device_name(), "cpu");
    if (device) {
        EXPECT_EQ(perftide::open_backend(BackendChoice::Gpu)->kind(), BackendKind::Gpu);
    } else {
        try {
            perftide::open_backend(BackendChoice::Gpu);
            ADD_FAILURE() << "the GPU opened without a usable device";
        } catch (const perftide::BackendUnavailable& e) {
            EXPECT_NE(std::string(e.what()).find(perftide::gpu::status().message), std::string::npos) << e.what();
        }
    }
}

// Each profile is the one its kind reports; the GPU goes deep later and
// keeps larger units (a launch costs milliseconds).
TEST(Backend, EachKindCarriesItsOwnProfile) {
    const perftide::BackendProfile& cpu = perftide::profile_of(BackendKind::Cpu);
    const perftide::BackendProfile& gpu = perftide::profile_of(BackendKind::Gpu);
    EXPECT_EQ(&perftide::open_backend(BackendChoice::Cpu)->profile(), &cpu);
    EXPECT_LT(cpu.deep_threshold, gpu.deep_threshold);
    EXPECT_LT(cpu.unit_plies, gpu.unit_plies);
    EXPECT_FALSE(cpu.host_table);
    EXPECT_TRUE(gpu.host_table);
}

TEST(Backend, CpuStatisticsRowsMatchPerftAtEveryPly) {
    const chess::Position start = chess::parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    const auto two = perftide::open_backend(BackendChoice::Cpu, 2), one = perftide::open_backend(BackendChoice::Cpu, 1);
    const auto rows = two->stats_rows(start, 4);
    ASSERT_EQ(rows.size(), 4u);
    for (int d = 1; d <= 4; ++d) {
        EXPECT_EQ(rows[d - 1].c[chess::STAT_NODES], one->perft_batch({start}, d)[0]) << d;
        EXPECT_EQ(one->perft(start, d).nodes, rows[d - 1].c[chess::STAT_NODES]) << d;
    }
}

}  // namespace
