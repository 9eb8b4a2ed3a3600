// The progress bar of a deep run, on stderr and only on a terminal: units
// done of total, nodes/s and ETA, redrawn at most a few times per second.
// For logs (a distributed run's rank 0, whose stderr the launcher forwards)
// the same line can instead be written whole every so often. Nothing goes
// to stdout, which stays machine-readable.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "chess/count.hpp"

namespace gperft {

// One line of the bar, e.g.
//   [#########.........]  4120/8902 units  312.4 M nodes/s  ETA 1m05s
std::string progress_line(size_t done, size_t total, double nodes_per_second, double eta_seconds);

// "42s", "3m07s", "2h05m".
std::string format_duration(double seconds);

class Progress {
   public:
    // `resumed` units were finished before this run started (journal).
    // With `line_seconds` > 0, whole lines "gperft: <bar line>" at most that
    // often instead of a redrawn bar.
    Progress(size_t total, size_t resumed, bool enabled, double line_seconds = 0);
    ~Progress() { finish(); }

    // `done` units finished in all, `nodes` counted by this run so far.
    void update(size_t done, chess::u128 nodes);
    // Clears the bar.
    void finish();

    static bool stderr_is_terminal();
    size_t total() const { return total_; }

   private:
    using Clock = std::chrono::steady_clock;
    size_t total_, resumed_;
    bool enabled_, drawn_ = false;
    double line_seconds_;
    Clock::time_point start_ = Clock::now(), last_draw_{};
};

}  // namespace gperft
