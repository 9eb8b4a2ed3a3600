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
};

// Every game of `in` (`name` in messages): one that cannot be read or played
// out goes to `skipped` with why; the others (with o.timeouts, those lost on
// time only) are analysed a chunk at a time and go to `row` in game order,
// as JSON when o.json is set, else as text. `chunk_games` games are read
// before each analysis (1: each game answered as soon as it is read).
PgnTally analyze_games(std::istream& in, const std::string& name, const PgnOptions& o, size_t chunk_games,
                       const std::function<void(const std::string&)>& row,
                       const std::function<void(const std::string&)>& skipped);
// The summary as one JSON object.
std::string summary_json(const PgnTally& t, bool timeouts, double seconds);

}  // namespace perftide::pgn
