// A request, from inside the process, to stop the run in progress: the
// Python module's Ctrl-C. While a StopScope is open, the parallel loops check
// the request between items, stop taking new ones, and throw Stopped from
// the thread that called them, so that a stopped run never returns a partial
// count. The command line never opens a scope (its runs end by signal).
#pragma once

#include <atomic>
#include <stdexcept>

namespace perftide {

struct Stopped : std::runtime_error {
    Stopped() : std::runtime_error("stopped on request") {}
};

namespace detail {
inline std::atomic<int> stop_scopes{0};
inline std::atomic<bool> stop_flag{false};
}  // namespace detail

// Whether a caller may ask for a stop: the CPU engines then check for one
// within long work items too, so that it takes effect soon.
inline bool stop_armed() { return detail::stop_scopes.load(std::memory_order_relaxed) > 0; }
inline bool stop_requested() { return detail::stop_flag.load(std::memory_order_relaxed); }
inline void throw_if_stop_requested() {
    if (stop_requested()) throw Stopped();
}

// Open while a stoppable run is in progress; request() asks it to stop.
class StopScope {
   public:
    StopScope() { detail::stop_scopes.fetch_add(1); }
    ~StopScope() {
        if (detail::stop_scopes.fetch_sub(1) == 1) detail::stop_flag.store(false);
    }
    StopScope(const StopScope&) = delete;
    StopScope& operator=(const StopScope&) = delete;
    static void request() { detail::stop_flag.store(true); }
};

}  // namespace perftide
