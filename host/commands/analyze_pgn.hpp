// analyze --pgn: the final position of every game of a PGN file (plain,
// gzip or Zstandard; '-': standard input), or with --timeouts only the games
// lost on time, asking whether the side with time left could still mate.
#pragma once

#include <string>

#include "analysis/report.hpp"

namespace gperft::cli {

struct PgnOptions {
    std::string path;
    bool json = false;
    bool timeouts = false;
    int threads = 0;
    analysis::AnalyzeOptions analysis;
};

// Exit 0, or 2 when some games were skipped (each named on stderr).
int run_analyze_pgn(const PgnOptions& o);

}  // namespace gperft::cli
