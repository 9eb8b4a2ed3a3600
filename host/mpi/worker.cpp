// Ranks 1..K-1 of distributed perft: set up the local engine, say hello (or
// why not), then count each batch rank 0 sends until it says stop.
#include <chrono>
#include <memory>

#include "deep/host_table.hpp"
#include "deep/unit_counter.hpp"
#include "mpi/dist_perft.hpp"
#include "mpi/faults.hpp"
#include "mpi/local_worker.hpp"
#include "mpi/mpi_comm.hpp"

namespace perftide::dist {

namespace {

// Tells rank 0 what went wrong, and waits for its stop (rank 0 sends
// nothing else to a rank that has failed).
int report_failure(const Session& s, const Failure& f) {
    send_words(s, 0, TAG_FAILURE, pack(f));
    while (wait_message(s, 0).tag != TAG_STOP) {
    }
    return f.status;
}

BatchResult count_batch(UnitCounter& counter, const Batch& b) {
    const auto start = std::chrono::steady_clock::now();
    BatchResult r;
    r.units = b.units;
    r.counts = counter.count(b.positions, b.remaining);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

int serve(const Session& s, int depth, const RankBackend& asked, const DeepOptions& o) {
    std::unique_ptr<Backend> backend;
    std::unique_ptr<TableCounter> table_counter;
    std::unique_ptr<HostTable> table;
    try {
        backend = open_rank_backend(s, asked);
        const CounterPlan plan = plan_counter(*backend, depth, o);
        table_counter = backend->open_counter(plan.tables);
        table = std::make_unique<HostTable>(plan.host_hash_mb << 20);
    } catch (const std::exception& e) {
        return report_failure(s, {exit_status_of(e), e.what()});
    }
    send_words(s, 0, TAG_HELLO, pack(Hello{backend->kind(), backend->threads(), backend->device_name()}));
    UnitCounter counter(*table_counter, *table, o.stats);
    for (;;) {
        const Message m = wait_message(s, 0);
        if (m.tag == TAG_STOP) return 0;
        if (m.tag != TAG_BATCH && m.tag != TAG_TEST_FAULT)
            throw WireError("unexpected message (tag " + std::to_string(m.tag) + ") from rank 0");
        Words answer;
        try {
            if (m.tag == TAG_TEST_FAULT) inject_fault(unpack_failure(m.words).message);
            answer = pack(count_batch(counter, unpack_batch(m.words)));
        } catch (const WireError&) {
            throw;
        } catch (const std::exception& e) {
            return report_failure(s, {exit_status_of(e), e.what()});
        }
        send_words(s, 0, TAG_RESULT, answer);
    }
}

}  // namespace

int serve_perft(const Session& s, int depth, const RankBackend& asked, DeepOptions o) {
    install_crash_reporter(s.describe(s.rank()));
    o = rank_options(s, o);
    try {
        return serve(s, depth, asked, o);
    } catch (const MpiError& e) {
        s.abort_job(e.what(), 3);
    } catch (const WireError& e) {
        s.abort_job(e.what(), 3);
    }
}

}  // namespace perftide::dist
