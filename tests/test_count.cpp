// host/count: the backend vocabulary every front end shares.
#include <gtest/gtest.h>

#include <string>

#include "chess/io/fen.hpp"
#include "count/backend.hpp"

namespace {

using perftide::Backend;

TEST(Backend, NamesParseInAnyCaseAndPrintBack) {
    for (const Backend b : {Backend::Cpu, Backend::Gpu, Backend::Auto}) {
        const std::string name = perftide::to_string(b);
        EXPECT_EQ(perftide::parse_backend(name), b) << name;
        std::string upper = name;
        for (char& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
        EXPECT_EQ(perftide::parse_backend(upper), b) << upper;
    }
    for (const char* bad : {"", "cuda", "cpu ", "gpus"}) EXPECT_FALSE(perftide::parse_backend(bad).has_value()) << bad;
    EXPECT_EQ(perftide::not_a_backend("cuda"), "'cuda' is not a backend: use cpu, gpu or auto");
}

TEST(Backend, CpuStatisticsRowsMatchPerftAtEveryPly) {
    const chess::Position start = chess::parse_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    const auto rows = perftide::perft_stats_rows(start, 4, Backend::Cpu, 2);
    ASSERT_EQ(rows.size(), 4u);
    for (int d = 1; d <= 4; ++d)
        EXPECT_EQ(rows[d - 1].c[chess::STAT_NODES], perftide::perft_batch({start}, d, Backend::Cpu, 1)[0]) << d;
}

}  // namespace
