// Parallel loops for independent items: threads take indices (or chunks of
// them) from a shared counter, so uneven items balance themselves. A stop
// request (run_stop.hpp) ends a loop between items and throws Stopped here;
// an exception thrown by an item ends the loop the same way (the other
// threads take no new items) and is thrown again on the calling thread.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "base/machine.hpp"
#include "base/run_stop.hpp"

namespace perftide {

// Calls fn(local, i) for every i < n on up to `threads` threads (<= 0: all),
// each thread with a Local of its own made by make(); then merge(local) once
// a thread, one thread at a time. The sums of a parallel loop without
// atomics in the loop.
template <class Make, class Fn, class Merge>
void parallel_reduce(size_t n, int threads, Make&& make, Fn&& fn, Merge&& merge) {
    const size_t want = threads > 0 ? size_t(threads) : size_t(machine::default_threads());
    const size_t count = std::max<size_t>(1, std::min(want, n));
    std::atomic<size_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr failure;  // the first item's exception
    std::mutex merging;
    auto worker = [&] {
        try {
            auto local = make();
            for (size_t i; !failed.load(std::memory_order_relaxed) && !stop_requested() &&
                           (i = next.fetch_add(1, std::memory_order_relaxed)) < n;)
                fn(local, i);
            std::lock_guard<std::mutex> lock(merging);
            if (!failed) merge(local);
        } catch (...) {
            std::lock_guard<std::mutex> lock(merging);
            if (!failure) failure = std::current_exception();
            failed = true;
        }
    };
    std::vector<std::thread> pool;
    for (size_t t = 1; t < count; ++t) pool.emplace_back(worker);
    worker();
    for (auto& t : pool) t.join();
    if (failure) std::rethrow_exception(failure);
    throw_if_stop_requested();
}

// Calls fn(i) for every i < n on up to `threads` threads (<= 0: all).
template <class Fn>
void parallel_for(size_t n, int threads, Fn&& fn) {
    struct None {};
    parallel_reduce(n, threads, [] { return None{}; }, [&](None&, size_t i) { fn(i); }, [](None&) {});
}

// Calls fn(begin, end) for the chunks of `chunk` indices that cover [0, n).
template <class Fn>
void parallel_chunks(uint64_t n, uint64_t chunk, int threads, Fn&& fn) {
    parallel_for(size_t((n + chunk - 1) / chunk), threads,
                 [&](size_t i) { fn(i * chunk, std::min<uint64_t>(n, (i + 1) * chunk)); });
}

}  // namespace perftide
