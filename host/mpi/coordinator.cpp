// Rank 0 of distributed perft: prepares the run as a single process would
// (plan, work units, journal), then serves batches to every rank, its own
// counting thread included, until every unit is recorded or a rank fails.
#include <algorithm>
#include <chrono>
#include <memory>
#include <thread>

#include "base/settings.hpp"
#include "chess/count.hpp"
#include "deep/host_table.hpp"
#include "deep/unit_book.hpp"
#include "deep/work_units.hpp"
#include "mpi/dispatcher.hpp"
#include "mpi/dist_perft.hpp"
#include "mpi/faults.hpp"
#include "mpi/local_worker.hpp"
#include "mpi/mpi_comm.hpp"
#include "output/progress.hpp"

namespace perftide::dist {

using namespace chess;

namespace {

using Clock = std::chrono::steady_clock;

constexpr double PROGRESS_LINE_SECONDS = 60;

// Everything rank 0 settles before the first batch goes out.
struct Job {
    Position root;
    std::unique_ptr<Backend> backend;
    CounterPlan plan;
    int split = 0;
    std::unique_ptr<TableCounter> counter;
    WorkUnits units;
    std::unique_ptr<UnitBook> book;

    Job(const Session& s, const std::function<Position()>& make_root, int depth, const RankBackend& rank_backend,
        const DeepOptions& o)
        : root(make_root()), backend(open_rank_backend(s, rank_backend)) {
        plan = plan_counter(*backend, depth, o);
        split = plan_split(depth, backend->profile(), o);
        // Below the single-process threshold there would be no units to share.
        if (o.split < 0 && split == 0) split = std::min(depth, 2);
        if (split == 0) return;  // rank 0 counts alone (run_deep_perft)
        fit_run_memory(root, depth, split, *backend, o, plan);
        counter = backend->open_counter(plan.tables);
        units = build_work_units(root, split);
        book = std::make_unique<UnitBook>(root, depth, units, o.zobrist_seed, o.journal, o.stats);
    }
};

// Answers each worker's first message (hello or failure) with stop: for a
// run that ends before any batch goes out.
void dismiss_workers(const Session& s) {
    for (int r = 1; r < s.size(); ++r) {
        wait_message(s, r);
        send_words(s, r, TAG_STOP, {});
    }
}

std::string resume_hint(const std::string& journal) {
    return journal.empty() ? "start it with " + named(Setting::Journal, "FILE") + " to make a restarted job resume"
                           : "the finished work units are in the journal " + journal +
                                 ": run the same command again to resume";
}

// The batches in flight, the ranks' answers, and the first failure.
class Coordinator {
   public:
    Coordinator(const Session& s, const WorkUnits& w, UnitBook& book, int remaining, Dispatcher& dispatcher,
                LocalWorker& local, Progress& progress)
        : s_(s), w_(w), book_(book), remaining_(remaining), dispatcher_(dispatcher), local_(local),
          progress_(progress), inflight_(size_t(s.size())), stopped_(size_t(s.size()), false),
          backends_(size_t(s.size()), ""), devices_(size_t(s.size()), "") {
        fault_ = test_fault_from_env();
    }

    // Every worker's hello (its backend) or failure.
    void greet(BackendKind own, int own_threads, const std::string& own_device) {
        backends_[0] = to_string(own);
        devices_[0] = own_device;
        dispatcher_.set_rank(0, own, own_threads);
        for (int r = 1; r < s_.size(); ++r) {
            const Message m = wait_message(s_, r);
            if (m.tag == TAG_FAILURE) {
                fail(r, unpack_failure(m.words));
                continue;
            }
            if (m.tag != TAG_HELLO) throw WireError("unexpected message from " + s_.describe(r));
            const Hello h = unpack_hello(m.words);
            backends_[size_t(r)] = to_string(h.backend);
            devices_[size_t(r)] = h.device;
            dispatcher_.set_rank(r, h.backend, h.threads);
        }
    }

    // Until every unit is recorded, or a failure has been answered by every rank.
    void run() {
        for (int r = 0; r < s_.size(); ++r) dispatch(r);
        while (std::any_of(inflight_.begin(), inflight_.end(), [](const auto& b) { return b.has_value(); })) {
            if (auto m = poll_message(s_, MPI_ANY_SOURCE)) {
                handle(*m);
            } else if (local_.busy()) {
                if (auto o = local_.take(std::chrono::milliseconds(1))) handle_local(*o);
            } else {
                std::this_thread::sleep_for(std::chrono::milliseconds(1));
            }
        }
        for (int r = 1; r < s_.size(); ++r) stop(r);
        if (failure_)
            throw DistributedFailure(failure_->message + "; the job stopped without a total; " +
                                         resume_hint(book_.journal_path()),
                                     failure_->status);
    }

    const std::vector<std::string>& devices() const { return devices_; }

    std::string backend_summary() const {
        const bool same = std::all_of(backends_.begin(), backends_.end(), [&](const auto& b) { return b == backends_[0]; });
        return same ? backends_[0] : "mixed";
    }

