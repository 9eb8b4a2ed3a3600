#include "mpi/dist_unique.hpp"

#include <algorithm>
#include <cstdlib>
#include <optional>

#include "base/settings.hpp"
#include "mpi/dist_perft.hpp"
#include "mpi/faults.hpp"
#include "mpi/frontier_exchange.hpp"
#include "mpi/local_worker.hpp"
#include "mpi/wire.hpp"

namespace perftide::dist {

using chess::u128;
using frontier::PlyCounts;

namespace {

// Every rank's `mine` (the same length on every rank), one vector per rank.
std::vector<Words> allgather(const Session& s, const Words& mine) {
    const std::vector<uint64_t> all = detail::allgather_words(s, mine);
    std::vector<Words> per_rank;
    for (size_t at = 0; at < all.size(); at += mine.size())
        per_rank.emplace_back(all.begin() + long(at), all.begin() + long(at + mine.size()));
    return per_rank;
}

// A failure of this rank's machine (its work directory's disk) rather than
// of the arguments every rank shares: rank 0 reports it as any rank's.
bool of_this_machine(std::exception_ptr p) {
    try {
        std::rethrow_exception(p);
    } catch (const frontier::WorkDirUnusable&) {
        return true;
    } catch (...) {
        return false;
    }
}

Failure failure_of(std::exception_ptr p) {
    try {
        std::rethrow_exception(p);
    } catch (const std::exception& e) {
        return {exit_status_of(e), e.what()};
    } catch (...) {
        return {3, "an exception of unknown type"};
    }
}

class RankExchange : public frontier::Exchange {
   public:
    explicit RankExchange(const Session& s) : s_(s), fault_(test_fault_from_env()) {}

    void agree(int ply, std::exception_ptr failure) override {
        if (!failure && fault_ && fault_->rank == s_.rank() && fault_->after_units == size_t(ply)) {
            const std::string mode = fault_->mode;
            fault_.reset();
            try {
                inject_fault(mode);
            } catch (...) {
                failure = std::current_exception();
            }
        }
        agree_on_failure(s_, failure);
    }

    void exchange(frontier::Frontier& part) override { exchange_frontier(s_, part); }

    PlyCounts sum(const PlyCounts& mine) override {
        if (!s_.distributed()) return mine;
        const std::vector<u128> totals = sum_over_ranks(s_, frontier::count_fields(mine));
        const std::vector<Words> passes = allgather(s_, {uint64_t(mine.passes)});
        uint64_t most = 0;
        for (const Words& p : passes) most = std::max(most, p[0]);
        return frontier::from_fields(mine.ply, int(most), totals);
    }

   private:
    const Session& s_;
    std::optional<TestFault> fault_;
};

class RankPassLog : public frontier::PassLog {
   public:
    RankPassLog(const Session& s, frontier::PassLog& own, int passes)
        : rank_(s.rank()),
          ranks_(s.size()),
          own_(own),
          passes_(own.passes() ? own.passes() : std::max(passes, ranks_)),
          resumed_(own.passes() != 0) {
        if (const char* f = std::getenv("PERFTIDE_TEST_PASS_FAULT")) fault_ = parse_test_fault(f);
    }
    int passes() const override { return passes_; }
    void start(int passes) override { own_.start(passes); }
    const PlyCounts* finished(int pass) const override { return pass % ranks_ == rank_ ? own_.finished(pass) : &none_; }
    // The pass count is max(--passes, ranks) or the journals', never sized
    // by --memory: more passes is the remedy.
    std::string when_a_pass_outgrows() const override {
        const std::string memory = named(Setting::Memory), passes = named(Setting::Passes);
        return resumed_ ? "the journals keep their " + std::to_string(passes_) + " passes: give more " + memory +
                              ", or start new journals with more " + passes
                        : "the ranks split the last ply into max(" + passes + ", ranks) = " + std::to_string(passes_) +
                              " passes, not sized by " + memory + ": give more " + passes + " (or more " + memory + ")";
    }
    void record(int pass, const PlyCounts& counts) override {
        own_.record(pass, counts);
        if (fault_ && fault_->rank == rank_ && ++recorded_ == fault_->after_units) inject_fault(fault_->mode);
    }

