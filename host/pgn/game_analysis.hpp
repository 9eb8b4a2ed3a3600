// The final position of every game of a PGN stream analysed, or with
// timeouts only the games lost on time, asking whether the side with time
// left could still mate (FIDE 6.9). `analyze --pgn` and the Python module's
// games() run it.
#pragma once

#include <functional>
#include <istream>
#include <string>

#include "analysis/report.hpp"

namespace perftide::pgn {

struct PgnOptions {
    std::string path;
    bool json = false;
    bool timeouts = false;
    int threads = 0;
    analysis::AnalyzeOptions analysis;
};

struct PgnTally {
    size_t games = 0, timeouts = 0, unfair = 0, skipped = 0, analysed = 0;
    // Why reading stopped before the end (compressed data cut short or
    // corrupt, a line over 64 KiB, a NUL byte); empty when it did not.
    std::string stopped;
};

// Every game of `in` (`name` in messages): one that cannot be read or played
// out goes to `skipped` with why; the others (with o.timeouts, those lost on
// time only) are analysed a chunk at a time and go to `row` in game order,
// as JSON when o.json is set, else as text. `chunk_games` games are read
// before each analysis (1: each game answered as soon as it is read).
// Input that cannot be read on (see PgnTally::stopped) ends the reading:
// every complete game before it is still analysed.
PgnTally analyze_games(std::istream& in, const std::string& name, const PgnOptions& o, size_t chunk_games,
                       const std::function<void(const std::string&)>& row,
                       const std::function<void(const std::string&)>& skipped);
// The summary as one JSON object ("stopped" only when reading stopped).
std::string summary_json(const PgnTally& t, bool timeouts, double seconds);

}  // namespace perftide::pgn