   private:
    void dispatch(int r) {
        if (failure_) return stop(r);
        if (fault_ && r == fault_->rank && book_.done() - book_.resumed() >= fault_->after_units) {
            send_words(s_, r, TAG_TEST_FAULT, pack(Failure{0, fault_->mode}));
            inflight_[size_t(r)] = std::vector<uint32_t>{};  // it never answers with a result
            fault_.reset();
            return;
        }
        Batch b;
        b.remaining = remaining_;
        b.units = dispatcher_.next(r);
        if (b.units.empty()) return stop(r);
        for (uint32_t u : b.units) b.positions.push_back(w_.positions[u]);
        inflight_[size_t(r)] = b.units;
        if (r == 0)
            local_.give(std::move(b));
        else
            send_words(s_, r, TAG_BATCH, pack(b));
    }

    void handle(const Message& m) {
        if (m.tag == TAG_FAILURE) {
            inflight_[size_t(m.source)].reset();
            fail(m.source, unpack_failure(m.words));
            return stop(m.source);
        }
        if (m.tag != TAG_RESULT) throw WireError("unexpected message from " + s_.describe(m.source));
        record(m.source, unpack_result(m.words));
    }

    void handle_local(const LocalOutcome& o) {
        if (!o.failure) return record(0, o.result);
        inflight_[0].reset();
        fail(0, *o.failure);
    }

    void record(int r, const BatchResult& result) {
        if (!inflight_[size_t(r)] || *inflight_[size_t(r)] != result.units)
            throw WireError(s_.describe(r) + " answered with units it was not given");
        inflight_[size_t(r)].reset();
        try {
            book_.record(result.units, result.counts);  // journal first
        } catch (const std::exception& e) {
            fail(0, Failure{exit_status_of(e), e.what()});
        }
        dispatcher_.finished(r, result.units.size(), result.seconds);
        progress_.update(book_.done(), book_.nodes());
        dispatch(r);
    }

    void fail(int r, const Failure& f) {
        if (!failure_) failure_ = Failure{f.status ? f.status : 3, s_.describe(r) + " failed: " + f.message};
        for (int w = 1; w < s_.size(); ++w)
            if (!inflight_[size_t(w)]) stop(w);
    }

    void stop(int r) {
        if (r == 0 || stopped_[size_t(r)]) return;
        send_words(s_, r, TAG_STOP, {});
        stopped_[size_t(r)] = true;
    }

    const Session& s_;
    const WorkUnits& w_;
    UnitBook& book_;
    int remaining_;
    Dispatcher& dispatcher_;
    LocalWorker& local_;
    Progress& progress_;
    std::vector<std::optional<std::vector<uint32_t>>> inflight_;  // per rank: the units it is counting
    std::vector<bool> stopped_;
    std::vector<std::string> backends_;
    std::vector<std::string> devices_;
    std::optional<Failure> failure_;
    std::optional<TestFault> fault_;
};

DistResult without_units(const Session& s, const Job& job, int depth, const DeepOptions& o) {
    DistResult r;
    r.deep = run_deep_perft(*job.backend, job.root, depth, o);
    r.ranks = s.size();
    r.units_per_rank.assign(size_t(s.size()), 0);
    return r;
}

}  // namespace

DistResult coordinate_perft(const Session& s, const std::function<Position()>& make_root, int depth,
                            const RankBackend& rank_backend, DeepOptions o) {
    const auto start = Clock::now();
    install_crash_reporter(s.describe(0));
    o = rank_options(s, o);
    std::unique_ptr<Job> job;
    try {
        job = std::make_unique<Job>(s, make_root, depth, rank_backend, o);
    } catch (...) {
        dismiss_workers(s);
        throw;
    }
    if (job->split == 0) {
        dismiss_workers(s);
        return without_units(s, *job, depth, o);
    }
    const int remaining = depth - job->split;
    HostTable table(job->plan.host_hash_mb << 20);
    UnitCounter counter(*job->counter, table, o.stats);
    Dispatcher dispatcher(largest_first(job->units, job->book->todo(), remaining), s.size(), o.batch_units);
    // Launchers forward stderr through a pipe: a line a minute for the log
    // then (or every --progress seconds), the bar only where rank 0 has the
    // terminal itself.
    const bool terminal = Progress::stderr_is_terminal();
    const double asked = Progress::log_seconds();
    Progress progress(job->book->total(), {.resumed = job->book->resumed(),
                                           .wanted = o.progress,
                                           .line_seconds = terminal ? 0 : asked > 0 ? asked : PROGRESS_LINE_SECONDS});
    std::string backend;
    std::vector<std::string> devices;
    try {
        const StopReporter reporter(s.describe(0), resume_hint(o.journal));
        LocalWorker local(counter);
        Coordinator c(s, job->units, *job->book, remaining, dispatcher, local, progress);
        c.greet(job->backend->kind(), job->backend->threads(), job->backend->device_name());
        c.run();
        backend = c.backend_summary();
        devices = c.devices();
    } catch (const MpiError& e) {
        s.abort_job(e.what(), 3);
    } catch (const WireError& e) {
        s.abort_job(e.what(), 3);
    }
    progress.finish();

    DistResult r;
    r.ranks = s.size();
    r.units_per_rank = dispatcher.units_per_rank();
    r.devices = devices;
    DeepResult& d = r.deep;
    d.zobrist_seed = o.zobrist_seed;
    d.hash_mb = job->counter->cpu_table_mb();
    d.device_hash_mb = (long long)job->counter->device_table_mb();
    d.host_hash_mb = job->plan.host_hash_mb;
    fill_unit_result(d, job->root, job->units, *job->book, table.hits());
    d.perft.backend = backend;
    d.perft.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return r;
}

}  // namespace perftide::dist
