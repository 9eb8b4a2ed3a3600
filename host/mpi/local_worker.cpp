#include "mpi/local_worker.hpp"

#include <stdexcept>

namespace perftide::dist {

LocalWorker::LocalWorker(UnitCounter& counter) : counter_(counter), thread_([this] { run(); }) {}

LocalWorker::~LocalWorker() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
}

void LocalWorker::give(Batch batch) {
    if (busy_) throw std::logic_error("the local worker already has a batch");
    busy_ = true;
    {
        std::lock_guard lock(mutex_);
        work_ = std::move(batch);
    }
    cv_.notify_all();
}

std::optional<LocalOutcome> LocalWorker::take(std::chrono::microseconds wait) {
    std::unique_lock lock(mutex_);
    if (!cv_.wait_for(lock, wait, [this] { return outcome_.has_value(); })) return std::nullopt;
    std::optional<LocalOutcome> out = std::move(outcome_);
    outcome_.reset();
    busy_ = false;
    return out;
}

void LocalWorker::run() {
    for (;;) {
        Batch batch;
        {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [this] { return stop_ || work_.has_value(); });
            if (!work_) return;
            batch = std::move(*work_);
            work_.reset();
        }
        LocalOutcome out;
        out.result.units = batch.units;
        const auto start = std::chrono::steady_clock::now();
        try {
            out.result.counts = counter_.count(batch.positions, batch.remaining);
        } catch (const std::exception& e) {
            out.failure = Failure{exit_status_of(e), e.what()};
        }
        out.result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        {
            std::lock_guard lock(mutex_);
            outcome_ = std::move(out);
        }
        cv_.notify_all();
    }
}

}  // namespace perftide::dist