   private:
    int rank_, ranks_;
    frontier::PassLog& own_;
    int passes_;
    bool resumed_;  // the pass count is the journals'
    PlyCounts none_;
    std::optional<TestFault> fault_;
    size_t recorded_ = 0;
};

}  // namespace

std::unique_ptr<frontier::PassLog> make_rank_pass_log(const Session& s, frontier::PassLog& own, int passes) {
    return std::make_unique<RankPassLog>(s, own, passes);
}

void agree_on_failure(const Session& s, std::exception_ptr failure) {
    if (!s.distributed()) {
        if (failure) std::rethrow_exception(failure);
        return;
    }
    // Two rounds only when something failed: the lengths, then the messages.
    const Words mine = failure ? pack(failure_of(failure)) : Words{};
    const std::vector<Words> lengths = allgather(s, {mine.size()});
    uint64_t longest = 0;
    for (const Words& n : lengths) longest = std::max(longest, n[0]);
    if (longest == 0) return;
    Words padded = mine;
    padded.resize(longest, 0);
    const std::vector<Words> all = allgather(s, padded);
    int first = 0;
    while (lengths[size_t(first)][0] == 0) ++first;
    const Words& text = all[size_t(first)];
    const Failure f = unpack_failure(Words(text.begin(), text.begin() + long(lengths[size_t(first)][0])));
    if (s.rank() == 0 && failure && !of_this_machine(failure)) std::rethrow_exception(failure);
    throw DistributedFailure(s.describe(first) + " failed: " + f.message + "; the job stopped without a total",
                             f.status);
}

std::unique_ptr<frontier::Exchange> make_rank_exchange(const Session& s) { return std::make_unique<RankExchange>(s); }

std::vector<frontier::PlyCounts> unique_over_ranks(const Session& s, frontier::Expander& expander,
                                                   const chess::Position& root, int depth,
                                                   frontier::Frontier* final_part, bool split_last,
                                                   const frontier::PlyObserver& observe) {
    if (!s.distributed())
        return frontier::run_plies(expander, frontier::root_frontier(root), depth, nullptr, final_part, observe);
    const auto exchange = make_rank_exchange(s);
    const frontier::Frontier start = s.rank() == 0 ? frontier::root_frontier(root) : frontier::Frontier{};
    if (!split_last || depth == 0 || final_part || observe)
        return frontier::run_plies(expander, start, depth, exchange.get(), final_part, observe);
    frontier::Frontier part;
    std::vector<PlyCounts> plies = frontier::run_plies(expander, start, depth - 1, exchange.get(), &part);
    allgather_into(s, part, expander);
    part = {};
    const PlyCounts mine = on_every_rank(s, [&] { return expander.expand_last(depth); });
    plies.push_back(exchange->sum(mine));
    return plies;
}

std::vector<u128> sum_over_ranks(const Session& s, const std::vector<u128>& mine) {
    if (!s.distributed()) return mine;
    Words words;
    for (u128 v : mine) put_u128(words, v);
    std::vector<u128> total(mine.size(), 0);
    for (const Words& w : allgather(s, words))
        for (size_t i = 0; i < mine.size(); ++i) total[i] += get_u128(w[2 * i], w[2 * i + 1]);
    return total;
}

std::string backend_over_ranks(const Session& s, bool gpu) {
    if (!s.distributed()) return gpu ? "gpu" : "cpu";
    const std::vector<Words> all = allgather(s, {uint64_t(gpu)});
    const bool same = std::all_of(all.begin(), all.end(), [&](const Words& w) { return w[0] == all[0][0]; });
    return !same ? "mixed" : all[0][0] ? "gpu" : "cpu";
}

}  // namespace perftide::dist
