// The progress line of a long run, on stderr only: a bar redrawn in place on
// a terminal (at most a few times a second, and only once the run has taken
// a second, so that short runs draw nothing), or, for logs, a whole line
// every N seconds (`--progress N`, or a distributed run's rank 0, whose
// stderr the launcher forwards). Units done of the total, the rate (nodes/s,
// or units/s when no nodes are counted) and the ETA. Nothing goes to stdout,
// which stays machine-readable. Updates may come from any thread.
#pragma once

#include <chrono>
#include <cstddef>
#include <mutex>
#include <optional>
#include <string>

#include "chess/count.hpp"

namespace perftide {

// One line of the bar, e.g.
//   [#########.........]  4120/8902 units  312.4 M nodes/s  ETA 1m05s
// total 0: an unknown total (no bar, no ETA); nodes_rate false: the rate is
// units per second.
std::string progress_line(size_t done, size_t total, double rate, double eta_seconds, const char* what = "units",
                          bool nodes_rate = true);

// "42s", "3m07s", "2h05m".
std::string format_duration(double seconds);

struct ProgressOptions {
    size_t resumed = 0;  // units finished before this run started (journal)
    bool wanted = true;  // the run draws progress at all (not --quiet)
    // The bar is drawn on a terminal; elsewhere whole lines every this many
    // seconds (none: the --progress setting, where 0 means none).
    std::optional<double> line_seconds = std::nullopt;
    const char* what = "units";  // what the units are, for the line
};

class Progress {
   public:
    using Options = ProgressOptions;
    // total 0: not known (yet).
    explicit Progress(size_t total, const Options& o = {});
    ~Progress() { finish(); }
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    // `done` units finished in all, `nodes` counted by this run so far.
    void update(size_t done, chess::u128 nodes);
    // `units` more finished, with `nodes` more counted.
    void advance(size_t units, chess::u128 nodes = 0);
    // The total, where it is known only once the run has started.
    void set_total(size_t total);
    // Clears the bar.
    void finish();

    static bool stderr_is_terminal();
    // `--progress N`: whole lines every N seconds where stderr is no
    // terminal (0: none, the default).
    static void set_log_seconds(double seconds);
    static double log_seconds();
    size_t total() const { return total_; }
    bool active() const { return enabled_; }

   private:
    using Clock = std::chrono::steady_clock;
    void draw_locked(Clock::time_point now);

    size_t total_, resumed_;
    const char* what_;
    bool enabled_, drawn_ = false, counts_nodes_ = false;
    double line_seconds_;
    size_t done_ = 0;
    chess::u128 nodes_ = 0;
    std::mutex mutex_;
    Clock::time_point start_ = Clock::now(), last_draw_{};
};

}  // namespace perftide
