// Rank 0's own counting, on a thread beside the coordinator: batches are
// handed over and results taken back through a one-slot mailbox, so the
// coordinator keeps answering the other ranks while its engine counts, and
// only the main thread ever calls MPI.
#pragma once

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>

#include "base/errors.hpp"  // exit_status_of: a failure's status, as main gives it
#include "deep/unit_counter.hpp"
#include "mpi/wire.hpp"

namespace perftide::dist {

struct LocalOutcome {
    BatchResult result;
    std::optional<Failure> failure;  // the batch threw: what and with which exit status
};

class LocalWorker {
   public:
    explicit LocalWorker(UnitCounter& counter);
    ~LocalWorker();  // finishes the batch in hand, then stops
    LocalWorker(const LocalWorker&) = delete;
    LocalWorker& operator=(const LocalWorker&) = delete;

    // Starts counting `batch`; the worker must be idle.
    void give(Batch batch);
    bool busy() const { return busy_; }
    // The finished batch's outcome, waiting at most `wait` for it.
    std::optional<LocalOutcome> take(std::chrono::microseconds wait);

   private:
    void run();

    UnitCounter& counter_;
    std::mutex mutex_;
    std::condition_variable cv_;
    std::optional<Batch> work_;
    std::optional<LocalOutcome> outcome_;
    bool busy_ = false;  // owned by the caller's thread
    bool stop_ = false;
    std::thread thread_;
};

}  // namespace perftide::dist
